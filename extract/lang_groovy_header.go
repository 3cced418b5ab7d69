package extract

import (
	"bytes"
	"strings"
)

// The Groovy grammar parses a declaration's body as a closure, but its head often not as
// one node: it knows neither implements, trait, enum nor typed constructor parameters, and
// a second annotation breaks the node it belongs to, so one declaration can be spread over
// several sibling statements (a declaration "trait T", then the closure of its body). The
// heads of classes, methods and constructors are therefore read from the tokens of the
// statements, up to the closure that is the body, with the small grammar below:
//
//	head     = { annotation | modifier } ( typeHead | methodHead )
//	typeHead = ( class | interface | trait | enum | @interface | record ) Name [ <...> ]
//	           { ( extends | implements | permits ) Type { , Type } } Body
//	methodHead = [ def ] [ <...> ] [ Type ] ( Name | "string" ) ( ... ) [ throws Types ] [ Body ]
//
// A method without a type needs def or a modifier (static main(args)), else it is a
// constructor when named like its class (or a call, which is no declaration). A method
// without a body (abstract, in an interface) is read only in a class body.

// gvMaxHeadTokens bounds the tokens read for one head: a declaration's head is short, and a
// statement that is not one is rejected before that.
const gvMaxHeadTokens = 160

// gvToken is one token of a declaration head: a leaf of the tree, a whole string, or a
// closure.
type gvToken struct {
	n    *Node
	text string
	sib  int  // index of the statement the token is in
	body bool // a closure outside parentheses: a body
}

// gvTokens returns the tokens of the statements in list, up to and including the first body
// when stopAtBody, at most gvMaxHeadTokens of them. Comments are skipped; an "=" outside
// parentheses ends a head (a field or a variable), so it ends the tokens when stopAtBody.
func (g *groovyFile) tokens(list []*Node, stopAtBody bool) []gvToken {
	var toks []gvToken
	depth := 0
	var visit func(n *Node, sib int) bool
	visit = func(n *Node, sib int) bool {
		switch {
		case len(toks) >= gvMaxHeadTokens:
			return true
		case commentTypes[n.Type()]:
			return false
		case n.Type() == "closure" || n.Type() == "string" || n.ChildCount() == 0:
			t := gvToken{n: n, text: g.w.text(n), sib: sib, body: n.Type() == "closure" && depth == 0}
			if t.text == "" {
				return false
			}
			depth += gvParenDelta(t.text)
			toks = append(toks, t)
			return t.body && stopAtBody || stopAtBody && depth == 0 && t.text == "="
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if visit(n.Child(i), sib) {
				return true
			}
		}
		return false
	}
	for i, n := range list {
		if visit(n, i) {
			break
		}
	}
	return toks
}

// gvParenDelta is how a token changes the depth of parentheses and brackets.
func gvParenDelta(tok string) int {
	switch tok {
	case "(", "[":
		return 1
	case ")", "]":
		return -1
	}
	return 0
}

// gvHead is a declaration head read from tokens.
type gvHead struct {
	kind     Kind   // Class, Interface, Trait, Enum, Method (a script's function) or Constructor
	keyword  string // class, interface, trait, enum, @interface, record; "" for a method
	name     gvToken
	mods     map[string]bool
	annots   []gvToken // the names of the annotations
	generics []gvToken // <...> of a type or method
	typ      []gvToken // a method's return type; none for def
	params   []gvToken // between the parentheses
	supers   []gvSuper
	throws   []gvToken
	body     *Node   // nil for an abstract method
	last     gvToken // the last token of the head (before the body)
	sibs     int     // how many statements the declaration spans
}

// gvSuper is a supertype named in a type's head.
type gvSuper struct {
	name gvToken
	rel  RelKind
}

// gvModifiers are the modifiers a head may start with.
var gvModifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true,
	"abstract": true, "synchronized": true, "native": true, "transient": true, "volatile": true,
	"strictfp": true, "default": true, "sealed": true, "non-sealed": true,
}

