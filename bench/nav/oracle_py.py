#!/usr/bin/python3
"""The Python navigation oracle of bench/nav.sh: jedi (Debian's python3-jedi) over a project.

    /usr/bin/python3 oracle_py.py ROOT [--n 150] [--seed quarry-nav] [--sample PREFIX,...]

Samples definitions deterministically (Script.get_names(all_scopes=True, definitions=True))
and prints one JSON line per definition: {"name","path","line","kind","callable","uses":
[{"path","line","call"}]}, with the uses jedi's get_references(scope='project') gives, less
the definition's own line, one per line, none outside ROOT. See README.md beside this file.
"""
import json
import os
import sys

import oracle_common as common

try:
    import jedi
    import jedi.inference.references as jedi_refs
    from jedi.parser_utils import get_parent_scope
except ImportError:
    sys.exit("oracle_py: jedi is not installed: apt-get install -y python3-jedi, and run /usr/bin/python3")

SKIP_DIRS = {"node_modules", "vendor", ".git", ".quarry", "__pycache__", ".tox", ".venv", "venv"}


def walk(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".py"):
                out.append(os.path.join(dirpath, f))
    return out


def is_call(leaf):
    """Whether the name leaf is the function of a call: f(...), a.f(...), await f(...)."""
    if leaf is None:
        return False
    parent = leaf.parent
    if parent is not None and parent.type == "trailer" and parent.children[0] == ".":
        nxt = parent.get_next_sibling()
    else:
        nxt = leaf.get_next_sibling()
    return nxt is not None and nxt.type == "trailer" and nxt.children[0] == "("


def self_attribute(tree_name):
    """Whether tree_name is x in self.x = ... (an instance attribute's definition)."""
    trailer = tree_name.parent
    if trailer is None or trailer.type != "trailer" or trailer.children[0] != ".":
        return False
    base = trailer.get_previous_sibling()
    return base is not None and base.type == "name" and base.value == "self"


def def_scope(name):
    """The start of the scope (module, class, function) the definition's def/class is in."""
    tn = name._name.tree_name
    d = tn.parent if tn is not None else None
    scope = get_parent_scope(d) if d is not None and d.type in ("funcdef", "classdef") else None
    return scope.start_pos if scope is not None else None


def scope_of(name):
    parent = name.parent()
    return (parent.line, parent.name) if parent is not None else (0, "")


def candidate(name):
    """(kind, callable) of a definition the oracle samples, else None."""
    tn = name._name.tree_name
    if tn is None:
        return None
    d = tn.get_definition()
    if d is None or d.type in ("import_from", "import_name"):
        return None
    parent = name.parent()
    ptype = parent.type if parent is not None else "module"
    if name.type == "function":
        return ("method" if ptype == "class" else "function"), True
    if name.type == "class":
        return "class", False
    if name.type in ("statement", "instance"):
        if d.type not in ("expr_stmt", "annassign"):
            return None
        if self_attribute(tn):
            return "attribute", False
        if tn.parent is not None and tn.parent.type == "trailer":
            return None  # obj.x = ... of some other object
        if ptype == "module":
            return "variable", False
        if ptype == "class":
            return "attribute", False
    return None  # params, locals, imports, loop variables


