package extract

import (
	"strings"
)

func init() { register("kotlin", extractKotlin) }

// extractKotlin walks a Kotlin file: package, imports, top-level functions, properties and
// type aliases, classes (data, sealed, enum, inner), interfaces, objects and companion
// objects with their properties, methods, operators and constructors.
func extractKotlin(w *walker, root *Node) {
	w.walk(root, ktNode)
}

// ktNode is the visitor of every Kotlin node.
func ktNode(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "package_header":
		if sym := w.add(n, childOfType(n, "identifier"), Namespace); sym != nil {
			sym.Visibility = Public
			sym.DocComment = javaDoc(w, n)
		}
		return
	case "import_header":
		ktImport(w, n)
		return
	case "class_declaration", "object_declaration", "companion_object":
		ktClass(w, n)
		return
	case "function_declaration":
		ktFunction(w, n)
		return
	case "property_declaration":
		ktProperty(w, n)
		return
	case "secondary_constructor":
		ktConstructor(w, n)
		return
	case "enum_entry":
		ktEnumEntry(w, n)
		return
	case "type_alias":
		ktTypeAlias(w, n)
		return
	case "call_expression":
		ktCall(w, n)
		return
	case "navigation_expression":
		if s := childOfType(n, "navigation_suffix"); s != nil {
			w.ident(childOfType(s, "simple_identifier"), MemberAccess)
		}
		ktNode(w, n.NamedChild(0))
		return
	case "user_type":
		ktTypeRefs(w, n)
		return
	case "prefix_expression":
		if next := n.NextNamedSibling(); next != nil && ktLeadingAnnotation(next) == n {
			return // recorded with the declaration it annotates
		}
	case "value_argument", "jump_expression":
		ktValueRefs(w, namedChildren(n)...)
	case "assignment":
		ktValueRefs(w, csLastNamed(n))
	}
	w.walk(n, ktNode)
}

// ktValueRefs records a variable_ref for each plain identifier among nodes.
func ktValueRefs(w *walker, nodes ...*Node) {
	for _, c := range nodes {
		if c != nil && c.Type() == "simple_identifier" && c.Parent().Type() != "directly_assignable_expression" {
			w.ident(c, VariableRef)
		}
	}
}

// ktCall records a call: the called name (f in a.b.f()) and what the receiver, type
// arguments, arguments and trailing lambda use.
func ktCall(w *walker, n *Node) {
	callee := n.NamedChild(0)
	if callee == nil {
		return
	}
	w.call(callee)
	if callee.Type() == "navigation_expression" {
		ktNode(w, callee.NamedChild(0))
	} else if callee.Type() != "simple_identifier" {
		ktNode(w, callee)
	}
	for _, c := range namedChildren(n)[1:] {
		ktNode(w, c)
	}
}

// ktTypeRefs records a type_usage for each named type in the type t: the last name of a
// dotted user type (List in kotlin.collections.List) and its type arguments.
func ktTypeRefs(w *walker, t *Node) {
	if t == nil {
		return
	}
	if t.Type() == "user_type" {
		ids := childrenOfType(t, "type_identifier")
		if len(ids) > 0 {
			w.ident(ids[len(ids)-1], TypeUsage)
		}
		for _, a := range childrenOfType(t, "type_arguments") {
			ktTypeRefs(w, a)
		}
		return
	}
	for _, c := range namedChildren(t) {
		ktTypeRefs(w, c)
	}
}

// ktTypeName returns the last name of a type (Map in Map<K, V>), or nil.
func ktTypeName(t *Node) *Node {
	for t != nil && t.Type() != "user_type" {
		t = childOfType(t, "user_type", "nullable_type", "constructor_invocation")
	}
	ids := childrenOfType(t, "type_identifier")
	if len(ids) == 0 {
		return nil
	}
	return ids[len(ids)-1]
}

