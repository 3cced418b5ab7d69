package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// docWorkspace is a workspace of three subjects, five functions each, whose doc comments
// and bodies use their subject's words: enough for the vectors it learns to tell them apart.
func docWorkspace(t *testing.T) *Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	topics := []struct {
		name  string
		words []string
	}{
		{"retry", []string{"retry", "upload", "again", "failure", "attempt", "backoff", "wait", "resend"}},
		{"cookie", []string{"cookie", "browser", "expire", "header", "session", "domain", "drop", "path"}},
		{"matrix", []string{"matrix", "vector", "multiply", "row", "column", "scalar", "product", "sum"}},
	}
	for _, tp := range topics {
		var b strings.Builder
		b.WriteString("package " + tp.name + "\n\n")
		for n := 0; n < 5; n++ {
			var doc, body []string
			for i := 0; i < 12; i++ {
				doc = append(doc, tp.words[(i*(n+3)+n)%len(tp.words)])
				body = append(body, tp.words[(i*(n+5)+1)%len(tp.words)])
			}
			fmt.Fprintf(&b, "// %s%d: %s.\nfunc %s%d() {\n\t// %s\n}\n\n", tp.name, n, strings.Join(doc, " "), tp.name, n, strings.Join(body, " "))
		}
		if err := os.MkdirAll(filepath.Join(root, tp.name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, tp.name, tp.name+".go"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSearchDocument: a query document's lines are searched apart and fused; vec: finds by
// the learned vectors; the structured form and the intent work the same.
func TestSearchDocument(t *testing.T) {
	s := docWorkspace(t)
	var res SearchResult
	for _, args := range []string{
		`{"query":"vec: send the upload again after a failure","target":"definitions"}`,
		`{"searches":[{"type":"vec","query":"send the upload again after a failure"}],"target":"definitions"}`,
		`{"query":"lex: retry0\nvec: send the upload again after a failure"}`,
		`{"query":"expand: send the upload again after a failure"}`,
	} {
		call(t, s, "fast_search", args, &res)
		if len(res.Results) == 0 || !strings.HasPrefix(res.Results[0].Name, "retry") {
			t.Errorf("fast_search %s: %+v, want a retry function first", args, res.Results)
		}
	}
	// vec: answers definitions only, nearest first, within the request's filters.
	call(t, s, "fast_search", `{"query":"vec: multiply a row by a column","limit":5}`, &res)
	if len(res.Results) != 5 {
		t.Fatalf("vec: %+v, want 5 results", res.Results)
	}
	for i, h := range res.Results {
		if h.Hit != HitDefinition || !strings.HasPrefix(h.Name, "matrix") || i > 0 && h.Score > res.Results[i-1].Score {
			t.Errorf("vec: multiply a row by a column: %+v, want the matrix functions, best first", res.Results)
			break
		}
	}
	call(t, s, "fast_search", `{"query":"vec: multiply a row by a column","file_pattern":"cookie/**"}`, &res)
	for _, h := range res.Results {
		if !strings.HasPrefix(h.Path, "cookie/") {
			t.Errorf("vec: with a file pattern: %+v, want only cookie/", res.Results)
			break
		}
	}
	// The lex: line weighs double: its exact name comes first.
	call(t, s, "fast_search", `{"query":"lex: cookie3\nvec: multiply a row by a column"}`, &res)
	if len(res.Results) == 0 || res.Results[0].Name != "cookie3" {
		t.Errorf("lex: first: %+v, want cookie3 first", res.Results)
	}
	// An intent lifts the results sharing its words.
	call(t, s, "fast_search", `{"query":"lex: retry1 cookie1 matrix1","intent":"matrix product"}`, &res)
	if len(res.Results) == 0 || !strings.HasPrefix(res.Results[0].Path, "matrix/") {
		t.Errorf("intent: %+v, want the matrix file's first", res.Results)
	}
}

// TestSearchDocumentErrors: each broken rule is BAD_QUERY naming the line (or the list's
// place); request fields that contradict a document are BAD_VALUE.
func TestSearchDocumentErrors(t *testing.T) {
	s := testWorkspace(t)
	for _, c := range []struct {
		args string
		code Code
		want string
	}{
		{`{"query":"lex: a\nhdye: b"}`, CodeBadQuery, "line 2: hdye: is not a line type (did you mean hyde:?)"},
		{`{"query":"intent: servers"}`, CodeBadQuery, "line 1: intent: cannot stand alone"},
		{`{"query":"lex: a\nexpand: b"}`, CodeBadQuery, "line 2: expand: stands alone"},
		{`{"query":"lex: \"unclosed"}`, CodeBadQuery, "line 1, column 6: unclosed"},
		{`{"query":"lex: a\nhyde: a -b"}`, CodeBadQuery, "line 2, column 9: -term excludes only in lex: lines"},
		{`{"searches":[{"type":"lex","query":"a"},{"type":"vecc","query":"b"}]}`, CodeBadQuery, "searches[1]: type \"vecc\""},
		{`{"searches":[]}`, "", ""},
		{`{"query":"a","searches":[{"type":"lex","query":"a"}]}`, CodeBadValue, "give query or searches, not both"},
		{`{"query":"lex: a\nlex: b","cursor":"10"}`, CodeBadValue, "no next page"},
		{`{"query":"intent: x\nlex: a","intent":"y"}`, CodeBadValue, "intent: line already"},
		{`{"query":"lex: name:Server -pool"}`, "", ""},
	} {
		_, err := s.Call(context.Background(), "fast_search", json.RawMessage(c.args))
		if c.code == "" {
			if err != nil && c.args != `{"searches":[]}` {
				t.Errorf("fast_search %s: %v, want an answer", c.args, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.want) {
			t.Errorf("fast_search %s: %v, want %s with %q", c.args, err, c.code, c.want)
		}
	}
}

// TestSearchExplain: explain gives each result the parts of its score, and a query
// document's results their rank in each line; the parts add up to the score.
func TestSearchExplain(t *testing.T) {
	s := docWorkspace(t)
	var res SearchResult
	call(t, s, "fast_search", `{"query":"retry0","target":"definitions","explain":true}`, &res)
	if len(res.Results) == 0 || res.Results[0].Explain == nil {
		t.Fatalf("explain: %+v", res.Results)
	}
	e := res.Results[0].Explain
	names := []string{}
	for _, p := range e.Parts {
		names = append(names, p.Name)
	}
	if e.Score != res.Results[0].Score || len(e.Parts) < 2 || e.Parts[0].Name != "bm25" || !slices.Contains(names, "promotion") {
		t.Errorf("explain of an exact name: %+v, want bm25 first and its promotion", e)
	}
	call(t, s, "fast_search", `{"query":"retry0","target":"definitions"}`, &res)
	if res.Results[0].Explain != nil {
		t.Errorf("no explain asked: %+v", res.Results[0].Explain)
	}
	call(t, s, "fast_search", `{"query":"lex: retry0\nvec: send the upload again after a failure","explain":true}`, &res)
	e = res.Results[0].Explain
	if e == nil || len(e.Lines) != 2 || e.Lines[0].Line != "line 1 (lex:)" || e.Lines[0].Rank != 1 || len(e.Lines[0].Parts) == 0 || e.Lines[1].Line != "line 2 (vec:)" {
		t.Fatalf("explain of a document: %+v", e)
	}
	// expand: is the query's lex line, a lex line of its words' nearest workspace terms,
	// then its vec line.
	call(t, s, "fast_search", `{"query":"expand: upload","explain":true}`, &res)
	var lines []string
	for _, h := range res.Results {
		for _, l := range h.Explain.Lines {
			if !slices.Contains(lines, l.Line) {
				lines = append(lines, l.Line)
			}
		}
	}
	if !slices.Contains(lines, "line 1 (lex:)") || !slices.Contains(lines, "line 1 (vec:)") ||
		!slices.ContainsFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "line 1 (expand: lex ") && !strings.Contains(l, "upload")
		}) {
		t.Errorf("expand: upload: the fused lines %q, want lex:, vec: and a variant of other words", lines)
	}
	sum := 0.0
	for _, p := range e.Parts {
		sum += p.Value
	}
	if math.Abs(sum-e.Score) > 1e-9 || math.Abs(e.Lines[0].Contribution-2.0/61) > 1e-9 {
		t.Errorf("the fusion's parts %+v add to %v, want the score %v; line 1's contribution %v, want 2/61", e.Parts, sum, e.Score, e.Lines[0].Contribution)
	}
}
