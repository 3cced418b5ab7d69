package extract

import (
	"strings"
)

func init() { register("java", extractJava) }

// javaDocPrefix starts a Javadoc comment (also KDoc and Scaladoc).
const javaDocPrefix = "/**"

// javaTypeLeaves are the node types that spell a type name in Java.
var javaTypeLeaves = []string{"type_identifier"}

// extractJava walks a Java file: package, imports, classes, interfaces, enums, records and
// annotation types with their fields, constants, methods and constructors.
func extractJava(w *walker, root *Node) {
	w.walk(root, javaNode)
}

// javaNode is the visitor of every Java node: definitions become symbols, the uses of names
// inside them identifiers.
func javaNode(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "package_declaration":
		name := childOfType(n, "scoped_identifier", "identifier")
		if sym := w.addNamed(n, w.text(name), Namespace); sym != nil {
			sym.Visibility = Public
			sym.DocComment = javaDoc(w, n)
			sym.Signature = strings.TrimSuffix(sym.Signature, ";")
		}
		return
	case "import_declaration":
		javaImport(w, n)
		return
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
		javaType(w, n)
		return
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
		javaMethod(w, n)
		return
	case "field_declaration", "constant_declaration":
		javaField(w, n)
		return
	case "enum_constant":
		javaEnumConstant(w, n)
		return
	case "method_invocation":
		w.callIn(field(n, "name"), n)
		javaNode(w, field(n, "object"))
		w.walk(field(n, "type_arguments"), javaNode)
		javaNode(w, field(n, "arguments"))
		return
	case "object_creation_expression":
		typ := field(n, "type")
		w.call(javaTypeName(typ))
		if typ != nil && typ.Type() == "generic_type" {
			w.typeRefs(childOfType(typ, "type_arguments"), javaTypeLeaves...)
		}
		javaNode(w, field(n, "arguments"))
		w.walk(childOfType(n, "class_body"), javaNode)
		return
	case "field_access":
		w.member(field(n, "field"), n, MemberAccess)
		javaNode(w, field(n, "object"))
		return
	case "method_reference":
		if names := childrenOfType(n, "identifier"); len(names) > 1 {
			w.member(names[len(names)-1], n, MemberAccess)
		}
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "scoped_type_identifier":
		w.member(javaTypeName(n), n, TypeUsage)
		return
	case "marker_annotation", "annotation":
		w.ident(lastName(field(n, "name")), TypeUsage)
		w.walk(field(n, "arguments"), javaNode)
		return
	case "argument_list", "return_statement":
		w.valueRefs("identifier", namedChildren(n)...)
	case "assignment_expression":
		w.valueRefs("identifier", field(n, "right"))
	case "variable_declarator":
		w.valueRefs("identifier", field(n, "value"))
	}
	w.walk(n, javaNode)
}

