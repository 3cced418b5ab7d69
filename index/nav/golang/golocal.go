package golang

// Go's local bindings, read from a function's lines (gochain.go): x := f(), var x T,
// a, err := f(), for k, v := range xs, switch v := x.(type), a function literal's
// parameters; whether a binding is in scope at a use (block scope), the type it binds; and
// the scanning of Go source text that reading needs (strings, brackets, statements).

import (
	"go/ast"
	"strings"

	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// goBinding is a binding of a local variable in a function's lines.
type goBinding struct {
	kind  goBindKind
	typ   string // the declared type (var x T, a function literal's parameter)
	rhs   string // what it is bound to (x := v, var x = v, range v, the x of x.(type))
	index int    // its place among the names bound together (a, b := ...)
	names int    // how many names are bound together
	line  int    // its line, and the byte offset where its statement starts
	at    int
	// cases: for a type switch's variable, the types of the case clause around the use
	cases string
}

type goBindKind int

const (
	goBindValue  goBindKind = iota // x := v, var x = v, var x T
	goBindRange                    // for k, v := range x
	goBindSwitch                   // switch v := x.(type)
	goBindParam                    // func(x T) { ... } around the use
)

// goLocal finds the binding of the local name in force at sc's position in its function:
// the nearest one above it, in a block still open there (a := or var statement, a for, if
// or switch header's, a function literal's parameter).
func (r *resolver) goLocal(sc goScope, name string) (goBinding, bool, error) {
	if sc.fn != nil && (sc.line < sc.fn.Line || sc.fn.Language != "go") || sc.line < 1 {
		return goBinding{}, false, nil
	}
	lines, err := r.Lines(sc.f.Path)
	if err != nil {
		return goBinding{}, false, err
	}
	first := 0 // the function's own line binds its parameters: the lines below it
	if sc.fn != nil {
		first = sc.fn.Line + 1
	} else { // a package-level declaration (var h = HandlerFunc(func(w ...) {...})): from its first line
		for first = min(sc.line, len(lines)); first > 1; first-- {
			if t := lines[first-1]; t != "" && t[0] != ' ' && t[0] != '\t' && t[0] != '}' && t[0] != ')' && !strings.HasPrefix(t, "//") {
				break
			}
		}
	}
	for n := min(sc.line, len(lines)); n >= first && n >= 1; n-- {
		text := lines[n-1]
		if n == sc.line {
			text = text[:min(sc.at, len(text))]
		}
		if !strings.Contains(text, name) {
			continue
		}
		for _, b := range goBindings(text, name) { // the rightmost first
			b.line = n
			if !goInScope(lines, b, sc.line, sc.at) {
				continue
			}
			if b.kind == goBindSwitch {
				b.cases = goSwitchCase(lines, n, sc.line, sc.at)
			}
			return b, true, nil
		}
		for _, h := range resolve.LiteralHeads(text, "go") { // a function literal's parameter
			if resolve.ParamNamed(h.Params, name, "go") && resolve.Encloses(lines, n, h.Body, sc.line, sc.at+1, h.Block) {
				return goBinding{kind: goBindParam, typ: resolve.ParamType("("+h.Params+")", name, "go"), line: n}, true, nil
			}
		}
	}
	return goBinding{}, false, nil
}

// goBindings returns the bindings of name on the line text, the rightmost first: a := or
// var statement, for ... range, switch v := x.(type).
func goBindings(text, name string) []goBinding {
	var out []goBinding
	if i := strings.Index(text, "//"); i >= 0 && !inGoString(text, i) {
		text = text[:i] // a trailing comment
	}
	for i := len(text) - 2; i >= 0; i-- {
		if text[i] != ':' || text[i+1] != '=' || inGoString(text, i) {
			continue
		}
		// The names before :=.
		j := i
		var names []string
		for {
			k := j
			for k > 0 && (text[k-1] == ' ' || text[k-1] == '\t') {
				k--
			}
			e := k
			for k > 0 && resolve.IsIdentByte(text[k-1]) {
				k--
			}
			if k == e {
				break
			}
			names = append([]string{text[k:e]}, names...)
			j = k
			for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
				j--
			}
			if j == 0 || text[j-1] != ',' {
				break
			}
			j--
		}
		idx := -1
		for n, v := range names {
			if v == name {
				idx = n
			}
		}
		if idx < 0 {
			continue
		}
		start := j
		for start > 0 && (text[start-1] == ' ' || text[start-1] == '\t') {
			start--
		}
		before := strings.TrimSpace(text[:start])
		b := goBinding{index: idx, names: len(names), at: start}
		rhs := text[i+2:]
		header := strings.HasSuffix(before, "if") || strings.HasSuffix(before, "for") || strings.HasSuffix(before, "switch")
		if header {
			rhs = goHeaderPart(rhs)
		}
		rhs = strings.TrimSpace(rhs)
		if strings.HasSuffix(before, "case") { // select's case v := <-ch:
			rhs = strings.TrimSpace(strings.TrimSuffix(rhs, ":"))
		}
		switch {
		case strings.HasPrefix(rhs, "range ") || strings.HasPrefix(rhs, "range\t"):
			b.kind, b.rhs = goBindRange, strings.TrimSpace(rhs[len("range"):])
		case strings.HasSuffix(before, "switch") && strings.HasSuffix(rhs, ".(type)"):
			b.kind, b.rhs = goBindSwitch, strings.TrimSuffix(rhs, ".(type)")
		default:
			b.rhs = rhs
		}
		out = append(out, b)
	}
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "var "); ok && wordAt(t, name) >= 0 {
		at := strings.Index(text, "var ")
		names, typ, rhs, ok := goVarSpec(rest)
		if ok {
			for i, n := range names {
				if n == name {
					out = append(out, goBinding{kind: goBindValue, typ: typ, rhs: rhs, index: i, names: len(names), at: at})
				}
			}
		}
	}
	return out
}

