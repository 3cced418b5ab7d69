package nav

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
	"github.com/quarrysearch/quarry/index/store"
)

// goType is a Go type as written: its expression, the file it is written in and the
// symbol it is written inside (whose type parameters and local types it may name); def is
// the workspace's named type it denotes, once known.
type goType struct {
	expr  ast.Expr
	f     *fileCtx
	scope string
	def   *Def
}

// goVal is what an expression denotes: a value of type t, the type t itself (T of T(x) and
// T.Method), or a function or method fn (its call gives its declared results).
type goVal struct {
	t      goType
	isType bool
	fn     *Def
}

// goScope is where an expression is read: the file, the innermost function or method
// holding it (nil at the top level), the innermost symbol holding it, and its position
// (1-based line, byte offset in the line): a local is bound above it.
type goScope struct {
	f         *fileCtx
	fn        *Def
	container string
	line, at  int
}

// goState is what Go resolution reads once per request.
type goState struct {
	exprs map[string]ast.Expr                       // parsed expressions and types (nil: not Go)
	types map[string]map[string]map[string][]string // by path: each symbol's stated types, by role
	decls map[string]*ast.FuncDecl                  // parsed signatures, by symbol id (nil: none)
	kids  map[string][]Def                          // a type's children, by id
	busy  map[string]bool                           // variables whose type is being worked out
	depth int                                       // evaluations nested
}

// goMaxDepth bounds nested evaluations (a local bound to a call on another local ...).
const goMaxDepth = 12

