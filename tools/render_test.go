package tools_test

// The compact text of operations' results (tools/text.Render) over real answers: an
// external test of tools, so that it renders with tools/text, with the package's test
// workspaces (export_test.go).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
	qtext "github.com/quarrysearch/quarry/tools/text"
	"github.com/quarrysearch/quarry/workspace"
)

// When more files changed than a search indexes itself, the answer says how many (text,
// JSON notice, MCP), rather than passing off an old index as current.
func TestSearchNoticesManyChangedFiles(t *testing.T) {
	n := tools.FreshenLimit + 4
	s, root := tools.FreshRepo(t, n)
	for i := range n {
		tools.AppendLine(t, root, fmt.Sprintf("pkg/mod%02d.py", i), "# marker")
	}
	res, err := s.Search(context.Background(), tools.SearchRequest{Query: "marker", Target: "content"})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d files changed since the last index (%d modified, 0 added, 0 deleted)", n, n)
	if !strings.Contains(res.Notice, want) || !strings.Contains(res.Notice, "quarry index") {
		t.Errorf("notice %q, want it to say %q and how to update", res.Notice, want)
	}
	text, err := qtext.Render(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, want) {
		t.Errorf("compact text %q does not carry the notice", text)
	}
}

// goto of a definition says the same when more files changed than a search applies first.
func TestGotoNoticesManyChangedFiles(t *testing.T) {
	n := tools.FreshenLimit + 4
	s, root := tools.FreshRepo(t, n)
	for i := range n {
		tools.AppendLine(t, root, fmt.Sprintf("pkg/mod%02d.py", i), "# marker")
	}
	res, err := s.Goto(context.Background(), tools.GotoRequest{Symbol: "marker"})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d files changed since the last index", n)
	if !strings.Contains(res.Notice, want) {
		t.Errorf("goto notice %q, want it to say %q", res.Notice, want)
	}
	text, err := qtext.Render(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, want) {
		t.Errorf("compact text %q does not carry the notice", text)
	}
}

// TestCallsTrees: callers and callees as trees of a given depth, with call sites, cycles
// marked and unresolved callees by name.
func TestCallsTrees(t *testing.T) {
	s := tools.NavWorkspace(t)
	var res tools.CallsResult
	tools.Call(t, s, "trace_calls", `{"symbol":"ping","direction":"callees","depth":3}`, &res)
	if text, _ := qtext.Render(&res); text != "function ping cmd/app/cycle.go:3\n"+
		"  function pong cmd/app/cycle.go:5 [scope] via cmd/app/cycle.go:3\n"+
		"    function ping cmd/app/cycle.go:3 [scope] via cmd/app/cycle.go:5 (cycle)\n"+
		"    println (unresolved) via cmd/app/cycle.go:5\n"+
		"3 callees of ping, depth 3" {
		t.Errorf("callees of ping:\n%s", text)
	}
	tools.Call(t, s, "trace_calls", `{"symbol":"cache/cache.go:5","direction":"callers","depth":2}`, &res)
	if text, _ := qtext.Render(&res); text != "function Open cache/cache.go:5\n"+
		"  function warm cache/cache.go:9 [scope] via cache/cache.go:9\n"+
		"  function other cmd/app/other.go:5 [import] via cmd/app/other.go:5\n"+
		"    function start cmd/app/cycle.go:7 [package] via cmd/app/cycle.go:7\n"+
		"3 callers of cache/cache.go:5, depth 2" {
		t.Errorf("callers of cache's Open:\n%s", text)
	}
	for _, bad := range []struct{ args, code string }{
		{`{"symbol":"ping","direction":"up"}`, "direction"},
		{`{"symbol":"ping","direction":"callers","depth":9}`, "depth"},
		{`{"symbol":"nosuchthing","direction":"callers"}`, "symbol"},
		{`{"symbol":"pings","direction":"callers"}`, "symbol"},
	} {
		_, err := s.Call(t.Context(), "trace_calls", []byte(bad.args))
		if e, ok := err.(*tools.Error); !ok || e.Path != bad.code {
			t.Errorf("trace_calls %s: %v, want an error about %s", bad.args, err, bad.code)
		}
	}
}

// TestExplain: one answer about a definition: doc, parent, children, callers, callees,
// implementations and overrides, sized by depth.
func TestExplain(t *testing.T) {
	s := tools.NavWorkspace(t)
	var e tools.ExplainResult
	tools.Call(t, s, "deep_dive", `{"symbol":"py/models.py:1"}`, &e)
	if e.Definition.Name != "Model" || e.ChildrenTotal != 2 || e.ImplementationsTotal != 1 || e.Implementations[0].Name != "Special" {
		t.Errorf("explain Model: %+v", e)
	}
	tools.Call(t, s, "deep_dive", `{"symbol":"py/models.py:2","depth":"context"}`, &e)
	if e.Parent == nil || e.Parent.Name != "Model" || e.CalleesTotal != 1 || e.Callees[0].Name != "validate" ||
		e.ImplementationsTotal != 1 || e.Implementations[0].Path != "py/special.py" || e.Definition.Body != "" {
		t.Errorf("explain Model.save: %+v", e)
	}
	tools.Call(t, s, "deep_dive", `{"symbol":"cache/cache.go:5","depth":"full"}`, &e)
	if e.CallersTotal != 2 || !strings.Contains(e.Definition.Body, "return nil") {
		t.Errorf("explain cache's Open (full): %+v", e)
	}
	if text, _ := qtext.Render(&e); !strings.HasPrefix(text, "function Open cache/cache.go:5-5") || !strings.Contains(text, "callers (2): warm cache/cache.go:9, other cmd/app/other.go:5") {
		t.Errorf("explain text:\n%s", text)
	}
	if _, err := s.Call(t.Context(), "deep_dive", []byte(`{"symbol":"ping","depth":"deep"}`)); err == nil || !strings.Contains(err.Error(), "overview, context or full") {
		t.Errorf("explain depth deep: %v", err)
	}
}

