package query

import (
	"cmp"
	"fmt"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrysearch/quarry/suggest"
)

// The expression grammar (ParseExpr), loosest first:
//
//	expr    = and { "OR" and }
//	and     = unary { [ "AND" ] unary }
//	unary   = ( "NOT" | "-" | "+" ) unary | primary [ "^" number ]
//	primary = "(" expr ")" | field ":" value | term
//	value   = "*" | "(" value { [ "AND" | "OR" ] value } ")" | range | cmp number | term
//	range   = ( "[" | "{" ) bound "TO" bound ( "]" | "}" )        bound: a value or *
//	cmp     = ">" | ">=" | "<" | "<="
//	term    = '"' phrase '"' [ "~" N | "*" ] | "/" regex "/" | word [ "~" N ]
//
// A bare word ending in * is a prefix; in a field value * and ? are wildcards. Upper-case AND,
// OR and NOT are operators; lower-case and, or, not are words.

// Options tune ParseExpr.
type Options struct {
	// Values gives the values of enum fields whose registry entry has none (kind, lang):
	// field name -> valid values. A field missing here takes any value.
	Values map[string][]string
}

// ParseExpr parses src as a query expression.
func ParseExpr(src string, opts Options) (Node, error) {
	p := &parser{src: src, opts: opts}
	p.skipSpace()
	if p.pos == len(src) {
		return nil, p.errAt(0, EmptyMessage)
	}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.pos < len(src) {
		return nil, p.errAt(p.pos, "unexpected %q: expected a term, an operator or the end of the query", p.src[p.pos:p.pos+1])
	}
	return n, nil
}

type parser struct {
	src   string
	pos   int
	depth int
	opts  Options
}

// maxDepth bounds the nesting of groups and negations.
const maxDepth = 100

func (p *parser) errAt(pos int, format string, a ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, a...), src: p.src}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

// keyword reports whether the upper-case operator kw stands at the position, and consumes it.
func (p *parser) keyword(kw string) bool {
	p.skipSpace()
	if !strings.HasPrefix(p.src[p.pos:], kw) {
		return false
	}
	end := p.pos + len(kw)
	if end < len(p.src) && !isSpace(p.src[end]) && !strings.ContainsRune(`()"`, rune(p.src[end])) {
		return false
	}
	p.pos = end
	return true
}

// isSpace reports whether c separates terms: ASCII white space (other spaces are part of
// words).
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// atEnd reports whether the expression at the current depth ends here.
func (p *parser) atEnd() bool {
	p.skipSpace()
	return p.pos == len(p.src) || p.src[p.pos] == ')'
}

func (p *parser) expr() (Node, error) {
	at := p.pos
	first, err := p.and()
	if err != nil {
		return nil, err
	}
	clauses := []Node{first}
	for p.keyword("OR") {
		if p.atEnd() {
			return nil, p.errAt(p.pos, "expected a term after OR")
		}
		n, err := p.and()
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, n)
	}
	if len(clauses) == 1 {
		return first, nil
	}
	return &Bool{Op: Or, Clauses: clauses, At: at}, nil
}

func (p *parser) and() (Node, error) {
	p.skipSpace()
	at := p.pos
	var clauses []Node
	for !p.atEnd() {
		save := p.pos
		if p.keyword("OR") {
			p.pos = save
			break
		}
		if len(clauses) > 0 && p.keyword("AND") && p.atEnd() {
			return nil, p.errAt(p.pos, "expected a term after AND")
		}
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, n)
	}
	switch len(clauses) {
	case 0:
		return nil, p.errAt(p.pos, "expected a term")
	case 1:
		return clauses[0], nil
	}
	return &Bool{Op: And, Clauses: clauses, At: at}, nil
}

