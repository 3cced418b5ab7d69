package js

// JavaScript and TypeScript uses, resolved as the TypeScript compiler binds them (the rules
// of resolve.go, as these languages have them; modules in jsmodule.go):
//
//	scope     a bare name: the definition in the functions around the use, innermost
//	          first, unless one of them binds the name itself (a parameter, a local
//	          declaration above the use, a parameter of a function literal around it: the
//	          use is the local's, unresolved); then the file's top level. An object
//	          literal's, a class's or a prototype's members are never bare names.
//	import    a bare name an import binds (import {x}, import x, const {x} = require(),
//	          const x = require() of a module whose value is x): what the module exports
//	          under the name; the name an import statement imports (its own use, kind
//	          import) likewise
//	receiver  this.x: a member of what this is in the function around the use: the class
//	          of a method (its statics in a static method), the function whose prototype
//	          holds the method (X.prototype.m = function), the object literal holding
//	          the method, a constructor function's own prototype members; in
//	          TypeScript, the type a function declares for this (f(this: T))
//	qualified q.x where q is a name bound in the file (by the same scope rule, or an
//	          import): a member of the definition q means (a class's and its bases', an
//	          object literal's keys, a function's statics; of X.prototype, its prototype
//	          members), or for a module q means (import * as q, const q = require() of a
//	          module exporting names), what it exports as x; require("m").x and
//	          exports.x likewise
//
// A qualifier that is a local variable goes on to the general rules (a parameter's or
// local's declared type, a local bound to new X()); anything else stays unresolved.

