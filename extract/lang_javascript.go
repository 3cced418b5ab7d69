package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The languages extractJS serves: the TypeScript grammars are supersets of JavaScript's, so one
// extractor handles all three.
var jsLanguages = []string{"javascript", "typescript", "tsx"}

// Node types of the JavaScript and TypeScript grammars that the extractor treats alike.
var (
	// jsFunctionValues are expressions that define a function when assigned to a name.
	jsFunctionValues = map[string]bool{"arrow_function": true, "function_expression": true, "function": true, "generator_function": true}
)

// Metadata keys the JavaScript extractor sets.
const (
	jsMetaAsync     = "async"
	jsMetaStatic    = "static"
	jsMetaAbstract  = "abstract"
	jsMetaAccessor  = "accessor"
	jsMetaReadonly  = "readonly"
	jsMetaTypeParam = "type_parameters"
	jsMetaAlias     = "alias"
	jsMetaDefault   = "default"
	jsMetaDeclare   = "declare"
	jsMetaReceiver  = "receiver"
)

func init() {
	for _, l := range jsLanguages {
		register(l, extractJS)
	}
}

// jsExtractor holds the state of one JavaScript / TypeScript extraction: the names a file
// exports through export clauses, export default or module.exports, made public at the end.
type jsExtractor struct {
	w        *walker
	exported map[string]bool
	// local counts the object-literal methods being walked that are not symbols: what
	// they declare is local, though no symbol encloses it.
	local int
	// anonymous counts the function expressions being walked that are not symbols (a
	// callback, an IIFE): the object literals in them are not members of anything.
	anonymous int
	// topNames are the names the file's top level declares (functions, classes, variables;
	// not require imports): X.y = ... defines y as a member of X only for those.
	topNames map[string]bool
	// topObjects and localObjects are the variables holding an object literal whose
	// members are definitions, by name: at module level, and in the module-level function
	// being walked (the object it builds and returns). o.y = ... and
	// Object.defineProperties(o, {...}) add members to them.
	topObjects, localObjects map[string]*Symbol
	// members are the member names already defined for an owner (jsOwnerKey): o.y = ...
	// does not define y again.
	members map[string]map[string]bool
	// accessors are the getters and setters of the class body or object literal being
	// walked, by name: a getter and a setter of one name are one definition.
	accessors map[string]*Symbol
	// overloads are the TypeScript overload signatures by the start of their statement:
	// the declaration right after one, of the same name, is merged into it.
	overloads map[uint32]*Symbol
	// exportsAs are the top-level names the module exports as a whole (module.exports = X:
	// "module", export default X: "default"; lang_javascript_uses.go).
	exportsAs map[string]string
}

// extractJS walks a JavaScript, JSX, TypeScript or TSX file: imports (ES, CommonJS require,
// TypeScript import =), functions, classes with their fields, methods, accessors and
// constructors, top-level constants and variables, interfaces, type aliases, enums,
// namespaces and modules, and the calls, member accesses, type usages and JSX component uses
// inside them.
func extractJS(w *walker, root *Node) {
	x := &jsExtractor{w: w, exported: map[string]bool{}, topNames: jsTopNames(w, root)}
	x.walk(root)
	x.dedupeUses()
	x.markExports()
	receivers := map[string]*Symbol{}
	for _, s := range w.syms {
		if s.ParentID == "" && (s.Kind == Class || s.Kind == Function) {
			if receivers[s.Name] == nil {
				receivers[s.Name] = s
			}
		}
		if s.ParentID == "" && x.exported[s.Name] && s.Visibility == "" && s.Kind != Import {
			s.Visibility = Public
		}
	}
	for _, s := range w.syms { // Foo.prototype.bar = function () {} and Foo.bar = 1 attach to Foo
		if r := s.Metadata[jsMetaReceiver]; r != "" && s.ParentID == "" {
			if t := receivers[r]; t != nil && t != s {
				s.ParentID = t.ID
			}
		}
	}
}

// walk visits the named children of n.
func (x *jsExtractor) walk(n *Node) {
	x.w.walk(n, func(_ *walker, c *Node) { x.node(c) })
}

// atModuleLevel reports whether definitions met now are module members (file level or inside
// a namespace), not locals of a function.
func (x *jsExtractor) atModuleLevel() bool {
	if x.local > 0 {
		return false
	}
	c := x.w.container()
	return c == nil || c.Kind == Namespace || c.Kind == Module
}

// node visits one node of the tree.
func (x *jsExtractor) node(n *Node) {
	if n == nil {
		return
	}
	w := x.w
	switch n.Type() {
	case "import_statement":
		x.importStatement(n)
		return
	case "export_statement":
		x.exportStatement(n)
		return
	case "ambient_declaration":
		for _, c := range namedChildren(n) {
			if !x.declaration(c, n, false) {
				x.node(c)
			}
		}
		return
	case "expression_statement":
		if a := childOfType(n, "assignment_expression"); a != nil {
			x.assignedObject(a) // X of X.y = ...: a use of X (lang_javascript_uses.go)
			if x.assignment(n, a) {
				return
			}
		}
	case "shorthand_property_identifier": // { a }: a use of the variable a
		w.ident(n, VariableRef)
		return
	case "call_expression":
		x.callExpression(n)
		return
	case "labeled_statement":
		if x.reactiveDeclaration(n) {
			return
		}
	case "method_definition": // an object literal's (a class's are the class's members)
		x.inLocal(n)
		return
	case "arrow_function", "function_expression", "function", "generator_function": // no symbol
		x.anonymous++
		x.walk(n)
		x.anonymous--
		return
	case "pair":
		if v := field(n, "value"); v != nil && jsFunctionValues[v.Type()] {
			x.inLocal(n)
			return
		}
	case "new_expression":
		w.call(field(n, "constructor"))
		if c := field(n, "constructor"); c != nil && c.Type() != "identifier" && c.Type() != "member_expression" {
			x.node(c) // new class extends X {...}, new M[k]()
		}
		x.node(field(n, "type_arguments")) // new Map<K, V>(): uses of K and V
		x.walk(field(n, "arguments"))
		x.variableRefs(field(n, "arguments"))
		return
	case "member_expression":
		w.member(field(n, "property"), n, MemberAccess)
		x.node(field(n, "object"))
		return
	case "nested_type_identifier":
		w.ident(field(n, "name"), TypeUsage)
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "type_parameters":
		return
	case "jsx_opening_element", "jsx_self_closing_element":
		if name := field(n, "name"); jsIsComponent(w.text(name)) {
			w.call(name)
		}
		for _, a := range childrenOfType(n, "jsx_attribute", "jsx_expression") {
			x.walk(a)
		}
		return
	case "decorator":
		if c := childOfType(n, "identifier", "member_expression"); c != nil {
			w.call(c)
			return
		}
	case "arguments", "jsx_expression":
		x.variableRefs(n)
	case "return_statement":
		x.variableRefs(n)
	case "assignment_expression":
		if r := field(n, "right"); r != nil && r.Type() == "identifier" {
			w.ident(r, VariableRef)
		}
	case "identifier": // a name read in an expression (lang_javascript_uses.go)
		if jsIdentUse(n) {
			w.ident(n, VariableRef)
		}
		return
	case "subscript_expression": // o['name'] accesses the member name
		if i := field(n, "index"); i != nil && i.Type() == "string" {
			x.stringKey(i, field(n, "object"))
		}
	case "variable_declarator":
		if x.requireBinding(n, field(n, "name"), field(n, "value")) { // inside a function
			return
		}
		if v := field(n, "value"); v != nil && v.Type() == "identifier" {
			w.ident(v, VariableRef)
		}
		x.node(field(n, "type"))
		x.node(field(n, "value"))
		return
	default:
		if x.declaration(n, n, false) {
			return
		}
	}
	x.walk(n)
}

