package extract

import (
	"strings"
)

// gvMaxBlockDepth is how deeply configuration blocks nest as symbols: android { buildTypes
// { release { } } } gives three, pipeline { post { always { } } } too.
const gvMaxBlockDepth = 3

// gvVariableBlocks are the configuration blocks whose assignments define variables: Gradle's
// extra properties and a Jenkins pipeline's environment.
var gvVariableBlocks = map[string]bool{"ext": true, "environment": true}

// trailingClosure returns the closure that follows the call rest[0] on the line the call
// ends: the grammar parses foo(x) { ... } as a call and a closure.
func trailingClosure(rest []*Node) *Node {
	if len(rest) > 1 && rest[1].Type() == "closure" && rest[1].StartPoint().Row == rest[0].EndPoint().Row {
		return rest[1]
	}
	return nil
}

// trailingBlock returns the closure that follows rest[0] on the next line or its own.
func trailingBlock(rest []*Node) *Node {
	if len(rest) > 1 && rest[1].Type() == "closure" && rest[1].StartPoint().Row <= rest[0].EndPoint().Row+1 {
		return rest[1]
	}
	return nil
}

// onlyClosure returns the closure that is the only argument of a command call (name { }).
func onlyClosure(args *Node) *Node {
	if args != nil && args.NamedChildCount() == 1 && args.NamedChild(0).Type() == "closure" {
		return args.NamedChild(0)
	}
	return nil
}

// callStatement extracts a call that is a statement: a task, a stage, a plugins block, an
// apply, a configuration block, or a plain call with its closure. It returns how many
// statements it spans (2 with a trailing closure).
func (g *groovyFile) callStatement(rest []*Node, scope gvScope) int {
	n := rest[0]
	tail := trailingClosure(rest)
	body := tail
	if body == nil && n.Type() == "juxt_function_call" {
		body = onlyClosure(field(n, "args"))
	}
	fn := field(n, "function")
	callee := g.w.text(fn)
	switch {
	case g.taskCall(n, callee, body):
	case callee == "stage" && g.stage(n, body):
	case callee == "plugins" && body != nil:
		g.plugins(body)
	case callee == "apply":
		g.apply(n)
	case body != nil && fn.Type() == "identifier" && !gvKeywords[callee] && g.isBlock(scope, tail == nil):
		g.block(n, callee, body, scope)
	default:
		g.expr(n)
		g.closure(tail, gvCode)
	}
	if tail != nil {
		return 2
	}
	return 1
}

// isBlock reports whether a call with a closure is a configuration block: any at the top of
// a script, name { } in a block down to gvMaxBlockDepth.
func (g *groovyFile) isBlock(scope gvScope, commandForm bool) bool {
	return scope == gvScript || scope == gvBlock && commandForm && g.depth < gvMaxBlockDepth
}

// dslSymbol adds the symbol of a task, stage or block: the call n and its closure body (nil
// for none), with the signature up to the body and the comments above as doc.
func (g *groovyFile) dslSymbol(n *Node, name string, kind Kind, body *Node) *Symbol {
	sigEnd := int(n.EndByte())
	if body != nil && body.StartByte() > n.StartByte() {
		sigEnd = int(body.StartByte())
	}
	sym := g.symbol(n, name, kind, body, sigEnd)
	if sym != nil {
		sym.DocComment = g.w.docComment(n)
	}
	return sym
}

// block extracts a configuration block as a property and the blocks, tasks, stages and
// variables in it.
func (g *groovyFile) block(n *Node, name string, body *Node, scope gvScope) {
	sym := g.dslSymbol(n, name, Property, body)
	saved := g.blockName
	g.depth++
	g.blockName = name
	g.w.within(sym, func() {
		if n.Type() == "function_call" {
			g.expr(field(n, "args"))
		}
		g.closure(body, gvBlock)
	})
	g.depth--
	g.blockName = saved
}

// taskCall recognizes and extracts a Gradle task made by a call: task name { },
// task name(type: T) { }, task('name') { }, tasks.register('name', T) { }.
func (g *groovyFile) taskCall(n *Node, callee string, body *Node) bool {
	args := field(n, "args")
	var first *Node
	if kids := namedChildren(args); len(kids) > 0 {
		first = kids[0]
	}
	switch {
	case callee == "task" && first != nil && first.Type() == "function_call":
		g.task(n, g.w.text(field(first, "function")), field(first, "args"), body)
	case callee == "task" && first != nil && (first.Type() == "identifier" || first.Type() == "string"):
		g.task(n, unquote(g.w.text(first)), args, body)
	case (strings.HasSuffix(callee, "tasks.register") || strings.HasSuffix(callee, "tasks.create")) && first != nil && first.Type() == "string":
		g.task(n, unquote(g.w.text(first)), args, body)
	default:
		return false
	}
	return true
}

