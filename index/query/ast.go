package query

import (
	"strconv"
	"strings"
)

// Node is a node of a parsed query expression (ParseExpr): a Bool, a Not, a Leaf or a
// Range. String prints it in the canonical form, which ParseExpr reads back to the same
// tree.
type Node interface {
	String() string
	// Pos is the byte offset in the query text where the node starts.
	Pos() int
}

// BoolOp joins the clauses of a Bool.
type BoolOp uint8

// Boolean operators. Bare terms side by side are AND.
const (
	And BoolOp = iota + 1
	Or
)

// Bool is clauses joined by AND or OR.
type Bool struct {
	Op      BoolOp
	Clauses []Node
	At      int
}

// Not matches what X does not.
type Not struct {
	X  Node
	At int
}

// Leaf is a term: a word, phrase, prefix, wildcard, fuzzy word, regex or field-exists test,
// bare or in a field.
type Leaf struct {
	Field string // the registered field name, "" for a bare term
	Kind  TermKind
	Text  string  // the word, phrase or regex as written (a prefix without its *)
	Slop  int     // a phrase's ~N
	Edits int     // a fuzzy word's ~N
	Boost float64 // ^N, 0 for none
	At    int
}

// Range is a range of a field's values: [lo TO hi], {lo TO hi}, or a comparison (line:>=100
// is [100 TO *]). "*" is an open end.
type Range struct {
	Field        string
	Lo, Hi       string
	IncLo, IncHi bool
	Boost        float64
	At           int
}

// Pos returns the byte offset of b in the query.
func (b *Bool) Pos() int { return b.At }

// Pos returns the byte offset of n in the query.
func (n *Not) Pos() int { return n.At }

// Pos returns the byte offset of l in the query.
func (l *Leaf) Pos() int { return l.At }

// Pos returns the byte offset of r in the query.
func (r *Range) Pos() int { return r.At }

func (b *Bool) String() string {
	parts := make([]string, len(b.Clauses))
	sep := " "
	if b.Op == Or {
		sep = " OR "
	}
	for i, c := range b.Clauses {
		parts[i] = c.String()
		if _, ok := c.(*Bool); ok {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, sep)
}

func (n *Not) String() string {
	if _, ok := n.X.(*Bool); ok {
		return "-(" + n.X.String() + ")"
	}
	return "-" + n.X.String()
}

func (l *Leaf) String() string {
	var b strings.Builder
	if l.Field != "" {
		b.WriteString(l.Field + ":")
	}
	switch l.Kind {
	case Phrase, PhrasePrefix:
		b.WriteString(quote(l.Text))
		if l.Kind == PhrasePrefix {
			b.WriteByte('*')
		} else if l.Slop > 0 {
			b.WriteString("~" + strconv.Itoa(l.Slop))
		}
	case Prefix:
		b.WriteString(l.Text + "*")
	case Fuzzy:
		b.WriteString(l.Text + "~" + strconv.Itoa(l.Edits))
	case Regex:
		b.WriteString("/" + strings.ReplaceAll(l.Text, "/", `\/`) + "/")
	case Exists:
		b.WriteByte('*')
	default:
		b.WriteString(l.Text)
	}
	writeBoost(&b, l.Boost)
	return b.String()
}

func (r *Range) String() string {
	var b strings.Builder
	b.WriteString(r.Field + ":")
	b.WriteString(map[bool]string{true: "[", false: "{"}[r.IncLo])
	b.WriteString(r.Lo + " TO " + r.Hi)
	b.WriteString(map[bool]string{true: "]", false: "}"}[r.IncHi])
	writeBoost(&b, r.Boost)
	return b.String()
}

func writeBoost(b *strings.Builder, boost float64) {
	if boost != 0 {
		b.WriteString("^" + strconv.FormatFloat(boost, 'f', -1, 64))
	}
}

// quote returns s as a phrase: in double quotes, with " and \ escaped.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
