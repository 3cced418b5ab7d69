package extract

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

func init() {
	register("csharp", extractCSharp)
	parseSources["csharp"] = csParseSource
}

// csParseSource blanks the preprocessor's lines for the grammar, which loses the statements
// around an #if inside a switch or an expression, and keeps one branch of each #if group:
// the first (#if's own), the others' lines blanked too. Offsets and line numbers are kept.
func csParseSource(src []byte) []byte {
	if !bytes.Contains(src, []byte("#")) {
		return src
	}
	out := slices.Clone(src)
	var stack []bool // per open #if: whether its lines are blanked now
	skipping := func() bool { return len(stack) > 0 && stack[len(stack)-1] }
	for start := 0; start < len(out); {
		end := bytes.IndexByte(out[start:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += start
		}
		line := bytes.TrimLeft(out[start:end], " \t")
		directive := ""
		if len(line) > 1 && line[0] == '#' {
			d := bytes.TrimLeft(line[1:], " \t")
			i := 0
			for i < len(d) && d[i] >= 'a' && d[i] <= 'z' {
				i++
			}
			directive = string(d[:i])
		}
		blank := directive != "" || skipping()
		switch directive {
		case "if":
			stack = append(stack, skipping())
		case "elif", "else":
			if len(stack) > 0 {
				stack[len(stack)-1] = true
			}
		case "endif":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
		if blank {
			for i := start; i < end; i++ {
				if out[i] != '\r' {
					out[i] = ' '
				}
			}
		}
		start = end + 1
	}
	return out
}

// csDocPrefix starts a line of a C# XML doc comment.
const csDocPrefix = "///"

// csInterfaceName matches the conventional name of a C# interface (IShape), which tells an
// implemented interface from a base class in a base list.
var csInterfaceName = regexp.MustCompile(`^I[A-Z]`)

// csTypeKinds maps a C# type declaration node to its symbol kind.
var csTypeKinds = map[string]Kind{
	"class_declaration": Class, "interface_declaration": Interface, "struct_declaration": Struct,
	"enum_declaration": Enum, "record_declaration": Class, "record_struct_declaration": Struct,
}

// extractCSharp walks a C# file: usings, namespaces (block and file-scoped), classes,
// structs, records, interfaces, enums, delegates and their fields, constants, properties,
// events, indexers, methods, constructors, destructors and operators.
func extractCSharp(w *walker, root *Node) {
	var fileNS *Symbol // a file-scoped namespace holds the declarations after it
	w.walk(root, func(w *walker, c *Node) {
		if c.Type() == "file_scoped_namespace_declaration" {
			fileNS = csNamespace(w, c)
			return
		}
		w.within(fileNS, func() { csNode(w, c) })
	})
}

// csNode is the visitor of every C# node.
func csNode(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "using_directive":
		csUsing(w, n)
		return
	case "namespace_declaration", "file_scoped_namespace_declaration":
		sym := csNamespace(w, n)
		w.within(sym, func() { w.walk(field(n, "body"), csNode) })
		return
	case "class_declaration", "interface_declaration", "struct_declaration", "enum_declaration", "record_declaration", "record_struct_declaration":
		csType(w, n)
		return
	case "delegate_declaration":
		csDelegate(w, n)
		return
	case "field_declaration", "event_field_declaration":
		csField(w, n)
		return
	case "property_declaration", "event_declaration", "indexer_declaration":
		csProperty(w, n)
		return
	case "method_declaration", "constructor_declaration", "destructor_declaration", "operator_declaration", "conversion_operator_declaration", "local_function_statement":
		csMethod(w, n)
		return
	case "enum_member_declaration":
		if sym := w.add(n, field(n, "name"), EnumMember); sym != nil {
			sym.Visibility = Public
			sym.DocComment = csDoc(w, n)
			w.within(sym, func() { csNode(w, field(n, "value")) })
		}
		return
	case "invocation_expression":
		fn := field(n, "function")
		switch {
		case fn != nil && fn.Type() == "member_access_expression": // x.M(), the qualifier x
			if name := csName(fn); name != nil {
				w.member(name, fn, Call)
				w.relateCall(name)
			}
			csNode(w, field(fn, "expression"))
			csTypeRefs(w, childOfType(field(fn, "name"), "type_argument_list"))
		case fn != nil && fn.Type() == "conditional_access_expression" && csLastNamed(fn) != nil && csLastNamed(fn).Type() == "member_binding_expression": // x?.M()
			if name := csName(field(csLastNamed(fn), "name")); name != nil {
				csBinding(w, name, fn, Call)
				w.relateCall(name)
			}
			csNode(w, field(fn, "condition"))
		default:
			w.call(csName(fn))
			csTypeRefs(w, childOfType(fn, "type_argument_list"))
			if fn != nil && fn.Type() != "identifier" && fn.Type() != "generic_name" {
				csNode(w, fn) // (f)(x), f(x)(y), delegates
			}
		}
		csNode(w, field(n, "arguments"))
		return
	case "member_binding_expression": // x?.p
		csBinding(w, csName(field(n, "name")), csConditionalAccess(n), MemberAccess)
		return
	case "identifier":
		if !csDeclName(n) { // a name used as a value: a local, a parameter, a field, a type
			w.ident(n, VariableRef)
		}
		return
	case "name_colon", "name_equals": // f(name: v), new { Name = v }: the parameter's, the member's name
		return
	case "object_creation_expression":
		typ := field(n, "type")
		w.call(csName(typ))
		csTypeRefs(w, childOfType(typ, "type_argument_list"))
		csNode(w, field(n, "arguments"))
		csInitializer(w, field(n, "initializer"), typ)
		return
	case "member_access_expression":
		w.member(csName(field(n, "name")), n, MemberAccess)
		csNode(w, field(n, "expression"))
		return
	case "variable_declaration", "parameter", "cast_expression", "typeof_expression":
		typ := field(n, "type")
		csTypeRefs(w, typ)
		for _, c := range namedChildren(n) {
			if c != typ {
				csNode(w, c)
			}
		}
		return
	case "type_argument_list":
		csTypeRefs(w, n)
		return
	case "attribute": // [Interface ("x")]: InterfaceAttribute's too (index/nav/csharp.go)
		w.member(csName(field(n, "name")), field(n, "name"), TypeUsage)
		w.walk(childOfType(n, "attribute_argument_list"), csNode)
		return
	}
	w.walk(n, csNode)
}

// csInitializer walks the initializer of new T { A = x, B = { ... } }: A and B are members of
// T, recorded as accessed on new T() (their qualifier), the values as any expression.
func csInitializer(w *walker, init, typ *Node) {
	if init == nil {
		return
	}
	for _, c := range namedChildren(init) {
		left := field(c, "left")
		if c.Type() != "assignment_expression" || left == nil || left.Type() != "identifier" || typ == nil {
			csNode(w, c)
			continue
		}
		w.identQualified(left, MemberAccess, "new "+w.text(typ)+" ()")
		right := field(c, "right")
		if right != nil && right.Type() == "initializer_expression" { // B = { ... }: B's own
			w.walk(right, csNode)
			continue
		}
		csNode(w, right)
	}
}

// csConditionalAccess returns the conditional access (x?.a.b) a member binding (?.a) is
// part of: what precedes the name there is its qualifier.
func csConditionalAccess(n *Node) *Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "conditional_access_expression" {
			return p
		}
	}
	return n
}