import (
	"strconv"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// jsResolve resolves a use in a JavaScript or TypeScript file: decided reports that these
// rules settle it (d nil: unresolved), else the general ones go on.
func (r *resolver) jsResolve(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (d *resolve.Def, why string, decided bool, err error) {
	q := u.Qualifier
	if strings.HasSuffix(q, "[") { // o[k](): k is read, a bare name (the extractor calls it a call of k)
		q, u.Qualifier = "", ""
	}
	switch {
	case u.Kind == extract.ImportRef:
		d, err := r.jsImportUse(f, u, cands)
		return d, resolve.ResolvedImport, true, err
	case q == "":
		d, why, err := r.jsBare(f, u, cands)
		return d, why, true, err
	case q == "this":
		d, err := r.jsThis(f, u, cands)
		return d, resolve.ResolvedReceiver, true, err
	}
	return r.jsQualified(f, u, q, cands)
}

// jsImportUse resolves the name an import statement imports (kind import): what the module
// exports under it ({x} of import {x} from, export {x} from, const {x} = require()), or the
// module's value or default export bound to it (const x = require(), import x from).
func (r *resolver) jsImportUse(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, error) {
	var at []resolve.Import // the use's own statement's, else any
	for _, im := range f.Imports {
		if im.Line <= u.StartLine && u.StartLine <= im.EndLine {
			at = append(at, im)
		}
	}
	if len(at) == 0 {
		at = f.Imports
	}
	for _, im := range at {
		var role string
		switch {
		case jsNamesImported(im.Names, u.Name):
			role = "name"
		case im.Alias == u.Name:
			role = "*"
		case im.Default == u.Name:
			role = "default"
		case im.Wildcard:
			role = "name"
		default:
			continue
		}
		files, err := r.jsModuleFiles(im.Target, f.Path)
		if err != nil {
			return nil, err
		}
		for _, mf := range files {
			var d *resolve.Def
			switch role {
			case "name":
				d, err = r.jsExport(mf, u.Name, cands, map[string]bool{}, 0)
			case "*":
				var w *jsWholeExport
				if w, err = r.jsWhole(mf); w != nil {
					d = w.module
				}
			case "default":
				d, err = r.jsDefault(mf, map[string]bool{}, 0)
			}
			if err != nil {
				return nil, err
			}
			if d != nil { // the first file that has it is the module (x.d.ts before x.js)
				if !jsAmong(d, cands) {
					return nil, nil
				}
				return d, nil
			}
		}
	}
	return nil, nil
}

// jsBare resolves a bare name.
func (r *resolver) jsBare(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, error) {
	d, local, b, err := r.jsLookup(f, u, u.Name, cands)
	switch {
	case err != nil || local:
		return nil, "", err
	case d != nil:
		return d, resolve.ResolvedScope, nil
	case b.def != nil && jsAmong(b.def, cands):
		return b.def, resolve.ResolvedImport, nil
	}
	return nil, "", nil
}

// jsLookup finds what the bare name means at the use u: a definition among cands in scope
// (d), a local of a function around the use (local), or what an import binds it to (b).
func (r *resolver) jsLookup(f *resolve.File, u extract.Identifier, name string, cands []*resolve.Def) (d *resolve.Def, local bool, b jsBinding, err error) {
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, false, b, err
	}
	var fn *resolve.Def // the innermost function around the use
	for _, id := range chain {
		c, err := r.Symbol(id)
		if err != nil || c == nil {
			return nil, false, b, err
		}
		var hit, self []*resolve.Def // a definition inside c; c itself (a function's name in its body)
		for _, d := range cands {
			switch {
			case d.Path != f.Path || !jsBareName(d):
			case d.ParentID == id:
				hit = append(hit, d)
			case d.ID == id && jsNamesItself(d):
				self = append(self, d)
			}
		}
		if len(hit) == 0 {
			hit = self
		}
		if d := resolve.One(hit); d != nil {
			return d, false, b, nil
		}
		if len(hit) > 1 {
			return nil, true, b, nil // several: not one the use can be told to mean
		}
		if k, _ := extract.KindNamed(c.Kind); k.IsCallable() || k == extract.Property {
			if fn == nil {
				fn = c
			}
			if local, _, err := r.jsLocal(f, c, name, u.StartLine, u.StartColumn, false); local || err != nil {
				return nil, local, b, err
			}
		}
	}
	if fn == nil { // at the top level: a function literal's parameter or local around the use
		lines, err := r.Lines(f.Path)
		if err != nil {
			return nil, false, b, err
		}
		local, at, err := r.jsLocal(f, &resolve.Def{Line: r.jsTopStatement(f, lines, u.StartLine)}, name, u.StartLine, u.StartColumn, true)
		if err != nil {
			return nil, false, b, err
		}
		if local {
			// A declaration the extractor made a top-level definition of (in a function
			// that is no symbol: module.exports = function () { const a = 1 }) is that one.
			for _, d := range cands {
				if d.Path == f.Path && d.ParentID == "" && d.Line == at && jsBareName(d) {
					return d, false, b, nil
				}
			}
			return nil, true, b, nil
		}
	}
	var top []*resolve.Def
	for _, d := range cands {
		if d.Path == f.Path && d.ParentID == "" && jsBareName(d) {
			if ok, err := r.jsVisible(f, d, u.StartLine); err != nil {
				return nil, false, b, err
			} else if ok {
				top = append(top, d)
			}
		}
	}
	if d := resolve.One(top); d != nil {
		return d, false, b, nil
	}
	if len(top) > 1 {
		return nil, true, b, nil
	}
	b, err = r.jsBound(f, name)
	return nil, false, b, err
}

// jsBareName reports whether a bare name can mean the definition d: not a member of an
// object literal, a class or a prototype, nor an entry of module.exports = {...}.
func jsBareName(d *resolve.Def) bool {
	switch d.Kind {
	case extract.Method.String(), extract.Property.String(), extract.Field.String(), extract.Constructor.String(), extract.EnumMember.String():
		return false
	}
	return !strings.Contains(d.Metadata, `"receiver":`) && !jsObjectEntry(d) &&
		!strings.HasPrefix(d.Signature, "exports.") && !strings.HasPrefix(d.Signature, "module.exports.")
}

// jsObjectEntry reports whether the definition d is an entry of an object literal (name:
// value, name () {...}, 'name': value), by its signature.
func jsObjectEntry(d *resolve.Def) bool {
	sig := strings.TrimLeft(d.Signature, "'\"")
	for _, p := range []string{"async ", "get ", "set ", "*"} {
		sig = strings.TrimPrefix(sig, p)
	}
	rest, ok := strings.CutPrefix(sig, d.Name)
	if !ok {
		return false
	}
	rest = strings.TrimLeft(strings.TrimLeft(rest, "'\""), " \t")
	return strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "(")
}

// jsNamesItself reports whether the name of d means d inside d itself: a named function
// or class (recursion), not a variable's initializer nor a method's body.
func jsNamesItself(d *resolve.Def) bool {
	return d.Kind == extract.Function.String() || d.Kind == extract.Class.String()
}