// goHeaderPart returns the part of an if, for or switch header after a := up to its ; or
// the { that opens its block.
func goHeaderPart(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '{':
			if depth == 0 && strings.TrimSpace(s[i+1:]) == "" {
				return s[:i]
			}
			depth++
		case '}':
			depth--
		case ';':
			if depth == 0 {
				return s[:i]
			}
		case '"', '\'', '`':
			if k := strings.IndexByte(s[i+1:], c); k >= 0 {
				i += k + 1
			}
		}
	}
	return s
}

// goVarSpec reads "a, b T = x, y" (after var): the names, the type, the values.
func goVarSpec(s string) (names []string, typ, rhs string, ok bool) {
	s = strings.TrimSpace(s)
	for {
		n := identPrefix(s)
		if n == "" {
			return nil, "", "", false
		}
		names = append(names, n)
		s = strings.TrimLeft(s[len(n):], " \t")
		if !strings.HasPrefix(s, ",") {
			break
		}
		s = strings.TrimLeft(s[1:], " \t")
	}
	if i := resolve.AssignAt(s); i >= 0 {
		typ, rhs = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	} else {
		typ = strings.TrimSpace(s)
	}
	if j := strings.Index(typ, "//"); j >= 0 {
		typ = strings.TrimSpace(typ[:j])
	}
	return names, typ, rhs, true
}

// goInScope reports whether the binding b (on its line, its statement at b.at) is in force
// at the use at line and byte at: its statement is over (a := does not bind in its own
// right side), and the block it is in (for a header's, the statement's own blocks, else
// and else if included) is still open.
func goInScope(lines []string, b goBinding, line, at int) bool {
	text := lines[b.line-1]
	t := strings.TrimSpace(text[:b.at])
	header := strings.HasSuffix(t, "if") || strings.HasSuffix(t, "for") || strings.HasSuffix(t, "switch")
	clause := strings.HasSuffix(t, "case") // select's case v := <-ch:
	depth := 0
	opened := false // a header's block has opened
	for k := b.line; k <= line && k <= len(lines); k++ {
		text := lines[k-1]
		from, to := 0, len(text)
		if k == b.line {
			from = b.at
		}
		if k == line {
			to = min(at, len(text))
		}
		if clause && k > b.line && depth == 0 {
			if s := strings.TrimSpace(text); strings.HasPrefix(s, "case ") || strings.HasPrefix(s, "default:") {
				return false
			}
		}
		for j := from; j < to; j++ {
			switch c := text[j]; c {
			case '{', '(', '[':
				depth++
				if c == '{' && header && depth == 1 && j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
					opened = true // the block's {, not a literal's ([]string{"a"}, T{})
				}
			case '}', ')', ']':
				depth--
				if depth < 0 {
					return false
				}
				if c == '}' && header && opened && depth == 0 {
					if rest := strings.TrimSpace(text[j+1:]); strings.HasPrefix(rest, "else") {
						continue
					}
					return false
				}
			case ';':
				if header && depth == 0 && k == b.line {
					opened = true // for i := 0; i < n: the binding holds after its statement
				}
			case '"', '\'', '`':
				if e := strings.IndexByte(text[j+1:to], c); e >= 0 {
					j += e + 1
				} else {
					j = to
				}
			case '/':
				if j+1 < to && text[j+1] == '/' {
					j = to
				}
			}
		}
		if k == b.line && !header && !clause && line == b.line {
			return false // x := f(x): the right side is not in x's scope
		}
	}
	if header && !opened {
		return false // in the header's own expressions
	}
	return true
}

