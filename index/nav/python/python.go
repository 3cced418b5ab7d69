package python

// Python: the module a from-import takes a name from (pyPick), the import statement a use of
// kind import is part of (pyImportRef), and the types of receivers (pyTyped): q.name where q
// is self or a method's first parameter, a parameter with an annotation, a local variable
// bound to a value whose type is known, a module's variable, or a chain of those through
// attributes (self.command.x: the type of the value __init__ assigned to self.command) and
// calls of methods with a return annotation (ctx.find_root().x). An annotation is read as
// Python means it: "Context" (a forward reference), t.Optional[Context], Context | None,
// t.Type[Context] and Self name a type. A receiver whose type is not known stays
// unresolved: nothing is guessed.

import (
	"database/sql"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
)

// maxPyTypeDepth bounds the values followed from one another when typing a receiver
// (self.a is bound to b.c, whose type is the value of ...).
const maxPyTypeDepth = 12

// pyPick returns the one candidate defined at the top level of the Python module where (a
// path without extension: a/b for a/b.py and a/b/__init__.py, maybe a suffix of the
// workspace path). A from-import takes a module's name: never a member of one of its
// classes, nor a definition elsewhere in the package's directory.
func pyPick(cands []*resolve.Def, where string) *resolve.Def {
	where = strings.Trim(path.Clean(where), "/")
	if where == "" || where == "." {
		return nil
	}
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID != "" {
			continue
		}
		mod := strings.TrimSuffix(strings.TrimSuffix(d.Path, path.Ext(d.Path)), "/__init__")
		if mod == where || strings.HasSuffix(mod, "/"+where) {
			hit = append(hit, d)
		}
	}
	return resolve.One(hit)
}

// pyImportRef resolves the name an import statement of f imports (u, of kind import):
// from m import name (as alias) means name in the module m, or where m re-exports it from.
// The import is the one whose statement holds the use, so that from urllib3 import
// SSLError as _SSLError is never the workspace's SSLError that another import of the file
// brings in.
//
// An import of a module that is not the workspace's binds the same name as the definition
// that stands in for it when the import fails, in the same scope (try: import chardet /
// except ImportError: chardet = None; from m import __version__ as m_version / except
// ImportError: m_version = None): the import is a use of that definition. The name the
// import binds is its alias (the extractor records it as a use of kind import too) or,
// without one, the name it imports (import a.b binds a module path: never).
func (r *resolver) pyImportRef(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, error) {
	for _, im := range f.Imports {
		if u.StartLine < im.Line || u.StartLine > im.EndLine || im.Wildcard {
			continue
		}
		name := resolve.LastSegment(im.Target, ".")
		switch {
		case im.Alias != "" && im.Alias == u.Name && name != u.Name: // as alias: the binding
			if im.Module != "" { // of the workspace's definition: that one (another name's)
				orig, err := r.FamilyDefs(name, f.Lang)
				if err != nil {
					return nil, err
				}
				if d, err := r.pyReexported(pyModulePath(im.Module, f.Path), name, orig); d != nil || err != nil {
					return d, err
				}
			}
			return r.pyImportFallback(f, u, im, cands)
		case name != u.Name:
			continue
		case im.Module == "": // import x
			if im.Alias != "" || strings.Contains(im.Target, ".") {
				return nil, nil
			}
			return r.pyImportFallback(f, u, im, cands)
		}
		d, err := r.pyReexported(pyModulePath(im.Module, f.Path), u.Name, cands)
		if d != nil || err != nil || im.Alias != "" {
			return d, err
		}
		return r.pyImportFallback(f, u, im, cands)
	}
	return nil, nil
}

// pyImportFallback returns the definition of the name the import im binds (u names it) in
// the same scope as the import, when im imports from a module that is not the workspace's
// (pyImportRef); nil otherwise.
func (r *resolver) pyImportFallback(f *resolve.File, u extract.Identifier, im resolve.Import, cands []*resolve.Def) (*resolve.Def, error) {
	module := im.Module
	if module == "" {
		module = im.Target
	}
	if where := pyModulePath(module, f.Path); where != "" {
		files, err := r.pyModuleFiles(where)
		if err != nil || len(files) > 0 {
			return nil, err
		}
	}
	var hit []*resolve.Def
	for _, d := range cands {
		if d.Path == f.Path && d.ParentID == u.ContainingSymbolID && d.Kind != extract.Import.String() {
			hit = append(hit, d)
		}
	}
	return resolve.One(hit), nil
}

// pyBefore drops from cands, for a bare name used at the top level of a module (no symbol
// around it), the module's own top-level definitions on the use's line or below it: a
// module's statements run in order, so builtin_str = str above str = str, and that line's
// str, read the builtin. Only a use the extractor recorded (it has a column) is one: the
// names resolution looks up itself for a type carry a line without their scope.
func pyBefore(f *resolve.File, u extract.Identifier, cands []*resolve.Def) []*resolve.Def {
	if u.ContainingSymbolID != "" || u.StartLine == 0 || u.StartColumn == 0 {
		return cands
	}
	out := cands[:0:0]
	for _, d := range cands {
		if d.Path == f.Path && d.ParentID == "" && d.Line >= u.StartLine {
			continue
		}
		out = append(out, d)
	}
	return out
}

// pyTyped resolves q.name where q's type is known (see the file's comment): a member of the
// type, or of its nearest base that has one.
func (r *resolver) pyTyped(f *resolve.File, u extract.Identifier, q string, cands []*resolve.Def) (*resolve.Def, error) {
	segs := pyQualifierParts(q)
	if segs == nil {
		return nil, nil
	}
	if where, err := r.pyModuleOf(f, segs); where != "" || err != nil { // util.ssl_.x
		if err != nil {
			return nil, err
		}
		return r.pyReexported(where, u.Name, cands)
	}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil || len(chain) == 0 {
		return nil, err
	}
	if len(segs) == 1 && segs[0] == "super()" { // super(Cls, self).x: a member of a base
		for _, id := range chain {
			if d, err := r.Symbol(id); err != nil || d != nil && resolve.IsTypeKind(d.Kind) {
				if err != nil {
					return nil, err
				}
				return r.Inherited(f, *d, cands, 0)
			}
		}
		return nil, nil
	}
	t, err := r.pyNameType(f, segs[0], chain, u.StartLine, u.StartColumn, 0)
	if err != nil || t == nil {
		return nil, err
	}
	for _, s := range segs[1:] {
		if t, err = r.pyMemberType(*t, s, 0); err != nil || t == nil {
			return nil, err
		}
	}
	return r.MemberOf(f, *t, cands)
}

