package extract

import (
	"strings"
)

func init() {
	register("groovy", extractGroovy)
	registerRepair("groovy", closeGroovy)
}

// extractGroovy walks a Groovy source, script, Gradle build script or Jenkinsfile:
//
//   - package: module; import: import of the dotted name (.* for a star import; static and
//     the alias "as X" in metadata);
//   - class, interface, trait, enum, @interface (interface, annotation=true), record
//     (class): with extends and implements relationships;
//   - a method (def or typed; def "feature name"() of Spock, named by the string): method in
//     a type, function at the top of a script (it is a public method of the script class);
//     a constructor (a method named like its class) is a constructor;
//   - in a type: a field with an access modifier is a field, one without is a property
//     (Groovy makes it a private field with a public getter and setter), static final ones
//     and interface fields are constants; enum values are enum members;
//   - a closure assigned to a name (def handler = { ... }) is a function in a script and a
//     method in a type: it is called by that name, handler(x), as a method is;
//   - a script's variables: variable (constant when final, field when @Field), with no
//     visibility: they are locals of the script's run method, invisible to its methods; a
//     name assigned without a declaration (version = '1.0') is a binding variable, public,
//     seen by the whole script (in Gradle, a property of the project);
//   - Gradle: a task (task hello { }, task copy(type: Copy) { }, tasks.register('x', T)) is a
//     function with metadata task=true and type: a unit of work run by its name, as the
//     jobs of a CI workflow are; plugins { id 'x' } and apply plugin:/from: are imports;
//     the variables of ext { } are public variables;
//   - Jenkins: a stage('Build') { } is a method of the block or stage it is in; @Library('x')
//     _ is an import; the variables of environment { } are variables;
//   - a configuration block at the top of a script (dependencies { }, android { }, pipeline
//     { }, node('linux') { }) is a property named by the block, and so are the blocks in it
//     down to gvMaxBlockDepth: a block configures the object of that name (project.android).
//
// Visibility follows Groovy: public unless private or protected. Groovydoc (/** */) is the
// doc comment of declarations; a task, stage or block takes the comments right above it
// (Gradle and Jenkins files document them with //). Calls are call identifiers of the
// enclosing symbol. The grammar's weak spots (see lang_groovy_header.go) are read from
// tokens; ERROR nodes are walked like any statement list. A file cut inside a block is
// parsed with what it leaves open closed (closeGroovy): the grammar's error recovery would
// not end on it.
func extractGroovy(w *walker, root *Node) {
	g := &groovyFile{w: w, assigned: map[string]bool{}}
	g.statements(namedChildren(root), gvScript)
}

// gvScope is what a list of statements is the body of.
type gvScope int

const (
	gvScript gvScope = iota // a script: the top of a file
	gvClass                 // a class, interface, trait or enum
	gvBlock                 // a configuration block (dependencies { }, pipeline { })
	gvCode                  // a method, a function, a task, a stage or a closure in one
)

// groovyFile is the state of one Groovy extraction.
type groovyFile struct {
	w         *walker
	class     string          // the name of the innermost enclosing type, for constructors
	iface     bool            // the innermost enclosing type is an interface
	depth     int             // how many configuration blocks enclose the statements
	blockName string          // the name of the innermost configuration block
	assigned  map[string]bool // the script's variables and binding variables seen so far
}

// gvKeywords are words the grammar can take for a called name.
var gvKeywords = map[string]bool{
	"throw": true, "new": true, "return": true, "assert": true, "abstract": true, "class": true,
	"interface": true, "trait": true, "enum": true, "extends": true, "implements": true,
	"throws": true, "def": true, "var": true, "super": true, "this": true, "in": true, "_": true,
}

// statements extracts a list of statements: a declaration may span several of them.
func (g *groovyFile) statements(list []*Node, scope gvScope) {
	for i := 0; i < len(list); {
		i += g.statement(list[i:], scope)
	}
}

