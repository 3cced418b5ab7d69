package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
	"github.com/quarrysearch/quarry/workspace"
)

// freshRepo indexes a workspace of n Python files and returns its service and root.
func freshRepo(t *testing.T, n int) (*Service, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("pkg/mod%02d.py", i)] = fmt.Sprintf("import os\n\n\ndef handler%d():\n    return %d\n", i, i)
	}
	testkit.WriteFiles(t, root, files)
	return indexedService(t, root), root
}

// appendLine appends line to the file p under root and moves its modification time on.
func appendLine(t *testing.T, root, p, line string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	f, err := os.OpenFile(full, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(full, later, later); err != nil {
		t.Fatal(err)
	}
}

// With no watcher, a file changed since indexing is searched as it is now: echo "# marker"
// >> app.py; quarry search marker finds it (it said nothing found, while health counted 1
// modified file).
func TestSearchAppliesAFewChangedFiles(t *testing.T) {
	s, root := freshRepo(t, 3)
	appendLine(t, root, "pkg/mod01.py", "# marker")
	res, err := s.Search(context.Background(), SearchRequest{Query: "marker", Target: "content"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].Path != "pkg/mod01.py" || res.Results[0].Line != 6 || res.Results[0].Stale {
		t.Fatalf("search marker after appending it: %+v; want pkg/mod01.py:6, not stale", res.Results)
	}
	if res.Notice != "" {
		t.Errorf("notice %q: the change was applied, nothing is missing", res.Notice)
	}
	appendLine(t, root, "pkg/mod02.py", "# beacon")
	doc, err := s.Search(context.Background(), SearchRequest{Query: "lex: beacon\nlex: nothing", Target: "content"})
	if err != nil || len(doc.Results) != 1 || doc.Results[0].Path != "pkg/mod02.py" || doc.Results[0].Stale {
		t.Fatalf("query document lex: beacon after appending it: %+v, %v; want pkg/mod02.py, not stale", doc, err)
	}
	got, err := s.Goto(context.Background(), GotoRequest{Symbol: "handler9"})
	if err != nil || len(got.Results) != 0 {
		t.Errorf("goto handler9: %+v, %v; want none", got, err)
	}
	testkit.WriteFiles(t, root, map[string]string{"pkg/new.py": "def handler9():\n    pass\n"})
	if got, err = s.Goto(context.Background(), GotoRequest{Symbol: "handler9"}); err != nil || len(got.Results) != 1 || got.Results[0].Path != "pkg/new.py" {
		t.Errorf("goto handler9 after adding pkg/new.py: %+v, %v; want it there", got, err)
	}
}

// A search that cannot update the index (another holder has it open; a read-only .quarry
// fails the same way) still answers, with the notice naming the changed file.
func TestSearchNoticesChangesItCannotApply(t *testing.T) {
	s, root := freshRepo(t, 2)
	reg, err := workspace.LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	hold, err := workspace.OpenSearch(reg.Primary, workspace.IndexDir(root, reg.Primary.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	appendLine(t, root, "pkg/mod00.py", "# marker")
	res, err := s.Search(context.Background(), SearchRequest{Query: "handler0", Target: "definitions"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "pkg/mod00.py changed since the last index"; !strings.Contains(res.Notice, want) {
		t.Errorf("notice %q, want %q", res.Notice, want)
	}
}

// killedRun leaves the index of root as a killed index run does: the store committed a
// batch (files written, their full-text documents logged) that the full-text index never
// got. The files are on disk as the store has them, so nothing looks changed.
func killedRun(t *testing.T, root string, files map[string]string) {
	t.Helper()
	testkit.WriteFiles(t, root, files)
	reg, err := workspace.LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(workspace.StorePath(workspace.IndexDir(root, reg.Primary.ID)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		rec := &store.FileRecord{Path: p, Language: "python", Hash: p, Size: info.Size(), MTime: info.ModTime().UnixNano(), Content: []byte(content)}
		if err := b.Put(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
}

// markerFiles returns n files of two marker lines each.
func markerFiles(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("gen/m%02d.py", i)] = fmt.Sprintf("# marker %d\nx = %d\n# marker again\n", i, i)
	}
	return files
}

// After a killed index run, a search does not answer from a full-text index behind the
// store as if it were whole (type:line marker gave 200 of 600 lines, truncated false, no
// notice): it replays the run's log first and finds every line.
func TestSearchRepairsAfterAKilledRun(t *testing.T) {
	s, root := freshRepo(t, 2)
	killedRun(t, root, markerFiles(5))
	res, err := s.Search(context.Background(), SearchRequest{Query: "type:line marker", Limit: intp(100)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 10 || res.Notice != "" {
		t.Errorf("type:line marker after a killed run: %d lines, notice %q; want all 10, no notice (the log replayed)", len(res.Results), res.Notice)
	}
	h, err := s.Health(context.Background(), HealthRequest{})
	if err != nil || h.Fulltext.Status != workspace.FulltextReady {
		t.Errorf("health after the search: full-text %+v, %v; want ready", h.Fulltext, err)
	}
}

// When the log cannot be replayed (the index is held), the answer says it may miss results.
func TestSearchNoticesAnInconsistentIndex(t *testing.T) {
	s, root := freshRepo(t, 2)
	killedRun(t, root, markerFiles(5))
	reg, err := workspace.LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	hold, err := workspace.OpenSearch(reg.Primary, workspace.IndexDir(root, reg.Primary.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	res, err := s.Search(context.Background(), SearchRequest{Query: "type:line marker", Limit: intp(100)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notice, "an index run did not finish") || !strings.Contains(res.Notice, "results may be missing") {
		t.Errorf("notice %q (%d results); want it to say the index is behind", res.Notice, len(res.Results))
	}
}

// Under a watcher of this process nothing is checked or indexed by a search: the watcher
// applies the changes (no double indexing).
func TestSearchLeavesChangesToTheWatcher(t *testing.T) {
	s, root := freshRepo(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	batches := make(chan workspace.WatchBatch, 10)
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx, func(b workspace.WatchBatch) { batches <- b }) }()
	<-batches // the first scan
	appendLine(t, root, "pkg/mod00.py", "# marker")
	xs, err := s.OpenIndexes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if f := s.freshness(context.Background(), xs); f != nil {
		t.Errorf("freshness under a watcher = %+v, want no check", f)
	}
	s.Release(xs)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	xs, err = s.OpenIndexes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release(xs)
	if f := s.freshness(context.Background(), xs); f == nil {
		t.Errorf("freshness with no watcher: no check")
	}
}

// After a first index run that did not finish, a search does not refill the full-text index
// (quarry index's work, more than its budget), and says that results may be missing.
func TestSearchNoticesAnUnfinishedFirstLoad(t *testing.T) {
	s, root := freshRepo(t, 2)
	reg, err := workspace.LoadRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(workspace.StorePath(workspace.IndexDir(root, reg.Primary.ID)))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetMeta("first_load", "1"); err != nil { // what a killed first run leaves
		t.Fatal(err)
	}
	st.Close()
	res, err := s.Search(context.Background(), SearchRequest{Query: "handler0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notice, "the first index run did not finish") {
		t.Errorf("notice %q, want it to say the first index run did not finish", res.Notice)
	}
}

// TestFreshNoticeUnreadable: files that changed and cannot be read are said as such, with
// no "run quarry index" (a run cannot read them either); nothing else is then said.
func TestFreshNoticeUnreadable(t *testing.T) {
	one := &workspace.Freshness{Changes: workspace.Changes{Unreadable: 1, UnreadablePaths: []string{"secret.go"}}}
	if got := freshNotice(one); got != "secret.go changed and cannot be read (permission denied): results hold what the index last read of them; quarry health lists them" {
		t.Errorf("one unreadable: %q", got)
	}
	two := &workspace.Freshness{Changes: workspace.Changes{Unreadable: 2, UnreadablePaths: []string{"a", "b"}}}
	if got := freshNotice(two); !strings.HasPrefix(got, "2 changed files cannot be read") || strings.Contains(got, "run quarry index") {
		t.Errorf("two unreadable: %q", got)
	}
}