func (p *parser) unary() (Node, error) {
	p.skipSpace()
	at := p.pos
	if p.depth++; p.depth > maxDepth {
		return nil, p.errAt(at, "the query nests more than %d levels deep", maxDepth)
	}
	defer func() { p.depth-- }()
	neg, must := p.keyword("NOT"), false
	if neg {
		p.skipSpace()
	} else if p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] == '+') && p.signApplies(p.pos) {
		neg, must = p.src[p.pos] == '-', p.src[p.pos] == '+'
		p.pos++
	}
	if neg || must {
		if p.pos >= len(p.src) || isSpace(p.src[p.pos]) || p.src[p.pos] == ')' {
			return nil, p.errAt(p.pos, "expected a term after %q", strings.TrimSpace(p.src[at:p.pos]))
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if neg {
			return &Not{X: x, At: at}, nil
		}
		return x, nil // +x: required, as every term already is
	}
	n, err := p.primary()
	if err != nil {
		return nil, err
	}
	return n, p.boost(n)
}

// signApplies reports whether the - or + at i is an operator: followed by a term (a word,
// a phrase, a regex, a group), or by nothing (an error: a sign needs a term). Before other
// punctuation it is code: -> and += in a signature are words of the query.
func (p *parser) signApplies(i int) bool {
	rest := p.src[i+1:]
	return rest == "" || isSpace(rest[0]) || rest[0] == ')' || isWordStart(rest)
}

func (p *parser) primary() (Node, error) {
	at := p.pos
	if p.src[p.pos] == '(' {
		p.pos++
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.skipSpace(); p.pos >= len(p.src) || p.src[p.pos] != ')' {
			return nil, p.errAt(at, "unclosed (: expected a closing )")
		}
		p.pos++
		return n, nil
	}
	if f, n, ok, err := p.fieldName(); err != nil {
		return nil, err
	} else if ok {
		p.pos += n
		return p.value(f, at)
	}
	return p.term("", at)
}

// fieldName reports whether a field name and its colon stand at the position (and how many
// bytes they take). A registered name, or a near miss of one (an error), is a field when a
// value follows the colon; anything else (TODO:, std::io, http://) is a word.
func (p *parser) fieldName() (*Field, int, bool, error) {
	rest := p.src[p.pos:]
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z' || rest[i] == '_') {
		i++
	}
	if i == 0 || i >= len(rest) || rest[i] != ':' {
		return nil, 0, false, nil
	}
	name := rest[:i]
	if i+1 == len(rest) || isSpace(rest[i+1]) || rest[i+1] == ')' {
		// "kind:" with nothing after it: a mistake, unless the word is not a field's name in
		// lower case (TODO:, Type:).
		if _, ok := LookupField(name); ok && name == strings.ToLower(name) {
			return nil, 0, false, p.errAt(p.pos+i+1, "expected a value after %q (to search for the text, quote it: \"%s:\")", name+":", name)
		}
		return nil, 0, false, nil
	}
	if rest[i+1] == ':' || rest[i+1] == '/' && i+2 < len(rest) && rest[i+2] == '/' {
		return nil, 0, false, nil
	}
	if f, ok := LookupField(name); ok {
		return f, i + 1, true, nil
	}
	if near := suggest.Closest(strings.ToLower(name), FieldNames()); near != "" && name == strings.ToLower(name) {
		return nil, 0, false, p.errAt(p.pos, "unknown field %q: did you mean %s:? (fields: %s)", name, near, strings.Join(FieldNames(), ", "))
	}
	return nil, 0, false, nil
}

// value parses what follows "field:".
func (p *parser) value(f *Field, at int) (Node, error) {
	if p.pos >= len(p.src) || isSpace(p.src[p.pos]) || p.src[p.pos] == ')' || p.src[p.pos] == ':' {
		return nil, p.errAt(p.pos, "expected a value after %q", f.Name+":")
	}
	switch c := p.src[p.pos]; {
	case c == '*' && (p.pos+1 == len(p.src) || isSpace(p.src[p.pos+1]) || p.src[p.pos+1] == ')' || p.src[p.pos+1] == '^'):
		p.pos++
		return &Leaf{Field: f.Name, Kind: Exists, At: at}, nil
	case c == '(':
		return p.set(f, at)
	case c == '[' || c == '{' && isRange(p.src[p.pos:]):
		return p.rangeValue(f, at)
	case c == '>' || c == '<':
		return p.comparison(f, at)
	}
	n, err := p.term(f.Name, at)
	if err != nil {
		return nil, err
	}
	l := n.(*Leaf)
	if l.Kind == Wildcard && l.Text == "*" { // field:* however it ends
		l.Kind, l.Text = Exists, ""
		return l, nil
	}
	if err := p.check(f, l); err != nil {
		return nil, err
	}
	if f.Type == NumberField { // line:100 is the range [100 TO 100]
		return &Range{Field: f.Name, Lo: l.Text, Hi: l.Text, IncLo: true, IncHi: true, At: at}, nil
	}
	return l, nil
}

