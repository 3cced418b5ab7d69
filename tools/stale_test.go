package tools

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools/internal/testkit"
	"github.com/quarrysearch/quarry/workspace"
)

// staleRepo indexes a workspace of one Go file and returns the service and the file's path.
func staleRepo(t *testing.T) (*Service, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "pool.go")
	if err := os.WriteFile(file, []byte("package pool\n\n// Acquire takes a connection.\nfunc Acquire() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return indexedService(t, root), file
}

// A search answering from a file edited since it was indexed brings the index up to date
// first: the agent gets the line the definition is on now, not where it was.
func TestSearchRefreshesEditedFiles(t *testing.T) {
	s, file := staleRepo(t)
	ctx := context.Background()
	res, err := s.Search(ctx, SearchRequest{Query: "Acquire", Target: "definitions"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Line != 4 || res.Results[0].Stale {
		t.Fatalf("before the edit: %+v, %v; want Acquire at line 4, not stale", res, err)
	}
	testkit.Edit(t, file, "package pool\n\nimport \"errors\"\n\nvar ErrClosed = errors.New(\"closed\")\n\n// Acquire takes a connection.\nfunc Acquire() {}\n")
	res, err = s.Search(ctx, SearchRequest{Query: "Acquire", Target: "definitions"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Line != 8 || res.Results[0].Stale {
		t.Fatalf("after the edit: %+v, %v; want Acquire at line 8 (re-indexed), not stale", res, err)
	}
}

// The service's watcher applies an edit, and health reports it while it runs.
func TestServiceWatch(t *testing.T) {
	s, file := staleRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	batches := make(chan workspace.WatchBatch, 10)
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx, func(b workspace.WatchBatch) { batches <- b }) }()
	<-batches // the first scan
	testkit.Edit(t, file, "package pool\n\n// Acquire takes a connection.\nfunc Acquire() {}\n\n// Release gives it back.\nfunc Release() {}\n")
	select {
	case b := <-batches:
		if b.Err != nil || b.Summary.Changed != 1 {
			t.Errorf("batch %+v, want pool.go changed", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no batch within 10 s of an edit")
	}
	res, err := s.Search(ctx, SearchRequest{Query: "Release", Target: "definitions"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Name != "Release" || res.Results[0].Stale {
		t.Errorf("search after the batch: %+v, %v", res, err)
	}
	h, err := s.Health(ctx, HealthRequest{})
	if err != nil || h.Watch == nil || !h.Watch.Running || h.Watch.Batches < 2 || h.Watch.Directories < 1 {
		t.Errorf("health while watching: watch %+v, %v", h.Watch, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Watch: %v", err)
	}
	if h, err := s.Health(context.Background(), HealthRequest{}); err != nil || h.Watch != nil {
		t.Errorf("health after the watcher stopped: watch %+v, %v; want none", h.Watch, err)
	}
}

// While an index run of this process writes, searches answer from what it committed,
// without waiting for it or failing: the run lends them its index.
func TestSearchDuringIndexRun(t *testing.T) {
	s, file := staleRepo(t)
	ctx := context.Background()
	finish := holdRun(t, s, file, IndexRequest{})
	for range 5 {
		start := time.Now()
		res, err := s.Search(ctx, SearchRequest{Query: "Acquire", Target: "definitions"})
		if err != nil || len(res.Results) == 0 || res.Results[0].Name != "Acquire" || !res.Results[0].Stale {
			t.Fatalf("search during the run: %+v, %v; want Acquire, marked stale (the run has not applied the edit yet)", res, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("search during the run took %v: it waited for the run", d)
		}
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(ctx, SearchRequest{Query: "Extra", Target: "definitions"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Name != "Extra" {
		t.Errorf("after the run: %+v, %v", res, err)
	}
}

// A forced run builds the new index beside the old one: searches meanwhile answer from the
// old index (not busy, not waiting, not empty), and after it from the new one.
func TestSearchDuringForcedRun(t *testing.T) {
	s, file := staleRepo(t)
	ctx := context.Background()
	finish := holdRun(t, s, file, IndexRequest{Force: true})
	for _, q := range []string{"Acquire", "Extra"} {
		start := time.Now()
		res, err := s.Search(ctx, SearchRequest{Query: q, Target: "definitions"})
		if err != nil {
			t.Fatalf("search %s during the forced run: %v", q, err)
		}
		if q == "Acquire" && (len(res.Results) == 0 || res.Results[0].Name != "Acquire") {
			t.Errorf("search Acquire during the forced run: %+v; want the old index's Acquire", res.Results)
		}
		if q == "Extra" && len(res.Results) > 0 && res.Results[0].Name == "Extra" {
			t.Errorf("search Extra during the forced run found it: the old index does not hold it")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("search during the forced run took %v: it waited for the run", d)
		}
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(ctx, SearchRequest{Query: "Extra", Target: "definitions"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Name != "Extra" {
		t.Errorf("after the forced run: %+v, %v; want Extra from the new index", res, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(file), workspace.DataDir, "indexes", workspace.ID(filepath.Dir(file)), "rebuild")); !os.IsNotExist(err) {
		t.Errorf("the rebuild directory is left behind: %v", err)
	}
}

// holdRun adds a function Extra to file and starts s.Index(req); it returns once the run
// has lent its index, which the run keeps lent until finish lets it end (finish returns the
// run's error). Later runs are not held.
func holdRun(t *testing.T, s *Service, file string, req IndexRequest) (finish func() error) {
	t.Helper()
	inRun, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	testHookLent = func() {
		once.Do(func() {
			close(inRun)
			<-release // the run stays in progress until the test is done with it
		})
	}
	t.Cleanup(func() { testHookLent = nil })
	testkit.Edit(t, file, "package pool\n\n// Acquire takes a connection.\nfunc Acquire() {}\n\nfunc Extra() {}\n")
	done := make(chan error, 1)
	go func() {
		_, err := s.Index(context.Background(), req)
		done <- err
	}()
	select {
	case <-inRun:
	case <-time.After(10 * time.Second):
		t.Fatal("the index run did not lend its index")
	}
	return func() error {
		close(release)
		return <-done
	}
}
