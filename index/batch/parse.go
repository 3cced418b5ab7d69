// Package batch parses the batch language that agents send to quarry: statements such as
// search(q=Server, lang=go) { name, path } separated by ";". It checks syntax only; the layer
// above knows which operations, parameters and fields exist and reports its own errors at the
// positions recorded here.
package batch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The grammar:
//
//	batch     = statement { ";" statement } [ ";" ]
//	statement = operation "(" [ params ] ")" [ "{" fields "}" ]
//	params    = param { "," param }
//	param     = key op value | value
//	op        = "=" | "!=" | ">" | "<" | ">=" | "<=" | "~="
//	fields    = field { [ "," ] field }
//	value     = word | string
//
// A word is a run of characters other than white space and ( ) { } , ; = ! < > ~ ". An
// operation, key or field is a word that is also a name: a letter or _, then letters, digits
// and _ . - / : *. A string is double-quoted with the escapes \" \\ \n \t \/ \uXXXX (any other
// backslash is kept with what follows it: "\.go$" is the regular expression \.go$) and may span
// lines. White space separates tokens; # starts a comment to the end of the line where a
// token could start (inside a word it is part of the word: path=a#b).

// Pos is a place in the batch text.
type Pos struct {
	Offset int `json:"offset"` // bytes from the start, 0-based
	Line   int `json:"line"`   // 1-based
	Column int `json:"column"` // 1-based, in characters (runes)
}

// Op is a parameter's operator.
type Op string

// The operators.
const (
	OpEq    Op = "="
	OpNe    Op = "!="
	OpGt    Op = ">"
	OpLt    Op = "<"
	OpGe    Op = ">="
	OpLe    Op = "<="
	OpMatch Op = "~="
)

// Ops lists every operator, in the grammar's order.
var Ops = []Op{OpEq, OpNe, OpGt, OpLt, OpGe, OpLe, OpMatch}

// Param is one parameter: key op value, or a positional value (Key "" and Op "").
type Param struct {
	Key      string `json:"key,omitempty"`
	KeyPos   Pos    `json:"key_pos"`
	Op       Op     `json:"op,omitempty"`
	OpPos    Pos    `json:"op_pos"`
	Value    string `json:"value"` // unescaped
	ValuePos Pos    `json:"value_pos"`
	Quoted   bool   `json:"quoted,omitempty"`
}

// Field is one name of a projection.
type Field struct {
	Name string `json:"name"`
	Pos  Pos    `json:"pos"`
}

// Statement is operation(params) { fields }.
type Statement struct {
	Operation string  `json:"operation"`
	Pos       Pos     `json:"pos"`
	Params    []Param `json:"params"`
	Fields    []Field `json:"fields,omitempty"`
	Projected bool    `json:"projected,omitempty"` // a { } was written (an empty one is a syntax error)
	Text      string  `json:"text"`                // the statement's own source text, trimmed
}

// Batch is a parsed batch.
type Batch struct {
	Statements []Statement `json:"statements"`
}

// Error is a syntax error: where, what was found, what was expected.
type Error struct {
	Pos      Pos    `json:"pos"`
	Found    string `json:"found"`    // the token found, quoted for messages: `")"`, `end of input`
	Expected string `json:"expected"` // what would have been accepted, in words: `a parameter (key=value or a value)`
	Message  string `json:"message"`  // the whole sentence, without the position
}

// Error returns "line L, column C: MESSAGE".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Pos.Line, e.Pos.Column, e.Message)
}

// MaxStatements is the most statements a batch may hold (50): more is an *Error at the 51st.
const MaxStatements = 50

const (
	emptyMessage = "empty batch: write at least one statement, e.g. search(q=Server)"
	operators    = "= != > < >= <= ~="
	escapes      = `\" \\ \n \t \/ \uXXXX`
	nameRule     = "a name starts with a letter or _ and holds letters, digits and _ . - / : *"
	maxShown     = 40 // runes of a token shown in a message
)

