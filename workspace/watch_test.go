package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// watchTree starts a watcher over root that indexes into a temporary directory and returns
// its batches; the watcher stops with the test.
func watchTree(t *testing.T, root string, opts WatchOptions) (*Watcher, <-chan WatchBatch) {
	t.Helper()
	indexDir := t.TempDir()
	reg := langs(t)
	batches := make(chan WatchBatch, 100)
	opts.Run = func(ctx context.Context, scope []string) (*Summary, error) {
		return Index(ctx, root, indexDir, reg, IndexOptions{Scope: scope})
	}
	opts.OnBatch = func(b WatchBatch) { batches <- b }
	w, err := NewWatcher(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return w, batches
}

// nextChange waits for a batch that changed something and returns its summary.
func nextChange(t *testing.T, batches <-chan WatchBatch, what string) *Summary {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-batches:
			if b.Err != nil {
				t.Fatalf("%s: batch failed: %v", what, b.Err)
			}
			if s := b.Summary; s.Added+s.Changed+s.Deleted+s.Renamed > 0 {
				return s
			}
		case <-deadline:
			t.Fatalf("%s: no batch changed anything within 10 s", what)
		}
	}
}

// The watcher applies creates, editors' atomic saves, deletes, renames and new
// directories, each as a batch.
func TestWatcherAppliesChanges(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	w, batches := watchTree(t, root, WatchOptions{Debounce: 50 * time.Millisecond})
	if s := nextChange(t, batches, "the first scan"); s.Added != 1 {
		t.Errorf("first scan: %+v, want a.go added", s)
	}
	writeTree(t, root, map[string]string{"b.go": "package a\n\nfunc B() {}\n"})
	if s := nextChange(t, batches, "a new file"); s.Added != 1 {
		t.Errorf("new file: %+v, want 1 added", s)
	}
	// An atomic save: write a temporary file, rename it over the old one.
	tmp := filepath.Join(root, ".a.go.swp")
	if err := os.WriteFile(tmp, []byte("package a\n\nfunc A() {}\n\nfunc A2() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "a.go")); err != nil {
		t.Fatal(err)
	}
	if s := nextChange(t, batches, "an atomic save"); s.Changed != 1 || s.Added != 0 {
		t.Errorf("atomic save: %+v, want a.go changed and nothing added", s)
	}
	writeTree(t, root, map[string]string{"pkg/sub/c.go": "package sub\n\nfunc C() {}\n"})
	if s := nextChange(t, batches, "a new directory"); s.Added != 1 {
		t.Errorf("new directory: %+v, want its file added", s)
	}
	// A file created in the new directory afterwards is seen too: it is watched.
	writeTree(t, root, map[string]string{"pkg/sub/d.go": "package sub\n\nfunc D() {}\n"})
	if s := nextChange(t, batches, "a file in the new directory"); s.Added != 1 {
		t.Errorf("file in new directory: %+v, want 1 added", s)
	}
	if err := os.Remove(filepath.Join(root, "b.go")); err != nil {
		t.Fatal(err)
	}
	if s := nextChange(t, batches, "a delete"); s.Deleted != 1 {
		t.Errorf("delete: %+v, want 1 deleted", s)
	}
	st := w.Status()
	if !st.Running || st.Directories < 3 || st.Events == 0 || st.Batches < 6 || st.Scanning {
		t.Errorf("status %+v: want running, 3+ directories, events and batches counted, no scanning", st)
	}
}

// Many changes at once (a branch switch) are one batch.
func TestWatcherCoalesces(t *testing.T) {
	root := t.TempDir()
	_, batches := watchTree(t, root, WatchOptions{Debounce: 300 * time.Millisecond})
	select {
	case <-batches: // the first scan, of an empty tree
	case <-time.After(10 * time.Second):
		t.Fatal("no first scan")
	}
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("gen", "f"+string(rune('a'+i%26))+string(rune('a'+i/26))+".go")] = "package gen\n"
	}
	writeTree(t, root, files)
	s := nextChange(t, batches, "200 files at once")
	if s.Added != len(files) {
		t.Errorf("one batch added %d files, want all %d", s.Added, len(files))
	}
}