// reactiveDeclaration extracts a Svelte reactive declaration at module level ($: doubled =
// count * 2) as a variable with the metadata reactive=true. It reports whether n was one.
func (x *jsExtractor) reactiveDeclaration(n *Node) bool {
	w := x.w
	if w.text(field(n, "label")) != "$" || !x.atModuleLevel() {
		return false
	}
	a := childOfType(field(n, "body"), "assignment_expression")
	left := field(a, "left")
	if left == nil || left.Type() != "identifier" {
		return false
	}
	sym := w.add(n, left, Variable)
	if sym == nil {
		return false
	}
	sym.Signature = strings.TrimSuffix(oneLine(w.text(n), maxSignatureRunes), ";")
	meta(sym, "reactive", "true")
	w.within(sym, func() { x.node(field(a, "right")) })
	return true
}

// inLocal walks n, a function that is no symbol, as a local scope.
func (x *jsExtractor) inLocal(n *Node) {
	x.local++
	x.walk(n)
	x.local--
}

// jsComponentCalls are the calls whose object argument defines a component by options
// (Vue's Options API): defineComponent({...}), Vue.extend({...}), Vue.component("x", {...}).
var jsComponentCalls = map[string]bool{"defineComponent": true, "Vue.extend": true, "Vue.component": true, "defineNuxtComponent": true}

// jsOptionGroups are the keys of a component's options whose object holds members:
// methods and watchers (methods), computed properties (properties).
var jsOptionGroups = map[string]Kind{"methods": Method, "computed": Property, "watch": Method}

// componentOptions extracts the members of an object that defines a component by options
// (the value of export default, or the argument of defineComponent): its own methods
// (data, setup, mounted), the methods of its methods and watch groups, its computed
// properties and its props, each a member of the file's top level (in a .vue file, of the
// component). Everything else in the object is walked as usual.
func (x *jsExtractor) componentOptions(obj *Node) {
	w := x.w
	for _, c := range namedChildren(obj) {
		switch c.Type() {
		case "method_definition":
			x.optionMember(c, c, jsMemberName(w, field(c, "name")), Method)
		case "pair":
			key := jsMemberName(w, field(c, "key"))
			val := field(c, "value")
			switch {
			case val == nil:
			case jsFunctionValues[val.Type()]:
				x.optionMember(c, val, key, Method)
			case key == "props":
				x.componentProps(val)
			case val.Type() == "object" && jsOptionGroups[key] != KindUnknown:
				for _, m := range namedChildren(val) {
					switch m.Type() {
					case "method_definition":
						x.optionMember(m, m, jsMemberName(w, field(m, "name")), jsOptionGroups[key])
					case "pair":
						name := jsMemberName(w, field(m, "key"))
						if v := field(m, "value"); v != nil && (jsFunctionValues[v.Type()] || v.Type() == "object") {
							x.optionMember(m, v, name, jsOptionGroups[key])
						} else {
							x.node(m)
						}
					default:
						x.node(m)
					}
				}
			default:
				x.node(c)
			}
		default:
			x.node(c)
		}
	}
}

// optionMember adds a member of a component's options, n its whole entry and fn its
// function (or object, for a computed property with get and set).
func (x *jsExtractor) optionMember(n, fn *Node, name string, kind Kind) {
	sym := x.w.addNamed(n, name, kind)
	if sym == nil {
		x.inLocal(n)
		return
	}
	sym.Visibility = Public
	sym.Signature = jsSignature(x.w, n, field(fn, "body"))
	meta(sym, "option", "true")
	if fn.Type() == "object" {
		x.w.within(sym, func() { x.inLocal(fn) })
		return
	}
	x.functionParts(sym, fn)
}

// componentProps adds a component's props: the keys of an object, or the strings of an
// array, as properties.
func (x *jsExtractor) componentProps(v *Node) {
	w := x.w
	for _, c := range namedChildren(v) {
		var name string
		switch c.Type() {
		case "pair":
			name = jsMemberName(w, field(c, "key"))
		case "shorthand_property_identifier":
			name = w.text(c)
		case "string":
			name = jsMemberName(w, c)
		default:
			continue
		}
		if sym := w.addNamed(c, name, Property); sym != nil {
			sym.Visibility = Public
			meta(sym, "prop", "true")
		}
		x.node(c)
	}
}

// variableRefs records the plain identifiers among the children of n as variable references.
func (x *jsExtractor) variableRefs(n *Node) {
	for _, c := range namedChildren(n) {
		if c.Type() == "identifier" {
			x.w.ident(c, VariableRef)
		}
	}
}