// Parse parses a batch. A syntax error is an *Error; the whole batch is rejected.
func Parse(text string) (*Batch, error) {
	p := &parser{lex: lexer{src: text, pos: Pos{Line: 1, Column: 1}}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokEOF {
		return nil, &Error{Pos: Pos{Line: 1, Column: 1}, Found: "end of input", Expected: "a statement", Message: emptyMessage}
	}
	b := &Batch{}
	for {
		if len(b.Statements) == MaxStatements {
			msg := fmt.Sprintf("too many statements: a batch holds at most %d; split it into several batches", MaxStatements)
			return nil, &Error{Pos: p.tok.pos, Found: describe(p.tok), Expected: "the end of the batch", Message: msg}
		}
		st, err := p.statement()
		if err != nil {
			return nil, err
		}
		b.Statements = append(b.Statements, st)
		if p.tok.kind == tokEOF {
			return b, nil
		}
		if !p.tok.is(";") {
			return nil, p.fail(`";"`, "between statements")
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		switch {
		case p.tok.kind == tokEOF: // a trailing ";"
			return b, nil
		case p.tok.is(";"):
			err := p.fail("an operation name", `after ";"`)
			err.Message += ` (an empty statement: remove the extra ";")`
			return nil, err
		}
	}
}

// tokenKind is the kind of a token.
type tokenKind int

const (
	tokEOF    tokenKind = iota
	tokWord             // a bare name or value
	tokString           // a double-quoted string
	tokOp               // one of Ops
	tokPunct            // ( ) { } , ;
)

// token is one lexed token.
type token struct {
	kind  tokenKind
	text  string // the source text
	value string // a word's text, a string's unescaped value
	pos   Pos
	end   int // the byte offset just past the token
}

// is reports whether t is the punctuation s.
func (t token) is(s string) bool { return t.kind == tokPunct && t.text == s }

// parser is a recursive-descent parser over a lexer, one token ahead.
type parser struct {
	lex  lexer
	tok  token // the current token, not yet consumed
	prev token // the token consumed last
}

// advance consumes the current token and lexes the next.
func (p *parser) advance() error {
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.prev, p.tok = p.tok, t
	return nil
}

// statement parses operation(params) { fields }.
func (p *parser) statement() (Statement, error) {
	start := p.tok
	if err := p.name("an operation name"); err != nil {
		return Statement{}, err
	}
	st := Statement{Operation: start.text, Pos: start.pos, Params: []Param{}}
	if err := p.advance(); err != nil {
		return st, err
	}
	if !p.tok.is("(") {
		return st, p.fail(`"("`, "after the operation "+st.Operation)
	}
	if err := p.advance(); err != nil {
		return st, err
	}
	if err := p.params(&st); err != nil {
		return st, err
	}
	if p.tok.is("{") {
		if err := p.fields(&st); err != nil {
			return st, err
		}
	}
	st.Text = p.lex.src[start.pos.Offset:p.prev.end]
	return st, nil
}

// params parses the parameters after "(" and the closing ")".
func (p *parser) params(st *Statement) error {
	if p.tok.is(")") {
		return p.advance()
	}
	for first := true; ; first = false {
		prm, err := p.param(first)
		if err != nil {
			return err
		}
		st.Params = append(st.Params, prm)
		switch {
		case p.tok.is(")"):
			return p.advance()
		case p.tok.is(","):
			if err := p.advance(); err != nil {
				return err
			}
		case p.tok.kind == tokEOF:
			return p.fail(`"," or ")"`, "to close "+st.Operation+"(")
		default:
			return p.quoteHint(p.fail(`"," or ")"`, "after the parameter "+paramName(prm)))
		}
	}
}

// param parses key op value or a positional value.
func (p *parser) param(first bool) (Param, error) {
	t := p.tok
	if t.kind != tokWord && t.kind != tokString {
		expected := "a parameter (key=value or a value)"
		if first {
			expected += ` or ")"`
		}
		return Param{}, p.fail(expected, "")
	}
	if err := p.advance(); err != nil {
		return Param{}, err
	}
	if p.tok.kind != tokOp {
		return Param{Value: t.value, ValuePos: t.pos, Quoted: t.kind == tokString}, nil
	}
	op := p.tok
	if t.kind == tokString || !isName(t.text) {
		err := errAt(t, "a parameter name", "before "+strconv.Quote(op.text))
		err.Message += " (" + nameRule + ", without quotes)"
		return Param{}, err
	}
	if err := p.advance(); err != nil {
		return Param{}, err
	}
	v := p.tok
	if v.kind != tokWord && v.kind != tokString {
		return Param{}, p.quoteHint(p.fail("a value", "after "+strconv.Quote(op.text)))
	}
	prm := Param{Key: t.text, KeyPos: t.pos, Op: Op(op.text), OpPos: op.pos, Value: v.value, ValuePos: v.pos, Quoted: v.kind == tokString}
	return prm, p.advance()
}

// fields parses "{" fields "}".
func (p *parser) fields(st *Statement) error {
	st.Projected = true
	if err := p.advance(); err != nil {
		return err
	}
	expected, context := "a field name", "in { }"
	for {
		if p.tok.kind == tokEOF {
			return p.fail(`"}"`, "to close the fields")
		}
		if p.tok.kind != tokWord {
			return p.fail(expected, context)
		}
		if err := p.name("a field name"); err != nil {
			return err
		}
		st.Fields = append(st.Fields, Field{Name: p.tok.text, Pos: p.tok.pos})
		if err := p.advance(); err != nil {
			return err
		}
		expected, context = `a field name, "," or "}"`, ""
		if p.tok.is(",") {
			expected = "a field name"
			if err := p.advance(); err != nil {
				return err
			}
		} else if p.tok.is("}") {
			return p.advance()
		}
	}
}

// name checks that the current token is a name (an operation, key or field).
func (p *parser) name(expected string) error {
	if p.tok.kind == tokWord && isName(p.tok.text) {
		return nil
	}
	err := p.fail(expected, "")
	if p.tok.kind == tokWord {
		err.Message += " (" + nameRule + ")"
	}
	return err
}

// fail returns an error at the current token: "expected EXPECTED CONTEXT, found TOKEN".
func (p *parser) fail(expected, context string) *Error { return errAt(p.tok, expected, context) }

// quoteHint adds to err, about an operator or punctuation written against the token before
// it, that such a character belongs in a quoted value: name~=^Get(.*) should be "^Get(.*)".
func (p *parser) quoteHint(err *Error) *Error {
	t := p.tok
	if (t.kind == tokOp || t.kind == tokPunct) && t.text != "," && t.text != ")" && t.pos.Offset == p.prev.end {
		err.Message += fmt.Sprintf(" (to put %q in a value, quote the whole value)", t.text)
	}
	return err
}

// errAt returns an error at t: "expected EXPECTED CONTEXT, found T".
func errAt(t token, expected, context string) *Error {
	if context != "" {
		context = " " + context
	}
	found := describe(t)
	return &Error{Pos: t.pos, Found: found, Expected: expected, Message: "expected " + expected + context + ", found " + found}
}

// describe names t for a message: "q", string "a b", end of input.
func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokString:
		return "string " + strconv.Quote(clip(t.value))
	}
	return `"` + clip(t.text) + `"`
}