func (r *resolver) gost() *goState {
	if r.goc == nil {
		r.goc = &goState{exprs: map[string]ast.Expr{}, types: map[string]map[string]map[string][]string{},
			decls: map[string]*ast.FuncDecl{}, kids: map[string][]Def{}, busy: map[string]bool{}}
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
func (r *resolver) goBare(f *fileCtx, u extract.Identifier, cands []*Def) (*Def, string, error) {
	var named []*Def // a method is never named bare
	for _, d := range cands {
		if d.Kind != extract.Method.String() {
			named = append(named, d)
		}
	}
	cands = named
	d, err := r.inScope(f, u, cands)
	if err != nil {
		return nil, "", err
	}
	if d != nil && d.ParentID != "" {
		return d, ResolvedScope, nil
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
		return d, ResolvedScope, nil
	}
	if d, err := r.goInPackage(f, cands); d != nil || err != nil {
		return d, ResolvedPackage, err
	}
	if d, err := r.goDotImported(f, cands); d != nil || err != nil {
		return d, ResolvedImport, err
	}
	return nil, "", nil
}

// goDotImported picks the candidate a dot import of the file brings in (import . "net/http":
// its exported names are the file's).
func (r *resolver) goDotImported(f *fileCtx, cands []*Def) (*Def, error) {
	for _, im := range f.imports {
		if im.alias != "." {
			continue
		}
		var top []*Def
		for _, d := range cands {
			if d.ParentID != "" || !isUpper(d.Name) {
				continue
			}
			if strings.HasSuffix(d.Path, "_test.go") { // only an external test sees its package's tests
				pk, err := r.pkgOf(d.Path, d.Language)
				if err != nil {
					return nil, err
				}
				if !strings.HasSuffix(f.path, "_test.go") || !sameDir(d.Path, f.path) || pk+"_test" != f.pkg {
					continue
				}
			}
			top = append(top, d)
		}
		if d, err := r.goImported(im.target, top); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// goInPackage picks the one candidate of the use's package: its directory's files that
// declare the same package (a _test.go file's package x_test is another one).
func (r *resolver) goInPackage(f *fileCtx, cands []*Def) (*Def, error) {
	var same []*Def
	for _, d := range cands {
		if !sameDir(d.Path, f.path) || d.ParentID != "" { // not another function's local
			continue
		}
		pk, err := r.pkgOf(d.Path, d.Language)
		if err != nil {
			return nil, err
		}
		if pk == f.pkg || pk == "" || f.pkg == "" {
			same = append(same, d)
		}
	}
	return r.inPackage(f, same)
}

// goQualified resolves a Go use looked up in a value or type (its qualifier): the member
// of the qualifier's type that Go selects. decided reports that the qualifier's type is
// known (d nil: it has no such member in the workspace).
func (r *resolver) goQualified(f *fileCtx, u extract.Identifier, cands []*Def) (d *Def, decided bool, err error) {
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
func (r *resolver) goScopeOf(f *fileCtx, u extract.Identifier) (goScope, error) {
	sc := goScope{f: f, container: u.ContainingSymbolID, line: u.StartLine}
	chain, err := r.chain(u.ContainingSymbolID)
	if err != nil {
		return sc, err
	}
	for _, id := range chain {
		d, err := r.symbol(id)
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
		lines, err := r.lines(f.path)
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
			d, _, err := r.inImported(sc.f, id.Name, x.Sel.Name, cands)
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
	for _, im := range sc.f.imports {
		if im.alias == name || im.alias == "" && lastSegment(im.target, "/") == name {
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
func (r *resolver) goDefs(name string) ([]*Def, error) {
	all, err := r.defs(name)
	if err != nil {
		return nil, err
	}
	var out []*Def
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
	d, err := r.inScope(sc.f, u, cands)
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
func (r *resolver) goDefVal(d *Def) (goVal, bool, error) {
	switch d.Kind {
	case extract.Function.String(), extract.Method.String():
		return goVal{fn: d}, true, nil
	case extract.Variable.String(), extract.Constant.String(), extract.Field.String():
		t, ok, err := r.goVarType(d)
		return goVal{t: t}, ok, err
	}
	if isTypeKind(d.Kind) {
		df, err := r.file(d.Path, d.Language)
		if err != nil {
			return goVal{}, false, err
		}
		return goVal{t: goType{expr: ast.NewIdent(d.Name), f: df, scope: d.ParentID, def: d}, isType: true}, true, nil
	}
	return goVal{}, false, nil
}

// goStated returns the types the extractor stated for the symbol d in role (declared,
// return, alias, embeds).
func (r *resolver) goStated(d *Def, role string) ([]string, error) {
	st := r.gost()
	byID, ok := st.types[d.Path]
	if !ok {
		blob, err := r.s.FileBlob(r.ctx, "types", d.Path)
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
func (r *resolver) goVarType(d *Def) (goType, bool, error) {
	st := r.gost()
	if st.busy[d.ID] {
		return goType{}, false, nil
	}
	st.busy[d.ID] = true
	defer delete(st.busy, d.ID)
	df, err := r.file(d.Path, d.Language)
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
	lines, err := r.lines(d.Path)
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
	eq := assignAt(rest)
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
	var fn *Def
	if p, err := r.symbol(d.ParentID); err != nil {
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
func (r *resolver) goIotaType(d *Def, lines []string, df *fileCtx) (goType, bool, error) {
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
		eq := assignAt(rest)
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
	var f *fileCtx
	scope := ""
	if v.fn != nil {
		ret, err := r.goStated(v.fn, "return")
		if err != nil || len(ret) == 0 {
			return nil, err
		}
		e := r.goParse("func() " + ret[0])
		ft, _ = e.(*ast.FuncType)
		if f, err = r.file(v.fn.Path, v.fn.Language); err != nil {
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

// goNamed returns the workspace type t names, through pointers, parentheses, type
// arguments and aliases; known is false when t names a type that cannot be looked up (a
// type parameter), true with a nil def for a type outside the workspace or an unnamed one.
func (r *resolver) goNamed(t goType) (def *Def, known bool, err error) {
	for range 8 {
		if t.def != nil {
			return t.def, true, nil
		}
		e := t.expr
	strip:
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.IndexListExpr:
				e = x.X
			default:
				break strip
			}
		}
		var text string
		switch x := e.(type) {
		case *ast.Ident:
			if goPredeclared[x.Name] {
				return nil, true, nil
			}
			tp, err := r.goTypeParam(t.scope, x.Name)
			if err != nil || tp {
				return nil, false, err
			}
			text = x.Name
		case *ast.SelectorExpr:
			pk, isIdent := x.X.(*ast.Ident)
			if !isIdent {
				return nil, false, nil
			}
			text = pk.Name + "." + x.Sel.Name
		default:
			return nil, true, nil
		}
		d, err := r.typeNamed(t.f, text, t.scope)
		if err != nil || d == nil {
			return nil, err == nil, err
		}
		if d.Kind != extract.Type.String() || metaMap(d.Metadata)["alias"] != "true" {
			return d, true, nil
		}
		aliased, err := r.goStated(d, "alias") // type A = B: B
		if err != nil || len(aliased) == 0 {
			return nil, false, err
		}
		df, err := r.file(d.Path, d.Language)
		if err != nil {
			return nil, false, err
		}
		if t = (goType{expr: r.goParse(aliased[0]), f: df, scope: d.ID}); t.expr == nil {
			return nil, false, nil
		}
	}
	return nil, false, nil
}

// goTypeParam reports whether name is a type parameter of the symbol scope or of a symbol
// around it (func F[T any], type List[T any], func (l *List[T]) ...).
func (r *resolver) goTypeParam(scope, name string) (bool, error) {
	chain, err := r.chain(scope)
	if err != nil {
		return false, err
	}
	for _, id := range chain {
		d, err := r.symbol(id)
		if err != nil || d == nil {
			return false, err
		}
		if tp := metaMap(d.Metadata)["type_parameters"]; tp != "" && wordAt(tp, name) >= 0 {
			return true, nil
		}
		if d.Kind == extract.Method.String() {
			if g := parenGroups(d.Signature); len(g) > 0 {
				if i := strings.IndexByte(g[0], '['); i >= 0 && wordAt(g[0][i:], name) >= 0 {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// goUnder returns the underlying type of t: the type a defined type (type X []*T) is
// declared as, t itself for a struct, an interface, a type outside the workspace or an
// unnamed type.
func (r *resolver) goUnder(t goType) (goType, bool, error) {
	for range 8 {
		e := t.expr
		for {
			p, isParen := e.(*ast.ParenExpr)
			if !isParen {
				break
			}
			e = p.X
		}
		switch e.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
		default:
			return goType{expr: e, f: t.f, scope: t.scope}, true, nil
		}
		d, known, err := r.goNamed(t)
		if err != nil || !known {
			return goType{}, false, err
		}
		if d == nil || d.Kind != extract.Type.String() {
			return t, true, nil
		}
		decl, err := r.goStated(d, "alias")
		if err != nil || len(decl) == 0 {
			return goType{}, false, err
		}
		df, err := r.file(d.Path, d.Language)
		if err != nil {
			return goType{}, false, err
		}
		if t = (goType{expr: r.goParse(decl[0]), f: df, scope: d.ID}); t.expr == nil {
			return goType{}, false, nil
		}
	}
	return goType{}, false, nil
}

// goElem returns the type of an element of t (a slice's, an array's or a pointer to an
// array's, a map's value, a channel's) with i 1, or of an index or key with i 0.
func (r *resolver) goElem(t goType, i int) (goType, bool, error) {
	u, ok, err := r.goUnder(t)
	if !ok || err != nil {
		return goType{}, false, err
	}
	e := u.expr
	if p, isPtr := e.(*ast.StarExpr); isPtr {
		e = p.X
	}
	sub := func(x ast.Expr) (goType, bool, error) { return goType{expr: x, f: u.f, scope: u.scope}, x != nil, nil }
	intType := goType{expr: ast.NewIdent("int"), f: u.f}
	switch x := e.(type) {
	case *ast.ArrayType:
		if i == 0 {
			return intType, true, nil
		}
		return sub(x.Elt)
	case *ast.MapType:
		if i == 0 {
			return sub(x.Key)
		}
		return sub(x.Value)
	case *ast.ChanType:
		if i == 0 {
			return sub(x.Value)
		}
		return sub(x.Value)
	case *ast.Ident:
		if x.Name == "string" {
			if i == 0 {
				return intType, true, nil
			}
			return goType{expr: ast.NewIdent("byte"), f: u.f}, true, nil
		}
	}
	return goType{}, false, nil
}

// goLookup returns the member named name that Go selects in t: a field or method of t's
// named type, else one promoted through its embedded fields (or an interface's embedded
// interfaces), the shallowest depth deciding; decided reports that t's members are known
// (nil: none is named name, or two at one depth are).
func (r *resolver) goLookup(t goType, name string) (d *Def, decided bool, err error) {
	def, known, err := r.goNamed(t)
	if !known || err != nil || def == nil {
		return nil, known, err
	}
	cands, err := r.goDefs(name)
	if err != nil {
		return nil, false, err
	}
	seen := map[string]bool{def.ID: true}
	level := []*Def{def}
	unknownAt := -1 // the shallowest depth whose embedded types are not known
	for depth := 0; depth < 8 && len(level) > 0; depth++ {
		var hits, next []*Def
		for _, td := range level {
			hits = append(hits, goMembersOf(td, cands)...)
			emb, err := r.goEmbedded(td)
			if err != nil {
				return nil, false, err
			}
			for _, et := range emb {
				ed, known, err := r.goNamed(et)
				if err != nil {
					return nil, false, err
				}
				switch {
				case ed == nil && (!known || !goUnnamed(et.expr)):
					if unknownAt < 0 {
						unknownAt = depth
					}
				case ed != nil && !seen[ed.ID]:
					seen[ed.ID] = true
					next = append(next, ed)
				}
			}
		}
		if len(hits) > 0 {
			if unknownAt >= 0 && unknownAt <= depth-2 {
				return nil, false, nil // a type not known embedded above may hold one nearer
			}
			if m := one(hits); m != nil {
				return m, true, nil
			}
			return nil, true, nil
		}
		level = next
	}
	return nil, unknownAt < 0, nil
}

// goAnonField returns the type of the field name of t when t is (a pointer to) an
// anonymous struct type; found reports that t is one (its type nil when it has no such
// field, or it is promoted from an embedded one).
func (r *resolver) goAnonField(t goType, name string) (goType, bool, error) {
	u, ok, err := r.goUnder(t)
	if !ok || err != nil {
		return goType{}, false, err
	}
	e := u.expr
	if p, isPtr := e.(*ast.StarExpr); isPtr {
		e = p.X
	}
	st, isStruct := e.(*ast.StructType)
	if !isStruct {
		return goType{}, false, nil
	}
	for _, field := range st.Fields.List {
		for _, n := range field.Names {
			if n.Name == name {
				return goType{expr: field.Type, f: u.f, scope: u.scope}, true, nil
			}
		}
	}
	return goType{}, true, nil
}

// goUnnamed reports whether the type e is written as an unnamed type (no members of the
// workspace's).
func goUnnamed(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.ParenExpr:
		return false
	}
	return true
}

// goMembersOf returns the candidates that are members of the Go type t: its fields and
// interface methods (its children) and the methods declared with it as receiver (in its
// directory).
func goMembersOf(t *Def, cands []*Def) []*Def {
	var out []*Def
	for _, d := range cands {
		switch {
		case d.ParentID == t.ID:
			out = append(out, d)
		case d.ParentID == "" && d.Kind == extract.Method.String() && sameDir(d.Path, t.Path):
			if strings.TrimLeft(metaMap(d.Metadata)["receiver"], "*") == t.Name {
				out = append(out, d)
			}
		}
	}
	return out
}

// goEmbedded returns the types t embeds: a struct's embedded fields', an interface's
// embedded interfaces, a defined type's underlying named type (type X Y).
func (r *resolver) goEmbedded(t *Def) ([]goType, error) {
	df, err := r.file(t.Path, t.Language)
	if err != nil {
		return nil, err
	}
	var out []goType
	switch t.Kind {
	case extract.Struct.String():
		kids, err := r.goChildren(t)
		if err != nil {
			return nil, err
		}
		for i := range kids {
			k := &kids[i]
			if k.Kind != extract.Field.String() || metaMap(k.Metadata)["embedded"] != "true" {
				continue
			}
			decl, err := r.goStated(k, "declared")
			if err != nil {
				return nil, err
			}
			text := k.Name
			if len(decl) > 0 {
				text = decl[0]
			}
			if e := r.goParse(text); e != nil {
				out = append(out, goType{expr: e, f: df, scope: t.ID})
			} else {
				out = append(out, goType{expr: &ast.BadExpr{}, f: df, scope: t.ID})
			}
		}
	case extract.Interface.String():
		embeds, err := r.goStated(t, "embeds")
		if err != nil {
			return nil, err
		}
		for _, text := range embeds {
			if e := r.goParse(text); e != nil {
				out = append(out, goType{expr: e, f: df, scope: t.ID})
			} else {
				out = append(out, goType{expr: &ast.BadExpr{}, f: df, scope: t.ID})
			}
		}
	case extract.Type.String():
		decl, err := r.goStated(t, "alias")
		if err != nil || len(decl) == 0 {
			return nil, err
		}
		if e := r.goParse(decl[0]); e != nil && !goUnnamed(e) {
			out = append(out, goType{expr: e, f: df, scope: t.ID})
		}
	}
	return out, nil
}

// goChildren returns the children of the type t (read once).
func (r *resolver) goChildren(t *Def) ([]Def, error) {
	st := r.gost()
	if k, ok := st.kids[t.ID]; ok {
		return k, nil
	}
	k, err := r.s.Children(r.ctx, *t)
	if err != nil {
		return nil, err
	}
	st.kids[t.ID] = k
	return k, nil
}

// goDecl returns the parsed signature of the function or method fn (nil when it does not
// parse: a signature cut short).
func (r *resolver) goDecl(fn *Def) *ast.FuncDecl {
	st := r.gost()
	if d, ok := st.decls[fn.ID]; ok {
		return d
	}
	var decl *ast.FuncDecl
	if strings.HasPrefix(fn.Signature, "func") {
		file, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+fn.Signature+" {}", parser.SkipObjectResolution)
		if err == nil && len(file.Decls) == 1 {
			decl, _ = file.Decls[0].(*ast.FuncDecl)
		}
	}
	st.decls[fn.ID] = decl
	return decl
}

// goSignatureType returns the declared type of fn's receiver, parameter or named result
// called name; found reports that fn declares one (t nil when its type is not read).
func (r *resolver) goSignatureType(fn *Def, name string) (t ast.Expr, found bool) {
	if fn == nil || fn.Language != "go" {
		return nil, false
	}
	decl := r.goDecl(fn)
	if decl == nil {
		if recv, typ := goReceiver(fn.Signature); recv == name {
			return r.goParse(typ), true
		}
		if typ := paramType(fn.Signature, name, "go"); typ != "" {
			return r.goParse(typ), true
		}
		return nil, false
	}
	for _, fl := range []*ast.FieldList{decl.Recv, decl.Type.Params, decl.Type.Results} {
		if fl == nil {
			continue
		}
		for _, field := range fl.List {
			for _, n := range field.Names {
				if n.Name == name {
					if el, isEllipsis := field.Type.(*ast.Ellipsis); isEllipsis {
						return &ast.ArrayType{Elt: el.Elt}, true
					}
					return field.Type, true
				}
			}
		}
	}
	return nil, false
}

// goBinding is a binding of a local variable in a function's lines.
type goBinding struct {
	kind  goBindKind
	typ   string // the declared type (var x T, a function literal's parameter)
	rhs   string // what it is bound to (x := v, var x = v, range v, the x of x.(type))
	index int    // its place among the names bound together (a, b := ...)
	names int    // how many names are bound together
	line  int    // its line, and the byte offset where its statement starts
	at    int
	// cases: for a type switch's variable, the types of the case clause around the use
	cases string
}

type goBindKind int

const (
	goBindValue  goBindKind = iota // x := v, var x = v, var x T
	goBindRange                    // for k, v := range x
	goBindSwitch                   // switch v := x.(type)
	goBindParam                    // func(x T) { ... } around the use
)

// goLocal finds the binding of the local name in force at sc's position in its function:
// the nearest one above it, in a block still open there (a := or var statement, a for, if
// or switch header's, a function literal's parameter).
func (r *resolver) goLocal(sc goScope, name string) (goBinding, bool, error) {
	if sc.fn != nil && (sc.line < sc.fn.Line || sc.fn.Language != "go") || sc.line < 1 {
		return goBinding{}, false, nil
	}
	lines, err := r.lines(sc.f.path)
	if err != nil {
		return goBinding{}, false, err
	}
	first := 0 // the function's own line binds its parameters: the lines below it
	if sc.fn != nil {
		first = sc.fn.Line + 1
	} else { // a package-level declaration (var h = HandlerFunc(func(w ...) {...})): from its first line
		for first = min(sc.line, len(lines)); first > 1; first-- {
			if t := lines[first-1]; t != "" && t[0] != ' ' && t[0] != '\t' && t[0] != '}' && t[0] != ')' && !strings.HasPrefix(t, "//") {
				break
			}
		}
	}
	for n := min(sc.line, len(lines)); n >= first && n >= 1; n-- {
		text := lines[n-1]
		if n == sc.line {
			text = text[:min(sc.at, len(text))]
		}
		if !strings.Contains(text, name) {
			continue
		}
		for _, b := range goBindings(text, name) { // the rightmost first
			b.line = n
			if !goInScope(lines, b, sc.line, sc.at) {
				continue
			}
			if b.kind == goBindSwitch {
				b.cases = goSwitchCase(lines, n, sc.line, sc.at)
			}
			return b, true, nil
		}
		for _, h := range literalHeads(text, "go") { // a function literal's parameter
			if paramNamed(h.params, name, "go") && encloses(lines, n, h.body, sc.line, sc.at+1, h.block) {
				return goBinding{kind: goBindParam, typ: paramType("("+h.params+")", name, "go"), line: n}, true, nil
			}
		}
	}
	return goBinding{}, false, nil
}

// goBindings returns the bindings of name on the line text, the rightmost first: a := or
// var statement, for ... range, switch v := x.(type).
func goBindings(text, name string) []goBinding {
	var out []goBinding
	if i := strings.Index(text, "//"); i >= 0 && !inGoString(text, i) {
		text = text[:i] // a trailing comment
	}
	for i := len(text) - 2; i >= 0; i-- {
		if text[i] != ':' || text[i+1] != '=' || inGoString(text, i) {
			continue
		}
		// The names before :=.
		j := i
		var names []string
		for {
			k := j
			for k > 0 && (text[k-1] == ' ' || text[k-1] == '\t') {
				k--
			}
			e := k
			for k > 0 && isIdentByte(text[k-1]) {
				k--
			}
			if k == e {
				break
			}
			names = append([]string{text[k:e]}, names...)
			j = k
			for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
				j--
			}
			if j == 0 || text[j-1] != ',' {
				break
			}
			j--
		}
		idx := -1
		for n, v := range names {
			if v == name {
				idx = n
			}
		}
		if idx < 0 {
			continue
		}
		start := j
		for start > 0 && (text[start-1] == ' ' || text[start-1] == '\t') {
			start--
		}
		before := strings.TrimSpace(text[:start])
		b := goBinding{index: idx, names: len(names), at: start}
		rhs := text[i+2:]
		header := strings.HasSuffix(before, "if") || strings.HasSuffix(before, "for") || strings.HasSuffix(before, "switch")
		if header {
			rhs = goHeaderPart(rhs)
		}
		rhs = strings.TrimSpace(rhs)
		if strings.HasSuffix(before, "case") { // select's case v := <-ch:
			rhs = strings.TrimSpace(strings.TrimSuffix(rhs, ":"))
		}
		switch {
		case strings.HasPrefix(rhs, "range ") || strings.HasPrefix(rhs, "range\t"):
			b.kind, b.rhs = goBindRange, strings.TrimSpace(rhs[len("range"):])
		case strings.HasSuffix(before, "switch") && strings.HasSuffix(rhs, ".(type)"):
			b.kind, b.rhs = goBindSwitch, strings.TrimSuffix(rhs, ".(type)")
		default:
			b.rhs = rhs
		}
		out = append(out, b)
	}
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "var "); ok && wordAt(t, name) >= 0 {
		at := strings.Index(text, "var ")
		names, typ, rhs, ok := goVarSpec(rest)
		if ok {
			for i, n := range names {
				if n == name {
					out = append(out, goBinding{kind: goBindValue, typ: typ, rhs: rhs, index: i, names: len(names), at: at})
				}
			}
		}
	}
	return out
}

// goHeaderPart returns the part of an if, for or switch header after a := up to its ; or
// the { that opens its block.
func goHeaderPart(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '{':
			if depth == 0 && strings.TrimSpace(s[i+1:]) == "" {
				return s[:i]
			}
			depth++
		case '}':
			depth--
		case ';':
			if depth == 0 {
				return s[:i]
			}
		case '"', '\'', '`':
			if k := strings.IndexByte(s[i+1:], c); k >= 0 {
				i += k + 1
			}
		}
	}
	return s
}

// goVarSpec reads "a, b T = x, y" (after var): the names, the type, the values.
func goVarSpec(s string) (names []string, typ, rhs string, ok bool) {
	s = strings.TrimSpace(s)
	for {
		n := identPrefix(s)
		if n == "" {
			return nil, "", "", false
		}
		names = append(names, n)
		s = strings.TrimLeft(s[len(n):], " \t")
		if !strings.HasPrefix(s, ",") {
			break
		}
		s = strings.TrimLeft(s[1:], " \t")
	}
	if i := assignAt(s); i >= 0 {
		typ, rhs = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	} else {
		typ = strings.TrimSpace(s)
	}
	if j := strings.Index(typ, "//"); j >= 0 {
		typ = strings.TrimSpace(typ[:j])
	}
	return names, typ, rhs, true
}

// goInScope reports whether the binding b (on its line, its statement at b.at) is in force
// at the use at line and byte at: its statement is over (a := does not bind in its own
// right side), and the block it is in (for a header's, the statement's own blocks, else
// and else if included) is still open.
func goInScope(lines []string, b goBinding, line, at int) bool {
	text := lines[b.line-1]
	t := strings.TrimSpace(text[:b.at])
	header := strings.HasSuffix(t, "if") || strings.HasSuffix(t, "for") || strings.HasSuffix(t, "switch")
	clause := strings.HasSuffix(t, "case") // select's case v := <-ch:
	depth := 0
	opened := false // a header's block has opened
	for k := b.line; k <= line && k <= len(lines); k++ {
		text := lines[k-1]
		from, to := 0, len(text)
		if k == b.line {
			from = b.at
		}
		if k == line {
			to = min(at, len(text))
		}
		if clause && k > b.line && depth == 0 {
			if s := strings.TrimSpace(text); strings.HasPrefix(s, "case ") || strings.HasPrefix(s, "default:") {
				return false
			}
		}
		for j := from; j < to; j++ {
			switch c := text[j]; c {
			case '{', '(', '[':
				depth++
				if c == '{' && header && depth == 1 && j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
					opened = true // the block's {, not a literal's ([]string{"a"}, T{})
				}
			case '}', ')', ']':
				depth--
				if depth < 0 {
					return false
				}
				if c == '}' && header && opened && depth == 0 {
					if rest := strings.TrimSpace(text[j+1:]); strings.HasPrefix(rest, "else") {
						continue
					}
					return false
				}
			case ';':
				if header && depth == 0 && k == b.line {
					opened = true // for i := 0; i < n: the binding holds after its statement
				}
			case '"', '\'', '`':
				if e := strings.IndexByte(text[j+1:to], c); e >= 0 {
					j += e + 1
				} else {
					j = to
				}
			case '/':
				if j+1 < to && text[j+1] == '/' {
					j = to
				}
			}
		}
		if k == b.line && !header && !clause && line == b.line {
			return false // x := f(x): the right side is not in x's scope
		}
	}
	if header && !opened {
		return false // in the header's own expressions
	}
	return true
}

// goSwitchCase returns the types of the case clause of a type switch (whose header is on
// line n) that holds the use at line and byte at ("" in default, or not found).
func goSwitchCase(lines []string, n, line, at int) string {
	depth, cur := 0, ""
	for k := n; k <= line && k <= len(lines); k++ {
		text := lines[k-1]
		to := len(text)
		if k == line {
			to = min(at, len(text))
		}
		if k > n && depth == 1 {
			s := strings.TrimSpace(text)
			if rest, ok := strings.CutPrefix(s, "case "); ok {
				if i := strings.LastIndexByte(rest, ':'); i >= 0 {
					cur = strings.TrimSpace(rest[:i])
				} else {
					cur = ""
				}
			} else if strings.HasPrefix(s, "default:") {
				cur = ""
			}
		}
		for j := 0; j < to; j++ {
			switch c := text[j]; c {
			case '{':
				depth++
			case '}':
				depth--
			case '"', '\'', '`':
				if e := strings.IndexByte(text[j+1:to], c); e >= 0 {
					j += e + 1
				} else {
					j = to
				}
			}
		}
	}
	return cur
}

// goBindingType returns the type of the local bound by b, read in sc's function.
func (r *resolver) goBindingType(sc goScope, b goBinding) (goType, bool, error) {
	at := goScope{f: sc.f, fn: sc.fn, container: sc.container, line: b.line, at: b.at}
	switch b.kind {
	case goBindParam:
		e := r.goParse(b.typ)
		return goType{expr: e, f: sc.f, scope: sc.container}, e != nil, nil
	case goBindSwitch:
		if c := b.cases; c != "" && len(goSplit(c)) == 1 && c != "nil" {
			e := r.goParse(c)
			return goType{expr: e, f: sc.f, scope: sc.container}, e != nil, nil
		}
		e := r.goParse(goBalance(b.rhs))
		if e == nil {
			return goType{}, false, nil
		}
		v, ok, err := r.goEval(at, e)
		return v.t, ok && !v.isType && v.fn == nil, err
	case goBindRange:
		e := r.goParse(goBalance(b.rhs))
		if e == nil {
			return goType{}, false, nil
		}
		v, ok, err := r.goEval(at, e)
		if !ok || err != nil || v.isType || v.fn != nil {
			return goType{}, false, err
		}
		u, ok, err := r.goUnder(v.t)
		if !ok || err != nil {
			return goType{}, false, err
		}
		if ft, isFunc := u.expr.(*ast.FuncType); isFunc { // range over func(yield func(K, V) bool)
			if ft.Params == nil || len(ft.Params.List) != 1 {
				return goType{}, false, nil
			}
			yield, _ := ft.Params.List[0].Type.(*ast.FuncType)
			if yield == nil || yield.Params == nil {
				return goType{}, false, nil
			}
			var ps []ast.Expr
			for _, p := range yield.Params.List {
				for range max(1, len(p.Names)) {
					ps = append(ps, p.Type)
				}
			}
			if b.index >= len(ps) {
				return goType{}, false, nil
			}
			return goType{expr: ps[b.index], f: u.f, scope: u.scope}, true, nil
		}
		if id, isIdent := u.expr.(*ast.Ident); isIdent && goPredeclared[id.Name] && id.Name != "string" {
			return u, true, nil // range over an integer
		}
		if _, isChan := u.expr.(*ast.ChanType); isChan {
			return r.goElem(v.t, 1)
		}
		return r.goElem(v.t, b.index)
	}
	if b.typ != "" {
		e := r.goParse(b.typ)
		return goType{expr: e, f: sc.f, scope: sc.container}, e != nil, nil
	}
	lines, err := r.lines(sc.f.path)
	if err != nil {
		return goType{}, false, err
	}
	rhs := goStatement(lines, b.line, b.rhs)
	exprs := goSplit(rhs)
	if b.names == len(exprs) {
		e := r.goParse(exprs[b.index])
		if e == nil {
			return goType{}, false, nil
		}
		v, ok, err := r.goEval(at, e)
		return v.t, ok && !v.isType && v.fn == nil, err
	}
	if len(exprs) != 1 {
		return goType{}, false, nil
	}
	e := r.goParse(exprs[0])
	if e == nil {
		return goType{}, false, nil
	}
	if call, isCall := e.(*ast.CallExpr); isCall { // a, err := f()
		fv, ok, err := r.goEval(at, call.Fun)
		if !ok || err != nil || fv.isType {
			return goType{}, false, err
		}
		res, err := r.goResults(fv)
		if err != nil || b.index >= len(res) {
			return goType{}, false, err
		}
		return res[b.index], true, nil
	}
	if b.index != 0 { // v, ok := m[k], x.(T), <-ch
		return goType{expr: ast.NewIdent("bool"), f: sc.f}, true, nil
	}
	v, ok, err := r.goEval(at, e)
	return v.t, ok && !v.isType && v.fn == nil, err
}

// goStatementLines bounds the lines goStatement reads on.
const goStatementLines = 400

// goStatement returns the expression that starts with rhs on line (1-based) and goes on
// over the lines below until its brackets close (x := f(func() {\n...\n})).t), or rhs with
// its brackets closed (goBalance) when they do not close within goStatementLines.
func goStatement(lines []string, line int, rhs string) string {
	text := strings.TrimSpace(rhs)
	depth, str := goOpen(text, 0, 0)
	if depth <= 0 && str == 0 {
		return goBalance(text)
	}
	var b strings.Builder
	b.WriteString(text)
	for n := line + 1; n <= len(lines) && n <= line+goStatementLines; n++ {
		b.WriteByte('\n')
		b.WriteString(lines[n-1])
		if depth, str = goOpen(lines[n-1], depth, str); depth <= 0 && str == 0 {
			return b.String()
		}
	}
	return goBalance(text)
}

// goOpen returns the brackets left open after the line text, given those open before it
// (depth) and whether a raw string is open (str '`'); a line comment ends the line.
func goOpen(text string, depth int, str byte) (int, byte) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if str != 0 {
			if c == '\\' && str != '`' {
				i++
			} else if c == str {
				str = 0
			}
			continue
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'', '`':
			str = c
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				return depth, 0
			}
		}
	}
	if str != '`' {
		str = 0 // an interpreted string does not go on to the next line
	}
	return depth, str
}

// goBalance closes the brackets a line leaves open (x := &T{ on a line of its own: &T{}),
// drops a trailing comment, and "" when a string does not close.
func goBalance(s string) string {
	var open []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case '"', '\'', '`':
			k := goQuoteEnd(s[i+1:], c)
			if k < 0 {
				return ""
			}
			i += k + 1
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				s = s[:i]
			}
		}
	}
	s = strings.TrimRight(strings.TrimSpace(s), ",")
	for i := len(open) - 1; i >= 0; i-- {
		s += map[byte]string{'(': ")", '[': "]", '{': "}"}[open[i]]
	}
	return s
}

// goEscaped reports whether the byte at s[k] is escaped by an odd number of backslashes.
func goEscaped(s string, k int) bool {
	n := 0
	for k > 0 && s[k-1] == '\\' {
		n++
		k--
	}
	return n%2 == 1
}

// inGoString reports whether byte i of the line text is inside a string or rune literal or
// a comment.
func inGoString(text string, i int) bool {
	for j := 0; j < i; j++ {
		switch c := text[j]; c {
		case '"', '\'', '`':
			k := strings.IndexByte(text[j+1:], c)
			for k >= 0 && c != '`' && goEscaped(text[j+1:], k) {
				n := strings.IndexByte(text[j+1+k+1:], c)
				if n < 0 {
					k = -1
					break
				}
				k += n + 1
			}
			if k < 0 || j+1+k >= i {
				return true
			}
			j += k + 1
		case '/':
			if j+1 < len(text) && text[j+1] == '/' {
				return true
			}
		}
	}
	return false
}

// wordAt returns the index of the first whole-word occurrence of name in s, -1 if none.
func wordAt(s, name string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		from = i + len(name)
		if (i == 0 || !isIdentByte(s[i-1])) && (from == len(s) || !isIdentByte(s[from])) {
			return i
		}
	}
}

// identPrefix returns the identifier s starts with ("" none).
func identPrefix(s string) string {
	i := 0
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	if i == 0 || s[0] >= '0' && s[0] <= '9' {
		return ""
	}
	return s[:i]
}

// goSplit splits a Go expression list at its top-level commas: outside brackets, strings,
// runes and comments.
func goSplit(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'', '`':
			k := goQuoteEnd(s[i+1:], c)
			if k < 0 {
				return append(out, s[start:])
			}
			i += k + 1
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
					i += nl
				} else {
					i = len(s)
				}
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// goQuoteEnd returns the offset in s of the quote c closing a literal that starts just
// before s (a backslash escapes one in "..." and '...', never in a raw `...`), -1 if none.
func goQuoteEnd(s string, c byte) int {
	k := strings.IndexByte(s, c)
	for k >= 0 && c != '`' && goEscaped(s, k) {
		n := strings.IndexByte(s[k+1:], c)
		if n < 0 {
			return -1
		}
		k += n + 1
	}
	return k
}