// gvTypeKeywords map the keyword of a type declaration to its kind.
var gvTypeKeywords = map[string]Kind{
	"class": Class, "interface": Interface, "@interface": Interface, "trait": Trait,
	"enum": Enum, "record": Class,
}

// gvPrimitives are the built-in types.
var gvPrimitives = map[string]bool{
	"void": true, "boolean": true, "byte": true, "char": true, "short": true, "int": true,
	"long": true, "float": true, "double": true,
}

// gvHeadParser reads a head from tokens.
type gvHeadParser struct {
	toks  []gvToken
	p     int
	class string // the name of the enclosing class, for constructors
}

func (r *gvHeadParser) peek(k int) gvToken {
	if r.p+k < len(r.toks) {
		return r.toks[r.p+k]
	}
	return gvToken{}
}

func (r *gvHeadParser) next() gvToken {
	t := r.peek(0)
	r.p++
	return t
}

// accept consumes the next token when it is text.
func (r *gvHeadParser) accept(text string) bool {
	if t := r.peek(0); t.text == text && !t.body {
		r.p++
		return true
	}
	return false
}

// skipBalanced consumes a group from open to its matching close and returns the tokens
// inside, or false when the group is not closed.
func (r *gvHeadParser) skipBalanced(open, close string) ([]gvToken, bool) {
	start, depth := r.p+1, 0
	for ; r.p < len(r.toks); r.p++ {
		// A token may hold several angle brackets (>> closes two type argument lists).
		t := r.toks[r.p].text
		if !r.toks[r.p].body && strings.Trim(t, open+close) == "" {
			depth += strings.Count(t, open) - strings.Count(t, close)
			if depth <= 0 {
				r.p++
				return r.toks[start : r.p-1], depth == 0
			}
		}
	}
	return nil, false
}

// isName reports whether t is an identifier other than a keyword of a head.
func (t gvToken) isName() bool {
	if t.n == nil || t.n.Type() != "identifier" || t.body {
		return false
	}
	_, kw := gvTypeKeywords[t.text]
	return !kw && !gvModifiers[t.text] && t.text != "def" && t.text != "extends" && t.text != "implements" && t.text != "throws"
}

// isString reports whether t is a string literal (the name of a Spock feature method).
func (t gvToken) isString() bool { return t.n != nil && t.n.Type() == "string" }

// parseHead reads a declaration head from r's tokens; ok is false when they start none.
func (r *gvHeadParser) parseHead(impliedDef bool) (h gvHead, ok bool) {
	h.mods = map[string]bool{}
	if !r.prefix(&h) {
		return h, false
	}
	kw := r.peek(0).text
	if kw == "@" && r.peek(1).text == "interface" {
		r.next()
		kw = "@interface"
	}
	if kind, isType := gvTypeKeywords[kw]; isType && !r.peek(0).body {
		r.next()
		h.kind, h.keyword = kind, kw
		ok = r.typeHead(&h)
	} else {
		ok = r.methodHead(&h, impliedDef)
	}
	return h, ok && r.end(&h)
}

// prefix reads the annotations and modifiers before a declaration.
func (r *gvHeadParser) prefix(h *gvHead) bool {
	for {
		t := r.peek(0)
		switch {
		case gvModifiers[t.text] && !t.body:
			h.mods[t.text] = true
			r.next()
		case t.text == "@" && r.peek(1).isName():
			r.next()
			h.annots = append(h.annots, r.next())
			for r.peek(0).text == "." && r.peek(1).isName() {
				r.next()
				h.annots[len(h.annots)-1] = r.next()
			}
			h.mods["@"+h.annots[len(h.annots)-1].text] = true
			if r.peek(0).text == "(" {
				if _, closed := r.skipBalanced("(", ")"); !closed {
					return false
				}
			}
		default:
			return true
		}
	}
}