// paramName names a parameter in a message: its key, else its value.
func paramName(prm Param) string {
	switch {
	case prm.Key != "":
		return prm.Key
	case prm.Quoted:
		return strconv.Quote(clip(prm.Value))
	}
	return clip(prm.Value)
}

// clip shortens s to maxShown runes.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxShown {
		return s
	}
	return string([]rune(s)[:maxShown]) + "..."
}

// isName reports whether s is a name: a letter or _, then letters, digits and _ . - / : *.
func isName(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && (unicode.IsDigit(r) || strings.ContainsRune(".-/:*", r))) {
			return false
		}
	}
	return s != ""
}

// lexer splits the batch text into tokens, one at a time.
type lexer struct {
	src string
	pos Pos // of the next unread character
}

// peek returns the byte k bytes ahead, or 0 past the end.
func (l *lexer) peek(k int) byte {
	if i := l.pos.Offset + k; i < len(l.src) {
		return l.src[i]
	}
	return 0
}

// atEnd reports whether the whole text has been read.
func (l *lexer) atEnd() bool { return l.pos.Offset >= len(l.src) }

// step reads one character (an invalid UTF-8 byte counts as one).
func (l *lexer) step() {
	r, size := utf8.DecodeRuneInString(l.src[l.pos.Offset:])
	l.pos.Offset += size
	if r == '\n' {
		l.pos.Line, l.pos.Column = l.pos.Line+1, 1
	} else {
		l.pos.Column++
	}
}

// isSpace reports whether c is ASCII white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isDelim reports whether c ends a word.
func isDelim(c byte) bool { return strings.IndexByte(`(){},;=!<>~"`, c) >= 0 }

// next skips white space and comments and lexes one token.
func (l *lexer) next() (token, error) {
	for !l.atEnd() && (isSpace(l.peek(0)) || l.peek(0) == '#') {
		if l.peek(0) == '#' {
			for !l.atEnd() && l.peek(0) != '\n' {
				l.step()
			}
		} else {
			l.step()
		}
	}
	start := l.pos
	c := l.peek(0)
	switch {
	case l.atEnd():
		return token{kind: tokEOF, pos: start, end: start.Offset}, nil
	case c == '"':
		return l.str()
	case strings.IndexByte("=!<>~", c) >= 0:
		if err := l.op(); err != nil {
			return token{}, err
		}
		return l.token(tokOp, start), nil
	case isDelim(c):
		l.step()
		return l.token(tokPunct, start), nil
	}
	for !l.atEnd() && !isSpace(l.peek(0)) && !isDelim(l.peek(0)) {
		l.step()
	}
	return l.token(tokWord, start), nil
}

