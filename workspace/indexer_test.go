package workspace

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
)

func langs(t testing.TB) *languages.Registry {
	t.Helper()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// writeTree writes files (path → content) under root.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func indexTree(t testing.TB, root string, opts IndexOptions) *Summary {
	t.Helper()
	sum, err := Index(context.Background(), root, IndexDir(root, ID(mustCanon(t, root))), langs(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func mustCanon(t testing.TB, dir string) string {
	t.Helper()
	c, err := CanonicalDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkConsistent asserts that the store and the full-text index agree.
func checkConsistent(t *testing.T, root string) store.Counts {
	t.Helper()
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root), Name: "t"}
	h, err := CheckHealth(context.Background(), e, IndexDir(root, e.ID), false)
	if err != nil {
		t.Fatal(err)
	}
	if h.Fulltext.Status != FulltextReady {
		t.Fatalf("full-text status %s: %+v (problems %v)", h.Fulltext.Status, h.Fulltext, h.Problems)
	}
	return h.Store.Counts
}

var goFile = "package p\n\n// %s does things.\nfunc %s() int { return %d }\n"

func TestIncremental(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.go":          fmt.Sprintf(goFile, "A", "A", 1),
		"b.go":          fmt.Sprintf(goFile, "B", "B", 2),
		"docs/notes.md": "connection pool notes\n",
		"bin.dat":       "\x00\x01\x02",
	})
	sum := indexTree(t, root, IndexOptions{})
	if sum.Added != 3 || sum.Extracted != 3 || sum.Skipped[extract.SkipBinary] != 1 { // the Markdown file too (no heading: no symbol)
		t.Errorf("first run: %+v", sum)
	}
	c := checkConsistent(t, root)
	if c.Files != 3 || c.Symbols != 4 { // 2 packages + 2 functions
		t.Errorf("counts after first run: %+v", c)
	}

	sum = indexTree(t, root, IndexOptions{})
	if sum.Unchanged != 3 || sum.Extracted != 0 || sum.Added+sum.Changed+sum.Deleted != 0 || sum.BytesRead != 0 {
		t.Errorf("second run on an unchanged tree did work: %+v", sum)
	}

	time.Sleep(10 * time.Millisecond) // a new mtime
	writeTree(t, root, map[string]string{"a.go": fmt.Sprintf(goFile, "A2", "A2", 3), "c.go": fmt.Sprintf(goFile, "C", "C", 4)})
	os.Remove(filepath.Join(root, "b.go"))
	os.Rename(filepath.Join(root, "docs/notes.md"), filepath.Join(root, "docs/pool.md"))
	sum = indexTree(t, root, IndexOptions{})
	if sum.Changed != 1 || sum.Added != 1 || sum.Deleted != 1 || sum.Renamed != 1 || sum.Extracted != 2 {
		t.Errorf("run after edits: %+v", sum)
	}
	c = checkConsistent(t, root)
	if c.Files != 3 || c.Symbols != 4 {
		t.Errorf("counts after edits: %+v", c)
	}
	st, err := store.Open(StorePath(IndexDir(root, ID(mustCanon(t, root)))))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	files, _ := st.Files(context.Background())
	if _, ok := files["b.go"]; ok {
		t.Errorf("deleted b.go is still stored")
	}
	if _, ok := files["docs/pool.md"]; !ok {
		t.Errorf("renamed docs/pool.md is not stored: %v", files)
	}
	if f := files["bin.dat"]; f.Skipped != extract.SkipBinary {
		t.Errorf("bin.dat stored as %+v, want skipped binary", f)
	}
}

