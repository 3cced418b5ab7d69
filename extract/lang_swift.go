package extract

import (
	"strings"
)

func init() { register("swift", extractSwift) }

// swiftMetaExtension marks the members of an extension with the extended type's name.
const swiftMetaExtension = "extension"

// swiftTypeLeaves are the node types of type names recorded as type usages.
var swiftTypeLeaves = []string{"type_identifier"}

// extractSwift walks a Swift file: imports, top-level constants and variables, classes,
// structs, enums and their cases, actors, protocols, extensions (their members attach to the
// extended type when the file defines it), functions, initializers, subscripts, operators and
// type aliases.
func extractSwift(w *walker, root *Node) {
	w.walk(root, swiftNode)
	swiftAttachExtensions(w)
}

// swiftAttachExtensions makes the members of an extension children of the extended type
// when the file defines it, and records the protocols the extension adds as implements.
func swiftAttachExtensions(w *walker) {
	types := map[string]*Symbol{}
	for _, s := range w.syms {
		switch s.Kind {
		case Class, Struct, Enum, Interface:
			if _, ok := types[s.Name]; !ok {
				types[s.Name] = s
			}
		}
	}
	for _, s := range w.syms {
		if t := types[s.Metadata[swiftMetaExtension]]; t != nil && s.Metadata[swiftMetaExtension] != "" {
			s.ParentID = t.ID
		}
	}
	for i, r := range w.f.Relationships {
		if r.Kind == Implements && strings.HasPrefix(r.FromID, "ext:") {
			if t := types[r.FromName]; t != nil {
				w.f.Relationships[i].FromID = t.ID
			}
		}
	}
	rels := w.f.Relationships[:0]
	for _, r := range w.f.Relationships {
		if !strings.HasPrefix(r.FromID, "ext:") {
			rels = append(rels, r)
		}
	}
	w.f.Relationships = rels
}

// swiftInBody reports whether the innermost container has a body of statements (a
// function-like symbol or a computed property), where declarations are locals.
func swiftInBody(w *walker) bool {
	c := w.container()
	return c != nil && c.Kind.HasBody()
}

// swiftNode extracts n: a definition, a use of a name, or a node to walk through.
func swiftNode(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "import_declaration":
		name := childOfType(n, "identifier")
		if sym := w.importName(n, name, w.text(name)); sym != nil {
			sym.DocComment = ""
		}
		return
	case "class_declaration":
		swiftType(w, n)
		return
	case "protocol_declaration":
		swiftProtocol(w, n)
		return
	case "property_declaration", "protocol_property_declaration":
		swiftProperty(w, n)
		return
	case "function_declaration", "protocol_function_declaration", "init_declaration", "deinit_declaration", "subscript_declaration":
		swiftFunc(w, n)
		return
	case "typealias_declaration", "associatedtype_declaration":
		swiftTypeAlias(w, n)
		return
	case "operator_declaration":
		name := childOfType(n, "custom_operator")
		if sym := swiftAdd(w, n, name, Operator); sym != nil {
			meta(sym, "declaration", "true")
		}
		return
	case "call_expression":
		if callee := n.NamedChild(0); callee != nil {
			w.call(callee)
			if callee.Type() == "navigation_expression" {
				swiftNode(w, field(callee, "target"))
			}
		}
		for _, c := range namedChildren(n)[1:] {
			swiftNode(w, c)
		}
		return
	case "navigation_expression":
		w.member(lastName(field(n, "suffix")), n, MemberAccess)
		swiftNode(w, field(n, "target"))
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "value_argument", "control_transfer_statement", "assignment":
		for _, f := range []string{"value", "result"} {
			if v := field(n, f); v != nil && v.Type() == "simple_identifier" {
				w.ident(v, VariableRef)
			}
		}
	case "comment", "multiline_comment":
		return
	}
	w.walk(n, swiftNode)
}

// swiftVisibility reads a declaration's access modifier; without one, a member of a
// protocol or enum takes its owner's and anything else is internal. public and open are
// public.
func swiftVisibility(w *walker, n *Node) Visibility {
	for _, m := range childrenOfType(childOfType(n, "modifiers"), "visibility_modifier") {
		t := w.text(m)
		if strings.Contains(t, "(") { // private(set) restricts only the setter
			continue
		}
		switch t {
		case "public", "open":
			return Public
		case "internal":
			return Internal
		case "fileprivate":
			return FilePrivate
		case "private":
			return Private
		}
	}
	if c := w.container(); c != nil && (c.Kind == Interface || c.Kind == Enum && n.Type() == "enum_entry") {
		return c.Visibility
	}
	return Internal
}

