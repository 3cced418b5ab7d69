// Package query is Quarry's query language: the text a user or an agent types, parsed into a
// value that prints itself back (String) and that the index compiles into full-text
// queries. It imports nothing of the index, so the grammar, its errors and its documentation
// have one home.
//
// The grammar today:
//
//	query  = term { space term }
//	term   = phrase | word
//	phrase = '"' { any character but '"' } '"'    as written, spaces included
//	word   = a run of characters other than space and '"'
//
// A quote that is never closed separates words like a space. A phrase with nothing but
// spaces between its quotes is dropped.
package query

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TermKind is what a term of a query is.
type TermKind uint8

// Term kinds.
const (
	Word         TermKind = iota + 1 // a bare word: tokenized, every token must match
	Phrase                           // a quoted phrase: must occur as written ("a b"~N: within N words)
	Prefix                           // a word's start: pars*
	Wildcard                         // a field value with * and ?: name:get*User?
	Fuzzy                            // a word within an edit distance: parse~1
	Regex                            // an RE2 regular expression: /func \w+/
	Exists                           // the field has a value: parent:*
	PhrasePrefix                     // a phrase whose last word is a prefix: "connection po"*
)

var termKindNames = [...]string{Word: "word", Phrase: "phrase", Prefix: "prefix", Wildcard: "wildcard",
	Fuzzy: "fuzzy", Regex: "regex", Exists: "exists", PhrasePrefix: "phrase_prefix"}

func (k TermKind) String() string {
	if k > 0 && int(k) < len(termKindNames) {
		return termKindNames[k]
	}
	return fmt.Sprintf("term_kind(%d)", k)
}

// Term is one word or phrase of a query.
type Term struct {
	Kind TermKind
	Text string // as written, without quotes
	Pos  int    // byte offset in the query text where the term (its opening quote) starts
}

// Query is a parsed query: its terms in the order they were written.
type Query struct {
	Terms []Term
}

// Error is a query that cannot be parsed: where, and what was wrong.
type Error struct {
	Pos int    // byte offset in the query text
	Msg string // what was wrong and what would be accepted
	src string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", 1, e.Column(), e.Msg)
}

// Column returns the 1-based character column of the error in the query text.
func (e *Error) Column() int {
	if e.Pos > len(e.src) {
		return utf8.RuneCountInString(e.src) + 1
	}
	return utf8.RuneCountInString(e.src[:e.Pos]) + 1
}

// EmptyMessage is what an empty query is told.
const EmptyMessage = "empty query: give a name, words or a \"quoted phrase\" to search for"

// Parse parses src. A query with no term is an error at its start.
func Parse(src string) (*Query, error) {
	q := &Query{}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 { // never closed: a separator
				i++
				continue
			}
			if text := strings.TrimSpace(src[i+1 : i+1+end]); text != "" {
				q.Terms = append(q.Terms, Term{Kind: Phrase, Text: text, Pos: i})
			}
			i += end + 2
		default:
			j := i
			for j < len(src) {
				r, size := utf8.DecodeRuneInString(src[j:])
				if unicode.IsSpace(r) || r == '"' {
					break
				}
				j += size
			}
			q.Terms = append(q.Terms, Term{Kind: Word, Text: src[i:j], Pos: i})
			i = j
		}
	}
	if len(q.Terms) == 0 {
		return nil, &Error{Pos: 0, Msg: EmptyMessage, src: src}
	}
	return q, nil
}

// String returns the query as text that parses to the same query: words as written,
// phrases in quotes, separated by spaces.
func (q *Query) String() string {
	var b strings.Builder
	for i, t := range q.Terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.Kind == Phrase {
			b.WriteByte('"')
			b.WriteString(t.Text)
			b.WriteByte('"')
		} else {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// Words returns the bare words, in order.
func (q *Query) Words() []string { return q.texts(Word) }

// Phrases returns the quoted phrases, in order, without their quotes.
func (q *Query) Phrases() []string { return q.texts(Phrase) }

func (q *Query) texts(kind TermKind) []string {
	var out []string
	for _, t := range q.Terms {
		if t.Kind == kind {
			out = append(out, t.Text)
		}
	}
	return out
}

// Text returns the text of every term, without quotes: what is tokenized.
func (q *Query) Text() string {
	parts := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		parts[i] = t.Text
	}
	return strings.Join(parts, " ")
}

// Single reports whether the query is one bare word: an identifier, a qualified name, a
// file name.
func (q *Query) Single() bool { return len(q.Terms) == 1 && q.Terms[0].Kind == Word }

// qualifiers separate the parts of a qualified name: pkg.Name, Type::name, Class#method,
// ptr->field.
var qualifiers = []string{"::", "->", ".", "#"}

// Qualified splits a one-word query naming something qualified (json.Marshal, Vec::new)
// into the qualifier's last part and the name (json and Marshal; c and Name for a.b.c.Name);
// any other query gives "" and its text.
func (q *Query) Qualified() (qual, name string) {
	if !q.Single() {
		return "", q.String()
	}
	w := q.Terms[0].Text
	for _, sep := range qualifiers {
		if i := strings.LastIndex(w, sep); i > 0 && i+len(sep) < len(w) {
			qual, name = w[:i], w[i+len(sep):]
			for _, sep2 := range qualifiers { // a.b.c: qualify by the part just before
				if j := strings.LastIndex(qual, sep2); j >= 0 {
					qual = qual[j+len(sep2):]
				}
			}
			if isIdent(name) && isIdent(qual) {
				return qual, name
			}
		}
	}
	return "", w
}

// isWordRune reports whether r can be part of a name: the rule of languages.IsWordRune.
func isWordRune(r rune) bool {
	if r == '_' {
		return true
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// isIdent reports whether s is made of word characters only: letters, digits and _.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isWordRune(r) {
			return false
		}
	}
	return true
}
