package extract

import (
	"strings"
)

func init() { register("lua", extractLua) }

// luaMetamethods are the metamethods that define an operator.
var luaMetamethods = map[string]bool{
	"__add": true, "__sub": true, "__mul": true, "__div": true, "__mod": true, "__pow": true,
	"__unm": true, "__idiv": true, "__band": true, "__bor": true, "__bxor": true, "__shl": true,
	"__shr": true, "__bnot": true, "__concat": true, "__len": true, "__eq": true, "__lt": true,
	"__le": true, "__call": true,
}

// luaMaxValueLen is the longest assigned value kept in a signature.
const luaMaxValueLen = 60

// luaRequire is the function whose calls are imports.
const luaRequire = "require"

// luaFile is the state of one Lua extraction.
type luaFile struct {
	tables   map[string]*Symbol // file-level tables by name, the parents of their members
	returned string             // the name the file returns (its module table)
}

// extractLua walks a Lua file: requires, global and local variables and constants, tables
// (the returned one as the module), functions and the functions and fields of tables
// (t.f, t:m, t.f = function, metamethod operators).
func extractLua(w *walker, root *Node) {
	lf := &luaFile{tables: map[string]*Symbol{}}
	if r := childOfType(root, "module_return_statement"); r != nil {
		if id := childOfType(r, "identifier"); id != nil && r.NamedChildCount() == 1 {
			lf.returned = luaText(w, id)
		}
	}
	w.walk(root, func(w *walker, n *Node) { luaNode(w, n, lf, true) })
}

// luaNode extracts the definitions (at file level, top) and uses of names under n.
func luaNode(w *walker, n *Node, lf *luaFile, top bool) {
	switch n.Type() {
	case "function_statement":
		luaFunction(w, n, lf, top)
		return
	case "variable_declaration", "local_variable_declaration":
		luaDeclaration(w, n, lf, top)
		return
	case "function_call":
		luaCall(w, n, lf, top)
		return
	case "function", "function_definition":
		w.walk(childOfType(n, "function_body"), func(w *walker, c *Node) { luaNode(w, c, lf, false) })
		return
	case "return_statement", "module_return_statement":
		luaRefs(w, n)
	}
	w.walk(n, func(w *walker, c *Node) { luaNode(w, c, lf, top) })
}

// luaRefs records variable references and member accesses for the plain identifiers directly
// under n: a.b gives a variable_ref of a and a member_access of b.
func luaRefs(w *walker, n *Node) {
	for _, c := range childrenOfType(n, "identifier") {
		if p := c.PrevSibling(); p != nil && (p.Type() == "." || p.Type() == "table_dot") {
			luaIdent(w, c, MemberAccess)
			continue
		}
		luaIdent(w, c, VariableRef)
	}
}

// luaCall records a call: the last name before the arguments is the callee; the names before
// it are the object and member accesses. A call of require is an import.
func luaCall(w *walker, n *Node, lf *luaFile, top bool) {
	args := field(n, "args")
	var names []*Node
	for _, c := range namedChildren(n) {
		if args != nil && c.StartByte() >= args.StartByte() {
			break
		}
		switch c.Type() {
		case "identifier":
			names = append(names, c)
		case "function_call", "parenthesized_expression":
			luaNode(w, c, lf, top)
		}
	}
	if len(names) == 0 {
		w.walk(args, func(w *walker, c *Node) { luaNode(w, c, lf, top) })
		return
	}
	callee := names[len(names)-1]
	if len(names) == 1 && luaText(w, callee) == luaRequire {
		if mod := luaRequireName(w, n); mod != "" {
			w.importName(n, args, mod)
			return
		}
	}
	for i, id := range names[:len(names)-1] {
		if i > 0 {
			luaIdent(w, id, MemberAccess)
		}
	}
	luaCallee(w, callee)
	luaRefs(w, args)
	w.walk(args, func(w *walker, c *Node) { luaNode(w, c, lf, top) })
}

