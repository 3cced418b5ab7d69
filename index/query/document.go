package query

// Query documents: a search written as typed lines, after the hybrid query syntax. A
// document is either one expand query (a single untyped line, or a line expand: text) or
// lines typed lex: (keywords, with its own syntax), vec: (a question in words), hyde: (a
// passage like the answer), and at most one intent: (what the search is about; it steers
// ranking and never searches alone). The first typed line weighs double when the lines'
// results are fused.

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/suggest"
)

// LineType is the type of a query document's line.
type LineType string

// The line types.
const (
	LineLex    LineType = "lex"
	LineVec    LineType = "vec"
	LineHyde   LineType = "hyde"
	LineIntent LineType = "intent"
	LineExpand LineType = "expand"
)

// SearchLineTypes are the types of the lines that search, in the order help lists them.
var SearchLineTypes = []LineType{LineLex, LineVec, LineHyde}

// LineDoc says what a line type is for and when to write it: the one source of what the
// query language document, fast_search's description and the search help say about
// query documents.
type LineDoc struct {
	Type LineType
	Doc  string
}

// LineDocs documents every line type, in the order help lists them.
var LineDocs = []LineDoc{
	{LineLex, `keywords, as a plain query takes them: bare words, "phrases" as written, -word and -"phrase" exclude; write it for names and words the code itself holds`},
	{LineVec, `a question in words, searched by meaning (vectors of Quarry's built-in code model, trained before release and shipped in the binary, or of the embedder .quarry/config.toml names): write it when the words you have are not the code's ("where do we retry failed uploads")`},
	{LineHyde, "a passage like the code or doc comment you expect to find, searched by meaning like vec:"},
	{LineIntent, `what the search is about, at most one: it biases vec: and hyde: and lifts results sharing its words, but never searches alone; write it when a word is ambiguous ("intent: HTTP range requests")`},
	{LineExpand, "stands alone: expand: Q is lex: Q, a lex line of up to three words common to the names of the definitions nearest to Q by meaning, and vec: Q"},
}

// IsLineType reports whether name (any case) is a line type.
func IsLineType(name string) bool {
	_, ok := lineTypes[strings.ToLower(name)]
	return ok
}

// lineTypes are every line type, by name.
var lineTypes = map[string]LineType{"lex": LineLex, "vec": LineVec, "hyde": LineHyde, "intent": LineIntent, "expand": LineExpand}

// MaxDocumentSearches is how many searching lines a document may have.
const MaxDocumentSearches = 10

// DocLine is one searching line of a document.
type DocLine struct {
	Type LineType
	Text string // trimmed, without its type
	Line int    // where it is: the line in the text, or the 1-based place in a structured list
	Col  int    // the 1-based column of Text in its line (1 in a structured list)
}

// Document is a parsed query document: an expand query, or searching lines with an
// optional intent.
type Document struct {
	Expand     string    // a standalone expand query ("": the document has typed lines)
	ExpandLine int       // the line the expand query is on
	Searches   []DocLine // lex, vec and hyde lines in the order written: the first weighs double
	Intent     string
	// Expanded: the searching lines were built from an expand query (its lex and vec lines;
	// the search adds lex variants from the workspace's nearest terms).
	Expanded bool
}

// Typed reports whether the document is typed lines (not a standalone expand query).
func (d *Document) Typed() bool { return len(d.Searches) > 0 }

// DocError is a query document that breaks the grammar: the line (0: the document as a
// whole), what was wrong and what is allowed.
type DocError struct {
	Line   int
	Column int // 1-based, within the line's text; 0: the line as a whole
	Msg    string
	List   bool // Line is a place in a structured list of searches, not a line of text
}

