package text

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

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
