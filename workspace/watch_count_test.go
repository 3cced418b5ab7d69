package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Deleting 50 files is 50 deleted in the watcher's batches, whether they go one by one or
// with their directory, and nothing added.
func TestWatcherCountsDeletions(t *testing.T) {
	for _, how := range []string{"files", "directory", "root"} {
		t.Run(how, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{"keep.go": "package a\n\nfunc Keep() {}\n"}
			for i := range 50 {
				files[fmt.Sprintf("gone/f%d.go", i)] = fmt.Sprintf("package gone\n\nfunc F%d() {}\n", i)
				if how == "root" {
					files[fmt.Sprintf("r%d.txt", i)] = "same text\n"
				}
			}
			writeTree(t, root, files)
			_, batches := watchTree(t, root, WatchOptions{Debounce: 50 * time.Millisecond})
			if s := nextChange(t, batches, "the first scan"); s.Added != len(files) {
				t.Fatalf("first scan: %+v, want 51 added", s)
			}
			if how == "root" {
				for i := range 50 {
					if err := os.Remove(filepath.Join(root, fmt.Sprintf("r%d.txt", i))); err != nil {
						t.Fatal(err)
					}
				}
			} else if how == "files" {
				for i := range 50 {
					if err := os.Remove(filepath.Join(root, fmt.Sprintf("gone/f%d.go", i))); err != nil {
						t.Fatal(err)
					}
				}
			} else if err := os.RemoveAll(filepath.Join(root, "gone")); err != nil {
				t.Fatal(err)
			}
			var added, deleted int
			for deleted < 50 {
				s := nextChange(t, batches, "the deletions")
				added += s.Added
				deleted += s.Deleted
				t.Logf("batch: %d added, %d changed, %d renamed, %d deleted", s.Added, s.Changed, s.Renamed, s.Deleted)
				if s.Added+s.Changed+s.Renamed > 0 {
					break
				}
			}
			if added != 0 || deleted != 50 {
				t.Errorf("deleting 50 files: %d added, %d deleted; want 0 added, 50 deleted", added, deleted)
			}
		})
	}
}

// Changes another index run applied before the watcher's batch (a search bringing the files
// it answers from up to date) count in the batch: 50 deleted files and one new are "1 added,
// 50 deleted", where the batch, finding them done, used to say "0 added, 0 deleted".
func TestWatcherCountsChangesAppliedByOthers(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"keep.go": "package a\n\nfunc Keep() {}\n"}
	for i := range 50 {
		files[fmt.Sprintf("f%d.go", i)] = fmt.Sprintf("package a\n\nfunc F%d() {}\n", i)
	}
	writeTree(t, root, files)
	indexDir := t.TempDir()
	reg := langs(t)
	batches := make(chan WatchBatch, 100)
	w, err := NewWatcher(root, WatchOptions{
		Debounce: 300 * time.Millisecond,
		Run: func(ctx context.Context, scope []string) (*Summary, error) {
			return Index(ctx, root, indexDir, reg, IndexOptions{Scope: scope})
		},
		OnBatch: func(b WatchBatch) { batches <- b },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	if s := nextChange(t, batches, "the first scan"); s.Added != 51 {
		t.Fatalf("first scan: %+v, want 51 added", s)
	}
	for i := range 50 {
		if err := os.Remove(filepath.Join(root, fmt.Sprintf("f%d.go", i))); err != nil {
			t.Fatal(err)
		}
	}
	writeTree(t, root, map[string]string{"new.go": "package a\n\nfunc New() {}\n"})
	// Another run applies the changes first, and tells the watcher (when it comes after the
	// watcher's batch instead, it finds nothing to do: the totals are the same).
	for {
		sum, err := Index(context.Background(), root, indexDir, reg, IndexOptions{})
		if errors.Is(err, ErrLocked) {
			time.Sleep(10 * time.Millisecond) // the watcher's batch runs: try again after it
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Applied(sum)
		break
	}
	var added, deleted int
	for deleted < 50 || added < 1 {
		select {
		case b := <-batches:
			if b.Err != nil {
				continue // the other run held the lock: the watcher tries again
			}
			added += b.Summary.Added
			deleted += b.Summary.Deleted
			if b.Events > 0 && (added != 1 || deleted != 50) {
				t.Fatalf("the batch of 51 events: %d added, %d deleted in all; want 1 added, 50 deleted", added, deleted)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no batch of the changes within 10 s: %d added, %d deleted so far", added, deleted)
		}
	}
}