func (e *DocError) Error() string {
	switch {
	case e.Line == 0:
		return e.Msg
	case e.List:
		return fmt.Sprintf("searches[%d]: %s", e.Line-1, e.Msg)
	case e.Column > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// IsDocument reports whether text is written as a query document: more than one non-empty
// line, or a line starting with one of the line types (lex:, vec:, hyde:, intent:,
// expand:). A single line without a type is a plain query.
func IsDocument(text string) bool {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		n++
		if _, _, ok := lineType(l); ok {
			return true
		}
	}
	return n > 1
}

// ParseDocument parses a query document's text.
func ParseDocument(text string) (*Document, error) {
	var lines []DocLine
	var untyped []DocLine
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimSpace(raw)
		if l == "" {
			continue
		}
		t, rest, ok := lineType(l)
		if !ok {
			untyped = append(untyped, DocLine{Text: l, Line: i + 1, Col: 1})
			lines = append(lines, DocLine{Text: l, Line: i + 1, Col: 1})
			continue
		}
		text := strings.TrimSpace(rest)
		col := utf8.RuneCountInString(raw[:strings.Index(raw, rest)+strings.Index(rest, text)]) + 1
		lines = append(lines, DocLine{Type: t, Text: text, Line: i + 1, Col: col})
	}
	if len(lines) == 0 {
		return nil, &DocError{Msg: EmptyMessage}
	}
	if len(lines) == 1 && lines[0].Type == "" {
		return &Document{Expand: lines[0].Text, ExpandLine: lines[0].Line}, nil
	}
	if len(untyped) > 0 {
		u := untyped[0]
		msg := "a line without a type stands alone: in a query document every line starts with lex:, vec:, hyde: or intent:"
		if name, _, found := strings.Cut(u.Text, ":"); found && isIdent(name) {
			if s := suggest.Closest(strings.ToLower(name), []string{"lex", "vec", "hyde", "intent", "expand"}); s != "" {
				msg = fmt.Sprintf("%s: is not a line type (did you mean %s:?); in a query document every line starts with lex:, vec:, hyde: or intent:", name, s)
			}
		}
		return nil, &DocError{Line: u.Line, Msg: msg}
	}
	return build(lines, false)
}

// NewDocument builds a document from a structured list of searches (type and text each)
// and an intent, with the same rules as ParseDocument: errors name the list's place.
func NewDocument(searches []DocLine, intent string) (*Document, error) {
	lines := make([]DocLine, 0, len(searches)+1)
	for i, s := range searches {
		t, ok := lineTypes[strings.ToLower(strings.TrimSpace(string(s.Type)))]
		if !ok {
			msg := fmt.Sprintf("type %q: want lex, vec or hyde", s.Type)
			if d := suggest.Closest(strings.ToLower(string(s.Type)), []string{"lex", "vec", "hyde"}); d != "" {
				msg += " (did you mean " + d + "?)"
			}
			return nil, &DocError{Line: i + 1, Msg: msg, List: true}
		}
		if t == LineIntent || t == LineExpand {
			return nil, &DocError{Line: i + 1, Msg: fmt.Sprintf("type %s is not a search: a search is lex, vec or hyde (give the intent as intent)", t), List: true}
		}
		lines = append(lines, DocLine{Type: t, Text: strings.TrimSpace(s.Text), Line: i + 1, Col: 1})
	}
	if len(lines) == 0 {
		return nil, &DocError{Msg: "searches is empty: give at least one search {type: lex, vec or hyde; query}"}
	}
	d, err := build(lines, true)
	if err != nil {
		return nil, err
	}
	if intent = strings.TrimSpace(intent); intent != "" {
		d.Intent = intent
	}
	return d, nil
}