// token returns the token of kind from start to the current position.
func (l *lexer) token(kind tokenKind, start Pos) token {
	text := l.src[start.Offset:l.pos.Offset]
	return token{kind: kind, text: text, value: text, pos: start, end: l.pos.Offset}
}

// misspelt maps the operators written the wrong way round, or doubled, to the right ones.
var misspelt = map[string]string{"==": "=", "=<": "<=", "=>": ">=", "=~": "~=", "<>": "!="}

// op reads an operator, or reports a character sequence that looks like one but is not.
func (l *lexer) op() error {
	two := string([]byte{l.peek(0), l.peek(1)})
	if fix, ok := misspelt[two]; ok {
		msg := fmt.Sprintf("%q is not an operator: write %s", two, fix)
		return &Error{Pos: l.pos, Found: strconv.Quote(two), Expected: strconv.Quote(fix), Message: msg}
	}
	if c := l.peek(0); (c == '!' || c == '~') && l.peek(1) != '=' {
		msg := fmt.Sprintf("%q is not an operator: write %c= (the operators are %s)", string(c), c, operators)
		return &Error{Pos: l.pos, Found: strconv.Quote(string(c)), Expected: "an operator (" + operators + ")", Message: msg}
	}
	if l.step(); l.peek(0) == '=' {
		l.step()
	}
	return nil
}

// str reads a double-quoted string, unescaping it into the token's value.
func (l *lexer) str() (token, error) {
	start := l.pos
	l.step()
	var b strings.Builder
	for {
		switch c := l.peek(0); {
		case l.atEnd():
			return token{}, &Error{Pos: start, Found: "end of input", Expected: `a closing "`, Message: `unclosed string: add a closing "`}
		case c == '"':
			l.step()
			t := l.token(tokString, start)
			t.value = b.String()
			return t, nil
		case c == '\\':
			if err := l.escape(&b); err != nil {
				return token{}, err
			}
		default:
			from := l.pos.Offset
			l.step()
			b.WriteString(l.src[from:l.pos.Offset])
		}
	}
}

// simple maps the one-letter escapes to what they stand for.
var simple = map[byte]byte{'"': '"', '\\': '\\', 'n': '\n', 't': '\t', '/': '/'}

// escape reads one escape sequence at the backslash and writes its character to b. A
// backslash at the end of the text writes nothing: the string is then unclosed.
func (l *lexer) escape(b *strings.Builder) error {
	at := l.pos
	l.step()
	c := l.peek(0)
	if ch, ok := simple[c]; ok {
		l.step()
		b.WriteByte(ch)
		return nil
	}
	if l.atEnd() {
		return nil
	}
	if c != 'u' {
		r, _ := utf8.DecodeRuneInString(l.src[l.pos.Offset:])
		if unicode.IsPrint(r) {
			// Any other backslash is kept as written, with what follows it: a regular
			// expression's escapes (name~="^Get\w+", path~="\.go$") need no doubling.
			b.WriteByte('\\')
			return nil
		}
		seq := fmt.Sprintf(`\ followed by %U`, r)
		msg := "unknown escape " + seq + " in a string: the escapes are " + escapes + " (any other backslash is kept)"
		return &Error{Pos: at, Found: `"` + seq + `"`, Expected: "an escape (" + escapes + ")", Message: msg}
	}
	l.step()
	return l.unicode(b, at)
}

// unicode reads the XXXX of a \uXXXX escape whose backslash is at at, and a second \uXXXX
// when the two are a UTF-16 surrogate pair.
func (l *lexer) unicode(b *strings.Builder, at Pos) error {
	rest := l.src[l.pos.Offset:]
	r, ok := hex4(rest)
	if !ok {
		n := 0
		for n < len(rest) && n < 4 && strings.IndexByte("0123456789abcdefABCDEF", rest[n]) >= 0 {
			n++
		}
		seq := `\u` + rest[:n]
		msg := "invalid escape " + seq + ` in a string: \u takes four hex digits, e.g. \u00e9`
		return &Error{Pos: at, Found: `"` + seq + `"`, Expected: "four hex digits", Message: msg}
	}
	n := 4 // bytes to read: XXXX, or XXXX\uXXXX for a pair
	if low, ok := hex4(strings.TrimPrefix(rest[4:], `\u`)); ok && strings.HasPrefix(rest[4:], `\u`) {
		if pair := utf16.DecodeRune(r, low); pair != unicode.ReplacementChar {
			r, n = pair, 10
		}
	}
	for range n {
		l.step()
	}
	b.WriteRune(r) // a lone surrogate becomes U+FFFD, as in encoding/json
	return nil
}

// hex4 returns the character that the four hex digits at the start of s stand for.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), err == nil
}
