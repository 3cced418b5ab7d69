package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/query"
)

// fieldToken is a word written as a field: lower-case letters starting a word, a colon and
// a value (not "::", "//", a space or the end).
var fieldToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([a-z]+):(?:[^\s:/]|/[^/])`)

// checkQuerySurface fails when text leaves out a field's name or alias, or writes as a
// field (name:value) a word that names no field.
func checkQuerySurface(t *testing.T, surface, text string) {
	t.Helper()
	for _, name := range query.FieldNames() {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text) {
			t.Errorf("%s does not mention the field %s", surface, name)
		}
	}
	for _, m := range fieldToken.FindAllStringSubmatch(text, -1) {
		if _, ok := query.LookupField(m[1]); !ok && !query.IsLineType(m[1]) {
			t.Errorf("%s writes %s: as a field, which the registry does not have", surface, m[1])
		}
	}
}

// TestQueryLanguageREADME: the README's query language section, written by hand, names
// every field and alias, writes no field the registry lacks, and its example queries parse.
func TestQueryLanguageREADME(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n#### Query language\n")
	section, _, _ = strings.Cut(section, "\n### ")
	if !ok {
		t.Fatal("README.md has no #### Query language section")
	}
	checkQuerySurface(t, "the README's query language section", section)
	_, block, _ := strings.Cut(section, "```text\n")
	block, _, _ = strings.Cut(block, "```")
	caps, err := GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		q, _, _ := strings.Cut(line, "   ")
		if _, err := query.ParseExpr(q, query.Options{Values: queryLanguageValues(caps)}); err != nil || !query.Engages(q) {
			t.Errorf("README example %q: %v (engages the parser: %v)", q, err, query.Engages(q))
		}
	}
}

// jsonText returns s as it appears inside a JSON string.
func jsonText(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Trim(string(b), `"`)
}

// TestQueryLanguageDocument: the document validates against the schema of the query
// operation, Call answers it, it lists the contract's kinds and languages as the values of
// kind: and lang:, and every query of the search examples parses with those values.
func TestQueryLanguageDocument(t *testing.T) {
	doc, err := QueryLanguage()
	if err != nil {
		t.Fatal(err)
	}
	validResult(t, QueryOperation, doc)
	svc, err := NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.Call(context.Background(), QueryOperation, nil)
	if err != nil || comparableJSON(t, got) != comparableJSON(t, doc) {
		t.Errorf("Call(%s) = %v, %v; want the document", QueryOperation, got, err)
	}
	caps, err := GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	values := queryLanguageValues(caps)
	for _, f := range doc.Fields {
		if want, ok := values[f.Name]; ok && !slices.Equal(f.Values, want) {
			t.Errorf("field %s: values %v, want %v", f.Name, f.Values, want)
		}
	}
	for _, ex := range Examples["search"] {
		var req SearchRequest
		if err := json.Unmarshal([]byte(ex.Args), &req); err != nil {
			t.Fatal(err)
		}
		if _, err := query.ParseExpr(req.Query, query.Options{Values: values}); err != nil {
			t.Errorf("search example %s: %v", ex.Args, err)
		}
	}
	for _, e := range query.Examples {
		if _, err := query.ParseExpr(e.Query, query.Options{Values: values}); err != nil {
			t.Errorf("example %s: %v", e.Query, err)
		}
	}
}

func comparableJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
