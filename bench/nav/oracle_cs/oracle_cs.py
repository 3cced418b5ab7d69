"""The C# navigation oracle of bench/nav.sh: Mono's C# compiler (mcs) itself, asked one
definition at a time with [Obsolete].

  python3 bench/nav/oracle_cs/oracle_cs.py ROOT [--flags "MCS OPTIONS"] [-j 2] [--n 150]
          [--seed quarry-nav] [--sample P,...]

Every .cs file under ROOT is compiled as one library with mcs and the --flags (references,
defines); the unmodified tree must compile without an error. Definitions come from a C#
declaration scanner (tokens, #if evaluated with the flags' and the files' defines): classes,
structs, interfaces, enums, delegates, methods (not constructors, destructors, operators,
explicit interface implementations, overrides: mcs binds a call of one to the declaration it
overrides), properties, fields, constants, events and enum members at any depth; not locals,
parameters, indexers. For each sampled definition D one compile:
D's declaration gets `[global::System.Obsolete("QXORACLE")]` (a field's or constant's
declarator after the first is split into a declaration of its own: mcs puts an attribute on
the first declarator only), and every warning CS0618 "... is obsolete: `QXORACLE'" is a use of
D at its file(line,col), as mcs resolved it. A warning, not an error (CS0619): mcs stops
before it resolves bodies when the definition phase has an error. mcs reports no use inside an
obsolete context: D's own body, a type's whole body. So the same compile also holds, right
after D, a copy of D (a type, a method or a property with a body) named NAME__qxcopy (a type's
constructors and destructor renamed too; override, virtual, abstract, sealed, new, extern
dropped), which is not obsolete: its warnings are mapped back to the lines of D they copy.
mcs does not check a property's or an indexer's type, nor an explicit interface member's
qualifier: for a type D, each one that names D is probed by a method inserted after the member
whose return type is that text (static, throwing; a signature in an interface).
The [Obsolete] attributes and #pragma warning lines of the tree are blanked in every compile
(they would hide uses too).
A reported position must be D's name (NAME, or NAME less "Attribute" for an attribute), or
for D.X (mcs reports a member access at X) D's name before the dot; else the warning is
dropped and counted on standard error.

Prints one JSON line per sampled definition, then {"unjudged": {PATH: [[FIRST, LAST]]}} for
the lines #if leaves out. See README.md beside nav.sh's oracles.
"""
import bisect
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle_common as common  # noqa: E402

TEST_DIRS = {"test", "tests", "Test", "Tests"}
MARK = "QXORACLE"
COPY = "__qxcopy"

MODIFIERS = {"public", "private", "protected", "internal", "static", "readonly", "volatile", "virtual",
             "override", "abstract", "sealed", "extern", "unsafe", "new", "async", "partial", "fixed"}
COPY_DROP = {"override", "virtual", "abstract", "sealed", "new", "extern"}
TYPE_KW = {"class": "class", "struct": "struct", "interface": "interface", "enum": "enum"}

# ---------------------------------------------------------------- tokens


class Tok:
    __slots__ = ("t", "s", "e", "k")

    def __init__(self, t, s, e, k):
        self.t, self.s, self.e, self.k = t, s, e, k  # text, start, end offsets, kind: id num str op

    def __repr__(self):
        return "%s@%d" % (self.t, self.s)


ID_RE = re.compile(r"@?[^\W\d]\w*", re.UNICODE)
NUM_RE = re.compile(r"(0[xX][0-9a-fA-F_]+|0[bB][01_]+|(\d[\d_]*)?\.?\d[\d_]*([eE][+-]?\d+)?)[uUlLfFdDmM]*")
OPS = ["=>", "==", "!=", "<=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||", "??", "::",
       "->", "++", "--", "<<"]


def pp_eval(expr, defines):
    """A #if expression: symbols, true/false, !, &&, ||, ==, !=, parentheses."""
    toks = re.findall(r"&&|\|\||==|!=|!|\(|\)|[^\W\d]\w*", expr.split("//")[0])
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def prim():
        t = take()
        if t == "!":
            return not prim()
        if t == "(":
            v = orx()
            if peek() == ")":
                take()
            return v
        if t == "true":
            return True
        if t == "false":
            return False
        return t in defines

    def eq():
        v = prim()
        while peek() in ("==", "!="):
            op = take()
            w = prim()
            v = (v == w) if op == "==" else (v != w)
        return v

    def andx():
        v = eq()
        while peek() == "&&":
            take()
            w = eq()
            v = v and w
        return v

    def orx():
        v = andx()
        while peek() == "||":
            take()
            w = andx()
            v = v or w
        return v

    try:
        return orx()
    except IndexError:
        return False


