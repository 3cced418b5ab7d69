package extract

import (
	"strings"
)

func init() {
	register("c", func(w *walker, root *Node) { newCFamily(w, false).run(root) })
	register("cpp", func(w *walker, root *Node) { newCFamily(w, true).run(root) })
}

// Metadata keys the C and C++ extractor sets.
const (
	cMetaScope       = "scope"
	cMetaDeclaration = "declaration"
	cMetaTemplate    = "template_parameters"
)

// cTypeLeaves are the node types of type names recorded as type usages.
var cTypeLeaves = []string{"type_identifier"}

// cFamily extracts C and C++ files. It keeps the qualified names of the types and
// namespaces it has seen, so that out-of-line definitions (void Shape::draw() {...}) attach
// to their class.
type cFamily struct {
	w      *walker
	cpp    bool
	prefix []string           // enclosing namespace and class names
	scopes map[string]*Symbol // qualified name -> class, struct, union or namespace
	at     map[*Symbol]string // qualified definition -> the prefix it is written under
	locals []map[string]bool  // the parameter and local names of the functions being walked
}

func newCFamily(w *walker, cpp bool) *cFamily {
	return &cFamily{w: w, cpp: cpp, scopes: map[string]*Symbol{}, at: map[*Symbol]string{}}
}

// run walks the file, then attaches out-of-line definitions to their class or namespace.
func (c *cFamily) run(root *Node) {
	c.w.walk(root, c.node)
	c.attachScoped()
}

// attachScoped gives each qualified definition (A::b) the parent A when the file defines it,
// makes it a method when A is a class, and copies the access of its in-class declaration.
func (c *cFamily) attachScoped() {
	for _, s := range c.w.syms {
		scope := s.Metadata[cMetaScope]
		if scope == "" {
			continue
		}
		owner := c.lookupScope(scope, s)
		if owner == nil {
			continue
		}
		s.ParentID = owner.ID
		if owner.Kind == Namespace {
			continue
		}
		if s.Kind == Function {
			s.Kind = Method
		}
		for _, d := range c.w.syms {
			if d != s && d.ParentID == owner.ID && d.Name == s.Name && d.Visibility != "" {
				s.Visibility = d.Visibility
				break
			}
		}
	}
}

// lookupScope finds the symbol named by the qualified scope of s, trying the namespaces s
// sits in first.
func (c *cFamily) lookupScope(scope string, s *Symbol) *Symbol {
	if prefix := c.at[s]; prefix != "" {
		if t := c.scopes[prefix+"::"+scope]; t != nil {
			return t
		}
	}
	return c.scopes[strings.TrimPrefix(scope, "::")]
}

// qualify returns name qualified by the enclosing namespaces and classes.
func (c *cFamily) qualify(name string) string {
	return strings.Join(append(append([]string(nil), c.prefix...), name), "::")
}

// inBody reports whether the innermost container is a function, where declarations are
// locals.
func (c *cFamily) inBody() bool {
	s := c.w.container()
	return s != nil && s.Kind.IsCallable()
}

// inType reports whether the innermost container is a class, struct or union.
func (c *cFamily) inType() bool {
	s := c.w.container()
	return s != nil && (s.Kind == Class || s.Kind == Struct || s.Kind == Union)
}