// typeHead reads a type's name, type parameters and supertypes.
func (r *gvHeadParser) typeHead(h *gvHead) bool {
	if !r.peek(0).isName() {
		return false
	}
	h.name = r.next()
	if !r.generics(h) {
		return false
	}
	for {
		rel := Extends
		switch {
		case r.accept("extends"):
		case r.accept("implements"), r.accept("permits"):
			rel = Implements
		default:
			return true
		}
		if h.keyword == "interface" || h.keyword == "@interface" {
			rel = Extends
		}
		for {
			name, ok := r.typeName()
			if !ok {
				return false
			}
			h.supers = append(h.supers, gvSuper{name, rel})
			if !r.accept(",") {
				break
			}
		}
	}
}

// generics reads an optional <...> into h.generics.
func (r *gvHeadParser) generics(h *gvHead) bool {
	if r.peek(0).text != "<" {
		return true
	}
	inner, ok := r.skipBalanced("<", ">")
	h.generics = inner
	return ok
}

// typeName reads a type: a primitive or a (qualified) name whose last part is capitalized,
// with type arguments, array brackets and varargs dots. It returns the token that names it.
func (r *gvHeadParser) typeName() (gvToken, bool) {
	t := r.peek(0)
	if gvPrimitives[t.text] {
		r.next()
		return t, r.arrays()
	}
	if !t.isName() {
		return t, false
	}
	r.next()
	for r.peek(0).text == "." && r.peek(1).isName() {
		r.next()
		t = r.next()
	}
	if c := t.text[0]; c < 'A' || c > 'Z' {
		return t, false // a lower-case word is a command (task x, println y), not a type
	}
	if r.peek(0).text == "<" {
		if _, ok := r.skipBalanced("<", ">"); !ok {
			return t, false
		}
	}
	return t, r.arrays()
}

// arrays reads the [] and ... after a type.
func (r *gvHeadParser) arrays() bool {
	for {
		switch {
		case r.accept("[]"), r.accept("..."):
		case r.peek(0).text == "[" && r.peek(1).text == "]":
			r.p += 2
		default:
			return true
		}
	}
}

// methodHead reads a method's or constructor's type, name and parameters.
func (r *gvHeadParser) methodHead(h *gvHead, impliedDef bool) bool {
	def := r.accept("def") || impliedDef
	if !r.generics(h) {
		return false
	}
	name := r.peek(0)
	named := (name.isName() || name.isString()) && r.peek(1).text == "("
	switch {
	case named && !def && name.text == r.class && len(h.generics) == 0:
		h.kind = Constructor
	case named && (def || len(h.mods) > 0 || name.isString() && r.class != ""):
		h.kind = Method // a string: a Spock feature whose def the grammar lost
	case named:
		return false // a call: foo(x) { ... }
	default:
		start := r.p
		if _, ok := r.typeName(); !ok {
			return false
		}
		h.typ = r.toks[start:r.p]
		h.kind = Method
	}
	h.name = r.next()
	if !h.name.isName() && !h.name.isString() || r.peek(0).text != "(" {
		return false
	}
	params, ok := r.skipBalanced("(", ")")
	h.params = params
	if ok && r.accept("throws") {
		for ok {
			var t gvToken
			t, ok = r.typeName()
			h.throws = append(h.throws, t)
			if !r.accept(",") {
				break
			}
		}
	}
	return ok
}

// end reads the body that ends a head, or accepts a method without one in a class body
// when the head ends its statement. It sets how many statements the declaration spans.
func (r *gvHeadParser) end(h *gvHead) bool {
	if r.p == 0 {
		return false
	}
	h.last = r.toks[r.p-1]
	if t := r.peek(0); t.body {
		h.body, h.sibs = t.n, t.sib+1
		return true
	}
	if h.keyword != "" || r.class == "" || h.kind == Constructor {
		return false
	}
	if t := r.peek(0); t.n != nil && t.sib == h.last.sib || r.p >= gvMaxHeadTokens {
		return false // more follows in the statement: not a declaration
	}
	h.sibs = h.last.sib + 1
	return true
}