// jsLocal reports whether the function fn around the use at line and col binds name
// itself: a parameter of its signature, of a function literal around the use, or a
// declaration above the use in it (const, let, var, a destructuring, catch, function,
// class), at the line at (0: a parameter). With indented, only declarations not at the
// start of a line count (fn is the file: a top-level declaration is the file's).
func (r *resolver) jsLocal(f *resolve.File, fn *resolve.Def, name string, line, col int, indented bool) (bool, int, error) {
	if fn.Signature != "" && jsParamsBind(fn.Signature, name) {
		return true, 0, nil
	}
	if _, found, err := r.LiteralParam(f, fn, name, line, col); found || err != nil {
		return found, 0, err
	}
	lines, err := r.Lines(f.Path)
	if err != nil {
		return false, 0, err
	}
	from := fn.Line
	if !indented {
		from++ // fn's own line declares fn
	}
	depth := 0 // blocks closed between the line and the use
	for n := min(line, len(lines)); n >= max(from, 1); n-- {
		text := lines[n-1]
		if n == line {
			text = text[:max(min(col-1, len(text)), 0)]
		}
		before := depth
		if !jsEnclosing(text, &depth) {
			continue // in a block closed before the use
		}
		if opens, closes := jsBraces(text); opens > closes+before && n > fn.Line && jsHeadBinds(lines, n, text, name) {
			return true, 0, nil // a parameter of a function around the use, its list across lines
		}
		if !strings.Contains(text, name) || indented && jsIndent(text) == 0 {
			continue // a top-level declaration is the file's
		}
		if jsDeclares(text, name) {
			if r.jsImportAt(f, n) {
				return false, 0, nil // const { name } = require("m") in the function: the import's
			}
			return true, n, nil
		}
	}
	return false, 0, nil
}

// jsHeadBinds reports whether the block the line n (its text) opens is the body of a
// function (or a catch) whose parameters bind name: the parenthesized list before the
// brace, on that line or the lines above it.
func jsHeadBinds(lines []string, n int, text, name string) bool {
	i := strings.LastIndexByte(text, '{')
	if i < 0 {
		return false
	}
	head := strings.TrimRight(text[:i], " \t")
	if h, ok := strings.CutSuffix(head, "=>"); ok { // x => {
		h = strings.TrimRight(h, " \t")
		if p := jsLastIdent(h); p != "" {
			return p == name
		}
	}
	for k := n - 1; k >= max(1, n-8) && strings.Count(head, "(") < strings.Count(head, ")"); k-- {
		head = lines[k-1] + "\n" + head // the list goes on above
	}
	head = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(head), "=>"))
	if !strings.HasSuffix(head, ")") {
		if c := strings.LastIndexByte(head, ')'); c >= 0 && strings.HasPrefix(strings.TrimSpace(head[c+1:]), ":") {
			head = head[:c+1] // a return type
		} else {
			return false
		}
	}
	depth, open := 0, -1
	for j := len(head) - 1; j >= 0 && open < 0; j-- {
		switch head[j] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				open = j
			}
		}
	}
	if open < 0 {
		return false
	}
	switch jsLastIdent(strings.TrimRight(head[:open], " \t")) {
	case "if", "for", "while", "switch", "with", "return", "typeof", "await":
		return false
	}
	return jsParamsBind(strings.ReplaceAll(head[open:], "\n", " "), name)
}

// jsDeclares reports whether the line text declares name: const, let or var name (or a
// destructuring that binds it), catch (name), function name, class name.
func jsDeclares(text, name string) bool {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		i = at + len(name)
		if at > 0 && resolve.IsIdentByte(text[at-1]) || i < len(text) && resolve.IsIdentByte(text[i]) {
			continue
		}
		before := strings.TrimRight(text[:at], " \t")
		after := strings.TrimLeft(text[i:], " \t")
		switch {
		case jsEndsWithWord(before, "const"), jsEndsWithWord(before, "let"), jsEndsWithWord(before, "var"),
			jsEndsWithWord(before, "function"), jsEndsWithWord(before, "class"):
			return true
		case strings.HasSuffix(before, "catch (") || strings.HasSuffix(before, "catch("):
			return true
		case strings.HasPrefix(after, ":") && !strings.HasPrefix(after, "::"):
			continue // a key of a destructuring or an object: { name: x }
		}
		// Inside a destructuring of a declaration: const { a, name } = x, let [name] = y.
		for _, kw := range []string{"const", "let", "var"} {
			k := jsLastWord(before, kw)
			if k < 0 {
				continue
			}
			pat := strings.TrimLeft(before[k+len(kw):], " \t")
			if (strings.HasPrefix(pat, "{") || strings.HasPrefix(pat, "[")) && !strings.Contains(pat, "=") {
				return true
			}
		}
	}
	return false
}

