package batchrun

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// exprRepo copies the search fixture into a temporary directory, adds the extra files
// (path -> content), indexes the copy and returns a service over it.
func exprRepo(t *testing.T, extra map[string]string) *tools.Service {
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
	testkit.WriteFiles(t, root, extra)
	return indexedService(t, root)
}

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

// smallRepo indexes files (path -> content) in a temporary workspace and returns a service
// over it.
func smallRepo(t *testing.T, files map[string]string) *tools.Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, root, files)
	return indexedService(t, root)
}

const serverGo = `package a

type Server struct{}

func (s *Server) Start() {}
func (s *Server) Stop() {}

func Free() {}

type Client struct{}

func (c *Client) Start() {}
`