// swiftDoc returns the doc comments (/// and /** */) right above n.
func swiftDoc(w *walker, n *Node) string {
	var parts []string
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil && int(p.EndPoint().Row) >= line-1; p = p.PrevSibling() {
		t := w.text(p)
		if !(p.Type() == "comment" && strings.HasPrefix(t, "///") || p.Type() == "multiline_comment" && strings.HasPrefix(t, "/**")) {
			break
		}
		parts = append(parts, t)
		line = int(p.StartPoint().Row)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return cleanComment(strings.Join(parts, "\n"))
}

// swiftAdd records a symbol with Swift's doc comments and visibility.
func swiftAdd(w *walker, n, nameNode *Node, kind Kind) *Symbol {
	return swiftAddNamed(w, n, w.text(nameNode), kind)
}

// swiftAddNamed is swiftAdd with the name given as text.
func swiftAddNamed(w *walker, n *Node, name string, kind Kind) *Symbol {
	sym := w.addNamed(n, name, kind)
	if sym == nil {
		return nil
	}
	sym.DocComment = swiftDoc(w, n)
	sym.Visibility = swiftVisibility(w, n)
	if c := w.container(); c != nil && c.Metadata[swiftMetaExtension] != "" && c.Kind == KindUnknown {
		meta(sym, swiftMetaExtension, c.Metadata[swiftMetaExtension])
	}
	return sym
}

// swiftKeyword returns which keyword (class, struct, enum, actor, extension) introduces a
// class_declaration.
func swiftKeyword(w *walker, n *Node) string {
	for _, k := range []string{"class", "struct", "enum", "actor", "extension"} {
		if w.hasChild(n, k) {
			return k
		}
	}
	return "class"
}

// swiftType records a class, struct, enum or actor with its members, or walks the members of
// an extension.
func swiftType(w *walker, n *Node) {
	keyword := swiftKeyword(w, n)
	name := field(n, "name")
	if keyword == "extension" {
		swiftExtension(w, n, w.text(lastName(name)))
		return
	}
	kind := map[string]Kind{"class": Class, "struct": Struct, "enum": Enum, "actor": Class}[keyword]
	sym := swiftAdd(w, n, name, kind)
	if sym == nil {
		w.walk(field(n, "body"), swiftNode)
		return
	}
	if keyword == "actor" {
		meta(sym, "actor", "true")
	}
	if tp := childOfType(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	for i, in := range childrenOfType(n, "inheritance_specifier") {
		rel := Implements
		if i == 0 && kind == Class {
			rel = Extends
		}
		w.relate(sym, w.text(lastName(in)), rel, in)
		w.typeRefs(in, swiftTypeLeaves...)
	}
	w.within(sym, func() { swiftMembers(w, sym, field(n, "body")) })
}

// swiftExtension walks the members of an extension of the type named typ; they are attached
// to it later when the file defines it.
func swiftExtension(w *walker, n *Node, typ string) {
	holder := &Symbol{ID: "ext:" + typ, Name: typ, Metadata: map[string]string{swiftMetaExtension: typ}}
	w.typeRefs(field(n, "name"), swiftTypeLeaves...)
	for _, in := range childrenOfType(n, "inheritance_specifier") {
		w.relate(holder, w.text(lastName(in)), Implements, in)
		w.typeRefs(in, swiftTypeLeaves...)
	}
	parent := w.container()
	w.within(holder, func() {
		for _, m := range namedChildren(field(n, "body")) {
			swiftMember(w, m, parent)
		}
	})
}

// swiftMember extracts one member of an extension, giving it the parent the extension sits
// in (the holder symbol of the extension is not recorded).
func swiftMember(w *walker, m *Node, parent *Symbol) {
	before := len(w.syms)
	swiftNode(w, m)
	for _, s := range w.syms[before:] {
		if strings.HasPrefix(s.ParentID, "ext:") {
			s.ParentID = ""
			if parent != nil {
				s.ParentID = parent.ID
			}
		}
	}
	for i := range w.f.Identifiers {
		if strings.HasPrefix(w.f.Identifiers[i].ContainingSymbolID, "ext:") {
			w.f.Identifiers[i].ContainingSymbolID = ""
			if parent != nil {
				w.f.Identifiers[i].ContainingSymbolID = parent.ID
			}
		}
	}
}

// swiftMembers walks a class, struct or enum body; enum cases become enum members.
func swiftMembers(w *walker, owner *Symbol, body *Node) {
	for _, m := range namedChildren(body) {
		if m.Type() != "enum_entry" {
			swiftNode(w, m)
			continue
		}
		for i := 0; i < int(m.ChildCount()); i++ {
			if m.FieldNameForChild(i) != "name" {
				continue
			}
			if sym := swiftAdd(w, m, m.Child(i), EnumMember); sym != nil {
				sym.Visibility = owner.Visibility
			}
		}
		w.typeRefs(field(m, "data_contents"), swiftTypeLeaves...)
	}
}

// swiftProtocol records a protocol and its requirements.
func swiftProtocol(w *walker, n *Node) {
	sym := swiftAdd(w, n, field(n, "name"), Interface)
	if sym == nil {
		return
	}
	for _, in := range childrenOfType(n, "inheritance_specifier") {
		w.relate(sym, w.text(lastName(in)), Extends, in)
		w.typeRefs(in, swiftTypeLeaves...)
	}
	w.within(sym, func() { w.walk(field(n, "body"), swiftNode) })
}

// swiftProperty records a property (a constant or variable at file level, a property in a
// type; a static let is a constant). Locals inside functions only have their values walked.
func swiftProperty(w *walker, n *Node) {
	if swiftInBody(w) {
		w.walk(n, swiftNode)
		return
	}
	binding := childOfType(n, "value_binding_pattern")
	isLet := binding != nil && w.text(binding) == "let"
	if n.Type() == "protocol_property_declaration" {
		binding = childOfType(field(n, "name"), "value_binding_pattern")
	}
	kind := Property
	switch {
	case w.container() == nil && isLet:
		kind = Constant
	case w.container() == nil:
		kind = Variable
	case isLet && swiftIsStatic(w, n):
		kind = Constant
	}
	typ := childOfType(n, "type_annotation")
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) != "name" {
			continue
		}
		sym := swiftAdd(w, n, swiftBoundName(n.Child(i)), kind)
		if sym == nil {
			continue
		}
		if end := childOfType(n, "computed_property", "protocol_property_requirements"); end != nil {
			sym.Signature = w.signatureRange(int(n.StartByte()), int(end.StartByte()))
		}
		if isLet && kind == Property {
			meta(sym, "let", "true")
		}
		if swiftIsStatic(w, n) {
			meta(sym, "static", "true")
		}
		w.typeInfo(sym, "declared", field(typ, "name"))
		w.within(sym, func() {
			w.typeRefs(typ, swiftTypeLeaves...)
			for _, c := range namedChildren(n) {
				if c.Type() != "pattern" && c.Type() != "type_annotation" && c.Type() != "modifiers" {
					swiftNode(w, c)
				}
			}
		})
	}
}

