package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func init() { register("scala", extractScala) }

// scalaTypeLeaves are the node types that spell a type name in Scala.
var scalaTypeLeaves = []string{"type_identifier"}

// scalaTypeKinds maps a Scala template definition node to its symbol kind.
var scalaTypeKinds = map[string]Kind{
	"class_definition": Class, "object_definition": Class, "trait_definition": Trait, "enum_definition": Enum,
}

// extractScala walks a Scala file: packages (clauses and blocks), imports, classes, case
// classes, objects, traits, enums and their cases, type aliases, and the vals, vars and
// defs of templates, with Scala 3 extension methods.
func extractScala(w *walker, root *Node) {
	w.walk(root, scalaNode)
}

// scalaNode is the visitor of every Scala node.
func scalaNode(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "package_clause":
		sym := w.add(n, field(n, "name"), Namespace)
		if sym != nil {
			sym.Visibility = Public
			sym.DocComment = javaDoc(w, n)
		}
		w.within(sym, func() { w.walk(field(n, "body"), scalaNode) })
		return
	case "import_declaration":
		scalaImport(w, n)
		return
	case "class_definition", "object_definition", "trait_definition", "enum_definition":
		scalaTemplate(w, n)
		return
	case "function_definition", "function_declaration":
		scalaFunction(w, n)
		return
	case "val_definition", "val_declaration", "var_definition", "var_declaration":
		scalaValue(w, n)
		return
	case "type_definition":
		scalaTypeAlias(w, n)
		return
	case "simple_enum_case", "full_enum_case":
		scalaEnumCase(w, n)
		return
	case "extension_definition":
		scalaExtension(w, n)
		return
	case "call_expression":
		fn := field(n, "function")
		if t := w.text(fn); t != "this" && t != "super" { // this(...) in an auxiliary constructor
			w.call(fn)
		}
		switch {
		case fn == nil:
		case fn.Type() == "field_expression":
			scalaNode(w, field(fn, "value"))
		case fn.Type() != "identifier":
			scalaNode(w, fn)
		}
		scalaNode(w, field(n, "arguments"))
		return
	case "instance_expression":
		typ := namedChildren(n)
		if len(typ) > 0 {
			w.call(scalaTypeName(typ[0]))
			w.typeRefs(field(typ[0], "type_arguments"), scalaTypeLeaves...)
			for _, c := range typ[1:] {
				scalaNode(w, c)
			}
		}
		return
	case "field_expression":
		w.member(field(n, "field"), n, MemberAccess)
		scalaNode(w, field(n, "value"))
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "stable_type_identifier":
		w.ident(scalaTypeName(n), TypeUsage)
		return
	case "arguments":
		w.valueRefs("identifier", namedChildren(n)...)
	case "assignment_expression":
		w.valueRefs("identifier", field(n, "right"))
	case "return_expression":
		w.valueRefs("identifier", namedChildren(n)...)
	}
	w.walk(n, scalaNode)
}

// scalaTypeName returns the name leaf of a type: Map in mutable.Map[K, V].
func scalaTypeName(t *Node) *Node {
	for t != nil {
		switch t.Type() {
		case "type_identifier", "identifier":
			return t
		case "generic_type", "annotated_type":
			t = field(t, "type")
			if t == nil {
				return nil
			}
		case "stable_type_identifier":
			ids := childrenOfType(t, "type_identifier")
			if len(ids) == 0 {
				return nil
			}
			return ids[len(ids)-1]
		default:
			return nil
		}
	}
	return nil
}

// scalaImport records an import: one symbol per selector of import a.b.{C, D => E}, with the
// wildcard spelled as in the source (_ or *).
func scalaImport(w *walker, n *Node) {
	var base []string
	var selectors *Node
	var last *Node
	for _, c := range namedChildren(n) {
		switch c.Type() {
		case "identifier", "operator_identifier":
			base = append(base, w.text(c))
			last = c
		case "namespace_wildcard":
			base = append(base, w.text(c))
		case "namespace_selectors":
			selectors = c
		}
	}
	prefix := strings.Join(base, ".")
	if selectors == nil {
		if sym := w.importName(n, last, prefix); sym != nil {
			sym.DocComment = ""
		}
		return
	}
	for _, s := range namedChildren(selectors) {
		name, alias := s, (*Node)(nil)
		if s.Type() == "arrow_renamed_identifier" || s.Type() == "as_renamed_identifier" {
			name, alias = field(s, "name"), field(s, "alias")
		}
		sym := w.importName(n, name, prefix+"."+w.text(name))
		if sym != nil {
			sym.DocComment = ""
			meta(sym, "alias", w.text(alias))
		}
	}
}

// scalaModifiers returns the modifier words of n (private, override, final, implicit, ...)
// and the qualifier of an access modifier (pkg in private[pkg]).
func scalaModifiers(w *walker, n *Node) (mods map[string]bool, qualifier string) {
	mods = map[string]bool{}
	m := childOfType(n, "modifiers")
	for i := 0; m != nil && i < int(m.ChildCount()); i++ {
		c := m.Child(i)
		if c.Type() == "access_modifier" {
			for j := 0; j < int(c.ChildCount()); j++ {
				mods[w.text(c.Child(j))] = true
			}
			if q := childOfType(c, "access_qualifier"); q != nil {
				qualifier = w.text(childOfType(q, "identifier"))
			}
			continue
		}
		mods[w.text(c)] = true
	}
	return mods, qualifier
}

