#!/usr/bin/python3
"""The Rust navigation oracle of bench/nav.sh: rustc's own name resolution and type check.

    /usr/bin/python3 oracle_rust.py ROOT [--n 150] [--seed quarry-nav] [--sample PREFIX,...]

ROOT is a crate (Cargo.toml, its library target). rustc compiles the library twice with
-Zunpretty (RUSTC_BOOTSTRAP=1, any toolchain): hir-tree gives every item, variant and field
with its span and every resolved path (types, use trees, functions and constants named by a
path, variants, patterns) with its span; thir-tree gives, in each body, what type checking
resolved: method calls and type-relative paths (Version::new) as the FnDef called, associated
constants, and field accesses (the field of the ADT the receiver is, after auto-deref). A
call of a trait's method whose Self type is one of the crate's types also counts for the
method of that impl (x.cmp(y) with x: Version: the cmp of impl Ord for Version), as
rust-analyzer counts it. Code the compilation leaves out (#[cfg] off, other targets' files)
is not seen; what macros generate (derives) is not a use; a macro's arguments are.

Prints one JSON line per sampled definition: {"name","path","line","kind","callable","uses":
[{"path","line","call"}]}, uses less the definition's own line, one per line, none outside
ROOT. See README.md beside this file.
"""
import json
import os
import re
import subprocess
import sys

import oracle_common as common
import tempfile

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

DEFID = re.compile(r"DefId\((\d+):(\d+) ~ ([^)]*)\)")
SPAN = re.compile(r"span: (\S+?):(\d+):(\d+): (\d+):(\d+) \(#(\d+)\)")
ITEM_KINDS = {"Fn": "function", "Struct": "struct", "Enum": "enum", "Union": "union", "Trait": "trait",
              "TyAlias": "type", "Const": "constant", "Static": "static"}
ASSOC_KINDS = {"Fn": "method", "Const": "constant", "Type": "type"}
KEYWORDS = {"function": "fn", "method": "fn", "struct": "struct", "enum": "enum", "union": "union",
            "trait": "trait", "type": "type", "constant": "const", "static": "static"}


def die(msg):
    sys.exit("oracle_rust: " + msg)


def indent(s):
    return len(s) - len(s.lstrip(" "))


def def_path(m):
    """semver::error::ErrorKind from the path of a DefId: the crate's disambiguator out."""
    p = re.sub(r"\[[0-9a-f]+\]", "", m.group(3))
    return p[:-len("::{constructor#0}")] if p.endswith("::{constructor#0}") else p


class Tree:
    """A -Zunpretty tree dump: its lines, read by indentation."""

    def __init__(self, text):
        self.lines = text.split("\n")

    def siblings(self, i):
        """The lines at line i's indentation in the block holding it, after i."""
        k = indent(self.lines[i])
        for j in range(i + 1, len(self.lines)):
            s = self.lines[j]
            if not s.strip():
                continue
            d = indent(s)
            if d < k:
                return
            if d == k:
                yield j, s.strip()

    def members(self, i):
        """The lines of the struct opened on line i (X {): its first line and its siblings."""
        if i + 1 < len(self.lines):
            yield i + 1, self.lines[i + 1].strip()
            yield from self.siblings(i + 1)

    def span_before(self, i, k):
        """The nearest span: line before line i at indentation k or less."""
        for j in range(i - 1, -1, -1):
            s = self.lines[j]
            if indent(s) <= k and s.lstrip().startswith("span: "):
                return SPAN.search(s)
        return None


def crate_info(root):
    path = os.path.join(root, "Cargo.toml")
    if not os.path.isfile(path):
        die(root + " has no Cargo.toml")
    with open(path, "rb") as f:
        data = f.read()
    if tomllib is not None:
        t = tomllib.loads(data.decode("utf-8", "replace"))
    else:
        die("python3 has no tomllib (Python 3.11+ needed)")
    pkg = t.get("package", {})
    lib = t.get("lib", {})
    name = lib.get("name") or pkg.get("name", "crate").replace("-", "_")
    edition = str(pkg.get("edition", "2015"))
    src = lib.get("path", "src/lib.rs")
    feats = t.get("features", {})
    on, todo = set(), list(feats.get("default", []))
    while todo:  # the default features, those that are features (not dep: or crate/feature)
        f = todo.pop()
        if f in feats and f not in on:
            on.add(f)
            todo.extend(feats[f])
    return name, edition, src, sorted(on)


