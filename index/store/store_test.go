package store_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

func TestStoreReplaceAndDelete(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	storetest.Put(t, s, storetest.Record("a.go", "package a", "A1", "A2"), storetest.Record("b.go", "package b", "B1"))
	c, err := s.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.Counts{Files: 2, Symbols: 3, Identifiers: 3, Relationships: 3, Types: 3, Pending: 5}); c != want {
		t.Errorf("Counts = %+v, want %+v", c, want)
	}
	touched := storetest.Put(t, s, storetest.Record("a.go", "package a // v2", "A3"))
	for _, want := range []string{"s:a.go#A1", "s:a.go#A2", "s:a.go#A3", "f:a.go"} {
		if !slices.Contains(touched, want) {
			t.Errorf("Touched() = %v, lacks %s", touched, want)
		}
	}
	if ids, _ := s.SymbolIDs(ctx, "a.go"); !slices.Equal(ids, []string{"a.go#A3"}) {
		t.Errorf("symbols of a.go after replace = %v", ids)
	}
	b, _ := s.Begin(ctx)
	if err := b.Delete("b.go"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	c, _ = s.Counts(ctx)
	if c.Files != 1 || c.Symbols != 1 || c.Identifiers != 1 || c.Relationships != 1 || c.Types != 1 {
		t.Errorf("Counts after delete = %+v", c)
	}
	files, _ := s.Files(ctx)
	if f := files["a.go"]; f.Hash != "h-package a // v2" || f.Symbols != 1 {
		t.Errorf("Files()[a.go] = %+v", f)
	}
	if content, _ := s.Content(ctx, "a.go"); string(content) != "package a // v2" {
		t.Errorf("Content = %q", content)
	}
	if _, err := s.Content(ctx, "b.go"); !os.IsNotExist(err) && err == nil {
		t.Errorf("Content(deleted) = %v", err)
	}
	pending, _ := s.PendingDocs(ctx)
	if err := s.ClearPending(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Counts(ctx); c.Pending != 0 {
		t.Errorf("pending after clear = %d", c.Pending)
	}
}

func TestStoreRollbackLeavesNothing(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	b, _ := s.Begin(ctx)
	if err := b.Put(storetest.Record("a.go", "x", "A")); err != nil {
		t.Fatal(err)
	}
	b.Rollback()
	if c, _ := s.Counts(ctx); c != (store.Counts{}) {
		t.Errorf("Counts after rollback = %+v", c)
	}
}

func TestStoreReopenAndSchema(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Put(t, s, storetest.Record("a.go", "x", "A"))
	if err := s.SetMeta("schema_version", "99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := store.Open(path); err == nil {
		t.Fatalf("OpenStore of a newer schema succeeded")
	}
}

func TestCodeBody(t *testing.T) {
	content := []byte("func a() {\n\treturn\n}\n")
	if got := store.CodeBody(content, 0, len(content)); got != string(content) {
		t.Errorf("CodeBody = %q", got)
	}
	if got := store.CodeBody(content, 5, 100); got != "" {
		t.Errorf("CodeBody out of range = %q", got)
	}
}

func TestSymbolBodyKinds(t *testing.T) {
	src := []byte("func f() {\n\treturn 1\n}\n")
	for kind, want := range map[string]bool{
		"function": true, "method": true, "constructor": true, "property": true,
		"class": false, "struct": false, "module": false, "constant": false, "variable": false, "import": false, "field": false,
	} {
		if got := store.SymbolBody(kind, src, 0, len(src)) != ""; got != want {
			t.Errorf("symbolBody(%s) indexed: %v, want %v", kind, got, want)
		}
	}
}

// TestUnjournaledStore: a store built by OpenUnjournaled keeps no journal while it is
// written (no -wal file, no rollback journal), holds what was written once synced and
// closed, and is a WAL store again when opened as usual.
func TestUnjournaledStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "db", "symbols.db")
	s, err := store.OpenUnjournaled(path)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Put(t, s, storetest.Record("a.go", "package a", "A1"), storetest.Record("b.go", "package b", "B1"))
	mode := func(s *store.Store) string {
		var m string
		if err := s.DB().QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mode(s); m != "off" {
		t.Errorf("journal mode while building: %q, want off", m)
	}
	for _, suffix := range []string{"-wal", "-journal"} {
		if _, err := os.Stat(path + suffix); !os.IsNotExist(err) {
			t.Errorf("%s while building: %v, want none", suffix, err)
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m := mode(s); m != "wal" {
		t.Errorf("journal mode when opened again: %q, want wal", m)
	}
	if c, err := s.Counts(ctx); err != nil || c.Files != 2 || c.Symbols != 2 {
		t.Errorf("Counts = %+v, %v; want 2 files, 2 symbols", c, err)
	}
}