// ktImport records an import: the dotted name, with .* for a wildcard, and its alias.
func ktImport(w *walker, n *Node) {
	id := childOfType(n, "identifier")
	name := w.text(id)
	if childOfType(n, "wildcard_import") != nil {
		name += ".*"
	}
	sym := w.importName(n, id, name)
	if sym == nil {
		return
	}
	sym.DocComment = ""
	end := n.EndByte()
	if wc := childOfType(n, "wildcard_import"); wc != nil {
		end = wc.EndByte() // a comment after the import may hang in the header
	} else if a := childOfType(n, "import_alias"); a != nil {
		end = a.EndByte()
	} else if id != nil {
		end = id.EndByte()
	}
	sym.Signature = w.signatureRange(int(n.StartByte()), int(end))
	if a := childOfType(n, "import_alias"); a != nil {
		meta(sym, "alias", w.text(childOfType(a, "type_identifier")))
	}
}

// ktModifiers returns the modifier keywords of n (visibility, class, member, function,
// property, inheritance modifiers), without annotations.
func ktModifiers(w *walker, n *Node) map[string]bool {
	mods := map[string]bool{}
	for _, m := range namedChildren(childOfType(n, "modifiers")) {
		if m.Type() != "annotation" {
			mods[w.text(m)] = true
		}
	}
	return mods
}

// ktLeadingAnnotation returns the annotation the grammar parsed as an expression right before
// n (`@Suppress("x")` above `open class`), or nil.
func ktLeadingAnnotation(n *Node) *Node {
	p := n.PrevNamedSibling()
	if p == nil || p.Type() != "prefix_expression" || p.NamedChildCount() == 0 || p.NamedChild(0).Type() != "annotation" {
		return nil
	}
	if int(p.EndPoint().Row) < int(n.StartPoint().Row)-1 {
		return nil
	}
	return p
}

// ktSetup fills what every Kotlin declaration shares: KDoc, visibility, and a signature
// that starts at an annotation parsed apart from the declaration.
func ktSetup(w *walker, sym *Symbol, n *Node, mods map[string]bool) {
	sym.DocComment = javaDoc(w, n)
	if a := ktLeadingAnnotation(n); a != nil {
		sym.DocComment = javaDoc(w, a)
		sym.Signature = w.signature(n, childOfType(n, "class_body", "enum_class_body", "function_body"))
		sym.Signature = oneLine(w.text(a)+" "+sym.Signature, maxSignatureRunes)
	}
	sym.Visibility = ktVisibility(w, mods)
	for _, m := range []string{"abstract", "open", "data", "sealed", "inner", "override", "suspend", "inline"} {
		if mods[m] {
			meta(sym, m, "true")
		}
	}
}

// ktVisibility applies Kotlin's rules: the visibility modifier, else public; locals of a
// function have none.
func ktVisibility(w *walker, mods map[string]bool) Visibility {
	for _, v := range []Visibility{Public, Protected, Internal, Private} {
		if mods[string(v)] {
			return v
		}
	}
	if ktInFunction(w) {
		return ""
	}
	return Public
}

// ktInFunction reports whether the innermost enclosing symbol is a function body, whose
// definitions are locals.
func ktInFunction(w *walker) bool {
	c := w.container()
	return c != nil && (c.Kind.HasBody() || ktLocalScope(c.Kind))
}

// ktLocalScope reports whether k is, in Kotlin only, a scope of locals besides the kinds
// with a body: a variable, whose initializer (a lambda, an object expression) holds locals.
func ktLocalScope(k Kind) bool { return k == Variable }