// pyModuleOf returns the module a qualifier of several parts names (a path: pkg/util/ssl_
// for util.ssl_ after from pkg import util, or import pkg.util.ssl_ as such), "" when its
// first part is not a module an import binds or a later part is not a module of the
// workspace.
func (r *resolver) pyModuleOf(f *resolve.File, segs []string) (string, error) {
	if len(segs) < 2 {
		return "", nil // one part: inImported
	}
	where := ""
	for _, im := range f.Imports {
		if im.Wildcard {
			continue
		}
		switch {
		case im.Alias == segs[0]:
			where = pyModulePath(im.Target, f.Path)
		case im.Alias == "" && im.Module == "" && strings.SplitN(im.Target, ".", 2)[0] == segs[0]:
			where = segs[0] // import a.b binds a
		case im.Alias == "" && im.Module != "" && resolve.LastSegment(im.Target, ".") == segs[0]:
			where = pyModulePath(im.Target, f.Path) // from pkg import module
		}
		if where != "" {
			break
		}
	}
	if where == "" {
		return "", nil
	}
	if files, err := r.pyModuleFiles(where); err != nil || len(files) == 0 {
		return "", err
	}
	for _, s := range segs[1:] {
		if !resolve.IsIdent(s) {
			return "", nil
		}
		files, err := r.pyModuleFiles(where + "/" + s)
		if err != nil || len(files) == 0 {
			return "", err
		}
		where += "/" + s
	}
	return where, nil
}

// pyClassBody resolves a bare name used in a class's body (or in the decorators of one of
// its methods, above the method's def line: @name.setter) to the class's own definition of
// the name above the use: Python's class scope, which its methods do not see.
func (r *resolver) pyClassBody(u extract.Identifier, cands []*resolve.Def) (*resolve.Def, error) {
	c, err := r.Symbol(u.ContainingSymbolID)
	if err != nil || c == nil {
		return nil, err
	}
	if pyCallable(c.Kind) && u.StartLine < c.Line { // a decorator: evaluated around the def
		if c, err = r.Symbol(c.ParentID); err != nil || c == nil {
			return nil, err
		}
	}
	if !resolve.IsTypeKind(c.Kind) {
		return nil, nil
	}
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID == c.ID && d.Line <= u.StartLine {
			hit = append(hit, d)
		}
	}
	return resolve.One(hit), nil
}

// pyQualifierParts splits a qualifier into its parts: self, command of self.command; ctx,
// find_root() of ctx.find_root() (a call keeps its parentheses, its arguments dropped). nil
// when a part is neither a name nor a call of one (a subscript, an operator).
func pyQualifierParts(q string) []string {
	var out []string
	for _, p := range resolve.SplitTop(q, '.') {
		p = strings.TrimSpace(p)
		name, args, call := strings.Cut(p, "(")
		if !resolve.IsIdent(name) || call && (!strings.HasSuffix(args, ")") || resolve.SkipGroup("("+args, '(', ')') != "") {
			return nil
		}
		if call {
			name += "()"
		}
		out = append(out, name)
	}
	return out
}

// pyNameType returns the type of the value the name has where it is used (line, col) inside
// the symbols chain (innermost first): the instance of the enclosing class for self (a
// method's first parameter, cls of a class method), the annotation of a parameter, the value
// of a local variable's nearest binding above the use, else what the name means in the file
// (a module's variable, a class: its instances' members are the class's).
func (r *resolver) pyNameType(f *resolve.File, name string, chain []string, line, col, depth int) (*resolve.Def, error) {
	if r.pyTooDeep(depth) {
		return nil, nil
	}
	if name == "super()" { // super().x: a base's member (onReceiver) when the base is a workspace type
		return nil, nil
	}
	call := strings.HasSuffix(name, "()")
	name = strings.TrimSuffix(name, "()")
	for i, id := range chain {
		fn, err := r.Symbol(id)
		if err != nil || fn == nil {
			return nil, err
		}
		if !pyCallable(fn.Kind) {
			continue
		}
		class, err := r.pyMethodClass(fn, chain[i+1:])
		if err != nil {
			return nil, err
		}
		params, err := r.pyFnParams(fn)
		if err != nil {
			return nil, err
		}
		decos := "," + resolve.MetaMap(fn.Metadata)["decorators"] + ","
		if class != nil && len(params) > 0 && params[0].name == name && !strings.Contains(decos, ",staticmethod,") {
			if call && !strings.Contains(decos, ",classmethod,") {
				return nil, nil // self(): what the class's __call__ gives
			}
			return class, nil // self, cls, __self; cls(): an instance
		}
		if call {
			break // a call of a local variable or of the module's name
		}
		// The nearest binding above the use (a parameter may be bound again: timeout =
		// Timeout.from_float(timeout)), else the parameter's annotation or default value.
		t, bound, err := r.pyLocalType(f, fn, class, name, line, col, depth)
		if bound || err != nil {
			return t, err
		}
		for i, p := range params {
			if p.name != name {
				continue
			}
			switch {
			case p.typ != "":
				return r.pyAnnotated(f, p.typ, fn, class)
			case pyDocParam(fn.DocComment, name) != "": // :type name: T in the docstring
				return r.pyAnnotated(f, pyDocParam(fn.DocComment, name), fn, class)
			case p.dflt != "" && p.dflt != "None":
				return r.pyExprType(f, p.dflt, nil, fn.Line, depth+1)
			}
			return r.pyArgType(fn, class, params, i, depth) // what the callers pass
		}
		// Not fn's: an enclosing function's (a closure's), else the module's.
	}
	if call {
		name += "()"
	}
	return r.pyModuleNameType(f, name, line, depth)
}

// maxPyCallers bounds the calls of a function read to type one of its parameters, and
// maxPyArgDepth the parameters typed from their arguments while typing one (an argument
// that is itself a parameter of its caller).
const (
	maxPyCallers  = 32
	maxPyArgDepth = 2
)

// pyArgType returns the type of the parameter params[i] of the function fn (a method of
// class, nil for a function) from its calls in the workspace, as jedi does for a parameter
// without annotation: the one type every argument passed for it whose type is known has
// (calls of a class for its __init__'s parameters). nil when no call's argument is known, or
// two differ.
func (r *resolver) pyArgType(fn, class *resolve.Def, params []pyParam, i, depth int) (*resolve.Def, error) {
	return r.pyMemo("arg\x00"+fn.ID+"\x00"+params[i].name, func() (*resolve.Def, error) {
		if r.pyArgDepth >= maxPyArgDepth {
			r.pyCuts++
			return nil, nil
		}
		r.pyArgDepth++
		defer func() { r.pyArgDepth-- }()
		return r.pyArgTypeOf(fn, class, params, i, depth)
	})
}

