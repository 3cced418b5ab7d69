// Package testkit holds what the tests of tools and of the packages under it share: it
// imports nothing of the module, so tools' own tests may use it too.
package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/index/search"
)

// WriteFiles writes files (workspace-relative POSIX path -> content) under root.
func WriteFiles(t testing.TB, root string, files map[string]string) {
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

// Workspace makes a small workspace to search (Go, Python, Markdown); the first search indexes it.
func Workspace(t testing.TB) string {
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
	WriteFiles(t, root, files)
	return root
}

// ClusterRepos writes two small repositories (Go and Python) and returns their roots.
// Their names sort as a local registry lists them (the primary first).
func ClusterRepos(t testing.TB) map[string]string {
	t.Helper()
	files := map[string]map[string]string{
		"a-go": {
			"server.go": "package web\n\n// Server answers HTTP requests.\ntype Server struct{ Addr string }\n\n// ServeHTTP answers one request.\nfunc (s *Server) ServeHTTP(w Writer, r *Request) { handle(w, r) }\n\nfunc handle(w Writer, r *Request) { serveConn(w) }\n\nfunc serveConn(w Writer) {}\n",
			"pool.go":   "package web\n\n// ConnectionPool keeps idle connections for reuse.\ntype ConnectionPool struct{ idle []Conn }\n\n// Get takes a connection from the pool.\nfunc (p *ConnectionPool) Get() Conn { return p.idle[0] }\n\nfunc use(p *ConnectionPool) { p.Get(); handle(nil, nil) }\n",
		},
		"b-py": {
			"pool.py":   "class ConnectionPool:\n    \"\"\"A pool of database connections.\"\"\"\n\n    def get(self):\n        return self.idle.pop()\n",
			"server.py": "def serve_http(request):\n    \"\"\"Answer one HTTP request.\"\"\"\n    return handle(request)\n\n\ndef handle(request):\n    return None\n",
		},
	}
	roots := map[string]string{}
	base := t.TempDir()
	for repo, fs := range files {
		root := filepath.Join(base, repo)
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range fs {
			if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		roots[repo] = root
	}
	return roots
}

// HitKeys are the hits' workspaces (named by names where given), places, names and scores.
func HitKeys(hits []search.Hit, names map[string]string) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		ws := h.Workspace
		if names != nil {
			ws = names[ws]
		}
		out[i] = fmt.Sprintf("%s:%s:%d:%s:%.4f", ws, h.Path, h.Line, h.Name, h.Score)
	}
	return out
}

// Edit rewrites file with content and moves its modification time on, so a same-size edit
// within the clock's resolution still shows.
func Edit(t testing.TB, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}
