package httpguard

import (
	"os"
	"path/filepath"
	"testing"
)

// mcpWorkspace makes a small workspace to search; the first search indexes it.
func mcpWorkspace(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"server.go":      "package main\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() {}\n\ntype Server struct{}\n",
		"pool.py":        "class ConnectionPool:\n    \"\"\"A connection pool.\"\"\"\n\n    def acquire(self):\n        raise RuntimeError(\"connection pool exhausted\")\n",
		"README.md":      "# Demo\n\nThe connection pool hands out connections.\n",
		"web/handler.go": "package web\n\n// Handle serves a request with the ConnectionPool.\nfunc Handle() {}\n",
	}
	writeFiles(t, root, files)
	return root
}

// writeFiles writes files (workspace-relative POSIX path -> content) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