// csBinding records the use of name bound by ?. in the conditional access ca (x?.name): its
// qualifier is the access's condition, x (in a + x?.f the grammar's condition is a + x: its
// right operand).
func csBinding(w *walker, name, ca *Node, kind IdentKind) {
	if ca.Type() != "conditional_access_expression" {
		w.member(name, ca, kind)
		return
	}
	cond := field(ca, "condition")
	for cond != nil && cond.Type() == "binary_expression" {
		cond = field(cond, "right")
	}
	q := ""
	if cond != nil {
		q = w.text(cond)
	}
	w.identQualified(name, kind, q)
}

// csDeclName reports whether the identifier n is the name a declaration binds (a local, a
// parameter, a lambda's, a pattern's, a query's or a catch's variable, a type parameter, a
// label, a declared member) rather than a use.
func csDeclName(n *Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Type() {
	case "variable_declarator", "parameter", "catch_declaration", "declaration_expression", "declaration_pattern",
		"var_pattern", "recursive_pattern", "tuple_element", "local_function_statement", "enum_member_declaration",
		"from_clause", "let_clause", "join_clause", "join_into_clause", "query_continuation", "group_clause",
		"class_declaration", "struct_declaration", "interface_declaration", "enum_declaration", "record_declaration",
		"record_struct_declaration", "delegate_declaration", "method_declaration", "constructor_declaration",
		"destructor_declaration", "property_declaration", "event_declaration", "namespace_declaration",
		"file_scoped_namespace_declaration", "using_directive":
		return p.ChildByFieldName("name") == n || p.Type() == "variable_declarator" && p.NamedChild(0) == n
	case "argument": // f(name: v)
		return p.ChildByFieldName("name") == n
	case "foreach_statement":
		return p.ChildByFieldName("left") == n
	case "lambda_expression":
		return p.ChildByFieldName("parameters") == n
	case "type_parameter", "implicit_parameter", "labeled_statement", "goto_statement", "single_variable_designation",
		"parenthesized_variable_designation", "type_parameter_constraints_clause", "discard":
		return true
	case "type_parameter_constraint":
		return false
	}
	return false
}