def tokenize(text, defines):
    """Tokens of the active code, and the (first, last) line ranges #if leaves out."""
    defines = set(defines)
    toks = []
    inactive = []
    stack = []  # (active now, some branch taken, parent active)
    active = True
    i, n = 0, len(text)
    line = 1
    at_line_start = True
    skip_from = None
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v\ufeff":
            i += 1
            continue
        if at_line_start and c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            d = text[i + 1:j].strip()
            m = re.match(r"(\w+)\s*(.*)", d)
            word, rest = (m.group(1), m.group(2)) if m else ("", "")
            was = active
            if word == "if":
                stack.append((active, False, active))
                v = active and pp_eval(rest, defines)
                stack[-1] = (v, v, active)
                active = v
            elif word == "elif" and stack:
                _, taken, parent = stack[-1]
                v = parent and not taken and pp_eval(rest, defines)
                stack[-1] = (v, taken or v, parent)
                active = v
            elif word == "else" and stack:
                _, taken, parent = stack[-1]
                v = parent and not taken
                stack[-1] = (v, True, parent)
                active = v
            elif word == "endif" and stack:
                active = stack.pop()[2]
            elif active and word == "define":
                defines.add(rest.split()[0] if rest.split() else "")
            elif active and word == "undef":
                defines.discard(rest.split()[0] if rest.split() else "")
            if was and not active:
                skip_from = line + 1
            elif not was and active and skip_from is not None:
                if line - 1 >= skip_from:
                    inactive.append([skip_from, line - 1])
                skip_from = None
            i = j
            continue
        at_line_start = False
        if not active:
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        # strings: verbatim @"..", interpolated $"..", $@"..", @$"..", regular, chars
        m = re.match(r'(\$@|@\$|@|\$)?"', text[i:i + 3])
        if m:
            pre = m.group(1) or ""
            j = i + len(pre) + 1
            verbatim = "@" in pre
            interp = "$" in pre
            depth = 0
            while j < n:
                ch = text[j]
                if depth == 0:
                    if verbatim and ch == '"':
                        if text.startswith('""', j):
                            j += 2
                            continue
                        j += 1
                        break
                    if not verbatim and ch == "\\":
                        j += 2
                        continue
                    if not verbatim and ch == '"':
                        j += 1
                        break
                    if not verbatim and ch == "\n":
                        break
                    if interp and ch == "{":
                        if text.startswith("{{", j):
                            j += 2
                            continue
                        depth = 1
                    j += 1
                else:  # inside an interpolation hole
                    if ch == "{":
                        depth += 1
                    elif ch == "}":
                        depth -= 1
                    elif ch == '"':  # a nested string
                        k = j + 1
                        while k < n and text[k] != '"':
                            k += 2 if text[k] == "\\" else 1
                        j = k
                    j += 1
            line += text.count("\n", i, j)
            toks.append(Tok(text[i:j], i, j, "str"))
            i = j
            continue
        if c == "'":
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j += 1
            toks.append(Tok(text[i:j], i, j, "str"))
            i = j
            continue
        m = ID_RE.match(text, i)
        if m:
            toks.append(Tok(m.group(0), i, m.end(), "id"))
            i = m.end()
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = NUM_RE.match(text, i)
            e = m.end() if m and m.end() > i else i + 1
            toks.append(Tok(text[i:e], i, e, "num"))
            i = e
            continue
        for op in OPS:
            if text.startswith(op, i):
                toks.append(Tok(op, i, i + len(op), "op"))
                i += len(op)
                break
        else:
            toks.append(Tok(c, i, i + 1, "op"))
            i += 1
    if skip_from is not None and not active:
        inactive.append([skip_from, line])
    return toks, inactive


# ---------------------------------------------------------------- declarations

CLOSE = {"(": ")", "[": "]", "{": "}"}


