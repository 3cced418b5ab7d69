package localserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

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
