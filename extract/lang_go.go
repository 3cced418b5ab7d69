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
	if n == nil {
		return
	}
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
		case fn == nil:
		case fn.Type() == "identifier":
			w.call(fn)
		case fn.Type() == "selector_expression":
			goUse(w, field(fn, "field"), field(fn, "operand"), Call)
			w.relateCall(field(fn, "field"))
			goNode(w, field(fn, "operand"))
		default:
			goNode(w, fn) // defer func() { ... }(), f()(), (*T)(x): the uses in it count
		}
		w.walk(field(n, "type_arguments"), goNode)
		w.walk(field(n, "arguments"), goNode)
		return
	case "selector_expression":
		goUse(w, field(n, "field"), field(n, "operand"), MemberAccess)
		goNode(w, field(n, "operand"))
		return
	case "identifier": // a name used as a value (its definitions are read apart)
		if w.text(n) != "_" {
			w.ident(n, VariableRef)
		}
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "qualified_type":
		w.member(field(n, "name"), n, TypeUsage)
		return
	case "parameter_declaration", "variadic_parameter_declaration":
		goNode(w, field(n, "type")) // its names are definitions
		return
	case "short_var_declaration":
		goNode(w, field(n, "right"))
		return
	case "range_clause", "receive_statement": // for k, v := range x; case v := <-ch
		if !w.hasChild(n, ":=") {
			goNode(w, field(n, "left"))
		}
		goNode(w, field(n, "right"))
		return
	case "type_switch_statement": // switch v := x.(type): v is defined
		for _, c := range namedChildren(n) {
			if c != field(n, "alias") {
				goNode(w, c)
			}
		}
		return
	case "composite_literal":
		typ := field(n, "type")
		goNode(w, typ)
		t := goTypeText(w, typ)
		value := t + "{}"
		if t == "" {
			value = goUnknown
		}
		goLiteral(w, field(n, "body"), t, value)
		return
	}
	w.walk(n, goNode)
}

// goUnknown is the qualifier of a use looked up in a value whose expression is not recorded
// (too long): a qualifier that resolution reads as nothing it knows, never as a bare name.
const goUnknown = "(…)"

// goUse records a use of the name n looked up in the value or package operand (the field
// or method of x.f, x.m(), the function of pkg.F): its qualifier is operand's source on one
// line, the arguments of its calls and the bodies of its literals left out (c.Root().Name
// of c.Root(cmd).Name(), T{} of T{A: 1}.f), so that resolution can read its type.
func goUse(w *walker, n, operand *Node, kind IdentKind) {
	if n == nil {
		return
	}
	name := w.text(n)
	if name == "" || len(name) > maxNameRunes || strings.ContainsAny(name, " \t\n") {
		return
	}
	id := Identifier{Name: name, Kind: kind, Span: w.span(n), Qualifier: goQualifier(w, operand)}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}

// goQualifier returns the expression n as a qualifier: on one line, without comments, the
// arguments of calls (but new(T) and make(T, n)'s type) and the bodies of composite and
// function literals elided; goUnknown when it is still longer than maxQualifierBytes.
func goQualifier(w *walker, n *Node) string {
	if n == nil {
		return goUnknown
	}
	var b strings.Builder
	at := int(n.StartByte())
	var cut func(n *Node)
	skip := func(from, to int, with string) {
		b.Write(w.src[at:from])
		b.WriteString(with)
		at = to
	}
	cut = func(n *Node) {
		switch n.Type() {
		case "comment":
			skip(int(n.StartByte()), int(n.EndByte()), "")
			return
		case "argument_list":
			if fn := field(n.Parent(), "function"); fn != nil && fn.Type() == "identifier" && (w.text(fn) == "new" || w.text(fn) == "make") {
				if a := n.NamedChild(0); a != nil {
					skip(int(n.StartByte()), int(n.EndByte()), "("+oneLine(w.text(a), maxQualifierBytes)+")")
					return
				}
			}
			skip(int(n.StartByte()), int(n.EndByte()), "()")
			return
		case "literal_value", "block":
			skip(int(n.StartByte()), int(n.EndByte()), "{}")
			return
		}
		for _, c := range n.children(n.named, n.nnamed) {
			cut(c)
		}
	}
	cut(n)
	b.Write(w.src[at:n.EndByte()])
	q := b.String()
	if strings.ContainsAny(q, "\n\r") {
		var one strings.Builder
		for _, line := range strings.Split(q, "\n") {
			one.WriteString(strings.TrimSpace(line))
		}
		q = one.String()
	}
	if q == "" || len(q) > maxQualifierBytes {
		return goUnknown
	}
	return q
}

