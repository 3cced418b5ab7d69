package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/grams"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

// openTestWriter opens a writer over a store and a full-text index in dir.
func openTestWriter(t *testing.T, dir string) *Writer {
	t.Helper()
	w, err := OpenWriter(context.Background(), filepath.Join(dir, "db", "symbols.db"), filepath.Join(dir, "fulltext"))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// writeFiles puts recs in one batch of w and commits it.
func writeFiles(t *testing.T, w *Writer, recs ...*store.FileRecord) {
	t.Helper()
	b, err := w.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := b.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// ftCounts returns the symbol documents of w's full-text index, the files of its
// committed content index and the log's entries.
func ftCounts(t *testing.T, w *Writer) (symbols uint64, files int, pending int) {
	t.Helper()
	symbols, err := w.ft.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := w.store.Meta(store.MetaGrams)
	if err != nil {
		t.Fatal(err)
	}
	if raw != "" {
		m, err := grams.ParseManifest(raw)
		if err != nil {
			t.Fatal(err)
		}
		ix, err := grams.Open(w.store.GramsDir(), m)
		if err != nil {
			t.Fatal(err)
		}
		files = ix.Docs()
		ix.Close()
	}
	docs, err := w.store.PendingDocs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return symbols, files, len(docs)
}

// TestWriterKeepsFulltextInStep: what a writer puts reaches the full-text and content
// indexes, and a change the store logged but they never got (a crash between the two) is
// replayed by the next writer.
func TestWriterKeepsFulltextInStep(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	w := openTestWriter(t, dir)
	if w.Status() != fulltext.Ready {
		t.Fatalf("a new index: full-text status %s, want ready (filled as files are written)", w.Status())
	}
	writeFiles(t, w, storetest.Record("a.go", "package a", "A", "B"), storetest.Record("b.go", "package b", "C"))
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if s, f, p := ftCounts(t, w); s != 3 || f != 2 || p != 0 {
		t.Fatalf("after a run: %d symbol and %d file documents, %d pending; want 3, 2, 0", s, f, p)
	}
	// A crash after the store committed a deletion and before bleve got it: the store's own
	// batch logs the documents, nothing applies them.
	sb, err := w.store.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Delete("a.go"); err != nil {
		t.Fatal(err)
	}
	if err := sb.Commit(); err != nil {
		t.Fatal(err)
	}
	if s, f, p := ftCounts(t, w); s != 3 || f != 2 || p != 3 {
		t.Fatalf("after the crash: %d symbol and %d file documents, %d pending; want 3, 2, 3", s, f, p)
	}
	w.Close()

	w = openTestWriter(t, dir)
	defer w.Close()
	// The symbols' documents are replayed at once; the file's entry stays in the log until
	// the content index commits what the writer took from it.
	if s, f, p := ftCounts(t, w); s != 1 || f != 2 || p != 1 {
		t.Errorf("reopened: %d symbol documents and %d files, %d pending; want the symbols replayed: 1, 2, 1", s, f, p)
	}
	// A batch rewriting a file replaces its documents; Finish clears the log.
	writeFiles(t, w, storetest.Record("b.go", "package b2", "C", "D"))
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if s, f, p := ftCounts(t, w); s != 2 || f != 1 || p != 0 {
		t.Errorf("after rewriting b.go: %d symbol and %d file documents, %d pending; want 2, 1, 0", s, f, p)
	}
}

// TestWriterRefillsAnUnfinishedFirstLoad: a first load keeps no pending log, so a load
// killed before Finish has its full-text index refilled from the store by the next writer,
// which answers no search from it until then.
func TestWriterRefillsAnUnfinishedFirstLoad(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	// A load killed before its first commit leaves an empty store, and the full-text
	// documents it applied are dropped.
	w := openTestWriter(t, dir)
	writeFiles(t, w, storetest.Record("x.go", "package x", "X"))
	w.Close()
	w = openTestWriter(t, dir)
	if w.Status() != fulltext.Ready || !w.firstLoad {
		t.Fatalf("after a first load killed before it committed: status %s, first load %v; want ready, a first load again", w.Status(), w.firstLoad)
	}
	w.commitBytes = 1 // commit every batch
	writeFiles(t, w, storetest.Record("a.go", "package a", "A", "B"))
	writeFiles(t, w, storetest.Record("b.go", "package b", "C"))
	if docs, err := w.store.PendingDocs(ctx); err != nil || len(docs) != 0 {
		t.Errorf("a first load logged %d pending documents (%v)", len(docs), err)
	}
	if _, err := os.Stat(fulltext.BuildDir(w.ftDir)); err != nil {
		t.Errorf("a first load fills the full-text index in bulk, but its build directory: %v", err)
	}
	w.Close() // killed: no Finish
	if _, err := os.Stat(fulltext.BuildDir(w.ftDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a closed writer left the bulk fill's build directory (%v)", err)
	}

	w = openTestWriter(t, dir)
	if w.Status() != fulltext.Partial {
		t.Fatalf("after an unfinished first load: full-text status %s, want partial", w.Status())
	}
	if s, err := w.Searcher(); err != nil || s != nil {
		t.Errorf("a writer over a partial full-text index lends a searcher (%v)", err)
	}
	writeFiles(t, w, storetest.Record("c.go", "package c", "E"))
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if s, f, p := ftCounts(t, w); s != 4 || f != 3 || p != 0 {
		t.Errorf("after the next run: %d symbol and %d file documents, %d pending; want 4, 3, 0", s, f, p)
	}
	w.Close()
	w = openTestWriter(t, dir)
	defer w.Close()
	if w.Status() != fulltext.Ready {
		t.Errorf("after a finished run: full-text status %s, want ready", w.Status())
	}
}

// TestRunSearcherFindsUncommittedText: a file an index run has committed to the store but
// not yet to the content index (which commits when the run finishes) is found by its new
// text, and not by its old, through the searcher the run lends.
func TestRunSearcherFindsUncommittedText(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	w := openTestWriter(t, dir)
	writeFiles(t, w, storetest.Record("a.go", "package a\n\nvar oldword = 1\n", "A"), storetest.Record("b.go", "package b\n", "B"))
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	w.Close()

	w = openTestWriter(t, dir)
	defer w.Close()
	writeFiles(t, w, storetest.Record("a.go", "package a\n\nvar newword = 2\n", "A"))
	s, err := w.Searcher()
	if err != nil || s == nil {
		t.Fatalf("Searcher() = %v, %v", s, err)
	}
	lines := func(word string) []string {
		q, err := query.Parse(word)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(ctx, search.Request{Query: q, Target: search.TargetContent, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, fmt.Sprintf("%s:%d", h.Path, h.Line))
		}
		return out
	}
	if got := lines("newword"); !slices.Equal(got, []string{"a.go:3"}) {
		t.Errorf("newword during the run: %v, want [a.go:3]", got)
	}
	if got := lines("oldword"); len(got) != 0 {
		t.Errorf("oldword during the run: %v, want nothing (the store has the new text)", got)
	}
}