// node extracts n: a definition, a use of a name, or a node to walk through.
func (c *cFamily) node(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "preproc_include":
		path := field(n, "path")
		if sym := w.importName(n, path, w.text(path)); sym != nil {
			sym.DocComment = ""
		}
		return
	case "preproc_def", "preproc_function_def":
		c.macro(n)
		return
	case "using_declaration":
		if !c.inBody() {
			c.using(n)
		}
		return
	case "namespace_definition":
		c.namespace(n)
		return
	case "template_declaration":
		c.template(n)
		return
	case "function_definition":
		c.function(n, n, "")
		return
	case "declaration", "field_declaration":
		c.declaration(n, n, "")
		return
	case "type_definition", "alias_declaration":
		c.typedef(n, n)
		return
	case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
		if field(n, "body") != nil {
			c.record(n, n, "", "")
			return
		}
		w.typeRefs(field(n, "name"), cTypeLeaves...)
		return
	case "call_expression":
		fn := field(n, "function")
		w.call(fn)
		switch {
		case fn == nil:
		case fn.Type() == "field_expression":
			c.node(w, field(fn, "argument"))
		case fn.Type() == "qualified_identifier":
			c.qualified(fn, true) // the scopes; the name is the call's
		case fn.Type() != "identifier":
			c.node(w, fn)
		}
		c.args(field(n, "arguments"))
		return
	case "identifier":
		w.ident(n, VariableRef)
		return
	case "field_designator":
		w.member(childOfType(n, "field_identifier"), nil, MemberAccess)
		return
	case "qualified_identifier":
		c.qualified(n, false)
		return
	case "field_initializer": // a member initializer: : title_(t)
		if m := childOfType(n, "field_identifier"); m != nil {
			w.ident(m, VariableRef)
		}
		for _, a := range namedChildren(n) {
			if a.Type() != "field_identifier" {
				c.node(w, a)
			}
		}
		return
	case "for_range_loop":
		c.node(w, field(n, "type"))
		c.localDecl(field(n, "declarator"))
		c.node(w, field(n, "right"))
		c.node(w, field(n, "body"))
		return
	case "catch_clause", "lambda_expression":
		c.params(field(n, "parameters"), true)
		if d := field(n, "declarator"); d != nil {
			c.params(field(d, "parameters"), true)
		}
		c.node(w, field(n, "captures"))
		c.node(w, field(n, "body"))
		return
	case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
		c.param(n, true)
		return
	case "field_expression":
		w.member(field(n, "field"), n, MemberAccess)
		c.node(w, field(n, "argument"))
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "argument_list", "initializer_list":
		c.args(n)
		return
	case "comment":
		return
	}
	w.walk(n, c.node)
}

// args records the plain identifiers passed as call arguments and walks the rest.
func (c *cFamily) args(n *Node) {
	for _, a := range namedChildren(n) {
		if a.Type() == "identifier" {
			c.w.ident(a, VariableRef)
			continue
		}
		c.node(c.w, a)
	}
}

// add finishes a symbol recorded for the definition def: C's doc comment (a trailing comment
// of the previous line is not taken), and the namespace it sits in.
func (c *cFamily) add(sym *Symbol, def *Node) *Symbol {
	if sym == nil {
		return nil
	}
	sym.DocComment = cDoc(c.w, def)
	return sym
}