// build checks typed lines against the document's rules.
func build(lines []DocLine, list bool) (*Document, error) {
	d := &Document{}
	intentLine := 0
	for _, l := range lines {
		fail := func(col int, format string, args ...any) error { // col: within l.Text, 0: none
			if col > 0 {
				col += l.Col - 1
			}
			return &DocError{Line: l.Line, Column: col, Msg: fmt.Sprintf(format, args...), List: list}
		}
		if l.Text == "" {
			return nil, fail(0, "empty %s: line: give its text after %s:", l.Type, l.Type)
		}
		switch l.Type {
		case LineExpand:
			if len(lines) > 1 {
				return nil, fail(0, "expand: stands alone: it cannot be combined with other lines (write lex:, vec: and hyde: lines instead)")
			}
			return &Document{Expand: l.Text, ExpandLine: l.Line}, nil
		case LineIntent:
			if intentLine > 0 {
				return nil, fail(0, "a second intent: line (the first is line %d): a query document has at most one", intentLine)
			}
			intentLine, d.Intent = l.Line, l.Text
		case LineLex:
			if _, err := ParseLex(l.Text); err != nil {
				e := err.(*Error)
				return nil, fail(e.Column(), "%s", e.Msg)
			}
			d.Searches = append(d.Searches, l)
		case LineVec, LineHyde:
			if col := negationAt(l.Text); col > 0 {
				return nil, fail(col, "-term excludes only in lex: lines; a %s: line is plain words (put exclusions on a lex: line)", l.Type)
			}
			d.Searches = append(d.Searches, l)
		}
		if len(d.Searches) > MaxDocumentSearches {
			return nil, fail(0, "more than %d searching lines: a query document has at most %d lex:, vec: and hyde: lines", MaxDocumentSearches, MaxDocumentSearches)
		}
	}
	if len(d.Searches) == 0 {
		return nil, &DocError{Line: intentLine, Msg: "intent: cannot stand alone: it steers the search but does not search; add a lex:, vec: or hyde: line", List: list}
	}
	return d, nil
}

// lineType splits a line's type (lex:, vec:, hyde:, intent:, expand:; any case) from its
// text.
func lineType(l string) (LineType, string, bool) {
	name, rest, found := strings.Cut(l, ":")
	if !found {
		return "", "", false
	}
	t, ok := lineTypes[strings.ToLower(name)]
	return t, rest, ok
}

// negationAt returns the 1-based column of the first word of text that is - and a term
// (-word, -"phrase": an exclusion, lex: syntax), 0 when there is none. A - before
// punctuation or space is not one: a signature's -> is plain text.
func negationAt(text string) int {
	col := 0
	prev := ' '
	rs := []rune(text)
	for i, r := range rs {
		col++
		if r == '-' && unicode.IsSpace(prev) && i+1 < len(rs) {
			if n := rs[i+1]; unicode.IsLetter(n) || unicode.IsDigit(n) || n == '_' || n == '"' {
				return col
			}
		}
		prev = r
	}
	return 0
}

// LexTerm is one term of a lex: line.
type LexTerm struct {
	Text    string
	Phrase  bool // "phrase": the words exactly, in order
	Exclude bool // -word, -"phrase"
}

// ParseLex parses a lex: line: bare words (each matches as a prefix), "phrases" (exact),
// -word and -"phrase" (exclude). At least one term must include.
func ParseLex(text string) ([]LexTerm, error) {
	var terms []LexTerm
	fail := func(pos int, format string, args ...any) error {
		return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), src: text}
	}
	for i := 0; i < len(text); {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		start := i
		t := LexTerm{}
		if text[i] == '-' {
			t.Exclude = true
			i++
			if i >= len(text) || text[i] == ' ' || text[i] == '\t' {
				return nil, fail(start, "- alone: write -word or -\"phrase\" to exclude")
			}
		}
		if text[i] == '"' {
			end := strings.IndexByte(text[i+1:], '"')
			if end < 0 {
				return nil, fail(i, "unclosed \": end the phrase with \"")
			}
			t.Text, t.Phrase = strings.TrimSpace(text[i+1:i+1+end]), true
			if t.Text == "" {
				return nil, fail(i, "empty phrase \"\": put words between the quotes")
			}
			i += end + 2
		} else {
			end := strings.IndexAny(text[i:], " \t")
			if end < 0 {
				end = len(text) - i
			}
			t.Text = text[i : i+end]
			i += end
		}
		terms = append(terms, t)
	}
	include := false
	for _, t := range terms {
		include = include || !t.Exclude
	}
	if !include {
		return nil, fail(0, "only exclusions: a lex: line needs at least one word or \"phrase\" to find")
	}
	return terms, nil
}