// luaRequireName returns the module a require call names, or "".
func luaRequireName(w *walker, call *Node) string {
	args := field(call, "args")
	str := childOfType(args, "string")
	if str == nil && args != nil && args.Type() == "string_argument" {
		str = args
	}
	if str == nil {
		return ""
	}
	s := strings.TrimSpace(w.text(str))
	s = strings.TrimPrefix(strings.TrimSuffix(s, "]]"), "[[")
	return strings.Trim(s, `"'`)
}

// luaDocAndStart returns the documentation (--- lines) and comments the grammar puts inside
// a statement, cleaned, and the offset where its code starts.
func luaDocAndStart(w *walker, n *Node) (string, int) {
	var parts []string
	start := int(n.StartByte())
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if c.Type() != "emmy_documentation" && c.Type() != "comment" {
			start = int(c.StartByte())
			break
		}
		parts = append(parts, w.text(c))
	}
	return cleanComment(strings.Join(parts, "\n")), start
}

// luaFinish sets the signature of sym, defined by the statement n whose code ends at end
// (its doc comment and start were set by luaFixStart).
func luaFinish(w *walker, sym *Symbol, n *Node, end int) {
	_, start := luaDocAndStart(w, n)
	for start < len(w.src) && strings.ContainsRune(" \t\r\n", rune(w.src[start])) {
		start++
	}
	if end < start {
		end = int(n.EndByte())
	}
	sym.Signature = w.signatureRange(start, end)
}

// luaFunction extracts a function statement: local function f, function f, function t.f,
// function t:m.
func luaFunction(w *walker, n *Node, lf *luaFile, top bool) {
	nameNode := field(n, "name")
	ids := childrenOfType(nameNode, "identifier")
	if nameNode != nil && nameNode.Type() == "identifier" {
		ids = []*Node{nameNode}
	}
	if len(ids) == 0 {
		return
	}
	last := ids[len(ids)-1]
	kind := Function
	table := ""
	if len(ids) > 1 {
		table = w.text(nameNode)[:int(last.StartByte()-nameNode.StartByte())]
		table = strings.TrimSpace(strings.TrimRight(table, ".:"))
		if childOfType(nameNode, "table_colon") != nil {
			kind = Method
		}
	}
	sym := luaDefine(w, n, last, kind, table, lf, func() *Symbol {
		return luaAdd(w, n, last, luaKind(luaText(w, last), kind, table))
	})
	if sym == nil {
		return
	}
	switch {
	case w.hasChild(n, "local"):
		sym.Visibility = Private
	case top:
		sym.Visibility = Public
	}
	end := int(n.EndByte())
	if b := childOfType(n, "function_body"); b != nil {
		end = int(b.StartByte())
	} else if ps := childrenOfType(n, "function_body_paren"); len(ps) > 0 {
		end = int(ps[len(ps)-1].EndByte())
	}
	luaFinish(w, sym, n, end)
	w.within(sym, func() {
		w.walk(childOfType(n, "function_body"), func(w *walker, c *Node) { luaNode(w, c, lf, false) })
	})
}

// luaKind returns the kind of a table member name defined as kind: a metamethod is an
// operator.
func luaKind(name string, kind Kind, table string) Kind {
	if table != "" && luaMetamethods[name] && (kind == Function || kind == Method) {
		return Operator
	}
	return kind
}

// luaDefine runs add with the file-level table named table (the root of a.b.c) as the
// parent when the file defines it, and records table in the symbol's metadata.
func luaDefine(w *walker, n, name *Node, kind Kind, table string, lf *luaFile, add func() *Symbol) *Symbol {
	var sym *Symbol
	root := table
	if i := strings.IndexAny(root, ".:"); i >= 0 {
		root = root[:i]
	}
	if owner := lf.tables[root]; owner != nil && table != "" {
		w.within(owner, func() { sym = add() })
	} else {
		sym = add()
	}
	meta(sym, "table", table)
	return sym
}