// jsIsComponent reports whether a JSX element name names a component (Button, ui.Button)
// rather than an intrinsic element (div).
func jsIsComponent(name string) bool {
	if strings.Contains(name, ".") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// declaration extracts the definition n, whose whole statement (with export, declare and
// decorators) is outer. It reports whether n was a definition.
func (x *jsExtractor) declaration(n, outer *Node, exported bool) bool {
	var sym *Symbol
	switch n.Type() {
	case "function_declaration", "generator_function_declaration", "function_signature":
		sym = x.function(n, outer, jsName(x.w, field(n, "name"), exported))
	case "function_expression", "function", "generator_function":
		if !exported { // only export default function () {} defines a name
			return false
		}
		sym = x.function(n, outer, jsName(x.w, field(n, "name"), exported))
	case "class_declaration", "abstract_class_declaration", "class":
		if n.Type() == "class" && !exported {
			return false
		}
		sym = x.class(n, outer, jsName(x.w, field(n, "name"), exported))
	case "lexical_declaration", "variable_declaration":
		if !x.atModuleLevel() {
			return false
		}
		x.variables(n, outer, exported)
		return true
	case "interface_declaration":
		sym = x.iface(n, outer)
	case "type_alias_declaration":
		sym = x.typeAlias(n, outer)
	case "enum_declaration":
		sym = x.enum(n, outer)
	case "internal_module", "module":
		sym = x.namespace(n, outer)
	default:
		return false
	}
	x.declared(sym, outer, exported)
	return true
}

// jsName returns the text of a definition's name node, or "default" for the nameless
// definition of an export default.
func jsName(w *walker, name *Node, exported bool) string {
	if name == nil && exported {
		return jsMetaDefault
	}
	return strings.Trim(w.text(name), "\"'`")
}

// declared sets what a definition's surrounding statement says: exported means public,
// declare means ambient.
func (x *jsExtractor) declared(sym *Symbol, outer *Node, exported bool) {
	if sym == nil {
		return
	}
	if exported {
		sym.Visibility = Public
	}
	if outer != nil && (outer.Type() == "ambient_declaration" || x.w.hasChild(outer, "declare")) {
		meta(sym, jsMetaDeclare, "true")
	}
}

// jsSignature returns the source from the start of outer to the start of body (all of outer
// when body is nil) on one line, without a trailing semicolon.
func jsSignature(w *walker, outer, body *Node) string {
	end := outer.EndByte()
	if body != nil && body.StartByte() > outer.StartByte() && body.StartByte() <= end {
		end = body.StartByte()
	}
	return strings.TrimSpace(strings.TrimSuffix(w.signatureRange(int(outer.StartByte()), int(end)), ";"))
}

// jsTypeOf returns the type inside a type annotation (": T" gives T).
func jsTypeOf(n *Node) *Node {
	if n != nil && strings.HasSuffix(n.Type(), "type_annotation") {
		if c := n.NamedChild(0); c != nil {
			return c
		}
	}
	return n
}

// exportStatement extracts an export: a definition made public, a re-export (an import of
// its source) or a list of exported names.
func (x *jsExtractor) exportStatement(n *Node) {
	w := x.w
	for _, c := range childrenOfType(n, "decorator") {
		x.node(c)
	}
	if w.hasChild(n, "default") {
		x.defaultExport(n)
	} else if x.exportEquals(n) { // TypeScript's export = X
		return
	}
	if d := field(n, "declaration"); d != nil {
		if !x.declaration(d, n, true) {
			x.node(d)
		}
		return
	}
	if src := field(n, "source"); src != nil {
		x.reexport(w.importName(n, src, w.text(src)), n)
		return
	}
	for _, spec := range childrenOfType(childOfType(n, "export_clause"), "export_specifier") {
		if name := field(spec, "name"); name != nil {
			x.exported[w.text(name)] = true
			w.ident(name, VariableRef)
		}
	}
	if v := field(n, "value"); v != nil {
		switch {
		case v.Type() == "object":
			x.componentOptions(v)
		case v.Type() == "call_expression" && jsComponentCalls[w.text(field(v, "function"))]:
			w.call(field(v, "function"))
			args := namedChildren(field(v, "arguments"))
			for _, a := range args {
				if a.Type() == "object" {
					x.componentOptions(a)
				} else {
					x.node(a)
				}
			}
		case v.Type() == "identifier":
			x.exported[w.text(v)] = true
			w.ident(v, VariableRef)
		case !x.declaration(v, n, true):
			x.node(v)
		}
	}
}

// importStatement extracts an ES import (import x, {a as b}, * as ns from "m") or a
// TypeScript import x = require("m").
func (x *jsExtractor) importStatement(n *Node) {
	w := x.w
	src := field(n, "source")
	clause := childOfType(n, "import_clause")
	if req := childOfType(n, "import_require_clause"); req != nil {
		src, clause = field(req, "source"), nil
		sym := w.importName(n, src, w.text(src))
		meta(sym, jsMetaAlias, w.text(childOfType(req, "identifier")))
		return
	}
	sym := w.importName(n, src, w.text(src))
	if sym == nil {
		return
	}
	if w.hasChild(n, "type") {
		meta(sym, "type_only", "true")
	}
	var names []string
	for _, c := range namedChildren(clause) {
		switch c.Type() {
		case "identifier":
			meta(sym, jsMetaDefault, w.text(c))
			w.ident(c, ImportRef) // the default export's own name (lang_javascript_uses.go)
		case "namespace_import":
			meta(sym, jsMetaAlias, w.text(childOfType(c, "identifier")))
		case "named_imports":
			for _, spec := range childrenOfType(c, "import_specifier") {
				w.ident(field(spec, "name"), ImportRef) // the imported name: a use of its definition
				name := w.text(field(spec, "name"))
				if alias := field(spec, "alias"); alias != nil {
					name += " as " + w.text(alias)
				}
				names = append(names, name)
			}
		}
	}
	meta(sym, "names", strings.Join(names, ", "))
}

// callExpression records a call, turning require("m") and import("m") into imports.
func (x *jsExtractor) callExpression(n *Node) {
	w := x.w
	fn := field(n, "function")
	args := field(n, "arguments")
	if fn != nil && (fn.Type() == "import" || w.text(fn) == "require") {
		if s := childOfType(args, "string"); s != nil {
			w.importName(n, s, w.text(s))
			return
		}
	}
	if fn != nil && fn.Type() == "member_expression" && x.defineProperties(n, fn, args) {
		return
	}
	w.call(fn)
	if fn != nil && fn.Type() == "member_expression" {
		obj := field(fn, "object")
		if f := jsCalledThrough(w, fn); f != nil { // f.call(t, a): a call of f too
			w.call(f)
			if f.Type() == "member_expression" {
				x.node(field(f, "object"))
			}
		} else {
			x.node(obj)
		}
	} else if fn != nil && fn.Type() != "identifier" {
		x.node(fn)
	}
	x.node(field(n, "type_arguments")) // f<T>(x): a use of the type T
	x.node(args)
}

// jsCallThrough are the methods of Function.prototype that call the function they are
// looked up on (bind: later, with what it is bound to).
var jsCallThrough = map[string]bool{"call": true, "apply": true, "bind": true}

// jsCalledThrough returns the function that the callee fn, a member expression, calls
// through call, apply or bind (handleRequest of handleRequest.call(server, null, req),
// this.fn of this.fn.apply(this, args)): a name or a chain of names; else nil.
func jsCalledThrough(w *walker, fn *Node) *Node {
	if !jsCallThrough[w.text(field(fn, "property"))] {
		return nil
	}
	switch f := field(fn, "object"); {
	case f == nil:
		return nil
	case f.Type() == "identifier":
		return f
	case f.Type() == "member_expression":
		if p := field(f, "property"); p != nil && p.Type() == "property_identifier" {
			return f
		}
	}
	return nil
}

// function extracts a function declaration, signature (overload) or named function
// expression.
func (x *jsExtractor) function(n, outer *Node, name string) *Symbol {
	w := x.w
	if sym := x.overloaded(outer, name, Function); sym != nil {
		x.mergeOverload(sym, n, outer)
		return sym
	}
	sym := w.addNamed(outer, name, Function)
	if sym == nil {
		return nil
	}
	sym.Signature = jsSignature(w, outer, field(n, "body"))
	x.functionParts(sym, n)
	x.overloadSignature(sym, n, outer)
	return sym
}

// functionParts records what a function-like node n states for sym (async, generator, type
// parameters, return type) and walks its parameters and body inside sym.
func (x *jsExtractor) functionParts(sym *Symbol, n *Node) {
	w := x.w
	if w.hasChild(n, "async") {
		meta(sym, jsMetaAsync, "true")
	}
	if w.hasChild(n, "*") || strings.HasPrefix(n.Type(), "generator") {
		meta(sym, "generator", "true")
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, jsMetaTypeParam, w.text(tp))
	}
	ret := field(n, "return_type")
	w.typeInfo(sym, "return", jsTypeOf(ret))
	w.within(sym, func() {
		x.node(field(n, "parameters"))
		if p := field(n, "parameter"); p != nil {
			x.node(p)
		}
		x.node(ret)
		x.functionBody(sym, field(n, "body"))
	})
}

// variables extracts the declarators of a module-level const, let or var: constants,
// variables, functions (arrow functions and function expressions), classes (class
// expressions) and CommonJS imports (require).
func (x *jsExtractor) variables(n, outer *Node, exported bool) {
	w := x.w
	kind := Variable
	if first := n.Child(0); first != nil && first.Type() == "const" {
		kind = Constant
	}
	decls := childrenOfType(n, "variable_declarator")
	for _, d := range decls {
		def := d
		if len(decls) == 1 {
			def = outer
		}
		nameNode, value := field(d, "name"), field(d, "value")
		if x.requireBinding(def, nameNode, value) { // x = require("m"), { a } = require("m")
			continue
		}
		if nameNode != nil && nameNode.Type() != "identifier" { // destructuring
			for _, id := range jsPatternNames(nameNode) {
				x.declared(w.add(def, id, kind), outer, exported)
			}
			x.node(value)
			continue
		}
		sym := x.declarator(d, def, kind)
		if def == d && sym != nil && sym.Kind == kind { // one of several: say which declaration
			sym.Signature = w.text(n.Child(0)) + " " + sym.Signature
		}
		x.declared(sym, outer, exported)
	}
}

