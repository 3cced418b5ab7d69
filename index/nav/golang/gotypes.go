package golang

// Go's types, as resolution reads them (gochain.go): the named type an expression's type
// denotes, through pointers, aliases and type parameters; its underlying type and element
// types; a member looked up in it as Go selects it, through embedded fields and interfaces;
// a callable's declaration and signature.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// goNamed returns the workspace type t names, through pointers, parentheses, type
// arguments and aliases; known is false when t names a type that cannot be looked up (a
// type parameter), true with a nil def for a type outside the workspace or an unnamed one.
func (r *resolver) goNamed(t goType) (def *resolve.Def, known bool, err error) {
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
		d, err := r.TypeNamed(t.f, text, t.scope)
		if err != nil || d == nil {
			return nil, err == nil, err
		}
		if d.Kind != extract.Type.String() || resolve.MetaMap(d.Metadata)["alias"] != "true" {
			return d, true, nil
		}
		aliased, err := r.goStated(d, "alias") // type A = B: B
		if err != nil || len(aliased) == 0 {
			return nil, false, err
		}
		df, err := r.FileOf(d.Path, d.Language)
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
	chain, err := r.Chain(scope)
	if err != nil {
		return false, err
	}
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return false, err
		}
		if tp := resolve.MetaMap(d.Metadata)["type_parameters"]; tp != "" && wordAt(tp, name) >= 0 {
			return true, nil
		}
		if d.Kind == extract.Method.String() {
			if g := resolve.ParenGroups(d.Signature); len(g) > 0 {
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
		df, err := r.FileOf(d.Path, d.Language)
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
func (r *resolver) goLookup(t goType, name string) (d *resolve.Def, decided bool, err error) {
	def, known, err := r.goNamed(t)
	if !known || err != nil || def == nil {
		return nil, known, err
	}
	cands, err := r.goDefs(name)
	if err != nil {
		return nil, false, err
	}
	seen := map[string]bool{def.ID: true}
	level := []*resolve.Def{def}
	unknownAt := -1 // the shallowest depth whose embedded types are not known
	for depth := 0; depth < 8 && len(level) > 0; depth++ {
		var hits, next []*resolve.Def
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
			if m := resolve.One(hits); m != nil {
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
func goMembersOf(t *resolve.Def, cands []*resolve.Def) []*resolve.Def {
	var out []*resolve.Def
	for _, d := range cands {
		switch {
		case d.ParentID == t.ID:
			out = append(out, d)
		case d.ParentID == "" && d.Kind == extract.Method.String() && resolve.SameDir(d.Path, t.Path):
			if strings.TrimLeft(resolve.MetaMap(d.Metadata)["receiver"], "*") == t.Name {
				out = append(out, d)
			}
		}
	}
	return out
}

// goEmbedded returns the types t embeds: a struct's embedded fields', an interface's
// embedded interfaces, a defined type's underlying named type (type X Y).
func (r *resolver) goEmbedded(t *resolve.Def) ([]goType, error) {
	df, err := r.FileOf(t.Path, t.Language)
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
			if k.Kind != extract.Field.String() || resolve.MetaMap(k.Metadata)["embedded"] != "true" {
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
func (r *resolver) goChildren(t *resolve.Def) ([]resolve.Def, error) {
	st := r.gost()
	if k, ok := st.kids[t.ID]; ok {
		return k, nil
	}
	k, err := r.Children(*t)
	if err != nil {
		return nil, err
	}
	st.kids[t.ID] = k
	return k, nil
}

// goDecl returns the parsed signature of the function or method fn (nil when it does not
// parse: a signature cut short).
func (r *resolver) goDecl(fn *resolve.Def) *ast.FuncDecl {
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
func (r *resolver) goSignatureType(fn *resolve.Def, name string) (t ast.Expr, found bool) {
	if fn == nil || fn.Language != "go" {
		return nil, false
	}
	decl := r.goDecl(fn)
	if decl == nil {
		if recv, typ := resolve.GoReceiver(fn.Signature); recv == name {
			return r.goParse(typ), true
		}
		if typ := resolve.ParamType(fn.Signature, name, "go"); typ != "" {
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
