package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"goto", " "}, "empty SYMBOL"},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", append([]string{"--root", root}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry %v: exit %d, %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