func TestRenderOtherResults(t *testing.T) {
	s := tools.TestWorkspace(t)
	var sym tools.SymbolsResult
	tools.Call(t, s, "get_symbols", `{"file_path":"pool.py","mode":"full"}`, &sym)
	text, err := qtext.Render(&sym)
	if err != nil || !strings.HasPrefix(text, "pool.py (python)\n1 class Pool") || !strings.Contains(text, "  2 method acquire") || !strings.HasSuffix(text, "2 of 2 symbols") {
		t.Errorf("outline text:\n%s", text)
	}
	var refs tools.RefsResult
	tools.Call(t, s, "fast_refs", `{"symbol":"helper","limit":1}`, &refs)
	if text, _ := qtext.Render(&refs); !strings.HasPrefix(text, "server.go:7:32: call in ServeHTTP: func (s *Server) ServeHTTP() { helper() }\n1 of 2 uses of helper (truncated: limit; next page: cursor 1)") {
		t.Errorf("refs text:\n%s", text)
	}
	var ws tools.WorkspaceResult
	tools.Call(t, s, "manage_workspace", `{"operation":"list"}`, &ws)
	if text, _ := qtext.Render(&ws); !strings.Contains(text, "(primary)") || !strings.HasSuffix(text, "list done") {
		t.Errorf("workspace text:\n%s", text)
	}
}

// A file name holding a newline keeps every text answer at one line per result: the path
// is quoted, where it used to split the line in two.
func TestNewlineInPathKeepsOneLinePerResult(t *testing.T) {
	weird := "we\nird.go"
	s := tools.SmallRepo(t, map[string]string{
		weird:  "package a\n\n// Weird is odd. weirdmarker\nfunc Weird() { Plain() }\n",
		"p.go": "package a\n\nfunc Plain() { Weird() }\n",
	})
	ctx := context.Background()
	search, err := s.Search(ctx, tools.SearchRequest{Query: "weirdmarker", Target: "content"})
	if err != nil {
		t.Fatal(err)
	}
	gt, err := s.Goto(ctx, tools.GotoRequest{Symbol: "Weird"})
	if err != nil {
		t.Fatal(err)
	}
	refs, err := s.Refs(ctx, tools.RefsRequest{Symbol: "Plain"})
	if err != nil {
		t.Fatal(err)
	}
	callers, err := s.Calls(ctx, tools.CallsRequest{Symbol: "Plain", Direction: "callers"})
	if err != nil {
		t.Fatal(err)
	}
	explain, err := s.Explain(ctx, tools.ExplainRequest{Symbol: "Weird"})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []any{search, gt, refs, callers, explain} {
		text, err := qtext.Render(res)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, `"we\nird.go":`) {
			t.Errorf("qtext.Render(%T) = %q, want the path quoted", res, text)
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "ird.go") {
				t.Errorf("qtext.Render(%T): a line starts inside the path: %q", res, text)
			}
		}
	}
}

// When the index cannot be brought up to date (another holder has it open), the hits from
// changed files are marked stale, and the others are not.
func TestSearchMarksStaleHits(t *testing.T) {
	s, file := tools.StaleRepo(t)
	ctx := context.Background()
	root := filepath.Dir(file)
	other := filepath.Join(root, "other.go")
	if err := os.WriteFile(other, []byte("package pool\n\n// Acquired counts acquisitions.\nvar Acquired int\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Index(ctx, tools.IndexRequest{}); err != nil {
		t.Fatal(err)
	}
	reg, err := workspace.LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	// Another reader holds the index open: an index run cannot write it meanwhile.
	hold, err := workspace.OpenSearch(reg.Primary, workspace.IndexDir(root, reg.Primary.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	testkit.Edit(t, file, "package pool\n\n\n\n// Acquire takes a connection.\nfunc Acquire() {}\n")
	res, err := s.Search(ctx, tools.SearchRequest{Query: "Acquire*"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, h := range res.Results {
		seen[h.Path] = true
		if want := h.Path == "pool.go"; h.Stale != want {
			t.Errorf("%s:%d stale = %v, want %v", h.Path, h.Line, h.Stale, want)
		}
	}
	if !seen["pool.go"] || !seen["other.go"] {
		t.Fatalf("results %+v: want hits in pool.go and other.go", res.Results)
	}
	text, err := qtext.Render(res)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[stale: file changed since indexed]"; !strings.Contains(text, want) {
		t.Errorf("compact text:\n%s\nwant the stale mark %q", text, want)
	}
}
