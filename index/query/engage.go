package query

import (
	"strings"
	"unicode/utf8"
)

// Engages reports whether src is written in the query language rather than as plain words
// and phrases: an upper-case AND, OR or NOT standing alone, a registered field name (lower
// case) followed by a colon and a value, a parenthesis, a word starting with - or +, a
// /regex/, a word ending in ~N, ^N or *, or a field's name and colon alone (the parser asks
// for its value). Anything inside double quotes is text. Plain input keeps the plain parser
// (Parse) and its fast path.
func Engages(src string) bool {
	// a field's name and colon alone (name:) is a field missing its value: the parser says so
	if t := strings.TrimSpace(src); len(t) > 1 && t[len(t)-1] == ':' && !strings.ContainsAny(t, " \t\r\n") {
		if _, ok := LookupField(t[:len(t)-1]); ok && t == strings.ToLower(t) {
			return true
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				return false // an unclosed quote: plain text
			}
			i += end + 2
			// a phrase's ~N or * suffix
			if i < len(src) && (src[i] == '~' || src[i] == '*' || src[i] == '^') {
				return true
			}
			continue
		}
		j := i
		for j < len(src) && !isSpace(src[j]) && src[j] != '"' {
			j++
		}
		if wordEngages(src[i:j], src[j:]) {
			return true
		}
		i = j
	}
	return false
}

// wordEngages reports whether one space-separated word w (followed by rest) engages the
// expression parser.
func wordEngages(w, rest string) bool {
	switch w {
	case "AND", "OR", "NOT":
		return true
	}
	if g := strings.TrimLeft(w, "-+"); strings.HasPrefix(g, "(") {
		// a group; a parenthesis inside a word is code (foo(), Map<K, V>), and so is a
		// parenthesized list (a comma means nothing to the query language): a parameter
		// list, a tuple, (id_list=None, *, field_name='pk')
		return !listInParens(g + rest)
	}
	if (w[0] == '-' || w[0] == '+') && len(w) > 1 && isWordStart(w[1:]) {
		return true
	}
	if w[0] == '/' && regexCloses(w[1:]+rest) {
		return true
	}
	// a field and its value; a field name ending a word (name: string, path: str) is code
	// unless something else engages the parser, which then asks for the value
	if i := strings.IndexByte(w, ':'); i > 0 && i+1 < len(w) && w[i+1] != ':' && w[i+1] != '/' {
		if _, ok := LookupField(w[:i]); ok && w[:i] == strings.ToLower(w[:i]) {
			return true
		}
		// a near miss of a field's name (kidn:class) engages, to be told the field it meant
		if i+1 < len(w) && isFieldName(w[:i]) && nearField(w[:i]) {
			return true
		}
	}
	if i := strings.IndexByte(w, ':'); i > 0 && i+1 < len(w) && w[i+1] == '/' && regexCloses(w[i+2:]+rest) {
		if _, ok := LookupField(w[:i]); ok && w[:i] == strings.ToLower(w[:i]) {
			return true // name:/regex/
		}
	}
	if n := len(w); n > 1 {
		if w[n-1] == '*' && w[n-2] != '*' && isWordRuneBefore(w[:n-1]) {
			return true
		}
		if k := strings.LastIndexAny(w, "~^"); k > 0 && k+1 < n && isNumber(w[k+1:]) {
			return true
		}
	}
	return false
}

// listInParens reports whether the parenthesis opening s closes around a comma of its own
// (not one inside a nested group or a phrase), or never closes around anything but a list.
func listInParens(s string) bool {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return false
			}
		case c == ',' && depth == 1:
			return true
		}
	}
	return false
}

// nearField reports whether s is one typo away from a field's name: a letter added,
// dropped, changed, or two neighbours swapped (kidn, knd, lnag).
func nearField(s string) bool {
	if len(s) < 3 {
		return false
	}
	for _, f := range FieldNames() {
		if oneTypo(s, f) {
			return true
		}
	}
	return false
}

func oneTypo(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) == len(b) {
		diff := []int{}
		for i := 0; i < len(a); i++ {
			if a[i] != b[i] {
				diff = append(diff, i)
			}
		}
		return len(diff) == 1 || len(diff) == 2 && diff[1] == diff[0]+1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a) != len(b)+1 {
		return false
	}
	for i := 0; i < len(b); i++ {
		if a[i] != b[i] {
			return a[i+1:] == b[i:]
		}
	}
	return true
}

