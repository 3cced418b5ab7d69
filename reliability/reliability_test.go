package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// quarryBin is the quarry binary the suite kills, built once.
var quarryBin string

func TestMain(m *testing.M) {
	if os.Getenv("QUARRY_RELIABILITY") == "" {
		fmt.Println("reliability: skipped (set QUARRY_RELIABILITY=1 to run the suite)")
		os.Exit(0)
	}
	os.Setenv("QUARRY_AUTOWATCH", "0") // no command of the suite leaves a watcher behind
	dir, err := os.MkdirTemp("", "quarry-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	quarryBin = filepath.Join(dir, "quarry")
	if out, err := exec.Command("go", "build", "-o", quarryBin, "../cmd/quarry").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build quarry: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// writeTree writes files (path → content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
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

// goFile returns a Go file of package pkg defining n functions named after name.
func goFile(pkg, name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for i := range n {
		fmt.Fprintf(&b, "// %s%d does the %d-th thing with %s.\nfunc %s%d(x int) int {\n\treturn x + %d\n}\n\n", name, i, i, pkg, name, i, i)
	}
	return b.String()
}

// snapshot is what an index holds and answers about a tree: its counts, every stored
// symbol (path, line, kind, name), the first definition found for each of a list of
// names, and every line holding each name. Rankings below the first differ between an updated index and a fresh one
// (bleve's statistics count deleted documents until segments merge), so only the first,
// an exact name's, is compared.
type snapshot struct {
	files, symbols int
	rows           []string
	first          map[string]string
	lines          map[string][]string // every line holding each name (content target), sorted
}

// take indexes (or updates) the workspace at root in-process and returns its snapshot.
func take(t *testing.T, root string, names []string) snapshot {
	t.Helper()
	s, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Index(context.Background(), tools.IndexRequest{}); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	return inspect(t, root, names)
}

// inspect returns the snapshot of the index of the workspace at root as it is, without an
// index run: the health check comes first and must find no problem (no file changed since
// the index, the full-text index in step with the store), so that no search finds a stale
// hit and refreshes the index itself.
func inspect(t *testing.T, root string, names []string) snapshot {
	t.Helper()
	s, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	h, err := s.Health(ctx, tools.HealthRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Problems) > 0 {
		t.Errorf("health of %s: %+v", root, h.Problems)
	}
	snap := snapshot{files: h.Store.Counts.Files, symbols: h.Store.Counts.Symbols, first: map[string]string{}, lines: map[string][]string{}}
	limit, many := 1, 500
	for _, q := range names {
		res, err := s.Search(ctx, tools.SearchRequest{Query: q, Target: "content", Limit: &many})
		if err != nil {
			t.Fatalf("search %q in content: %v", q, err)
		}
		for _, h := range res.Results {
			snap.lines[q] = append(snap.lines[q], fmt.Sprintf("%s:%d", h.Path, h.Line))
		}
		slices.Sort(snap.lines[q])
	}
	for _, q := range names {
		res, err := s.Search(ctx, tools.SearchRequest{Query: q, Target: "definitions", Limit: &limit})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		if len(res.Results) > 0 {
			h := res.Results[0]
			snap.first[q] = fmt.Sprintf("%s:%d %s", h.Path, h.Line, h.Name)
		}
	}
	canon, err := workspace.CanonicalDir(root)
	if err != nil {
		t.Fatal(err)
	}
	store, err := store.Open(workspace.StorePath(workspace.IndexDir(canon, workspace.ID(canon))))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	files, err := store.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for p := range files {
		f, err := store.LoadExtract(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sym := range f.Symbols {
			snap.rows = append(snap.rows, fmt.Sprintf("%s:%d %s %s", p, sym.Span.StartLine, sym.Kind, sym.Name))
		}
	}
	slices.Sort(snap.rows)
	return snap
}

// compare reports how got (the index under test) differs from want (a fresh index of the
// same files), for the lookups names.
func compare(t *testing.T, what string, got, want snapshot, names []string) {
	t.Helper()
	if got.files != want.files || got.symbols != want.symbols {
		t.Errorf("%s: %d files, %d symbols; a fresh index has %d, %d", what, got.files, got.symbols, want.files, want.symbols)
	}
	if !slices.Equal(got.rows, want.rows) {
		t.Errorf("%s: the stored symbols differ from a fresh index's (%d and %d rows)", what, len(got.rows), len(want.rows))
	}
	for _, q := range names {
		if got.first[q] != want.first[q] || !strings.HasSuffix(got.first[q], " "+q) {
			t.Errorf("%s: %q first answers %q, fresh %q", what, q, got.first[q], want.first[q])
		}
		if !slices.Equal(got.lines[q], want.lines[q]) || len(got.lines[q]) == 0 {
			t.Errorf("%s: the lines holding %q are %v, a fresh index's %v", what, q, got.lines[q], want.lines[q])
		}
	}
}

// funcNames returns the names of the functions files define, sorted.
func funcNames(files map[string]string) []string {
	var out []string
	for _, content := range files {
		for _, line := range strings.Split(content, "\n") {
			if rest, ok := strings.CutPrefix(line, "func "); ok {
				out = append(out, rest[:strings.IndexByte(rest, '(')])
			}
		}
	}
	slices.Sort(out)
	return out
}

// compareFresh reports how got, the snapshot of the index of root, differs from a fresh
// index of the same files, built in a copy of them at fresh (made to match root; "": a new
// temporary directory).
func compareFresh(t *testing.T, what string, got snapshot, root, fresh string, names []string) {
	t.Helper()
	if fresh == "" {
		fresh = filepath.Join(t.TempDir(), "fresh")
	}
	mirror(t, root, fresh)
	compare(t, what, got, take(t, fresh, names), names)
}

// mirror makes dst hold exactly the regular files and symlinks of src (not .quarry, not
// named pipes and the like, which the index skips).
func mirror(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && d.Name() == ".quarry" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Killing the indexer with SIGKILL at any moment loses nothing: the next run repairs the
// index, and it then answers exactly as a fresh index of the same tree does. Each trial
// changes the tree (edits, additions, deletions, renames), starts `quarry index`, kills it
// after a random delay within a full run's duration, runs the update to the end, and
// compares the counts, every stored symbol and the first definition found for 10 of the
// tree's function names with a fresh index of a copy.
func TestKillIndexer(t *testing.T) {
	const trials = 50
	root := t.TempDir()
	files := map[string]string{}
	for i := range 120 {
		pkg := fmt.Sprintf("p%02d", i%12)
		files[fmt.Sprintf("%s/f%03d.go", pkg, i)] = goFile(pkg, fmt.Sprintf("Do%03d_", i), 20)
	}
	writeTree(t, root, files)
	start := time.Now()
	if out, err := exec.Command(quarryBin, "--root", root, "index").CombinedOutput(); err != nil {
		t.Fatalf("first index: %v\n%s", err, out)
	}
	full := time.Since(start)
	rng := rand.New(rand.NewPCG(13, 13))
	fresh := filepath.Join(t.TempDir(), "fresh")
	// A first index killed at a random moment: the next run builds it whole.
	for trial := range 5 {
		if err := os.RemoveAll(filepath.Join(root, ".quarry")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(quarryBin, "--root", root, "index")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(full))))
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		all := funcNames(files)
		lookups := []string{all[rng.IntN(len(all))], all[rng.IntN(len(all))]}
		compareFresh(t, fmt.Sprintf("first index killed (%d): after the next run", trial), take(t, root, lookups), root, fresh, lookups)
	}
	var finished int
	var repair []time.Duration
	for trial := range trials {
		// Change the tree.
		names := make([]string, 0, len(files))
		for p := range files {
			names = append(names, p)
		}
		slices.Sort(names)
		for range 8 {
			p := names[rng.IntN(len(names))]
			switch rng.IntN(4) {
			case 0: // edit
				files[p] = goFile(strings.Split(p, "/")[0], fmt.Sprintf("Edited%d_", trial), 1+rng.IntN(30))
			case 1: // delete
				delete(files, p)
				os.Remove(filepath.Join(root, p))
			case 2: // rename
				if content, ok := files[p]; ok {
					delete(files, p)
					os.Remove(filepath.Join(root, p))
					files[fmt.Sprintf("%s/renamed_%d_%d.go", strings.Split(p, "/")[0], trial, rng.IntN(1000))] = strings.Replace(content, "func ", "func Renamed", 1)
				}
			case 3: // add
				pkg := fmt.Sprintf("p%02d", rng.IntN(12))
				files[fmt.Sprintf("%s/added_%d_%d.go", pkg, trial, rng.IntN(1000))] = goFile(pkg, fmt.Sprintf("Added%d_", trial), 1+rng.IntN(20))
			}
		}
		writeTree(t, root, files)
		// Start an update and kill it at a random moment.
		// An update of a few files takes a fraction of a full run: kill it within that.
		cmd, within := exec.Command(quarryBin, "--root", root, "index"), full/4
		if rng.IntN(5) == 0 {
			cmd, within = exec.Command(quarryBin, "--root", root, "index", "--force"), full // a full rebuild
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(within))))
		_ = cmd.Process.Kill() // it may have ended already
		if err := cmd.Wait(); err == nil {
			finished++ // it ended before the kill
		}
		// Repair and compare with a fresh index of the same files.
		all := funcNames(files)
		var lookups []string
		for range 10 {
			lookups = append(lookups, all[rng.IntN(len(all))])
		}
		rs := time.Now()
		got := take(t, root, lookups)
		repair = append(repair, time.Since(rs))
		compareFresh(t, fmt.Sprintf("trial %d: after repair", trial), got, root, fresh, lookups)
	}
	slices.Sort(repair)
	t.Logf("kill -9 of the indexer: 5 first indexes, then %d trials (%d killed mid-run, %d had finished), a full run takes %v; repair run p50 %v, max %v; each compared with a fresh index of the same tree (counts, every stored symbol, 10 lookups and every line holding them)",
		trials, trials-finished, finished, full.Round(time.Millisecond), repair[len(repair)/2].Round(time.Millisecond), repair[len(repair)-1].Round(time.Millisecond))
}