// jsEndsWithWord reports whether s ends with the word w.
func jsEndsWithWord(s, w string) bool {
	return strings.HasSuffix(s, w) && (len(s) == len(w) || !resolve.IsIdentByte(s[len(s)-len(w)-1]))
}

// jsLastWord returns where the last occurrence of the word w in s starts, -1 if none.
func jsLastWord(s, w string) int {
	for end := len(s); end > 0; {
		i := strings.LastIndex(s[:end], w)
		if i < 0 {
			return -1
		}
		if (i == 0 || !resolve.IsIdentByte(s[i-1])) && (i+len(w) == len(s) || !resolve.IsIdentByte(s[i+len(w)])) {
			return i
		}
		end = i
	}
	return -1
}

// jsParamsBind reports whether the parameters of a function's signature (the first
// parenthesized list: function f (a, b), X.prototype.m = function (a), m (a = 1, ...rest),
// const f = ({ a }) =>) bind name; a destructured parameter binds every name in it.
func jsParamsBind(sig, name string) bool {
	i := strings.IndexByte(sig, '(')
	if i < 0 {
		return false
	}
	end := resolve.CloseParen(sig, i)
	if end < 0 {
		end = len(sig)
	} else {
		end--
	}
	for _, p := range resolve.SplitTop(sig[i+1:end], ',') {
		p = strings.TrimSpace(p)
		if k := resolve.AssignAt(p); k >= 0 {
			p = strings.TrimSpace(p[:k])
		}
		if strings.HasPrefix(p, "{") || strings.HasPrefix(p, "[") {
			if resolve.WordIn(p, name) {
				return true
			}
			continue
		}
		if k := resolve.ColonAt(p); k >= 0 {
			p = p[:k]
		}
		f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(p), "?"))
		if len(f) > 0 && strings.TrimLeft(f[len(f)-1], ".") == name {
			return true
		}
	}
	return false
}

// jsThis resolves this.x: a member of what this is in the function around the use.
func (r *resolver) jsThis(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, error) {
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	for _, id := range chain {
		c, err := r.Symbol(id)
		if err != nil || c == nil {
			return nil, err
		}
		if t, found, err := r.jsDeclaredThis(f, c); found || err != nil { // function f(this: T)
			if t == nil || err != nil {
				return nil, err
			}
			return r.MemberOf(f, *t, cands)
		}
		if resolve.IsTypeKind(c.Kind) { // a class's field initializer
			return r.jsThisMember(f, *c, cands, false)
		}
		k, _ := extract.KindNamed(c.Kind)
		switch k {
		case extract.Method, extract.Constructor, extract.Property:
			p, err := r.Symbol(c.ParentID)
			if err != nil || p == nil {
				return nil, err
			}
			return r.jsThisMember(f, *p, cands, resolve.MetaMap(c.Metadata)["static"] == "true")
		case extract.Function:
			if c.ParentID != "" || strings.Contains(c.Metadata, `"receiver":`) {
				p, err := r.Symbol(c.ParentID)
				if err != nil || p == nil {
					return nil, err
				}
				if !resolve.IsTypeKind(p.Kind) && p.Kind != extract.Function.String() {
					return r.jsThisMember(f, *p, cands, false) // a function an object literal holds
				}
				return nil, nil // a function's local function: this is not the function's
			}
			return r.jsThisMember(f, *c, cands, false) // a constructor function's instance
		case extract.Variable, extract.Constant:
			continue // an initializer: what is around it decides
		}
		return nil, nil
	}
	return nil, nil
}

// jsDeclaredThis returns the type a TypeScript callable declares for this, its parameter
// this: T (function make_(this: Annotation, ...)): found reports the declaration, t is nil
// when the type is not one of the workspace's.
func (r *resolver) jsDeclaredThis(f *resolve.File, d *resolve.Def) (t *resolve.Def, found bool, err error) {
	if f.Lang != "typescript" && f.Lang != "tsx" {
		return nil, false, nil
	}
	if k, _ := extract.KindNamed(d.Kind); !k.IsCallable() {
		return nil, false, nil
	}
	typ := resolve.ParamType(d.Signature, "this", f.Lang)
	if typ == "" {
		return nil, false, nil
	}
	t, err = r.TypeNamed(f, typ, d.ID)
	return t, true, err
}