// declarator extracts one name = value declarator spanning def.
func (x *jsExtractor) declarator(d, def *Node, kind Kind) *Symbol {
	w := x.w
	name, value, typ := field(d, "name"), field(d, "value"), field(d, "type")
	switch {
	case value != nil && jsFunctionValues[value.Type()]:
		sym := w.add(def, name, Function)
		if sym != nil {
			sym.Signature = jsSignature(w, def, field(value, "body"))
			if kind == Constant {
				meta(sym, "const", "true")
			}
			x.functionParts(sym, value)
		}
		return sym
	case value != nil && value.Type() == "class":
		return x.class(value, def, w.text(name))
	}
	sym := w.add(def, name, kind)
	if sym == nil {
		x.node(value)
		return nil
	}
	sym.Signature = jsSignature(w, def, nil)
	w.typeInfo(sym, "declared", jsTypeOf(typ))
	top := x.atModuleLevel()
	w.within(sym, func() {
		x.node(typ)
		if value != nil && value.Type() == "identifier" {
			w.ident(value, VariableRef)
		}
		// The members of an object literal are definitions inside it, but for a local of a
		// callback at module level (anonymous), which is no object of the module.
		if x.anonymous == 0 && x.objectValue(value, sym, "") {
			x.holder(w.text(name), sym, top)
			return
		}
		x.node(value)
	})
	return sym
}

// jsPatternNames returns the names a destructuring pattern binds.
func jsPatternNames(n *Node) []*Node {
	var out []*Node
	for _, c := range namedChildren(n) {
		switch c.Type() {
		case "identifier", "shorthand_property_identifier_pattern":
			out = append(out, c)
		case "pair_pattern":
			out = append(out, jsPatternNames(field(c, "value"))...)
			if v := field(c, "value"); v != nil && v.Type() == "identifier" {
				out = append(out, v)
			}
		case "object_pattern", "array_pattern", "assignment_pattern", "object_assignment_pattern", "rest_pattern":
			if l := field(c, "left"); l != nil && l.Type() == "identifier" {
				out = append(out, l)
				continue
			}
			out = append(out, jsPatternNames(c)...)
		}
	}
	return out
}

// assignment extracts the definitions of a module-level assignment: CommonJS exports
// (module.exports = {...}, exports.f = function, module.exports.x = 1), prototype members
// (Foo.prototype.m = function, Foo.prototype.x = 1, Foo.prototype = {...}), static members
// (Foo.m = function, Foo.x = 1) and members added to an object literal (o.x = 1); inside a
// module-level function, the members added to the object it builds and returns
// (app.y = function y () {}). It reports whether the statement was one.
func (x *jsExtractor) assignment(stmt, a *Node) bool {
	top := x.atModuleLevel()
	if !top && len(x.localObjects) == 0 {
		return false
	}
	w := x.w
	left, right := field(a, "left"), field(a, "right")
	if left == nil || right == nil || left.Type() != "member_expression" {
		return false
	}
	obj, prop := field(left, "object"), field(left, "property")
	objText := w.text(obj)
	if !top {
		if owner := x.localObjects[objText]; owner != nil && obj.Type() == "identifier" {
			return x.memberAssignment(stmt, prop, right, owner, "", false)
		}
		return false
	}
	switch {
	case w.text(left) == "module.exports":
		x.commonJSExports(right)
		if x.namedExport(stmt, right) {
			return true
		}
		if jsObjectIn(w, right) == nil {
			return false
		}
		x.node(left)
		return x.objectValue(right, nil, "")
	case objText == "exports" || objText == "module.exports":
		return x.exportAssignment(stmt, prop, right)
	case strings.HasSuffix(objText, ".prototype") && jsFunctionValues[right.Type()]:
		sym := w.add(stmt, prop, Method)
		if sym == nil {
			return false
		}
		sym.Visibility = Public
		meta(sym, jsMetaReceiver, strings.TrimSuffix(objText, ".prototype"))
		sym.Signature = jsSignature(w, stmt, field(right, "body"))
		x.functionParts(sym, right)
		return true
	case x.anonymous > 0: // in a callback at module level: a change to the module's objects
	case strings.HasSuffix(objText, ".prototype") && x.topNames[strings.TrimSuffix(objText, ".prototype")]:
		return x.memberAssignment(stmt, prop, right, nil, strings.TrimSuffix(objText, ".prototype"), false)
	case obj.Type() != "identifier":
	case w.text(prop) == "prototype" && x.topNames[objText]: // Foo.prototype = {...}
		return x.objectValue(right, nil, objText)
	case x.topObjects[objText] != nil:
		return x.memberAssignment(stmt, prop, right, x.topObjects[objText], "", false)
	case x.topNames[objText]:
		return x.memberAssignment(stmt, prop, right, nil, objText, true)
	}
	return false
}

// namedExport extracts module.exports = function name () {...} (or class Name {...}, a
// generator): the function or class name, a module-level definition the module exports as
// its value. It reports whether right was one.
func (x *jsExtractor) namedExport(stmt, right *Node) bool {
	w := x.w
	t := right.Type()
	if !jsFunctionValues[t] && t != "class" || t == "arrow_function" || field(right, "name") == nil {
		return false
	}
	name := w.text(field(right, "name"))
	var sym *Symbol
	if t == "class" {
		sym = x.class(right, stmt, name)
	} else {
		sym = x.function(right, stmt, name)
	}
	if sym == nil {
		return false
	}
	sym.Visibility = Public
	x.exported[name] = true
	x.exportAs(name, "module")
	return true
}

// exportAssignment extracts exports.x = value (or module.exports.x): a public module-level
// function, or constant. exports.x = x exports x, and exports.x = require("m") imports m.
func (x *jsExtractor) exportAssignment(stmt, prop, right *Node) bool {
	w := x.w
	name := w.text(prop)
	switch {
	case prop.Type() != "property_identifier" || jsIsRequire(w, right):
		return false
	case right.Type() == "identifier" && w.text(right) == name:
		x.exported[name] = true
		return false
	}
	kind := Constant
	if jsFunctionValues[right.Type()] {
		kind = Function
	}
	sym := w.addNamed(stmt, name, kind)
	if sym == nil {
		return false
	}
	sym.Visibility = Public
	if kind == Function {
		sym.Signature = jsSignature(w, stmt, field(right, "body"))
		x.functionParts(sym, right)
		return true
	}
	sym.Signature = jsSignature(w, stmt, nil)
	x.valueOf(sym, right)
	return true
}

// commonJSExports marks the names assigned to module.exports as exported.
func (x *jsExtractor) commonJSExports(v *Node) {
	w := x.w
	switch v.Type() {
	case "identifier":
		x.exported[w.text(v)] = true
		x.exportAs(w.text(v), "module")
	case "object":
		for _, c := range namedChildren(v) {
			switch c.Type() {
			case "shorthand_property_identifier":
				x.exported[w.text(c)] = true
			case "pair":
				if val := field(c, "value"); val != nil && val.Type() == "identifier" {
					x.exported[w.text(val)] = true
				}
			}
		}
	}
}

// class extracts a class (declaration, abstract class or class expression) named name, with
// its heritage and members.
func (x *jsExtractor) class(n, outer *Node, name string) *Symbol {
	w := x.w
	sym := w.addNamed(outer, name, Class)
	if sym == nil {
		return nil
	}
	body := field(n, "body")
	sym.Signature = jsSignature(w, outer, body)
	if n.Type() == "abstract_class_declaration" {
		meta(sym, jsMetaAbstract, "true")
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, jsMetaTypeParam, w.text(tp))
	}
	for _, d := range childrenOfType(n, "decorator") {
		x.node(d)
	}
	w.within(sym, func() {
		x.heritage(sym, childOfType(n, "class_heritage"))
		x.classBody(sym, body)
	})
	return sym
}

