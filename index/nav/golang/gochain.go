package golang

// Go's expressions, typed: the qualifier of a Go use (what the extractor wrote before the
// name: c.Root() of c.Root().Name(), w.Header() of w.Header().Set, Command{} of the key Use
// in &Command{Use: "x"}) is parsed as a Go expression and its type worked out the way the
// compiler does, from what the store holds: a local's binding in the function's lines
// (x := f(), a, err := f(), for _, v := range xs, switch v := x.(type), a function
// literal's parameter), a parameter's, receiver's or result's declared type, a package-level
// variable's declared type or initializer, a field's declared type, a callable's declared
// results, conversions T(x), composite literals T{}, new(T), type assertions x.(T), index
// and slice expressions of slices, arrays and maps, receives from channels. The name is
// then looked up in that type as Go selects it: the type's own fields and methods, then
// the fields and methods promoted through its embedded fields (breadth first, an ambiguous
// depth selecting nothing), an interface's own and embedded interfaces' methods.
//
// Nothing is guessed: a step whose type is not known (a package outside the workspace, an
// expression this does not read, a binding it cannot see) leaves the use unresolved; a type
// that is known but is not the workspace's (*strings.Builder) has no member the use can mean.
//
// A bare name (goBare) is what the compiler's scopes make it: a local variable or parameter
// of the function hides the package's definition of the name.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
)

// goType is a Go type as written: its expression, the file it is written in and the
// Symbol it is written inside (whose type parameters and local types it may name); def is
// the workspace's named type it denotes, once known.
type goType struct {
	expr  ast.Expr
	f     *resolve.File
	scope string
	def   *resolve.Def
}

// goVal is what an expression denotes: a value of type t, the type t itself (T of T(x) and
// T.Method), or a function or method fn (its call gives its declared results).
type goVal struct {
	t      goType
	isType bool
	fn     *resolve.Def
}

// goScope is where an expression is read: the file, the innermost function or method
// holding it (nil at the top level), the innermost symbol holding it, and its position
// (1-based line, byte offset in the line): a local is bound above it.
type goScope struct {
	f         *resolve.File
	fn        *resolve.Def
	container string
	line, at  int
}

// goState is what Go resolution reads once per request.
type goState struct {
	exprs map[string]ast.Expr                       // parsed expressions and types (nil: not Go)
	types map[string]map[string]map[string][]string // by path: each symbol's stated types, by role
	decls map[string]*ast.FuncDecl                  // parsed signatures, by symbol id (nil: none)
	kids  map[string][]resolve.Def                  // a type's children, by id
	busy  map[string]bool                           // variables whose type is being worked out
	depth int                                       // evaluations nested
}

// goMaxDepth bounds nested evaluations (a local bound to a call on another local ...).
const goMaxDepth = 12

func (r *resolver) gost() *goState {
	if r.goc == nil {
		r.goc = &goState{exprs: map[string]ast.Expr{}, types: map[string]map[string]map[string][]string{},
			decls: map[string]*ast.FuncDecl{}, kids: map[string][]resolve.Def{}, busy: map[string]bool{}}
	}
	return r.goc
}

// goParse parses a Go expression or type (nil when it is not one).
func (r *resolver) goParse(s string) ast.Expr {
	st := r.gost()
	if e, ok := st.exprs[s]; ok {
		return e
	}
	src := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(src, "..."); ok { // a variadic parameter's type
		src = "[]" + rest
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		e = nil
	}
	st.exprs[s] = e
	return e
}

// goBare resolves a bare Go name: a definition local to the function (var, const or type
// declared in it), nothing when a local variable or parameter of that name hides the
// package's, else the file's or the package's definition.
func (r *resolver) goBare(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, error) {
	var named []*resolve.Def // a method is never named bare
	for _, d := range cands {
		if d.Kind != extract.Method.String() {
			named = append(named, d)
		}
	}
	cands = named
	d, err := r.InScope(f, u, cands)
	if err != nil {
		return nil, "", err
	}
	if d != nil && d.ParentID != "" {
		return d, resolve.ResolvedScope, nil
	}
	if u.Kind != extract.TypeUsage {
		sc, err := r.goScopeOf(f, u)
		if err != nil {
			return nil, "", err
		}
		if _, found, err := r.goLocal(sc, u.Name); found || err != nil {
			return nil, "", err
		}
		if _, found := r.goSignatureType(sc.fn, u.Name); found {
			return nil, "", nil
		}
	}
	if d != nil {
		return d, resolve.ResolvedScope, nil
	}
	if d, err := r.goInPackage(f, cands); d != nil || err != nil {
		return d, resolve.ResolvedPackage, err
	}
	if d, err := r.goDotImported(f, cands); d != nil || err != nil {
		return d, resolve.ResolvedImport, err
	}
	return nil, "", nil
}