// isFieldName reports whether s could be a field's name: lower-case ASCII letters and _.
func isFieldName(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && s[i] != '_' {
			return false
		}
	}
	return s != ""
}

// regexCloses reports whether s (what follows an opening slash) holds the closing slash of
// a regex: the first unescaped slash, followed by the end, a space, a ) or a ^ boost.
func regexCloses(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '/':
			return i > 0 && (i+1 == len(s) || isSpace(s[i+1]) || s[i+1] == ')' || s[i+1] == '^')
		}
	}
	return false
}

// isWordStart reports whether s starts with a letter, digit, _, a quote, a slash or an
// opening parenthesis: what can follow a - or + that negates or requires a term.
func isWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r) || r == '"' || r == '/' || r == '('
}

// isWordRuneBefore reports whether s ends in a word character (pars* but not **).
func isWordRuneBefore(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isWordRune(r)
}

// Case is how a query matches letters' case (the case: field).
type Case uint8

// Case modes. CaseDefault: words and phrases ignore case, a regex matches as written.
const (
	CaseDefault Case = iota
	CaseYes          // everything case-sensitive
	CaseNo           // everything ignores case
	CaseAuto         // a term with an upper-case letter is case-sensitive
)

// String returns the mode as case: takes it ("" for the default).
func (c Case) String() string {
	if int(c) < len(caseNames) {
		return caseNames[c]
	}
	return ""
}

var caseNames = [...]string{CaseDefault: "", CaseYes: "yes", CaseNo: "no", CaseAuto: "auto"}

// Sensitive reports whether a term of kind with text is matched case-sensitively under c.
func (c Case) Sensitive(kind TermKind, text string) bool {
	switch c {
	case CaseYes:
		return true
	case CaseNo:
		return false
	case CaseAuto:
		return strings.ToLower(text) != text
	}
	return kind == Regex
}

// Directives are the fields that set how a whole search runs rather than what matches:
// case:, type:, test: and workspace:. They stand at the top level of a query, joined to
// the rest by AND.
type Directives struct {
	Case      Case
	Type      string // def, line or file; "" when not given
	Test      string // yes or no; "" when not given
	Workspace string // a workspace id; "" when not given
}

// String prints the directives given, as query text ("" for none).
func (d Directives) String() string {
	var parts []string
	if d.Case != CaseDefault {
		parts = append(parts, "case:"+d.Case.String())
	}
	if d.Type != "" {
		parts = append(parts, "type:"+d.Type)
	}
	if d.Test != "" {
		parts = append(parts, "test:"+d.Test)
	}
	if d.Workspace != "" {
		parts = append(parts, "workspace:"+d.Workspace)
	}
	return strings.Join(parts, " ")
}

// directiveFields are the fields Split takes out of an expression.
var directiveFields = map[string]bool{"case": true, "type": true, "test": true, "workspace": true}

// IsDirective reports whether field is one of the directives.
func IsDirective(field string) bool { return directiveFields[field] }

// Split takes the directives out of n: what remains (nil when nothing but directives was
// given) and the directives. A directive anywhere but at the top level (under OR or NOT,
// or in a group), or given twice with different values, is an error at its position.
func Split(src string, n Node) (Node, Directives, error) {
	var d Directives
	seen := map[string]string{}
	take := func(l *Leaf) error {
		if prev, ok := seen[l.Field]; ok && prev != l.Text {
			return &Error{Pos: l.At, Msg: "conflicting " + l.Field + ": values " + prev + " and " + l.Text + ": give one", src: src}
		}
		seen[l.Field] = l.Text
		switch l.Field {
		case "case":
			for c, name := range caseNames {
				if name == l.Text {
					d.Case = Case(c)
				}
			}
		case "type":
			d.Type = l.Text
		case "test":
			d.Test = l.Text
		case "workspace":
			if l.Kind != Word {
				return &Error{Pos: l.At, Msg: "workspace: takes a workspace id, not a " + l.Kind.String(), src: src}
			}
			d.Workspace = l.Text
		}
		return nil
	}
	isDirective := func(c Node) (*Leaf, bool) {
		l, ok := c.(*Leaf)
		return l, ok && directiveFields[l.Field]
	}
	var rest []Node
	clauses := []Node{n}
	if b, ok := n.(*Bool); ok && b.Op == And {
		clauses = b.Clauses
	}
	for _, c := range clauses {
		if l, ok := isDirective(c); ok {
			if l.Kind == Exists {
				return nil, d, &Error{Pos: l.At, Msg: l.Field + ": takes a value, not *", src: src}
			}
			if err := take(l); err != nil {
				return nil, d, err
			}
			continue
		}
		if bad := findDirective(c); bad != nil {
			return nil, d, &Error{Pos: bad.At, Msg: bad.Field + ": applies to the whole query: put it at the top level, not under OR, NOT or in a group", src: src}
		}
		rest = append(rest, c)
	}
	switch len(rest) {
	case 0:
		return nil, d, nil
	case 1:
		return rest[0], d, nil
	}
	at := n.Pos()
	return &Bool{Op: And, Clauses: rest, At: at}, d, nil
}