// statement extracts the statement that starts rest and returns how many of rest it spans.
func (g *groovyFile) statement(rest []*Node, scope gvScope) int {
	if n := g.declaration(rest, scope, false); n > 0 {
		return n
	}
	n := rest[0]
	switch n.Type() {
	case "groovy_package":
		g.packageDecl(n)
	case "groovy_import":
		g.importDecl(n)
	case "declaration":
		return g.declarationStatement(rest, scope)
	case "assignment":
		g.assignment(n, scope)
	case "function_call", "juxt_function_call":
		return g.callStatement(rest, scope)
	case "pipeline":
		g.block(n, "pipeline", childOfType(n, "closure"), scope)
	case "class_definition", "function_definition", "function_declaration":
		g.treeDeclaration(n, scope)
	case "ERROR":
		// Its leaves too: a def or a modifier the grammar could not place starts a head.
		g.statements(allChildren(n), scope)
	case "closure":
		g.closure(n, gvCode) // an initializer block, an anonymous class's body
	default:
		g.expr(n)
	}
	return 1
}

// declaration extracts the class, method or constructor whose head starts rest, and returns
// how many statements it spans, 0 when rest starts none.
func (g *groovyFile) declaration(rest []*Node, scope gvScope, impliedDef bool) int {
	if !impliedDef && !g.mayStartHead(rest[0]) {
		return 0
	}
	class := ""
	if scope == gvClass {
		class = g.class
	}
	r := &gvHeadParser{toks: g.tokens(rest, true), class: class}
	h, ok := r.parseHead(impliedDef)
	if !ok || rest[0].Type() == "ERROR" && h.sibs == 1 {
		return 0 // a head and body inside an error are read from its children
	}
	if h.keyword != "" {
		g.typeDecl(rest[0], &h)
	} else {
		g.methodDecl(rest[0], &h, scope)
	}
	return h.sibs
}

// mayStartHead reports whether n may start a declaration head: what a call or an
// expression statement starts with is rejected before its tokens are read.
func (g *groovyFile) mayStartHead(n *Node) bool {
	switch n.Type() {
	case "class_definition", "function_definition", "function_declaration", "declaration", "ERROR":
		return true
	}
	first := n
	for first.ChildCount() > 0 && first.Type() != "string" {
		first = first.Child(0)
	}
	t := g.w.text(first)
	_, keyword := gvTypeKeywords[t]
	return t != "" && (t[0] >= 'A' && t[0] <= 'Z' || gvModifiers[t] || keyword || t == "@" || t == "def" || first.Type() == "string")
}

// allChildren returns the children of n, named or not.
func allChildren(n *Node) []*Node {
	return n.children(n.kids, n.nkids)
}

// symbol adds the symbol of a declaration that spans the statements from first to end
// (the body, or the last token of the head), with the signature up to its body.
func (g *groovyFile) symbol(first *Node, name string, kind Kind, end *Node, sigEnd int) *Symbol {
	sym := g.w.addNamed(first, name, kind)
	if sym == nil {
		return nil
	}
	if end != nil && end.EndByte() > first.EndByte() {
		sp := g.w.span(end)
		sym.EndLine, sym.EndColumn, sym.EndByte = sp.EndLine, sp.EndColumn, sp.EndByte
	}
	sym.Signature = g.w.signatureRange(int(first.StartByte()), sigEnd)
	sym.DocComment = javaDoc(g.w, first)
	return sym
}

// headEnd returns where a head's signature ends: before its body, or after its last token.
func headEnd(h *gvHead) (*Node, int) {
	if h.body != nil {
		return h.body, int(h.body.StartByte())
	}
	return h.last.n, int(h.last.n.EndByte())
}

// setModifiers fills visibility (public unless private or protected) and static, abstract
// and final metadata from a head's modifiers.
func setModifiers(sym *Symbol, mods map[string]bool) {
	sym.Visibility = Public
	for _, v := range []Visibility{Protected, Private} {
		if mods[string(v)] {
			sym.Visibility = v
		}
	}
	for _, m := range []string{"static", "abstract", "final"} {
		if mods[m] {
			meta(sym, m, "true")
		}
	}
}