class Parser:
    """Declarations of one file: dicts with kind, name, name_off, start (first token, attributes
    included), decl (first token after the attributes), end (past the last token), parent,
    and: mods [(text, off)], body (has a body the copy needs), ctors (a type's constructor and
    destructor name offsets), split (a declarator after the first: the comma's offset),
    explicit, partial."""

    def __init__(self, toks):
        self.toks = toks
        self.decls = []
        self.obsolete = []  # (start, end) of [Obsolete] attribute sections
        self.aliases = []  # (alias name, directive's offset)
        # mcs reports no obsolete type in a property's or an indexer's type nor in an explicit
        # interface member's qualifier: each is probed as the return type of a method inserted
        # after the member: (type's start, end, the member's end, in an interface, the names)
        self.probes = []

    def t(self, i):
        return self.toks[i].t if i < len(self.toks) else ""

    def skip_bal(self, i):
        """i at an opening bracket: the index past its closing one."""
        stack = []
        while i < len(self.toks):
            t = self.toks[i].t
            if t in CLOSE:
                stack.append(CLOSE[t])
            elif stack and t == stack[-1]:
                stack.pop()
                if not stack:
                    return i + 1
            elif t in (")", "]", "}"):
                # unbalanced: give up at it
                return i + 1
            i += 1
        return i

    def skip_angle(self, i):
        """i at '<': past the matching '>' (type argument lists only)."""
        d = 0
        while i < len(self.toks):
            t = self.t(i)
            if t == "<":
                d += 1
            elif t == ">":
                d -= 1
                if d == 0:
                    return i + 1
            elif t in ("(", "["):
                i = self.skip_bal(i)
                continue
            elif t in (";", "{", "}", "=", "=>"):
                return i
            i += 1
        return i

    def skip_expr(self, i, stops):
        """Past an expression: at the first token of stops at bracket depth 0."""
        while i < len(self.toks):
            t = self.t(i)
            if t in stops:
                return i
            if t in CLOSE:
                i = self.skip_bal(i)
                continue
            if t in (")", "]", "}"):
                return i
            i += 1
        return i

    def skip_body(self, i):
        """At '{', '=>' or ';' after a member's header: past the body."""
        t = self.t(i)
        if t == "{":
            return self.skip_bal(i)
        if t == "=>":
            j = self.skip_expr(i + 1, {";"})
            return j + 1
        if t == ";":
            return i + 1
        return i

    def parse(self):
        self.ns_body(0, None)
        return self

    def ns_body(self, i, parent):
        while i < len(self.toks):
            t = self.t(i)
            if t == "}":
                return i + 1
            if t == "using" and self.t(i + 1) != "(":
                j = self.skip_expr(i, {";"})
                if self.t(i + 2) == "=":
                    self.aliases.append((self.t(i + 1), self.toks[i].s))
                i = j + 1
                continue
            if t == "extern" and self.t(i + 1) == "alias":
                i = self.skip_expr(i, {";"}) + 1
                continue
            if t == "namespace":
                j = i + 1
                while j < len(self.toks) and self.t(j) != "{":
                    j += 1
                i = self.ns_body(j + 1, parent)
                continue
            if t == ";":
                i += 1
                continue
            i = self.member(i, parent)
        return i

    def attributes(self, i):
        while self.t(i) == "[":
            j = self.skip_bal(i)
            inner = [tk.t for tk in self.toks[i + 1:j - 1]]
            if inner and ":" in inner[:2] and inner[0] in ("assembly", "module"):
                pass
            else:
                k = 0
                while k < len(inner) and inner[k] in ("global", "::", "System", "."):
                    k += 1
                if k < len(inner) and inner[k] in ("Obsolete", "ObsoleteAttribute") and "," not in self._top(inner[k + 1:]):
                    self.obsolete.append((self.toks[i].s, self.toks[j - 1].e))
            i = j
        return i

    @staticmethod
    def _top(ts):
        d, out = 0, []
        for t in ts:
            if t in ("(", "["):
                d += 1
            elif t in (")", "]"):
                d -= 1
            elif d == 0:
                out.append(t)
        return out

    def add(self, **kw):
        kw.setdefault("body", False)
        kw.setdefault("ctors", [])
        kw.setdefault("split", None)
        kw.setdefault("explicit", False)
        kw.setdefault("partial", False)
        kw.setdefault("first_name", kw.get("name_off"))
        self.decls.append(kw)
        return kw

    def member(self, i, parent):
        start = self.toks[i].s
        i0 = i
        i = self.attributes(i)
        if i >= len(self.toks):
            return i
        if self.t(i) == "}":  # attributes then '}' (broken code): let the caller see '}'
            return i if i > i0 else i + 1
        decl = self.toks[i].s
        mods = []
        while self.t(i) in MODIFIERS and not (self.t(i) == "partial" and self.t(i + 1) in ("void",)):
            if self.t(i) == "fixed" and self.t(i + 1) == "(":
                break
            mods.append((self.t(i), self.toks[i].s))
            i += 1
        t = self.t(i)
        if t in TYPE_KW:
            kind = TYPE_KW[t]
            ni = i + 1
            nt = self.toks[ni]
            d = self.add(kind=kind, name=nt.t, name_off=nt.s, start=start, decl=decl, parent=parent, mods=mods,
                         body=True, partial=any(m == "partial" for m, _ in mods))
            j = ni + 1
            while j < len(self.toks) and self.t(j) not in ("{", ";"):
                j = self.skip_angle(j) if self.t(j) == "<" else j + 1
            if self.t(j) == ";":
                d["end"] = self.toks[j].e
                return j + 1
            if kind == "enum":
                j = self.enum_body(j + 1, d)
            else:
                j = self.type_body(j + 1, d)
            d["end"] = self.toks[j - 1].e
            if self.t(j) == ";":
                j += 1
            return j
        if t == "delegate":
            j = self.skip_expr(i, {";"})
            # the name: the identifier before the first '(' (or before its type parameters)
            k = i + 1
            while k < j and self.t(k) != "(":
                k = self.skip_angle(k) if self.t(k) == "<" and k > i + 1 and self.toks[k - 1].k == "id" and self.t(k + 1) != "(" else k + 1
            nk = self.name_before(k, i)
            if nk is not None:
                self.add(kind="delegate", name=self.t(nk), name_off=self.toks[nk].s, start=start, decl=decl,
                         parent=parent, mods=mods, end=self.toks[min(j, len(self.toks) - 1)].e)
            return j + 1
        if t == "event":
            return self.declarators(i + 1, start, decl, parent, mods, "event")
        if t == "const":
            return self.declarators(i + 1, start, decl, parent, mods, "constant")
        # a method, constructor, destructor, operator, property, indexer or field
        j = i
        hdr = []
        while j < len(self.toks):
            tt = self.t(j)
            if tt == "<":
                j = self.skip_angle(j)
                hdr.append("<>")
                continue
            if tt == "(" and (not hdr or self.toks[j - 1].k != "id" and hdr[-1] != "<>"):
                j = self.skip_bal(j)  # a tuple type
                hdr.append("()")
                continue
            if tt == "[" and (not hdr or hdr[-1] != "this"):
                if "fixed" in [m for m, _ in mods] and len(hdr) >= 2:
                    break
                j = self.skip_bal(j)  # an array type
                hdr.append("[]")
                continue
            if tt in ("(", "{", "=>", "=", ";", ",", "[", "}"):
                break
            hdr.append(tt)
            j += 1
        stop = self.t(j)
        if stop == "}" or j >= len(self.toks):
            return j if j > i0 else j + 1
        if "~" in hdr or "operator" in hdr:
            return self.after_header(j)
        if stop == "[":  # an indexer (this[...]) or a fixed buffer
            if hdr and hdr[-1] == "this":
                k = self.skip_bal(j)
                e = self.after_header(k)
                tj = j - 1  # 'this'
                if tj - 1 >= i and self.t(tj - 1) == ".":
                    q = self.qualifier(tj - 1, i)
                    self.probe(q, tj - 1, self.toks[e - 1].e, parent)
                    tj = q
                self.probe(i, tj, self.toks[e - 1].e, parent)
                return e
            return self.declarators(i, start, decl, parent, mods, "field")
        if stop == "(":
            nk = self.name_before(j, i)
            if nk is None:
                return self.after_header(j)
            if nk == i and parent is not None and self.t(nk) == parent["name"]:  # a constructor
                parent["ctors"].append(self.toks[nk].s)
                return self.after_header(j)
            explicit = nk - 1 >= i and self.t(nk - 1) == "."
            this_off = self.toks[j + 1].s if self.t(j + 1) == "this" else None  # an extension method
            k = self.skip_bal(j)
            while k < len(self.toks) and self.t(k) not in ("{", ";", "=>"):
                k += 1
            has_body = self.t(k) in ("{", "=>")
            e = self.skip_body(k)
            self.add(kind="method", name=self.t(nk), name_off=self.toks[nk].s, start=start, decl=decl,
                     parent=parent, mods=mods, end=self.toks[e - 1].e, body=has_body, explicit=explicit,
                     partial=any(m == "partial" for m, _ in mods), this_off=this_off)
            if explicit:
                self.probe(self.qualifier(nk - 1, i), nk - 1, self.toks[e - 1].e, parent)
            return e
        if stop in ("{", "=>"):
            nk = j - 1
            if self.toks[nk].k != "id" or nk < i:
                return self.after_header(j)
            explicit = self.t(nk - 1) == "."
            e = self.skip_body(j)
            has_body = False
            if stop == "=>":
                has_body = True
            else:
                acc = [tk.t for tk in self.toks[j:e]]
                has_body = "{" in acc[1:-1] or "=>" in acc
            if self.t(e) == "=":  # an auto-property's initializer
                e = self.skip_expr(e + 1, {";"}) + 1
                has_body = True
            self.add(kind="property", name=self.t(nk), name_off=self.toks[nk].s, start=start, decl=decl,
                     parent=parent, mods=mods, end=self.toks[e - 1].e, body=has_body, explicit=explicit)
            tj = nk
            if explicit:
                q = self.qualifier(nk - 1, i)
                self.probe(q, nk - 1, self.toks[e - 1].e, parent)
                tj = q
            self.probe(i, tj, self.toks[e - 1].e, parent)
            return e
        # a field: declarators
        return self.declarators(i, start, decl, parent, mods, "field")

    def qualifier(self, k, lo):
        """k at the '.' before an explicit interface member's name: the qualifier's first token."""
        q = k
        while q - 1 >= lo:
            t = self.t(q - 1)
            if t == ">":
                d, m = 0, q - 1
                while m >= lo:
                    if self.t(m) == ">":
                        d += 1
                    elif self.t(m) == "<":
                        d -= 1
                        if d == 0:
                            break
                    m -= 1
                q = m
                continue
            if self.toks[q - 1].k == "id":
                q -= 1
                if q - 1 >= lo and self.t(q - 1) in (".", "::"):
                    q -= 1
                    continue
                break
            break
        return q

    def probe(self, a, b, end, parent):
        """Probe the type written in tokens [a, b) (a member's type, an interface qualifier)."""
        if b <= a or parent is None:
            return
        ts = [tk.t for tk in self.toks[a:b]]
        if "*" in ts or "ref" in ts or ts == ["void"] or any(t in MODIFIERS for t in ts):
            return
        self.probes.append({"s": self.toks[a].s, "e": self.toks[b - 1].e, "at": end,
                            "iface": parent["kind"] == "interface",
                            "ids": {t for t in ts if t[:1].isalpha() or t[:1] in "_@"}})

    def name_before(self, j, lo):
        """The identifier before j (skipping a type parameter list), or None."""
        k = j - 1
        if k >= lo and self.t(k) == ">":
            d = 0
            while k >= lo:
                if self.t(k) == ">":
                    d += 1
                elif self.t(k) == "<":
                    d -= 1
                    if d == 0:
                        break
                k -= 1
            k -= 1
        if k >= lo and self.toks[k].k == "id":
            return k
        return None

    def after_header(self, j):
        """Past a member we do not sample (constructor, operator, indexer, destructor)."""
        while j < len(self.toks) and self.t(j) not in ("{", ";", "=>"):
            if self.t(j) in ("(", "["):
                j = self.skip_bal(j)
                continue
            j += 1
        t = self.t(j)
        e = self.skip_body(j)
        if t == "{" and self.t(e) == "=":
            e = self.skip_expr(e + 1, {";"}) + 1
        return e

    def declarators(self, i, start, decl, parent, mods, kind):
        """Fields, constants, events: TYPE A [= x], B [= y] ...; (or an event with accessors)."""
        # the type: up to the identifier followed by = , ; { [
        j = i
        while j < len(self.toks):
            tt = self.t(j)
            if tt == "<":
                j = self.skip_angle(j)
                continue
            if tt == "(":
                j = self.skip_bal(j)
                continue
            if tt == "[" and not (j > i and self.toks[j - 1].k == "id" and "fixed" in [m for m, _ in mods]):
                j = self.skip_bal(j)
                continue
            if self.toks[j].k == "id" and self.t(j + 1) in ("=", ",", ";", "{", "[") and j > i:
                break
            if tt in (";", "}", "{"):
                return j + 1 if tt == ";" else self.skip_body(j) if tt == "{" else j
            j += 1
        first = self.toks[j].s if j < len(self.toks) else None
        prev_comma = None
        while j < len(self.toks):
            nt = self.toks[j]
            if nt.k != "id":
                return self.skip_expr(j, {";"}) + 1
            k = j + 1
            if self.t(k) == "{":  # event with accessors
                e = self.skip_bal(k)
                self.add(kind=kind, name=nt.t, name_off=nt.s, start=start, decl=decl, parent=parent, mods=mods,
                         end=self.toks[e - 1].e, first_name=first)
                return e
            if self.t(k) == "[":  # fixed buffer
                k = self.skip_bal(k)
            if self.t(k) == "=":
                # an initializer: a comma at depth 0 ends it only before another declarator
                # (new Dictionary<K,V> () has one too: type arguments are not brackets)
                k = self.skip_expr(k + 1, {",", ";"})
                while self.t(k) == "," and not (self.toks[k + 1].k == "id" and self.t(k + 2) in ("=", ",", ";", "[")):
                    k = self.skip_expr(k + 1, {",", ";"})
            d = self.add(kind=kind, name=nt.t, name_off=nt.s, start=start, decl=decl, parent=parent, mods=mods,
                         end=self.toks[min(k, len(self.toks) - 1)].s, first_name=first)
            if prev_comma is not None:
                d["split"] = prev_comma
            if self.t(k) == ",":
                prev_comma = self.toks[k].s
                j = k + 1
                continue
            return k + 1
        return j

    def enum_body(self, i, enum):
        while i < len(self.toks):
            if self.t(i) == "}":
                return i + 1
            if self.t(i) == ",":
                i += 1
                continue
            start = self.toks[i].s
            i = self.attributes(i)
            if self.t(i) == "}":
                return i + 1
            nt = self.toks[i]
            k = i + 1
            if self.t(k) == "=":
                k = self.skip_expr(k + 1, {",", "}"})
            if nt.k == "id":
                self.add(kind="enum_member", name=nt.t, name_off=nt.s, start=start, decl=nt.s, parent=enum, mods=[],
                         end=self.toks[k - 1].e)
            i = k if k > i else i + 1
        return i

    def type_body(self, i, typ):
        while i < len(self.toks):
            if self.t(i) == "}":
                return i + 1
            if self.t(i) == ";":
                i += 1
                continue
            i = self.member(i, typ)
        return i


