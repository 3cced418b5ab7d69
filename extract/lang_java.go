package extract

import (
	"strings"
)

func init() { register("java", extractJava) }

// javaDocPrefix starts a Javadoc comment (also KDoc and Scaladoc).
const javaDocPrefix = "/**"

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
		obj := field(n, "object")
		if name := field(n, "name"); obj != nil && name != nil {
			javaMemberUse(w, name, obj, Call)
			w.relateCall(name)
		} else {
			w.callIn(name, n)
		}
		javaNode(w, obj)
		w.walk(field(n, "type_arguments"), javaNode)
		javaNode(w, field(n, "arguments"))
		return
	case "object_creation_expression":
		typ := field(n, "type")
		javaCreated(w, typ)
		if typ != nil && typ.Type() == "generic_type" {
			javaTypes(w, childOfType(typ, "type_arguments"))
		}
		javaNode(w, field(n, "arguments"))
		w.walk(childOfType(n, "class_body"), javaNode)
		return
	case "field_access":
		javaMemberUse(w, field(n, "field"), field(n, "object"), MemberAccess)
		javaNode(w, field(n, "object"))
		return
	case "method_reference":
		if kids := namedChildren(n); len(kids) > 1 {
			if last := kids[len(kids)-1]; last.Type() == "identifier" {
				before := len(w.f.Identifiers)
				javaMemberUse(w, last, kids[0], MemberAccess)
				if ids := w.f.Identifiers; len(ids) > before && ids[len(ids)-1].Qualifier != "?" {
					ids[len(ids)-1].Qualifier += "::" // X::m: a method (or a field's value)
				}
			}
			javaNode(w, kids[0])
		}
		return
	case "identifier":
		if !javaDeclName(n) { // a name used as a value: a local, a parameter, a field, a type
			w.ident(n, VariableRef)
		}
		return
	case "scoped_identifier": // a package or module name (package, import, module directives)
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "scoped_type_identifier":
		javaScopedType(w, n, TypeUsage)
		return
	case "marker_annotation", "annotation":
		w.ident(lastName(field(n, "name")), TypeUsage)
		w.walk(field(n, "arguments"), javaNode)
		return
	}
	w.walk(n, javaNode)
}

// javaDeclName reports whether the identifier n is the name a declaration binds (a local, a
// parameter, a lambda's or a pattern's variable, a label, an annotation element's key)
// rather than a use.
func javaDeclName(n *Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Type() {
	case "variable_declarator", "formal_parameter", "catch_formal_parameter", "enhanced_for_statement",
		"resource", "instanceof_expression", "receiver_parameter":
		return p.ChildByFieldName("name") == n
	case "lambda_expression": // x -> ...; not case X -> ... (a switch rule the grammar reads as a lambda)
		gp := p.Parent()
		return p.ChildByFieldName("parameters") == n && (gp == nil || gp.Type() != "switch_label")
	case "inferred_parameters", "labeled_statement", "break_statement", "continue_statement",
		"type_pattern", "record_pattern_component":
		return true
	case "element_value_pair":
		return p.ChildByFieldName("key") == n
	}
	return false
}

// javaMemberUse records the use of the name n looked up in the expression obj (a.b of
// a.b.c, the receiver of x.m()): the qualifier is obj's text with the space between its
// parts taken out, so that a chain written over lines (builder\n.add()) keeps one; a
// qualifier too long to record is "?" (a use on something, never a bare name).
func javaMemberUse(w *walker, n, obj *Node, kind IdentKind) {
	if n == nil {
		return
	}
	name := w.text(n)
	if name == "" || len(name) > maxNameRunes {
		return
	}
	q := ""
	if obj != nil {
		q = javaCompact(w.text(obj))
		if q == "" || len(q) > maxQualifierBytes {
			q = "?"
		}
	}
	id := Identifier{Name: name, Kind: kind, Span: w.span(n), Qualifier: q}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}

// javaCompact returns Java source text with its line breaks, indentation and comments taken
// out and the runs of other spaces made one: "a\n    .b()" is "a.b()".
func javaCompact(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteString(s[i : j+1])
			i = j
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			space = b.Len() > 0
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 3
			} else {
				i = len(s)
			}
			space = b.Len() > 0
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			space = b.Len() > 0
		default:
			if space {
				prev := b.String()[b.Len()-1]
				if isJavaWordByte(prev) && isJavaWordByte(c) {
					b.WriteByte(' ')
				}
				space = false
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isJavaWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// javaScopedType records the parts of a qualified type (Event.WriteFinished,
// java.util.Map.Entry) that name types: the last with kind, each earlier one that starts
// with an upper-case letter (not a package's) as a type usage; each with the text before it
// as its qualifier.
func javaScopedType(w *walker, n *Node, kind IdentKind) {
	ids := childrenOfType(n, "type_identifier")
	if inner := childOfType(n, "scoped_type_identifier", "generic_type"); inner != nil {
		if inner.Type() == "scoped_type_identifier" {
			javaScopedType(w, inner, TypeUsage)
		} else {
			javaNode(w, inner)
		}
	} else if len(ids) > 1 {
		if first := ids[0]; isUpperStart(w.text(first)) {
			w.ident(first, TypeUsage)
		}
	}
	if len(ids) == 0 {
		return
	}
	last := ids[len(ids)-1]
	if kind != TypeUsage || isUpperStart(w.text(last)) || n.Parent() == nil || n.Parent().Type() != "scoped_type_identifier" {
		w.member(last, n, kind)
	}
}

func isUpperStart(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// javaCreated records the type of new T(...) as a call of T (with the qualifier of
// new Outer.Inner(...)), the type's other parts as type usages.
func javaCreated(w *walker, typ *Node) {
	if typ == nil {
		return
	}
	switch typ.Type() {
	case "generic_type", "annotated_type":
		javaCreated(w, childOfType(typ, "type_identifier", "scoped_type_identifier", "generic_type"))
	case "scoped_type_identifier":
		javaScopedType(w, typ, Call)
		if name := javaTypeName(typ); name != nil {
			w.relateCall(name)
		}
	case "type_identifier":
		w.call(typ)
	}
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
	wild := childOfType(n, "asterisk") != nil
	if wild {
		full += ".*"
	}
	static := w.hasChild(n, "static")
	sym := w.importName(n, nil, full)
	if sym != nil {
		sym.Signature = strings.TrimSuffix(sym.Signature, ";")
		if static {
			meta(sym, "static", "true")
		}
	}
	// the name the import names, looked up in what precedes it: HttpHandler of
	// com.sun.net.httpserver (a type of that package), m of static a.b.C.m (a member of C),
	// and C of static a.b.C.* (a type)
	// (and the types before it: Outer of a.b.Outer.Inner)
	for n, first := name, true; n != nil && n.Type() == "scoped_identifier"; n, first = field(n, "scope"), false {
		last := field(n, "name")
		if first && !(wild && !static) || last != nil && isUpperStart(w.text(last)) {
			javaMemberUse(w, last, field(n, "scope"), ImportRef)
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
		javaTypes(w, field(n, "type_parameters"))
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
		javaTypes(w, t)
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
		javaTypes(w, field(p, "type"))
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
			javaTypes(w, field(n, f))
		}
		javaTypes(w, childOfType(n, "throws"))
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
				javaTypes(w, typ)
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

// javaTypes records the uses of names in a type, a type list or a parameter list.
func javaTypes(w *walker, n *Node) {
	if n != nil {
		javaNode(w, n)
	}
}