// Hostile trees index without error, and what can be indexed is: a symlink loop, a 50 MB
// one-line file, invalid UTF-8 and NUL bytes, names with spaces, newlines and non-UTF-8
// bytes, 10,000 files in one directory, and a 200-deep chain of directories.
func TestHostileTrees(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"ok.go":                    "package ok\n\nfunc Fine() {}\n",
		"bad utf8.go":              "package bad\n\n// \xff\xfe broken\nfunc BrokenUTF8() {}\n",
		"nul.txt":                  "text\x00with a NUL\n",
		"space name/with space.go": "package s\n\nfunc Spaced() {}\n",
		"new\nline.go":             "package n\n\nfunc NewlineName() {}\n",
		"latin1-\xe9.go":           "package l\n\nfunc Latin1Name() {}\n",
	})
	if err := os.Symlink(".", filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a/b", filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(root, "big.js"))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("var a=1;", 1<<10)
	for size := 0; size < 50<<20; size += len(line) {
		if _, err := big.WriteString(line); err != nil {
			t.Fatal(err)
		}
	}
	big.Close()
	many := filepath.Join(root, "many")
	if err := os.MkdirAll(many, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(many, fmt.Sprintf("f%05d.txt", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	deep := root
	for i := range 200 {
		deep = filepath.Join(deep, fmt.Sprintf("d%d", i%10))
	}
	writeTree(t, deep, map[string]string{"deep.go": "package deep\n\nfunc AtTheBottom() {}\n"})

	start := time.Now()
	out, err := exec.Command(quarryBin, "--root", root, "index", "--json").CombinedOutput()
	if err != nil {
		t.Fatalf("index of a hostile tree: %v\n%s", err, out)
	}
	took := time.Since(start)
	for _, name := range []string{"Fine", "BrokenUTF8", "Spaced", "NewlineName", "Latin1Name", "AtTheBottom"} {
		got, err := exec.Command(quarryBin, "--root", root, "search", "--target", "definitions", "--json", name).CombinedOutput()
		if err != nil || !strings.Contains(string(got), `"name": "`+name+`"`) {
			t.Errorf("search %s: %v\n%s", name, err, got)
		}
	}
	got, err := exec.Command(quarryBin, "--root", root, "search", "--target", "content", "--json", "file 9999").CombinedOutput()
	if err != nil || !strings.Contains(string(got), "f09999.txt") {
		t.Errorf("a file among 10,000 in one directory: %v\n%s", err, got)
	}
	t.Logf("hostile tree (10,014 files, a 50 MB one-line file, a symlink loop, a 200-deep chain, bad names): indexed in %v; 7 lookups answered", took.Round(time.Millisecond))
}
