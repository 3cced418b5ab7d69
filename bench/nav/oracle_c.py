#!/usr/bin/python3
"""The C and C++ navigation oracle of bench/nav.sh: libclang 14 (Debian's python3-clang-14).

    /usr/bin/python3 oracle_c.py ROOT [--lang c|cpp] [--n 150] [--seed quarry-nav]
                                 [--sample PREFIX,...] [--flags '-I... -D...']

Parses every source file of ROOT (C: .c; C++: .cc .cpp .cxx .c++) as a translation unit, and
every header of ROOT that no translation unit includes as a header unit of its own, with the
detailed preprocessing record (macro definitions and expansions). Samples definitions
deterministically and prints one JSON line per definition: {"name","path","line","kind",
"callable","uses":[{"path","line","call"}]}, the uses being the references clang resolved to
the same entity (by USR, so a declaration in a header and the definition in a .c are one),
less the definition's own line, one per line, none outside ROOT. See README.md beside this
file.
"""
import ctypes
import json
import os
import re
import shlex
import sys

import oracle_common as common

try:
    import clang.cindex as ci
except ImportError:
    sys.exit("oracle_c: libclang's binding is not installed: apt-get install -y python3-clang-14, and run /usr/bin/python3")

SKIP_DIRS = {"node_modules", "vendor", ".git", ".quarry"}
TEST_DIRS = {"test", "tests", "testsuite", "testing"}
SRC_EXT = {"c": (".c",), "cpp": (".cc", ".cpp", ".cxx", ".c++")}
HDR_EXT = {"c": (".h",), "cpp": (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc")}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

K = ci.CursorKind
FUNCS = {K.FUNCTION_DECL: "function", K.CXX_METHOD: "method", K.FUNCTION_TEMPLATE: "function"}
RECORDS = {K.STRUCT_DECL: "struct", K.UNION_DECL: "union", K.CLASS_DECL: "class",
           K.ENUM_DECL: "enum", K.CLASS_TEMPLATE: "class"}
OTHERS = {K.FIELD_DECL: "field", K.ENUM_CONSTANT_DECL: "enum_member", K.TYPEDEF_DECL: "typedef",
          K.TYPE_ALIAS_DECL: "typedef", K.TYPE_ALIAS_TEMPLATE_DECL: "typedef", K.VAR_DECL: "variable"}
SCOPES = {K.TRANSLATION_UNIT, K.NAMESPACE, K.STRUCT_DECL, K.UNION_DECL, K.CLASS_DECL,
          K.CLASS_TEMPLATE, K.ENUM_DECL, K.LINKAGE_SPEC, K.UNEXPOSED_DECL}
REFS = {K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.TYPE_REF, K.TEMPLATE_REF, K.MEMBER_REF}


class Loc(ctypes.Structure):  # CXSourceLocation
    _fields_ = [("ptr_data", ctypes.c_void_p * 2), ("int_data", ctypes.c_uint)]


lib = ctypes.CDLL(ci.conf.lib._name)  # its own function objects: cindex's keep their types
lib.clang_getSpellingLocation.argtypes = [Loc, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_uint),
                                          ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
lib.clang_getSpellingLocation.restype = None
lib.clang_getExpansionLocation.argtypes = lib.clang_getSpellingLocation.argtypes
lib.clang_getExpansionLocation.restype = None
lib.clang_getFileName.argtypes = [ctypes.c_void_p]
lib.clang_getFileName.restype = ci._CXString
lib.clang_getFileName.errcheck = ci._CXString.from_result
lib.clang_Cursor_isMacroFunctionLike.argtypes = [ci.Cursor]
lib.clang_Cursor_isMacroFunctionLike.restype = ctypes.c_uint
lib.clang_getNumOverloadedDecls.argtypes = [ci.Cursor]
lib.clang_getNumOverloadedDecls.restype = ctypes.c_uint
lib.clang_getOverloadedDecl.argtypes = [ci.Cursor, ctypes.c_uint]
lib.clang_getOverloadedDecl.restype = ci.Cursor
lib.clang_getOverloadedDecl.errcheck = ci.Cursor.from_result
lib.clang_getCursorLocation.argtypes = [ci.Cursor]
lib.clang_getCursorLocation.restype = Loc


class Range(ctypes.Structure):  # CXSourceRange
    _fields_ = [("ptr_data", ctypes.c_void_p * 2), ("begin_int_data", ctypes.c_uint), ("end_int_data", ctypes.c_uint)]


class RangeList(ctypes.Structure):  # CXSourceRangeList
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(Range))]