// pyArgTypeOf is pyArgType, computed.
func (r *resolver) pyArgTypeOf(fn, class *resolve.Def, params []pyParam, i, depth int) (*resolve.Def, error) {
	decos := "," + resolve.MetaMap(fn.Metadata)["decorators"] + ","
	callee, target := fn.Name, fn
	if fn.Name == "__init__" && class != nil { // Foo(...) calls Foo.__init__
		callee, target = class.Name, class
	}
	bound := class != nil && !strings.Contains(decos, ",staticmethod,") // self or cls, not passed
	files, err := r.FilesUsing(callee)
	if err != nil {
		return nil, err
	}
	st, err := r.Store().Stmt(r.Context(), `SELECT data FROM identifiers WHERE file = ?`)
	if err != nil {
		return nil, err
	}
	var t *resolve.Def
	calls := 0
	for _, uf := range files {
		if uf.Lang != "python" || calls >= maxPyCallers {
			continue
		}
		var blob []byte
		if err := st.QueryRowContext(r.Context(), uf.ID).Scan(&blob); err != nil {
			return nil, fmt.Errorf("index: calls of %s in %s: %w", callee, uf.Path, err)
		}
		var uses []extract.Identifier
		err := store.DecodeIdents(blob, func(n string) bool { return n == callee }, func(x extract.Identifier) bool {
			if x.Kind == extract.Call {
				uses = append(uses, x)
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		cf, err := r.FileOf(uf.Path, uf.Lang)
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			if calls >= maxPyCallers {
				break
			}
			d, _, err := r.Resolve(cf, u)
			if err != nil {
				return nil, err
			}
			if d == nil || !resolve.Overloads(d, target) {
				continue
			}
			calls++
			idx := i
			if bound && (target == class || u.Qualifier != "" && u.Qualifier != class.Name) {
				idx-- // self is the instance the method is called on, or the one Foo() makes
			}
			arg, err := r.pyArgument(uf.Path, u, params[i].name, idx)
			if err != nil {
				return nil, err
			}
			if arg == "" {
				continue
			}
			scope, err := r.Chain(u.ContainingSymbolID)
			if err != nil {
				return nil, err
			}
			at, err := r.pyExprType(cf, arg, scope, u.StartLine, depth+1)
			if err != nil {
				return nil, err
			}
			if at == nil {
				continue
			}
			if t != nil && at.ID != t.ID {
				return nil, nil // callers pass different types
			}
			t = at
		}
	}
	return t, nil
}

// pyArgument returns the expression a call (the use u of the callee's name, in the file at
// p) passes for the parameter name at position idx (after the ones bound), "" when it passes
// none or it cannot tell (a *args before it).
func (r *resolver) pyArgument(p string, u extract.Identifier, name string, idx int) (string, error) {
	lines, err := r.Lines(p)
	if err != nil || u.StartLine < 1 || u.StartLine > len(lines) || idx < 0 {
		return "", err
	}
	text := strings.Join(lines[u.StartLine-1:min(len(lines), u.StartLine+30)], "\n")
	at := strings.Index(text[min(len(text), max(0, u.StartColumn-1)):], u.Name)
	if at < 0 {
		return "", nil
	}
	rest := strings.TrimSpace(text[max(0, u.StartColumn-1)+at+len(u.Name):])
	groups := resolve.ParenGroups(rest)
	if !strings.HasPrefix(rest, "(") || len(groups) == 0 {
		return "", nil
	}
	pos := 0
	for _, a := range resolve.SplitTop(groups[0], ',') {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if strings.HasPrefix(a, "*") {
			if strings.HasPrefix(a, "**") {
				continue
			}
			return "", nil // *args: the positions after it are not known
		}
		if k := pyTopIndex(a, '='); k < len(a) && k+1 < len(a) && a[k+1] != '=' && resolve.IsIdent(strings.TrimSpace(a[:k])) {
			if strings.TrimSpace(a[:k]) == name {
				return strings.TrimSpace(a[k+1:]), nil
			}
			continue
		}
		if pos == idx {
			return a, nil
		}
		pos++
	}
	return "", nil
}

// pyMemberType returns the type of t's member part: an attribute (field), a property's
// result, a method's called (m()).
func (r *resolver) pyMemberType(t resolve.Def, part string, depth int) (*resolve.Def, error) {
	if r.pyTooDeep(depth) {
		return nil, nil
	}
	name, call := strings.CutSuffix(part, "()")
	m, err := r.pyMember(t, name, 0)
	if err != nil || m == nil {
		return nil, err
	}
	if call || m.Kind == extract.Property.String() {
		return r.pyResultType(m)
	}
	return r.pyValueOf(*m, depth+1)
}

// pyMember returns t's member named name, or its nearest base's.
func (r *resolver) pyMember(t resolve.Def, name string, depth int) (*resolve.Def, error) {
	if depth > 8 {
		return nil, nil
	}
	defs, err := r.Defs(name)
	if err != nil {
		return nil, err
	}
	var hit []*resolve.Def
	for i := range defs {
		if defs[i].ParentID == t.ID {
			hit = append(hit, &defs[i])
		}
	}
	if len(hit) > 0 {
		return hit[0], nil // the first assignment of an attribute, or a method
	}
	bases, err := r.Bases(t)
	if err != nil {
		return nil, err
	}
	for _, b := range bases {
		if m, err := r.pyMember(*b, name, depth+1); m != nil || err != nil {
			return m, err
		}
	}
	return nil, nil
}

// pyValueOf returns the type of the variable or attribute d: its annotation, else the value
// its definition assigns (self.command = command in __init__: the parameter's annotation;
// self.x = Foo(...); x = make() of a function with a return annotation).
func (r *resolver) pyValueOf(d resolve.Def, depth int) (*resolve.Def, error) {
	if d.Language != "python" || r.pyTooDeep(depth) {
		return nil, nil
	}
	switch d.Kind {
	case extract.Field.String(), extract.Variable.String(), extract.Constant.String():
	default:
		return nil, nil
	}
	df, class, err := r.pyHome(d)
	if err != nil {
		return nil, err
	}
	typ, err := r.pyDeclared(d)
	if err != nil {
		return nil, err
	}
	if typ != "" {
		return r.pyAnnotated(df, typ, &d, class)
	}
	rhs, err := r.pyAssigned(d)
	if err != nil || rhs == "" {
		return nil, err
	}
	// The value is read where it is assigned: in a method for self.x = ..., else in d's
	// class or module.
	fn, err := r.pyEnclosing(d)
	if err != nil {
		return nil, err
	}
	if fn == nil {
		fn = class
	}
	scope := []string{}
	if fn != nil {
		if scope, err = r.Chain(fn.ID); err != nil {
			return nil, err
		}
	}
	return r.pyExprType(df, rhs, scope, d.Line, depth+1)
}

// pyExprType returns the type of the value of the expression e written in the scope chain
// (innermost first; empty: the module) on line: a name, a call (a class's instance, a
// function's result), and the attributes and calls that follow it. nil when a step is not
// known or e is anything else (an operator, a literal, a subscript, a conditional).
func (r *resolver) pyExprType(f *resolve.File, e string, scope []string, line, depth int) (*resolve.Def, error) {
	if r.pyTooDeep(depth) {
		return nil, nil
	}
	if typ := pyCast(e); typ != "" { // t.cast(T, value): a T
		in, err := r.Symbol(pyFirst(scope))
		if err != nil {
			return nil, err
		}
		return r.pyAnnotated(f, typ, in, nil)
	}
	if prefix, index, ok := pySubscript(e); ok { // self._long_opt[opt]: an item of what it holds
		a, err := r.pyExprAnnot(f, prefix, scope, line, depth+1)
		if err != nil || a == nil {
			return nil, err
		}
		item := pyItemAnnot(a.text, index)
		if item == "" {
			return nil, nil
		}
		return r.pyAnnotated(a.f, item, a.in, a.class)
	}
	// The expression's parts: names, calls (a call going on past the line ends it) and
	// attributes; an operator, a subscript, a conditional is not one value this reads.
	parts := pyExprParts(e)
	if len(parts) == 0 {
		return nil, nil
	}
	var t *resolve.Def
	var err error
	if len(scope) == 0 {
		t, err = r.pyModuleNameType(f, parts[0], line, depth)
	} else {
		t, err = r.pyNameType(f, parts[0], scope, line, 0, depth+1)
	}
	if t == nil && err == nil && len(parts) > 1 && !strings.HasSuffix(parts[0], "()") {
		// m.f(), m.Foo(), m.x: a name of the module an import binds to m
		name, call := strings.CutSuffix(parts[1], "()")
		d, _, err := r.Resolve(f, extract.Identifier{Name: name, Qualifier: parts[0], Kind: extract.VariableRef, ContainingSymbolID: pyFirst(scope), Span: extract.Span{StartLine: line}})
		if err != nil || d == nil {
			return nil, err
		}
		if t, err = r.pyDefType(d, call, depth); t == nil || err != nil {
			return nil, err
		}
		parts = parts[1:]
	}
	for _, p := range parts[1:] {
		if t == nil || err != nil {
			break
		}
		t, err = r.pyMemberType(*t, p, depth+1)
	}
	return t, err
}

// pyModuleNameType returns the type of the value a name has at the top level of the file f:
// a class (its instances for Foo()), a function's result, a variable's value.
func (r *resolver) pyModuleNameType(f *resolve.File, name string, line, depth int) (*resolve.Def, error) {
	call := strings.HasSuffix(name, "()")
	name = strings.TrimSuffix(name, "()")
	d, err := r.pyAliased(f, name)
	if d == nil && err == nil {
		d, _, err = r.Resolve(f, extract.Identifier{Name: name, Kind: extract.VariableRef, Span: extract.Span{StartLine: line}})
	}
	if err != nil || d == nil {
		return nil, err
	}
	return r.pyDefType(d, call, depth)
}

// pyAliased returns the definition a name the file f imports under another name means (from
// .core import Argument as CoreArgument: CoreArgument), nil for any other name.
func (r *resolver) pyAliased(f *resolve.File, name string) (*resolve.Def, error) {
	for _, im := range f.Imports {
		if im.Alias != name || im.Module == "" || im.Wildcard {
			continue
		}
		orig := resolve.LastSegment(im.Target, ".")
		cands, err := r.pyDefs(orig)
		if err != nil || len(cands) == 0 {
			return nil, err
		}
		return r.pyReexported(pyModulePath(im.Module, f.Path), orig, cands)
	}
	return nil, nil
}

// pyCast returns the type T of an expression cast(T, value) (typing.cast, t.cast), "" for
// any other expression.
func pyCast(e string) string {
	e = strings.TrimSpace(e)
	name := resolve.CalleePath(e)
	if name != "cast" && !strings.HasSuffix(name, ".cast") {
		return ""
	}
	rest := strings.TrimSpace(e[len(name):])
	groups := resolve.ParenGroups(rest)
	if len(groups) == 0 || strings.TrimSpace(resolve.SkipGroup(rest, '(', ')')) != "" {
		return ""
	}
	args := resolve.SplitTop(groups[0], ',')
	if len(args) != 2 {
		return ""
	}
	return strings.TrimSpace(args[0])
}

// pyDefType returns the type of the value the definition d names (call: of the value a call
// of it makes): a class (its instances: their members are the class's), a function's result,
// a variable's value.
func (r *resolver) pyDefType(d *resolve.Def, call bool, depth int) (*resolve.Def, error) {
	switch {
	case resolve.IsTypeKind(d.Kind):
		return d, nil
	case call:
		return r.pyResultType(d)
	}
	return r.pyValueOf(*d, depth+1)
}

// pyFirst returns the first of ids, "" for none.
func pyFirst(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// pyResultType returns the type a callable's return annotation names (a property's too).
func (r *resolver) pyResultType(d *resolve.Def) (*resolve.Def, error) {
	k, _ := extract.KindNamed(d.Kind)
	if !k.IsCallable() && d.Kind != extract.Property.String() {
		return nil, nil
	}
	ret, err := r.ReturnType(*d)
	if err != nil {
		return nil, err
	}
	df, class, err := r.pyHome(*d)
	if err != nil {
		return nil, err
	}
	if ret == "" {
		ret = pyDocReturn(d.DocComment) // :rtype: T in the docstring
	}
	if ret == "" {
		return r.pyReturned(df, d)
	}
	return r.pyAnnotated(df, ret, d, class)
}

// pyDocParam returns the type a docstring gives the parameter name, as jedi reads it:
// Sphinx's :type name: T and :param T name:, Epydoc's @type name: T.
func pyDocParam(doc, name string) string {
	if !strings.Contains(doc, name) {
		return ""
	}
	for _, l := range strings.Split(doc, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{":type " + name + ":", "@type " + name + ":"} {
			if t, ok := strings.CutPrefix(l, p); ok {
				return strings.TrimSpace(t)
			}
		}
		if rest, ok := strings.CutPrefix(l, ":param "); ok {
			if decl, _, ok := strings.Cut(rest, ":"); ok {
				if f := strings.Fields(decl); len(f) == 2 && f[1] == name {
					return f[0]
				}
			}
		}
	}
	return ""
}

// pyDocReturn returns the type a docstring gives a function's result, as jedi reads it:
// Sphinx's :rtype: T, Epydoc's @rtype: T.
func pyDocReturn(doc string) string {
	for _, l := range strings.Split(doc, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{":rtype:", "@rtype:"} {
			if t, ok := strings.CutPrefix(l, p); ok {
				return strings.TrimSpace(t)
			}
		}
	}
	return ""
}

// pyReturned returns the type of what the function d returns when it says no return
// annotation: the one type every return statement of its own body (nested functions' left
// out) gives, None aside; nil when one of them is not known or they differ.
func (r *resolver) pyReturned(f *resolve.File, d *resolve.Def) (*resolve.Def, error) {
	return r.pyMemo("ret\x00"+d.ID, func() (*resolve.Def, error) { return r.pyReturnedOf(f, d) })
}

// pyReturnedOf is pyReturned, computed.
func (r *resolver) pyReturnedOf(f *resolve.File, d *resolve.Def) (*resolve.Def, error) {
	lines, err := r.Lines(d.Path)
	if err != nil {
		return nil, err
	}
	kids, err := r.Children(*d)
	if err != nil {
		return nil, err
	}
	scope, err := r.Chain(d.ID)
	if err != nil {
		return nil, err
	}
	var t *resolve.Def
	for n := pyHeaderEnd(lines, d.Line) + 1; n <= min(d.EndLine, len(lines)); n++ {
		s := strings.TrimSpace(lines[n-1])
		e, ok := strings.CutPrefix(s, "return ")
		if !ok || slicesContainsLine(kids, n) {
			continue
		}
		e = strings.TrimSpace(e)
		if e == "None" {
			continue
		}
		rt, err := r.pyExprType(f, e, scope, n, 1)
		if err != nil || rt == nil || t != nil && rt.ID != t.ID {
			return nil, err
		}
		t = rt
	}
	return t, nil
}

// pyTooDeep reports whether a value followed depth values deep is one too many (counted as a
// cut: see pyMemo).
func (r *resolver) pyTooDeep(depth int) bool {
	if depth > maxPyTypeDepth {
		r.pyCuts++
		return true
	}
	return false
}

// pyMemo returns what compute gives for key, computed once per resolver: a type from a
// function's return statements or from the arguments its callers pass. A key asked for again
// while it is computed (a recursion) gets nil; a nil computed while some bound cut the search
// short (pyCuts: a recursion, a depth) is not kept, so that the answer does not depend on the
// order uses are resolved in.
func (r *resolver) pyMemo(key string, compute func() (*resolve.Def, error)) (*resolve.Def, error) {
	if t, ok := r.pyMemos[key]; ok {
		return t, nil
	}
	if r.pyBusy[key] {
		r.pyCuts++
		return nil, nil
	}
	if r.pyMemos == nil {
		r.pyMemos, r.pyBusy = map[string]*resolve.Def{}, map[string]bool{}
	}
	r.pyBusy[key] = true
	cuts := r.pyCuts
	t, err := compute()
	delete(r.pyBusy, key)
	if err == nil && (t != nil || r.pyCuts == cuts) {
		r.pyMemos[key] = t
	}
	return t, err
}

// slicesContainsLine reports whether one of defs spans line.
func slicesContainsLine(defs []resolve.Def, line int) bool {
	for _, d := range defs {
		if d.Line <= line && line <= d.EndLine {
			return true
		}
	}
	return false
}

// pyAnnotated returns the workspace type an annotation written in the file f inside the
// symbol in names (Self: class, the class around it).
func (r *resolver) pyAnnotated(f *resolve.File, typ string, in, class *resolve.Def) (*resolve.Def, error) {
	name := pyTypeName(typ)
	if name == "" {
		return nil, nil
	}
	if name == "Self" || strings.HasSuffix(name, ".Self") {
		return class, nil
	}
	if !strings.Contains(name, ".") {
		if d, err := r.pyAliased(f, name); d != nil || err != nil {
			if err != nil || !resolve.IsTypeKind(d.Kind) {
				return nil, err
			}
			return d, nil
		}
	}
	container := ""
	if in != nil {
		container = in.ID
	}
	t, err := r.TypeNamed(f, name, container)
	if t != nil || err != nil || !strings.Contains(name, ".") {
		return t, err
	}
	// pkg.mod.Type, written without an import of pkg (a docstring's requests.Response): the
	// absolute module path.
	mod, last := name[:strings.LastIndexByte(name, '.')], resolve.LastSegment(name, ".")
	cands, err := r.pyDefs(last)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	if t, err = r.pyReexported(pyModulePath(mod, f.Path), last, cands); t == nil || err != nil || !resolve.IsTypeKind(t.Kind) {
		return nil, err
	}
	return t, nil
}

// pyTypeName returns the class an annotation names: Context of "Context", t.Optional[Context],
// Optional["Context"], Context | None, t.Union[Context, None], t.Type[Context],
// ClassVar[Context]; m.Context of m.Context; "" for a union of several types, a container
// (list[Context]) or anything else.
func pyTypeName(typ string) string {
	t := strings.TrimSpace(typ)
	for range 8 {
		if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
			t = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		if parts := resolve.SplitTop(t, '|'); len(parts) > 1 {
			t = pyOneType(parts)
			continue
		}
		head, args, ok := strings.Cut(t, "[")
		if !ok {
			break
		}
		if !strings.HasSuffix(args, "]") {
			return ""
		}
		args = args[:len(args)-1]
		switch resolve.LastSegment(strings.TrimSpace(head), ".") {
		case "Optional", "Type", "ClassVar", "Final", "type":
			t = strings.TrimSpace(args)
		case "Annotated":
			t = strings.TrimSpace(resolve.SplitTop(args, ',')[0])
		case "Union":
			t = pyOneType(resolve.SplitTop(args, ','))
		default:
			t = strings.TrimSpace(head) // a generic class of the workspace: Foo[T]
		}
	}
	for _, s := range strings.Split(t, ".") {
		if !resolve.IsIdent(s) {
			return ""
		}
	}
	if t == "None" || t == "Any" || strings.HasSuffix(t, ".Any") {
		return ""
	}
	return t
}

// pyOneType returns the one type of a union's members other than None, "" when there are
// several.
func pyOneType(parts []string) string {
	out := ""
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "None" || p == `"None"` || p == "type(None)" {
			continue
		}
		if out != "" {
			return ""
		}
		out = p
	}
	return out
}

// pyParam is a parameter of a Python signature: its name, annotation and default value.
type pyParam struct{ name, typ, dflt string }

// pyParams returns the parameters of a def's signature (decorators before it skipped): self,
// ctx: "Context" = None, *args, **kwargs give self; ctx, "Context"; args; kwargs.
func pyParams(sig string) []pyParam {
	i := strings.Index(sig, "def ")
	if i < 0 {
		return nil
	}
	groups := resolve.ParenGroups(sig[i:])
	if len(groups) == 0 {
		return nil
	}
	var out []pyParam
	for _, p := range resolve.SplitTop(groups[0], ',') {
		p = strings.TrimSpace(p)
		dflt := ""
		if i := pyTopIndex(p, '='); i < len(p) {
			p, dflt = strings.TrimSpace(p[:i]), strings.TrimSpace(p[i+1:])
		}
		name, typ, _ := strings.Cut(p, ":")
		name = strings.TrimLeft(strings.TrimSpace(name), "*")
		if !resolve.IsIdent(name) {
			continue // / and * separators
		}
		out = append(out, pyParam{name, strings.TrimSpace(typ), dflt})
	}
	return out
}

// pyFnParams returns the parameters of the function fn: from its signature, or when that
// was cut short, from its header in the file.
func (r *resolver) pyFnParams(fn *resolve.Def) ([]pyParam, error) {
	if i := strings.Index(fn.Signature, "def "); i >= 0 && len(resolve.ParenGroups(fn.Signature[i:])) > 0 {
		return pyParams(fn.Signature), nil
	}
	lines, err := r.Lines(fn.Path)
	if err != nil || fn.Line < 1 || fn.Line > len(lines) {
		return nil, err
	}
	return pyParams(strings.Join(lines[fn.Line-1:min(fn.EndLine, fn.Line+60, len(lines))], "\n")), nil
}

// pyTopIndex returns the index of s's first c outside brackets and quotes, len(s) if none.
func pyTopIndex(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case '"', '\'':
			if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
				i += j + 1
			}
		case c:
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// pyCallable reports whether a symbol of kind has a body of statements with local variables
// (a function, a method, a property).
func pyCallable(kind string) bool {
	k, _ := extract.KindNamed(kind)
	return k.IsCallable() || kind == extract.Property.String()
}

// pyMethodClass returns the class fn is a method of (outer: the chain of symbols around fn,
// innermost first), nil for a function.
func (r *resolver) pyMethodClass(fn *resolve.Def, outer []string) (*resolve.Def, error) {
	if len(outer) == 0 || outer[0] != fn.ParentID {
		return nil, nil
	}
	p, err := r.Symbol(fn.ParentID)
	if err != nil || p == nil || !resolve.IsTypeKind(p.Kind) {
		return nil, err
	}
	return p, nil
}

// pyLocalType returns the type of the local variable name of the function fn at line and
// col, from its nearest binding above in fn: name = value, name: T = value, except T as
// name. bound reports that a binding was found (its type maybe not known: a loop variable,
// with ... as name, a tuple's part), so the name is fn's and not the module's.
func (r *resolver) pyLocalType(f *resolve.File, fn, class *resolve.Def, name string, line, col, depth int) (t *resolve.Def, bound bool, err error) {
	lines, err := r.Lines(f.Path)
	if err != nil || line > len(lines) || line <= fn.Line {
		return nil, false, err
	}
	scope, err := r.Chain(fn.ID)
	if err != nil {
		return nil, false, err
	}
	if iter, target, ok := pyComprehension(lines, line, col, name); ok { // [x.a for x in xs]
		t, err := r.pyUnpacked(f, iter, target, name, scope, line, depth, pyElemAnnot)
		return t, true, err
	}
	header := pyHeaderEnd(lines, fn.Line) // the parameters are not read as bindings here
	for n := line; n > header; n-- {
		text := lines[n-1]
		if n == line {
			if col <= 1 {
				continue
			}
			text = text[:min(col-1, len(text))]
		}
		if !strings.Contains(text, name) {
			continue
		}
		s := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(s, "except ") || strings.HasPrefix(s, "except("):
			typ, as, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(s, "except"), ":"), " as ")
			if !ok || strings.TrimSpace(as) != name {
				continue
			}
			t, err := r.pyAnnotated(f, typ, fn, class)
			return t, true, err
		case strings.HasPrefix(strings.TrimPrefix(s, "async "), "for "):
			target, iter, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(s, "async "), "for "), " in ")
			if !ok || !resolve.WordIn(target, name) {
				continue
			}
			// The loop's variable: an element of what the iterable's annotation says.
			t, err := r.pyUnpacked(f, strings.TrimSuffix(strings.TrimSpace(iter), ":"), target, name, scope, n, depth, pyElemAnnot)
			return t, true, err
		case strings.HasPrefix(strings.TrimPrefix(s, "async "), "with "):
			t, found, err := r.pyWithTarget(f, strings.TrimPrefix(strings.TrimPrefix(s, "async "), "with "), name, scope, n, depth)
			if found || err != nil {
				return t, true, err
			}
			continue
		}
		i := resolve.AssignAt(s)
		if i < 0 {
			if c := resolve.ColonAt(s); c > 0 && strings.TrimSpace(s[:c]) == name && !strings.HasSuffix(s, ":") { // name: T
				t, err := r.pyAnnotated(f, s[c+1:], fn, class)
				return t, true, err
			}
			continue
		}
		lhs, rhs := strings.TrimSpace(s[:i]), s[i+1:]
		if c := resolve.ColonAt(lhs); c >= 0 { // name: T = value
			if strings.TrimSpace(lhs[:c]) != name {
				continue
			}
			t, err := r.pyAnnotated(f, lhs[c+1:], fn, class)
			return t, true, err
		}
		if lhs != name {
			if resolve.WordIn(lhs, name) && !strings.Contains(lhs, ".") && !strings.Contains(lhs, "[") {
				// a, name = value: the part of the tuple the value's annotation says
				t, err := r.pyUnpacked(f, rhs, lhs, name, scope, n, depth, func(a string) string { return a })
				return t, true, err
			}
			continue
		}
		if j := resolve.AssignAt(rhs); j >= 0 && resolve.IsIdent(strings.TrimSpace(rhs[:j])) { // name = other = value
			rhs = rhs[j+1:]
		}
		t, err := r.pyExprType(f, rhs, scope, n, depth+1)
		return t, true, err
	}
	return nil, false, nil
}

