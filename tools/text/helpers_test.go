package text

import (
	"context"
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
