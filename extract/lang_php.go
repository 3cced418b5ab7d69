package extract

import (
	"strings"
)

func init() { register("php", extractPHP) }

// PHP magic method names that are constructors and destructors.
const (
	phpConstructor = "__construct"
	phpDestructor  = "__destruct"
)

// phpModifiers are the modifier node types recorded as metadata on classes and members.
var phpModifiers = map[string]string{
	"static_modifier": "static", "abstract_modifier": "abstract", "final_modifier": "final",
	"readonly_modifier": "readonly",
}

// phpRelativeNames are the names that stand for a class relative to the current one.
var phpRelativeNames = map[string]bool{"self": true, "static": true, "parent": true}

// phpIncludes are the node types of include and require expressions.
var phpIncludes = map[string]bool{
	"include_expression": true, "include_once_expression": true, "require_expression": true, "require_once_expression": true,
}

// phpExtractor holds the state of one PHP extraction: the global variables already recorded
// for each container, so that only the first assignment of a name defines it.
type phpExtractor struct {
	w       *walker
	globals map[string]bool
}

// extractPHP walks a PHP file: namespaces (braced, or the statement form that holds the rest
// of the file), use imports and include/require, constants (const and define), functions,
// classes, interfaces, traits and enums with their constants, properties (promoted
// constructor parameters too), methods, constructors, destructors and enum cases, global
// variables, and the calls, member accesses and type usages inside them.
func extractPHP(w *walker, root *Node) {
	x := &phpExtractor{w: w, globals: map[string]bool{}}
	var ns *Symbol
	w.walk(root, func(_ *walker, c *Node) {
		if c.Type() == "namespace_definition" && field(c, "body") == nil {
			ns = x.namespace(c)
			return
		}
		w.within(ns, func() { x.node(c) })
	})
}

// walk visits the named children of n.
func (x *phpExtractor) walk(n *Node) {
	x.w.walk(n, func(_ *walker, c *Node) { x.node(c) })
}

// atFileLevel reports whether definitions met now are global (file level or inside a
// namespace), not locals of a function.
func (x *phpExtractor) atFileLevel() bool {
	c := x.w.container()
	return c == nil || c.Kind == Namespace
}

// node visits one node of the tree.
func (x *phpExtractor) node(n *Node) {
	if n == nil {
		return
	}
	w := x.w
	switch n.Type() {
	case "namespace_definition":
		x.namespace(n)
		return
	case "namespace_use_declaration":
		x.use(n)
		return
	case "const_declaration":
		x.constants(n)
		return
	case "function_definition":
		x.function(n)
		return
	case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		x.class(n)
		return
	case "function_call_expression":
		x.functionCall(n)
		return
	case "member_call_expression", "nullsafe_member_call_expression":
		w.callIn(field(n, "name"), n)
		x.node(field(n, "object"))
		x.node(field(n, "arguments"))
		return
	case "scoped_call_expression":
		w.callIn(field(n, "name"), n)
		x.scope(field(n, "scope"))
		x.node(field(n, "arguments"))
		return
	case "object_creation_expression":
		if c := childOfType(n, "name", "qualified_name"); c != nil && !phpRelativeNames[strings.ToLower(w.text(c))] {
			w.call(c)
		}
		x.walk(childOfType(n, "arguments"))
		return
	case "member_access_expression", "nullsafe_member_access_expression":
		w.member(field(n, "name"), n, MemberAccess)
		x.node(field(n, "object"))
		return
	case "scoped_property_access_expression":
		w.ident(lastName(field(n, "name")), MemberAccess)
		x.scope(field(n, "scope"))
		return
	case "class_constant_access_expression":
		if cs := namedChildren(n); len(cs) == 2 {
			x.scope(cs[0])
			w.ident(cs[1], MemberAccess)
			return
		}
	case "named_type":
		if name := lastName(n); !phpRelativeNames[strings.ToLower(w.text(name))] {
			w.ident(name, TypeUsage)
		}
		return
	case "attribute":
		w.ident(lastName(childOfType(n, "name", "qualified_name")), TypeUsage)
		x.node(field(n, "parameters"))
		return
	case "arguments":
		for _, a := range childrenOfType(n, "argument") {
			x.variableRef(childOfType(a, "variable_name"))
		}
	case "return_statement":
		x.variableRef(childOfType(n, "variable_name"))
	case "assignment_expression":
		x.assignment(n)
		return
	default:
		if phpIncludes[n.Type()] {
			x.include(n)
			return
		}
	}
	x.walk(n)
}

