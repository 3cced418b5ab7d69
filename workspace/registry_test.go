package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindRoot(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	deep := filepath.Join(base, "repo", "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := FindRoot(deep); got != deep {
		t.Errorf("FindRoot without markers = %s, want %s", got, deep)
	}
	os.Mkdir(filepath.Join(base, "repo", ".git"), 0o755)
	if got, _ := FindRoot(deep); got != filepath.Join(base, "repo") {
		t.Errorf("FindRoot in a git tree = %s", got)
	}
	os.Mkdir(filepath.Join(base, "repo", "a", DataDir), 0o755)
	if got, _ := FindRoot(deep); got != filepath.Join(base, "repo", "a") {
		t.Errorf("FindRoot under .quarry = %s", got)
	}
	if _, err := FindRoot(filepath.Join(base, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("FindRoot(missing) = %v", err)
	}
	file := filepath.Join(base, "f.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	if _, err := CanonicalDir(file); !errors.Is(err, ErrNotDirectory) {
		t.Errorf("CanonicalDir(file) = %v", err)
	}
}

func TestID(t *testing.T) {
	a, b := ID("/home/u/src/My Project"), ID("/tmp/My Project")
	if !strings.HasPrefix(a, "my_project_") || len(a) != len("my_project_")+8 {
		t.Errorf("ID = %q", a)
	}
	if a == b {
		t.Errorf("two checkouts of one project share the id %s", a)
	}
	if ID("/home/u/src/My Project") != a {
		t.Errorf("ID is not stable")
	}
}

func TestRegistry(t *testing.T) {
	primary, _ := filepath.EvalSymlinks(t.TempDir())
	ref, _ := filepath.EvalSymlinks(t.TempDir())
	r, err := LoadRegistry(primary)
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Add(ref, "lib")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Add(ref, ""); again.ID != e.ID || len(r.References) != 1 {
		t.Errorf("adding twice: %v, %d references", again, len(r.References))
	}
	if _, err := r.Add(primary, ""); err == nil {
		t.Errorf("adding the primary as a reference succeeded")
	}
	if _, err := r.Add(filepath.Join(ref, "missing"), ""); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("adding a missing directory = %v", err)
	}
	if err := r.Save(); err != nil {
		t.Fatal(err)
	}
	r2, err := LoadRegistry(primary)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r2.Lookup("lib"); err != nil || got.ID != e.ID {
		t.Errorf("Lookup(lib) after reload = %v, %v", got, err)
	}
	_, err = r2.Lookup(e.ID[:len(e.ID)-1] + "x")
	if !errors.Is(err, ErrUnknownWorkspace) || !strings.Contains(err.Error(), "did you mean "+e.ID) {
		t.Errorf("Lookup(typo) = %v", err)
	}
	if _, err := r2.Remove(e.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Remove(e.ID); !errors.Is(err, ErrUnknownWorkspace) {
		t.Errorf("second Remove = %v", err)
	}
	os.WriteFile(filepath.Join(primary, DataDir, registryFile), []byte("{"), 0o644)
	if _, err := LoadRegistry(primary); err == nil || !strings.Contains(err.Error(), "not a valid registry") {
		t.Errorf("LoadRegistry(corrupt) = %v", err)
	}
}

// TestRegistryCacheSeesWrites: a registry read again after Save, or after the file was
// rewritten in place, is the new one; a registry returned is the caller's to change.
func TestRegistryCacheSeesWrites(t *testing.T) {
	root := t.TempDir()
	r, err := LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Save(); err != nil {
		t.Fatal(err)
	}
	first, err := LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	first.Primary.Name = "changed by a caller" // not saved: the next load must not see it
	again, err := LoadRegistry(root)
	if err != nil || again.Primary.Name == "changed by a caller" {
		t.Fatalf("a caller's change to a loaded registry leaked into the next load: %+v %v", again.Primary, err)
	}
	ref := t.TempDir()
	if _, err := again.Add(ref, "ref"); err != nil {
		t.Fatal(err)
	}
	if err := again.Save(); err != nil {
		t.Fatal(err)
	}
	if after, err := LoadRegistry(root); err != nil || len(after.References) != 1 {
		t.Fatalf("after Save: %d references, %v; want 1", len(after.References), err)
	}
	// rewritten in place (same inode), as an editor or a script may
	p := filepath.Join(root, DataDir, registryFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"name": "ref"`, `"name": "refX"`, 1)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(edited); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if after, err := LoadRegistry(root); err != nil || len(after.References) != 1 || after.References[0].Name != "refX" {
		t.Fatalf("after an edit in place: %+v, %v; want the reference named refX", after.References, err)
	}
}
