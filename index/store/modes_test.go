package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrysearch/quarry/index/store"
)

// Tighten removes the group's and others' bits, keeps the owner's, and leaves a symbolic
// link's target alone.
func TestTighten(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]os.FileMode{"a": 0o644, "sub/b": 0o666, "sub/ro": 0o444, "sub/x": 0o755, "private": 0o600}
	for name, mode := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.WriteFile(p, nil, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(sub, "link")); err != nil {
		t.Fatal(err)
	}
	if err := store.Tighten(dir); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{".": 0o700, "sub": 0o700, "a": 0o600, "sub/b": 0o600, "sub/ro": 0o400, "sub/x": 0o700, "private": 0o600}
	for name, mode := range want {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("Tighten: %s has mode %v, want %v", name, st.Mode().Perm(), mode)
		}
	}
	if st, err := os.Stat(outside); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("Tighten changed a symbolic link's target outside the directory: %v, %v", st, err)
	}
	if err := store.Tighten(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("Tighten(missing directory) = %v, want nil", err)
	}
}