def unpretty(root, what, name, edition, src, feats):
    rustc = os.environ.get("RUST_ORACLE_RUSTC", "rustc").split()
    cmd = rustc + [src, "--crate-name", name, "--crate-type", "lib", "--edition", edition,
                   "-Zunpretty=" + what, "--cap-lints", "allow"]
    for f in feats:
        cmd += ["--cfg", 'feature="%s"' % f]
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    with tempfile.TemporaryFile() as out:
        p = subprocess.run(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.PIPE)
        if p.returncode != 0:
            die("%s failed:\n%s" % (" ".join(cmd), p.stderr.decode("utf-8", "replace")[-3000:]))
        out.seek(0)
        return Tree(out.read().decode("utf-8", "replace"))


def main():
    a, root, prefixes = common.parse_args("oracle_rust.py", __doc__)
    name, edition, src, feats = crate_info(root)
    hir = unpretty(root, "hir-tree", name, edition, src, feats)
    thir = unpretty(root, "thir-tree", name, edition, src, feats)

    sources = {}

    def source(rel):
        if rel not in sources:
            try:
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                    sources[rel] = f.read().split("\n")
            except OSError:
                sources[rel] = []
        return sources[rel]

    def local(m):
        """(path, start line, start col, end line, end col) of a span in ROOT written there."""
        if m is None or m.group(6) != "0":
            return None
        p = m.group(1)
        if os.path.isabs(p):
            p = os.path.relpath(p, root)
        if p.startswith(".."):
            return None
        return p.replace(os.sep, "/"), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))

    # definitions: items, impl and trait items, variants, fields
    defs = {}  # def path -> {name, kind, path, span, ...}
    kinds = {}  # def path -> hir kind word (Fn, Mod, ...)
    fields = {}  # (adt def path, variant index) -> [field def path]
    variants = {}  # enum def path -> [variant def path]
    impls = {}  # impl def path ({impl#3}) -> (self type name, trait name)
    L = hir.lines
    for i, s in enumerate(L):
        t = s.strip()
        opener = next((L[j].strip() for j in (i - 1, i - 2) if j >= 0 and indent(L[j]) == indent(s) - 4), "")
        if t.startswith("owner_id: DefId(0:") and opener in ("Item {", "ImplItem {", "TraitItem {"):
            what = opener[:-2]
            dp = def_path(DEFID.search(t))
            span = kind = None
            for j, u in hir.siblings(i):
                if u.startswith("kind: ") and kind is None:
                    kind = u[6:].split("(")[0].split(" ")[0].rstrip(",")
                    if kind == "Impl" and what == "Item":
                        impls[dp] = impl_header(hir, j)
                elif u.startswith("span: ") and span is None:
                    span = local(SPAN.search(u))
            kinds[dp] = kind
            label = (ITEM_KINDS if what == "Item" else ASSOC_KINDS).get(kind)
            if what != "Item" and kind == "Type":
                label = None  # an associated type: its uses (Self::Err) are type-relative, not resolved in the hir tree
            if label and span:
                if what == "TraitItem" and kind == "Fn":
                    label = "method"
                defs[dp] = {"kind": label, "span": span, "what": what}
        elif t == "Variant {" or t == "FieldDef {":
            dp = span = None
            for j, u in hir.members(i):
                if u.startswith("def_id: DefId(0:"):
                    dp = def_path(DEFID.search(u))
                elif u.startswith("span: ") and span is None:
                    span = local(SPAN.search(u))
            if dp is None:
                continue
            parent = dp.rsplit("::", 1)[0]
            if t == "Variant {":
                variants.setdefault(parent, []).append(dp)
                if span:
                    defs[dp] = {"kind": "variant", "span": span, "what": "Variant"}
            else:
                # a struct's field, or a variant's: (adt, variant index)
                if parent in variants.get(parent.rsplit("::", 1)[0], []):
                    key = (parent.rsplit("::", 1)[0], variants[parent.rsplit("::", 1)[0]].index(parent))
                else:
                    key = (parent, 0)
                fields.setdefault(key, []).append(dp)
                if span:
                    defs[dp] = {"kind": "field", "span": span, "what": "Field"}

    # impl methods by (self type, trait, name), for the calls of a trait's methods
    impl_methods = {}
    for dp, d in defs.items():
        head, _, nm = dp.rpartition("::")
        if head in impls and impls[head][0]:
            impl_methods.setdefault((impls[head][0], impls[head][1], nm), []).append(dp)

    # adts by name, for field accesses (the thir tree prints a receiver's type by its name)
    adt_by_name = {}
    for dp, k in kinds.items():
        if k in ("Struct", "Union", "Enum"):
            adt_by_name.setdefault(dp.rsplit("::", 1)[-1], []).append(dp)

    uses = {}  # def path -> {(path, line): call}

    def add(dp, loc):
        if loc is None or dp not in defs:
            return
        p, l1, c1, l2, c2 = loc
        nm = dp.rsplit("::", 1)[-1]
        line = l2
        text = source(p)
        call = False
        if 0 < line <= len(text):
            s = text[line - 1]
            # the name at the end of the span; a call when a ( (after ::<...>) follows it
            # the name written in the span (not an implicit call: auto-deref, a derive)
            at = s.rfind(nm, c1 - 1 if l1 == l2 else 0, c2 - 1)
            if at < 0:
                return
            if at >= 0:
                rest = s[at + len(nm):]
                call = re.match(r"\s*(::\s*<[^()]*>\s*)?\(", rest) is not None
        u = uses.setdefault(dp, {})
        u[(p, line)] = u.get((p, line), False) or call

    # hir: resolved paths
    for i, s in enumerate(L):
        t = s.strip()
        if not t.startswith("DefId(0:"):
            continue
        # res: Def(KIND, DefId(..)), the kind possibly Ctor(Variant, Fn)
        j = i - 1
        while j > i - 7 and not L[j].strip().endswith("Def(") and re.match(r"^(\w+,|\w+\(|\),)$", L[j].strip()):
            j -= 1
        if j < 0 or not L[j].strip().endswith("Def(") or j == i - 1:
            continue
        m = hir.span_before(j, indent(L[j]))
        add(def_path(DEFID.search(t)), local(m))

    # thir: what type checking resolved in bodies
    T = thir.lines
    for i, s in enumerate(T):
        t = s.strip()
        if t.startswith("ty: FnDef(DefId("):
            # a function item used as a value: the callee of a call, a method's name
            nxt = [u for _, u in thir.siblings(i)]
            if not any(u.startswith("kind:") for u in nxt):
                continue
            j = next(j for j, u in thir.siblings(i) if u.startswith("kind:"))
            if not T[j + 1].strip().startswith("ZstLiteral"):
                continue
            sp = next((SPAN.search(u) for _, u in thir.siblings(i) if u.startswith("span: ")), None)
            loc = local(sp)
            m = DEFID.search(t)
            dp = def_path(m)
            if m.group(1) == "0":
                add(dp, loc)
            # a trait's method: the impl's method for the Self type, when the crate has it
            args = t[m.end():]
            am = re.match(r", \[(?:&'\{erased\} )*(?:mut )?([A-Za-z_].*)", args)
            parts = dp.split("::")
            if am and len(parts) >= 2:
                first, depth = [], 0  # the first generic argument: the Self type
                for ch in am.group(1):
                    if ch in "<([":
                        depth += 1
                    elif ch in ">)]":
                        if depth == 0:
                            break
                        depth -= 1
                    elif ch == "," and depth == 0:
                        break
                    first.append(ch)
                selfname = strip_generics("".join(first)).rsplit("::", 1)[-1]
                for idp in impl_methods.get((selfname, parts[-2], parts[-1]), []):
                    add(idp, loc)
        elif t.startswith("def_id: DefId(0:") and i > 0 and T[i - 1].strip() == "NamedConst {":
            add(def_path(DEFID.search(t)), local(thir.span_before(i - 1, indent(T[i - 1]))))
        elif t == "Field {":
            sp = local(thir.span_before(i, indent(s)))
            vi = fi = None
            lhs_ty = None
            for j, u in thir.members(i):
                if u.startswith("variant_index: "):
                    vi = int(u.split(": ")[1])
                elif u.startswith("name: "):
                    fi = int(u.split(": ")[1])
                elif u == "lhs:":
                    for jj in range(j + 1, min(j + 4, len(T))):
                        if T[jj].strip().startswith("ty: "):
                            lhs_ty = T[jj].strip()[4:]
                            break
                    break
            if lhs_ty is None or vi is None or fi is None:
                continue
            tn = strip_generics(lhs_ty).rsplit("::", 1)[-1]
            cands = adt_by_name.get(tn, [])
            if len(cands) != 1:
                continue
            fl = fields.get((cands[0], vi), [])
            if fi < len(fl):
                add(fl[fi], sp)

    # candidates: named, 3 characters or more, not in a function's body
    h = common.hasher(a.seed)
    by_file = {}
    ncand = 0
    for dp, d in defs.items():
        parts = dp.split("::")
        nm = parts[-1]
        if len(nm) < 3 or not re.match(r"^[A-Za-z_]\w*$", nm) or nm.startswith("{"):
            continue
        if any(kinds.get("::".join(parts[:n])) == "Fn" for n in range(1, len(parts))):
            continue
        p, l1, c1, l2, c2 = d["span"]
        if not common.in_sample(prefixes, p) or "/tests/" in "/" + p or p.startswith("benches/"):
            continue
        line = name_line(source(p), nm, d["kind"], l1, l2)
        if line is None:
            print("oracle_rust: %s: no line for %s (%s:%d)" % (dp, nm, p, l1), file=sys.stderr)
            continue
        d["line"], d["path"], d["name"] = line, p, nm
        ncand += 1
        by_file.setdefault(p, []).append((h("%s:%s:%d" % (p, nm, line)), dp))
    sample = [dp for _, dp in common.round_robin(by_file, a.n, h)]
    for dp in sample:
        d = defs[dp]
        u = {k: v for k, v in uses.get(dp, {}).items() if not (k[0] == d["path"] and k[1] == d["line"])}
        out = {"name": d["name"], "path": d["path"], "line": d["line"], "kind": d["kind"],
               "callable": d["kind"] in ("function", "method"),
               "uses": [{"path": p, "line": l, "call": u[(p, l)]} for (p, l) in sorted(u)]}
        print(json.dumps(out), flush=True)
    print("oracle_rust: crate %s (edition %s, features %s), %d candidate definitions, %d sampled"
          % (name, edition, ",".join(feats) or "-", ncand, len(sample)), file=sys.stderr)