// Where watches run out, the watcher scans instead, and still finds changes.
func TestWatcherFallsBackToScanning(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"x/a.go": "package x\n", "y/b.go": "package y\n"})
	w, batches := watchTree(t, root, WatchOptions{MaxWatches: 1, PollInterval: 100 * time.Millisecond})
	nextChange(t, batches, "the first scan")
	writeTree(t, root, map[string]string{"y/c.go": "package y\n"}) // y is not watched
	if s := nextChange(t, batches, "a change in an unwatched directory"); s.Added != 1 {
		t.Errorf("scan: %+v, want 1 added", s)
	}
	if st := w.Status(); !st.Scanning {
		t.Errorf("status %+v: want scanning", st)
	}
}

// A run that fails (the index busy) is tried again without waiting for another event.
func TestWatcherRetriesAFailedRun(t *testing.T) {
	root := t.TempDir()
	calls := make(chan int, 10)
	n := 0
	w, err := NewWatcher(root, WatchOptions{Run: func(context.Context, []string) (*Summary, error) {
		n++
		calls <- n
		if n == 1 {
			return nil, ErrLocked
		}
		return &Summary{}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = w.Run(ctx) }()
	for want := 1; want <= 2; want++ {
		select {
		case got := <-calls:
			if got != want {
				t.Fatalf("run %d, want %d", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("run %d did not happen (a failed run must be retried)", want)
		}
	}
}

// An update in scope reads and deletes only below its directories, with the ignore rules of
// the directories above them.
func TestIndexScope(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore": "*.log\n",
		"a/x.go":     "package a\n",
		"a/old.go":   "package a\n",
		"b/y.go":     "package b\n",
		"b/gone.go":  "package b\n",
	})
	indexTree(t, root, IndexOptions{})
	writeTree(t, root, map[string]string{
		"a/x.go":      "package a\n\nfunc X() {}\n",
		"a/deep/z.go": "package deep\n",
		"a/debug.log": "ignored by the root's .gitignore\n",
		"b/y.go":      "package b\n\nfunc Y() {}\n",
	})
	for _, p := range []string{"a/old.go", "b/gone.go"} {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	sum := indexTree(t, root, IndexOptions{Scope: []string{"a"}})
	if sum.Changed != 1 || sum.Added != 1 || sum.Deleted != 1 {
		t.Errorf("scope a: %d changed, %d added, %d deleted; want a/x.go changed, a/deep/z.go added (not a/debug.log), a/old.go deleted",
			sum.Changed, sum.Added, sum.Deleted)
	}
	sum = indexTree(t, root, IndexOptions{})
	if sum.Changed != 1 || sum.Added != 0 || sum.Deleted != 1 {
		t.Errorf("then everything: %d changed, %d added, %d deleted; want what scope a left: b/y.go changed, b/gone.go deleted",
			sum.Changed, sum.Added, sum.Deleted)
	}
	checkConsistent(t, root)
}

// Ignored directories cost no watch; an edit of the ignore file that re-includes one gets
// it watched.
func TestWatcherSkipsIgnoredDirectories(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":     "build/\n",
		"a/a.go":         "package a\n",
		"build/x/gen.go": "package x\n",
	})
	w, batches := watchTree(t, root, WatchOptions{Debounce: 50 * time.Millisecond})
	nextChange(t, batches, "the first scan")
	if st := w.Status(); st.Directories != 2 {
		t.Errorf("watching %d directories, want 2 (the root and a/, not the ignored build/)", st.Directories)
	}
	writeTree(t, root, map[string]string{".gitignore": "# nothing ignored\n"})
	if s := nextChange(t, batches, "the ignore file's edit"); s.Added != 1 {
		t.Errorf("after re-including build/: %+v, want build/x/gen.go added", s)
	}
	writeTree(t, root, map[string]string{"build/x/more.go": "package x\n"})
	if s := nextChange(t, batches, "a file in the re-included directory"); s.Added != 1 {
		t.Errorf("a new file in build/x: %+v, want 1 added (the directory is watched now)", s)
	}
	if st := w.Status(); st.Directories != 4 {
		t.Errorf("watching %d directories, want 4", st.Directories)
	}
}