// heritage records the extends and implements relationships of a class.
func (x *jsExtractor) heritage(sym *Symbol, h *Node) {
	if h == nil {
		return
	}
	clauses := childrenOfType(h, "extends_clause", "implements_clause")
	if len(clauses) == 0 { // JavaScript: class_heritage holds the extended expression
		x.relateTypes(sym, namedChildren(h), Extends)
		return
	}
	for _, c := range clauses {
		kind := Extends
		if c.Type() == "implements_clause" {
			kind = Implements
		}
		var bases []*Node
		for _, b := range namedChildren(c) {
			if b.Type() == "type_arguments" {
				x.walk(b)
				continue
			}
			bases = append(bases, b)
		}
		x.relateTypes(sym, bases, kind)
	}
}

// relateTypes records a relationship of kind from sym to each base type or expression, and
// a type usage of its name.
func (x *jsExtractor) relateTypes(sym *Symbol, bases []*Node, kind RelKind) {
	w := x.w
	for _, b := range bases {
		if b.Type() == "generic_type" {
			x.walk(field(b, "type_arguments"))
			b = field(b, "name")
		}
		if b != nil && b.Type() == "call_expression" { // mixin(Base)
			x.node(b)
			continue
		}
		name := lastName(b)
		if name == nil {
			continue
		}
		w.relate(sym, w.text(name), kind, b)
		w.ident(name, TypeUsage)
	}
}

// classBody extracts the members of a class body.
func (x *jsExtractor) classBody(cls *Symbol, body *Node) {
	defer func(saved map[string]*Symbol) { x.accessors = saved }(x.accessors)
	x.accessors = nil
	for _, m := range namedChildren(body) {
		switch m.Type() {
		case "method_definition", "method_signature", "abstract_method_signature":
			x.method(cls, m)
		case "field_definition", "public_field_definition":
			x.field(m)
		case "decorator":
			x.node(m)
		case "comment":
		default:
			x.node(m)
		}
	}
}

// jsMemberName returns the name of a class or interface member: identifiers as written
// (#private included), string names unquoted.
func jsMemberName(w *walker, n *Node) string {
	if n == nil {
		return ""
	}
	return strings.Trim(w.text(n), "\"'`")
}

// memberVisibility returns a class member's visibility: its TypeScript accessibility
// modifier, private for #names, public otherwise.
func (x *jsExtractor) memberVisibility(m, name *Node) Visibility {
	if a := childOfType(m, "accessibility_modifier"); a != nil {
		return Visibility(x.w.text(a))
	}
	if name != nil && name.Type() == "private_property_identifier" {
		return Private
	}
	return Public
}

// memberStart returns where a class member's signature starts: at the first of the
// decorators right before it (TypeScript puts them beside the member), else at the member.
func jsMemberStart(m *Node) int {
	start := int(m.StartByte())
	for p := m.PrevSibling(); p != nil && p.Type() == "decorator"; p = p.PrevSibling() {
		start = int(p.StartByte())
	}
	return start
}

// memberModifiers records a member's static, abstract, readonly, override and async
// modifiers.
func (x *jsExtractor) memberModifiers(sym *Symbol, m *Node) {
	w := x.w
	for _, mod := range []string{jsMetaStatic, jsMetaAbstract, jsMetaReadonly, "override", jsMetaAsync} {
		if w.hasChild(m, mod) || childOfType(m, mod+"_modifier") != nil {
			meta(sym, mod, "true")
		}
	}
	if m.Type() == "abstract_method_signature" {
		meta(sym, jsMetaAbstract, "true")
	}
}

// method extracts a method, constructor, getter or setter of the class cls, or of an object
// literal when cls is nil, and returns its symbol. A getter and a setter of one name are one
// property, and TypeScript's overload signatures of a method with its implementation one
// method: the later ones are merged into the first (mergedMember).
func (x *jsExtractor) method(cls *Symbol, m *Node) *Symbol {
	w := x.w
	nameNode := field(m, "name")
	name := jsMemberName(w, nameNode)
	kind := Method
	accessor := jsAccessor(m, nameNode)
	switch {
	case accessor != "":
		kind = Property
	case name == "constructor" && cls != nil:
		kind = Constructor
	}
	if sym := x.mergedMember(m, name, kind, accessor); sym != nil {
		return sym
	}
	sym := w.addNamed(m, name, kind)
	if sym == nil {
		return nil
	}
	body := field(m, "body")
	sym.Signature = strings.TrimSpace(strings.TrimSuffix(w.signatureRange(jsMemberStart(m), int(jsEnd(m, body))), ";"))
	sym.Visibility = x.memberVisibility(m, nameNode)
	meta(sym, jsMetaAccessor, accessor)
	x.memberModifiers(sym, m)
	if kind == Constructor {
		x.parameterProperties(field(m, "parameters"))
	}
	x.functionParts(sym, m)
	if accessor != "" {
		if x.accessors == nil {
			x.accessors = map[string]*Symbol{}
		}
		x.accessors[jsAccessorKey(w, m, name)] = sym
	} else {
		x.overloadSignature(sym, m, m)
	}
	return sym
}

// jsEnd returns where a member's signature ends: at its body, or at its end without one.
func jsEnd(m, body *Node) uint32 {
	if body != nil {
		return body.StartByte()
	}
	return m.EndByte()
}

// parameterProperties extracts the TypeScript constructor parameters that declare
// properties (constructor(private x: number)).
func (x *jsExtractor) parameterProperties(params *Node) {
	w := x.w
	for _, p := range childrenOfType(params, "required_parameter", "optional_parameter") {
		acc := childOfType(p, "accessibility_modifier")
		readonly := w.hasChild(p, "readonly")
		if acc == nil && !readonly {
			continue
		}
		sym := w.add(p, field(p, "pattern"), Property)
		if sym == nil {
			continue
		}
		sym.Visibility = Public
		if acc != nil {
			sym.Visibility = Visibility(w.text(acc))
		}
		if readonly {
			meta(sym, jsMetaReadonly, "true")
		}
		meta(sym, "parameter_property", "true")
		w.typeInfo(sym, "declared", jsTypeOf(field(p, "type")))
	}
}

// field extracts a class field; one holding an arrow function or function expression is a
// method.
func (x *jsExtractor) field(m *Node) {
	w := x.w
	nameNode := field(m, "name")
	if nameNode == nil {
		nameNode = field(m, "property")
	}
	value, typ := field(m, "value"), field(m, "type")
	kind := Property
	if value != nil && jsFunctionValues[value.Type()] {
		kind = Method
	}
	sym := w.addNamed(m, jsMemberName(w, nameNode), kind)
	if sym == nil {
		return
	}
	sym.Visibility = x.memberVisibility(m, nameNode)
	x.memberModifiers(sym, m)
	if kind == Method {
		sym.Signature = w.signatureRange(jsMemberStart(m), int(jsEnd(m, field(value, "body"))))
		x.functionParts(sym, value)
		return
	}
	sym.Signature = strings.TrimSpace(strings.TrimSuffix(w.signatureRange(jsMemberStart(m), int(m.EndByte())), ";"))
	w.typeInfo(sym, "declared", jsTypeOf(typ))
	w.within(sym, func() {
		x.node(typ)
		x.node(value)
	})
}

// iface extracts a TypeScript interface with its extended interfaces and members.
func (x *jsExtractor) iface(n, outer *Node) *Symbol {
	w := x.w
	sym := w.add(outer, field(n, "name"), Interface)
	if sym == nil {
		return nil
	}
	body := field(n, "body")
	sym.Signature = jsSignature(w, outer, body)
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, jsMetaTypeParam, w.text(tp))
	}
	w.within(sym, func() {
		if ext := childOfType(n, "extends_type_clause"); ext != nil {
			x.relateTypes(sym, namedChildren(ext), Extends)
		}
		x.typeMembers(body)
	})
	return sym
}

