package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

func searchRoot(t *testing.T) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{
		"server.go":  "package main\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() {}\n\ntype Server struct{}\n",
		"pool.py":    "class ConnectionPool:\n    \"\"\"A connection pool.\"\"\"\n\n    def acquire(self):\n        raise RuntimeError(\"connection pool exhausted\")\n",
		"README.md":  "# Demo\n\nThe connection pool hands out connections.\n",
		".gitignore": "",
	})
	return root
}

func TestSearchBuildsTheIndexFirst(t *testing.T) {
	root := searchRoot(t)
	code, out, errOut := quarry(t, "", "--root", root, "search", "ServeHTTP")
	if code != exitOK || !strings.HasPrefix(out, "server.go:4:1: method ServeHTTP: func (s *Server) ServeHTTP()") {
		t.Fatalf("search on a workspace without an index: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = quarry(t, "", "--root", root, "search", "connection", "pool", "--target", "content", "--json")
	var res struct {
		Results []map[string]any `json:"results"`
		Relaxed bool             `json:"relaxed"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res.Results) == 0 {
		t.Fatalf("content --json: exit %d\n%s", code, out)
	}
	for _, key := range []string{"path", "line", "end_line", "text", "score", "hit"} {
		if _, ok := res.Results[0][key]; !ok {
			t.Errorf("content hit has no %q: %v", key, res.Results[0])
		}
	}
	code, out, _ = quarry(t, "", "--root", root, "search", "ConnectionPool", "--jsonl", "--kind", "class")
	var hit map[string]any
	if code != exitOK || json.Unmarshal([]byte(strings.Split(out, "\n")[0]), &hit) != nil || hit["name"] != "ConnectionPool" || hit["kind"] != "class" || hit["language"] != "python" || hit["signature"] == nil {
		t.Errorf("--jsonl --kind class: exit %d\n%s", code, out)
	}
	if code, out, errOut := quarry(t, "", "--root", root, "search", "zebra"); code != exitNotFound || out != "" || !strings.Contains(errOut, "nothing found") {
		t.Errorf("search zebra: exit %d, %q, %q; want exit 1 and a note on stderr", code, out, errOut)
	}
	if code, out, _ := quarry(t, "", "--root", root, "goto", "ServeHTTP"); code != exitOK || !strings.HasPrefix(out, "server.go:4:1: method ServeHTTP") {
		t.Errorf("goto ServeHTTP: exit %d\n%s", code, out)
	}
	if code, _, _ := quarry(t, "", "--root", root, "goto", "Serve"); code != exitNotFound {
		t.Errorf("goto Serve (no such name): exit %d, want 1", code)
	}
}

func TestSearchBadInput(t *testing.T) {
	root := searchRoot(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"search", ""}, "empty query"},
		{[]string{"search", "x", "--lang", "cobol"}, "known languages"},
		{[]string{"search", "x", "--kind", "clas"}, "did you mean class?"},
		{[]string{"search", "x", "--limit", "0"}, "--limit 0 out of range: give 1 to 500"},
		{[]string{"search", "x", "--limit", "501"}, "out of range"},
		{[]string{"search", "x", "--target", "defs"}, "did you mean definitions?"},
		{[]string{"search", "x", "--workspace", "nope"}, "unknown workspace"},
		{[]string{"search", "x", "--file-pattern", "src/[ab"}, "unclosed ["},
		{[]string{"search", "x", "--context", "-1"}, "out of range"},
		{[]string{"search", "x", "--include-tests", "--exclude-tests"}, "give one"},
		{[]string{"search", "x", "--limt", "3"}, "did you mean --limit?"},
		{[]string{"search"}, "requires at least 1 arg"},
		{[]string{"goto", " "}, "empty symbol: give the name of a definition"},
		// issue 41 f: a field with no value, a path with no line
		{[]string{"search", "name:"}, `1:6: expected a value after "name:"`},
		{[]string{"search", " kind: "}, `expected a value after "kind:"`},
		{[]string{"refs", "pool.py:abc"}, "after the path pool.py give a line number (pool.py:LINE)"},
		{[]string{"callers", "pool.py:abc"}, "give a line number"},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", append([]string{"--root", root}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry %v: exit %d, %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestJSONFailureEnvelope(t *testing.T) {
	root := searchRoot(t)
	tests := []struct {
		args []string
		code string
		path string
	}{
		{[]string{"search", "", "--json"}, "BAD_QUERY", "query"},
		{[]string{"search", "(*&)", "--json", "--target", "definitions"}, "BAD_QUERY", "query"},
		{[]string{"search", "x", "--workspace", "nope", "--json"}, "UNKNOWN_WORKSPACE", "workspace"},
		{[]string{"goto", "Serve", "--context-file", "/etc/passwd", "--json"}, "PATH_OUTSIDE_WORKSPACE", "context_file"},
		{[]string{"goto", "Serve", "--limit", "0", "--json"}, "BAD_VALUE", "limit"},
	}
	for _, tt := range tests {
		code, out, _ := quarry(t, "", append([]string{"--root", root}, tt.args...)...)
		var env struct {
			OK    *bool `json:"ok"`
			Error struct {
				Code, Message, Path string
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &env); err != nil || env.OK == nil || *env.OK || env.Error.Code != tt.code || env.Error.Path != tt.path || env.Error.Message == "" || code != exitUsage {
			t.Errorf("quarry %v: exit %d, %s; want exit 2 and the envelope with %s at %s", tt.args, code, out, tt.code, tt.path)
		}
	}
}

// TestJSONAnswersValidate checks every JSON answer of search and goto, and the failure
// envelope, against the contract's schemas.
func TestJSONAnswersValidate(t *testing.T) {
	root := searchRoot(t)
	tests := []struct {
		schema string
		args   []string
	}{
		{"search.result", []string{"search", "ServeHTTP", "--json"}},
		{"search.result", []string{"search", "connection pool", "--json", "--target", "content", "--context", "1"}},
		{"search.result", []string{"search", "pool.py", "--json", "--target", "files"}},
		{"search.result", []string{"search", "zebra", "--json"}},
		{"goto.result", []string{"goto", "ServeHTTP", "--json"}},
		{"refs.result", []string{"refs", "RuntimeError", "--json"}},
		{"error", []string{"refs", "x", "--kind", "calls", "--json"}},
		{"index.result", []string{"index", "--json"}},
		{"health.result", []string{"health", "--json"}},
		{"workspace.result", []string{"workspace", "stats", "--json"}},
		{"workspace.result", []string{"workspace", "list", "--json"}},
		{"outline.result", []string{"outline", "pool.py", "--json"}},
		{"symbols.result", []string{"symbols", "pool.py", "--json"}},
		{"tokens.result", []string{"tokens", "--json", "getUserData"}},
		{"capabilities.result", []string{"capabilities"}},
		{"describe.result", []string{"describe", "search"}},
		{"parse.result", []string{"search", "--parse-only", "--json", "kind:(class OR struct) lang:go name:*Pool -path:**/vendor/**"}},
		{"parse.result", []string{"search", "--parse-only", "--json", "connection pool"}},
		{"describe.result", []string{"describe", "fast_refs"}},
		{"agent-version.result", []string{"agent-version", "--json"}},
		{"error", []string{"search", "x", "--limit", "0", "--json"}},
		{"error", []string{"search", "x", "--lang", "cobol", "--json"}},
	}
	for _, tt := range tests {
		args := append([]string{"--root", root}, tt.args...)
		if tt.args[0] == "outline" {
			args = []string{"outline", filepath.Join(root, tt.args[1]), "--json"}
		}
		_, out, _ := quarry(t, "", args...)
		if err := tools.Validate(tt.schema, []byte(out)); err != nil {
			t.Errorf("quarry %v: the answer does not validate against %s: %v\n%s", tt.args, tt.schema, err, out)
		}
	}
	code, out, _ := quarry(t, "", "schema", "--all")
	var all map[string]map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &all) != nil || len(all) < 5 {
		t.Fatalf("schema --all: exit %d\n%.300s", code, out)
	}
	for name, s := range all {
		if s["$schema"] != tools.SchemaDialect || s["$id"] == nil || s["version"] != tools.AgentVersion {
			t.Errorf("schema %s: $schema %v, $id %v, version %v", name, s["$schema"], s["$id"], s["version"])
		}
	}
}

// An identifier with no definition of its name says so in text (on standard error, beside
// the results on standard output) and JSON, instead of passing off definitions of its parts
// (or of other names) as the answer.
func TestSearchSaysNoDefinitionNamed(t *testing.T) {
	root := searchRoot(t)
	code, out, errOut := quarry(t, "", "--root", root, "search", "ServeConnectionPool", "--target", "definitions")
	if code != exitOK || !strings.HasPrefix(errOut, "(no definition named ServeConnectionPool; showing related)\n") || strings.Contains("\n"+out, "\n(") {
		t.Errorf("search ServeConnectionPool: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = quarry(t, "", "--root", root, "search", "ServeConnectionPool", "--json")
	var res struct {
		Notice  string           `json:"notice"`
		Results []map[string]any `json:"results"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Notice != "no definition named ServeConnectionPool; showing related" || len(res.Results) == 0 {
		t.Errorf("search ServeConnectionPool --json: exit %d, notice %q\n%s", code, res.Notice, out)
	}
	for _, q := range []string{"ServeHTTP", "connection pool", "serve_http"} { // defined (but for its convention), or words
		code, out, _ = quarry(t, "", "--root", root, "search", q, "--json")
		res.Notice = ""
		if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Notice != "" {
			t.Errorf("search %q --json: exit %d, notice %q; want none", q, code, res.Notice)
		}
	}
}

// A search answering from a file edited since it was indexed re-indexes it first (the new
// line); when it cannot (another process holds the index), it says which files changed.
func TestSearchEditedFiles(t *testing.T) {
	root := searchRoot(t)
	if code, _, errOut := quarry(t, "", "--root", root, "index"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	later := time.Now().Add(2 * time.Second)
	server := filepath.Join(root, "server.go")
	rewrite := func(content string) {
		if err := os.WriteFile(server, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		later = later.Add(2 * time.Second)
		if err := os.Chtimes(server, later, later); err != nil {
			t.Fatal(err)
		}
	}
	rewrite("package main\n\n\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() {}\n\ntype Server struct{}\n")
	if code, out, errOut := quarry(t, "", "--root", root, "search", "ServeHTTP", "--target", "definitions"); code != exitOK || !strings.HasPrefix(out, "server.go:6:1: method ServeHTTP") || strings.Contains(errOut, "changed since indexed") {
		t.Errorf("search after an edit: exit %d\n%s\n%s; want line 6, re-indexed", code, out, errOut)
	}
	reg, err := workspace.LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	hold, err := workspace.OpenSearch(reg.Primary, workspace.IndexDir(root, reg.Primary.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	rewrite("package main\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() {}\n\ntype Server struct{}\n")
	code, out, errOut := quarry(t, "", "--root", root, "search", "ServeHTTP", "--target", "definitions")
	if code != exitOK || !strings.Contains(out, "server.go:6:1: method ServeHTTP") || !strings.Contains(errOut, "(server.go changed since the last index") || !strings.Contains(errOut, "(changed since indexed, lines may have moved: server.go; quarry index refreshes them)") || strings.Contains("\n"+out, "\n(") {
		t.Errorf("search after an edit, the index held by another process: exit %d\n%s\n%s; want the indexed line and a note", code, out, errOut)
	}
	code, out, _ = quarry(t, "", "--root", root, "search", "ServeHTTP", "--target", "definitions", "--json")
	var res struct {
		Results []struct {
			Stale bool `json:"stale"`
		} `json:"results"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res.Results) == 0 || !res.Results[0].Stale {
		t.Errorf("--json: exit %d\n%s\nwant the hit marked stale", code, out)
	}
}

// TestSearchNoticesGoToStderr: in text mode, standard output holds one path:line result per
// line; notices (no result has every word, a file changed since indexed) go to standard
// error (issue 41 e).
func TestSearchNoticesGoToStderr(t *testing.T) {
	root := searchRoot(t)
	if code, _, errOut := quarry(t, "", "--root", root, "index"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	writeFiles(t, root, map[string]string{"README.md": "# Demo\n\nMore text first.\nThe connection pool hands out connections.\n"})
	code, out, errOut := quarry(t, "", "--root", root, "search", "connection", "zebra", "--target", "content")
	if code != exitOK || !strings.Contains(errOut, "no result has every word") {
		t.Fatalf("search connection zebra: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !regexp.MustCompile(`^[^ ]+:\d+:`).MatchString(line) {
			t.Errorf("stdout line %q is not a path:line result (stderr %q)", line, errOut)
		}
	}
}

// TestSearchExactCaseFirst: the name as written ranks above its other spellings even when
// those are in source and it is only in tests (issue 41 g: quarry search ServeHTTP in
// Quarry's own repository showed func serveHTTP first); with no definition so written, the
// other spellings are the answer.
func TestSearchExactCaseFirst(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{
		"go.mod":              "module example.com/x\n",
		"cmd/serve.go":        "package main\n\n// serveHTTP serves until ctx ends.\nfunc serveHTTP() error { return nil }\n",
		"fake/fake_test.go":   "package fake\n\ntype fakeServer struct{}\n\n// ServeHTTP answers.\nfunc (f *fakeServer) ServeHTTP() {}\n",
		"testdata/srv/srv.go": "package srv\n\ntype Server struct{}\n\nfunc (s *Server) ServeHTTP() {}\n",
	})
	code, out, errOut := quarry(t, "", "--root", root, "search", "ServeHTTP")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) < 3 || !strings.Contains(lines[0], "method ServeHTTP") || !strings.Contains(lines[1], "method ServeHTTP") || !strings.Contains(lines[2], "function serveHTTP") {
		t.Errorf("search ServeHTTP: exit %d, want both ServeHTTP methods before serveHTTP\n%s%s", code, out, errOut)
	}
	code, out, errOut = quarry(t, "", "--root", root, "search", "serve_http")
	if code != exitOK || !strings.Contains(strings.Split(out, "\n")[0], "function serveHTTP") {
		t.Errorf("search serve_http: exit %d, want serveHTTP (source) first\n%s%s", code, out, errOut)
	}
	code, out, errOut = quarry(t, "", "--root", root, "goto", "ServeHTTP")
	if code != exitOK || strings.Contains(out, "serveHTTP") || !strings.Contains(errOut, "1 more definition is named so but for case or separators (serveHTTP)") {
		t.Errorf("goto ServeHTTP: exit %d, want the two methods and a note of serveHTTP\n%s%s", code, out, errOut)
	}
}
