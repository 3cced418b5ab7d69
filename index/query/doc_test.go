package query

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocExamplesParse: every example of the documentation (operators, examples) parses, and
// every operator, rule and example says something.
func TestDocExamplesParse(t *testing.T) {
	for _, o := range Operators {
		if o.Syntax == "" || o.Doc == "" {
			t.Errorf("operator %+v lacks a syntax or a doc", o)
		}
		if _, err := ParseExpr(o.Example, testOpts); err != nil {
			t.Errorf("operator %s: example %q: %v", o.Syntax, o.Example, err)
		}
	}
	for _, e := range Examples {
		if _, err := ParseExpr(e.Query, testOpts); err != nil || e.Doc == "" {
			t.Errorf("example %q (%q): %v", e.Query, e.Doc, err)
		}
	}
	for _, e := range Examples {
		if !Engages(e.Query) {
			t.Errorf("example %q does not engage the expression parser", e.Query)
		}
	}
	for _, r := range Rules {
		if r.Name == "" || r.Doc == "" {
			t.Errorf("rule %+v lacks a name or a doc", r)
		}
	}
	for _, ft := range fieldTypes {
		if ft.Accepts() == "" {
			t.Errorf("field type %s: Accepts is empty", ft)
		}
	}
}

// TestEngagementRule checks what the engagement rule of Rules says against Engages.
func TestEngagementRule(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"connection pool", false},
		{`"connection pool" ServeHTTP`, false},
		{"read and write or not", false},
		{`"OR" "a AND b"`, false},
		{"a AND b", true}, {"a OR b", true}, {"NOT a", true},
		{"lang:go", true}, {"sym:Serve", true}, {"Lang:go", false}, {"TODO: fix", false}, {"std::io", false}, {"kidn:class", true},
		{"(a b)", true}, {"-test", true}, {"+ServeHTTP", true},
		{"(a, b)", false}, {"fn(max: usize) -> (Duplex, Duplex)", false}, {"int (sqlite3 *db, const char *sql)", false},
		{`("a, b" c)`, true}, {"((a, b) c)", true}, {"x -> y", false}, {"a += b", false},
		{`/func \w+/`, true}, {"name:/^Get/", true},
		{"pars*", true}, {"parse~1", true}, {"name^2", true}, {`"a b"~2`, true}, {`"connection po"*`, true},
	}
	for _, tt := range tests {
		if got := Engages(tt.in); got != tt.want {
			t.Errorf("Engages(%q) = %v, want %v (the engagement rule)", tt.in, got, tt.want)
		}
	}
}

// fieldToken is a word written as a field: lower-case letters, a colon and a value (not
// "::", "//", a space or the end). The letters must start a word.
var fieldToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([a-z]+):(?:[^\s:/]|/[^/])`)

// unregistered returns the words of text written as fields that name no field.
func unregistered(text string) []string {
	var out []string
	for _, m := range fieldToken.FindAllStringSubmatch(text, -1) {
		if _, ok := LookupField(m[1]); !ok {
			out = append(out, m[1]+":")
		}
	}
	return out
}

// checkSurface fails when text leaves out a field's name or alias, or writes as a field
// (name:value) a word that is no field.
func checkSurface(t *testing.T, surface, text string) {
	t.Helper()
	for _, name := range FieldNames() {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text) {
			t.Errorf("%s does not mention the field %s", surface, name)
		}
	}
	if bad := unregistered(text); len(bad) > 0 {
		t.Errorf("%s writes %q as fields, which the registry does not have", surface, bad)
	}
}

// docText is the parts of the document written in the query language: syntaxes, examples,
// rules, and the fields' names and examples.
func docText(l *Language) string {
	var parts []string
	for _, f := range l.Fields {
		parts = append(parts, f.Name, strings.Join(f.Aliases, " "), f.Example)
	}
	for _, o := range l.Operators {
		parts = append(parts, o.Syntax, o.Example, o.Doc)
	}
	for _, r := range l.Rules {
		parts = append(parts, r.Doc)
	}
	for _, e := range l.Examples {
		parts = append(parts, e.Query)
	}
	return strings.Join(parts, "\n")
}

// TestDocFromRegistry: help and the document name every field and alias, every operator
// and example, and no field the registry lacks; a field added to the registry shows in
// both, so neither can be written by hand.
func TestDocFromRegistry(t *testing.T) {
	check := func() {
		help, doc := Help(testOpts.Values), Describe(testOpts.Values)
		checkSurface(t, "Help", help)
		checkSurface(t, "Describe", docText(doc))
		for _, o := range Operators {
			if !strings.Contains(help, o.Syntax) || !strings.Contains(help, o.Example) {
				t.Errorf("Help lacks the operator %s or its example %q", o.Syntax, o.Example)
			}
		}
		for _, e := range Examples {
			if !strings.Contains(help, e.Query) {
				t.Errorf("Help lacks the example %q", e.Query)
			}
		}
		if len(doc.Fields) != len(Fields) || len(doc.Operators) != len(Operators) || len(doc.Rules) != len(Rules) || len(doc.Examples) != len(Examples) {
			t.Errorf("Describe has %d fields, %d operators, %d rules, %d examples; the registry %d, %d, %d, %d",
				len(doc.Fields), len(doc.Operators), len(doc.Rules), len(doc.Examples), len(Fields), len(Operators), len(Rules), len(Examples))
		}
	}
	check()
	addTestField(t)
	check()
}

// addTestField adds a field to the registry for the rest of the test: a document generated
// from the registry shows it, a document written by hand does not.
func addTestField(t *testing.T) {
	old := Fields
	Fields = append(slices.Clip(Fields), Field{Name: "zzdrift", Aliases: []string{"zzd"}, Type: KeywordField, Targets: every, Doc: "a field only tests have", Example: "zzdrift:x"})
	t.Cleanup(func() { Fields = old })
}

func TestUnregistered(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"kind:class sym:x -file:_test content:/TODO/", nil},
		{"kidn:class", []string{"kidn:"}},
		{"a -foo:bar (baz:qux)", []string{"foo:", "baz:"}},
		{"TODO: x std::io http://x quarry://query-language Type:int kind: class", nil},
		{`{"query":"x","target":"content"} context_lines:2`, nil},
	}
	for _, tt := range tests {
		if got := unregistered(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("unregistered(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDescribeValues(t *testing.T) {
	doc := Describe(testOpts.Values)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range doc.Fields {
		want := 0
		switch reg, _ := LookupField(f.Name); {
		case reg.Values != nil:
			want = len(reg.Values)
		case reg.Type == EnumField:
			want = len(testOpts.Values[f.Name])
		}
		if len(f.Values) != want || f.Aliases == nil || f.Targets == nil {
			t.Errorf("Describe field %s: values %q (want %d), aliases %v, targets %v", f.Name, f.Values, want, f.Aliases, f.Targets)
		}
	}
	if !strings.Contains(string(b), `"values":["class","struct","function","method","interface"]`) || strings.Contains(string(b), "null") {
		t.Errorf("Describe as JSON: %s", b)
	}
}