// pyHeaderEnd returns the last line of the def header that starts on line: where its
// parentheses close and the line ends with a colon.
func pyHeaderEnd(lines []string, line int) int {
	depth := 0
	for n := line; n <= len(lines) && n < line+100; n++ {
		l := lines[n-1]
		if i := strings.IndexByte(l, '#'); i >= 0 && !strings.ContainsAny(l[:i], `"'`) {
			l = l[:i]
		}
		for i := 0; i < len(l); i++ {
			switch l[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case '"', '\'':
				if j := strings.IndexByte(l[i+1:], l[i]); j >= 0 {
					i += j + 1
				}
			}
		}
		if depth <= 0 && strings.HasSuffix(strings.TrimSpace(l), ":") {
			return n
		}
	}
	return line
}

// pyAnnot is an annotation as written: its text, the file and the symbol it is written in,
// and that symbol's class (Self).
type pyAnnot struct {
	text      string
	f         *resolve.File
	in, class *resolve.Def
}

// pyUnpacked returns the type of name, bound by target (name, or a tuple a, name) to a part
// of the value of expr: elem gives the annotation of what target takes from the expression's
// annotation (an element of an iterable for a loop, the annotation itself for an assignment),
// a tuple's position for a tuple.
func (r *resolver) pyUnpacked(f *resolve.File, expr, target, name string, scope []string, line, depth int, elem func(string) string) (*resolve.Def, error) {
	a, err := r.pyExprAnnot(f, expr, scope, line, depth+1)
	if err != nil || a == nil {
		return nil, err
	}
	text := elem(a.text)
	target = strings.Trim(strings.TrimSpace(target), "()[] ")
	if target != name {
		parts := resolve.SplitTop(target, ',')
		i := slices.IndexFunc(parts, func(p string) bool { return strings.TrimSpace(p) == name })
		if i < 0 {
			return nil, nil // a nested or starred target
		}
		text = pyTupleAt(text, i, len(parts))
	}
	if text == "" {
		return nil, nil
	}
	return r.pyAnnotated(a.f, text, a.in, a.class)
}

