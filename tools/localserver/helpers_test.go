package localserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
)

// staleRepo indexes a workspace of one Go file and returns the service and the file's path.
func staleRepo(t *testing.T) (*tools.Service, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "pool.go")
	if err := os.WriteFile(file, []byte("package pool\n\n// Acquire takes a connection.\nfunc Acquire() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return indexedService(t, root), file
}

// edit rewrites file with content and moves its modification time on, so a same-size edit
// within the clock's resolution still shows.
func edit(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}

// intp returns a pointer to n.
func intp(n int) *int { return &n }

// indexedService indexes the workspace at root and returns a service over it, closed with
// the test.
func indexedService(t *testing.T, root string) *tools.Service {
	t.Helper()
	s, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.Index(context.Background(), tools.IndexRequest{}); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	return s
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
