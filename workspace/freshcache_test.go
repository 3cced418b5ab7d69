package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// freshnessOf opens the index of root and compares it with the disk.
func freshnessOf(t *testing.T, root string) Changes {
	t.Helper()
	e := Entry{ID: ID(root), Root: root, Name: "t"}
	x, err := OpenSearch(e, IndexDir(root, e.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	f, err := x.Freshness(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f.Changes
}

// age sets the modification time of each directory under root (and root) an hour back, so
// their listings are not racy (racyListing) and the cache trusts them.
func age(t *testing.T, root string) time.Time {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == DataDir {
				return filepath.SkipDir
			}
			return os.Chtimes(p, old, old)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return old
}

// TestFreshCacheSeesEveryChange: with fresh.cache written by the comparison before, each
// kind of change is still found: a file edited in place (its directory's time unmoved), a
// file added to a directory, one deleted, a new directory, a .gitignore edited in place, a
// file grown past the size cap, and changes right after the last comparison (a listing
// taken within racyListing of its directory's time is not trusted).
func TestFreshCacheSeesEveryChange(t *testing.T) {
	root := mustCanon(t, t.TempDir())
	writeTree(t, root, map[string]string{
		"a.go": "package a\n", "src/b.go": "package b\n", "src/c.go": "package c\n",
		"src/deep/d.go": "package d\n", ".gitignore": "*.log\n",
	})
	indexTree(t, root, IndexOptions{})
	age(t, root)
	if c := freshnessOf(t, root); c.Total() != 0 {
		t.Fatalf("right after indexing: %+v", c)
	}
	cacheFile := filepath.Join(filepath.Dir(StorePath(IndexDir(root, ID(root)))), freshCacheFile)
	if st, err := os.Stat(cacheFile); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("fresh.cache: %v %v; want a file of mode 0600", st, err)
	}
	steps := []struct {
		what   string
		change func()
		want   Changes
	}{
		{"an edit in place", func() {
			old := age(t, root)
			writeTree(t, root, map[string]string{"src/deep/d.go": "package d\n\nfunc D() {}\n"})
			for _, d := range []string{"src/deep", "src", "."} { // the edit moves no directory's time
				_ = os.Chtimes(filepath.Join(root, d), old, old)
			}
		}, Changes{Modified: 1}},
		{"a file added", func() { writeTree(t, root, map[string]string{"src/e.go": "package e\n"}) }, Changes{Modified: 1, Added: 1}},
		{"a file deleted", func() { os.Remove(filepath.Join(root, "src/c.go")) }, Changes{Modified: 1, Added: 1, Deleted: 1}},
		{"a new directory", func() { writeTree(t, root, map[string]string{"src/new/f.go": "package f\n"}) }, Changes{Modified: 1, Added: 2, Deleted: 1}},
		{"a .gitignore edited in place", func() {
			old := age(t, root)
			writeTree(t, root, map[string]string{".gitignore": "*.log\nb.go\n"})
			_ = os.Chtimes(root, old, old)
		}, Changes{Modified: 2, Added: 2, Deleted: 2}}, // .gitignore itself, and src/b.go out
	}
	for _, s := range steps {
		s.change()
		c := freshnessOf(t, root)
		if c.Modified != s.want.Modified || c.Added != s.want.Added || c.Deleted != s.want.Deleted {
			t.Errorf("after %s: modified %d, added %d, deleted %d; want %d, %d, %d (%v)", s.what,
				c.Modified, c.Added, c.Deleted, s.want.Modified, s.want.Added, s.want.Deleted, c.Samples)
		}
		// and the same again, from the cache this comparison wrote
		if again := freshnessOf(t, root); again.Total() != c.Total() {
			t.Errorf("after %s, the next comparison: %+v; want %+v", s.what, again, c)
		}
	}
	// an index run moves the store's state key: the cached states are not used for it
	indexTree(t, root, IndexOptions{})
	if c := freshnessOf(t, root); c.Total() != 0 {
		t.Errorf("after indexing the changes: %+v", c)
	}
}

// TestFreshCacheIsUsed: a directory whose time has not moved is not listed again: a file
// added behind the cache's back (the directory's time set back by hand, which no real
// change does) is not seen. This is the assumption the cache rests on, and proof it is used.
func TestFreshCacheIsUsed(t *testing.T) {
	root := mustCanon(t, t.TempDir())
	writeTree(t, root, map[string]string{"src/a.go": "package a\n"})
	indexTree(t, root, IndexOptions{})
	old := age(t, root)
	if c := freshnessOf(t, root); c.Total() != 0 {
		t.Fatalf("right after indexing: %+v", c)
	}
	writeTree(t, root, map[string]string{"src/b.go": "package a\n"})
	if err := os.Chtimes(filepath.Join(root, "src"), old, old); err != nil {
		t.Fatal(err)
	}
	if c := freshnessOf(t, root); c.Added != 0 {
		t.Errorf("src was listed again though its time had not moved: %+v", c)
	}
	// a damaged cache is no cache: everything is listed again
	cacheFile := filepath.Join(filepath.Dir(StorePath(IndexDir(root, ID(root)))), freshCacheFile)
	data, err := os.ReadFile(cacheFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cacheFile, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if c := freshnessOf(t, root); c.Added != 1 || !slices.Equal(c.Samples, []string{"src/b.go"}) {
		t.Errorf("with a cut cache file: %+v; want src/b.go added", c)
	}
}

// An index run walks through fresh.cache too: a directory whose time has not moved is not
// listed again, and one whose time moved (a file added, a file deleted) is, so the run
// indexes what was added and drops what was deleted.
func TestIndexWalkUsesFreshCache(t *testing.T) {
	root := mustCanon(t, t.TempDir())
	writeTree(t, root, map[string]string{"src/a.go": "package a\n", "lib/c.go": "package c\n"})
	indexTree(t, root, IndexOptions{})
	old := age(t, root)
	indexTree(t, root, IndexOptions{}) // lists src and lib, aged: their listings are trusted from now on
	writeTree(t, root, map[string]string{"src/b.go": "package a\n"})
	if err := os.Chtimes(filepath.Join(root, "src"), old, old); err != nil {
		t.Fatal(err)
	}
	if sum := indexTree(t, root, IndexOptions{}); sum.Added != 0 {
		t.Errorf("src was listed again though its time had not moved: %d added", sum.Added)
	}
	now := time.Now()
	if err := os.Chtimes(filepath.Join(root, "src"), now, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "lib", "c.go")); err != nil {
		t.Fatal(err)
	}
	if sum := indexTree(t, root, IndexOptions{}); sum.Added != 1 || sum.Deleted != 1 {
		t.Errorf("after src's time moved and lib/c.go was deleted: %d added, %d deleted; want 1 and 1", sum.Added, sum.Deleted)
	}
	if c := freshnessOf(t, root); c.Total() != 0 {
		t.Errorf("right after the run: %+v", c)
	}
}