// jsThisMember returns the one candidate that is a member of t as this sees it: a class's
// instance members (its statics in a static method) or its bases', a function's prototype
// members, an object literal's keys.
func (r *resolver) jsThisMember(f *resolve.File, t resolve.Def, cands []*resolve.Def, static bool) (*resolve.Def, error) {
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID != t.ID {
			continue
		}
		m := resolve.MetaMap(d.Metadata)
		switch t.Kind {
		case extract.Function.String():
			if m["static"] == "true" || m["receiver"] != t.Name {
				continue // a static of the function, or a local of its body
			}
		case extract.Variable.String(), extract.Constant.String(), extract.Property.String():
		default:
			if (m["static"] == "true") != static {
				continue
			}
		}
		hit = append(hit, d)
	}
	if d := resolve.One(hit); d != nil || len(hit) > 0 {
		return d, nil
	}
	if !resolve.IsTypeKind(t.Kind) {
		return nil, nil
	}
	return r.Inherited(f, t, cands, 0)
}

// jsQualified resolves q.x where q names a definition or a module in the file.
func (r *resolver) jsQualified(f *resolve.File, u extract.Identifier, q string, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
	if spec, ok := jsRequireCall(q); ok { // require("m").x
		files, err := r.jsModuleFiles(spec, f.Path)
		if err != nil {
			return nil, "", true, err
		}
		for _, mf := range files {
			if d, err := r.jsExport(mf, u.Name, cands, map[string]bool{}, 0); d != nil || err != nil {
				return d, resolve.ResolvedImport, true, err
			}
		}
		return nil, "", true, nil
	}
	if q == "exports" || q == "module.exports" { // the module's own export
		d, err := r.jsExport(f.Path, u.Name, cands, map[string]bool{}, 0)
		return d, resolve.ResolvedScope, true, err
	}
	if e, ok := strings.CutPrefix(q, "new "); ok { // new X(...).m(): a member of X's instances
		callee := resolve.CalleePath(e)
		rest := strings.TrimSpace(e[len(callee):])
		if callee == "" || !strings.HasPrefix(rest, "(") || strings.TrimSpace(resolve.SkipGroup(rest, '(', ')')) != "" {
			return nil, "", true, nil
		}
		t, err := r.jsValueNamed(f, u, callee)
		if t == nil || err != nil || !resolve.IsTypeKind(t.Kind) && t.Kind != extract.Function.String() {
			return nil, "", true, err
		}
		d, err := r.jsInstanceMember(f, *t, cands)
		return d, resolve.ResolvedReceiver, true, err
	}
	base, proto := strings.CutSuffix(q, ".prototype")
	segs := strings.Split(base, ".")
	for _, s := range segs {
		if !resolve.IsIdent(s) {
			return nil, "", false, nil
		}
	}
	head := segs[0]
	if head == "this" || head == "super" {
		return nil, "", false, nil // this.a.x: the general rules (fields' declared types)
	}
	defs, err := r.jsDefs(head)
	if err != nil {
		return nil, "", true, err
	}
	use := u
	use.Name, use.Qualifier = head, ""
	t, local, b, err := r.jsLookup(f, use, head, defs)
	switch {
	case err != nil:
		return nil, "", true, err
	case local && !proto && len(segs) == 1:
		// A local bound to new X() or to a factory's call: a member of X's instances.
		if t, err := r.jsLocalInstance(f, u, head); t != nil || err != nil {
			if err != nil {
				return nil, "", true, err
			}
			d, err := r.jsInstanceMember(f, *t, cands)
			return d, resolve.ResolvedReceiver, true, err
		}
		return nil, "", false, nil // the general rules: a declared type
	case local || !b.bound && t == nil:
		return nil, "", false, nil // no name of the file: the general rules
	}
	why := resolve.ResolvedImport
	var owners []*resolve.Def // what the qualifier means: definitions (merged declarations), or
	mods := b.module          // a module
	switch {
	case t != nil:
		owners, why = []*resolve.Def{t}, resolve.ResolvedQualified
	case b.def != nil:
		owners = append([]*resolve.Def{b.def}, b.merged...)
	}
	for _, seg := range segs[1:] { // a.b.x: b in what a means, then x in b
		next, err := r.jsDefs(seg)
		if err != nil {
			return nil, "", true, err
		}
		var found []*resolve.Def
		var ns []string
		for _, o := range owners {
			if d, err := r.jsMember(*o, next); err != nil {
				return nil, "", true, err
			} else if d != nil {
				found = append(found, d)
				break
			}
		}
		for _, mf := range mods {
			if len(found) > 0 || ns != nil {
				break
			}
			if d, err := r.jsExport(mf, seg, next, map[string]bool{}, 0); err != nil {
				return nil, "", true, err
			} else if d != nil {
				found = append(found, d)
			} else if ns, err = r.jsNamespace(mf, seg, map[string]bool{}, 0); err != nil {
				return nil, "", true, err
			}
		}
		if len(found) == 0 && ns == nil {
			return nil, "", true, nil // a member the chain cannot follow: never guessed
		}
		owners, mods = found, ns
	}
	for _, o := range owners {
		if d, err := r.jsQualifiedMember(f, *o, cands, proto); d != nil || err != nil {
			return d, why, true, err
		}
	}
	if len(segs) == 1 && t != nil && !proto && (t.Kind == extract.Constant.String() || t.Kind == extract.Variable.String()) {
		// const x = new X() of the file: a member of X's instances.
		if lines, err := r.Lines(t.Path); err != nil {
			return nil, "", true, err
		} else if t.Line >= 1 && t.Line <= len(lines) {
			if x, _, err := r.jsInstanceOf(f, u, lines[t.Line-1], t.Name); x != nil || err != nil {
				if err != nil {
					return nil, "", true, err
				}
				d, err := r.jsInstanceMember(f, *x, cands)
				return d, resolve.ResolvedReceiver, true, err
			}
		}
	}
	if !proto {
		for _, mf := range mods {
			if d, err := r.jsExport(mf, u.Name, cands, map[string]bool{}, 0); d != nil || err != nil {
				return d, why, true, err
			}
		}
	}
	return nil, "", true, nil
}