# ---------------------------------------------------------------- edits and position maps


class Edited:
    """A text built of pieces of an original text and inserted text, with the map back."""

    def __init__(self):
        self.parts = []  # (text, orig start or None)

    def orig(self, text, a, b):
        if b > a:
            self.parts.append((text[a:b], a))

    def ins(self, s):
        if s:
            self.parts.append((s, None))

    def build(self):
        self.text = "".join(p for p, _ in self.parts)
        self.starts = []
        o = 0
        for p, _ in self.parts:
            self.starts.append(o)
            o += len(p)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return self

    def to_orig(self, line, col):
        """mcs's (line, col), 1-based, to the original offset, or None (inserted text)."""
        if line - 1 >= len(self.line_starts):
            return None
        off = self.line_starts[line - 1] + col - 1
        k = bisect.bisect_right(self.starts, off) - 1
        if k < 0:
            return None
        p, o = self.parts[k]
        if o is None or off - self.starts[k] >= len(p):
            return None
        return o + off - self.starts[k]


def apply_edits(text, edits, lo=0, hi=None, out=None):
    """edits: (offset, length to delete, text to insert), sorted, within [lo, hi)."""
    hi = len(text) if hi is None else hi
    out = out or Edited()
    cur = lo
    for off, dl, s in sorted(edits, key=lambda e: (e[0], -e[1])):
        if off < cur:
            continue
        out.orig(text, cur, off)
        if callable(s):
            s(out)
        else:
            out.ins(s)
        cur = off + dl
    out.orig(text, cur, hi)
    return out


