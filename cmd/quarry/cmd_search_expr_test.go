package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
)

// exprRoot copies the search fixture (testdata/search/repo) into a temporary directory and
// returns the copy's root.
func exprRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "..", "testdata", "search", "repo")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy the fixture: %v", err)
	}
	return root
}

// badExpressions are malformed queries of the query language with the column of the
// offending token, the code and what the message says.
var badExpressions = []struct {
	args []string
	col  int
	code tools.Code
	want string
}{
	{[]string{"lang:go (foo OR bar"}, 9, tools.CodeBadQuery, "unclosed (: expected a closing )"},
	{[]string{`name:Server "connection pool`}, 13, tools.CodeBadQuery, "unclosed phrase"},
	{[]string{"lang:go /a[b/"}, 10, tools.CodeBadQuery, "invalid regex"},
	{[]string{"kind:funtion"}, 1, tools.CodeBadQuery, "did you mean function?"},
	{[]string{"Server kidn:class"}, 8, tools.CodeUnknownField, `unknown field "kidn": did you mean kind:?`},
	{[]string{"Server line:>x"}, 14, tools.CodeBadQuery, `line: wants a whole number, got "x"`},
	{[]string{"a OR"}, 5, tools.CodeBadQuery, "expected a term after OR"},
	{[]string{"pool~3"}, 5, tools.CodeBadQuery, "expected 1 or 2 after ~"},
	{[]string{`"connection pool"~0`}, 19, tools.CodeBadQuery, "expected a slop of 1 to 100 words after ~"},
	{[]string{"kind:(class OR struct AND interface)"}, 23, tools.CodeBadQuery, "mix AND and OR"},
	{[]string{"foo OR case:yes"}, 8, tools.CodeBadQuery, "case: applies to the whole query"},
	{[]string{"Server lang:python", "--lang", "go"}, 8, tools.CodeBadQuery, "lang:python contradicts language go"},
	{[]string{"x name:Server", "--target", "content"}, 3, tools.CodeBadQuery, "name: applies to definitions, not to the content target"},
}

