package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestFreeze: a frozen store answers Generation from what it read when frozen, without
// the database (closed here, so that any query would fail).
func TestFreeze(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Freeze(ctx); err != nil {
		t.Fatal(err)
	}
	s.db.Close()
	if got, err := s.Generation(ctx); err != nil || got != want {
		t.Errorf("a frozen store's generation: %d, %v; want %d", got, err, want)
	}
}