// goSwitchCase returns the types of the case clause of a type switch (whose header is on
// line n) that holds the use at line and byte at ("" in default, or not found).
func goSwitchCase(lines []string, n, line, at int) string {
	depth, cur := 0, ""
	for k := n; k <= line && k <= len(lines); k++ {
		text := lines[k-1]
		to := len(text)
		if k == line {
			to = min(at, len(text))
		}
		if k > n && depth == 1 {
			s := strings.TrimSpace(text)
			if rest, ok := strings.CutPrefix(s, "case "); ok {
				if i := strings.LastIndexByte(rest, ':'); i >= 0 {
					cur = strings.TrimSpace(rest[:i])
				} else {
					cur = ""
				}
			} else if strings.HasPrefix(s, "default:") {
				cur = ""
			}
		}
		for j := 0; j < to; j++ {
			switch c := text[j]; c {
			case '{':
				depth++
			case '}':
				depth--
			case '"', '\'', '`':
				if e := strings.IndexByte(text[j+1:to], c); e >= 0 {
					j += e + 1
				} else {
					j = to
				}
			}
		}
	}
	return cur
}

// goBindingType returns the type of the local bound by b, read in sc's function.
func (r *resolver) goBindingType(sc goScope, b goBinding) (goType, bool, error) {
	at := goScope{f: sc.f, fn: sc.fn, container: sc.container, line: b.line, at: b.at}
	switch b.kind {
	case goBindParam:
		e := r.goParse(b.typ)
		return goType{expr: e, f: sc.f, scope: sc.container}, e != nil, nil
	case goBindSwitch:
		if c := b.cases; c != "" && len(goSplit(c)) == 1 && c != "nil" {
			e := r.goParse(c)
			return goType{expr: e, f: sc.f, scope: sc.container}, e != nil, nil
		}
		e := r.goParse(goBalance(b.rhs))
		if e == nil {
			return goType{}, false, nil
		}
		v, ok, err := r.goEval(at, e)
		return v.t, ok && !v.isType && v.fn == nil, err
	case goBindRange:
		e := r.goParse(goBalance(b.rhs))
		if e == nil {
			return goType{}, false, nil
		}
		v, ok, err := r.goEval(at, e)
		if !ok || err != nil || v.isType || v.fn != nil {
			return goType{}, false, err
		}
		u, ok, err := r.goUnder(v.t)
		if !ok || err != nil {
			return goType{}, false, err
		}
		if ft, isFunc := u.expr.(*ast.FuncType); isFunc { // range over func(yield func(K, V) bool)
			if ft.Params == nil || len(ft.Params.List) != 1 {
				return goType{}, false, nil
			}
			yield, _ := ft.Params.List[0].Type.(*ast.FuncType)
			if yield == nil || yield.Params == nil {
				return goType{}, false, nil
			}
			var ps []ast.Expr
			for _, p := range yield.Params.List {
				for range max(1, len(p.Names)) {
					ps = append(ps, p.Type)
				}
			}
			if b.index >= len(ps) {
				return goType{}, false, nil
			}
			return goType{expr: ps[b.index], f: u.f, scope: u.scope}, true, nil
		}
		if id, isIdent := u.expr.(*ast.Ident); isIdent && goPredeclared[id.Name] && id.Name != "string" {
			return u, true, nil // range over an integer
		}
		if _, isChan := u.expr.(*ast.ChanType); isChan {
			return r.goElem(v.t, 1)
		}
		return r.goElem(v.t, b.index)
	}
	if b.typ != "" {
		e := r.goParse(b.typ)
		return goType{expr: e, f: sc.f, scope: sc.container}, e != nil, nil
	}
	lines, err := r.Lines(sc.f.Path)
	if err != nil {
		return goType{}, false, err
	}
	rhs := goStatement(lines, b.line, b.rhs)
	exprs := goSplit(rhs)
	if b.names == len(exprs) {
		e := r.goParse(exprs[b.index])
		if e == nil {
			return goType{}, false, nil
		}
		v, ok, err := r.goEval(at, e)
		return v.t, ok && !v.isType && v.fn == nil, err
	}
	if len(exprs) != 1 {
		return goType{}, false, nil
	}
	e := r.goParse(exprs[0])
	if e == nil {
		return goType{}, false, nil
	}
	if call, isCall := e.(*ast.CallExpr); isCall { // a, err := f()
		fv, ok, err := r.goEval(at, call.Fun)
		if !ok || err != nil || fv.isType {
			return goType{}, false, err
		}
		res, err := r.goResults(fv)
		if err != nil || b.index >= len(res) {
			return goType{}, false, err
		}
		return res[b.index], true, nil
	}
	if b.index != 0 { // v, ok := m[k], x.(T), <-ch
		return goType{expr: ast.NewIdent("bool"), f: sc.f}, true, nil
	}
	v, ok, err := r.goEval(at, e)
	return v.t, ok && !v.isType && v.fn == nil, err
}