// unquote removes the quotes around a string literal.
func unquote(s string) string {
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(s) >= 2*len(q) && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			return s[len(q) : len(s)-len(q)]
		}
	}
	return s
}

// task adds a Gradle task as a public function: its type is the type: argument, or the
// class passed to tasks.register after the name.
func (g *groovyFile) task(n *Node, name string, args, body *Node) {
	sym := g.dslSymbol(n, name, Function, body)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	meta(sym, "task", "true")
	for i, a := range namedChildren(args) {
		switch {
		case a.Type() == "map_item" && g.w.text(field(a, "key")) == "type":
			meta(sym, "type", g.w.text(field(a, "value")))
		case i == 1 && (a.Type() == "identifier" || a.Type() == "dotted_identifier"):
			meta(sym, "type", g.w.text(a))
		}
	}
	if sym.DocComment == "" {
		sym.DocComment = g.description(body)
	}
	g.w.within(sym, func() {
		for _, a := range childrenOfType(args, "map_item") {
			g.expr(field(a, "value"))
		}
		g.closure(body, gvCode)
	})
}

// description returns the description a task's body sets (description = 'x' or
// description 'x'), or "".
func (g *groovyFile) description(body *Node) string {
	for _, s := range namedChildren(body) {
		var value *Node
		switch s.Type() {
		case "assignment":
			if g.w.text(s.NamedChild(0)) == "description" {
				value = s.NamedChild(1)
			}
		case "juxt_function_call":
			if g.w.text(field(s, "function")) == "description" {
				value = field(s, "args").NamedChild(0)
			}
		}
		if value != nil && value.Type() == "string" {
			return unquote(g.w.text(value))
		}
	}
	return ""
}

// stage extracts a Jenkins stage('Name') { } as a method named Name, and reports whether n
// is one.
func (g *groovyFile) stage(n, body *Node) bool {
	first := field(n, "args")
	if first != nil && first.NamedChildCount() > 0 {
		first = first.NamedChild(0)
	}
	if first == nil || first.Type() != "string" {
		return false
	}
	sym := g.dslSymbol(n, unquote(g.w.text(first)), Method, body)
	meta(sym, "stage", "true")
	g.w.within(sym, func() { g.closure(body, gvCode) })
	return true
}

// plugins extracts the plugins { } of a Gradle script: each id 'x' (alias(libs.x)) is an
// import, with the version that follows it on its line.
func (g *groovyFile) plugins(body *Node) {
	var last *Symbol
	var lastRow uint32
	for _, s := range g.closureStatements(body) {
		callee := g.w.text(field(s, "function"))
		switch {
		case callee == "id" || callee == "alias":
			last, lastRow = g.importArg(s, field(s, "args")), s.EndPoint().Row
			meta(last, "plugin", "true")
		case callee == "version" && last != nil && s.StartPoint().Row == lastRow:
			meta(last, "version", unquote(g.w.text(field(s, "args"))))
		default:
			g.expr(s)
		}
	}
}

// apply extracts apply plugin: 'x' and apply from: 'file.gradle' as imports.
func (g *groovyFile) apply(n *Node) {
	for _, a := range childrenOfType(field(n, "args"), "map_item") {
		key := g.w.text(field(a, "key"))
		if key == "plugin" || key == "from" {
			meta(g.importArg(n, a), "apply", key)
		}
	}
}

// importArg records an import of the name the first value in args spells: a string's text,
// or a (dotted) name.
func (g *groovyFile) importArg(stmt, args *Node) *Symbol {
	if args == nil {
		return nil
	}
	v := args
	if args.Type() == "argument_list" && args.NamedChildCount() > 0 {
		v = args.NamedChild(0)
	}
	if v.Type() == "map_item" {
		v = field(v, "value")
	}
	if v != nil && v.Type() == "function_call" && g.w.text(lastName(field(v, "function"))) == "file" {
		v = childOfType(field(v, "args"), "string") // apply from: file('x.gradle')
	}
	if v == nil {
		return nil
	}
	ref := v
	if v.Type() == "string" {
		ref = childOfType(v, "string_content")
		if v.NamedChildCount() != 1 {
			ref = nil // an interpolated string names no one thing
		}
	}
	return g.w.importName(stmt, ref, unquote(g.w.text(v)))
}