def main():
    a, root, prefixes = common.parse_args("oracle_py.py", __doc__)
    # jedi stops looking for references after 30 parsed files by default: the oracle looks in all
    jedi_refs._PARSED_FILE_LIMIT = 10 ** 6
    jedi_refs._OPENED_FILE_LIMIT = 10 ** 6
    project = jedi.Project(root)
    files = walk(root)

    def rel(p):
        return os.path.relpath(p, root).replace(os.sep, "/")

    scripts = {}

    def script(path):
        if path not in scripts:
            with open(path, encoding="utf-8", errors="replace") as f:
                scripts[path] = jedi.Script(f.read(), path=path, project=project)
        return scripts[path]

    h = common.hasher(a.seed)
    by_file = {}
    ncand = 0
    for path in files:
        r = rel(path)
        if not common.in_sample(prefixes, r) or os.path.basename(r).startswith("test_") or "/tests/" in "/" + r:
            continue
        seen = set()
        try:
            names = script(path).get_names(all_scopes=True, definitions=True, references=False)
        except Exception as e:  # a file jedi cannot read is left out, said once
            print("oracle_py: %s: %s" % (r, e), file=sys.stderr)
            continue
        # a name a scope also imports (try: import x / except ImportError: x = None) is an
        # import's fallback, not a definition: jedi merges it with every import of x
        imported = set()
        for n in names:
            tn = n._name.tree_name
            d = tn.get_definition() if tn is not None else None
            if d is not None and d.type in ("import_from", "import_name"):
                imported.add((scope_of(n), n.name))
        for n in names:
            if (scope_of(n), n.name) in imported:
                continue
            if len(n.name) < 3:
                continue
            c = candidate(n)
            if c is None:
                continue
            kind, callable_ = c
            parent = n.parent()
            # the first definition of a name in its scope is the definition; later ones
            # (self.x assigned again, a module variable reassigned) are its uses
            scope_key = (parent.line if parent is not None else 0, parent.name if parent is not None else "", n.name)
            if kind == "attribute" and self_attribute(n._name.tree_name):
                cls = parent.parent() if parent is not None else None
                scope_key = ("self", cls.line if cls is not None else 0, n.name)
            if scope_key in seen:
                continue
            seen.add(scope_key)
            ncand += 1
            by_file.setdefault(r, []).append({"path": path, "rel": r, "name": n.name, "line": n.line,
                                              "column": n.column, "kind": kind, "callable": callable_,
                                              "scope": def_scope(n),
                                              "key": h("%s:%s:%d" % (r, n.name, n.line))})
    sample = common.round_robin(by_file, a.n, h, key=lambda c: c["key"])

    for c in sample:
        uses = {}
        try:
            refs = script(c["path"]).get_references(c["line"], c["column"], scope="project")
        except Exception as e:
            print("oracle_py: get_references %s:%d %s: %s" % (c["rel"], c["line"], c["name"], e), file=sys.stderr)
            refs = []
        inside = []
        overloads = set()
        for ref in refs:
            if ref.module_path is None or ref.line is None:
                continue
            p = os.path.abspath(str(ref.module_path))
            if not p.startswith(root + os.sep):
                continue
            r = rel(p)
            if any(part in SKIP_DIRS for part in r.split("/")):
                continue
            tn = getattr(ref._name, "tree_name", None)
            if ref.is_definition() and tn is not None and tn.parent is not None and \
                    tn.parent.type in ("funcdef", "classdef") and tn.parent.name is tn:
                # another def of the name: in the definition's own scope (an @overload, a
                # redefinition) the same entity, elsewhere (an override) another; never a use
                scope = get_parent_scope(tn.parent)
                if r == c["rel"] and scope is not None and scope.start_pos == c["scope"]:
                    overloads.add((r, ref.line, ref.column))
                continue
            inside.append((ref, p, r, tn))
        # jedi also returns the uses of what the definition overrides (dict.get for a get of a
        # dict subclass): a use counts when its goto reaches the definition, or another
        # assignment of it (self.x = ... elsewhere, an import of it)
        defset = {(c["rel"], c["line"], c["column"])} | overloads
        for ref, p, r, tn in inside:
            if ref.is_definition():
                defset.add((r, ref.line, ref.column))
        for ref, p, r, tn in inside:
            if r == c["rel"] and ref.line == c["line"]:
                continue
            if not ref.is_definition():
                try:
                    gs = script(p).goto(ref.line, ref.column, follow_imports=True)
                except Exception:
                    gs = []
                if not any(g.module_path is not None and g.line is not None and
                           (rel(os.path.abspath(str(g.module_path))), g.line, g.column) in defset for g in gs):
                    continue
            call = is_call(tn)
            key = (r, ref.line)
            uses[key] = uses.get(key, False) or call
        out = {"name": c["name"], "path": c["rel"], "line": c["line"], "kind": c["kind"],
               "callable": c["callable"],
               "uses": [{"path": p, "line": l, "call": uses[(p, l)]} for (p, l) in sorted(uses)]}
        print(json.dumps(out), flush=True)
    print("oracle_py: %d files, %d candidate definitions, %d sampled" % (len(files), ncand, len(sample)), file=sys.stderr)


if __name__ == "__main__":
    main()