// goStatementLines bounds the lines goStatement reads on.
const goStatementLines = 400

// goStatement returns the expression that starts with rhs on line (1-based) and goes on
// over the lines below until its brackets close (x := f(func() {\n...\n})).t), or rhs with
// its brackets closed (goBalance) when they do not close within goStatementLines.
func goStatement(lines []string, line int, rhs string) string {
	text := strings.TrimSpace(rhs)
	depth, str := goOpen(text, 0, 0)
	if depth <= 0 && str == 0 {
		return goBalance(text)
	}
	var b strings.Builder
	b.WriteString(text)
	for n := line + 1; n <= len(lines) && n <= line+goStatementLines; n++ {
		b.WriteByte('\n')
		b.WriteString(lines[n-1])
		if depth, str = goOpen(lines[n-1], depth, str); depth <= 0 && str == 0 {
			return b.String()
		}
	}
	return goBalance(text)
}

// goOpen returns the brackets left open after the line text, given those open before it
// (depth) and whether a raw string is open (str '`'); a line comment ends the line.
func goOpen(text string, depth int, str byte) (int, byte) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if str != 0 {
			if c == '\\' && str != '`' {
				i++
			} else if c == str {
				str = 0
			}
			continue
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'', '`':
			str = c
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				return depth, 0
			}
		}
	}
	if str != '`' {
		str = 0 // an interpreted string does not go on to the next line
	}
	return depth, str
}

// goBalance closes the brackets a line leaves open (x := &T{ on a line of its own: &T{}),
// drops a trailing comment, and "" when a string does not close.
func goBalance(s string) string {
	var open []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case '"', '\'', '`':
			k := goQuoteEnd(s[i+1:], c)
			if k < 0 {
				return ""
			}
			i += k + 1
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				s = s[:i]
			}
		}
	}
	s = strings.TrimRight(strings.TrimSpace(s), ",")
	for i := len(open) - 1; i >= 0; i-- {
		s += map[byte]string{'(': ")", '[': "]", '{': "}"}[open[i]]
	}
	return s
}

// goEscaped reports whether the byte at s[k] is escaped by an odd number of backslashes.
func goEscaped(s string, k int) bool {
	n := 0
	for k > 0 && s[k-1] == '\\' {
		n++
		k--
	}
	return n%2 == 1
}

// inGoString reports whether byte i of the line text is inside a string or rune literal or
// a comment.
func inGoString(text string, i int) bool {
	for j := 0; j < i; j++ {
		switch c := text[j]; c {
		case '"', '\'', '`':
			k := strings.IndexByte(text[j+1:], c)
			for k >= 0 && c != '`' && goEscaped(text[j+1:], k) {
				n := strings.IndexByte(text[j+1+k+1:], c)
				if n < 0 {
					k = -1
					break
				}
				k += n + 1
			}
			if k < 0 || j+1+k >= i {
				return true
			}
			j += k + 1
		case '/':
			if j+1 < len(text) && text[j+1] == '/' {
				return true
			}
		}
	}
	return false
}

// wordAt returns the index of the first whole-word occurrence of name in s, -1 if none.
func wordAt(s, name string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		from = i + len(name)
		if (i == 0 || !resolve.IsIdentByte(s[i-1])) && (from == len(s) || !resolve.IsIdentByte(s[from])) {
			return i
		}
	}
}

// identPrefix returns the identifier s starts with ("" none).
func identPrefix(s string) string {
	i := 0
	for i < len(s) && resolve.IsIdentByte(s[i]) {
		i++
	}
	if i == 0 || s[0] >= '0' && s[0] <= '9' {
		return ""
	}
	return s[:i]
}

// goSplit splits a Go expression list at its top-level commas: outside brackets, strings,
// runes and comments.
func goSplit(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'', '`':
			k := goQuoteEnd(s[i+1:], c)
			if k < 0 {
				return append(out, s[start:])
			}
			i += k + 1
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
					i += nl
				} else {
					i = len(s)
				}
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// goQuoteEnd returns the offset in s of the quote c closing a literal that starts just
// before s (a backslash escapes one in "..." and '...', never in a raw `...`), -1 if none.
func goQuoteEnd(s string, c byte) int {
	k := strings.IndexByte(s, c)
	for k >= 0 && c != '`' && goEscaped(s, k) {
		n := strings.IndexByte(s[k+1:], c)
		if n < 0 {
			return -1
		}
		k += n + 1
	}
	return k
}