// cDoc returns the comment block right above n, without a comment that trails the code of
// its own line.
func cDoc(w *walker, n *Node) string {
	var parts []string
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil && p.Type() == "comment"; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 {
			break
		}
		if q := p.PrevSibling(); q != nil && q.Type() != "comment" && q.EndPoint().Row == p.StartPoint().Row && q.EndPoint().Column > 0 {
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

// fileVisibility is the visibility of a file-level or namespace-level declaration: static
// is file private, anything else has external linkage (public).
func (c *cFamily) fileVisibility(n *Node) Visibility {
	for _, s := range childrenOfType(n, "storage_class_specifier") {
		if c.w.text(s) == "static" {
			return FilePrivate
		}
	}
	return Public
}

// macro records a #define: a constant, or a function with metadata macro.
func (c *cFamily) macro(n *Node) {
	kind := Constant
	if n.Type() == "preproc_function_def" {
		kind = Function
	}
	sym := c.add(c.w.add(n, field(n, "name"), kind), n)
	if sym == nil {
		return
	}
	meta(sym, "macro", "true")
	if kind == Function {
		sym.Signature = c.w.signatureRange(int(n.StartByte()), int(field(n, "parameters").EndByte()))
	}
	c.w.within(sym, func() { c.macroBody(n) })
}

// using records a using declaration (using std::string) or directive (using namespace std)
// as an import.
func (c *cFamily) using(n *Node) {
	name := childOfType(n, "qualified_identifier", "identifier", "namespace_identifier")
	sym := c.w.importName(n, lastName(name), c.w.text(name))
	if sym != nil {
		sym.DocComment = ""
	}
	if c.w.hasChild(n, "namespace") {
		meta(sym, "directive", "true")
	}
}

// namespace records a namespace and its declarations (an anonymous namespace is walked
// without a symbol).
func (c *cFamily) namespace(n *Node) {
	name := field(n, "name")
	body := field(n, "body")
	if name == nil {
		c.w.walk(body, c.node)
		return
	}
	sym := c.add(c.w.add(n, name, Namespace), n)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	q := c.qualify(sym.Name)
	if c.scopes[q] == nil {
		c.scopes[q] = sym
	}
	c.prefix = append(c.prefix, sym.Name)
	c.w.within(sym, func() { c.w.walk(body, c.node) })
	c.prefix = c.prefix[:len(c.prefix)-1]
}

// template records the definition a template declaration wraps, its span and signature
// starting at the template keyword.
func (c *cFamily) template(n *Node) {
	params := field(n, "parameters")
	c.templateDefaults(params)
	for _, d := range namedChildren(n) {
		if d == params || d.Type() == "comment" {
			continue
		}
		switch d.Type() {
		case "function_definition":
			c.function(d, n, c.w.text(params))
		case "declaration", "field_declaration":
			c.declaration(d, n, c.w.text(params))
		case "class_specifier", "struct_specifier", "union_specifier":
			if field(d, "body") == nil {
				c.w.typeRefs(field(d, "name"), cTypeLeaves...)
				continue
			}
			c.record(d, n, c.w.text(params), "")
		case "alias_declaration", "type_definition":
			meta(c.typedef(d, n), cMetaTemplate, c.w.text(params))
		default:
			c.node(c.w, d)
		}
	}
}

// declName finds the name inside a declarator (the x of *x[3], the f of (*f)(int)).
func declName(n *Node) *Node {
	for n != nil {
		switch n.Type() {
		case "identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name", "qualified_identifier", "template_function", "primitive_type", "operator_cast":
			return n
		}
		if d := field(n, "declarator"); d != nil {
			n = d
			continue
		}
		n = childOfType(n, "identifier", "field_identifier", "type_identifier", "pointer_declarator", "function_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator", "qualified_identifier", "destructor_name", "operator_name")
	}
	return nil
}

// funcDeclarator returns the function declarator inside a declarator, or nil for a variable.
func funcDeclarator(n *Node) *Node {
	for n != nil {
		switch n.Type() {
		case "function_declarator":
			if d := field(n, "declarator"); d != nil && d.Type() == "parenthesized_declarator" {
				return nil // a function pointer variable
			}
			return n
		case "identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name", "operator_cast":
			return nil
		}
		n = cInnerDeclarator(n)
	}
	return nil
}

// cInnerDeclarator returns the declarator a declarator wraps (the x of *x or &x), or nil.
func cInnerDeclarator(n *Node) *Node {
	if d := field(n, "declarator"); d != nil {
		return d
	}
	return childOfType(n, "function_declarator", "pointer_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator", "identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name")
}

// funcName splits the declared name of a function into its simple name, the node spelling
// it, its qualifying scope (A::B of A::B::f) and its kind (function, constructor, destructor,
// operator).
func (c *cFamily) funcName(decl *Node) (name string, at *Node, scope string, kind Kind) {
	at = declName(decl)
	kind = Function
	for at != nil && at.Type() == "qualified_identifier" {
		if s := field(at, "scope"); s != nil {
			if scope != "" {
				scope += "::"
			}
			scope += c.w.text(s)
		}
		at = field(at, "name")
	}
	if at == nil {
		return "", nil, scope, kind
	}
	name = c.w.text(at)
	switch at.Type() {
	case "destructor_name":
		kind = Destructor
	case "operator_name":
		kind = Operator
	case "operator_cast":
		kind = Operator
		name = "operator " + c.w.text(field(at, "type"))
	case "template_function":
		name = c.w.text(field(at, "name"))
	}
	owner := scope
	if i := strings.LastIndex(owner, "::"); i >= 0 {
		owner = owner[i+2:]
	}
	if i := strings.IndexByte(owner, '<'); i >= 0 {
		owner = owner[:i]
	}
	if cls := c.w.container(); owner == "" && c.inType() && cls != nil {
		owner = cls.Name
	}
	if kind == Function && owner != "" && name == owner {
		kind = Constructor
	}
	if kind == Function && c.inType() {
		kind = Method
	}
	return name, at, scope, kind
}

// function records a function definition (or a method, constructor, destructor or operator)
// and walks its body; def is the node the symbol spans (a template declaration around n).
func (c *cFamily) function(n, def *Node, template string) {
	declarator := field(n, "declarator")
	if funcDeclarator(declarator) == nil && c.inType() {
		c.fields(n, def) // int x = 0; misread as a pure virtual function
		return
	}
	sym := c.funcSymbol(n, def, declarator, template)
	if sym == nil {
		c.w.walk(field(n, "body"), c.node)
		return
	}
	end := int(n.EndByte())
	for _, f := range []*Node{field(n, "body"), childOfType(n, "field_initializer_list"), childOfType(n, "try_statement")} {
		if f != nil && int(f.StartByte()) < end {
			end = int(f.StartByte())
		}
	}
	sym.Signature = strings.TrimSuffix(c.w.signatureRange(int(def.StartByte()), end), ";")
	c.pushLocals()
	c.w.within(sym, func() {
		c.w.typeRefs(field(n, "type"), cTypeLeaves...)
		c.w.typeRefs(funcDeclarator(declarator), cTypeLeaves...)
		c.params(field(funcDeclarator(declarator), "parameters"), false)
		c.sizes(declarator)
		c.node(c.w, childOfType(n, "field_initializer_list"))
		c.node(c.w, field(n, "body"))
	})
	c.popLocals(sym)
}

// funcSymbol records the symbol of a function definition or declaration.
func (c *cFamily) funcSymbol(n, def, declarator *Node, template string) *Symbol {
	name, at, scope, kind := c.funcName(declarator)
	if at == nil {
		return nil
	}
	sym := c.add(c.w.addNamed(def, name, kind), def)
	if sym == nil {
		return nil
	}
	meta(sym, cMetaScope, scope)
	if scope != "" && len(c.prefix) > 0 {
		c.at[sym] = strings.Join(c.prefix, "::")
	}
	meta(sym, cMetaTemplate, template)
	switch {
	case c.inType():
		sym.Visibility = c.access()
	case scope == "":
		sym.Visibility = c.fileVisibility(n)
	}
	for _, mod := range []string{"virtual", "static", "inline", "constexpr", "explicit"} {
		if c.w.hasChild(n, mod) || c.hasSpecifier(n, mod) {
			meta(sym, mod, "true")
		}
	}
	if childOfType(n, "pure_virtual_clause") != nil {
		meta(sym, "abstract", "true")
	}
	if fd := funcDeclarator(declarator); fd != nil {
		for _, v := range childrenOfType(fd, "virtual_specifier") {
			meta(sym, c.w.text(v), "true")
		}
	}
	if t := field(n, "type"); t != nil && kind != Constructor && kind != Destructor {
		c.typeInfo(sym, "return", t, declarator)
	}
	return sym
}

// hasSpecifier reports whether one of n's specifier children spells tok (explicit, virtual).
func (c *cFamily) hasSpecifier(n *Node, tok string) bool {
	for _, s := range namedChildren(n) {
		if strings.HasSuffix(s.Type(), "specifier") && c.w.text(s) == tok {
			return true
		}
	}
	return false
}

// access returns the access of the member being walked in the innermost class.
func (c *cFamily) access() Visibility {
	if s := c.w.container(); s != nil && s.Metadata["access"] != "" {
		return Visibility(s.Metadata["access"])
	}
	return Public
}

// declaration records what a declaration declares: function prototypes, variables and
// constants (fields inside a class), and the types defined in it.
func (c *cFamily) declaration(n, def *Node, template string) {
	typ := field(n, "type")
	if typ != nil && field(typ, "body") != nil {
		c.record(typ, typ, template, "")
	}
	if c.inBody() {
		c.localDeclaration(n)
		return
	}
	decls := c.declarators(n)
	if len(decls) > 0 && funcDeclarator(decls[0]) != nil {
		for _, d := range decls {
			sym := c.funcSymbol(n, def, d, template)
			meta(sym, cMetaDeclaration, "true")
			if sym != nil {
				sym.Signature = c.w.signatureRange(int(def.StartByte()), int(n.EndByte()))
				sym.Signature = strings.TrimSuffix(sym.Signature, ";")
			}
			c.w.within(sym, func() {
				c.w.typeRefs(d, cTypeLeaves...)
				c.sizes(d)
			})
		}
		if typ == nil || field(typ, "body") == nil {
			c.w.typeRefs(typ, cTypeLeaves...)
		}
		return
	}
	c.fields(n, def)
}

// declarators returns the declarator children of a declaration.
func (c *cFamily) declarators(n *Node) []*Node {
	var out []*Node
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) == "declarator" {
			out = append(out, n.Child(i))
		}
	}
	return out
}