// typeMembers extracts the property and method signatures of an interface body or object
// type; they are public.
func (x *jsExtractor) typeMembers(body *Node) {
	w := x.w
	for _, m := range namedChildren(body) {
		var sym *Symbol
		switch m.Type() {
		case "property_signature":
			sym = w.addNamed(m, jsMemberName(w, field(m, "name")), Property)
			w.typeInfo(sym, "declared", jsTypeOf(field(m, "type")))
			if w.hasChild(m, "?") {
				meta(sym, "optional", "true")
			}
		case "method_signature":
			name := jsMemberName(w, field(m, "name"))
			if prev := x.overloaded(m, name, Method); prev != nil { // an overload: one method
				x.extend(prev, m)
				x.overloadSignature(prev, m, m)
				w.within(prev, func() { x.walk(m) })
				continue
			}
			sym = w.addNamed(m, name, Method)
			w.typeInfo(sym, "return", jsTypeOf(field(m, "return_type")))
			x.overloadSignature(sym, m, m)
		case "comment":
			continue
		}
		if sym != nil {
			sym.Visibility = Public
			sym.Signature = strings.TrimSpace(strings.TrimRight(sym.Signature, ";,"))
			x.memberModifiers(sym, m)
			w.within(sym, func() { x.walk(m) })
			continue
		}
		x.walk(m)
	}
}

// typeAlias extracts a TypeScript type alias; the members of an object type alias are
// extracted like an interface's.
func (x *jsExtractor) typeAlias(n, outer *Node) *Symbol {
	w := x.w
	sym := w.add(outer, field(n, "name"), Type)
	if sym == nil {
		return nil
	}
	value := field(n, "value")
	sym.Signature = jsSignature(w, outer, nil)
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, jsMetaTypeParam, w.text(tp))
	}
	w.typeInfo(sym, "alias", value)
	if value != nil && value.Type() == "object_type" {
		sym.Signature = jsSignature(w, outer, value)
		w.within(sym, func() { x.typeMembers(value) })
		return sym
	}
	x.node(value)
	return sym
}

// enum extracts a TypeScript enum and its members.
func (x *jsExtractor) enum(n, outer *Node) *Symbol {
	w := x.w
	sym := w.add(outer, field(n, "name"), Enum)
	if sym == nil {
		return nil
	}
	body := field(n, "body")
	sym.Signature = jsSignature(w, outer, body)
	if w.hasChild(n, "const") {
		meta(sym, "const", "true")
	}
	w.within(sym, func() {
		for _, m := range namedChildren(body) {
			switch m.Type() {
			case "property_identifier", "string":
				if s := w.addNamed(m, jsMemberName(w, m), EnumMember); s != nil {
					s.Visibility = Public
				}
			case "enum_assignment":
				if s := w.addNamed(m, jsMemberName(w, field(m, "name")), EnumMember); s != nil {
					s.Visibility = Public
					w.within(s, func() { x.node(field(m, "value")) })
				}
			}
		}
	})
	return sym
}

// namespace extracts a TypeScript namespace (namespace A.B {}) or module declaration
// (declare module "m" {}) and the members inside it.
func (x *jsExtractor) namespace(n, outer *Node) *Symbol {
	w := x.w
	kind := Namespace
	if n.Type() == "module" {
		kind = Module
	}
	sym := w.addNamed(outer, jsName(w, field(n, "name"), false), kind)
	if sym == nil {
		return nil
	}
	body := field(n, "body")
	sym.Signature = jsSignature(w, outer, body)
	w.within(sym, func() { x.walk(body) })
	return sym
}

// jsTopNames returns the names the top level of root declares that may get members by
// assignment (X.y = ..., X.prototype.y = ...), as TypeScript's expando declarations: functions,
// classes, and variables holding a function, a class or an object literal.
func jsTopNames(w *walker, root *Node) map[string]bool {
	names := map[string]bool{}
	for _, st := range namedChildren(root) {
		if d := field(st, "declaration"); d != nil && st.Type() == "export_statement" {
			st = d
		}
		switch st.Type() {
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration":
			names[w.text(field(st, "name"))] = true
		case "lexical_declaration", "variable_declaration":
			for _, d := range childrenOfType(st, "variable_declarator") {
				name, v := field(d, "name"), field(d, "value")
				if name == nil || name.Type() != "identifier" || v == nil {
					continue
				}
				if jsFunctionValues[v.Type()] || v.Type() == "class" || jsObjectIn(w, v) != nil {
					names[w.text(name)] = true
				}
			}
		}
	}
	return names
}

// jsIsRequire reports whether v is a require("m") call.
func jsIsRequire(w *walker, v *Node) bool {
	return v != nil && v.Type() == "call_expression" && w.text(field(v, "function")) == "require"
}

// jsObjectIn returns the object literal v is, or wraps: (…), … as const, … satisfies T,
// Object.freeze(…); nil when it is none.
func jsObjectIn(w *walker, v *Node) *Node {
	for v != nil {
		switch v.Type() {
		case "object":
			return v
		case "parenthesized_expression", "as_expression", "satisfies_expression":
			v = v.NamedChild(0)
		case "call_expression":
			args := namedChildren(field(v, "arguments"))
			if len(args) != 1 || w.text(field(v, "function")) != "Object.freeze" {
				return nil
			}
			v = args[0]
		default:
			return nil
		}
	}
	return nil
}

// objectValue extracts the members of the object literal value is or wraps (jsObjectIn) as
// objectMembers does, and walks the wrappers' other parts. It reports whether value was one.
func (x *jsExtractor) objectValue(value *Node, owner *Symbol, receiver string) bool {
	w := x.w
	obj := jsObjectIn(w, value)
	if obj == nil {
		return false
	}
	for v := value; v != obj; {
		if v.Type() == "call_expression" { // Object.freeze({...})
			w.call(field(v, "function"))
			v = namedChildren(field(v, "arguments"))[0]
			continue
		}
		parts := namedChildren(v)
		for _, c := range parts[1:] { // the type of … satisfies T
			x.node(c)
		}
		v = parts[0]
	}
	x.objectMembers(obj, owner, receiver)
	return true
}

// objectMembers extracts the entries of an object literal that defines members: the value
// of a module-level variable (owner), of a member (owner, nested), an object a module-level
// function returns (owner the function), Foo.prototype = {...} (receiver Foo), or
// module.exports = {...} (neither: the entries are public module-level functions and
// constants). Methods and function values are methods, getters and setters properties (a
// pair of them one), other values properties whose object literals are walked alike. A
// shorthand {a} and a pair a: a are uses of a, not definitions; computed and numeric keys
// define nothing.
func (x *jsExtractor) objectMembers(obj *Node, owner *Symbol, receiver string) {
	defer func(saved map[string]*Symbol) { x.accessors = saved }(x.accessors)
	x.accessors = nil
	top := owner == nil && receiver == ""
	for _, c := range namedChildren(obj) {
		var sym *Symbol
		switch c.Type() {
		case "method_definition":
			if n := field(c, "name"); n == nil || n.Type() == "computed_property_name" || n.Type() == "number" {
				x.node(c)
				continue
			}
			sym = x.method(nil, c)
			if sym != nil && top && sym.Kind == Method {
				sym.Kind = Function
			}
		case "pair":
			sym = x.pairMember(c, top)
		default:
			x.node(c)
		}
		if sym == nil {
			continue
		}
		meta(sym, jsMetaReceiver, receiver)
		if !top {
			x.member(jsOwnerKey(owner, receiver, false), sym.Name)
		}
	}
}