// TestRenameMovesTheExtraction proves a renamed file is moved, not parsed again, and ends
// up exactly as if it had been extracted at its new path.
func TestRenameMovesTheExtraction(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	src := "package p\n\n// Pool holds connections.\ntype Pool struct{ n int }\n\n// Get takes one.\nfunc (p *Pool) Get() int { return helper(p.n) }\n"
	writeTree(t, root, map[string]string{"a.go": src, "b.go": fmt.Sprintf(goFile, "B", "B", 2), "keep.go": fmt.Sprintf(goFile, "K", "K", 3)})
	indexTree(t, root, IndexOptions{})
	before := checkConsistent(t, root)

	if err := os.MkdirAll(filepath.Join(root, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Rename(filepath.Join(root, "a.go"), filepath.Join(root, "pkg", "moved.go")))
	must(os.Rename(filepath.Join(root, "b.go"), filepath.Join(root, "b.txt"))) // another language: no extractor
	sum := indexTree(t, root, IndexOptions{})
	if sum.Renamed != 2 || sum.Deleted != 0 || sum.Added != 0 || sum.Extracted != 0 || sum.Unchanged != 1 {
		t.Errorf("run after two renames: %+v; want 2 renamed, nothing extracted, added or deleted", sum)
	}
	after := checkConsistent(t, root)
	if after.Files != before.Files || after.Symbols != before.Symbols-2 { // b.txt keeps no symbols
		t.Errorf("counts %+v after renames, before %+v", after, before)
	}

	st, err := store.Open(StorePath(IndexDir(root, ID(mustCanon(t, root)))))
	must(err)
	defer st.Close()
	got, err := st.LoadExtract(ctx, "pkg/moved.go")
	must(err)
	want, err := extract.New(langs(t), extract.Options{}).Extract(ctx, "pkg/moved.go", []byte(src), nil)
	must(err)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("moved extraction:\n%+v\nwant, as extracted at the new path:\n%+v", got, want)
	}
	for _, old := range []string{"a.go", "b.go"} {
		if f, err := st.LoadExtract(ctx, old); f != nil || err != nil {
			t.Errorf("%s is still stored after its rename: %v %v", old, f, err)
		}
	}
	if f, err := st.LoadExtract(ctx, "b.txt"); f != nil || err != nil {
		t.Errorf("b.txt has an extraction: %v %v", f, err)
	}
}

func TestFulltextRebuiltWhenMissingOrCorrupt(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": fmt.Sprintf(goFile, "A", "A", 1), "b.py": "def hello():\n    pass\n"})
	indexTree(t, root, IndexOptions{})
	ftDir := FulltextPath(IndexDir(root, ID(mustCanon(t, root))))
	want := checkConsistent(t, root)

	os.RemoveAll(ftDir)
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root)}
	if h, _ := CheckHealth(context.Background(), e, IndexDir(root, e.ID), false); h.Status != Unhealthy || h.Fulltext.Status != FulltextMissing {
		t.Errorf("health with the full-text index removed: %s / %s", h.Status, h.Fulltext.Status)
	}
	sum := indexTree(t, root, IndexOptions{})
	if !strings.Contains(sum.Fulltext, "rebuilt") {
		t.Errorf("Fulltext = %q, want a rebuild", sum.Fulltext)
	}
	if got := checkConsistent(t, root); got != want {
		t.Errorf("after rebuild: %+v, want %+v", got, want)
	}

	entries, _ := os.ReadDir(ftDir)
	for _, e := range entries {
		os.WriteFile(filepath.Join(ftDir, e.Name()), []byte("garbage"), 0o644)
	}
	sum = indexTree(t, root, IndexOptions{})
	if !strings.Contains(sum.Fulltext, "corrupt") {
		t.Errorf("Fulltext = %q, want corrupt and rebuilt", sum.Fulltext)
	}
	if got := checkConsistent(t, root); got != want {
		t.Errorf("after corrupt rebuild: %+v, want %+v", got, want)
	}
}

func TestHealthReportsStaleFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": fmt.Sprintf(goFile, "A", "A", 1)})
	indexTree(t, root, IndexOptions{})
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root)}
	h, err := CheckHealth(context.Background(), e, IndexDir(root, e.ID), false)
	if err != nil || h.Status != Healthy {
		t.Fatalf("health after index: %v %+v", err, h)
	}
	time.Sleep(10 * time.Millisecond)
	writeTree(t, root, map[string]string{"a.go": "package p\n", "new.go": "package p\n"})
	h, _ = CheckHealth(context.Background(), e, IndexDir(root, e.ID), false)
	if h.Status != Unhealthy || h.Changed.Modified != 1 || h.Changed.Added != 1 {
		t.Errorf("health after edits: %s %+v", h.Status, h.Changed)
	}
	if len(h.Problems) == 0 || !strings.Contains(h.Problems[0].Action, "quarry index") {
		t.Errorf("problems = %+v", h.Problems)
	}
}

func TestIndexBadRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.go")
	os.WriteFile(file, []byte("package f"), 0o644)
	for _, root := range []string{filepath.Join(dir, "missing"), file} {
		if _, err := Index(context.Background(), root, filepath.Join(dir, "ix"), langs(t), IndexOptions{}); err == nil {
			t.Errorf("Index(%s) succeeded", root)
		}
	}
}

// killEnv makes the test binary, run as a subprocess, index the tree it names and exit.
const killEnv = "QUARRY_TEST_INDEX_ROOT"