// fields records the variables, constants or fields one declaration declares.
func (c *cFamily) fields(n, def *Node) {
	typ := field(n, "type")
	kind := Variable
	if c.inType() {
		kind = Field
	}
	isConst := c.hasQualifier(n, "const") || c.hasQualifier(n, "constexpr") || c.w.hasChild(n, "constexpr")
	for _, d := range c.declarators(n) {
		at := declName(d)
		if at == nil {
			continue
		}
		k := kind
		if isConst && (d.Type() != "pointer_declarator" && field(d, "declarator") == nil || d.Type() == "init_declarator" && field(d, "declarator").Type() != "pointer_declarator") {
			k = Constant
		}
		sym := c.add(c.w.add(def, at, k), def)
		if sym == nil {
			continue
		}
		if c.inType() {
			sym.Visibility = c.access()
		} else {
			sym.Visibility = c.fileVisibility(n)
		}
		if c.w.hasChild(n, "static") {
			meta(sym, "static", "true")
		}
		if c.w.hasChild(n, "extern") {
			meta(sym, "extern", "true")
		}
		c.typeInfo(sym, "declared", typ, d)
		c.w.within(sym, func() { c.sizes(d) })
		c.w.within(sym, func() { c.node(c.w, field(d, "value")) })
		if v := field(d, "default_value"); v != nil {
			c.w.within(sym, func() { c.node(c.w, v) })
		}
	}
	if typ == nil || field(typ, "body") == nil {
		c.w.typeRefs(typ, cTypeLeaves...)
	}
}

