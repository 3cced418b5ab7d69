package workspace

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// withUmask runs the rest of the test under umask mask (the usual 0022, so that files
// created without an explicit mode would be readable by everyone).
func withUmask(t *testing.T, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// assertPrivate fails for every path under dir that the group or other users may use.
func assertPrivate(t *testing.T, dir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n++
		if info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v, want no group or other permissions", p, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("%s holds %d paths, want an index", dir, n)
	}
}

// loosen gives every directory under dir mode 0755 and every file 0644, as an older Quarry
// left them.
func loosen(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// privateTree is a workspace with a secret only its owner may read.
func privateTree(t *testing.T) string {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	if err := os.WriteFile(filepath.Join(root, "secrets.env"), []byte("TOKEN=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestFreshIndexIsPrivate(t *testing.T) {
	withUmask(t, 0o022)
	root := privateTree(t)
	data := filepath.Join(root, DataDir)
	indexTree(t, root, IndexOptions{}) // a first load: the full-text index filled in bulk
	reg, err := LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Save(); err != nil {
		t.Fatal(err)
	}
	assertPrivate(t, data)

	writeTree(t, root, map[string]string{"more.go": "package main\n\nfunc more() {}\n"})
	indexTree(t, root, IndexOptions{}) // an update: new segments of the full-text index
	assertPrivate(t, data)
	indexTree(t, root, IndexOptions{Force: true}) // a rebuild beside the old index
	assertPrivate(t, data)

	// Open for searching, the store has its -wal and -shm files.
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root), Name: "t"}
	x, err := OpenSearch(e, IndexDir(root, e.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.FileCount(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(StorePath(IndexDir(root, e.ID)) + suffix); err != nil {
			t.Errorf("open store: %v", err)
		}
	}
	assertPrivate(t, data)
}

func TestOpenTightensAnOldIndex(t *testing.T) {
	withUmask(t, 0o022)
	root := privateTree(t)
	data := filepath.Join(root, DataDir)
	indexTree(t, root, IndexOptions{})
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root), Name: "t"}

	loosen(t, data)
	x, err := OpenSearch(e, IndexDir(root, e.ID))
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	assertPrivate(t, data)

	loosen(t, data)
	indexTree(t, root, IndexOptions{})
	assertPrivate(t, data)
}