// javaTypeName returns the name leaf of a type: List in java.util.List<String>.
func javaTypeName(t *Node) *Node {
	for t != nil {
		switch t.Type() {
		case "type_identifier", "identifier":
			return t
		case "generic_type", "annotated_type":
			t = childOfType(t, "type_identifier", "scoped_type_identifier", "generic_type")
		case "scoped_type_identifier":
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

// javaImport records an import declaration: the dotted name, with .* for an on-demand import.
func javaImport(w *walker, n *Node) {
	name := childOfType(n, "scoped_identifier", "identifier")
	if name == nil {
		return
	}
	full := w.text(name)
	if childOfType(n, "asterisk") != nil {
		full += ".*"
	}
	sym := w.importName(n, name, full)
	if sym != nil {
		sym.Signature = strings.TrimSuffix(sym.Signature, ";")
		if w.hasChild(n, "static") {
			meta(sym, "static", "true")
		}
	}
}

// javaKinds maps a type declaration node to its symbol kind.
var javaKinds = map[string]Kind{
	"class_declaration": Class, "interface_declaration": Interface, "enum_declaration": Enum,
	"record_declaration": Class, "annotation_type_declaration": Interface,
}

// javaType records a class, interface, enum, record or annotation type with its supertypes
// and members.
func javaType(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), javaKinds[n.Type()])
	if sym == nil {
		return
	}
	javaSetup(w, sym, n)
	switch n.Type() {
	case "record_declaration":
		meta(sym, "record", "true")
	case "annotation_type_declaration":
		meta(sym, "annotation", "true")
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.within(sym, func() {
		javaModifierRefs(w, n)
		w.typeRefs(field(n, "type_parameters"), javaTypeLeaves...)
		if sc := field(n, "superclass"); sc != nil {
			javaSupertypes(w, sym, sc, Extends)
		}
		if si := field(n, "interfaces"); si != nil {
			javaSupertypes(w, sym, si, Implements)
		}
		if ei := childOfType(n, "extends_interfaces"); ei != nil {
			javaSupertypes(w, sym, ei, Extends)
		}
		if n.Type() == "record_declaration" {
			javaRecordComponents(w, field(n, "parameters"))
		}
		body := bodyOf(n)
		w.walk(body, javaNode)
	})
}

// javaSupertypes records a relationship of kind from sym to each type listed under n
// (superclass, super_interfaces, extends_interfaces) and the type usages in them.
func javaSupertypes(w *walker, sym *Symbol, n *Node, kind RelKind) {
	var types []*Node
	for _, c := range namedChildren(n) {
		if c.Type() == "type_list" {
			types = append(types, namedChildren(c)...)
		} else {
			types = append(types, c)
		}
	}
	for _, t := range types {
		if name := javaTypeName(t); name != nil {
			w.relate(sym, w.text(name), kind, t)
		}
		w.typeRefs(t, javaTypeLeaves...)
	}
}

// javaRecordComponents records the components of a record header as its fields.
func javaRecordComponents(w *walker, params *Node) {
	for _, p := range childrenOfType(params, "formal_parameter") {
		f := w.add(p, field(p, "name"), Field)
		if f == nil {
			continue
		}
		f.Visibility = Private
		meta(f, "record_component", "true")
		w.typeInfo(f, "declared", field(p, "type"))
		w.typeRefs(field(p, "type"), javaTypeLeaves...)
	}
}

// javaSetup fills what every Java member shares: Javadoc, visibility and static.
func javaSetup(w *walker, sym *Symbol, n *Node) {
	sym.DocComment = javaDoc(w, n)
	sym.Visibility = javaVisibility(w, n)
	mods := childOfType(n, "modifiers")
	if w.hasChild(mods, "static") {
		meta(sym, "static", "true")
	}
	if w.hasChild(mods, "abstract") {
		meta(sym, "abstract", "true")
	}
}

// javaVisibility applies Java's rules: an access modifier, else public for interface and
// annotation members, else package-private; locals of a method have none.
func javaVisibility(w *walker, n *Node) Visibility {
	mods := childOfType(n, "modifiers")
	for _, v := range []Visibility{Public, Protected, Private} {
		if w.hasChild(mods, string(v)) {
			return v
		}
	}
	switch c := w.container(); {
	case c == nil:
		return Package
	case c.Kind == Interface:
		return Public
	case c.Kind == Enum && n.Type() == "constructor_declaration":
		return Private
	case c.Kind.IsCallable():
		return ""
	}
	return Package
}

// javaModifierRefs records the annotations among n's modifiers as type usages.
func javaModifierRefs(w *walker, n *Node) {
	for _, a := range childrenOfType(childOfType(n, "modifiers"), "marker_annotation", "annotation") {
		javaNode(w, a)
	}
}

// javaMethod records a method, constructor or annotation element with its return type and
// the uses of names in its parameters and body.
func javaMethod(w *walker, n *Node) {
	kind := Method
	if n.Type() == "constructor_declaration" || n.Type() == "compact_constructor_declaration" {
		kind = Constructor
	}
	sym := w.add(n, field(n, "name"), kind)
	if sym == nil {
		return
	}
	javaSetup(w, sym, n)
	sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.typeInfo(sym, "return", field(n, "type"))
	w.within(sym, func() {
		javaModifierRefs(w, n)
		for _, f := range []string{"type_parameters", "type", "parameters"} {
			w.typeRefs(field(n, f), javaTypeLeaves...)
		}
		w.typeRefs(childOfType(n, "throws"), javaTypeLeaves...)
		w.walk(field(n, "body"), javaNode)
	})
}

// javaField records one symbol per declarator of a field or interface constant: a constant
// when static final (or in an interface), else a field.
func javaField(w *walker, n *Node) {
	typ := field(n, "type")
	mods := childOfType(n, "modifiers")
	kind := Field
	if n.Type() == "constant_declaration" || (w.hasChild(mods, "static") && w.hasChild(mods, "final")) {
		kind = Constant
	}
	head := ""
	if typ != nil {
		head = string(w.src[n.StartByte():typ.EndByte()])
	}
	for i, d := range childrenOfType(n, "variable_declarator") {
		sym := w.add(n, field(d, "name"), kind)
		if sym == nil {
			continue
		}
		javaSetup(w, sym, n)
		sym.Signature = oneLine(head+" "+w.text(d), maxSignatureRunes)
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() {
			if i == 0 { // the shared type and annotations are used by the first
				javaModifierRefs(w, n)
				w.typeRefs(typ, javaTypeLeaves...)
			}
			javaNode(w, d)
		})
	}
}

// javaEnumConstant records an enum constant (public) and what its arguments and body use.
func javaEnumConstant(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), EnumMember)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	sym.DocComment = javaDoc(w, n)
	w.within(sym, func() {
		w.walk(field(n, "arguments"), javaNode)
		w.walk(field(n, "body"), javaNode)
	})
}

// javaDoc returns the /** */ comment right above n (annotations between them skipped), cleaned
// of its markers; other comments are not documentation. Java, Kotlin and Scala share it.
func javaDoc(w *walker, n *Node) string {
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 {
			return ""
		}
		switch {
		case isAttribute(p.Type()):
			line = int(p.StartPoint().Row)
			continue
		case commentTypes[p.Type()]:
			return javaDocText(w, p)
		}
		return javaDocText(w, javaTrailingComment(p))
	}
	return ""
}

// javaDocText returns the cleaned text of the comment c when it is a /** */ doc comment.
func javaDocText(w *walker, c *Node) string {
	if t := w.text(c); strings.HasPrefix(t, javaDocPrefix) && t != "/**/" {
		return cleanComment(t)
	}
	return ""
}

// javaTrailingComment returns the comment that ends the node p, which some grammars (Kotlin's
// import list) keep inside the node before a declaration instead of beside it, or nil.
func javaTrailingComment(p *Node) *Node {
	for p != nil && p.ChildCount() > 0 {
		p = p.Child(int(p.ChildCount()) - 1)
	}
	if p != nil && commentTypes[p.Type()] {
		return p
	}
	return nil
}