// luaDeclaration extracts a variable declaration or assignment: at file level, each name is
// a variable, constant, table, module or table member (a function when its value is one);
// local x = require "m" is an import.
func luaDeclaration(w *walker, n *Node, lf *luaFile, top bool) {
	names := luaFieldChildren(n, "name")
	values := luaFieldChildren(n, "value")
	local := w.hasChild(n, "local")
	for i, decl := range names {
		var value *Node
		if i < len(values) {
			value = values[i]
		}
		if top {
			luaDeclare(w, n, decl, value, local, lf)
		}
	}
	for _, v := range values {
		if v.Type() == "identifier" {
			luaIdent(w, v, VariableRef)
		}
		isFunc := v.Type() == "function" || v.Type() == "function_definition"
		if !(top && (isFunc || v.Type() == "function_call" && luaIsRequire(w, v))) {
			luaNode(w, v, lf, top)
		}
	}
}

// luaFieldChildren returns the children of n in field name.
func luaFieldChildren(n *Node, name string) []*Node {
	var out []*Node
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) == name {
			out = append(out, n.Child(i))
		}
	}
	return out
}

// luaIsRequire reports whether call is require(...).
func luaIsRequire(w *walker, call *Node) bool {
	id := childOfType(call, "identifier")
	return id != nil && luaText(w, id) == luaRequire && len(childrenOfType(call, "identifier")) == 1
}

// luaDeclare adds the symbol of one declared name decl with its value.
func luaDeclare(w *walker, n, decl, value *Node, local bool, lf *luaFile) {
	ids := childrenOfType(decl, "identifier")
	if len(ids) == 0 {
		return
	}
	last := ids[len(ids)-1]
	name := luaText(w, last)
	if value != nil && value.Type() == "function_call" && luaIsRequire(w, value) {
		if sym := w.importName(n, field(value, "args"), luaRequireName(w, value)); sym != nil {
			meta(sym, "alias", name)
			luaFixStart(w, sym, n)
			if r := len(w.f.Relationships) - 1; r >= 0 && w.f.Relationships[r].FromID == sym.ID {
				w.f.Relationships[r].Line = sym.StartLine // importName used the padded start
			}
			luaFinish(w, sym, n, int(n.EndByte()))
		}
		return
	}
	table := ""
	if len(ids) > 1 {
		table = strings.TrimSpace(strings.TrimRight(w.text(decl)[:int(last.StartByte()-decl.StartByte())], ".:"))
	}
	kind := Variable
	switch {
	case value != nil && (value.Type() == "function" || value.Type() == "function_definition"):
		kind = luaKind(name, Function, table)
	case table == "" && value != nil && value.Type() == "tableconstructor" && name == lf.returned:
		kind = Module
	case pyIsConstant(name):
		kind = Constant
	case table != "":
		kind = Field
	}
	sym := luaDefine(w, n, last, kind, table, lf, func() *Symbol { return luaAdd(w, n, last, kind) })
	if sym == nil {
		return
	}
	switch {
	case kind == Module: // the table the file returns is its public interface
		sym.Visibility = Public
	case local:
		sym.Visibility = Private
	default:
		sym.Visibility = Public
	}
	end := int(n.EndByte())
	if value != nil && (kind.IsCallable() || strings.Contains(luaText(w, value), "\n") || len(luaText(w, value)) > luaMaxValueLen) {
		end = int(value.StartByte())
		if kind.IsCallable() {
			if b := childOfType(value, "function_body"); b != nil {
				end = int(b.StartByte())
			} else if ps := childrenOfType(value, "function_body_paren"); len(ps) > 0 {
				end = int(ps[len(ps)-1].EndByte())
			}
		}
	}
	luaFinish(w, sym, n, end)
	if table == "" && value != nil && (value.Type() == "tableconstructor" || luaIsSetmetatable(w, value)) {
		lf.tables[name] = sym
	}
	if kind.IsCallable() {
		w.within(sym, func() {
			w.walk(childOfType(value, "function_body"), func(w *walker, c *Node) { luaNode(w, c, lf, false) })
		})
	}
}