// pairMember extracts the pair key: value of an object literal whose entries are members
// (objectMembers), top for module.exports's, and returns its symbol (nil when it defines
// nothing).
func (x *jsExtractor) pairMember(c *Node, top bool) *Symbol {
	w := x.w
	val := field(c, "value")
	name := jsKeyName(w, field(c, "key"))
	switch {
	case val != nil && val.Type() == "identifier" && w.text(val) == name:
		w.ident(val, VariableRef)
		return nil
	case name == "" || val == nil:
		x.node(c)
		return nil
	}
	fn := jsFunctionValues[val.Type()]
	kind := Property
	switch {
	case fn && top:
		kind = Function
	case fn:
		kind = Method
	case top:
		kind = Constant
	}
	sym := w.addNamed(c, name, kind)
	if sym == nil {
		x.node(c)
		return nil
	}
	sym.Visibility = Public
	if fn {
		sym.Signature = jsSignature(w, c, field(val, "body"))
		x.functionParts(sym, val)
		return sym
	}
	sym.Signature = jsSignature(w, c, nil)
	x.valueOf(sym, val)
	return sym
}

// jsKeyName returns the name an object literal's key defines: an identifier, or a string's
// text; "" for a computed or numeric key.
func jsKeyName(w *walker, key *Node) string {
	if key == nil {
		return ""
	}
	switch key.Type() {
	case "property_identifier":
		return w.text(key)
	case "string":
		return jsMemberName(w, key)
	}
	return ""
}

// valueOf walks v, the value of the variable, constant or property sym: the members of an
// object literal, else the expression.
func (x *jsExtractor) valueOf(sym *Symbol, v *Node) {
	x.w.within(sym, func() {
		if v.Type() == "identifier" {
			x.w.ident(v, VariableRef)
		}
		if !x.objectValue(v, sym, "") {
			x.node(v)
		}
	})
}

// jsOwnerKey is the key of x.members for the members of owner, or of the receiver's
// prototype, or (static) of the receiver itself.
func jsOwnerKey(owner *Symbol, receiver string, static bool) string {
	switch {
	case owner != nil:
		return owner.ID
	case static:
		return "static " + receiver
	}
	return receiver
}

// member records that name is defined as a member for the owner key.
func (x *jsExtractor) member(key, name string) {
	if x.members == nil {
		x.members = map[string]map[string]bool{}
	}
	m := x.members[key]
	if m == nil {
		m = map[string]bool{}
		x.members[key] = m
	}
	m[name] = true
}

// holder records sym, holding an object literal whose members are definitions, under name:
// o.y = ... and Object.defineProperties(o, ...) then define members of it. top says it is a
// module-level variable, else a local of the module-level function being walked.
func (x *jsExtractor) holder(name string, sym *Symbol, top bool) {
	if top {
		if x.topObjects == nil {
			x.topObjects = map[string]*Symbol{}
		}
		x.topObjects[name] = sym
		return
	}
	m := make(map[string]*Symbol, len(x.localObjects)+1) // a copy: functionBody restores the old
	for k, v := range x.localObjects {
		m[k] = v
	}
	m[name] = sym
	x.localObjects = m
}

// memberAssignment extracts o.name = right, which defines a member name of owner (a
// holder of an object literal), or of the receiver's prototype, or (static) of the receiver:
// a method for a function value, else a property. o.x = x, o.x = require("m") and a name
// already defined for the owner define nothing. It reports whether the statement defined
// one.
func (x *jsExtractor) memberAssignment(stmt, prop, right *Node, owner *Symbol, receiver string, static bool) bool {
	w := x.w
	name := w.text(prop)
	key := jsOwnerKey(owner, receiver, static)
	switch {
	case prop.Type() != "property_identifier", jsIsRequire(w, right),
		right.Type() == "identifier" && w.text(right) == name,
		x.members[key][name]:
		return false
	}
	kind := Property
	if jsFunctionValues[right.Type()] {
		kind = Method
	}
	sym := w.addNamed(stmt, name, kind)
	if sym == nil {
		return false
	}
	if owner != nil {
		sym.ParentID = owner.ID
	}
	x.member(key, name)
	sym.Visibility = Public
	meta(sym, jsMetaReceiver, receiver)
	if static {
		meta(sym, jsMetaStatic, "true")
	}
	if kind == Method {
		sym.Signature = jsSignature(w, stmt, field(right, "body"))
		x.functionParts(sym, right)
		return true
	}
	sym.Signature = jsSignature(w, stmt, nil)
	x.valueOf(sym, right)
	return true
}

// defineProperties extracts the properties Object.defineProperty(X.prototype, "y", {...})
// and Object.defineProperties(X.prototype, {y: {...}}) define, n the call and fn its
// function: at module level, of the prototype of a function or class of the file or of X
// itself (static), or of an object literal variable; inside a module-level function, of the
// object it builds. It reports whether n was one.
func (x *jsExtractor) defineProperties(n, fn, args *Node) bool {
	w := x.w
	f := w.text(fn)
	if f != "Object.defineProperty" && f != "Object.defineProperties" {
		return false
	}
	as := namedChildren(args)
	if len(as) < 2 {
		return false
	}
	owner, receiver, static := x.propertyOwner(as[0])
	if owner == nil && receiver == "" {
		return false
	}
	w.call(fn)
	x.variableRefs(args)
	x.node(as[0])
	props := as[1]
	if f == "Object.defineProperty" {
		if name := jsKeyName(w, as[1]); len(as) == 3 && as[2].Type() == "object" && name != "" {
			x.describedProperty(n, name, as[2], owner, receiver, static)
			return true
		}
		props = nil
	}
	if props == nil || props.Type() != "object" {
		for _, a := range as[1:] {
			x.node(a)
		}
		return true
	}
	for _, c := range namedChildren(props) {
		if c.Type() == "pair" {
			desc := field(c, "value")
			if name := jsKeyName(w, field(c, "key")); name != "" && desc != nil && desc.Type() == "object" {
				x.describedProperty(c, name, desc, owner, receiver, static)
				continue
			}
		}
		x.node(c)
	}
	return true
}

// propertyOwner returns whose properties Object.defineProperty(target, ...) defines: a
// holder of an object literal, or the name of a function or class of the file (static when
// target is it, not its prototype).
func (x *jsExtractor) propertyOwner(target *Node) (owner *Symbol, receiver string, static bool) {
	w := x.w
	top := x.atModuleLevel() && x.anonymous == 0
	switch target.Type() {
	case "identifier":
		name := w.text(target)
		switch {
		case !top:
			return x.localObjects[name], "", false
		case x.topObjects[name] != nil:
			return x.topObjects[name], "", false
		case x.topNames[name]:
			return nil, name, true
		}
	case "member_expression":
		obj := field(target, "object")
		if top && obj.Type() == "identifier" && w.text(field(target, "property")) == "prototype" && x.topNames[w.text(obj)] {
			return nil, w.text(obj), false
		}
	}
	return nil, "", false
}