// ktClass records a class, interface, enum class, object or companion object with its
// supertypes, primary-constructor properties and members.
func ktClass(w *walker, n *Node) {
	mods := ktModifiers(w, n)
	kind := Class
	switch {
	case w.hasChild(n, "interface"):
		kind = Interface
	case mods["enum"], w.hasChild(n, "enum"):
		kind = Enum
	}
	name := w.text(childOfType(n, "type_identifier"))
	if name == "" && n.Type() == "companion_object" {
		name = "Companion"
	}
	sym := w.addNamed(n, name, kind)
	if sym == nil {
		return
	}
	ktSetup(w, sym, n, mods)
	if body := ktClassBody(n); body != nil && ktLeadingAnnotation(n) == nil {
		sym.Signature = w.signature(n, body)
	}
	switch n.Type() {
	case "object_declaration":
		meta(sym, "object", "true")
	case "companion_object":
		meta(sym, "companion", "true")
	}
	if tp := childOfType(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.within(sym, func() {
		ktAnnotations(w, n)
		ktNode(w, childOfType(n, "type_parameters"))
		ktClassParameters(w, childOfType(n, "primary_constructor"))
		ktSupertypes(w, sym, n)
		w.walk(childOfType(n, "class_body", "enum_class_body"), ktNode)
	})
}

// ktAnnotations records the annotation classes among n's modifiers as type usages.
func ktAnnotations(w *walker, n *Node) {
	for _, a := range childrenOfType(childOfType(n, "modifiers"), "annotation") {
		ktNode(w, a)
	}
	if a := ktLeadingAnnotation(n); a != nil {
		ktNode(w, a.NamedChild(0))
	}
}

// ktSupertypes records the delegation specifiers of a class: a superclass constructor call
// is extended, any other type (interfaces, delegated interfaces) implemented; an interface
// extends all of them.
func ktSupertypes(w *walker, sym *Symbol, n *Node) {
	specs := childrenOfType(n, "delegation_specifier")
	if ds := childOfType(n, "delegation_specifiers"); ds != nil {
		specs = append(specs, childrenOfType(ds, "delegation_specifier")...)
	}
	for _, s := range specs {
		c := s.NamedChild(0)
		if c == nil {
			continue
		}
		kind := Implements
		if c.Type() == "constructor_invocation" || sym.Kind == Interface {
			kind = Extends
		}
		if name := ktTypeName(c); name != nil {
			w.relate(sym, w.text(name), kind, s)
		}
		ktNode(w, s)
	}
}

// ktClassParameters records the val/var parameters of a primary constructor as properties.
func ktClassParameters(w *walker, pc *Node) {
	for _, p := range childrenOfType(pc, "class_parameter") {
		typ := childOfType(p, "user_type", "nullable_type", "function_type")
		if childOfType(p, "binding_pattern_kind") == nil {
			ktTypeRefs(w, typ)
			continue
		}
		sym := w.add(p, childOfType(p, "simple_identifier"), Property)
		if sym == nil {
			continue
		}
		mods := ktModifiers(w, p)
		sym.Visibility = ktVisibility(w, mods)
		meta(sym, "constructor_parameter", "true")
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() { ktTypeRefs(w, typ) })
	}
}