// luaIsSetmetatable reports whether value is setmetatable({...}, mt), an object table.
func luaIsSetmetatable(w *walker, value *Node) bool {
	id := childOfType(value, "identifier")
	return value.Type() == "function_call" && id != nil && luaText(w, id) == "setmetatable"
}

// luaAdd adds a symbol for the statement n like w.add, but starts its span at its code (the
// grammar starts a statement at its documentation, and some nodes at the white space before
// them) and takes its doc comment from the comments right above that.
func luaAdd(w *walker, n, name *Node, kind Kind) *Symbol {
	sym := w.addNamed(n, luaText(w, name), kind)
	luaFixStart(w, sym, n)
	return sym
}

// luaFixStart moves the start of sym, defined by n, to the first token of n's code and
// recomputes its doc comment from the comments above that token.
func luaFixStart(w *walker, sym *Symbol, n *Node) {
	if sym == nil {
		return
	}
	var first *Node
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.Type() != "emmy_documentation" && c.Type() != "comment" {
			first = c
			break
		}
	}
	for first != nil && first.ChildCount() > 0 {
		first = first.Child(0)
	}
	if first == nil {
		return
	}
	start, row := int(first.StartByte()), int(first.StartPoint().Row)
	lineStart := start - int(first.StartPoint().Column)
	for start < int(n.EndByte()) && strings.ContainsRune(" \t\r\n", rune(w.src[start])) {
		if w.src[start] == '\n' {
			row++
			lineStart = start + 1
		}
		start++
	}
	sym.StartLine, sym.StartColumn, sym.StartByte = row+1, w.column(start, start-lineStart), start
	sym.DocComment = luaCommentsAbove(w, n, row)
}

// luaCommentsAbove returns the comment block ending on the line above line, found among the
// siblings before n and the comments inside n before its code.
func luaCommentsAbove(w *walker, n *Node, line int) string {
	var inner []string
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if c.Type() != "emmy_documentation" && c.Type() != "comment" {
			break
		}
		inner = append(inner, w.text(c))
	}
	if len(inner) > 0 {
		first := n.Child(0)
		lead := w.text(first)
		line = int(first.StartPoint().Row) + strings.Count(lead[:len(lead)-len(strings.TrimLeft(lead, " \t\r\n"))], "\n")
	}
	var parts []string
	for p := n.PrevSibling(); p != nil && p.Type() == "comment"; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 {
			break
		}
		parts = append([]string{w.text(p)}, parts...)
		line = int(p.StartPoint().Row)
	}
	return cleanComment(strings.Join(append(parts, inner...), "\n"))
}

// luaText is the text of n without the white space the grammar puts before some nodes.
func luaText(w *walker, n *Node) string { return strings.TrimSpace(w.text(n)) }

// luaIdent records a use of the name n spells, like w.ident, starting its span after the
// white space the grammar may put before it.
func luaIdent(w *walker, n *Node, kind IdentKind) {
	if n == nil {
		return
	}
	text := w.text(n)
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	if lead == 0 {
		w.ident(n, kind)
		return
	}
	name := strings.TrimSpace(text)
	if name == "" || strings.ContainsAny(name, " \t\n") {
		return
	}
	sp := w.span(n)
	start := int(n.StartByte()) + lead
	if i := strings.LastIndexByte(text[:lead], '\n'); i >= 0 {
		sp.StartLine += strings.Count(text[:lead], "\n")
		sp.StartColumn = w.column(start, lead-i-1)
	} else {
		sp.StartColumn = w.column(start, int(n.StartPoint().Column)+lead)
	}
	sp.StartByte = start
	id := Identifier{Name: name, Kind: kind, Span: sp}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}

// luaCallee records a call of the function named by n, like w.call.
func luaCallee(w *walker, n *Node) {
	luaIdent(w, n, Call)
	name := luaText(w, n)
	from := w.container()
	if from == nil || name == "" {
		return
	}
	key := [2]string{from.ID, name}
	if w.calls[key] {
		return
	}
	w.calls[key] = true
	w.relate(from, name, Calls, n)
}