// typeDecl extracts a class, interface, trait, enum or annotation type and its body.
func (g *groovyFile) typeDecl(first *Node, h *gvHead) {
	end, sigEnd := headEnd(h)
	name := h.name.text
	sym := g.symbol(first, name, h.kind, end, sigEnd)
	if sym == nil {
		return
	}
	setModifiers(sym, h.mods)
	switch h.keyword {
	case "@interface":
		meta(sym, "annotation", "true")
	case "record":
		meta(sym, "record", "true")
	}
	if len(h.generics) > 0 {
		meta(sym, "type_parameters", "<"+g.tokenText(h.generics)+">")
	}
	for _, s := range h.supers {
		g.w.relate(sym, s.name.text, s.rel, s.name.n)
	}
	g.w.within(sym, func() {
		g.typeUses(h.annots)
		for _, s := range h.supers {
			g.w.ident(s.name.n, TypeUsage)
		}
		g.typeBody(h.body, name, h.keyword)
	})
}

// typeBody extracts the members of a type: an enum's values first.
func (g *groovyFile) typeBody(body *Node, name, keyword string) {
	saved, savedIface := g.class, g.iface
	g.class, g.iface = name, keyword == "interface" || keyword == "@interface"
	list := g.closureStatements(body)
	if keyword == "enum" {
		list = list[g.enumValues(list):]
	}
	g.statements(list, gvClass)
	g.class, g.iface = saved, savedIface
}

// enumValues extracts the values that start an enum's body and returns how many of its
// statements they span.
func (g *groovyFile) enumValues(list []*Node) int {
	toks := g.tokens(list, false)
	used := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		after := gvToken{}
		if i+1 < len(toks) {
			after = toks[i+1]
		}
		if !t.isName() || !(after.n == nil || after.body || strings.Contains(",;(", after.text)) {
			break
		}
		sym := g.w.add(t.n, t.n, EnumMember)
		if sym != nil {
			sym.Visibility = Public
			sym.DocComment = javaDoc(g.w, list[t.sib])
		}
		r := &gvHeadParser{toks: toks, p: i + 1}
		if r.peek(0).text == "(" {
			r.skipBalanced("(", ")")
		}
		if r.peek(0).body {
			g.w.within(sym, func() { g.closure(r.next().n, gvClass) })
		}
		i, used = r.p, max(used, t.sib+1)
		if r.peek(0).text != "," {
			break
		}
	}
	return used
}

// methodDecl extracts a method, constructor or script function and its body.
func (g *groovyFile) methodDecl(first *Node, h *gvHead, scope gvScope) {
	kind := h.kind
	if kind == Method && scope != gvClass {
		kind = Function
	}
	end, sigEnd := headEnd(h)
	name := strings.Trim(h.name.text, `"'`)
	sym := g.symbol(first, name, kind, end, sigEnd)
	if sym == nil {
		return
	}
	setModifiers(sym, h.mods)
	if kind == Function {
		sym.DocComment = g.w.docComment(first) // a script's: Groovydoc or the comments above
	}
	if h.body == nil && kind == Method {
		meta(sym, "abstract", "true")
	}
	if len(h.generics) > 0 {
		meta(sym, "type_parameters", "<"+g.tokenText(h.generics)+">")
	}
	if len(h.typ) > 0 {
		g.w.f.Types = append(g.w.f.Types, TypeInfo{SymbolID: sym.ID, Role: "return", Type: g.tokenText(h.typ)})
	}
	g.w.within(sym, func() {
		g.typeUses(h.annots)
		g.typeUses(h.typ)
		g.paramTypes(h.params)
		g.typeUses(h.throws)
		if h.body != nil {
			g.closure(h.body, gvCode)
		}
	})
}

// tokenText returns the source a run of tokens spans, on one line.
func (g *groovyFile) tokenText(toks []gvToken) string {
	start, end := toks[0].n.StartByte(), toks[len(toks)-1].n.EndByte()
	return oneLine(string(g.w.src[start:end]), maxSignatureRunes)
}

// typeUses records the capitalized names among toks (a type, its type arguments) as type
// usages: the last part of a qualified name only.
func (g *groovyFile) typeUses(toks []gvToken) {
	for i, t := range toks {
		qualifier := i+1 < len(toks) && toks[i+1].text == "."
		if t.isName() && !qualifier && t.text[0] >= 'A' && t.text[0] <= 'Z' {
			g.w.ident(t.n, TypeUsage)
		}
	}
}