lib.clang_getAllSkippedRanges.argtypes = [ctypes.c_void_p]
lib.clang_getAllSkippedRanges.restype = ctypes.POINTER(RangeList)
lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(RangeList)]
lib.clang_disposeSourceRangeList.restype = None
lib.clang_getRangeStart.argtypes = [Range]
lib.clang_getRangeStart.restype = Loc
lib.clang_getRangeEnd.argtypes = [Range]
lib.clang_getRangeEnd.restype = Loc


def skipped_lines(tu):
    """The lines of tu's files the preprocessor skipped (#if branches not compiled): {path: set}."""
    out = {}
    rl = lib.clang_getAllSkippedRanges(tu._as_parameter_)
    if not rl:
        return out
    try:
        for i in range(rl.contents.count):
            r = rl.contents.ranges[i]
            f, l1, l2 = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint()
            col, off = ctypes.c_uint(), ctypes.c_uint()
            lib.clang_getSpellingLocation(lib.clang_getRangeStart(r), ctypes.byref(f), ctypes.byref(l1), ctypes.byref(col), ctypes.byref(off))
            if not f.value:
                continue
            name = lib.clang_getFileName(f.value)
            lib.clang_getSpellingLocation(lib.clang_getRangeEnd(r), None, ctypes.byref(l2), ctypes.byref(col), ctypes.byref(off))
            # the #if/#else lines themselves are compiled directives: only the lines between
            lines = out.setdefault(os.path.realpath(name), set())
            lines.update(range(l1.value + 1, l2.value))
    finally:
        lib.clang_disposeSourceRangeList(rl)
    return out


def positions(cursor):
    """The cursor's spelling and expansion positions: [(file, line, column)]."""
    loc = lib.clang_getCursorLocation(cursor)
    out = []
    for fn in (lib.clang_getSpellingLocation, lib.clang_getExpansionLocation):
        f, line, col, off = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        fn(loc, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col), ctypes.byref(off))
        if f.value:
            out.append((lib.clang_getFileName(f), line.value, col.value))
    return out