// ktFunction records a function (method in a type, operator with the operator modifier,
// extension function with its receiver) with its return type, parameters and body.
func ktFunction(w *walker, n *Node) {
	mods := ktModifiers(w, n)
	kind := Function
	if c := w.container(); c != nil && !ktInFunction(w) {
		kind = Method
	}
	if mods["operator"] {
		kind = Operator
	}
	name := childOfType(n, "simple_identifier")
	sym := w.add(n, name, kind)
	if sym == nil {
		return
	}
	ktSetup(w, sym, n, mods)
	var receiver, ret *Node
	params := childOfType(n, "function_value_parameters")
	for _, c := range namedChildren(n) {
		if !ktIsType(c) {
			continue
		}
		if name != nil && c.StartByte() < name.StartByte() {
			receiver = c
		} else if params != nil && c.StartByte() > params.StartByte() {
			ret = c
		}
	}
	meta(sym, "receiver", w.text(receiver))
	if tp := childOfType(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.typeInfo(sym, "return", ret)
	w.within(sym, func() {
		ktAnnotations(w, n)
		ktTypeRefs(w, receiver)
		ktTypeRefs(w, ret)
		ktNode(w, childOfType(n, "type_parameters"))
		ktNode(w, params)
		ktNode(w, childOfType(n, "function_body"))
	})
}

// ktIsType reports whether n is a type node.
func ktIsType(n *Node) bool {
	switch n.Type() {
	case "user_type", "nullable_type", "function_type", "parenthesized_type", "dynamic_type":
		return true
	}
	return false
}

// ktProperty records a property outside function bodies: a constant with const, a
// variable at top level, a property in a type. Local variables only have their uses
// recorded.
func ktProperty(w *walker, n *Node) {
	decl := childOfType(n, "variable_declaration")
	var typ *Node
	for _, c := range namedChildren(decl) {
		if ktIsType(c) {
			typ = c
		}
	}
	if ktInFunction(w) {
		ktTypeRefs(w, typ)
		for _, c := range namedChildren(n) {
			if c != decl {
				ktNode(w, c)
			}
		}
		return
	}
	mods := ktModifiers(w, n)
	kind := Property
	switch {
	case mods["const"]:
		kind = Constant
	case w.container() == nil:
		kind = Variable
	}
	sym := w.add(n, childOfType(decl, "simple_identifier"), kind)
	if sym == nil {
		return
	}
	ktSetup(w, sym, n, mods)
	if ktLeadingAnnotation(n) == nil {
		sym.Signature = jvmValueSignature(w, n, csLastNamed(n))
	}
	if mods["lateinit"] {
		meta(sym, "lateinit", "true")
	}
	w.typeInfo(sym, "declared", typ)
	w.within(sym, func() {
		ktAnnotations(w, n)
		ktTypeRefs(w, typ)
		for _, c := range namedChildren(n) {
			if c != decl && c.Type() != "modifiers" {
				ktNode(w, c)
			}
		}
	})
}

// ktConstructor records a secondary constructor, named after its class.
func ktConstructor(w *walker, n *Node) {
	name := "constructor"
	if c := w.container(); c != nil {
		name = c.Name
	}
	sym := w.addNamed(n, name, Constructor)
	if sym == nil {
		return
	}
	ktSetup(w, sym, n, ktModifiers(w, n))
	w.within(sym, func() {
		ktAnnotations(w, n)
		for _, c := range namedChildren(n) {
			if c.Type() != "modifiers" {
				ktNode(w, c)
			}
		}
	})
}

// ktEnumEntry records an enum entry (public) and what its arguments and body use.
func ktEnumEntry(w *walker, n *Node) {
	sym := w.add(n, childOfType(n, "simple_identifier"), EnumMember)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	sym.DocComment = javaDoc(w, n)
	sym.Signature = strings.TrimRight(sym.Signature, ",;")
	w.within(sym, func() {
		ktNode(w, childOfType(n, "value_arguments"))
		w.walk(childOfType(n, "class_body"), ktNode)
	})
}

// ktTypeAlias records a typealias with its target type.
func ktTypeAlias(w *walker, n *Node) {
	sym := w.add(n, childOfType(n, "type_identifier"), Type)
	if sym == nil {
		return
	}
	ktSetup(w, sym, n, ktModifiers(w, n))
	var target *Node
	for _, c := range namedChildren(n) {
		if ktIsType(c) {
			target = c
		}
	}
	w.typeInfo(sym, "alias", target)
	w.within(sym, func() { ktTypeRefs(w, target) })
}

// ktClassBody returns the body of a class: its class_body or enum_class_body, or the lambda
// the grammar makes of the body after a delegation (`: Iterable<T> by items { ... }`).
func ktClassBody(n *Node) *Node {
	if b := childOfType(n, "class_body", "enum_class_body"); b != nil {
		return b
	}
	specs := childrenOfType(n, "delegation_specifier")
	if len(specs) == 0 {
		return nil
	}
	for c := specs[len(specs)-1]; c != nil; c = csLastNamed(c) {
		if c.Type() == "annotated_lambda" {
			return c
		}
	}
	return nil
}
