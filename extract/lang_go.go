package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func init() { register("go", extractGo) }

// extractGo walks a Go file: package, imports, constants, variables, types (struct fields,
// interface methods, embedded types), functions and methods (attached to their receiver type
// when it is defined in the same file).
func extractGo(w *walker, root *Node) {
	w.walk(root, goNode)
	types := map[string]*Symbol{}
	for _, s := range w.syms {
		if s.ParentID == "" && s.Kind.IsType() { // Go's are struct, interface and named types
			types[s.Name] = s
		}
	}
	for _, s := range w.syms {
		if t := types[strings.TrimLeft(s.Metadata["receiver"], "*")]; s.Kind == Method && t != nil {
			s.ParentID = t.ID
		}
	}
}

func goNode(w *walker, n *Node) {
	switch n.Type() {
	case "package_clause":
		if sym := w.add(n, childOfType(n, "package_identifier"), Module); sym != nil {
			sym.Visibility = Public
		}
		return
	case "import_spec":
		path := field(n, "path")
		sym := w.importName(n, path, w.text(path))
		if alias := field(n, "name"); alias != nil {
			meta(sym, "alias", w.text(alias))
		}
		return
	case "const_declaration", "var_declaration", "type_declaration":
		goDeclaration(w, n)
		return
	case "const_spec", "var_spec": // inside a var_spec_list
		goValueSpec(w, n, n)
		return
	case "type_spec", "type_alias":
		goTypeSpec(w, n, n)
		return
	case "function_declaration", "method_declaration":
		goFunc(w, n)
		return
	case "call_expression":
		fn := field(n, "function")
		switch {
		case fn != nil && fn.Type() == "func_literal":
			goNode(w, fn) // defer func() { ... }(): no name is called, the uses in the literal count
		default:
			w.call(fn)
			if fn != nil && fn.Type() == "selector_expression" {
				goNode(w, field(fn, "operand"))
			}
		}
		w.walk(field(n, "type_arguments"), goNode)
		w.walk(field(n, "arguments"), goNode)
		return
	case "selector_expression":
		w.member(field(n, "field"), n, MemberAccess)
		goNode(w, field(n, "operand"))
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "qualified_type":
		w.member(field(n, "name"), n, TypeUsage)
		return
	case "argument_list", "expression_list", "literal_element":
		w.valueRefs("identifier", namedChildren(n)...)
	}
	w.walk(n, goNode)
}

// goDeclaration extracts the specs of a const, var or type declaration. A declaration with
// one spec is the span of its symbol (type X struct{...} with its doc comment); in a group
// each spec is its own.
func goDeclaration(w *walker, decl *Node) {
	children := namedChildren(decl)
	specs := 0
	for _, c := range children {
		if goIsSpec(c.Type()) {
			specs++
		}
	}
	for _, c := range children {
		def := c
		if specs == 1 {
			def = decl
		}
		switch c.Type() {
		case "const_spec", "var_spec":
			goValueSpec(w, c, def)
		case "type_spec", "type_alias":
			goTypeSpec(w, c, def)
		default:
			goNode(w, c)
		}
	}
}

func goIsSpec(t string) bool {
	return t == "const_spec" || t == "var_spec" || t == "type_spec" || t == "type_alias"
}

// goTypeBody returns the field or method list of a struct or interface type spec.
func goTypeBody(n *Node) *Node {
	t := field(n, "type")
	switch {
	case t == nil:
		return nil
	case t.Type() == "struct_type":
		return childOfType(t, "field_declaration_list")
	case t.Type() == "interface_type":
		return t
	}
	return nil
}

func goVisibility(name string) Visibility {
	r, _ := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return Public
	}
	return Private
}