// paramTypes records the type usages of a parameter list's tokens: the types before each
// name, not the default values.
func (g *groovyFile) paramTypes(toks []gvToken) {
	depth, inDefault, start := 0, false, 0
	for i, t := range toks {
		switch {
		case t.text == "(" || t.text == "[" || t.text == "<":
			depth++
		case t.text == ")" || t.text == "]" || t.text == ">":
			depth--
		case depth == 0 && t.text == "=":
			g.typeUses(toks[start:i])
			inDefault = true
		case depth == 0 && t.text == ",":
			if !inDefault {
				g.typeUses(toks[start:i])
			}
			inDefault, start = false, i+1
		}
	}
	if !inDefault {
		g.typeUses(toks[start:])
	}
}

// treeDeclaration extracts a class or method node whose head the token reader did not
// accept, from the fields the grammar gives it.
func (g *groovyFile) treeDeclaration(n *Node, scope gvScope) {
	body := field(n, "body")
	if n.Type() == "class_definition" {
		kind, keyword := Class, "class"
		for _, k := range []string{"interface", "@interface"} {
			if g.w.hasChild(n, k) {
				kind, keyword = Interface, k
			}
		}
		sym := g.w.add(n, field(n, "name"), kind)
		if sym != nil {
			sym.Visibility, sym.DocComment = Public, javaDoc(g.w, n)
		}
		g.w.within(sym, func() { g.typeBody(body, g.w.text(field(n, "name")), keyword) })
		return
	}
	kind := Method
	if scope != gvClass {
		kind = Function
	}
	sym := g.w.add(n, field(n, "function"), kind)
	if sym != nil {
		sym.Visibility, sym.DocComment = Public, javaDoc(g.w, n)
	}
	g.w.within(sym, func() {
		g.typeRefs(field(n, "type"))
		g.expr(field(n, "parameters"))
		g.closure(body, gvCode)
	})
}

// closureStatements returns the statements of a closure, without its parameters.
func (g *groovyFile) closureStatements(c *Node) []*Node {
	list := namedChildren(c)
	if len(list) > 0 && list[0].Type() == "parameter_list" {
		list = list[1:]
	}
	return list
}

// closure extracts the statements of a closure (a body) in scope, and the types of its
// parameters.
func (g *groovyFile) closure(c *Node, scope gvScope) {
	if c == nil {
		return
	}
	g.expr(childOfType(c, "parameter_list"))
	g.statements(g.closureStatements(c), scope)
}

// packageDecl records the package as a module.
func (g *groovyFile) packageDecl(n *Node) {
	if sym := g.w.addNamed(n, g.w.text(childOfType(n, "qualified_name")), Module); sym != nil {
		sym.Visibility = Public
		sym.DocComment = ""
		sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	}
}

// importDecl records an import: the dotted name, with .* for a star import.
func (g *groovyFile) importDecl(n *Node) {
	name := field(n, "import")
	if name == nil {
		return
	}
	full := g.w.text(name)
	if childOfType(n, "wildcard_import") != nil {
		full += ".*"
	}
	sym := g.w.importName(n, name, full)
	if sym == nil {
		return
	}
	sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	if g.w.hasChild(childOfType(n, "modifier"), "static") {
		meta(sym, "static", "true")
	}
	meta(sym, "alias", g.w.text(field(n, "import_alias")))
}

