"""What bench/nav's Python oracles (oracle_py.py, oracle_c.py, oracle_rust.py) share: their
common arguments and the deterministic sample of definitions (see README.md beside this file).
"""
import argparse
import hashlib
import os


def parse_args(prog, doc, extra=None):
    """ROOT [--n 150] [--seed quarry-nav] [--sample PREFIX,...], and what extra(ap) adds:
    returns the arguments, ROOT made absolute, and the sample's path prefixes."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n")[0])
    ap.add_argument("root")
    if extra:
        extra(ap)
    ap.add_argument("--n", type=int, default=150)
    ap.add_argument("--seed", default="quarry-nav")
    ap.add_argument("--sample", default="", help="sample only definitions under these comma-separated path prefixes")
    a = ap.parse_args()
    if a.n < 1:
        ap.error("--n must be at least 1")
    root = os.path.abspath(a.root)
    if not os.path.isdir(root):
        ap.error(root + " is not a directory")
    return a, root, [p for p in a.sample.split(",") if p]


def in_sample(prefixes, rel):
    """Whether the path rel (relative to ROOT) is under one of prefixes (all when none)."""
    return not prefixes or any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in prefixes)


def hasher(seed):
    """The sample's order: a string's SHA-1 under the seed."""
    return lambda s: hashlib.sha1((seed + "\0" + s).encode()).hexdigest()


def round_robin(by_file, n, h, key=None):
    """n candidates of by_file (path -> candidates): the files in the order of h, each file's
    candidates sorted by key, one of each file in turn, so that no file fills the sample."""
    order = sorted(by_file, key=h)
    for r in order:
        by_file[r].sort(key=key)
    sample = []
    rnd = 0
    while len(sample) < n:
        took = False
        for r in order:
            lst = by_file[r]
            if rnd < len(lst) and len(sample) < n:
                sample.append(lst[rnd])
                took = True
        if not took:
            break
        rnd += 1
    return sample
