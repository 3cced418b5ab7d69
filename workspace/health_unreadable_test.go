package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// unreadable makes the files named (workspace-relative) unreadable, as a mode of 000 makes
// them for a user other than root, until the test ends.
func unreadable(t *testing.T, root string, names ...string) {
	t.Helper()
	denied := map[string]bool{}
	for _, n := range names {
		denied[filepath.Join(root, n)] = true
	}
	open := openForRead
	openForRead = func(p string) (*os.File, error) {
		if denied[p] {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
		}
		return open(p)
	}
	t.Cleanup(func() { openForRead = open })
}

// A file that changed on disk and cannot be read is reported as unreadable, with its path,
// and leaves the index healthy: an index run cannot read it either, where health used to
// call it modified and the index unhealthy ("run quarry index") for ever.
func TestHealthReportsUnreadableFiles(t *testing.T) {
	root := mustCanon(t, t.TempDir())
	writeTree(t, root, map[string]string{
		"a.go":      "package a\n\nfunc A() {}\n",
		"secret.go": "package a\n\nfunc Secret() {}\n",
	})
	indexTree(t, root, IndexOptions{})
	later := time.Now().Add(time.Minute)
	writeTree(t, root, map[string]string{
		"secret.go": "package a\n\nfunc Secret2() {}\n",
		"new.env":   "TOKEN=1\n",
	})
	for _, n := range []string{"secret.go", "new.env"} {
		if err := os.Chtimes(filepath.Join(root, n), later, later); err != nil {
			t.Fatal(err)
		}
	}
	unreadable(t, root, "secret.go", "new.env")
	sum := indexTree(t, root, IndexOptions{})
	if sum.Skipped["unreadable"] != 2 {
		t.Errorf("index run: skipped %v, want 2 unreadable", sum.Skipped)
	}
	e := Entry{ID: ID(root), Root: root, Name: "t"}
	h, err := CheckHealth(context.Background(), e, IndexDir(root, e.ID), false)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Changed
	if h.Status != Healthy || c.Modified != 0 || c.Added != 0 || c.Unreadable != 2 || !slices.Equal(c.UnreadablePaths, []string{"new.env", "secret.go"}) {
		t.Errorf("health: %s, changed %+v, problems %v; want healthy, 2 unreadable (new.env, secret.go), nothing modified or added", h.Status, c, h.Problems)
	}
	if !slices.ContainsFunc(h.Notices, func(n string) bool {
		return strings.Contains(n, "2 files changed on disk cannot be read") && strings.Contains(n, "secret.go")
	}) {
		t.Errorf("health notices %v: none names the unreadable files", h.Notices)
	}

	// Readable again: modified and added, until the next run.
	openForRead = func(p string) (*os.File, error) { return os.Open(p) }
	h, err = CheckHealth(context.Background(), e, IndexDir(root, e.ID), false)
	if err != nil {
		t.Fatal(err)
	}
	if h.Status != Unhealthy || h.Changed.Modified != 1 || h.Changed.Added != 1 || h.Changed.Unreadable != 0 {
		t.Errorf("health once readable: %s, %+v; want unhealthy, 1 modified, 1 added", h.Status, fmt.Sprint(h.Changed))
	}
}

// TestFreshnessUnreadable: a search's freshness check counts a changed file it cannot read
// as unreadable, not as a change an index run would apply (issue 41 a: every search said
// "changed since the last index ... run quarry index" right after an index run).
func TestFreshnessUnreadable(t *testing.T) {
	root := mustCanon(t, t.TempDir())
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "secret.go": "package a\n\nfunc Secret() {}\n"})
	indexTree(t, root, IndexOptions{})
	writeTree(t, root, map[string]string{"secret.go": "package a\n\nfunc Secret2() {}\n"})
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(root, "secret.go"), later, later); err != nil {
		t.Fatal(err)
	}
	unreadable(t, root, "secret.go")
	indexTree(t, root, IndexOptions{})
	if c := freshnessOf(t, root); c.Total() != 0 || c.Unreadable != 1 || !slices.Equal(c.UnreadablePaths, []string{"secret.go"}) {
		t.Errorf("freshness after an index run: %+v; want nothing changed, secret.go unreadable", c)
	}
}