// scalaVisibility applies Scala's rules: private and protected (private[this] is private,
// private[pkg] is visible in pkg only: internal), else public; locals of a def have none.
func scalaVisibility(w *walker, mods map[string]bool, qualifier string) Visibility {
	switch {
	case mods["private"] && qualifier != "" && qualifier != "this":
		return Internal
	case mods["private"]:
		return Private
	case mods["protected"]:
		return Protected
	case scalaInFunction(w):
		return ""
	}
	return Public
}

// scalaInFunction reports whether the innermost enclosing symbol is a def or a value, whose
// definitions are locals.
func scalaInFunction(w *walker) bool {
	c := w.container()
	return c != nil && (c.Kind.HasBody() || scalaLocalScope(c.Kind))
}

// scalaLocalScope reports whether k is a Scala value (val, var, lazy val): unlike most
// languages, its right-hand side is a block whose definitions are locals too.
func scalaLocalScope(k Kind) bool { return k == Variable || k == Constant }

// scalaSetup fills what every Scala definition shares: Scaladoc, visibility and the
// modifiers worth keeping.
func scalaSetup(w *walker, sym *Symbol, n *Node) map[string]bool {
	mods, qualifier := scalaModifiers(w, n)
	sym.DocComment = javaDoc(w, n)
	sym.Visibility = scalaVisibility(w, mods, qualifier)
	for _, m := range []string{"abstract", "sealed", "final", "implicit", "override", "lazy"} {
		if mods[m] {
			meta(sym, m, "true")
		}
	}
	return mods
}

// scalaTemplate records a class, case class, object, trait or enum with its supertypes,
// constructor parameters and members.
func scalaTemplate(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), scalaTypeKinds[n.Type()])
	if sym == nil {
		return
	}
	scalaSetup(w, sym, n)
	if n.Type() == "object_definition" {
		meta(sym, "object", "true")
	}
	isCase := w.hasChild(n, "case")
	if isCase {
		meta(sym, "case", "true")
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.within(sym, func() {
		for _, a := range childrenOfType(n, "annotation") {
			w.ident(scalaTypeName(field(a, "name")), TypeUsage)
			scalaNode(w, field(a, "arguments"))
		}
		w.typeRefs(field(n, "type_parameters"), scalaTypeLeaves...)
		scalaClassParameters(w, field(n, "class_parameters"), isCase)
		scalaSupertypes(w, sym, field(n, "extend"))
		w.walk(field(n, "body"), scalaNode)
	})
}

// scalaSupertypes records the extends clause: the first type is extended, the mixed-in
// traits (with) implemented; a trait extends all of them.
func scalaSupertypes(w *walker, sym *Symbol, ext *Node) {
	if ext == nil {
		return
	}
	first := true
	for i := 0; i < int(ext.NamedChildCount()); i++ {
		c := ext.NamedChild(i)
		if c.Type() == "arguments" {
			scalaNode(w, c)
			continue
		}
		name := scalaTypeName(c)
		kind := Implements
		if first || sym.Kind == Trait {
			kind = Extends
		}
		first = false
		if name != nil {
			w.relate(sym, w.text(name), kind, c)
		}
		w.typeRefs(c, scalaTypeLeaves...)
	}
}

// scalaClassParameters records the val/var parameters of a class (every parameter of a case
// class) as its properties; the types of the others are recorded as used.
func scalaClassParameters(w *walker, params *Node, isCase bool) {
	for _, p := range childrenOfType(params, "class_parameter") {
		typ := field(p, "type")
		if !isCase && !w.hasChild(p, "val") && !w.hasChild(p, "var") {
			w.typeRefs(typ, scalaTypeLeaves...)
			continue
		}
		sym := w.add(p, field(p, "name"), Property)
		if sym == nil {
			continue
		}
		mods, qualifier := scalaModifiers(w, p)
		sym.Visibility = scalaVisibility(w, mods, qualifier)
		meta(sym, "constructor_parameter", "true")
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() { w.typeRefs(typ, scalaTypeLeaves...) })
	}
}

// scalaFunction records a def: a method in a template, a function at top level or in a
// block, an operator when its name is symbolic, a constructor for def this(...).
func scalaFunction(w *walker, n *Node) {
	name := field(n, "name")
	kind := Function
	if c := w.container(); c != nil && !scalaInFunction(w) && c.Kind != Namespace {
		kind = Method
	}
	label := w.text(name)
	switch {
	case name != nil && name.Type() == "operator_identifier":
		kind = Operator
	case label == "this" && w.container() != nil:
		kind, label = Constructor, w.container().Name
	}
	sym := w.addNamed(n, label, kind)
	if sym == nil {
		return
	}
	scalaSetup(w, sym, n)
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	ret := field(n, "return_type")
	w.typeInfo(sym, "return", ret)
	w.within(sym, func() {
		for _, a := range childrenOfType(n, "annotation") {
			w.ident(scalaTypeName(field(a, "name")), TypeUsage)
		}
		w.typeRefs(field(n, "type_parameters"), scalaTypeLeaves...)
		for _, p := range childrenOfType(n, "parameters") {
			w.typeRefs(p, scalaTypeLeaves...)
		}
		w.typeRefs(ret, scalaTypeLeaves...)
		scalaNode(w, field(n, "body"))
	})
}