// jsQualifiedMember returns the member of t that t.x (or t.prototype.x, proto) means.
func (r *resolver) jsQualifiedMember(f *resolve.File, t resolve.Def, cands []*resolve.Def, proto bool) (*resolve.Def, error) {
	if proto {
		return r.jsThisMember(f, t, cands, false)
	}
	return r.jsMember(t, cands)
}

// jsRequireCall returns the specifier of a qualifier that is require("m").
func jsRequireCall(q string) (string, bool) {
	rest, ok := strings.CutPrefix(q, "require(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return "", false
	}
	s := strings.TrimSpace(strings.TrimSuffix(rest, ")"))
	if len(s) < 2 || s[0] != s[len(s)-1] || !strings.ContainsRune("'\"`", rune(s[0])) {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// jsLocalInstance returns what the local name is an instance of at the use u, from its
// nearest binding above the use in the function around it (or, at the top level, in the
// function literal around it): a class or constructor function X of name = new X(...), a
// factory function f (whose returned object's members are definitions) of name = f(...);
// nil when the binding says neither (a declared type is the general rules').
func (r *resolver) jsLocalInstance(f *resolve.File, u extract.Identifier, name string) (*resolve.Def, error) {
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	lines, err := r.Lines(f.Path)
	if err != nil {
		return nil, err
	}
	fn := &resolve.Def{Line: r.jsTopStatement(f, lines, u.StartLine)}
	for _, id := range chain {
		if c, err := r.Symbol(id); err != nil || c == nil {
			return nil, err
		} else if k, _ := extract.KindNamed(c.Kind); k.IsCallable() {
			fn = c
			break
		}
	}
	if _, found, err := r.LiteralParam(f, fn, name, u.StartLine, u.StartColumn); found || err != nil {
		return nil, err // a function literal's parameter
	}
	depth := 0 // blocks closed between the line and the use
	for n := min(u.StartLine, len(lines)); n >= fn.Line && n >= 1; n-- {
		text := lines[n-1]
		if n == u.StartLine {
			text = text[:max(min(u.StartColumn-1, len(text)), 0)]
		}
		if !jsEnclosing(text, &depth) {
			continue // inside a block that closed before the use
		}
		if t, ok, err := r.jsInstanceOf(f, u, text, name); ok || err != nil {
			return t, err
		}
	}
	return nil, nil
}

// jsInstanceOf reads the line text as a binding of name: ok reports that it is one, t what
// it binds name to an instance of (nil: not said).
func (r *resolver) jsInstanceOf(f *resolve.File, u extract.Identifier, text, name string) (t *resolve.Def, ok bool, err error) {
	typ, rhs, ok := resolve.BindingOf(text, name, f.Lang)
	if !ok {
		return nil, false, nil
	}
	if typ != "" || rhs == "" {
		return nil, true, nil
	}
	e := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rhs), "await "))
	isNew := strings.HasPrefix(e, "new ")
	e = strings.TrimSpace(strings.TrimPrefix(e, "new "))
	callee := resolve.CalleePath(e)
	rest := strings.TrimSpace(e[len(callee):])
	if callee == "" || !strings.HasPrefix(rest, "(") || strings.TrimSpace(resolve.SkipGroup(rest, '(', ')')) != "" {
		return nil, true, nil // not one call, or a call followed by more
	}
	if t, err = r.jsValueNamed(f, u, callee); t == nil || err != nil {
		return nil, true, err
	}
	if isNew && (resolve.IsTypeKind(t.Kind) || t.Kind == extract.Function.String()) || !isNew && t.Kind == extract.Function.String() {
		return t, true, nil
	}
	if !isNew && t.Kind == extract.Method.String() { // X.from(...) whose body returns new X(...)
		x, err := r.jsReturnsNew(*t)
		return x, true, err
	}
	return nil, true, nil
}