// pyWithTarget returns the type of name when the with statement's items (a as x, b as name)
// bind it: what the context manager's __enter__ returns, or for a generator-based one
// (@contextmanager, annotated Iterator[T]) what it yields. found reports that the items bind
// name.
func (r *resolver) pyWithTarget(f *resolve.File, items, name string, scope []string, line, depth int) (*resolve.Def, bool, error) {
	for _, it := range resolve.SplitTop(strings.TrimSuffix(strings.TrimSpace(items), ":"), ',') {
		expr, as, ok := strings.Cut(it, " as ")
		if !ok || !resolve.WordIn(as, name) {
			continue
		}
		if strings.TrimSpace(as) != name {
			return nil, true, nil // with x as (a, name)
		}
		t, err := r.pyExprType(f, expr, scope, line, depth+1)
		if err != nil {
			return nil, true, err
		}
		if t != nil {
			enter, err := r.pyMember(*t, "__enter__", 0)
			if err != nil || enter == nil {
				return nil, true, err
			}
			t, err := r.pyResultType(enter)
			return t, true, err
		}
		a, err := r.pyExprAnnot(f, expr, scope, line, depth+1)
		if err != nil || a == nil {
			return nil, true, err
		}
		if head, args, ok := pyGeneric(pyUnwrap(a.text)); ok && (head == "Iterator" || head == "Generator" || head == "ContextManager" || head == "AbstractContextManager") {
			t, err := r.pyAnnotated(a.f, resolve.SplitTop(args, ',')[0], a.in, a.class)
			return t, true, err
		}
		return nil, true, nil
	}
	return nil, false, nil
}