// libraries records the shared libraries of a Jenkinsfile's @Library('name') _ as imports.
func (g *groovyFile) libraries(n *Node) {
	for _, a := range childrenOfType(n, "annotation") {
		if g.w.text(childOfType(a, "identifier")) != "Library" {
			continue
		}
		for _, s := range childrenOfType(childOfType(a, "argument_list"), "string") {
			meta(g.importArg(a, s), "library", "true")
		}
	}
}

// declarationStatement extracts a declaration statement, or what the grammar takes for one:
// task name, @Library('x') _, and a command (println x, agent any).
func (g *groovyFile) declarationStatement(rest []*Node, scope gvScope) int {
	n := rest[0]
	typ, name := field(n, "type"), field(n, "name")
	broken := childOfType(n, "ERROR") != nil
	switch t := g.w.text(typ); {
	case broken && scope <= gvClass:
		return g.brokenField(rest, scope)
	case t == "task":
		tail := trailingClosure(rest)
		g.task(n, g.w.text(name), nil, tail)
		if tail != nil {
			return 2
		}
	case t == "_":
		return g.libraryStatement(rest, scope)
	case g.isCommand(n, typ):
		g.callee(typ)
		g.w.valueRefs("identifier", name)
	case scope == gvClass:
		g.member(n)
	case scope == gvScript:
		g.scriptVariable(n)
	default:
		g.local(n)
	}
	return 1
}

// brokenField extracts a field or variable whose declaration the grammar broke, from its
// tokens, or walks the statement when they declare none. It returns how many statements it
// spans.
func (g *groovyFile) brokenField(rest []*Node, scope gvScope) int {
	r := &gvHeadParser{toks: g.tokens(rest, true)}
	h, ok := r.parseField()
	if !ok {
		g.local(rest[0])
		return 1
	}
	kind := Variable
	switch {
	case scope == gvScript && h.mods["@Field"]:
		kind = Field
	case scope == gvScript:
	case g.iface || h.mods["static"] && h.mods["final"]:
		kind = Constant
	case h.mods["public"] || h.mods["protected"] || h.mods["private"]:
		kind = Field
	default:
		kind = Property
	}
	sym := g.symbol(rest[0], h.name.text, kind, h.name.n, int(h.name.n.EndByte()))
	switch {
	case sym == nil || kind == Variable:
	case scope == gvScript:
		scriptField(sym, h.mods)
	default:
		setModifiers(sym, h.mods)
	}
	g.w.within(sym, func() {
		g.typeUses(h.annots)
		g.typeUses(h.typ)
		for _, n := range rest[:h.sibs] {
			g.expr(n)
		}
	})
	return h.sibs
}

// libraryStatement extracts a Jenkinsfile's @Library('x') _ and what the grammar took into
// it: the def of the method that follows and its comment, or the name of the block that
// follows (pipeline { }). It returns how many statements it spans.
func (g *groovyFile) libraryStatement(rest []*Node, scope gvScope) int {
	n := rest[0]
	name := field(n, "name")
	g.libraries(n)
	if g.w.text(name) == "def" && len(rest) > 1 {
		before := len(g.w.syms)
		used := g.declaration(rest[1:], scope, true)
		if c := javaTrailingComment(name.PrevSibling()); c != nil && len(g.w.syms) > before && g.w.syms[before].DocComment == "" {
			g.w.syms[before].DocComment = cleanComment(g.w.text(c))
		}
		return 1 + used
	}
	if body := trailingBlock(rest); body != nil && name.Type() == "identifier" && scope == gvScript {
		g.block(name, g.w.text(name), body, scope)
		return 2
	}
	return 1
}

// isCommand reports whether a declaration is a command call the grammar took for one
// (println x: type println, name x): its type is a lower-case name.
func (g *groovyFile) isCommand(n, typ *Node) bool {
	if typ == nil || childOfType(n, "annotation", "access_modifier", "modifier") != nil {
		return false
	}
	name := typ
	switch typ.Type() {
	case "dotted_identifier":
		name = lastName(typ)
	case "identifier":
	default:
		return false
	}
	t := g.w.text(name)
	return t != "" && t != "var" && !(t[0] >= 'A' && t[0] <= 'Z')
}

// declMods returns the access modifier, modifiers and annotations of a declaration node.
func (g *groovyFile) declMods(n *Node) map[string]bool {
	mods := map[string]bool{}
	for _, c := range childrenOfType(n, "access_modifier", "modifier") {
		mods[g.w.text(c)] = true
	}
	for _, a := range childrenOfType(n, "annotation") {
		mods["@"+g.w.text(childOfType(a, "identifier"))] = true
	}
	return mods
}