// jsReturnsNew returns the class or constructor function a function's or method's body
// instantiates in each of its return statements (return new X(...)), nil when they do not
// all name one.
func (r *resolver) jsReturnsNew(fn resolve.Def) (*resolve.Def, error) {
	lines, err := r.Lines(fn.Path)
	if err != nil {
		return nil, err
	}
	name := ""
	for n := max(fn.Line, 1); n <= fn.EndLine && n <= len(lines); n++ {
		t := lines[n-1]
		i := strings.Index(t, "return ")
		if i < 0 || i > 0 && resolve.IsIdentByte(t[i-1]) {
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(t[i+len("return "):]), "new ")
		c := resolve.CalleePath(rest)
		if !ok || c == "" || name != "" && c != name {
			return nil, nil
		}
		name = c
	}
	if name == "" {
		return nil, nil
	}
	ff, err := r.FileOf(fn.Path, fn.Language)
	if err != nil {
		return nil, err
	}
	at := extract.Identifier{Name: name, ContainingSymbolID: fn.ID}
	at.StartLine = fn.Line
	t, err := r.jsValueNamed(ff, at, name)
	if t == nil || err != nil || !resolve.IsTypeKind(t.Kind) && t.Kind != extract.Function.String() {
		return nil, err
	}
	return t, nil
}

// jsValueNamed resolves the name path (X, ns.X) as written at the use u: the definition it
// means, nil when it is not one of the file's names or imports.
func (r *resolver) jsValueNamed(f *resolve.File, u extract.Identifier, p string) (*resolve.Def, error) {
	name, q := resolve.SplitQualified(p)
	if !resolve.IsIdent(name) {
		return nil, nil
	}
	cands, err := r.jsDefs(name)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	use := u
	use.Name, use.Qualifier, use.Kind = name, q, extract.VariableRef
	if q == "" {
		d, _, err := r.jsBare(f, use, cands)
		return d, err
	}
	d, _, _, err := r.jsQualified(f, use, q, cands)
	return d, err
}

// jsInstanceMember returns the one candidate that is a member of t's instances: a class's
// instance members (or its bases'), a constructor function's prototype members, a factory
// function's returned object's members.
func (r *resolver) jsInstanceMember(f *resolve.File, t resolve.Def, cands []*resolve.Def) (*resolve.Def, error) {
	if t.Kind != extract.Function.String() {
		return r.jsThisMember(f, t, cands, false)
	}
	holder, err := r.jsReturned(t)
	if err != nil {
		return nil, err
	}
	var hit []*resolve.Def
	for _, d := range cands {
		switch {
		case holder != nil && d.ParentID == holder.ID:
			hit = append(hit, d) // a member of the object the factory returns
		case d.ParentID != t.ID || strings.Contains(d.Metadata, `"static":"true"`):
		case resolve.MetaMap(d.Metadata)["receiver"] == t.Name:
			hit = append(hit, d) // a prototype member
		}
	}
	return resolve.One(hit), nil
}

// jsReturned returns the local of the function t that holds an object literal whose
// members are definitions and that t returns (return name), nil when there is none.
func (r *resolver) jsReturned(t resolve.Def) (*resolve.Def, error) {
	st := r.jsState()
	if st.returned == nil {
		st.returned = map[string]*resolve.Def{}
	}
	if d, ok := st.returned[t.ID]; ok {
		return d, nil
	}
	st.returned[t.ID] = nil
	kids, err := r.Children(t)
	if err != nil {
		return nil, err
	}
	lines, err := r.Lines(t.Path)
	if err != nil {
		return nil, err
	}
	for i := range kids {
		k := &kids[i]
		if k.Kind != extract.Constant.String() && k.Kind != extract.Variable.String() {
			continue
		}
		for n := max(t.Line, 1); n <= t.EndLine && n <= len(lines); n++ {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(lines[n-1]), "return "); ok && strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ";")) == k.Name {
				st.returned[t.ID] = k
				return k, nil
			}
		}
	}
	return nil, nil
}