// pyExprAnnot returns the annotation of the value of the expression e written in the scope
// chain on line: a parameter's, a variable's or attribute's declared one, a callable's return
// annotation (the items(), keys() and values() of an annotated mapping too); nil when it has
// none this reads.
func (r *resolver) pyExprAnnot(f *resolve.File, e string, scope []string, line, depth int) (*pyAnnot, error) {
	if r.pyTooDeep(depth) {
		return nil, nil
	}
	parts := pyExprParts(e)
	if len(parts) == 0 {
		return nil, nil
	}
	last := parts[len(parts)-1]
	name, call := strings.CutSuffix(last, "()")
	if len(parts) == 1 {
		if !call && len(scope) > 0 {
			for i, id := range scope {
				fn, err := r.Symbol(id)
				if err != nil || fn == nil {
					return nil, err
				}
				if !pyCallable(fn.Kind) {
					continue
				}
				params, err := r.pyFnParams(fn)
				if err != nil {
					return nil, err
				}
				for _, p := range params {
					if p.name == name && p.typ != "" {
						class, err := r.pyMethodClass(fn, scope[i+1:])
						if err != nil {
							return nil, err
						}
						return &pyAnnot{p.typ, f, fn, class}, nil
					}
				}
				break
			}
		}
		d, _, err := r.Resolve(f, extract.Identifier{Name: name, Kind: extract.VariableRef, Span: extract.Span{StartLine: line}})
		if err != nil || d == nil {
			return nil, err
		}
		return r.pyDefAnnot(d, call)
	}
	prefix := strings.Join(parts[:len(parts)-1], ".")
	t, err := r.pyExprType(f, prefix, scope, line, depth+1)
	if err != nil {
		return nil, err
	}
	if t == nil {
		if len(parts) != 2 || strings.HasSuffix(parts[0], "()") {
			return nil, nil
		}
		d, _, err := r.Resolve(f, extract.Identifier{Name: name, Qualifier: parts[0], Kind: extract.VariableRef, ContainingSymbolID: pyFirst(scope), Span: extract.Span{StartLine: line}})
		if err != nil || d == nil {
			return nil, err
		}
		return r.pyDefAnnot(d, call)
	}
	m, err := r.pyMember(*t, name, 0)
	if err != nil {
		return nil, err
	}
	if m == nil {
		if !call || name != "items" && name != "keys" && name != "values" {
			return nil, nil
		}
		a, err := r.pyExprAnnot(f, prefix, scope, line, depth+1)
		if err != nil || a == nil {
			return nil, err
		}
		head, args, ok := pyGeneric(pyUnwrap(a.text))
		kv := resolve.SplitTop(args, ',')
		if !ok || len(kv) != 2 || !pyMappings[head] {
			return nil, nil
		}
		switch name {
		case "items":
			a.text = "Iterable[Tuple[" + args + "]]"
		case "keys":
			a.text = "Iterable[" + kv[0] + "]"
		default:
			a.text = "Iterable[" + kv[1] + "]"
		}
		return a, nil
	}
	return r.pyDefAnnot(m, call)
}