func goValueSpec(w *walker, n, def *Node) {
	kind := Variable
	if n.Type() == "const_spec" {
		kind = Constant
	}
	typ := field(n, "type")
	for _, name := range childrenOfType(n, "identifier") {
		if typ == nil || name.StartByte() < typ.StartByte() {
			sym := w.add(def, name, kind)
			if sym == nil {
				continue
			}
			if len(w.stack) == 0 {
				sym.Visibility = goVisibility(sym.Name)
			}
			w.typeInfo(sym, "declared", typ)
		}
	}
	w.typeRefs(typ, "type_identifier")
	if v := field(n, "value"); v != nil {
		goNode(w, v)
	}
}

func goTypeSpec(w *walker, n, def *Node) {
	t := field(n, "type")
	kind := Type
	switch {
	case t != nil && t.Type() == "struct_type":
		kind = Struct
	case t != nil && t.Type() == "interface_type":
		kind = Interface
	}
	sym := w.add(def, field(n, "name"), kind)
	if sym == nil {
		return
	}
	sym.Visibility = goVisibility(sym.Name)
	if b := goTypeBody(n); b != nil {
		end := int(b.StartByte())
		if i := strings.IndexByte(w.text(b), '{'); b.Type() == "interface_type" && i >= 0 {
			end += i
		}
		sym.Signature = w.signatureRange(int(def.StartByte()), end)
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	if n.Type() == "type_alias" {
		meta(sym, "alias", "true")
	}
	switch kind {
	case Type:
		w.typeInfo(sym, "alias", t)
		w.typeRefs(t, "type_identifier")
	case Struct, Interface:
		w.within(sym, func() { goMembers(w, sym, t) })
	}
}

// goMembers extracts the fields of a struct or the methods and embedded types of an
// interface.
func goMembers(w *walker, owner *Symbol, t *Node) {
	body := goTypeBody(t.Parent())
	for _, m := range namedChildren(body) {
		switch m.Type() {
		case "field_declaration":
			typ := field(m, "type")
			names := childrenOfType(m, "field_identifier")
			if len(names) == 0 { // embedded type
				name := lastName(typ)
				w.relate(owner, w.text(name), Extends, m)
				w.typeRefs(typ, "type_identifier")
				if f := w.addNamed(m, w.text(name), Field); f != nil {
					f.Visibility = goVisibility(f.Name)
					meta(f, "embedded", "true")
				}
				continue
			}
			for _, name := range names {
				if f := w.add(m, name, Field); f != nil {
					f.Visibility = goVisibility(f.Name)
					w.typeInfo(f, "declared", typ)
					if tag := field(m, "tag"); tag != nil {
						meta(f, "tag", w.text(tag))
					}
				}
			}
			w.typeRefs(typ, "type_identifier")
		case "method_elem", "method_spec":
			if f := w.add(m, field(m, "name"), Method); f != nil {
				f.Visibility = goVisibility(f.Name)
				w.typeInfo(f, "return", field(m, "result"))
			}
			w.typeRefs(field(m, "parameters"), "type_identifier")
			w.typeRefs(field(m, "result"), "type_identifier")
		case "type_elem", "constraint_elem":
			for _, c := range namedChildren(m) {
				w.relate(owner, w.text(lastName(c)), Extends, m)
			}
			w.typeRefs(m, "type_identifier")
		}
	}
}

func goFunc(w *walker, n *Node) {
	kind := Function
	if n.Type() == "method_declaration" {
		kind = Method
	}
	sym := w.add(n, field(n, "name"), kind)
	if sym == nil {
		return
	}
	sym.Visibility = goVisibility(sym.Name)
	if recv := field(n, "receiver"); recv != nil {
		if p := childOfType(recv, "parameter_declaration"); p != nil {
			rt := field(p, "type")
			name := w.text(rt)
			if i := strings.IndexByte(name, '['); i >= 0 { // generic receiver: *List[T]
				name = name[:i]
			}
			meta(sym, "receiver", name)
		}
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.typeInfo(sym, "return", field(n, "result"))
	w.within(sym, func() {
		for _, f := range []string{"receiver", "parameters", "result"} {
			if t := field(n, f); t != nil {
				goNode(w, t) // its types, with their package: c *gin.Context
			}
		}
		w.walk(field(n, "body"), goNode)
	})
}