// TestSearchExpressionErrors: a malformed query exits with code 2 and prints its positioned
// message; with --json it prints the failure envelope.
func TestSearchExpressionErrors(t *testing.T) {
	root := exprRoot(t)
	for _, tt := range badExpressions {
		args := append([]string{"--root", root, "search"}, tt.args...)
		prefix := fmt.Sprintf("1:%d: ", tt.col)
		code, out, errOut := quarry(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "quarry: "+prefix) || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry search %q: exit %d, stdout %q, stderr %q\nwant exit 2 and quarry: %s...%s", tt.args, code, out, errOut, prefix, tt.want)
		}
		code, out, _ = quarry(t, "", append(args, "--json")...)
		var env struct {
			OK    *bool `json:"ok"`
			Error struct {
				Code    tools.Code `json:"code"`
				Message string     `json:"message"`
				Path    string     `json:"path"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &env); err != nil || code != exitUsage || env.OK == nil || *env.OK ||
			env.Error.Code != tt.code || env.Error.Path != "query" || !strings.HasPrefix(env.Error.Message, prefix) || !strings.Contains(env.Error.Message, tt.want) {
			t.Errorf("quarry search %q --json: exit %d\n%s\nwant exit 2 and the envelope of %s at query: %s...%s", tt.args, code, out, tt.code, prefix, tt.want)
		}
	}

	// The built binary exits with 2 too.
	bin := quarryBinary(t)
	cmd := exec.Command(bin, "--root", root, "search", "a OR")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitUsage || !strings.Contains(stderr.String(), "1:5: expected a term after OR") {
		t.Errorf("quarry search 'a OR' (binary): %v, stderr %q; want exit 2 and 1:5: expected a term after OR", err, stderr.String())
	}
}

// TestSearchExpressionEqualsMCP: quarry search --json answers an expression query with what
// the MCP tool fast_search gives as structured content for the same request.
func TestSearchExpressionEqualsMCP(t *testing.T) {
	bin := quarryBinary(t)
	root := exprRoot(t)
	if code, _, errOut := quarry(t, "", "--root", root, "index"); code != exitOK {
		t.Fatalf("quarry index: exit %d, %s", code, errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = root
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tests := []struct {
		args map[string]any
		cli  []string
	}{
		{map[string]any{"query": `type:line /ErrPool\w+/`}, []string{`type:line /ErrPool\w+/`}},
		{map[string]any{"query": "kind:(struct OR interface) lang:go"}, []string{"kind:(struct OR interface) lang:go"}},
		{map[string]any{"query": "name:handle* -path:**/*_test.go", "target": "definitions", "limit": 5},
			[]string{"name:handle* -path:**/*_test.go", "--target", "definitions", "--limit", "5"}},
		{map[string]any{"query": `"connection pool"~3 lang:go`, "context_lines": 1}, []string{`"connection pool"~3 lang:go`, "--context", "1"}},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fast_search", Arguments: tt.args})
		if err != nil || res.IsError {
			t.Errorf("fast_search %v: %v %+v", tt.args, err, res)
			continue
		}
		got, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := quarry(t, "", append(append([]string{"--root", root, "search"}, tt.cli...), "--json")...)
		if code != exitOK {
			t.Errorf("quarry search %q --json: exit %d, %s", tt.cli, code, errOut)
			continue
		}
		mcpRes, cliRes := withoutElapsed(t, got), withoutElapsed(t, []byte(out))
		if results, _ := cliRes["results"].([]any); len(results) == 0 {
			t.Errorf("quarry search %q --json found nothing; want results to compare", tt.cli)
		}
		if !reflect.DeepEqual(mcpRes, cliRes) {
			t.Errorf("fast_search %v:\n MCP %v\n CLI %v", tt.args, mcpRes, cliRes)
		}
	}
}

// TestSearchParseOnlyRoundTrip: --parse-only --json prints a query's canonical form, which
// parses back to the same canonical form, the same target and the same terms.
func TestSearchParseOnlyRoundTrip(t *testing.T) {
	root := exprRoot(t)
	// A canonical form may start with - (a NOT), which only follows -- on the command line.
	parse := func(query string) *tools.ParsedQuery {
		t.Helper()
		code, out, errOut := quarry(t, "", "--root", root, "search", "--parse-only", "--json", "--", query)
		var p tools.ParsedQuery
		if code != exitOK || json.Unmarshal([]byte(out), &p) != nil {
			t.Fatalf("quarry search %q --parse-only --json: exit %d\n%s%s", query, code, out, errOut)
		}
		return &p
	}
	terms := func(p *tools.ParsedQuery) []string {
		var out []string
		for _, term := range p.Terms {
			out = append(out, fmt.Sprintf("%s %s %s %v", term.Field, term.Kind, term.Text, term.Negated))
		}
		return out
	}
	for _, query := range []string{
		"kind:(struct OR interface) lang:golang -path:vendor/** name:Conn*^2",
		`"connection pool"~3 OR /ErrPool\w+/`,
		`sig:"ctx context.Context" doc:(exponential AND jitter) vis:public line:[10 TO 20}`,
		`NOT (name:get* OR name:set*) "pool exhausted"* fuzzy~2 ext:go`,
		"case:yes type:line Pool test:no",
	} {
		first := parse(query)
		if first.Syntax != "expression" || first.Canonical == "" {
			t.Errorf("quarry search %q --parse-only: syntax %q, canonical %q; want an expression with its canonical form", query, first.Syntax, first.Canonical)
			continue
		}
		again := parse(first.Canonical)
		if again.Canonical != first.Canonical {
			t.Errorf("canonical of %q = %q, which parses to the canonical %q", query, first.Canonical, again.Canonical)
		}
		if again.Target != first.Target || again.Case != first.Case || !reflect.DeepEqual(terms(again), terms(first)) {
			t.Errorf("canonical of %q = %q parses to another query:\n target %s, case %q, terms %v\nwant target %s, case %q, terms %v",
				query, first.Canonical, again.Target, again.Case, terms(again), first.Target, first.Case, terms(first))
		}
	}
}