// set parses field:(a OR b ...): the field applies to every value in the group.
func (p *parser) set(f *Field, at int) (Node, error) {
	open := p.pos
	p.pos++ // (
	var clauses []Node
	op := And
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.errAt(at, "unclosed (: expected a closing ) after the values of %s:", f.Name)
		}
		if p.src[p.pos] == ')' {
			p.pos++
			break
		}
		if len(clauses) > 0 {
			kwAt, next := p.pos, And
			if p.keyword("OR") {
				next = Or
			} else {
				p.keyword("AND")
			}
			if len(clauses) > 1 && next != op {
				return nil, p.errAt(kwAt, "the values of %s:( ) mix AND and OR: use one, or write the field before each group", f.Name)
			}
			op = next
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.errAt(open, "unclosed (: expected a value and a closing ) after the values of %s:", f.Name)
			}
		}
		vat := p.pos
		n, err := p.value(f, vat)
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, n)
	}
	switch len(clauses) {
	case 0:
		return nil, p.errAt(at, "expected a value in %s:( )", f.Name)
	case 1:
		return clauses[0], nil
	}
	return &Bool{Op: op, Clauses: clauses, At: at}, nil
}

// rangeValue parses [lo TO hi] or {lo TO hi} (either bracket at either end).
func (p *parser) rangeValue(f *Field, at int) (Node, error) {
	if f.Type != NumberField && f.Type != KeywordField && f.Type != TextField {
		return nil, p.errAt(p.pos, "%s: takes no range (a %s field)", f.Name, f.Type)
	}
	r := &Range{Field: f.Name, IncLo: p.src[p.pos] == '[', At: at}
	p.pos++
	fields := []string{}
	for len(fields) < 3 {
		p.skipSpace()
		start := p.pos
		for p.pos < len(p.src) && !isSpace(p.src[p.pos]) && !strings.ContainsRune("]}", rune(p.src[p.pos])) {
			p.pos++
		}
		if p.pos == start {
			return nil, p.errAt(p.pos, "expected lo TO hi in the range of %s:", f.Name)
		}
		fields = append(fields, p.src[start:p.pos])
	}
	if fields[1] != "TO" {
		return nil, p.errAt(at, "expected TO between the bounds of the range of %s:", f.Name)
	}
	p.skipSpace()
	if p.pos >= len(p.src) || (p.src[p.pos] != ']' && p.src[p.pos] != '}') {
		return nil, p.errAt(p.pos, "expected ] or } to close the range of %s:", f.Name)
	}
	r.IncHi = p.src[p.pos] == ']'
	p.pos++
	r.Lo, r.Hi = fields[0], fields[2]
	for _, b := range []string{r.Lo, r.Hi} {
		if err := p.number(f, b, at); b != "*" && err != nil {
			return nil, err
		}
	}
	switch c := compareBounds(f, r); {
	case c > 0:
		return nil, p.errAt(at, "%s: the range is empty: %s is above %s; put the lower bound first: %s:[%s TO %s]", r, r.Lo, r.Hi, f.Name, r.Hi, r.Lo)
	case c == 0 && !(r.IncLo && r.IncHi):
		return nil, p.errAt(at, "%s: the range is empty: both bounds are %s and one is excluded; write %s:[%s TO %s] or %s:%s", r, r.Lo, f.Name, r.Lo, r.Hi, f.Name, r.Lo)
	}
	return r, nil
}

// compareBounds compares the bounds of the range r of f as ranges match them: as numbers
// for a number field, else as lower-case text; -1 when an end is open.
func compareBounds(f *Field, r *Range) int {
	if r.Lo == "*" || r.Hi == "*" {
		return -1
	}
	if f.Type == NumberField {
		lo, _ := strconv.Atoi(r.Lo)
		hi, _ := strconv.Atoi(r.Hi)
		return cmp.Compare(lo, hi)
	}
	return strings.Compare(strings.ToLower(r.Lo), strings.ToLower(r.Hi))
}