// pyDefAnnot returns the annotation of the definition d's value (call: of what a call of it
// returns).
func (r *resolver) pyDefAnnot(d *resolve.Def, call bool) (*pyAnnot, error) {
	if d.Language != "python" {
		return nil, nil
	}
	var text string
	var err error
	if call || d.Kind == extract.Property.String() {
		text, err = r.ReturnType(*d)
	} else {
		text, err = r.pyDeclared(*d)
	}
	if err != nil || text == "" {
		return nil, err
	}
	df, class, err := r.pyHome(*d)
	if err != nil {
		return nil, err
	}
	return &pyAnnot{text, df, d, class}, nil
}

// pyExprParts splits an expression made of names, calls and attributes into its parts (see
// pyQualifierParts), nil when it is anything else.
func pyExprParts(e string) []string {
	e = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(e), "await "))
	var parts []string
	for e != "" {
		name := resolve.CalleePath(e)
		if name == "" || strings.Contains(name, ":") {
			return nil
		}
		first, _, _ := strings.Cut(name, ".")
		e = strings.TrimSpace(e[len(first):])
		if strings.HasPrefix(e, "(") {
			first += "()"
			e = strings.TrimSpace(resolve.SkipGroup(e, '(', ')'))
		}
		parts = append(parts, first)
		if !strings.HasPrefix(e, ".") {
			break
		}
		e = strings.TrimSpace(e[1:])
	}
	if e != "" && !strings.HasPrefix(e, "#") && e != ":" {
		return nil
	}
	return parts
}

// pySubscript splits an expression x[index] (x made of names, calls and attributes) into x
// and index.
func pySubscript(e string) (prefix, index string, ok bool) {
	e = strings.TrimSpace(e)
	if i := strings.IndexByte(e, '#'); i >= 0 && !strings.ContainsAny(e[:i], `"'`) {
		e = strings.TrimSpace(e[:i])
	}
	if !strings.HasSuffix(e, "]") {
		return "", "", false
	}
	i := strings.IndexByte(e, '[')
	if i <= 0 || resolve.SkipGroup(e[i:], '[', ']') != "" || len(pyExprParts(e[:i])) == 0 {
		return "", "", false
	}
	return e[:i], e[i+1 : len(e)-1], true
}

// pyItemAnnot returns the annotation of x[index] for x annotated text: a mapping's value, a
// sequence's element, a tuple's part at a literal index; "" when it does not say.
func pyItemAnnot(text, index string) string {
	head, args, ok := pyGeneric(pyUnwrap(text))
	if !ok || strings.Contains(index, ":") { // a slice is a sequence again
		return ""
	}
	parts := resolve.SplitTop(args, ',')
	switch {
	case pyMappings[head] && len(parts) == 2:
		return strings.TrimSpace(parts[1])
	case head == "Tuple" || head == "tuple":
		if len(parts) == 2 && strings.TrimSpace(parts[1]) == "..." {
			return strings.TrimSpace(parts[0])
		}
		var i int
		if _, err := fmt.Sscan(strings.TrimSpace(index), &i); err == nil && i >= 0 && i < len(parts) && fmt.Sprint(i) == strings.TrimSpace(index) {
			return strings.TrimSpace(parts[i])
		}
	case head == "List" || head == "list" || head == "Sequence" || head == "MutableSequence" || head == "Deque" || head == "deque":
		return strings.TrimSpace(parts[0])
	}
	return ""
}

// pyComprehension returns the iterable and the target of the comprehension's for clause that
// binds name after the use at col of line (1-based) in lines: [x.nargs for x in self._args].
func pyComprehension(lines []string, line, col int, name string) (iter, target string, ok bool) {
	// Inside brackets opened before the use (on its line or the three above)?
	open := 0
	for n := line; n >= max(1, line-3); n-- {
		l := lines[n-1]
		if n == line {
			l = l[:min(len(l), max(0, col-1))]
		}
		for i := len(l) - 1; i >= 0; i-- {
			switch l[i] {
			case ')', ']', '}':
				open--
			case '(', '[', '{':
				open++
			}
		}
		if open > 0 {
			break
		}
	}
	if open <= 0 {
		return "", "", false
	}
	text := strings.Join(lines[line-1:min(len(lines), line+8)], "\n")
	text = text[min(len(text), max(0, col-1)):]
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return "", "", false
			}
		case '"', '\'':
			if j := strings.IndexByte(text[i+1:], c); j >= 0 {
				i += j + 1
			}
		case 'f':
			if depth != 0 || !strings.HasPrefix(text[i:], "for ") || i > 0 && resolve.IsIdentByte(text[i-1]) {
				continue
			}
			tgt, rest, found := strings.Cut(text[i+4:], " in ")
			if !found || strings.ContainsAny(tgt, "\n([{") {
				return "", "", false
			}
			if !resolve.WordIn(tgt, name) {
				continue
			}
			// The iterable: up to its comprehension's end, an if or another for clause.
			d, end := 0, len(rest)
			for j := 0; j < len(rest); j++ {
				switch rest[j] {
				case '(', '[', '{':
					d++
				case ')', ']', '}':
					d--
				}
				if d < 0 || d == 0 && (strings.HasPrefix(rest[j:], " if ") || strings.HasPrefix(rest[j:], " for ") || rest[j] == '\n') {
					end = j
					break
				}
			}
			return strings.TrimSpace(rest[:end]), tgt, true
		}
	}
	return "", "", false
}