// describedProperty extracts the property name defined by the descriptor desc of
// Object.defineProperty, def its definition (the call, or the pair of
// Object.defineProperties): a property with its getter and setter, or a method when the
// descriptor's value is a function.
func (x *jsExtractor) describedProperty(def *Node, name string, desc *Node, owner *Symbol, receiver string, static bool) {
	w := x.w
	key := jsOwnerKey(owner, receiver, static)
	if x.members[key][name] {
		x.node(desc)
		return
	}
	kind, accessor := Property, ""
	var first *Node // the first function of the descriptor: the signature ends at its body
	for _, c := range namedChildren(desc) {
		k, v := "", c
		switch c.Type() {
		case "method_definition":
			k = w.text(field(c, "name"))
		case "pair":
			if k, v = jsKeyName(w, field(c, "key")), field(c, "value"); v == nil || !jsFunctionValues[v.Type()] {
				continue
			}
		default:
			continue
		}
		switch k {
		case "get", "set":
			accessor = jsJoinAccessor(accessor, k)
		case "value":
			kind = Method
		default:
			continue
		}
		if first == nil {
			first = v
		}
	}
	sym := w.addNamed(def, name, kind)
	if sym == nil {
		x.node(desc)
		return
	}
	if owner != nil {
		sym.ParentID = owner.ID
	}
	x.member(key, name)
	sym.Visibility = Public
	sym.Signature = jsSignature(w, def, field(first, "body"))
	meta(sym, jsMetaAccessor, accessor)
	meta(sym, jsMetaReceiver, receiver)
	if static {
		meta(sym, jsMetaStatic, "true")
	}
	w.within(sym, func() { x.node(desc) })
}

// jsJoinAccessor adds the accessor k (get or set) to those a property has.
func jsJoinAccessor(have, k string) string {
	if have == "" || have == k {
		return k
	}
	return "get,set"
}

// functionBody walks the body of the function fn. The object a module-level function builds
// and returns has members that are definitions (a factory's API): those of an object literal
// it returns (return { a () {} }) are fn's, and a variable holding an object literal it
// returns (const app = {...}; ...; return app) is a definition inside fn, whose members
// are the literal's and those added to it later (app.y = ..., Object.defineProperties(app,
// {...})).
func (x *jsExtractor) functionBody(fn *Symbol, body *Node) {
	if body == nil || body.Type() != "statement_block" || fn.Kind != Function || fn.ParentID != "" || x.local > 0 || x.anonymous > 0 {
		x.node(body)
		return
	}
	w := x.w
	stmts := namedChildren(body)
	var returned []string
	for _, st := range stmts {
		if v := st.NamedChild(0); st.Type() == "return_statement" && v != nil && v.Type() == "identifier" {
			returned = append(returned, w.text(v))
		}
	}
	defer func(saved map[string]*Symbol) { x.localObjects = saved }(x.localObjects)
	for _, st := range stmts {
		switch st.Type() {
		case "return_statement":
			if x.objectValue(st.NamedChild(0), fn, "") {
				continue
			}
		case "lexical_declaration", "variable_declaration":
			if d := x.returnedHolder(st, returned); d != nil {
				kind := Variable
				if st.Child(0).Type() == "const" {
					kind = Constant
				}
				x.declarator(d, st, kind)
				continue
			}
		}
		x.node(st)
	}
}

// returnedHolder returns the declarator of the declaration st when it is the only one, and
// binds one of the names returned to an object literal.
func (x *jsExtractor) returnedHolder(st *Node, returned []string) *Node {
	if len(returned) == 0 {
		return nil
	}
	decls := childrenOfType(st, "variable_declarator")
	if len(decls) != 1 {
		return nil
	}
	name := field(decls[0], "name")
	if name == nil || name.Type() != "identifier" || jsObjectIn(x.w, field(decls[0], "value")) == nil {
		return nil
	}
	for _, r := range returned {
		if r == x.w.text(name) {
			return decls[0]
		}
	}
	return nil
}

// jsAccessor returns get or set for a getter or setter m named by nameNode, else "" (a
// method named get is no getter).
func jsAccessor(m, nameNode *Node) string {
	for i := 0; i < int(m.ChildCount()); i++ {
		c := m.Child(i)
		if c.Equal(nameNode) {
			break
		}
		if t := c.Type(); t == "get" || t == "set" {
			return t
		}
	}
	return ""
}

// jsAccessorKey is the key of x.accessors for the getter or setter m named name.
func jsAccessorKey(w *walker, m *Node, name string) string {
	if w.hasChild(m, "static") {
		return "static " + name
	}
	return name
}

// mergedMember merges the class or object member m into the definition it continues, and
// returns that: a setter into the getter of the same name before it (or the reverse), an
// overload signature or implementation into the overload signature right before it. It
// returns nil when m starts a definition.
func (x *jsExtractor) mergedMember(m *Node, name string, kind Kind, accessor string) *Symbol {
	if accessor == "" {
		sym := x.overloaded(m, name, kind)
		if sym != nil {
			x.mergeOverload(sym, m, m)
		}
		return sym
	}
	prev := x.accessors[jsAccessorKey(x.w, m, name)]
	if prev == nil || prev.Metadata[jsMetaAccessor] == accessor || prev.Metadata[jsMetaAccessor] == "get,set" {
		return nil
	}
	meta(prev, jsMetaAccessor, "get,set")
	if p := jsPrevMember(m); p != nil && int(p.EndByte()) == prev.EndByte { // the two side by side
		x.extend(prev, m)
	}
	if prev.DocComment == "" {
		prev.DocComment = x.w.docComment(m)
	}
	x.mergeParts(prev, m)
	return prev
}

// overloaded returns the symbol of the TypeScript overload signature right before outer
// when it declares name as kind: outer continues it.
func (x *jsExtractor) overloaded(outer *Node, name string, kind Kind) *Symbol {
	if len(x.overloads) == 0 {
		return nil
	}
	p := jsPrevMember(outer)
	if p == nil {
		return nil
	}
	if sym := x.overloads[p.StartByte()]; sym != nil && sym.Name == name && sym.Kind == kind && sym.EndByte == int(p.EndByte()) {
		return sym
	}
	return nil
}

// overloadSignature records sym, declared by n whose statement is outer, as an overload
// signature when n has no body: a declaration of the same name right after it continues it.
func (x *jsExtractor) overloadSignature(sym *Symbol, n, outer *Node) {
	if sym == nil || field(n, "body") != nil {
		return
	}
	if x.overloads == nil {
		x.overloads = map[uint32]*Symbol{}
	}
	x.overloads[outer.StartByte()] = sym
}

// mergeOverload merges n, an overload signature or the implementation of sym's overloads
// (outer its statement), into sym: sym spans it, and what it holds is inside sym. The
// signature, type parameters and return type stay the first overload's.
func (x *jsExtractor) mergeOverload(sym *Symbol, n, outer *Node) {
	x.extend(sym, outer)
	if sym.DocComment == "" {
		sym.DocComment = x.w.docComment(outer)
	}
	x.mergeParts(sym, n)
	x.overloadSignature(sym, n, outer)
}

// mergeParts walks the parameters, return type and body of the function-like n inside sym,
// which n continues.
func (x *jsExtractor) mergeParts(sym *Symbol, n *Node) {
	if x.w.hasChild(n, "async") {
		meta(sym, jsMetaAsync, "true")
	}
	x.w.within(sym, func() {
		x.node(field(n, "parameters"))
		if p := field(n, "parameter"); p != nil {
			x.node(p)
		}
		x.node(field(n, "return_type"))
		x.functionBody(sym, field(n, "body"))
	})
}

// extend makes sym's span end where n ends.
func (x *jsExtractor) extend(sym *Symbol, n *Node) {
	sp := x.w.span(n)
	sym.EndLine, sym.EndColumn, sym.EndByte = sp.EndLine, sp.EndColumn, sp.EndByte
}

// jsPrevMember returns the statement or member before n, comments and decorators skipped.
func jsPrevMember(n *Node) *Node {
	p := n.PrevNamedSibling()
	for p != nil && (p.Type() == "comment" || p.Type() == "decorator") {
		p = p.PrevNamedSibling()
	}
	return p
}