// goTypeText returns the type of a composite literal as a qualifier's text ("" when it
// cannot be: an anonymous struct, a type too long or on several lines).
func goTypeText(w *walker, typ *Node) string {
	if typ == nil || typ.Type() == "struct_type" {
		return ""
	}
	t := w.text(typ)
	if len(t) > maxQualifierBytes/2 || strings.ContainsAny(t, "\n\r{") {
		return ""
	}
	return t
}

// goLiteral records the uses in the body lv of a composite literal of the type typ (its
// text, "" unknown) whose value is the expression value: a key of a struct literal is a
// use of the field, looked up in value (Use of &Command{Use: "x"}: qualifier Command{});
// an element's literal with its type elided ([]T{{A: 1}}, map[K]*T{"k": {A: 1}}) is a
// value of the element type (qualifier []T{}[0]).
func goLiteral(w *walker, lv *Node, typ, value string) {
	elemType := ""
	switch {
	case strings.HasPrefix(typ, "map["):
		if i := goCloseBracket(typ); i > 0 {
			elemType = typ[i+1:]
		}
	case strings.HasPrefix(typ, "["):
		if i := strings.IndexByte(typ, ']'); i > 0 {
			elemType = typ[i+1:]
		}
	}
	elemType = strings.TrimPrefix(strings.TrimSpace(elemType), "*")
	elemValue := value + "[0]"
	if value == goUnknown || len(elemValue) > maxQualifierBytes {
		elemValue = goUnknown
	}
	// A key names a field unless the literal is a map's, a slice's or an array's.
	fieldKeys := !strings.HasPrefix(typ, "map[") && !strings.HasPrefix(typ, "[")
	elem := func(e *Node) {
		inner := e
		if e.Type() == "literal_element" {
			inner = e.NamedChild(0)
		}
		if inner != nil && inner.Type() == "literal_value" {
			goLiteral(w, inner, elemType, elemValue)
			return
		}
		goNode(w, e)
	}
	for _, c := range namedChildren(lv) {
		switch c.Type() {
		case "keyed_element":
			kids := namedChildren(c)
			if len(kids) < 2 {
				goNode(w, c)
				continue
			}
			key := kids[0]
			if key.Type() == "literal_element" && key.NamedChild(0) != nil {
				key = key.NamedChild(0)
			}
			if fieldKeys && (key.Type() == "identifier" || key.Type() == "field_identifier") {
				if name := w.text(key); name != "" && len(name) <= maxNameRunes {
					id := Identifier{Name: name, Kind: MemberAccess, Span: w.span(key), Qualifier: value}
					if v := w.container(); v != nil {
						id.ContainingSymbolID = v.ID
					}
					w.f.Identifiers = append(w.f.Identifiers, id)
				}
			} else {
				goNode(w, key)
			}
			elem(kids[len(kids)-1])
		case "literal_element":
			elem(c)
		default:
			goNode(w, c)
		}
	}
}

// goCloseBracket returns the index of the ] that closes the [ of map[ in typ, -1 if none.
func goCloseBracket(typ string) int {
	depth := 0
	for i := 0; i < len(typ); i++ {
		switch typ[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
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
	goNode(w, typ)
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
		goNode(w, t)
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
				goNode(w, typ)
				if f := w.addNamed(m, w.text(name), Field); f != nil {
					f.Visibility = goVisibility(f.Name)
					meta(f, "embedded", "true")
					w.typeInfo(f, "declared", typ) // *pflag.FlagSet: where its members are
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
			goNode(w, typ)
		case "method_elem", "method_spec":
			if f := w.add(m, field(m, "name"), Method); f != nil {
				f.Visibility = goVisibility(f.Name)
				w.typeInfo(f, "return", field(m, "result"))
			}
			goNode(w, field(m, "parameters"))
			goNode(w, field(m, "result"))
		case "type_elem", "constraint_elem":
			for _, c := range namedChildren(m) {
				w.relate(owner, w.text(lastName(c)), Extends, m)
				w.typeInfo(owner, "embeds", c) // io.Reader: where its methods are
			}
			goNode(w, m)
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