// member extracts a declaration in a type: a field, a property, a constant, or a method
// when its value is a closure.
func (g *groovyFile) member(n *Node) {
	mods := g.declMods(n)
	value := field(n, "value")
	kind := Property
	switch {
	case value != nil && value.Type() == "closure":
		kind = Method
	case g.iface || mods["static"] && mods["final"]:
		kind = Constant
	case mods["public"] || mods["protected"] || mods["private"]:
		kind = Field
	}
	sym := g.w.add(n, field(n, "name"), kind)
	if sym != nil {
		setModifiers(sym, mods)
	}
	g.variable(sym, n)
}

// scriptVariable extracts a declaration at the top of a script: a variable of the script's
// body (a function when its value is a closure), or a field of the script class (@Field).
func (g *groovyFile) scriptVariable(n *Node) {
	mods := g.declMods(n)
	value := field(n, "value")
	kind := Variable
	switch {
	case value != nil && value.Type() == "closure":
		kind = Function
	case mods["@Field"]:
		kind = Field
	case mods["final"]:
		kind = Constant
	}
	sym := g.w.add(n, field(n, "name"), kind)
	g.variable(sym, n)
	if sym != nil {
		g.assigned[sym.Name] = true
		sym.DocComment = g.w.docComment(n)
		if kind == Field {
			scriptField(sym, mods)
		}
	}
}

// scriptField sets the visibility of a field of a script class (@Field): private unless
// said otherwise.
func scriptField(sym *Symbol, mods map[string]bool) {
	setModifiers(sym, mods)
	if !mods["public"] && !mods["protected"] {
		sym.Visibility = Private
	}
}

// variable fills a variable's, field's or closure's doc, signature and type, and extracts
// what its value uses (a closure's body).
func (g *groovyFile) variable(sym *Symbol, n *Node) {
	typ, value := field(n, "type"), field(n, "value")
	if sym == nil {
		g.local(n)
		return
	}
	sym.DocComment = javaDoc(g.w, n)
	g.w.typeInfo(sym, "declared", typ)
	g.closureValue(sym, n, value)
	g.w.within(sym, func() { g.local(n) })
}

// closureValue marks sym, declared by n, as a closure when value is one: its signature
// ends with the closure's parameters (def handler = { String msg ->).
func (g *groovyFile) closureValue(sym *Symbol, n, value *Node) {
	if value == nil || value.Type() != "closure" {
		return
	}
	meta(sym, "closure", "true")
	end := value.StartByte()
	if arrow := protoToken(value, "->"); arrow != nil {
		end = arrow.EndByte()
	}
	sym.Signature = g.w.signatureRange(int(n.StartByte()), int(end))
}

// local extracts what a declaration inside a body uses: a local variable is no symbol.
func (g *groovyFile) local(n *Node) {
	typ, value := field(n, "type"), field(n, "value")
	if g.isCommand(n, typ) {
		g.callee(typ)
		g.w.valueRefs("identifier", field(n, "name"))
		return
	}
	for _, a := range childrenOfType(n, "annotation") {
		g.expr(a)
	}
	g.typeRefs(typ)
	g.w.valueRefs("identifier", value)
	g.expr(value)
}

// assignment extracts an assignment: at the top of a script, the first one of a name that
// was not declared makes a binding variable; ext.name = x and an assignment in ext { } or
// environment { } make a variable.
func (g *groovyFile) assignment(n *Node, scope gvScope) {
	target, value := n.NamedChild(0), n.NamedChild(int(n.NamedChildCount())-1)
	name, ext := "", false
	if n.ChildCount() > 1 && n.Child(1).Type() == "=" && target != value {
		switch target.Type() {
		case "identifier":
			name = g.w.text(target)
		case "dotted_identifier":
			if last := lastName(target); last != nil && strings.HasSuffix(g.w.text(target), "ext."+g.w.text(last)) {
				name, ext = g.w.text(last), true
			}
		}
	}
	inBlock := scope == gvBlock && gvVariableBlocks[g.blockName]
	if name == "" || !(ext || inBlock || scope == gvScript && !g.assigned[name]) {
		g.expr(n)
		return
	}
	kind := Variable
	if value.Type() == "closure" {
		kind = Function
	}
	sym := g.w.addNamed(n, name, kind)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	g.closureValue(sym, n, value)
	sym.DocComment = g.w.docComment(n)
	if scope == gvScript {
		g.assigned[name] = true
	}
	if ext || g.blockName == "ext" {
		meta(sym, "ext", "true")
	}
	g.w.within(sym, func() {
		g.w.valueRefs("identifier", value)
		g.expr(value)
	})
}