// isRange reports whether s, starting with a bracket, holds a range (lo TO hi) rather than
// a glob's {a,b} alternatives.
func isRange(s string) bool {
	end := strings.IndexAny(s, "]}")
	return end > 0 && strings.Contains(s[:end], " TO ")
}

// comparison parses >N, >=N, <N, <=N as a range with an open end.
func (p *parser) comparison(f *Field, at int) (Node, error) {
	op := p.src[p.pos : p.pos+1]
	p.pos++
	if p.pos < len(p.src) && p.src[p.pos] == '=' {
		op += "="
		p.pos++
	}
	start := p.pos
	for p.pos < len(p.src) && !isSpace(p.src[p.pos]) && p.src[p.pos] != ')' {
		p.pos++
	}
	v := p.src[start:p.pos]
	if f.Type != NumberField {
		return nil, p.errAt(at, "%s: takes no comparison (a %s field; line: does)", f.Name, f.Type)
	}
	if err := p.number(f, v, start); err != nil {
		return nil, err
	}
	r := &Range{Field: f.Name, Lo: "*", Hi: "*", IncLo: true, IncHi: true, At: at}
	if op[0] == '>' {
		r.Lo, r.IncLo = v, op == ">="
	} else {
		r.Hi, r.IncHi = v, op == "<="
	}
	return r, nil
}

// number checks a value of a number field.
func (p *parser) number(f *Field, v string, at int) error {
	if f.Type != NumberField {
		return nil
	}
	if _, err := strconv.Atoi(v); err != nil {
		return p.errAt(at, "%s: wants a whole number, got %q", f.Name, v)
	}
	return nil
}

// term parses a phrase, a regex or a word (with its ~ suffix), bare or as field's value.
func (p *parser) term(field string, at int) (Node, error) {
	start := p.pos
	switch p.src[p.pos] {
	case '"':
		return p.phrase(field, at)
	case '/':
		return p.regex(field, at)
	}
	for p.pos < len(p.src) && !isSpace(p.src[p.pos]) && !strings.ContainsRune(`()"`, rune(p.src[p.pos])) {
		p.pos++
	}
	w := p.src[start:p.pos]
	if field == "" && (w == "AND" || w == "OR" || w == "NOT") {
		return nil, p.errAt(start, "expected a term, got the operator %s (to search for the word, quote it: \"%s\")", w, w)
	}
	l := &Leaf{Field: field, Kind: Word, Text: w, At: at}
	if i := strings.LastIndexByte(w, '^'); i > 0 && isNumber(w[i+1:]) {
		p.pos -= len(w) - i // the boost is read by unary
		w = w[:i]
		l.Text = w
	}
	if i := strings.LastIndexByte(w, '~'); i > 0 {
		n := w[i+1:]
		if n != "1" && n != "2" {
			return nil, p.errAt(start+i, "expected 1 or 2 after ~ (the edit distance of a fuzzy word), got %q", n)
		}
		if strings.ContainsAny(w[:i], "*?") {
			return nil, p.errAt(start, "a word is fuzzy (~N) or has wildcards (* ?), not both: %q", w)
		}
		l.Kind, l.Text, l.Edits = Fuzzy, w[:i], int(n[0]-'0')
		return l, nil
	}
	switch {
	case field != "" && strings.ContainsAny(w, "*?"):
		l.Kind = Wildcard
	case field == "" && len(w) > 1 && strings.HasSuffix(w, "*") && !strings.HasSuffix(w, "**"):
		l.Kind, l.Text = Prefix, w[:len(w)-1]
	}
	return l, nil
}

// isNumber reports whether s is a number as boost reads it: digits and a decimal point
// (1e3, Inf and -1 are not, so a^1e3 stays one word rather than a^1 and the word e3).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return s != "" && strings.Trim(s, "0123456789.") == "" && err == nil
}