// parseField reads the head of a field or variable whose declaration the grammar broke (a
// second annotation): annotations and modifiers, def or a type, and the name, which must
// end its statement or be followed by "=".
func (r *gvHeadParser) parseField() (h gvHead, ok bool) {
	h.mods = map[string]bool{}
	if !r.prefix(&h) {
		return h, false
	}
	if !r.accept("def") {
		start := r.p
		if _, typed := r.typeName(); !typed {
			return h, false
		}
		h.typ = r.toks[start:r.p]
	}
	h.name = r.next()
	after := r.peek(0)
	ok = h.name.isName() && (after.n == nil || after.sib != h.name.sib || after.text == "=")
	h.last, h.sibs = h.name, h.name.sib+1
	return h, ok
}

// closeGroovy is the repair of Groovy sources (see repair.go): the grammar's error recovery
// never ends on some files cut inside a block (class A { def f() { "), so what is left open
// at the end (a comment, a string, an interpolation, brackets, braces) is closed. A complete
// file is returned as it is. Slashy strings are not told from division, so one with a quote
// or a bracket in it can leave a line out of step; a single-line string ends at its line.
func closeGroovy(src []byte) []byte {
	var open []string // the closers of what is open, innermost last
	for i := 0; i < len(src); i++ {
		top := ""
		if len(open) > 0 {
			top = open[len(open)-1]
		}
		switch top {
		case "\n", " */", "'", `"`, "'''", `"""`:
			var n int
			open, n = gvInText(open, top, src[i:])
			i += n
			continue
		}
		rest := src[i:]
		switch c := src[i]; {
		case bytes.HasPrefix(rest, []byte("//")), bytes.HasPrefix(rest, []byte("/*")):
			open = append(open, map[byte]string{'/': "\n", '*': " */"}[rest[1]])
			i++
		case bytes.HasPrefix(rest, []byte("'''")), bytes.HasPrefix(rest, []byte(`"""`)):
			open = append(open, string(rest[:3]))
			i += 2
		case c == '\'' || c == '"':
			open = append(open, string(c))
		case c == '{' || c == '[' || c == '(':
			open = append(open, string(map[byte]byte{'{': '}', '[': ']', '(': ')'}[c]))
		case c == '}' || c == ']' || c == ')':
			open = gvCloseBracket(open, string(c))
		}
	}
	if len(open) == 0 {
		return src
	}
	return gvClose(src, open)
}

// gvClose returns src with what open lists closed, innermost first.
func gvClose(src []byte, open []string) []byte {
	out := append([]byte(nil), src...)
	top := open[len(open)-1]
	switch {
	case strings.Contains("}])", top) && bytes.HasSuffix(src, []byte("/")):
		out = append(out, "/\n"...) // a lone / would start a slashy string: make it a comment
	case top[0] == '\'' || top[0] == '"':
		trailing := len(src) - len(bytes.TrimRight(src, `\`))
		if trailing%2 == 1 {
			out = append(out, '\\') // finish the escape the string ends in
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		out = append(out, open[i]...)
	}
	return out
}

// gvInText reads one character (or escape, or end) of the comment or string that top
// closes (a line comment ends at its line, a block comment at */), at the start of rest, and
// returns what is open after it and how many more bytes it read.
func gvInText(open []string, top string, rest []byte) ([]string, int) {
	pop := open[:len(open)-1]
	end := strings.TrimLeft(top, " ")
	switch {
	case bytes.HasPrefix(rest, []byte(end)):
		return pop, len(end) - 1
	case top == "\n" || top == " */":
	case rest[0] == '\\':
		return open, 1
	case rest[0] == '\n' && len(top) == 1:
		return pop, 0 // a single-line string ends at its line
	case top[0] == '"' && bytes.HasPrefix(rest, []byte("${")):
		return append(open, "}"), 1
	}
	return open, 0
}

// gvCloseBracket closes the innermost open bracket that closer closes, and what is open
// inside it; a closer that closes nothing open is ignored.
func gvCloseBracket(open []string, closer string) []string {
	for i := len(open) - 1; i >= 0 && strings.Contains("}])", open[i]); i-- {
		if open[i] == closer {
			return open[:i]
		}
	}
	return open
}