# ---------------------------------------------------------------- the oracle


def line_of(starts, off):
    return bisect.bisect_right(starts, off)


IDENT_AT = re.compile(r"@?\w+", re.UNICODE)


def ident_at(text, off):
    m = IDENT_AT.match(text, off)
    if not m:
        return None, off
    w = m.group(0)
    return (w[1:] if w.startswith("@") else w), off + (1 if w.startswith("@") else 0)


def back_ident(text, off):
    """The identifier ending before off (whitespace skipped), and its offset."""
    k = off
    while k > 0 and text[k - 1] in " \t\r\n":
        k -= 1
    e = k
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
        k -= 1
    return text[k:e], k


def name_at(text, off, name):
    """The offset of D's name the use reported at off is written at, or None."""
    w, o = ident_at(text, off)
    if w is None:
        return None
    if w == name or (name.endswith("Attribute") and len(name) > 9 and w == name[:-9]):
        return o
    # D.X: mcs reports a member access at X; D's name is before the dot (type arguments skipped)
    k = off
    while k > 0 and text[k - 1] in " \t\r\n":
        k -= 1
    if k > 0 and text[k - 1] == ".":
        k -= 1
        while k > 0 and text[k - 1] in " \t\r\n":
            k -= 1
        if k > 0 and text[k - 1] == ">":
            d = 0
            while k > 0:
                k -= 1
                if text[k] == ">":
                    d += 1
                elif text[k] == "<":
                    d -= 1
                    if d == 0:
                        break
                elif text[k] in ";{}()":
                    return None
        w2, o2 = back_ident(text, k)
        if w2 == name:
            return o2
    return None