// swiftBoundName returns the name a property pattern binds.
func swiftBoundName(p *Node) *Node {
	if b := field(p, "bound_identifier"); b != nil {
		return b
	}
	if p != nil && p.Type() == "simple_identifier" {
		return p
	}
	return childOfType(p, "simple_identifier")
}

// swiftIsStatic reports whether a declaration is static or class-level.
func swiftIsStatic(w *walker, n *Node) bool {
	for _, m := range namedChildren(childOfType(n, "modifiers")) {
		if t := w.text(m); t == "static" || t == "class" {
			return true
		}
	}
	return false
}

// swiftFunc records a function, method, operator, initializer, deinitializer or subscript
// and walks its body.
func swiftFunc(w *walker, n *Node) {
	kind := Function
	if c := w.container(); c != nil && !swiftInBody(w) {
		kind = Method
	}
	name := w.text(field(n, "name"))
	switch n.Type() {
	case "init_declaration":
		kind, name = Constructor, "init"
	case "deinit_declaration":
		kind, name = Destructor, "deinit"
	case "subscript_declaration":
		name = "subscript"
	default:
		if op := swiftOperatorName(w, n); op != "" {
			kind, name = Operator, op
		}
	}
	sym := swiftAddNamed(w, n, name, kind)
	if sym == nil {
		return
	}
	if body := childOfType(n, "computed_property"); body != nil {
		sym.Signature = w.signatureRange(int(n.StartByte()), int(body.StartByte()))
	}
	if swiftIsStatic(w, n) {
		meta(sym, "static", "true")
	}
	ret := swiftReturnType(n)
	w.typeInfo(sym, "return", ret)
	w.within(sym, func() {
		for _, p := range childrenOfType(n, "parameter", "type_parameters") {
			w.typeRefs(p, swiftTypeLeaves...)
		}
		w.typeRefs(ret, swiftTypeLeaves...)
		w.walk(childOfType(n, "function_body", "computed_property"), swiftNode)
	})
}

// swiftOperatorName returns the operator a func declares (== of static func ==), or "": the
// token after the func keyword when it is not a name.
func swiftOperatorName(w *walker, n *Node) string {
	if n.Type() != "function_declaration" {
		return ""
	}
	for i := 0; i+1 < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == "func" {
			if next := n.Child(i + 1); !next.IsNamed() && next.Type() != "(" {
				return w.text(next)
			}
			return ""
		}
	}
	return ""
}

// swiftReturnType returns the type after -> in a function declaration, or nil.
func swiftReturnType(n *Node) *Node {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.Type() == "->" {
			for s := c.NextSibling(); s != nil; s = s.NextSibling() {
				if s.IsNamed() {
					return s
				}
			}
		}
	}
	return nil
}

// swiftTypeAlias records a typealias (or a protocol's associatedtype) with its target.
func swiftTypeAlias(w *walker, n *Node) {
	name := field(n, "name")
	sym := swiftAdd(w, n, name, Type)
	if sym == nil {
		return
	}
	kids := namedChildren(n)
	if target := kids[len(kids)-1]; target != name && n.Type() == "typealias_declaration" {
		w.typeInfo(sym, "alias", target)
		w.within(sym, func() { w.typeRefs(target, swiftTypeLeaves...) })
	}
}