def main():
    def extra(ap):
        ap.add_argument("--lang", default="c", choices=["c", "cpp"])
        ap.add_argument("--flags", default="", help="compile flags for every unit (-I, -D, -std)")
    a, root, prefixes = common.parse_args("oracle_c.py", __doc__, extra)
    root = os.path.realpath(root)
    cpp = a.lang == "cpp"
    flags = shlex.split(a.flags) + (["-std=c++17"] if cpp and "-std=" not in a.flags else [])

    sources, headers = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for f in sorted(filenames):
            p = os.path.join(dirpath, f)
            if f.endswith(SRC_EXT[a.lang]):
                sources.append(p)
            elif f.endswith(HDR_EXT[a.lang]):
                headers.append(p)

    def rel(p):
        return os.path.relpath(p, root).replace(os.sep, "/")

    # a source another one includes (#include "alg-yescrypt-platform.c") is part of that unit
    included = set()
    for p in sources:
        with open(p, encoding="utf-8", errors="replace") as fh:
            for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"', fh.read(), re.M):
                if m.group(1).endswith(SRC_EXT[a.lang]):
                    included.add(os.path.realpath(os.path.join(os.path.dirname(p), m.group(1))))
    sources = [p for p in sources if os.path.realpath(p) not in included]

    def inroot(p):
        return p is not None and os.path.realpath(p).startswith(root + os.sep)

    lines = {}

    def text(p):
        if p not in lines:
            with open(p, encoding="utf-8", errors="replace") as fh:
                lines[p] = fh.read().split("\n")
        return lines[p]

    def word_at(p, line, col):
        ls = text(p)
        if line < 1 or line > len(ls):
            return ""
        m = IDENT.match(ls[line - 1], col - 1)
        return m.group(0) if m else ""

    index = ci.Index.create()
    opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | ci.TranslationUnit.PARSE_INCOMPLETE
    defs = {}     # key (USR, or macro's file:line) -> candidate
    uses = {}     # key -> {(spelling pos, expansion pos): call}
    macros = {}   # macro name -> [key] (macro definitions of ROOT)
    bodies = []   # (macro key, path, line, [(identifier, line)]) of ROOT's macro bodies
    expanded = {}  # (path, line, column) of a macro's expansion -> the macro's key
    calls = set()
    skipped_body = set()  # (path, line) of the bodies of macros never expanded
    reached = set()
    includes = {}  # file -> the files it includes
    nerr = 0
    seen_in = {}   # file -> how many units it was part of
    skipped = {}   # (file, line) -> in how many units the preprocessor skipped it

    def canon(c):
        """The entity a reference means: a member of a template's instance is the template's."""
        for _ in range(4):
            t = c.specialized_template if hasattr(c, "specialized_template") else None
            if t is None:
                t = ci.conf.lib.clang_getSpecializedCursorTemplate(c)
            if t is None or t.kind.is_invalid() or t == c:
                break
            c = t
        if c.kind == K.FIELD_DECL:
            p = c.semantic_parent
            if p is not None:
                t = ci.conf.lib.clang_getSpecializedCursorTemplate(p)
                if t is not None and not t.kind.is_invalid():
                    for ch in t.get_children():
                        if ch.kind == K.FIELD_DECL and ch.spelling == c.spelling:
                            return ch
        return c

    def candidate(c):
        """(kind, callable) of a definition the oracle samples, else None."""
        k = c.kind
        if k in FUNCS:
            if not c.is_definition() and not (k == K.CXX_METHOD and c.is_pure_virtual_method()):
                return None
            if c.spelling.startswith("operator"):
                return None
            return FUNCS[k], True
        if k in RECORDS:
            return (RECORDS[k], False) if c.is_definition() else None
        if k in OTHERS:
            if k == K.VAR_DECL:
                p = c.semantic_parent
                if p is None or p.kind not in SCOPES or not c.is_definition():
                    return None
            elif k == K.FIELD_DECL or k == K.ENUM_CONSTANT_DECL:
                pass
            else:
                p = c.semantic_parent
                if p is None or p.kind not in SCOPES:
                    return None
            return OTHERS[k], False
        return None

    def add_def(c, kind, callable_, key):
        f = c.location.file
        if f is None or not inroot(f.name):
            return
        path = os.path.realpath(f.name)
        # the name as written (a macro may rename it: #define ascii64 _crypt_ascii64)
        name = word_at(path, c.location.line, c.location.column) or c.spelling
        if key in defs:
            return
        defs[key] = {"path": path, "rel": rel(path), "name": name, "line": c.location.line,
                     "kind": kind, "callable": callable_}

    def include_guard(c, path):
        ls = text(path)
        i = c.location.line - 2
        while i >= 0 and not ls[i].strip():
            i -= 1
        prev = ls[i].replace(" ", "") if i >= 0 else ""
        return prev in ("#ifndef" + c.spelling, "#if!defined(" + c.spelling + ")", "#if!defined" + c.spelling)

    def visit(c, tu_file):
        for ch in c.get_children():
            f = ch.location.file
            if c.kind == K.TRANSLATION_UNIT and (f is None or not inroot(f.name)):
                continue  # system headers, the compiler's builtins
            k = ch.kind
            if k == K.MACRO_DEFINITION:
                if f is None or not inroot(f.name):
                    continue
                path = os.path.realpath(f.name)
                key = "macro:%s:%d" % (path, ch.location.line)
                if key not in defs and not include_guard(ch, path):
                    toks = [(t.spelling, t.location.line) for t in ch.get_tokens()]
                    fnlike = bool(lib.clang_Cursor_isMacroFunctionLike(ch))
                    add_def(ch, "macro", fnlike, key)
                    macros.setdefault(ch.spelling, []).append(key)
                    body = toks[1:]
                    if fnlike and ")" in [t for t, _ in body]:
                        body = body[[t for t, _ in body].index(")") + 1:]
                    bodies.append((key, path, ch.location.line, [(t, l) for t, l in body if IDENT.fullmatch(t)]))
                continue
            if k == K.MACRO_INSTANTIATION:
                d = ch.referenced
                if d is not None and d.location.file is not None and inroot(d.location.file.name):
                    key = "macro:%s:%d" % (os.path.realpath(d.location.file.name), d.location.line)
                    fnlike = bool(lib.clang_Cursor_isMacroFunctionLike(d))
                    pos = positions(ch)
                    uses.setdefault(key, {})[tuple(pos)] = fnlike
                    if pos:
                        p, line, col = pos[-1]
                        expanded[(os.path.realpath(p), line, col)] = key
                continue
            if k == K.INCLUSION_DIRECTIVE:
                continue
            cand = candidate(ch)
            if cand is not None and ch.spelling and IDENT.fullmatch(ch.spelling):
                add_def(ch, cand[0], cand[1], ch.get_usr())
            if k in REFS or k == K.CALL_EXPR or k == K.OVERLOADED_DECL_REF:
                if k == K.CALL_EXPR:
                    callee = next(iter(ch.get_children()), None)
                    while callee is not None and callee.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
                        callee = next(iter(callee.get_children()), None)
                    if callee is not None and callee.kind in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.OVERLOADED_DECL_REF):
                        calls.add(tuple(positions(callee)))
                else:
                    if k == K.OVERLOADED_DECL_REF:
                        # a call the compiler resolves only per instance (a dependent call in a
                        # template): clang names every candidate, and so does clangd's index
                        ds = [lib.clang_getOverloadedDecl(ch, i) for i in range(lib.clang_getNumOverloadedDecls(ch))]
                    else:
                        ds = [ch.referenced]
                    pos = tuple(positions(ch))
                    for d in ds:
                        if d is None or d.kind.is_invalid():
                            continue
                        if d.kind == K.USING_DECLARATION:
                            continue
                        usr = canon(d).get_usr()
                        if usr:
                            m = uses.setdefault(usr, {})
                            m[pos] = m.get(pos, False)
            visit(ch, tu_file)

    def parse(path, header):
        nonlocal nerr
        args = list(flags)
        if header:
            args = ["-x", "c++-header" if cpp else "c-header"] + args
        elif cpp:
            args = ["-x", "c++"] + args
        try:
            tu = index.parse(path, args=args, options=opts)
        except ci.TranslationUnitLoadError as e:
            print("oracle_c: %s: %s" % (rel(path), e), file=sys.stderr)
            return
        for d in tu.diagnostics:
            if d.severity >= ci.Diagnostic.Error:
                nerr += 1
                if nerr <= 20:
                    print("oracle_c: %s" % d, file=sys.stderr)
        for inc in tu.get_includes():
            if inc.include is not None:
                reached.add(os.path.realpath(inc.include.name))
                if inc.source is not None:
                    includes.setdefault(os.path.realpath(inc.source.name), set()).add(os.path.realpath(inc.include.name))
        files = {os.path.realpath(path)} | {os.path.realpath(i.include.name) for i in tu.get_includes() if i.include is not None}
        for f in files:
            seen_in[f] = seen_in.get(f, 0) + 1
        for f, lines in skipped_lines(tu).items():
            for line in lines:
                skipped[(f, line)] = skipped.get((f, line), 0) + 1
        visit(tu.cursor, path)

    for p in sources:
        parse(p, False)
    # headers no unit includes: their own unit, the ones including most others first
    rest = [h for h in headers if os.path.realpath(h) not in reached]
    for h in rest:
        if os.path.realpath(h) in reached:
            continue
        parse(h, True)
        reached.add(os.path.realpath(h))

    def reaches(a, b, seen=None):
        """Whether the file a includes the file b, directly or through other headers."""
        seen = seen if seen is not None else set()
        for h in includes.get(a, ()):
            if h == b:
                return True
            if h not in seen:
                seen.add(h)
                if reaches(h, b, seen):
                    return True
        return False

    # the names of ROOT's macro bodies naming a macro of ROOT are its uses (the preprocessor
    # expands them where the body is expanded, by name): the macro defined in the body's
    # own file, else the one in a header the file includes; none when that is not one
    named = {}  # macro key -> the keys of the macros its body names
    body_of = {}
    for key, path, line, idents in bodies:
        body_of[key] = (path, idents)
        for t, tline in idents:
            ks = [k for k in macros.get(t, []) if k != key]
            if len(ks) > 1:
                ks = [k for k in ks if defs[k]["path"] == path] or \
                     [k for k in ks if reaches(path, defs[k]["path"])]
            if len(ks) == 1:
                uses.setdefault(ks[0], {})[((path, tline, 0),)] = False
                named.setdefault(key, set()).add(ks[0])

    def closure(key):
        """The macro and those its expansion expands in turn."""
        out, todo = set(), [key]
        while todo:
            k = todo.pop()
            if k not in out:
                out.add(k)
                todo.extend(named.get(k, ()))
        return out

    # A name a macro's body holds is resolved where the macro is expanded, and libclang places
    # such a use at the expansion (its spelling location is the file location): the body's
    # tokens of that name, in the macro expanded there or one it expands, are the use's lines.
    def body_lines(pos, name):
        for (p, line, col) in pos:
            k = expanded.get((os.path.realpath(p), line, col))
            if k is None:
                continue
            out = []
            for m in closure(k):
                bp, idents = body_of.get(m, (None, ()))
                out += [(bp, tl) for t, tl in idents if t == name]
            return out
        return []
    # the body lines of a macro no compiled unit expands: the compiler never resolved them
    live = set()
    for k in set(expanded.values()):
        live |= closure(k)
    for key, path, line, idents in bodies:
        if key not in live and idents:
            for tl in range(line, max(tl for _, tl in idents) + 1):
                skipped_body.add((path, tl))

    h = common.hasher(a.seed)

    by_file = {}
    for key, d in defs.items():
        if len(d["name"]) < 3 or not common.in_sample(prefixes, d["rel"]) or TEST_DIRS & set(d["rel"].split("/")[:-1]):
            continue
        d["key"] = key
        d["hash"] = h("%s:%s:%d" % (d["rel"], d["name"], d["line"]))
        by_file.setdefault(d["rel"], []).append(d)
    sample = common.round_robin(by_file, a.n, h, key=lambda c: c["hash"])

    for d in sample:
        out = {}
        for pos, call in uses.get(d["key"], {}).items():
            call = call or pos in calls
            # the line where the name is written: the spelling (a macro's body, an argument),
            # else the expansion (a renaming macro's use); none when neither is in ROOT
            where = None
            for (p, line, col) in pos:
                if not inroot(p):
                    continue
                p = os.path.realpath(p)
                if col == 0 or word_at(p, line, col) == d["name"]:
                    where = (rel(p), line)
                    break
            wheres = [where] if where is not None else [(rel(p), l) for p, l in body_lines(pos, d["name"]) if inroot(p)]
            for where in wheres:
                if where == (d["rel"], d["line"]):
                    continue
                out[where] = out.get(where, False) or call
        print(json.dumps({"name": d["name"], "path": d["rel"], "line": d["line"], "kind": d["kind"],
                          "callable": d["callable"],
                          "uses": [{"path": p, "line": l, "call": out[(p, l)]} for (p, l) in sorted(out)]}),
              flush=True)
    # the lines no unit compiled (skipped in every unit that holds the file): the oracle
    # cannot judge a use there (navcheck counts it neither right nor extra)
    unjudged = {}
    never = {(f, line) for (f, line), k in skipped.items() if k == seen_in.get(f, 0)} | skipped_body
    for (f, line) in sorted(never):
        if inroot(f):
            rs = unjudged.setdefault(rel(f), [])
            if rs and rs[-1][1] == line - 1:
                rs[-1][1] = line
            else:
                rs.append([line, line])
    if unjudged:
        print(json.dumps({"unjudged": unjudged}), flush=True)
    print("oracle_c: %d units (%d sources), %d errors, %d candidate definitions, %d sampled, %d lines no unit compiled"
          % (len(sources) + len(rest), len(sources), nerr, sum(len(v) for v in by_file.values()), len(sample),
             sum(r[1] - r[0] + 1 for rs in unjudged.values() for r in rs)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