// expr records the uses of names in the expression or statement n: calls, member accesses,
// names passed, assigned and returned, and types.
func (g *groovyFile) expr(n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "closure":
		g.closure(n, gvCode)
		return
	case "function_call", "juxt_function_call":
		if !g.misparsedBinary(n) {
			g.callee(field(n, "function"))
		}
		g.expr(field(n, "args"))
		return
	case "dotted_identifier":
		if closureFollows(n) {
			g.callee(n)
		} else {
			g.w.member(lastName(n), n, MemberAccess)
			g.expr(n.NamedChild(0))
		}
		return
	case "access_op":
		g.access(n)
		return
	case "declaration":
		g.local(n)
		return
	case "parameter":
		g.typeRefs(field(n, "type"))
		g.expr(field(n, "value"))
		return
	case "annotation":
		g.w.ident(childOfType(n, "identifier"), TypeUsage)
		g.expr(childOfType(n, "argument_list"))
		return
	case "ERROR":
		g.statements(namedChildren(n), gvCode)
		return
	case "binary_op":
		if g.w.hasChild(n, "as") || g.w.hasChild(n, "instanceof") {
			g.expr(n.NamedChild(0))
			g.typeRefs(n.NamedChild(int(n.NamedChildCount()) - 1))
			return
		}
	case "argument_list", "return", "list", "interpolation":
		g.w.valueRefs("identifier", namedChildren(n)...)
	case "assignment", "map_item":
		g.w.valueRefs("identifier", n.NamedChild(int(n.NamedChildCount())-1))
	}
	g.w.walk(n, func(_ *walker, c *Node) { g.expr(c) })
}

// closureFollows reports whether the statement that n ends is followed on its line by one
// that starts with a closure: the grammar parses x = list.collect { ... } as x =
// list.collect and a closure, so n is the called method.
func closureFollows(n *Node) bool {
	for p := n.Parent(); p != nil && p.EndByte() == n.EndByte() && p.Type() != "closure" && p.Type() != "source_file"; p = n.Parent() {
		n = p
	}
	next := n.NextNamedSibling()
	for next != nil && next.Type() != "closure" && next.ChildCount() > 0 {
		next = next.Child(0)
	}
	return next != nil && next.Type() == "closure" && next.StartPoint().Row == n.EndPoint().Row
}

// misparsedBinary reports whether n is a binary expression the grammar took for a command
// call: a + b parses as the call a(+b).
func (g *groovyFile) misparsedBinary(n *Node) bool {
	args := field(n, "args")
	if n.Type() != "juxt_function_call" || args == nil || args.NamedChildCount() == 0 {
		return false
	}
	first := args.NamedChild(0)
	return first.Type() == "unary_op" && (g.w.hasChild(first, "+") || g.w.hasChild(first, "-"))
}

// callee records the call of the called expression fn: the name, qualified by the object
// of a.b.c(), and what the object uses.
func (g *groovyFile) callee(fn *Node) {
	if fn == nil {
		return
	}
	switch fn.Type() {
	case "identifier":
		if !gvKeywords[g.w.text(fn)] {
			g.w.call(fn)
		}
	case "dotted_identifier":
		if name := fn.NamedChild(int(fn.NamedChildCount()) - 1); name.Type() == "identifier" {
			g.w.callIn(name, fn)
		}
		g.expr(fn.NamedChild(0))
	default:
		g.expr(fn)
	}
}

// access records a safe navigation (a?.b), a spread (list*.name) or a method pointer
// (this.&m): the member or call on the right, qualified by the left for ?. only.
func (g *groovyFile) access(n *Node) {
	if n.NamedChildCount() != 2 {
		g.w.walk(n, func(_ *walker, c *Node) { g.expr(c) })
		return
	}
	left, right := n.NamedChild(0), n.NamedChild(1)
	g.expr(left)
	var whole *Node
	if g.w.hasChild(n, "?.") {
		whole = n
	}
	switch fn := field(right, "function"); {
	case right.Type() == "identifier":
		g.w.identIn(right, whole, MemberAccess)
	case right.Type() == "function_call" && fn != nil && fn.Type() == "identifier":
		g.w.callIn(fn, whole)
		g.expr(field(right, "args"))
	default:
		g.expr(right)
	}
}

// typeRefs records the type usages of a type node: the capitalized names in it (a
// lower-case name in a type's place is a misparsed command), qualified names by their last
// part.
func (g *groovyFile) typeRefs(t *Node) {
	if t == nil {
		return
	}
	switch t.Type() {
	case "identifier":
		if s := g.w.text(t); s != "" && s[0] >= 'A' && s[0] <= 'Z' {
			g.w.ident(t, TypeUsage)
		}
	case "dotted_identifier":
		g.w.member(lastName(t), t, TypeUsage)
	default:
		g.w.walk(t, func(_ *walker, c *Node) { g.typeRefs(c) })
	}
}