// hasQualifier reports whether n has a type qualifier tok (const, constexpr).
func (c *cFamily) hasQualifier(n *Node, tok string) bool {
	for _, q := range childrenOfType(n, "type_qualifier") {
		if c.w.text(q) == tok {
			return true
		}
	}
	return false
}

// typedef records a typedef or using alias as a type with its target. A typedef of an
// anonymous struct names the struct itself.
func (c *cFamily) typedef(n, def *Node) *Symbol {
	typ := field(n, "type")
	if body := field(typ, "body"); body != nil {
		if field(typ, "name") == nil {
			if d := declName(field(n, "declarator")); d != nil {
				return c.record(typ, n, "", c.w.text(d))
			}
		}
		if rec := c.record(typ, typ, "", ""); rec != nil && rec.DocComment == "" {
			rec.DocComment = cDoc(c.w, def)
		}
	}
	var last *Symbol
	names := []*Node{field(n, "name")}
	if n.Type() == "type_definition" {
		names = c.declarators(n)
	}
	for _, d := range names {
		at := declName(d)
		if at == nil {
			continue
		}
		sym := c.add(c.w.add(def, at, Type), def)
		if sym == nil {
			continue
		}
		last = sym
		sym.Signature = c.typedefSignature(n, def, typ)
		if c.inType() {
			sym.Visibility = c.access()
		} else {
			sym.Visibility = Public
		}
		c.aliasInfo(sym, n, typ, d, at)
		c.w.within(sym, func() { c.sizes(d) })
		if fd := funcDeclarator(d); fd != nil || d.Type() != "type_identifier" {
			c.w.within(sym, func() { c.w.typeRefs(field(c.innerFunc(d), "parameters"), cTypeLeaves...) })
		}
	}
	if typ == nil || field(typ, "body") == nil {
		c.w.typeRefs(typ, cTypeLeaves...)
	}
	return last
}