// scalaValue records a val or var outside defs: a constant when final or named in
// UpperCamel inside an object, a property in a template, a variable at top level. A local
// only has its uses recorded.
func scalaValue(w *walker, n *Node) {
	typ, value := field(n, "type"), field(n, "value")
	names := scalaPatternNames(n)
	if scalaInFunction(w) || len(names) == 0 {
		w.typeRefs(typ, scalaTypeLeaves...)
		scalaNode(w, value)
		return
	}
	for i, name := range names {
		sym := w.add(n, name, scalaValueKind(w, n, w.text(name)))
		if sym == nil {
			continue
		}
		scalaSetup(w, sym, n)
		sym.Signature = jvmValueSignature(w, n, value)
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() {
			if i == 0 { // the shared type and value are used by the first
				w.typeRefs(typ, scalaTypeLeaves...)
				scalaNode(w, value)
			}
		})
	}
}

// scalaPatternNames returns the names a val or var defines: x in val x, a and b in
// val (a, b) or val a, b.
func scalaPatternNames(n *Node) []*Node {
	p := field(n, "pattern")
	if p == nil {
		p = field(n, "name")
	}
	if p == nil {
		return nil
	}
	if p.Type() == "identifier" {
		var out []*Node
		for _, c := range namedChildren(n) { // val a, b: Int
			if c.Type() == "identifier" && (field(n, "type") == nil || c.StartByte() < field(n, "type").StartByte()) {
				out = append(out, c)
			}
		}
		return out
	}
	var out []*Node
	var collect func(*Node)
	collect = func(x *Node) {
		if x.Type() == "identifier" {
			out = append(out, x)
			return
		}
		for _, c := range namedChildren(x) {
			collect(c)
		}
	}
	collect(p)
	return out
}

// scalaValueKind chooses the kind of a val or var symbol.
func scalaValueKind(w *walker, n *Node, name string) Kind {
	isVal := strings.HasPrefix(n.Type(), "val_")
	mods, _ := scalaModifiers(w, n)
	c := w.container()
	r, _ := utf8.DecodeRuneInString(name)
	switch {
	case isVal && mods["final"]:
		return Constant
	case isVal && c != nil && c.Metadata["object"] == "true" && unicode.IsUpper(r):
		return Constant
	case c == nil || c.Kind == Namespace:
		return Variable
	}
	return Property
}

// jvmValueSignature returns the signature of a property or value definition: all of it when
// its value fits on one line, else the part before the value. Kotlin shares it.
func jvmValueSignature(w *walker, n, value *Node) string {
	if value == nil || value.StartPoint().Row == value.EndPoint().Row {
		return w.signature(n, nil)
	}
	return w.signatureRange(int(n.StartByte()), int(value.StartByte()))
}

// scalaTypeAlias records a type definition with its target (an abstract type has none).
func scalaTypeAlias(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), Type)
	if sym == nil {
		return
	}
	scalaSetup(w, sym, n)
	target := field(n, "type")
	w.typeInfo(sym, "alias", target)
	w.within(sym, func() { w.typeRefs(target, scalaTypeLeaves...) })
}

// scalaEnumCase records a case of a Scala 3 enum.
func scalaEnumCase(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), EnumMember)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	sym.DocComment = javaDoc(w, n)
	if n.PrevNamedSibling() == nil {
		sym.DocComment = javaDoc(w, n.Parent())
	}
	w.within(sym, func() {
		w.typeRefs(field(n, "class_parameters"), scalaTypeLeaves...)
		scalaSupertypes(w, sym, field(n, "extend"))
	})
}

// scalaExtension records the methods of a Scala 3 extension with the extended type as their
// receiver.
func scalaExtension(w *walker, n *Node) {
	receiver := ""
	params := childOfType(n, "parameters")
	if p := childOfType(params, "parameter"); p != nil {
		receiver = w.text(field(p, "type"))
	}
	w.typeRefs(params, scalaTypeLeaves...)
	first := len(w.syms)
	body := field(n, "body")
	if body != nil && (body.Type() == "function_definition" || body.Type() == "function_declaration") {
		scalaNode(w, body)
	} else {
		w.walk(body, scalaNode)
	}
	for _, s := range w.syms[first:] {
		if s.ParentID == scalaParentID(w) {
			meta(s, "receiver", receiver)
			meta(s, "extension", "true")
		}
	}
}

// scalaParentID returns the ID of the innermost enclosing symbol, or "".
func scalaParentID(w *walker) string {
	if c := w.container(); c != nil {
		return c.ID
	}
	return ""
}