def strip_generics(t):
    """A type's path without its generic arguments (a::B<T>::c::D<'x> -> a::B::c::D)."""
    out, depth = [], 0
    for ch in t:
        if ch == "<":
            depth += 1
        elif ch == ">" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).strip()


def impl_header(tree, j):
    """(self type name, trait name) of the impl whose kind: line is j."""
    self_name = trait_name = None
    for k, u in tree.members(j + 1):
        if (u.startswith("of_trait:") and u != "of_trait: None,") or u.startswith("self_ty:"):
            for n in range(k + 1, len(tree.lines)):
                m = DEFID.match(tree.lines[n].strip())
                if m and "res" in "".join(tree.lines[max(0, n - 3):n]):
                    nm = def_path(m).rsplit("::", 1)[-1]
                    if u.startswith("of_trait:"):
                        trait_name = nm
                    else:
                        self_name = nm
                    break
                if indent(tree.lines[n]) <= indent(tree.lines[k]) and n > k + 1:
                    break
    return self_name, trait_name


def name_line(text, nm, kind, l1, l2):
    """The line of the definition's name within its span (lines l1..l2)."""
    kw = KEYWORDS.get(kind)
    if kw:
        pat = re.compile(r"\b%s\s+%s\b" % (kw, re.escape(nm)))
    elif kind == "field":
        pat = re.compile(r"\b%s\s*:" % re.escape(nm))
    else:
        pat = re.compile(r"^\s*%s\b" % re.escape(nm))
    for ln in range(l1, min(l2, len(text)) + 1):
        s = text[ln - 1]
        if s.lstrip().startswith("//"):
            continue
        if pat.search(s):
            return ln
    return None


if __name__ == "__main__":
    main()
