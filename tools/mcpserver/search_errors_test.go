package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

// sq is a search request of query alone.
func sq(query string) tools.SearchRequest { return tools.SearchRequest{Query: query} }

// TestExpressionErrors: each malformed query is a BAD_QUERY (UNKNOWN_FIELD for a field name
// that does not exist) whose message starts with the line and column of the offending token
// and says what was expected.
func TestExpressionErrors(t *testing.T) {
	s, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat("(", 101) + "a" + strings.Repeat(")", 101)
	tests := []struct {
		req  tools.SearchRequest
		code tools.Code
		col  int
		want string
	}{
		{sq("lang:go (foo OR bar"), tools.CodeBadQuery, 9, "unclosed (: expected a closing )"},
		{sq(`name:Server "connection pool`), tools.CodeBadQuery, 13, "unclosed phrase"},
		{sq("lang:go //"), tools.CodeBadQuery, 9, "empty regex"},
		{sq("lang:go /a[b/"), tools.CodeBadQuery, 10, "invalid regex"},
		{sq("lang:go /foo"), tools.CodeBadQuery, 9, "unclosed regex"},
		{sq("Server kind:funtion"), tools.CodeBadQuery, 8, `unknown value "funtion"; did you mean function?`},
		{sq("Server kidn:class"), tools.CodeUnknownField, 8, `unknown field "kidn": did you mean kind:?`},
		{sq("ünï kidn:class"), tools.CodeUnknownField, 5, `unknown field "kidn"`},
		{sq("x lang:cobol"), tools.CodeBadQuery, 3, `unknown value "cobol"`},
		{sq("x vis:secret"), tools.CodeBadQuery, 3, `unknown value "secret"`},
		{sq("Server line:abc"), tools.CodeBadQuery, 8, `line: wants a whole number, got "abc"`},
		{sq("Server line:>x"), tools.CodeBadQuery, 14, `line: wants a whole number, got "x"`},
		{sq("Server line:[10 TO x]"), tools.CodeBadQuery, 8, `line: wants a whole number, got "x"`},
		{sq("Server name:>3"), tools.CodeBadQuery, 8, "name: takes no comparison"},
		{sq("Server kind:[a TO b]"), tools.CodeBadQuery, 13, "kind: takes no range"},
		{sq("a OR"), tools.CodeBadQuery, 5, "expected a term after OR"},
		{sq("AND b"), tools.CodeBadQuery, 1, "expected a term, got the operator AND"},
		{sq("foo AND"), tools.CodeBadQuery, 8, "expected a term after AND"},
		{sq("foo NOT"), tools.CodeBadQuery, 8, `expected a term after "NOT"`},
		{sq("lang:go - bar"), tools.CodeBadQuery, 10, `expected a term after "-"`},
		{sq("(a OR b))"), tools.CodeBadQuery, 9, `unexpected ")"`},
		{sq(`"foo bar"^`), tools.CodeBadQuery, 10, "expected a positive number after ^"},
		{sq("name:Server^0"), tools.CodeBadQuery, 12, "expected a positive number after ^"},
		{sq("(a OR b)^2"), tools.CodeBadQuery, 9, "a boost applies to a term or a range, not a group"},
		{sq("pool~3"), tools.CodeBadQuery, 5, "expected 1 or 2 after ~"},
		{sq(`"connection pool"~0`), tools.CodeBadQuery, 19, "expected a slop of 1 to 100 words after ~"},
		{sq("kind:(class OR struct AND interface)"), tools.CodeBadQuery, 23, "mix AND and OR"},
		{sq("x kind:()"), tools.CodeBadQuery, 3, "expected a value in kind:( )"},
		{sq("lang:go foo kind:"), tools.CodeBadQuery, 18, `expected a value after "kind:"`},
		{sq("foo OR case:yes"), tools.CodeBadQuery, 8, "case: applies to the whole query"},
		{sq("case:yes case:no foo"), tools.CodeBadQuery, 10, "conflicting case: values yes and no"},
		{sq("case:yes test:no"), tools.CodeBadQuery, 1, "the query holds only"},
		{sq("foo case:*"), tools.CodeBadQuery, 5, "case: takes a value, not *"},
		{sq(deep), tools.CodeBadQuery, 101, "nests more than 100 levels deep"},
		{tools.SearchRequest{Query: "Server type:def", Target: "content"}, tools.CodeBadQuery, 8, "type:def contradicts target content"},
		{tools.SearchRequest{Query: "Server lang:python", Language: "go"}, tools.CodeBadQuery, 8, "lang:python contradicts language go"},
		{tools.SearchRequest{Query: "Server kind:class", Kind: []string{"function"}}, tools.CodeBadQuery, 8, "kind:class contradicts kind function"},
		{tools.SearchRequest{Query: "Server test:yes", ExcludeTests: true}, tools.CodeBadQuery, 8, "test:yes contradicts exclude_tests"},
		{tools.SearchRequest{Query: "Server test:no", IncludeTests: true}, tools.CodeBadQuery, 8, "test:no contradicts include_tests"},
		{tools.SearchRequest{Query: "x name:Server", Target: "content"}, tools.CodeBadQuery, 3, "name: applies to definitions, not to the content target"},
		{sq("type:file name:Server"), tools.CodeBadQuery, 11, "name: applies to definitions, not to the files target"},
		{sq("type:def content:x"), tools.CodeBadQuery, 10, "not to the definitions target"},
		{tools.SearchRequest{Query: "foo workspace:other_1a2b3c4d", Workspace: "mine_5e6f7a8b"}, tools.CodeBadQuery, 5, "contradicts workspace"},
	}
	cs := connect(t, NewMCPServer(s, "test"))
	for _, tt := range tests {
		_, err := s.Search(context.Background(), tt.req)
		var e *tools.Error
		if !errors.As(err, &e) {
			t.Errorf("Search(%+v) = %v, want a *tools.Error %s", tt.req, err, tt.code)
			continue
		}
		prefix := fmt.Sprintf("1:%d: ", tt.col)
		if e.Code != tt.code || e.Path != "query" || !strings.HasPrefix(e.Message, prefix) || !strings.Contains(e.Message, tt.want) {
			t.Errorf("Search(%q) = %s at %s: %q\nwant %s at query: %q...%q", tt.req.Query, e.Code, e.Path, e.Message, tt.code, prefix, tt.want)
		}
		// the same through MCP: an error result carrying the envelope with the position
		res := callTool(t, cs, "fast_search", tt.req)
		var env struct {
			Error *tools.Error `json:"error"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &env); err != nil || !res.IsError || env.Error == nil ||
			env.Error.Code != tt.code || !strings.HasPrefix(env.Error.Message, prefix) {
			t.Errorf("fast_search %q: isError %v, %s; want %s with %q", tt.req.Query, res.IsError, b, tt.code, prefix)
		}
	}
}