// jsBraces counts the braces that open and close blocks on the line text, outside strings
// and comments.
func jsBraces(text string) (opens, closes int) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '{':
			opens++
		case '}':
			closes++
		case '"', '\'', '`':
			for i++; i < len(text) && text[i] != c; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(text) && (text[i+1] == '/' || text[i+1] == '*') {
				return opens, closes
			}
		}
	}
	return opens, closes
}

// jsEnclosing reports, going up from the use, whether the line n is in a block around the
// use: depth counts the blocks closed between the line and the use (0: none); it is
// updated for the line.
func jsEnclosing(text string, depth *int) bool {
	opens, closes := jsBraces(text)
	*depth = max(0, *depth+closes-opens)
	return *depth == 0
}

// jsVisible reports whether the top-level definition d of f is in scope at line: a
// definition at the start of its line is; one indented (a declaration in a function literal
// at the top level: test('x', () => { const a = 1 })) only below it, in its block: no
// brace between closes a block the definition is in.
func (r *resolver) jsVisible(f *resolve.File, d *resolve.Def, line int) (bool, error) {
	lines, err := r.Lines(f.Path)
	if err != nil || d.Line < 1 || d.Line > len(lines) {
		return err == nil, err
	}
	if jsIndent(lines[d.Line-1]) <= 0 {
		return true, nil
	}
	if line < d.Line {
		return false, nil
	}
	st := r.jsState()
	key := f.Path + "\x00" + strconv.Itoa(d.Line)
	end, ok := st.blockEnd[key]
	if !ok { // the line whose braces close the block around the definition
		end = len(lines) + 1
		depth := 0
		for n := d.Line; n <= len(lines); n++ {
			opens, closes := jsBraces(lines[n-1])
			if depth += opens - closes; depth < 0 {
				end = n
				break
			}
		}
		if st.blockEnd == nil {
			st.blockEnd = map[string]int{}
		}
		st.blockEnd[key] = end
	}
	return line <= end, nil
}

// jsTopStatement returns the line where the top-level statement holding line starts: the
// nearest line above it (or it) that starts outside every block and does not close one
// (test('x', () => { ... }) ends at "})"); 1 when none does. The blocks are counted by
// braces from the file's start once per file (jsDepths), not by indentation, which
// generated code does not keep.
func (r *resolver) jsTopStatement(f *resolve.File, lines []string, line int) int {
	depths := r.jsDepths(f.Path, lines)
	for n := min(line, len(lines)); n >= 1; n-- {
		t := strings.TrimLeft(lines[n-1], " \t")
		if depths[n-1] == 0 && t != "" && t[0] != '}' && t[0] != ')' && t[0] != ']' {
			return n
		}
	}
	return 1
}

// jsDepths returns the number of blocks open at the start of each line of the file.
func (r *resolver) jsDepths(p string, lines []string) []int {
	st := r.jsState()
	if d, ok := st.depths[p]; ok {
		return d
	}
	out := make([]int, len(lines))
	depth := 0
	for i, l := range lines {
		out[i] = depth
		opens, closes := jsBraces(l)
		depth = max(0, depth+opens-closes)
	}
	if st.depths == nil {
		st.depths = map[string][]int{}
	}
	st.depths[p] = out
	return out
}

// jsIndent returns the indentation of the line text, -1 for a blank line.
func jsIndent(text string) int {
	for i := 0; i < len(text); i++ {
		if text[i] != ' ' && text[i] != '\t' {
			return i
		}
	}
	return -1
}

// jsLastIdent returns the identifier s ends with ("" when it ends otherwise).
func jsLastIdent(s string) string {
	i := len(s)
	for i > 0 && resolve.IsIdentByte(s[i-1]) {
		i--
	}
	return s[i:]
}

// jsImportAt reports whether an import of f (a require inside a function) spans line n.
func (r *resolver) jsImportAt(f *resolve.File, n int) bool {
	for _, im := range f.Imports {
		if im.Line <= n && n <= im.EndLine {
			return true
		}
	}
	return false
}