func TestMain(m *testing.M) {
	if root := os.Getenv(killEnv); root != "" {
		reg, _ := languages.Default()
		_, err := Index(context.Background(), root, IndexDir(root, ID(root)), reg, IndexOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKillAndRepair kills an index run at random moments, many times, and checks that the
// next run always leaves a store and a full-text index that agree with the files on disk.
func TestKillAndRepair(t *testing.T) {
	if testing.Short() {
		t.Skip("kills subprocesses")
	}
	root := mustCanon(t, t.TempDir())
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("pkg%d/f%d.go", i%7, i)] = fmt.Sprintf(goFile, "F", fmt.Sprintf("F%d", i), i) + strings.Repeat("// filler line\n", 50)
	}
	writeTree(t, root, files)
	const rounds = 20
	killed := 0
	for round := range rounds {
		// Change some files so every run has work to do.
		for i := range 150 {
			n := rng.IntN(300)
			p := fmt.Sprintf("pkg%d/f%d.go", n%7, n)
			writeTree(t, root, map[string]string{p: fmt.Sprintf(goFile, "G", fmt.Sprintf("G%d_%d", round, i), i)})
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killEnv+"="+root)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err != nil && strings.Contains(err.Error(), "killed") {
			killed++
		}
		indexTree(t, root, IndexOptions{})
		c := checkConsistent(t, root)
		if c.Files != 300 || c.Pending != 0 {
			t.Fatalf("round %d: counts %+v, want 300 files and nothing pending", round, c)
		}
	}
	t.Logf("%d of %d runs killed mid-way", killed, rounds)
	if killed < rounds/4 {
		t.Errorf("only %d of %d runs were killed before they finished: the test proves little", killed, rounds)
	}
}

// TestFilesWithoutSymbolsReachTheFulltextIndex covers a batch made only of files without
// symbols (text of no known language) in a first, bulk load.
func TestFilesWithoutSymbolsReachTheFulltextIndex(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 3 * writeBatchFiles {
		files[fmt.Sprintf("notes/n%03d.txt", i)] = fmt.Sprintf("note %d about connection pools\n", i)
	}
	writeTree(t, root, files)
	indexTree(t, root, IndexOptions{})
	if c := checkConsistent(t, root); c.Files != 3*writeBatchFiles {
		t.Errorf("counts %+v", c)
	}
}

// A forced run cut short leaves the old index as it was; one killed while moving its new
// index in place is completed by the next run, which then holds the new index.
func TestForcedRebuildRollsForward(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc Old() {}\n"})
	indexTree(t, root, IndexOptions{})
	dir := IndexDir(root, ID(mustCanon(t, root)))
	next := filepath.Join(dir, rebuildDir)

	// Unfinished: no completion mark. The next run removes it and keeps the old index.
	writeTree(t, next, map[string]string{"db/symbols.db": "half written"})
	if sum := indexTree(t, root, IndexOptions{}); sum.Unchanged != 1 {
		t.Errorf("after an unfinished rebuild: %+v; want the old index, a.go unchanged", sum)
	}
	if _, err := os.Stat(next); !os.IsNotExist(err) {
		t.Errorf("the unfinished rebuild is still there: %v", err)
	}

	// Finished, and killed after moving the store but not the full-text index.
	other := t.TempDir()
	writeTree(t, other, map[string]string{"a.go": "package a\n\nfunc New() {}\n"})
	otherDir := IndexDir(other, ID(mustCanon(t, other)))
	indexTree(t, other, IndexOptions{})
	if err := os.MkdirAll(next, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(FulltextPath(otherDir), filepath.Join(next, fulltextDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(next, completeFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Dir(StorePath(dir))); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Dir(StorePath(otherDir)), filepath.Dir(StorePath(dir))); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc New() {}\n"})
	indexTree(t, root, IndexOptions{})
	if _, err := os.Stat(next); !os.IsNotExist(err) {
		t.Errorf("the finished rebuild is still there: %v", err)
	}
	x, err := OpenSearch(Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root)}, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	res, err := x.Searcher().Search(context.Background(), withDefaults(search.Request{Query: q("New"), Target: search.TargetDefinitions}))
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Name != "New" {
		t.Errorf("after rolling forward: %+v, %v; want New from the moved full-text index", res, err)
	}
}

// A file that became a named pipe after the walk listed it is skipped, not opened for
// reading (which would wait for a writer forever): the run ends.
func TestReadRegularFileRefusesPipes(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadRegularFile(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadRegularFile(a pipe) = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadRegularFile(a pipe) blocked")
	}
	if content, reason := readRegular(fifo); content != nil || reason != extract.SkipNotRegular {
		t.Errorf("readRegular(a pipe) = %q, %q; want not_regular", content, reason)
	}
}

// TestNewExtractionReextracts: an index built by other extractors or language settings (an
// older Quarry) extracts every file again on the next run, changed or not, once.
func TestNewExtractionReextracts(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": fmt.Sprintf(goFile, "A", "A", 1), "notes.md": "# Notes\n"})
	if sum := indexTree(t, root, IndexOptions{}); sum.Reextracted || sum.Added != 2 {
		t.Fatalf("first run: %+v", sum)
	}
	first := checkConsistent(t, root)
	st, err := store.Open(StorePath(IndexDir(root, ID(mustCanon(t, root)))))
	if err != nil {
		t.Fatal(err)
	}
	err = st.SetMeta(extractionKey, "1/an-older-registry")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	sum := indexTree(t, root, IndexOptions{})
	if !sum.Reextracted || sum.Changed != 2 || sum.Extracted != 2 || sum.Unchanged != 0 {
		t.Errorf("run after the extraction changed: %+v", sum)
	}
	if sum := indexTree(t, root, IndexOptions{}); sum.Reextracted || sum.Unchanged != 2 || sum.Extracted != 0 {
		t.Errorf("the run after: %+v", sum)
	}
	if c := checkConsistent(t, root); c != first {
		t.Errorf("counts %+v after extracting again, %+v before", c, first)
	}
}

// TestHealthListsFilesWithoutExtractor: health counts the files searched by content only, by
// extension or by name.
func TestHealthListsFilesWithoutExtractor(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.go": fmt.Sprintf(goFile, "A", "A", 1), "x.json": "{}\n", "y.json": "[]\n", "conf/z.JSON": "1\n",
		"Makefile": "all:\n\ttrue\n", "notes.txt": "hello\n",
	})
	indexTree(t, root, IndexOptions{})
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root)}
	h, err := CheckHealth(context.Background(), e, IndexDir(root, e.ID), false)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.NameCount{{Name: ".json", Files: 3}, {Name: ".txt", Files: 1}, {Name: "Makefile", Files: 1}}
	if !slices.Equal(h.WithoutExtractor, want) {
		t.Errorf("without extractor: %+v, want %+v", h.WithoutExtractor, want)
	}
}