// phrase parses "..." with \" and \\ escapes, and its ~N or * suffix.
func (p *parser) phrase(field string, at int) (Node, error) {
	open := p.pos
	var b strings.Builder
	for p.pos++; ; p.pos++ {
		if p.pos >= len(p.src) {
			return nil, p.errAt(open, "unclosed phrase: expected a closing \"")
		}
		c := p.src[p.pos]
		if c == '\\' && p.pos+1 < len(p.src) && (p.src[p.pos+1] == '"' || p.src[p.pos+1] == '\\') {
			p.pos++
			b.WriteByte(p.src[p.pos])
			continue
		}
		if c == '"' {
			p.pos++
			break
		}
		b.WriteByte(c)
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	if text == "" {
		return nil, p.errAt(open, "empty phrase: put words between the quotes")
	}
	l := &Leaf{Field: field, Kind: Phrase, Text: text, At: at}
	if p.pos < len(p.src) && p.src[p.pos] == '*' {
		p.pos++
		l.Kind = PhrasePrefix
	} else if p.pos < len(p.src) && p.src[p.pos] == '~' {
		start := p.pos + 1
		for p.pos = start; p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9'; p.pos++ {
		}
		n, err := strconv.Atoi(p.src[start:p.pos])
		if err != nil || n < 1 || n > maxSlop {
			return nil, p.errAt(start, "expected a slop of 1 to %d words after ~", maxSlop)
		}
		l.Slop = n
	}
	return l, nil
}

// maxSlop is the largest phrase slop.
const maxSlop = 100

// regex parses /.../ (\/ for a slash) and checks it is valid RE2.
func (p *parser) regex(field string, at int) (Node, error) {
	open := p.pos
	var b strings.Builder
	for p.pos++; ; p.pos++ {
		if p.pos >= len(p.src) {
			return nil, p.errAt(open, "unclosed regex: expected a closing /")
		}
		c := p.src[p.pos]
		if c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/' {
			p.pos++
			b.WriteByte('/')
			continue
		}
		if c == '\\' && p.pos+1 < len(p.src) {
			b.WriteString(p.src[p.pos : p.pos+2])
			p.pos++
			continue
		}
		if c == '/' {
			p.pos++
			break
		}
		b.WriteByte(c)
	}
	re := b.String()
	if re == "" {
		return nil, p.errAt(open, "empty regex: put a pattern between the slashes")
	}
	if _, err := syntax.Parse(re, syntax.Perl); err != nil {
		return nil, p.errAt(open+1, "invalid regex: %v", err)
	}
	return &Leaf{Field: field, Kind: Regex, Text: re, At: at}, nil
}

// check validates a field's value by the field's type.
func (p *parser) check(f *Field, l *Leaf) error {
	switch f.Type {
	case EnumField:
		values := f.Values
		if values == nil {
			values = p.opts.Values[f.Name]
		}
		if l.Kind != Word && l.Kind != Phrase {
			return p.errAt(l.At, "%s: takes one of its values, not a %s", f.Name, l.Kind)
		}
		if values != nil && !slices.Contains(values, strings.ToLower(l.Text)) {
			msg := fmt.Sprintf("%s:%s: unknown value %q", f.Name, l.Text, l.Text)
			if near := suggest.Closest(strings.ToLower(l.Text), values); near != "" {
				msg += "; did you mean " + near + "?"
			}
			return p.errAt(l.At, "%s; valid values: %s", msg, strings.Join(values, ", "))
		}
		l.Text = strings.ToLower(l.Text)
	case NumberField:
		if l.Kind != Word {
			return p.errAt(l.At, "%s: wants a whole number, a range [a TO b] or a comparison (>=100)", f.Name)
		}
		return p.number(f, l.Text, l.At)
	}
	return nil
}

// boost reads a ^N after a term, range or group.
func (p *parser) boost(n Node) error {
	if p.pos >= len(p.src) || p.src[p.pos] != '^' {
		return nil
	}
	start := p.pos + 1
	end := start
	for end < len(p.src) && (p.src[end] >= '0' && p.src[end] <= '9' || p.src[end] == '.') {
		end++
	}
	v, err := strconv.ParseFloat(p.src[start:end], 64)
	if err != nil || v <= 0 {
		return p.errAt(p.pos, "expected a positive number after ^ (a boost)")
	}
	p.pos = end
	switch x := n.(type) {
	case *Leaf:
		x.Boost = v
	case *Range:
		x.Boost = v
	default:
		return p.errAt(start-1, "a boost applies to a term or a range, not a group")
	}
	return nil
}
