package fulltext

import (
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/tokenizer"
)

// expr20 is a query of 20 clauses.
const expr20 = `kind:(function OR method) lang:go name:Serve* -path:**/*_test.go doc:"connection pool"~2 ` +
	`body:retry^2 parent:Server vis:public line:[10 TO 500] ext:go Context ` +
	`/func \w+Handler\(/ (sig:context OR sig:ctx) parse~1 "not implemented" NOT deprecated ` +
	`content:/TODO|FIXME/ path:src/** name:[a TO m]`

// plainTk is the language-neutral tokenizer, as a search without a language uses.
var plainTk = tokenizer.New(nil)

func plainTokens(text string) []string {
	var out []string
	for _, t := range plainTk.Query(text) {
		out = append(out, t.Text)
	}
	return out
}

// TestCompileExpr: what each leaf becomes in the full-text query, and whether the result
// needs verifying against the stored text.
func TestCompileExpr(t *testing.T) {
	tests := []struct {
		q, docType string
		exact      bool
		has        []string // substrings of the compiled query's JSON
	}{
		{"name:Serve* lang:go", DocSymbol, false, []string{`"wildcard":"serve*"`, `"term":"go"`}},
		{"kind:method -lang:go", DocSymbol, true, []string{`"must_not"`, `"term":"method"`}},
		{"parse~1 kind:function", DocSymbol, true, []string{`"fuzziness":1`}},
	}
	for _, tt := range tests {
		n, err := query.ParseExpr(tt.q, query.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := CompileExpr(n, tt.docType, query.CaseDefault, plainTokens, nil)
		js := e.Explain()
		if e.Exact != tt.exact {
			t.Errorf("compileExpr(%q).exact = %v, want %v (%s)", tt.q, e.Exact, tt.exact, js)
		}
		for _, h := range tt.has {
			if !strings.Contains(js, h) {
				t.Errorf("compileExpr(%q) = %s, want it to hold %s", tt.q, js, h)
			}
		}
	}
}

// BenchmarkParseCompileExpr parses a query of 20 clauses and compiles it for symbols and
// for files.
func BenchmarkParseCompileExpr(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		n, err := query.ParseExpr(expr20, query.Options{})
		if err != nil {
			b.Fatal(err)
		}
		CompileExpr(n, DocSymbol, query.CaseDefault, plainTokens, nil)
		CompileExpr(n, DocSymbol, query.CaseDefault, plainTokens, nil)
	}
}