// csName returns the name leaf of a name or type: List in System.Collections.List<int>,
// Draw in canvas.Draw.
func csName(n *Node) *Node {
	for n != nil {
		switch n.Type() {
		case "identifier":
			return n
		case "generic_name":
			n = childOfType(n, "identifier")
		case "qualified_name", "member_access_expression", "alias_qualified_name":
			n = field(n, "name")
		case "nullable_type", "array_type", "pointer_type", "ref_type":
			n = field(n, "type")
			if n == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// csTypeRefs records a type_usage for each named type in the type expression t (predefined
// types such as int are not recorded).
func csTypeRefs(w *walker, t *Node) {
	if t == nil {
		return
	}
	switch t.Type() {
	case "identifier":
		w.ident(t, TypeUsage)
	case "generic_name":
		w.ident(childOfType(t, "identifier"), TypeUsage)
		csTypeRefs(w, childOfType(t, "type_argument_list"))
	case "qualified_name", "alias_qualified_name":
		csTypeRefs(w, field(t, "name"))
	case "predefined_type", "implicit_type":
	default:
		for _, c := range namedChildren(t) {
			csTypeRefs(w, c)
		}
	}
}

// csUsing records a using directive: the namespace or type it names, with its alias and
// static-ness.
func csUsing(w *walker, n *Node) {
	alias := field(n, "name")
	var target *Node
	for _, c := range namedChildren(n) {
		if c != alias && (c.Type() == "qualified_name" || c.Type() == "identifier" || c.Type() == "generic_name" || c.Type() == "alias_qualified_name") {
			target = c
		}
	}
	if target == nil { // using X; parses X as the name
		target, alias = alias, nil
	}
	name := w.text(target)
	if i := strings.IndexByte(name, '<'); i > 0 { // using L = List<int>: the generic type
		name = name[:i]
	}
	sym := w.importName(n, nil, name)
	if sym == nil {
		return
	}
	w.member(csName(target), target, ImportRef) // Id3Tag in using T = Lib.Tags.Id3Tag;, qualified by Lib.Tags
	sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	sym.DocComment = ""
	meta(sym, "alias", w.text(alias))
	if w.hasChild(n, "static") {
		meta(sym, "static", "true")
	}
}

// csNamespace records a namespace declaration.
func csNamespace(w *walker, n *Node) *Symbol {
	sym := w.add(n, field(n, "name"), Namespace)
	if sym != nil {
		sym.Visibility = Public
		sym.DocComment = csDoc(w, n)
		sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	}
	return sym
}

// csType records a class, struct, record, interface or enum with its bases and members.
func csType(w *walker, n *Node) {
	kind := csTypeKinds[n.Type()]
	if n.Type() == "record_declaration" && w.hasChild(n, "struct") {
		kind = Struct
	}
	sym := w.add(n, field(n, "name"), kind)
	if sym == nil {
		return
	}
	csSetup(w, sym, n)
	if strings.HasPrefix(n.Type(), "record") {
		meta(sym, "record", "true")
		sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	}
	if tp := childOfType(n, "type_parameter_list"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.within(sym, func() {
		csAttributes(w, n)
		csBases(w, sym, childOfType(n, "base_list"))
		if n.Type() == "record_declaration" || n.Type() == "record_struct_declaration" {
			csRecordParams(w, childOfType(n, "parameter_list"))
		}
		w.walk(field(n, "body"), csNode)
	})
}

// csBases records the base list of a type. C# syntax does not tell a base class from an
// interface: the first base of a class is taken as extended unless it is named like an
// interface (IName); every other base is implemented (extended, for an interface).
func csBases(w *walker, sym *Symbol, bases *Node) {
	for i, b := range namedChildren(bases) {
		if b.Type() == "argument_list" { // record Base(args)
			csNode(w, b)
			continue
		}
		csTypeRefs(w, b)
		name := csName(b)
		if name == nil {
			continue
		}
		kind := Implements
		switch {
		case sym.Kind == Interface:
			kind = Extends
		case sym.Kind == Class && i == 0 && !csInterfaceName.MatchString(w.text(name)):
			kind = Extends
		case sym.Kind == Enum:
			continue // the underlying integral type
		}
		w.relate(sym, w.text(name), kind, b)
	}
}

// csRecordParams records the positional parameters of a record as its public properties.
func csRecordParams(w *walker, params *Node) {
	for _, p := range childrenOfType(params, "parameter") {
		if f := w.add(p, field(p, "name"), Property); f != nil {
			f.Visibility = Public
			w.typeInfo(f, "declared", field(p, "type"))
			w.within(f, func() { csTypeRefs(w, field(p, "type")) })
		}
	}
}

// csSetup fills what every C# member shares: XML doc, visibility and static.
func csSetup(w *walker, sym *Symbol, n *Node) {
	sym.DocComment = csDoc(w, n)
	sym.Visibility = csVisibility(w, n)
	for _, m := range []string{"static", "abstract"} {
		if csHasModifier(w, n, m) {
			meta(sym, m, "true")
		}
	}
}

// csHasModifier reports whether n carries the modifier mod.
func csHasModifier(w *walker, n *Node, mod string) bool {
	for _, m := range childrenOfType(n, "modifier") {
		if w.text(m) == mod {
			return true
		}
	}
	return false
}

// csVisibility applies C#'s rules: the access modifiers (protected internal counts as
// protected, private protected as private), else public in interfaces and enums, internal
// for a type outside any type, private for a member of a class, struct or record.
func csVisibility(w *walker, n *Node) Visibility {
	switch {
	case csHasModifier(w, n, "public"):
		return Public
	case csHasModifier(w, n, "private"):
		return Private
	case csHasModifier(w, n, "protected"):
		return Protected
	case csHasModifier(w, n, "internal"), csHasModifier(w, n, "file"):
		return Internal
	}
	switch c := w.container(); {
	case c == nil || c.Kind == Namespace:
		return Internal
	case c.Kind == Interface || c.Kind == Enum:
		return Public
	case c.Kind == Class || c.Kind == Struct:
		return Private
	}
	return ""
}

// csAttributes records the attribute classes used on n.
func csAttributes(w *walker, n *Node) {
	for _, a := range childrenOfType(n, "attribute_list") {
		csNode(w, a)
	}
}

// csDelegate records a delegate type with its return type.
func csDelegate(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), Delegate)
	if sym == nil {
		return
	}
	csSetup(w, sym, n)
	sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	ret := csReturnType(n)
	w.typeInfo(sym, "return", ret)
	w.within(sym, func() {
		csAttributes(w, n)
		csTypeRefs(w, ret)
		csNode(w, field(n, "parameters"))
	})
}

// csReturnType returns the return type of a method, delegate or operator.
func csReturnType(n *Node) *Node {
	if t := field(n, "returns"); t != nil {
		return t
	}
	return field(n, "type")
}

// csField records one symbol per declarator of a field or event field: a constant when
// const or static readonly.
func csField(w *walker, n *Node) {
	decl := childOfType(n, "variable_declaration")
	typ := field(decl, "type")
	kind := Field
	switch {
	case n.Type() == "event_field_declaration":
		kind = Event
	case csHasModifier(w, n, "const"), csHasModifier(w, n, "static") && csHasModifier(w, n, "readonly"):
		kind = Constant
	}
	head := ""
	if typ != nil {
		head = string(w.src[n.StartByte():typ.EndByte()])
	}
	for i, d := range childrenOfType(decl, "variable_declarator") {
		sym := w.add(n, field(d, "name"), kind)
		if sym == nil {
			continue
		}
		csSetup(w, sym, n)
		sym.Signature = oneLine(head+" "+w.text(d), maxSignatureRunes)
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() {
			if i == 0 { // the shared type and attributes are used by the first
				csAttributes(w, n)
				csTypeRefs(w, typ)
			}
			w.walk(d, csNode)
		})
	}
}

// csPropertyKinds maps a property-like node to its symbol kind.
var csPropertyKinds = map[string]Kind{"property_declaration": Property, "event_declaration": Event, "indexer_declaration": Property}

// csProperty records a property, event with accessors or indexer; its signature keeps the
// accessor list but not the initializer or expression body.
func csProperty(w *walker, n *Node) {
	nameNode := field(n, "name")
	name := w.text(nameNode)
	if n.Type() == "indexer_declaration" {
		name = "this[]"
	}
	sym := w.addNamed(n, name, csPropertyKinds[n.Type()])
	if sym == nil {
		return
	}
	csSetup(w, sym, n)
	if n.Type() == "indexer_declaration" {
		meta(sym, "indexer", "true")
	}
	end := n.EndByte()
	if acc := field(n, "accessors"); acc != nil && csAccessorsHaveBodies(acc) {
		end = acc.StartByte()
	} else if acc != nil {
		end = acc.EndByte()
	} else if v := field(n, "value"); v != nil {
		end = v.StartByte()
	}
	sym.Signature = strings.TrimSuffix(w.signatureRange(int(n.StartByte()), int(end)), ";")
	typ := field(n, "type")
	w.typeInfo(sym, "declared", typ)
	w.within(sym, func() {
		csAttributes(w, n)
		csTypeRefs(w, typ)
		csNode(w, field(n, "parameters"))
		w.walk(field(n, "accessors"), csNode)
		csNode(w, field(n, "value"))
	})
}

// csMethodKinds maps a method-like node to its symbol kind.
var csMethodKinds = map[string]Kind{
	"method_declaration": Method, "constructor_declaration": Constructor, "destructor_declaration": Destructor,
	"operator_declaration": Operator, "conversion_operator_declaration": Operator, "local_function_statement": Function,
}

// csMethodName returns the name of a method-like node: ~T for a destructor, "operator +" for
// an operator, "implicit operator double" for a conversion.
func csMethodName(w *walker, n *Node) string {
	switch n.Type() {
	case "destructor_declaration":
		if name := w.text(field(n, "name")); name != "" {
			return "~" + name
		}
		return ""
	case "operator_declaration":
		if op := w.text(field(n, "operator")); op != "" {
			return "operator " + op
		}
		return ""
	case "conversion_operator_declaration":
		conv := "implicit"
		if w.hasChild(n, "explicit") {
			conv = "explicit"
		}
		return conv + " operator " + w.text(field(n, "type"))
	}
	return w.text(field(n, "name"))
}

// csMethod records a method, constructor, destructor, operator or local function with its
// return type and what its parameters and body use.
func csMethod(w *walker, n *Node) {
	sym := w.addNamed(n, csMethodName(w, n), csMethodKinds[n.Type()])
	if sym == nil {
		return
	}
	csSetup(w, sym, n)
	if n.Type() == "local_function_statement" {
		sym.Visibility = ""
	}
	sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	if p := childOfType(field(n, "parameters"), "parameter"); p != nil && w.hasChild(p, "this") {
		meta(sym, "extension", "true")
	}
	ret := csReturnType(n)
	if n.Type() != "constructor_declaration" && n.Type() != "destructor_declaration" {
		w.typeInfo(sym, "return", ret)
	}
	w.within(sym, func() {
		csAttributes(w, n)
		csTypeRefs(w, ret)
		csNode(w, field(n, "parameters"))
		csNode(w, childOfType(n, "constructor_initializer"))
		csNode(w, field(n, "body"))
	})
}

// csDoc returns the /// XML doc comment right above n (attributes between them skipped),
// cleaned of its markers and tags; other comments are not documentation.
func csDoc(w *walker, n *Node) string {
	var parts []string
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 {
			break
		}
		if isAttribute(p.Type()) {
			line = int(p.StartPoint().Row)
			continue
		}
		if t := w.text(p); !commentTypes[p.Type()] || !strings.HasPrefix(t, csDocPrefix) {
			break
		}
		parts = append(parts, w.text(p))
		line = int(p.StartPoint().Row)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return cleanComment(strings.Join(parts, "\n"))
}

// csAccessorsHaveBodies reports whether an accessor list has code ({ get { return x; } }),
// which a signature leaves out, unlike { get; set; }.
func csAccessorsHaveBodies(acc *Node) bool {
	for _, a := range childrenOfType(acc, "accessor_declaration") {
		if field(a, "body") != nil || childOfType(a, "block", "arrow_expression_clause") != nil {
			return true
		}
	}
	return false
}

// csLastNamed returns the last named child of n, or nil.
func csLastNamed(n *Node) *Node {
	if n == nil || n.NamedChildCount() == 0 {
		return nil
	}
	return n.NamedChild(int(n.NamedChildCount()) - 1)
}