// typedefSignature returns the signature of a typedef or alias without the body of a struct
// it defines (typedef struct shape shape_t).
func (c *cFamily) typedefSignature(n, def, typ *Node) string {
	end := int(n.EndByte())
	body := field(typ, "body")
	if body == nil {
		return strings.TrimSuffix(c.w.signatureRange(int(def.StartByte()), end), ";")
	}
	head := c.w.signatureRange(int(def.StartByte()), int(body.StartByte()))
	tail := c.w.signatureRange(int(body.EndByte()), end)
	return strings.TrimSuffix(strings.TrimSpace(head+" "+tail), ";")
}

// aliasInfo records the target of a typedef or alias: its type, or for a declarator that is
// not a plain name the type and declarator without the name (int (*)(int) of a function
// pointer typedef).
func (c *cFamily) aliasInfo(sym *Symbol, n, typ, d, at *Node) {
	if sym == nil || typ == nil {
		return
	}
	t := c.w.text(typ)
	if b := field(typ, "body"); b != nil {
		t = c.w.signatureRange(int(typ.StartByte()), int(b.StartByte()))
	}
	if n.Type() == "type_definition" && d.Type() != "type_identifier" {
		t += " " + c.w.text(d)[:at.StartByte()-d.StartByte()] + c.w.text(d)[at.EndByte()-d.StartByte():]
	}
	c.w.f.Types = append(c.w.f.Types, TypeInfo{SymbolID: sym.ID, Role: "alias", Type: oneLine(t, maxSignatureRunes)})
}

// innerFunc returns the function declarator inside a declarator (also through a pointer),
// or nil.
func (c *cFamily) innerFunc(d *Node) *Node {
	for ; d != nil; d = childOfType(d, "function_declarator", "pointer_declarator", "parenthesized_declarator", "reference_declarator") {
		if d.Type() == "function_declarator" {
			return d
		}
	}
	return nil
}