// goDotImported picks the candidate a dot import of the file brings in (import . "net/http":
// its exported names are the file's).
func (r *resolver) goDotImported(f *resolve.File, cands []*resolve.Def) (*resolve.Def, error) {
	for _, im := range f.Imports {
		if im.Alias != "." {
			continue
		}
		var top []*resolve.Def
		for _, d := range cands {
			if d.ParentID != "" || !resolve.IsUpper(d.Name) {
				continue
			}
			if strings.HasSuffix(d.Path, "_test.go") { // only an external test sees its package's tests
				pk, err := r.PkgOf(d.Path, d.Language)
				if err != nil {
					return nil, err
				}
				if !strings.HasSuffix(f.Path, "_test.go") || !resolve.SameDir(d.Path, f.Path) || pk+"_test" != f.Pkg {
					continue
				}
			}
			top = append(top, d)
		}
		if d, err := r.goImported(im.Target, top); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// goInPackage picks the one candidate of the use's package: its directory's files that
// declare the same package (a _test.go file's package x_test is another one).
func (r *resolver) goInPackage(f *resolve.File, cands []*resolve.Def) (*resolve.Def, error) {
	var same []*resolve.Def
	for _, d := range cands {
		if !resolve.SameDir(d.Path, f.Path) || d.ParentID != "" { // not another function's local
			continue
		}
		pk, err := r.PkgOf(d.Path, d.Language)
		if err != nil {
			return nil, err
		}
		if pk == f.Pkg || pk == "" || f.Pkg == "" {
			same = append(same, d)
		}
	}
	return r.InPackage(f, same)
}

// goQualified resolves a Go use looked up in a value or type (its qualifier): the member
// of the qualifier's type that Go selects. decided reports that the qualifier's type is
// known (d nil: it has no such member in the workspace).
func (r *resolver) goQualified(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (d *resolve.Def, decided bool, err error) {
	st := r.gost()
	if st.depth >= goMaxDepth {
		return nil, false, nil
	}
	st.depth++
	defer func() { st.depth-- }()
	e := r.goParse(u.Qualifier)
	if e == nil {
		return nil, u.Qualifier == goUnknownQualifier, nil
	}
	sc, err := r.goScopeOf(f, u)
	if err != nil {
		return nil, false, err
	}
	if id, isIdent := e.(*ast.Ident); isIdent && r.goIsImport(sc, id.Name) {
		return nil, false, nil // pkg.F: the import rule's
	}
	v, ok, err := r.goEval(sc, e)
	if !ok || err != nil || v.fn != nil {
		return nil, false, err
	}
	if goLiteralKey(e) { // a key of a literal of a map or slice type (M{k: v}) is a value
		under, ok, err := r.goUnder(v.t)
		if err != nil || !ok {
			return nil, false, err
		}
		switch under.expr.(type) {
		case *ast.MapType, *ast.ArrayType:
			bare := u
			bare.Qualifier = ""
			d, _, err := r.goBare(f, bare, cands)
			return d, true, err
		}
	}
	m, decided, err := r.goLookup(v.t, u.Name)
	if m == nil || err != nil {
		return nil, decided, err
	}
	for _, c := range cands {
		if c.ID == m.ID {
			return c, true, nil
		}
	}
	return nil, true, nil
}

// goLiteralKey reports whether the qualifier e is the extractor's for a key of a composite
// literal: T{}, or the element of an elided one, T{}[0][0].
func goLiteralKey(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.CompositeLit:
			return len(x.Elts) == 0
		case *ast.IndexExpr:
			if b, isLit := x.Index.(*ast.BasicLit); !isLit || b.Value != "0" {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

// goUnknownQualifier is the extractor's qualifier of a use in a value whose expression it
// did not record (extract's goUnknown).
const goUnknownQualifier = "(…)"

// goScopeOf returns the scope of the use u.
func (r *resolver) goScopeOf(f *resolve.File, u extract.Identifier) (goScope, error) {
	sc := goScope{f: f, container: u.ContainingSymbolID, line: u.StartLine}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return sc, err
	}
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil {
			return sc, err
		}
		if d == nil {
			break
		}
		if k, _ := extract.KindNamed(d.Kind); k.IsCallable() {
			sc.fn = d
			break
		}
	}
	if u.StartLine > 0 {
		lines, err := r.Lines(f.Path)
		if err != nil {
			return sc, err
		}
		if u.StartLine <= len(lines) {
			sc.at = byteAt(lines[u.StartLine-1], u.StartColumn)
		}
	}
	return sc, nil
}

// byteAt returns the byte offset of the 1-based character column col in line.
func byteAt(line string, col int) int {
	i := 0
	for n := 1; n < col && i < len(line); n++ {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
	}
	return i
}

// goEval returns what the expression e denotes in the scope sc; ok is false when it is not
// known.
func (r *resolver) goEval(sc goScope, e ast.Expr) (v goVal, ok bool, err error) {
	st := r.gost()
	if st.depth >= goMaxDepth {
		return goVal{}, false, nil
	}
	st.depth++
	defer func() { st.depth-- }()
	typ := func(t ast.Expr) goType { return goType{expr: t, f: sc.f, scope: sc.container} }
	switch x := e.(type) {
	case *ast.ParenExpr:
		return r.goEval(sc, x.X)
	case *ast.Ident:
		return r.goIdent(sc, x.Name)
	case *ast.SelectorExpr:
		if id, isIdent := x.X.(*ast.Ident); isIdent && r.goIsImport(sc, id.Name) {
			cands, err := r.goDefs(x.Sel.Name)
			if err != nil {
				return goVal{}, false, err
			}
			d, _, err := r.InImported(sc.f, id.Name, x.Sel.Name, cands)
			if d == nil || err != nil {
				return goVal{}, false, err
			}
			return r.goDefVal(d)
		}
		xv, ok, err := r.goEval(sc, x.X)
		if !ok || err != nil || xv.fn != nil {
			return goVal{}, false, err
		}
		if !xv.isType { // a field of an anonymous struct (tests := []struct{ s *Server }{...})
			if ft, found, err := r.goAnonField(xv.t, x.Sel.Name); found || err != nil {
				return goVal{t: ft}, found && ft.expr != nil, err
			}
		}
		m, _, err := r.goLookup(xv.t, x.Sel.Name)
		if m == nil || err != nil {
			return goVal{}, false, err
		}
		if xv.isType && m.Kind != extract.Method.String() {
			return goVal{}, false, nil
		}
		return r.goDefVal(m)
	case *ast.CallExpr:
		if id, isIdent := x.Fun.(*ast.Ident); isIdent {
			if v, ok, handled, err := r.goBuiltin(sc, id.Name, x.Args); handled || err != nil {
				return v, ok, err
			}
		}
		fv, ok, err := r.goEval(sc, x.Fun)
		if !ok || err != nil {
			return goVal{}, false, err
		}
		if fv.isType { // a conversion
			return goVal{t: fv.t}, true, nil
		}
		res, err := r.goResults(fv)
		if err != nil || len(res) == 0 {
			return goVal{}, false, err
		}
		return goVal{t: res[0]}, true, nil
	case *ast.IndexExpr, *ast.IndexListExpr:
		var base ast.Expr
		if ix, isIndex := x.(*ast.IndexExpr); isIndex {
			base = ix.X
		} else {
			base = x.(*ast.IndexListExpr).X
		}
		bv, ok, err := r.goEval(sc, base)
		if !ok || err != nil {
			return goVal{}, false, err
		}
		if bv.isType || bv.fn != nil { // an instantiation: T[int], F[int]
			return bv, true, nil
		}
		el, ok, err := r.goElem(bv.t, 1)
		return goVal{t: el}, ok, err
	case *ast.SliceExpr:
		return r.goEval(sc, x.X)
	case *ast.StarExpr:
		xv, ok, err := r.goEval(sc, x.X)
		if !ok || err != nil || xv.fn != nil {
			return goVal{}, false, err
		}
		if xv.isType {
			return goVal{t: goType{expr: &ast.StarExpr{X: xv.t.expr}, f: xv.t.f, scope: xv.t.scope}, isType: true}, true, nil
		}
		u, ok, err := r.goUnder(xv.t)
		if !ok || err != nil {
			return goVal{}, false, err
		}
		if p, isPtr := u.expr.(*ast.StarExpr); isPtr {
			return goVal{t: goType{expr: p.X, f: u.f, scope: u.scope}}, true, nil
		}
		return goVal{}, false, nil
	case *ast.UnaryExpr:
		xv, ok, err := r.goEval(sc, x.X)
		if !ok || err != nil || xv.fn != nil || xv.isType {
			return goVal{}, false, err
		}
		switch x.Op {
		case token.AND:
			return goVal{t: goType{expr: &ast.StarExpr{X: xv.t.expr}, f: xv.t.f, scope: xv.t.scope, def: xv.t.def}}, true, nil
		case token.ARROW:
			el, ok, err := r.goElem(xv.t, 1)
			return goVal{t: el}, ok, err
		}
		return goVal{}, false, nil
	case *ast.TypeAssertExpr:
		if x.Type == nil {
			return goVal{}, false, nil
		}
		return goVal{t: typ(x.Type)}, true, nil
	case *ast.CompositeLit:
		if x.Type == nil {
			return goVal{}, false, nil
		}
		return goVal{t: typ(x.Type)}, true, nil
	case *ast.FuncLit:
		return goVal{t: typ(x.Type)}, true, nil
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StructType, *ast.InterfaceType:
		return goVal{t: typ(x), isType: true}, true, nil
	}
	return goVal{}, false, nil
}

// goIsImport reports whether name is the name of a package the file imports, not hidden by
// a local of that name.
func (r *resolver) goIsImport(sc goScope, name string) bool {
	for _, im := range sc.f.Imports {
		if im.Alias == name || im.Alias == "" && resolve.LastSegment(im.Target, "/") == name {
			if _, found, _ := r.goLocal(sc, name); found {
				return false
			}
			if _, found := r.goSignatureType(sc.fn, name); found {
				return false
			}
			return true
		}
	}
	return false
}

// goDefs returns the Go definitions named name.
func (r *resolver) goDefs(name string) ([]*resolve.Def, error) {
	all, err := r.Defs(name)
	if err != nil {
		return nil, err
	}
	var out []*resolve.Def
	for i := range all {
		if all[i].Language == "go" {
			out = append(out, &all[i])
		}
	}
	return out, nil
}

// goIdent returns what a bare name denotes in sc: a local, a parameter, receiver or named
// result, else the file's or package's definition.
func (r *resolver) goIdent(sc goScope, name string) (goVal, bool, error) {
	if b, found, err := r.goLocal(sc, name); found || err != nil {
		if err != nil {
			return goVal{}, false, err
		}
		t, ok, err := r.goBindingType(sc, b)
		return goVal{t: t}, ok, err
	}
	if t, found := r.goSignatureType(sc.fn, name); found {
		if t == nil {
			return goVal{}, false, nil
		}
		return goVal{t: goType{expr: t, f: sc.f, scope: sc.fn.ID}}, true, nil
	}
	cands, err := r.goDefs(name)
	if err != nil || len(cands) == 0 {
		return goVal{}, false, err
	}
	u := extract.Identifier{Name: name, Kind: extract.VariableRef, ContainingSymbolID: sc.container}
	d, err := r.InScope(sc.f, u, cands)
	if err == nil && d == nil {
		d, err = r.goInPackage(sc.f, cands)
	}
	if err == nil && d == nil {
		d, err = r.goDotImported(sc.f, cands)
	}
	if d == nil || err != nil {
		return goVal{}, false, err
	}
	return r.goDefVal(d)
}

// goDefVal returns what a use of the definition d denotes.
func (r *resolver) goDefVal(d *resolve.Def) (goVal, bool, error) {
	switch d.Kind {
	case extract.Function.String(), extract.Method.String():
		return goVal{fn: d}, true, nil
	case extract.Variable.String(), extract.Constant.String(), extract.Field.String():
		t, ok, err := r.goVarType(d)
		return goVal{t: t}, ok, err
	}
	if resolve.IsTypeKind(d.Kind) {
		df, err := r.FileOf(d.Path, d.Language)
		if err != nil {
			return goVal{}, false, err
		}
		return goVal{t: goType{expr: ast.NewIdent(d.Name), f: df, scope: d.ParentID, def: d}, isType: true}, true, nil
	}
	return goVal{}, false, nil
}

// goStated returns the types the extractor stated for the symbol d in role (declared,
// return, alias, embeds).
func (r *resolver) goStated(d *resolve.Def, role string) ([]string, error) {
	st := r.gost()
	byID, ok := st.types[d.Path]
	if !ok {
		blob, err := r.Store().FileBlob(r.Context(), "types", d.Path)
		if err != nil {
			return nil, err
		}
		types, err := store.DecodeTypes(blob)
		if err != nil {
			return nil, err
		}
		byID = map[string]map[string][]string{}
		for _, t := range types {
			if byID[t.SymbolID] == nil {
				byID[t.SymbolID] = map[string][]string{}
			}
			byID[t.SymbolID][t.Role] = append(byID[t.SymbolID][t.Role], t.Type)
		}
		st.types[d.Path] = byID
	}
	return byID[d.ID][role], nil
}

// goVarType returns the type of a variable, constant or field: its declared type, else the
// type of the value it is initialized with (var x = f(), x = T{}), else a constant's in an
// iota group (the type stated above it).
func (r *resolver) goVarType(d *resolve.Def) (goType, bool, error) {
	st := r.gost()
	if st.busy[d.ID] {
		return goType{}, false, nil
	}
	st.busy[d.ID] = true
	defer delete(st.busy, d.ID)
	df, err := r.FileOf(d.Path, d.Language)
	if err != nil {
		return goType{}, false, err
	}
	scope := d.ParentID
	if decl, err := r.goStated(d, "declared"); err != nil || len(decl) > 0 {
		if err != nil {
			return goType{}, false, err
		}
		e := r.goParse(decl[0])
		return goType{expr: e, f: df, scope: scope}, e != nil, nil
	}
	if d.Kind == extract.Field.String() {
		return goType{}, false, nil
	}
	lines, err := r.Lines(d.Path)
	if err != nil || d.Line < 1 || d.Line > len(lines) {
		return goType{}, false, err
	}
	text := lines[d.Line-1]
	i := wordAt(text, d.Name)
	if i < 0 {
		return goType{}, false, nil
	}
	rest := text[i+len(d.Name):]
	names := 1
	for { // var a, b = f(), g()
		t := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(t, ",") {
			break
		}
		t = strings.TrimLeft(t[1:], " \t")
		n := identPrefix(t)
		if n == "" {
			return goType{}, false, nil
		}
		rest, names = t[len(n):], names+1
	}
	eq := resolve.AssignAt(rest)
	if eq < 0 {
		if d.Kind == extract.Constant.String() && strings.TrimSpace(rest) == "" {
			return r.goIotaType(d, lines, df)
		}
		return goType{}, false, nil
	}
	if strings.TrimSpace(rest[:eq]) != "" { // a declared type the extractor did not state
		return goType{}, false, nil
	}
	rhs := goStatement(lines, d.Line, rest[eq+1:])
	exprs := goSplit(rhs)
	if names != 1 || len(exprs) != 1 {
		return goType{}, false, nil
	}
	e := r.goParse(exprs[0])
	if e == nil {
		return goType{}, false, nil
	}
	var fn *resolve.Def
	if p, err := r.Symbol(d.ParentID); err != nil {
		return goType{}, false, err
	} else if p != nil {
		if k, _ := extract.KindNamed(p.Kind); k.IsCallable() {
			fn = p
		}
	}
	v, ok, err := r.goEval(goScope{f: df, fn: fn, container: d.ParentID, line: d.Line, at: i}, e)
	if !ok || err != nil || v.isType || v.fn != nil {
		return goType{}, false, err
	}
	return v.t, true, nil
}

// goIotaType returns the type of a constant of a group written without a type or value:
// the type of the nearest constant above it that states one.
func (r *resolver) goIotaType(d *resolve.Def, lines []string, df *resolve.File) (goType, bool, error) {
	for n := d.Line - 1; n >= 1 && n >= d.Line-200; n-- {
		t := strings.TrimSpace(lines[n-1])
		if strings.HasPrefix(t, "const") || t == "" || strings.HasPrefix(t, "//") {
			if strings.HasPrefix(t, "const") {
				return goType{}, false, nil
			}
			continue
		}
		name := identPrefix(t)
		if name == "" {
			return goType{}, false, nil
		}
		rest := strings.TrimSpace(t[len(name):])
		if rest == "" {
			continue
		}
		eq := resolve.AssignAt(rest)
		if eq <= 0 {
			return goType{}, false, nil
		}
		e := r.goParse(strings.TrimSpace(rest[:eq]))
		return goType{expr: e, f: df, scope: d.ParentID}, e != nil, nil
	}
	return goType{}, false, nil
}

// goResults returns the declared results of what a call of v gives: a function's or
// method's, or those of v's function type.
func (r *resolver) goResults(v goVal) ([]goType, error) {
	var ft *ast.FuncType
	var f *resolve.File
	scope := ""
	if v.fn != nil {
		ret, err := r.goStated(v.fn, "return")
		if err != nil || len(ret) == 0 {
			return nil, err
		}
		e := r.goParse("func() " + ret[0])
		ft, _ = e.(*ast.FuncType)
		if f, err = r.FileOf(v.fn.Path, v.fn.Language); err != nil {
			return nil, err
		}
		scope = v.fn.ID
	} else {
		u, ok, err := r.goUnder(v.t)
		if !ok || err != nil {
			return nil, err
		}
		ft, _ = u.expr.(*ast.FuncType)
		f, scope = u.f, u.scope
	}
	if ft == nil || ft.Results == nil {
		return nil, nil
	}
	var out []goType
	for _, field := range ft.Results.List {
		for range max(1, len(field.Names)) {
			out = append(out, goType{expr: field.Type, f: f, scope: scope})
		}
	}
	return out, nil
}

// goBuiltin evaluates a call of one of Go's builtin functions (new, make, append, ...)
// when name is not a definition of the use's scope: handled reports that it is one.
func (r *resolver) goBuiltin(sc goScope, name string, args []ast.Expr) (v goVal, ok, handled bool, err error) {
	switch name {
	case "new", "make", "append", "min", "max", "len", "cap", "copy":
	default:
		return goVal{}, false, false, nil
	}
	if _, found, err := r.goLocal(sc, name); found || err != nil {
		return goVal{}, false, false, err
	}
	if cands, err := r.goDefs(name); err != nil || len(cands) > 0 {
		if err != nil {
			return goVal{}, false, true, err
		}
		if d, err := r.goInPackage(sc.f, cands); d != nil || err != nil {
			return goVal{}, false, false, err
		}
	}
	switch name {
	case "len", "cap", "copy":
		return goVal{t: goType{expr: ast.NewIdent("int"), f: sc.f}}, true, true, nil
	}
	if len(args) == 0 {
		return goVal{}, false, true, nil
	}
	a, ok, err := r.goEval(sc, args[0])
	if !ok || err != nil || a.fn != nil {
		return goVal{}, false, true, err
	}
	switch name {
	case "new":
		if !a.isType {
			return goVal{}, false, true, nil
		}
		return goVal{t: goType{expr: &ast.StarExpr{X: a.t.expr}, f: a.t.f, scope: a.t.scope, def: a.t.def}}, true, true, nil
	case "make":
		return goVal{t: a.t}, a.isType, true, nil
	}
	return goVal{t: a.t}, !a.isType, true, nil // append, min, max: the first argument's type
}

// goPredeclared are Go's predeclared types.
var goPredeclared = map[string]bool{"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"rune": true, "string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "any": true, "comparable": true}