def is_call(text, off, name):
    k = off + len(name)
    n = len(text)
    while k < n and text[k] in " \t\r\n":
        k += 1
    if k < n and text[k] == "<":
        d = 0
        while k < n:
            if text[k] == "<":
                d += 1
            elif text[k] == ">":
                d -= 1
                if d == 0:
                    k += 1
                    break
            elif text[k] in ";{}()=":
                return False
            k += 1
        while k < n and text[k] in " \t\r\n":
            k += 1
    return k < n and text[k] == "("


WARN_RE = re.compile(r"^(.*)\((\d+),(\d+)\): (warning|error) (CS\d+): (.*)$")


def main():
    def extra(ap):
        ap.add_argument("--flags", default="", help="mcs options: references, defines (-d:X)")
        ap.add_argument("-j", type=int, default=2, help="compiles in parallel")
        ap.add_argument("--mcs", default="mcs")

    a, root, prefixes = common.parse_args("oracle_cs.py", __doc__, extra)
    t0 = time.time()
    flags = shlex.split(a.flags)
    defines = set()
    for f in flags:
        m = re.match(r"[-/](?:d|define):(.*)", f)
        if m:
            defines |= set(x for x in re.split(r"[;,]", m.group(1)) if x)
    files = []
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if not d.startswith(".") and d not in ("node_modules", "vendor", "obj", "bin"))
        for fn in sorted(fns):
            if fn.endswith(".cs"):
                files.append(os.path.relpath(os.path.join(dp, fn), root).replace(os.sep, "/"))
    files.sort()
    if not files:
        sys.exit("oracle_cs: no .cs file under " + root)
    texts, lstarts, parsed, unjudged, idlines, changed = {}, {}, {}, {}, {}, set()
    for r in files:
        with open(os.path.join(root, r), encoding="utf-8-sig", errors="surrogateescape") as f:
            text = f.read()
        orig_text = text
        toks, inactive = tokenize(text, defines)
        p = Parser(toks).parse()
        # the tree's own [Obsolete] attributes are blanked in every compile
        if p.obsolete:
            chars = list(text)
            for s, e in p.obsolete:
                for k in range(s, e):
                    if chars[k] != "\n":
                        chars[k] = " "
            text = "".join(chars)
        # and the warnings it disables (#pragma warning disable 618 would hide uses)
        text = re.sub(r"(?m)^[ \t]*#[ \t]*pragma[ \t]+warning\b[^\n]*", lambda m: " " * len(m.group(0)), text)
        if text != orig_text:
            changed.add(r)
        texts[r] = text
        lstarts[r] = [0] + [m.end() for m in re.finditer("\n", text)]
        ids = {}
        for tk in toks:
            if tk.k == "id":
                ids.setdefault((tk.t[1:] if tk.t.startswith("@") else tk.t, line_of(lstarts[r], tk.s)), []).append(tk.s)
        idlines[r] = ids
        parsed[r] = p
        if inactive:
            unjudged[r] = inactive

    tmp = tempfile.mkdtemp(prefix="oracle_cs.")
    base = [a.mcs, "-target:library", "-nologo", "-warn:4"] + flags

    def compile_(paths, out):
        cmd = base + ["-out:" + out] + paths
        pr = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            encoding="utf-8", errors="replace")
        return pr.stdout

    # the unmodified tree must compile
    out0 = compile_(files, os.path.join(tmp, "base.dll"))
    errs = [l for l in out0.splitlines() if ": error " in l]
    nwarn = sum(1 for l in out0.splitlines() if ": warning " in l)
    if errs or "Compilation succeeded" not in out0:
        print(out0[-3000:], file=sys.stderr)
        sys.exit("oracle_cs: mcs reported %d errors on the unmodified tree: the oracle needs a tree that compiles" % len(errs))
    print("oracle_cs: the tree compiles: %d files, 0 errors, %d warnings (%.1f s)" % (len(files), nwarn, time.time() - t0),
          file=sys.stderr)
    # with the [Obsolete] attributes blanked
    blanked = [r for r in files if r in changed]
    if blanked:
        bd = os.path.join(tmp, "blank")
        os.makedirs(bd, exist_ok=True)
        paths = []
        for r in files:
            if r in blanked:
                q = os.path.join(bd, r.replace("/", "__"))
                with open(q, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(texts[r])
                paths.append(q)
            else:
                paths.append(r)
        o = compile_(paths, os.path.join(tmp, "blank.dll"))
        if "Compilation succeeded" not in o:
            print(o[-3000:], file=sys.stderr)
            sys.exit("oracle_cs: the tree does not compile with its [Obsolete] attributes blanked")

    # candidates
    h = common.hasher(a.seed)
    by_file = {}
    seen_types = set()
    parts = {}  # a partial type's qualified name -> its declarations
    ncand = 0

    def qual(d):
        q = []
        while d is not None:
            q.append(d["name"])
            d = d["parent"]
        return ".".join(reversed(q))

    for r in files:
        for d in parsed[r].decls:
            d["rel"] = r
            if d["kind"] in ("class", "struct", "interface") and d["partial"]:
                parts.setdefault(qual(d), []).append(d)
    for r in files:
        test = bool(TEST_DIRS & set(r.split("/")[:-1])) or r.endswith("Test.cs") or r.endswith("Tests.cs")
        for d in parsed[r].decls:
            # an override: mcs binds every call to the declaration it overrides (C#'s lookup
            # leaves overrides out), so none of its uses would be the compiler's
            if d["explicit"] or len(d["name"]) < 3 or COPY in d["name"] or any(m == "override" for m, _ in d["mods"]):
                continue
            if d["kind"] in ("class", "struct", "interface") and d["partial"]:
                q = qual(d)
                if q in seen_types:
                    continue
                seen_types.add(q)
            if test or not common.in_sample(prefixes, r):
                continue
            d["line"] = line_of(lstarts[r], d["name_off"])
            d["hash"] = h("%s:%s:%d" % (r, d["name"], d["line"]))
            by_file.setdefault(r, []).append(d)
            ncand += 1
    sample = common.round_robin(by_file, a.n, h, key=lambda c: c["hash"])
    print("oracle_cs: %d candidate definitions, %d sampled" % (ncand, len(sample)), file=sys.stderr)

    stats = {"mapped": 0, "on_line": 0, "dropped": 0, "inserted": 0, "errors": 0, "copy_err": 0}
    dropped_ex = []

    def copy_of(d, text):
        """The text of D renamed NAME__qxcopy, as an Edited part list (original offsets kept)."""
        e = []
        e.append((d["name_off"], len(d["name"]), d["name"] + COPY))
        for off in d["ctors"]:
            e.append((off, len(d["name"]), d["name"] + COPY))
        if d["kind"] in ("method", "property"):
            for m, off in d["mods"]:
                if m in COPY_DROP:
                    e.append((off, len(m), ""))
        else:
            # a copy of a static class: its extension methods as plain static methods (two
            # extension methods of one name would make their calls ambiguous)
            for x in parsed[d["rel"]].decls:
                if x.get("this_off") is not None and d["decl"] <= x["this_off"] < d["end"]:
                    e.append((x["this_off"], 4, "    "))
        return e

    def probe_fn(ft, pr):
        """A method whose return type is the probed type's text (mapped back to it)."""
        def fn(ed):
            ed.ins("\n" + ("" if pr["iface"] else "static "))
            ed.orig(ft, pr["s"], pr["e"])
            ed.ins(" __qxprobe_%d ()%s\n" % (pr["s"], ";" if pr["iface"] else " { throw null; }"))
        return fn

    def copy_fn(c, inner):
        def fn(ed):
            ed.ins("\n")
            apply_edits(texts[c["rel"]], inner, c["decl"], c["end"], ed)
            ed.ins("\n")
        return fn

    def job(idx, d):
        r = d["rel"]
        text = texts[r]
        name = d["name"]
        oattr = '[global::System.Obsolete("%s")] ' % MARK
        events = {r: []}
        if d["split"] is not None:
            hdr = text[d["decl"]:d["first_name"]]
            events[r].append((d["split"], 1, "; " + oattr + hdr))
        else:
            events[r].append((d["start"], 0, oattr))
        # a type: probes of the property and indexer types, explicit interface qualifiers naming it
        probes = {}
        if d["kind"] in ("class", "struct", "interface", "enum", "delegate"):
            for f in files:
                ps = [pr for pr in parsed[f].probes if name in pr["ids"]]
                if ps:
                    probes[f] = ps
        # the copies: a type (every part of a partial one), a method or property with a body
        copies = []
        if d["kind"] in ("class", "struct", "interface", "enum"):
            copies = parts.get(qual(d), [d]) if d["partial"] else [d]
        elif d["kind"] in ("method", "property") and d["body"] and not d["partial"]:
            copies = [d]
        for c in copies:
            inner = copy_of(c, texts[c["rel"]])
            for pr in probes.get(c["rel"], []):
                if c["decl"] <= pr["s"] and pr["at"] <= c["end"]:
                    inner.append((pr["at"], 0, probe_fn(texts[c["rel"]], pr)))
            events.setdefault(c["rel"], []).append((c["end"], 0, copy_fn(c, inner)))
        for f, ps in probes.items():
            for pr in ps:
                events.setdefault(f, []).append((pr["at"], 0, probe_fn(texts[f], pr)))
        eds = {f: apply_edits(texts[f], evs).build() for f, evs in events.items()}
        jd = os.path.join(tmp, "j%d" % idx)
        os.makedirs(jd, exist_ok=True)
        paths = []
        for f in files:
            if f in eds:
                q = os.path.join(jd, f.replace("/", "__"))
                with open(q, "w", encoding="utf-8", errors="surrogateescape") as fh:
                    fh.write(eds[f].text)
                paths.append(q)
            elif f in blanked:
                paths.append(os.path.join(tmp, "blank", f.replace("/", "__")))
            else:
                paths.append(f)
        back = {p: f for p, f in zip(paths, files)}
        out = compile_(paths, os.path.join(jd, "o.dll"))
        uses = {}
        st = {"mapped": 0, "on_line": 0, "dropped": 0, "inserted": 0, "errors": 0, "copy_err": 0}
        drops = []
        for l in out.splitlines():
            m = WARN_RE.match(l)
            if not m:
                continue
            p, ln, col, sev, code, msg = m.groups()
            if sev == "error":
                # in a copy, an error at D's name (a private constructor of D the copy cannot
                # call) is a use mcs resolved to D all the same
                f = back.get(p)
                if f in eds:
                    off = eds[f].to_orig(int(ln), int(col))
                    if off is not None and any(c["rel"] == f and c["decl"] <= off < c["end"] for c in copies):
                        w, o = ident_at(texts[f], off)
                        if w == "new":  # new D (..): reported at new
                            k = o + 3
                            while k < len(texts[f]) and texts[f][k] in " \t\r\n":
                                k += 1
                            w, o = ident_at(texts[f], k)
                        if w == name:
                            st["copy_err"] += 1
                            where = (f, line_of(lstarts[f], o))
                            if where != (r, d["line"]):
                                uses[where] = uses.get(where, False) or is_call(texts[f], o, name)
                            continue
                st["errors"] += 1
                if st["errors"] <= 3:
                    drops.append("error in %s %s:%d: %s" % (name, r, d["line"], l))
                continue
            if code != "CS0618" or ("`%s'" % MARK) not in msg:
                continue
            f = back.get(p)
            if f is None:
                continue
            ln, col = int(ln), int(col)
            if f in eds:
                off = eds[f].to_orig(ln, col)
                if off is None:
                    st["inserted"] += 1
                    continue
            else:
                ls = lstarts[f]
                if ln - 1 >= len(ls):
                    continue
                off = ls[ln - 1] + col - 1
            ft = texts[f]
            o = name_at(ft, off, name)
            if o is None:
                # a parameter's type (reported at the parameter), a type argument (at the
                # generic type), a base type's argument (at the class): D's name on that line
                at = idlines[f].get((name, line_of(lstarts[f], off)))
                if at:
                    o = at[0]
                    st["on_line"] += 1
            if o is None:
                st["dropped"] += 1
                lt = ft[lstarts[f][line_of(lstarts[f], off) - 1]:].split("\n", 1)[0].strip()
                drops.append("dropped %s %s:%d: %s:%d: %s" % (name, r, d["line"], f, line_of(lstarts[f], off), lt[:100]))
                continue
            st["mapped"] += 1
            where = (f, line_of(lstarts[f], o))
            if where == (r, d["line"]):
                continue
            uses[where] = uses.get(where, False) or is_call(ft, o, name)
        for f in eds:
            os.remove(os.path.join(jd, f.replace("/", "__")))
        return d, uses, st, drops

    done = [0]
    results = [None] * len(sample)
    with ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        futs = {ex.submit(job, i, d): i for i, d in enumerate(sample)}
        for fu in futs:
            i = futs[fu]
            results[i] = fu.result()
            done[0] += 1
            if done[0] % 10 == 0 or done[0] == len(sample):
                print("oracle_cs: %d/%d compiled (%.0f s)" % (done[0], len(sample), time.time() - t0), file=sys.stderr,
                      flush=True)
    for d, uses, st, drops in results:
        for k in st:
            stats[k] += st[k]
        dropped_ex += drops
        print(json.dumps({"name": d["name"], "path": d["rel"], "line": d["line"], "kind": d["kind"],
                          "callable": d["kind"] in ("method", "delegate"),
                          "uses": [{"path": p, "line": l, "call": uses[(p, l)]} for (p, l) in sorted(uses)]}),
              flush=True)
    if unjudged:
        print(json.dumps({"unjudged": unjudged}), flush=True)
    for x in dropped_ex[:40]:
        print("oracle_cs: " + x, file=sys.stderr)
    subprocess.run(["rm", "-rf", tmp])
    print("oracle_cs: %d definitions, %d CS0618 QXORACLE warnings mapped to a use (%d of them by the name elsewhere "
          "on the reported line), %d dropped (no name there), %d in inserted text; in the copies %d errors at D's name "
          "taken as uses, %d other compile errors; %d lines #if leaves out; %.0f s"
          % (len(sample), stats["mapped"], stats["on_line"], stats["dropped"], stats["inserted"], stats["copy_err"],
             stats["errors"],
             sum(x[1] - x[0] + 1 for v in unjudged.values() for x in v), time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
