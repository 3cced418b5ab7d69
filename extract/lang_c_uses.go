package extract

import (
	"sort"
	"strings"
)

// The uses of names in C and C++ beyond calls and member accesses: every identifier of an
// expression, a field designator (.x = 1), a qualified name's scope (ns::f, E::v), a
// member initializer, the names of a macro's body and of preprocessor conditions. A
// function's parameters and locals are not definitions Quarry indexes: their names are kept
// on the function's symbol (metadata "locals"), so that resolution knows a use of one of
// them is not a use of a global of the same name; their declarators are not uses.

// cMetaLocals is the metadata key of a function's parameter and local names.
const cMetaLocals = "locals"

// cKeywords are the words of a macro body that are never names (C and C++ keywords and
// the common preprocessor words).
var cKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct
		switch typedef union unsigned void volatile while _Bool _Complex _Alignas _Alignof _Atomic
		_Generic _Noreturn _Static_assert _Thread_local bool true false alignas alignof asm catch class
		constexpr const_cast decltype delete dynamic_cast explicit export friend mutable namespace new
		noexcept nullptr operator private protected public reinterpret_cast static_assert static_cast
		template this throw try typeid typename using virtual wchar_t defined __VA_ARGS__ __attribute__
		__typeof__ typeof __asm__ __inline__ __restrict__ __extension__ __builtin_expect`) {
		cKeywords[k] = true
	}
}

// local adds the name n declares to the innermost function's locals.
func (c *cFamily) local(n *Node) {
	if n == nil || len(c.locals) == 0 {
		return
	}
	if name := c.w.text(n); name != "" {
		c.locals[len(c.locals)-1][name] = true
	}
}

// pushLocals starts the locals of a function; popLocals ends them, recording them on sym.
func (c *cFamily) pushLocals() { c.locals = append(c.locals, map[string]bool{}) }

func (c *cFamily) popLocals(sym *Symbol) {
	top := c.locals[len(c.locals)-1]
	c.locals = c.locals[:len(c.locals)-1]
	if sym == nil || len(top) == 0 {
		return
	}
	names := make([]string, 0, len(top))
	for n := range top {
		names = append(names, n)
	}
	sort.Strings(names)
	meta(sym, cMetaLocals, strings.Join(names, ","))
}

// params records the names of a parameter list as locals, and walks their default values
// (and, with types, their types: a lambda's or a catch's, not recorded otherwise).
func (c *cFamily) params(list *Node, types bool) {
	for _, p := range namedChildren(list) {
		switch p.Type() {
		case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
			c.param(p, types)
		}
	}
}

// param records the name of the parameter p as a local, and walks its default value and,
// with types, its type.
func (c *cFamily) param(p *Node, types bool) {
	if d := field(p, "declarator"); d != nil {
		if at := declName(d); at != nil && at.Type() == "identifier" {
			c.local(at)
		}
	}
	if types {
		c.node(c.w, field(p, "type"))
	}
	c.node(c.w, field(p, "default_value"))
}

// sizes records the names in the array sizes of a declarator, and of its parameters'
// declarators (char buf[BUF_LEN], void f(const char key[KEY_LEN])).
func (c *cFamily) sizes(d *Node) {
	for ; d != nil; d = cInnerDeclarator(d) {
		switch d.Type() {
		case "array_declarator":
			c.node(c.w, field(d, "size"))
		case "function_declarator":
			for _, p := range namedChildren(field(d, "parameters")) {
				c.sizes(field(p, "declarator"))
			}
		case "init_declarator":
			c.sizes(field(d, "declarator"))
			return
		case "identifier", "field_identifier", "type_identifier", "qualified_identifier":
			return
		}
	}
}

// templateDefaults records the names a template parameter list uses: the types of its
// value parameters and its default values and types, not the parameters' own names.
func (c *cFamily) templateDefaults(params *Node) {
	for _, p := range namedChildren(params) {
		switch p.Type() {
		case "parameter_declaration", "optional_parameter_declaration":
			c.node(c.w, field(p, "type"))
			c.node(c.w, field(p, "default_value"))
		case "optional_type_parameter_declaration":
			c.node(c.w, field(p, "default_type"))
		}
	}
}

// localDecl walks the declarator of a local declaration: its name is a local, its initial
// value and array size are uses.
func (c *cFamily) localDecl(d *Node) {
	if d == nil {
		return
	}
	switch d.Type() {
	case "identifier":
		c.local(d)
	case "init_declarator":
		c.localDecl(field(d, "declarator"))
		c.node(c.w, field(d, "value"))
		for _, a := range namedChildren(d) { // C++ T x(args), T x{args}
			if a.Type() == "argument_list" || a.Type() == "initializer_list" {
				if a != field(d, "value") {
					c.node(c.w, a)
				}
			}
		}
	case "array_declarator":
		c.localDecl(field(d, "declarator"))
		c.node(c.w, field(d, "size"))
	case "pointer_declarator", "reference_declarator", "parenthesized_declarator":
		c.localDecl(cInnerDeclarator(d))
	case "function_declarator": // a local prototype
	default:
		c.node(c.w, d)
	}
}

// localDeclaration walks a declaration inside a function: its type's names, its
// declarators' names as locals and their values as uses.
func (c *cFamily) localDeclaration(n *Node) {
	typ := field(n, "type")
	if typ != nil && field(typ, "body") == nil {
		c.node(c.w, typ)
	}
	for _, d := range c.declarators(n) {
		c.localDecl(d)
	}
}

// qualified records the uses of a qualified name: each scope (a namespace or type) and,
// unless scopesOnly (a call's name, recorded as the call), the name looked up in it, its
// qualifier the path (a::b::).
func (c *cFamily) qualified(n *Node, scopesOnly bool) {
	whole := n
	for n != nil && n.Type() == "qualified_identifier" {
		if s := field(n, "scope"); s != nil {
			switch s.Type() {
			case "namespace_identifier", "type_identifier":
				c.w.member(s, whole, TypeUsage)
			case "template_type":
				c.w.member(field(s, "name"), whole, TypeUsage)
				c.node(c.w, field(s, "arguments"))
			}
		}
		n = field(n, "name")
	}
	if n == nil {
		return
	}
	if scopesOnly {
		if n.Type() == "template_function" {
			c.node(c.w, field(n, "arguments"))
		}
		return
	}
	switch n.Type() {
	case "identifier", "field_identifier":
		c.w.member(n, whole, VariableRef)
	case "type_identifier":
		c.w.member(n, whole, TypeUsage)
	case "template_function", "template_type":
		c.w.member(field(n, "name"), whole, VariableRef)
		c.node(c.w, field(n, "arguments"))
	default:
		c.node(c.w, n)
	}
}

// macroBody records the names a macro's body uses: a name followed by ( is a call, one
// after . or -> a member of what precedes it; the macro's parameters, keywords, a # or ##
// operand are not.
func (c *cFamily) macroBody(n *Node) {
	body := field(n, "value")
	if body == nil {
		return
	}
	params := map[string]bool{}
	for _, p := range namedChildren(field(n, "parameters")) {
		params[c.w.text(p)] = true
	}
	src := c.w.text(body)
	base := int(body.StartByte())
	row, col0 := int(body.StartPoint().Row), int(body.StartPoint().Column)
	lineStart := -1 // the byte in src where the current line starts; -1: the body's first line
	for i := 0; i < len(src); {
		ch := src[i]
		switch {
		case ch == '\n':
			row++
			lineStart = i + 1
			i++
			continue
		case ch == '"' || ch == '\'': // a literal
			j := i + 1
			for j < len(src) && src[j] != ch && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			continue
		case ch == '/' && i+1 < len(src) && src[i+1] == '*': // a comment
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return
			}
			for _, r := range src[i : i+2+j] {
				if r == '\n' {
					row++
				}
			}
			if k := strings.LastIndexByte(src[i:i+2+j], '\n'); k >= 0 {
				lineStart = i + k + 1
			}
			i += j + 4
			continue
		case ch == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case ch >= '0' && ch <= '9': // a number, with its suffix
			for i < len(src) && (isIdentByte(src[i]) || src[i] == '.') {
				i++
			}
			continue
		case !isIdentByte(ch):
			i++
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		name := src[i:j]
		prev := strings.TrimRight(src[:i], " \t\\\n")
		next := strings.TrimLeft(src[j:], " \t\\\n")
		start, end := i, j
		i = j
		if params[name] || cKeywords[name] || strings.HasSuffix(prev, "#") || strings.HasPrefix(next, "##") || len(name) > maxNameRunes {
			continue
		}
		byteCol := col0 + start
		if lineStart >= 0 {
			byteCol = start - lineStart
		}
		kind := VariableRef
		if strings.HasPrefix(next, "(") {
			kind = Call
		}
		qual := ""
		if strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, "->") {
			kind = MemberAccess
			p := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(prev, "."), "->"), " \t")
			k := len(p)
			for k > 0 && isIdentByte(p[k-1]) {
				k--
			}
			qual = p[k:]
			if qual == "" || params[qual] {
				qual = "?"
			}
		} else if strings.HasSuffix(prev, "::") {
			continue // a path in a macro: left to the names the expansion spells
		}
		off := base + start
		id := Identifier{Name: name, Kind: kind, Qualifier: qual, Span: Span{
			StartLine: row + 1, StartColumn: c.w.column(off, byteCol),
			EndLine: row + 1, EndColumn: c.w.column(base+end, byteCol+end-start),
			StartByte: off, EndByte: base + end,
		}}
		if ct := c.w.container(); ct != nil {
			id.ContainingSymbolID = ct.ID
		}
		c.w.f.Identifiers = append(c.w.f.Identifiers, id)
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}