// record records a class, struct, union or enum with a body, and its members. def is the node
// the symbol spans; name replaces the missing name of an anonymous type.
func (c *cFamily) record(n, def *Node, template, name string) *Symbol {
	kind := map[string]Kind{"class_specifier": Class, "struct_specifier": Struct, "union_specifier": Union, "enum_specifier": Enum}[n.Type()]
	if name == "" {
		name = c.w.text(lastName(field(n, "name")))
	}
	body := field(n, "body")
	sym := c.add(c.w.addNamed(def, name, kind), def)
	if sym == nil || body == nil {
		c.w.walk(body, c.node)
		return sym
	}
	sym.Signature = c.w.signatureRange(int(def.StartByte()), int(body.StartByte()))
	if c.inType() {
		sym.Visibility = c.access()
	} else {
		sym.Visibility = Public
	}
	meta(sym, cMetaTemplate, template)
	q := c.qualify(name)
	if c.scopes[q] == nil && kind != Enum {
		c.scopes[q] = sym
	}
	for _, b := range namedChildren(childOfType(n, "base_class_clause")) {
		if b.Type() != "access_specifier" {
			base := b
			if b.Type() == "template_type" {
				base = field(b, "name")
			}
			c.w.relate(sym, c.w.text(lastName(base)), Extends, b)
		}
	}
	c.w.typeRefs(childOfType(n, "base_class_clause"), cTypeLeaves...)
	if kind == Enum {
		c.enumerators(sym, n, body)
		return sym
	}
	access := Public
	if kind == Class {
		access = Private
	}
	meta(sym, "access", string(access))
	c.prefix = append(c.prefix, name)
	c.w.within(sym, func() { c.members(sym, body) })
	c.prefix = c.prefix[:len(c.prefix)-1]
	delete(sym.Metadata, "access")
	if len(sym.Metadata) == 0 {
		sym.Metadata = nil
	}
	return sym
}

// members walks a class body, following its access sections.
func (c *cFamily) members(cls *Symbol, body *Node) {
	for _, m := range namedChildren(body) {
		switch m.Type() {
		case "access_specifier":
			meta(cls, "access", strings.TrimSuffix(strings.TrimSpace(c.w.text(m)), ":"))
		case "friend_declaration", "comment":
		case "using_declaration":
			c.w.typeRefs(m, cTypeLeaves...)
		default:
			c.node(c.w, m)
		}
	}
}

// enumerators records the members of an enum, with the enum's visibility.
func (c *cFamily) enumerators(enum *Symbol, n, body *Node) {
	if c.cpp && (c.w.hasChild(n, "class") || c.w.hasChild(n, "struct")) {
		meta(enum, "scoped", "true")
	}
	c.w.typeRefs(field(n, "base"), cTypeLeaves...)
	c.w.within(enum, func() {
		for _, e := range childrenOfType(body, "enumerator") {
			sym := c.add(c.w.add(e, field(e, "name"), EnumMember), e)
			if sym != nil {
				sym.Visibility = enum.Visibility
			}
			c.node(c.w, field(e, "value"))
		}
	})
}

// typeInfo records the type stated for sym: the type typ with the pointer, reference and
// array marks of its declarator d (char * of char *name).
func (c *cFamily) typeInfo(sym *Symbol, role string, typ, d *Node) {
	if sym == nil || typ == nil {
		return
	}
	t := c.w.text(typ)
	for ; d != nil; d = field(d, "declarator") {
		switch d.Type() {
		case "pointer_declarator":
			t += " *"
		case "reference_declarator":
			t += " &"
			if strings.HasPrefix(c.w.text(d), "&&") {
				t += "&"
			}
		case "array_declarator":
			t += "[]"
		case "function_declarator":
			if role == "declared" {
				return
			}
		}
		if d.Type() == "reference_declarator" {
			d = childOfType(d, "identifier", "field_identifier", "pointer_declarator", "function_declarator", "array_declarator", "reference_declarator")
			if d == nil {
				break
			}
			if d.Type() == "reference_declarator" {
				continue
			}
			d = d.Parent()
		}
	}
	for _, q := range []string{"const", "volatile"} {
		if c.hasQualifier(typ.Parent(), q) && !strings.Contains(t, q+" ") {
			t = q + " " + t
		}
	}
	c.w.f.Types = append(c.w.f.Types, TypeInfo{SymbolID: sym.ID, Role: role, Type: oneLine(strings.ReplaceAll(t, " *", "*"), maxSignatureRunes)})
}