// variableRef records a use of the variable n ($name gives name).
func (x *phpExtractor) variableRef(n *Node) {
	if n != nil && n.Type() == "variable_name" {
		x.w.ident(childOfType(n, "name"), VariableRef)
	}
}

// scope records the class named before :: (User::create) as a type usage; self, static and
// parent are not names.
func (x *phpExtractor) scope(n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "name", "qualified_name":
		x.w.ident(lastName(n), TypeUsage)
	case "relative_scope":
	default:
		x.node(n)
	}
}

// phpSignature returns the source of n up to its body on one line, without a trailing
// semicolon.
func phpSignature(w *walker, n *Node) string {
	return strings.TrimSpace(strings.TrimSuffix(w.signature(n, bodyOf(n)), ";"))
}

// namespace extracts a namespace; a braced one holds its body, the statement form holds the
// rest of the file (extractPHP does that).
func (x *phpExtractor) namespace(n *Node) *Symbol {
	w := x.w
	body := field(n, "body")
	sym := w.add(n, field(n, "name"), Namespace)
	if sym != nil {
		sym.Visibility = Public
		sym.Signature = phpSignature(w, n)
	}
	w.within(sym, func() { x.walk(body) })
	return sym
}

// use extracts the imports of a use declaration: use A\B as C; use function A\f;
// use A\{B, C}.
func (x *phpExtractor) use(n *Node) {
	w := x.w
	kind := ""
	for _, k := range []string{"function", "const"} {
		if w.hasChild(n, k) {
			kind = k
		}
	}
	clauses := childrenOfType(n, "namespace_use_clause")
	prefix := ""
	if group := childOfType(n, "namespace_use_group"); group != nil {
		prefix = w.text(childOfType(n, "namespace_name")) + `\`
		clauses = childrenOfType(group, "namespace_use_group_clause", "namespace_use_clause")
	}
	for _, c := range clauses {
		stmt := n
		if len(clauses) > 1 {
			stmt = c
		}
		nameNode := childOfType(c, "qualified_name", "namespace_name", "name")
		sym := w.importName(stmt, nameNode, prefix+strings.TrimPrefix(w.text(nameNode), `\`))
		if alias := childOfType(c, "namespace_aliasing_clause"); alias != nil {
			meta(sym, "alias", w.text(childOfType(alias, "name")))
		} else if alias := field(c, "alias"); alias != nil {
			meta(sym, "alias", w.text(alias))
		}
		meta(sym, "kind", kind)
	}
}

// include records include and require of a file as an import of the path it names.
func (x *phpExtractor) include(n *Node) {
	w := x.w
	s := phpLastString(n)
	if s == nil {
		x.walk(n)
		return
	}
	name := w.text(s)
	if c := childOfType(s, "string_content", "string_value"); c != nil {
		name = w.text(c)
	}
	meta(w.importName(n, s, name), "kind", strings.TrimSuffix(n.Type(), "_expression"))
}

// phpLastString returns the last string literal under n, the path part of
// __DIR__ . '/file.php'.
func phpLastString(n *Node) *Node {
	var found *Node
	for _, c := range namedChildren(n) {
		if c.Type() == "string" || c.Type() == "encapsed_string" {
			found = c
		} else if s := phpLastString(c); s != nil {
			found = s
		}
	}
	return found
}

// visibility returns a member's visibility modifier, public when it has none.
func (x *phpExtractor) visibility(n *Node) Visibility {
	if v := childOfType(n, "visibility_modifier"); v != nil {
		return Visibility(strings.ToLower(x.w.text(v)))
	}
	return Public
}

// modifiers records the static, abstract, final and readonly modifiers of n on sym.
func (x *phpExtractor) modifiers(sym *Symbol, n *Node) {
	for _, c := range namedChildren(n) {
		if m := phpModifiers[c.Type()]; m != "" {
			meta(sym, m, "true")
		}
	}
}

// constants extracts the constants of a const declaration (file level or class level).
func (x *phpExtractor) constants(n *Node) {
	w := x.w
	vis := x.visibility(n)
	for _, el := range childrenOfType(n, "const_element") {
		sym := w.add(n, childOfType(el, "name"), Constant)
		if sym == nil {
			continue
		}
		sym.Visibility = vis
		sym.Signature = phpSignature(w, n)
		x.modifiers(sym, n)
		w.within(sym, func() {
			for _, c := range namedChildren(el)[1:] {
				x.node(c)
			}
		})
	}
}

// functionCall records a call; define('NAME', value) at file level defines a constant.
func (x *phpExtractor) functionCall(n *Node) {
	w := x.w
	fn, args := field(n, "function"), field(n, "arguments")
	if w.text(fn) == "define" && x.atFileLevel() {
		if first := childOfType(childOfType(args, "argument"), "string", "encapsed_string"); first != nil {
			name := w.text(childOfType(first, "string_content", "string_value"))
			if sym := w.addNamed(n.Parent(), name, Constant); sym != nil {
				sym.Visibility = Public
				sym.Signature = phpSignature(w, n.Parent())
				meta(sym, "define", "true")
				w.within(sym, func() { x.node(args) })
				return
			}
		}
	}
	w.call(fn)
	if fn != nil && fn.Type() != "name" && fn.Type() != "qualified_name" {
		x.node(fn)
	}
	x.node(args)
}

// assignment records $global = value at file level as a global variable (its first
// assignment), and a variable reference for a plain variable on the right.
func (x *phpExtractor) assignment(n *Node) {
	w := x.w
	left, right := field(n, "left"), field(n, "right")
	x.variableRef(right)
	if left != nil && left.Type() == "variable_name" && x.atFileLevel() {
		name := w.text(childOfType(left, "name"))
		key := name
		if c := w.container(); c != nil {
			key = c.ID + "\x00" + name
		}
		if !x.globals[key] {
			x.globals[key] = true
			def := n
			if p := n.Parent(); p != nil && p.Type() == "expression_statement" {
				def = p
			}
			if sym := w.addNamed(def, name, Variable); sym != nil {
				sym.Signature = phpSignature(w, def)
				w.within(sym, func() { x.node(right) })
				return
			}
		}
	}
	x.node(left)
	x.node(right)
}

// function extracts a function definition.
func (x *phpExtractor) function(n *Node) {
	w := x.w
	sym := w.add(n, field(n, "name"), Function)
	if sym == nil {
		x.walk(field(n, "body"))
		return
	}
	sym.Visibility = Public
	sym.Signature = phpSignature(w, n)
	x.callable(sym, n)
}

// callable records a function's or method's return type and walks its attributes,
// parameters and body inside sym.
func (x *phpExtractor) callable(sym *Symbol, n *Node) {
	w := x.w
	ret := field(n, "return_type")
	w.typeInfo(sym, "return", ret)
	if childOfType(n, "reference_modifier") != nil {
		meta(sym, "by_ref", "true")
	}
	w.within(sym, func() {
		x.node(field(n, "attributes"))
		x.node(field(n, "parameters"))
		x.node(ret)
		x.node(field(n, "body"))
	})
}

// phpClassKinds maps the type declarations to symbol kinds.
var phpClassKinds = map[string]Kind{
	"class_declaration": Class, "interface_declaration": Interface, "trait_declaration": Trait, "enum_declaration": Enum,
}

// class extracts a class, interface, trait or enum with its bases and members.
func (x *phpExtractor) class(n *Node) {
	w := x.w
	kind := phpClassKinds[n.Type()]
	sym := w.add(n, field(n, "name"), kind)
	if sym == nil {
		x.walk(field(n, "body"))
		return
	}
	sym.Visibility = Public
	sym.Signature = phpSignature(w, n)
	x.modifiers(sym, n)
	if t := childOfType(n, "primitive_type", "named_type"); kind == Enum && t != nil {
		meta(sym, "backing_type", w.text(t))
	}
	w.within(sym, func() {
		x.node(field(n, "attributes"))
		for _, c := range childrenOfType(n, "base_clause", "class_interface_clause") {
			rel := Extends
			if c.Type() == "class_interface_clause" {
				rel = Implements
			}
			for _, b := range childrenOfType(c, "name", "qualified_name") {
				x.relate(sym, b, rel)
			}
		}
		x.members(sym, kind, field(n, "body"))
	})
}

// relate records a relationship of kind from sym to the class or interface named by b, and
// a type usage of it.
func (x *phpExtractor) relate(sym *Symbol, b *Node, kind RelKind) {
	name := lastName(b)
	if name == nil {
		return
	}
	x.w.relate(sym, strings.TrimPrefix(x.w.text(b), `\`), kind, b)
	x.w.ident(name, TypeUsage)
}

// members extracts the members of a class-like body.
func (x *phpExtractor) members(owner *Symbol, kind Kind, body *Node) {
	w := x.w
	for _, m := range namedChildren(body) {
		switch m.Type() {
		case "method_declaration":
			x.method(owner, kind, m)
		case "property_declaration":
			x.properties(m)
		case "const_declaration":
			x.constants(m)
		case "use_declaration": // trait use
			for _, t := range childrenOfType(m, "name", "qualified_name") {
				x.relate(owner, t, Uses)
			}
		case "enum_case":
			if s := w.add(m, field(m, "name"), EnumMember); s != nil {
				s.Visibility = Public
				s.Signature = phpSignature(w, m)
				w.within(s, func() { x.node(field(m, "value")) })
			}
		case "comment":
		default:
			x.node(m)
		}
	}
}

// method extracts a method, constructor (with its promoted properties) or destructor.
func (x *phpExtractor) method(owner *Symbol, ownerKind Kind, m *Node) {
	w := x.w
	nameNode := field(m, "name")
	kind := Method
	switch strings.ToLower(w.text(nameNode)) {
	case phpConstructor:
		kind = Constructor
	case phpDestructor:
		kind = Destructor
	}
	sym := w.add(m, nameNode, kind)
	if sym == nil {
		return
	}
	sym.Signature = phpSignature(w, m)
	sym.Visibility = x.visibility(m)
	if ownerKind == Interface {
		sym.Visibility = Public
		meta(sym, "abstract", "true")
	}
	x.modifiers(sym, m)
	if kind == Constructor {
		x.promoted(field(m, "parameters"))
	}
	x.callable(sym, m)
}

// promoted extracts the properties that constructor parameters declare
// (public function __construct(private Logger $logger)).
func (x *phpExtractor) promoted(params *Node) {
	w := x.w
	for _, p := range childrenOfType(params, "property_promotion_parameter") {
		sym := w.add(p, childOfType(field(p, "name"), "name"), Property)
		if sym == nil {
			continue
		}
		sym.Visibility = Public
		if v := field(p, "visibility"); v != nil {
			sym.Visibility = Visibility(strings.ToLower(w.text(v)))
		}
		x.modifiers(sym, p)
		meta(sym, "promoted", "true")
		w.typeInfo(sym, "declared", field(p, "type"))
	}
}

// properties extracts the properties of a property declaration.
func (x *phpExtractor) properties(m *Node) {
	w := x.w
	typ := field(m, "type")
	for _, el := range childrenOfType(m, "property_element") {
		sym := w.add(m, childOfType(childOfType(el, "variable_name"), "name"), Property)
		if sym == nil {
			continue
		}
		sym.Visibility = x.visibility(m)
		sym.Signature = phpSignature(w, m)
		x.modifiers(sym, m)
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() {
			x.node(typ)
			x.node(childOfType(el, "property_initializer"))
		})
	}
}
