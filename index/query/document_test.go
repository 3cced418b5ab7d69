package query

import (
	"errors"
	"strings"
	"testing"
)

// TestParseDocument: the forms a document takes, each parsed to its lines.
func TestParseDocument(t *testing.T) {
	d, err := ParseDocument("  retry failed uploads  ")
	if err != nil || d.Typed() || d.Expand != "retry failed uploads" {
		t.Errorf("one untyped line: %+v, %v; want an expand query", d, err)
	}
	d, err = ParseDocument("expand: retry failed uploads")
	if err != nil || d.Typed() || d.Expand != "retry failed uploads" {
		t.Errorf("expand: line: %+v, %v; want an expand query", d, err)
	}
	d, err = ParseDocument("\nintent: uploads to object storage\n\nlex: retry -test\r\nVEC: where do we retry failed uploads\nhyde: func retryUpload(ctx context.Context) error { for attempt := 0; ...\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []DocLine{{LineLex, "retry -test", 4, 6}, {LineVec, "where do we retry failed uploads", 5, 6}, {LineHyde, "func retryUpload(ctx context.Context) error { for attempt := 0; ...", 6, 7}}
	if d.Intent != "uploads to object storage" || len(d.Searches) != len(want) {
		t.Fatalf("document: %+v", d)
	}
	for i, w := range want {
		if d.Searches[i] != w {
			t.Errorf("line %d: %+v, want %+v", i, d.Searches[i], w)
		}
	}
	// A single line that is the query language (a field) is a plain query, not a document.
	if IsDocument("name:Open lang:go") || !IsDocument("lex: Open") || !IsDocument("Open\nClose") {
		t.Error("IsDocument: a field query is not a document; a typed line or two lines are")
	}
}

// TestParseDocumentErrors: every rule of the grammar broken once, each error naming the
// line (and column, inside a line) and what is allowed.
func TestParseDocumentErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"   \n\n", "empty query"},
		{"lex: retry\nwhere do we retry", "line 2: a line without a type stands alone"},
		{"lex: retry\nhdye: where do we retry", "line 2: hdye: is not a line type (did you mean hyde:?)"},
		{"lex: retry\nexpand: where do we retry", "line 2: expand: stands alone"},
		{"intent: uploads\nlex: retry\nintent: storage", "line 3: a second intent: line (the first is line 1)"},
		{"intent: uploads", "line 1: intent: cannot stand alone"},
		{"\nintent: uploads\n", "line 2: intent: cannot stand alone"},
		{"lex: retry\nvec:   ", "line 2: empty vec: line"},
		{"lex: retry \"failed upload", "line 1, column 12: unclosed \""},
		{"lex: -retry -\"failed upload\"", "line 1, column 6: only exclusions"},
		{"lex: retry - upload", "line 1, column 12: - alone"},
		{"lex: retry\nvec: retry uploads -tests", "line 2, column 20: -term excludes only in lex: lines"},
		{"lex: retry\nhyde: retry uploads -\"in tests\"", "line 2, column 21: -term excludes only in lex: lines"},
		{"lex: a\nlex: b\nlex: c\nlex: d\nlex: e\nlex: f\nlex: g\nlex: h\nlex: i\nlex: j\nlex: k", "line 11: more than 10 searching lines"},
	}
	for _, c := range cases {
		_, err := ParseDocument(c.text)
		var de *DocError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDocument(%q) = %v, want an error containing %q", c.text, err, c.want)
		}
	}
}

// TestVectorLinePunctuation: a - before punctuation is plain text on a vec: or hyde: line
// (a signature's ->, a dash between words), not an exclusion.
func TestVectorLinePunctuation(t *testing.T) {
	for _, text := range []string{
		"lex: duplex\nvec: fn(max_buf_size: usize) -> (DuplexStream, DuplexStream)",
		"lex: retry\nhyde: retry - then give up",
	} {
		if _, err := ParseDocument(text); err != nil {
			t.Errorf("ParseDocument(%q): %v", text, err)
		}
	}
}

// TestNewDocument: the structured form follows the same rules; errors name the list's place.
func TestNewDocument(t *testing.T) {
	d, err := NewDocument([]DocLine{{Type: "lex", Text: "retry"}, {Type: "VEC", Text: "where do we retry"}}, " uploads ")
	if err != nil || len(d.Searches) != 2 || d.Searches[1].Type != LineVec || d.Intent != "uploads" {
		t.Errorf("NewDocument: %+v, %v", d, err)
	}
	for _, c := range []struct {
		searches []DocLine
		want     string
	}{
		{nil, "searches is empty"},
		{[]DocLine{{Type: "lex", Text: "a"}, {Type: "vecc", Text: "b"}}, "searches[1]: type \"vecc\": want lex, vec or hyde (did you mean vec?)"},
		{[]DocLine{{Type: "intent", Text: "a"}}, "searches[0]: type intent is not a search"},
		{[]DocLine{{Type: "hyde", Text: " "}}, "searches[0]: empty hyde: line"},
	} {
		_, err := NewDocument(c.searches, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewDocument(%+v) = %v, want %q", c.searches, err, c.want)
		}
	}
}

// TestParseLex: words, phrases and exclusions.
func TestParseLex(t *testing.T) {
	terms, err := ParseLex(`perf "rate limiter" -sports -"test data"`)
	want := []LexTerm{{"perf", false, false}, {"rate limiter", true, false}, {"sports", false, true}, {"test data", true, true}}
	if err != nil || len(terms) != len(want) {
		t.Fatalf("ParseLex = %+v, %v", terms, err)
	}
	for i := range want {
		if terms[i] != want[i] {
			t.Errorf("term %d = %+v, want %+v", i, terms[i], want[i])
		}
	}
}