// pyIterables and pyMappings are the generic types whose elements a loop takes: the first
// type argument (a mapping's keys).
var (
	pyIterables = map[string]bool{"List": true, "list": true, "Sequence": true, "MutableSequence": true, "Iterable": true,
		"Iterator": true, "Collection": true, "Set": true, "set": true, "FrozenSet": true, "frozenset": true,
		"AbstractSet": true, "MutableSet": true, "Deque": true, "deque": true, "Generator": true, "Reversible": true,
		"AsyncIterator": true, "AsyncIterable": true, "AsyncGenerator": true, "KeysView": true, "ValuesView": true}
	pyMappings = map[string]bool{"Dict": true, "dict": true, "Mapping": true, "MutableMapping": true, "OrderedDict": true,
		"DefaultDict": true, "defaultdict": true, "Counter": true}
)

// pyGeneric splits an annotation Head[args] into the head's last name and the arguments.
func pyGeneric(text string) (head, args string, ok bool) {
	h, a, ok := strings.Cut(strings.TrimSpace(text), "[")
	if !ok || !strings.HasSuffix(a, "]") {
		return "", "", false
	}
	return resolve.LastSegment(strings.TrimSpace(h), "."), a[:len(a)-1], true
}

// pyUnwrap returns the annotation text without its quotes and Optional (Optional[X], X |
// None): what a value of it is when it is not None.
func pyUnwrap(text string) string {
	t := strings.TrimSpace(text)
	for range 8 {
		if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
			t = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		if parts := resolve.SplitTop(t, '|'); len(parts) > 1 {
			t = pyOneType(parts)
			continue
		}
		head, args, ok := pyGeneric(t)
		switch {
		case ok && head == "Optional":
			t = strings.TrimSpace(args)
		case ok && head == "Union":
			t = pyOneType(resolve.SplitTop(args, ','))
		default:
			return t
		}
	}
	return t
}

// pyElemAnnot returns the annotation of the elements a loop over a value annotated text
// takes: X of List[X], Iterator[X], Tuple[X, ...], the keys of Dict[K, V]; "" when it does
// not say.
func pyElemAnnot(text string) string {
	head, args, ok := pyGeneric(pyUnwrap(text))
	if !ok {
		return ""
	}
	parts := resolve.SplitTop(args, ',')
	switch {
	case pyIterables[head] || pyMappings[head]:
		return strings.TrimSpace(parts[0])
	case (head == "Tuple" || head == "tuple") && len(parts) == 2 && strings.TrimSpace(parts[1]) == "...":
		return strings.TrimSpace(parts[0])
	}
	return ""
}

// pyTupleAt returns the annotation of the part i (of n) of a value annotated text: the i-th
// of Tuple[A, B, C], X of Tuple[X, ...]; "" otherwise.
func pyTupleAt(text string, i, n int) string {
	head, args, ok := pyGeneric(pyUnwrap(text))
	if !ok || head != "Tuple" && head != "tuple" {
		return ""
	}
	parts := resolve.SplitTop(args, ',')
	switch {
	case len(parts) == 2 && strings.TrimSpace(parts[1]) == "...":
		return strings.TrimSpace(parts[0])
	case len(parts) == n:
		return strings.TrimSpace(parts[i])
	}
	return ""
}

// pyEnclosing returns the callable (a method, for self.x = ...) whose body holds the
// definition d, nil when d is not inside one.
func (r *resolver) pyEnclosing(d resolve.Def) (*resolve.Def, error) {
	st, err := r.Store().Stmt(r.Context(), `SELECT s.id, s.kind FROM symbols s JOIN files f ON f.id = s.file
		WHERE f.path = ? AND s.start_line < ? AND s.end_line >= ? ORDER BY s.start_line DESC, s.end_line ASC`)
	if err != nil {
		return nil, fmt.Errorf("index: the function around %s: %w", d.Name, err)
	}
	var id string
	err = resolve.EachStmtRow(r.Context(), st, func(rows *sql.Rows) error {
		var sid, kind string
		if err := rows.Scan(&sid, &kind); err != nil {
			return err
		}
		if id == "" && pyCallable(kind) {
			id = sid
		}
		return nil
	}, d.Path, d.Line, d.Line)
	if err != nil || id == "" {
		return nil, err
	}
	return r.Symbol(id)
}

// pyAssigned returns the value the assignment defining d assigns (the text after its =, to
// the end of the statement), "" when it assigns none or several (a, b = ...).
func (r *resolver) pyAssigned(d resolve.Def) (string, error) {
	lines, err := r.Lines(d.Path)
	if err != nil || d.Line < 1 || d.Line > len(lines) {
		return "", err
	}
	stmt := strings.Join(lines[d.Line-1:min(d.EndLine, len(lines))], "\n")
	i := resolve.AssignAt(stmt)
	if i < 0 {
		return "", nil
	}
	lhs, rhs := strings.TrimSpace(stmt[:i]), stmt[i+1:]
	if strings.Contains(lhs, ",") {
		return "", nil
	}
	for { // a = b = value
		j := resolve.AssignAt(rhs)
		if j < 0 || !pyIsTarget(strings.TrimSpace(rhs[:j])) {
			break
		}
		rhs = rhs[j+1:]
	}
	return strings.TrimSpace(rhs), nil
}

// pyIsTarget reports whether s is a name or an attribute of one (self.x), as an assignment's
// target is written.
func pyIsTarget(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if !resolve.IsIdent(strings.TrimSpace(p)) {
			return false
		}
	}
	return true
}

// pyDeclared returns the annotation of the Python variable or attribute d ("" none).
func (r *resolver) pyDeclared(d resolve.Def) (string, error) {
	byID, err := r.TypesOf(&r.pyTypes, d.Path, "declared")
	if err != nil {
		return "", err
	}
	return byID[d.ID], nil
}

// pyHome returns the file of d and the class d is a member of (nil when its parent is no
// type): where the names of d's stated type are looked up.
func (r *resolver) pyHome(d resolve.Def) (*resolve.File, *resolve.Def, error) {
	df, err := r.FileOf(d.Path, d.Language)
	if err != nil {
		return nil, nil, err
	}
	class, err := r.Symbol(d.ParentID)
	if err != nil {
		return nil, nil, err
	}
	if class != nil && !resolve.IsTypeKind(class.Kind) {
		class = nil
	}
	return df, class, nil
}