// findDirective returns the first directive leaf inside n, or nil.
func findDirective(n Node) *Leaf {
	var found *Leaf
	Walk(n, func(x Node, _ bool) {
		if l, ok := x.(*Leaf); ok && found == nil && directiveFields[l.Field] {
			found = l
		}
	})
	return found
}

// Walk calls fn for n and every node below it, depth first, with whether the node sits
// under a NOT (an odd number of them).
func Walk(n Node, fn func(n Node, negated bool)) {
	var walk func(Node, bool)
	walk = func(n Node, neg bool) {
		fn(n, neg)
		switch x := n.(type) {
		case *Bool:
			for _, c := range x.Clauses {
				walk(c, neg)
			}
		case *Not:
			walk(x.X, !neg)
		}
	}
	walk(n, false)
}

// Leaves returns the leaves of n whose field is one of fields ("" for bare terms).
func Leaves(n Node, fields ...string) []*Leaf {
	var out []*Leaf
	Walk(n, func(x Node, _ bool) {
		if l, ok := x.(*Leaf); ok {
			for _, f := range fields {
				if l.Field == f {
					out = append(out, l)
					break
				}
			}
		}
	})
	return out
}

// Plain returns the plain query the ranking reads of n: its bare words and phrases that are
// not negated, in order (no terms when it has none).
func Plain(n Node) *Query {
	q := &Query{}
	if n == nil {
		return q
	}
	Walk(n, func(x Node, neg bool) {
		l, ok := x.(*Leaf)
		if !ok || neg || l.Field != "" {
			return
		}
		switch l.Kind {
		case Word, Prefix, Fuzzy:
			q.Terms = append(q.Terms, Term{Kind: Word, Text: l.Text, Pos: l.At})
		case Phrase, PhrasePrefix:
			q.Terms = append(q.Terms, Term{Kind: Phrase, Text: l.Text, Pos: l.At})
		}
	})
	return q
}

// Targets returns the search targets every field of n applies to (bare terms apply to all),
// and the first leaf that narrows them, for messages.
func Targets(n Node) []string {
	out := []string{"definitions", "content", "files"}
	Walk(n, func(x Node, _ bool) {
		field := ""
		switch l := x.(type) {
		case *Leaf:
			field = l.Field
		case *Range:
			field = l.Field
		default:
			return
		}
		if field == "" || directiveFields[field] {
			return
		}
		f, _ := LookupField(field)
		var keep []string
		for _, t := range out {
			for _, ft := range f.Targets {
				if t == ft {
					keep = append(keep, t)
				}
			}
		}
		out = keep
	})
	return out
}

// FieldFor returns the first field of n that does not apply to target, with its position;
// "" when every field applies.
func FieldFor(n Node, target string) (string, int) {
	field, at := "", 0
	Walk(n, func(x Node, _ bool) {
		var name string
		var pos int
		switch l := x.(type) {
		case *Leaf:
			name, pos = l.Field, l.At
		case *Range:
			name, pos = l.Field, l.At
		default:
			return
		}
		if name == "" || directiveFields[name] || field != "" {
			return
		}
		f, _ := LookupField(name)
		for _, t := range f.Targets {
			if t == target {
				return
			}
		}
		field, at = name, pos
	})
	return field, at
}

// NewError returns a query error at pos of src.
func NewError(src string, pos int, msg string) *Error { return &Error{Pos: pos, Msg: msg, src: src} }
