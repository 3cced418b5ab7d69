package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// watching starts svc's watcher and returns once its first batch (the scan of what changed
// while nobody watched) is applied; stop ends it. Every batch is counted, and a failed
// one is an error of the test.
func watching(t *testing.T, svc *tools.Service) (batches func() int, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	n := 0
	first := make(chan struct{})
	ended := make(chan error, 1)
	go func() {
		ended <- svc.Watch(ctx, func(b workspace.WatchBatch) {
			if b.Err != nil {
				t.Errorf("a batch of the watcher failed: %v", b.Err)
			}
			mu.Lock()
			if n++; n == 1 {
				close(first)
			}
			mu.Unlock()
		})
	}()
	select {
	case <-first:
	case err := <-ended:
		cancel()
		t.Fatalf("watch: %v", err)
	case <-time.After(30 * time.Second):
		cancel()
		<-ended
		t.Fatal("the watcher applied no first batch in 30 s")
	}
	batches = func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
	stop = func() {
		cancel()
		if err := <-ended; err != nil {
			t.Errorf("watch: %v", err)
		}
	}
	return batches, stop
}

// percentile returns the p-th percentile (0 to 100) of ds, rounded to a tenth of a millisecond.
func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)].Round(100 * time.Microsecond)
}

// version is one content of a file and when it was written: it may be what the file held
// from begin (its write started) until the next version's write ended.
type version struct {
	lines      []string
	begin, end time.Time // end is zero while the write goes on
}

// history is every version of every file of a tree, safe for concurrent use. A version is
// recorded before its write starts, so that no search can see a content the history has
// not heard of yet.
type history struct {
	mu    sync.Mutex
	files map[string][]version
}

// writing records a version of p whose write starts now; the returned function records its
// end.
func (h *history) writing(p, content string) (written func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.files[p] = append(h.files[p], version{lines: strings.Split(content, "\n"), begin: time.Now()})
	i := len(h.files[p]) - 1
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.files[p][i].end = time.Now()
	}
}

// holds reports whether p defined name at line in some version it may have held during
// [from, to].
func (h *history) holds(p string, line int, name string, from, to time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	vs := h.files[p]
	for i, v := range vs {
		if v.begin.After(to) {
			continue // written after the search
		}
		if i+1 < len(vs) && !vs[i+1].end.IsZero() && vs[i+1].end.Before(from) {
			continue // replaced before the search
		}
		if line >= 1 && line <= len(v.lines) && strings.HasPrefix(v.lines[line-1], "func "+name+"(") {
			return true
		}
	}
	return false
}

// explain says, for a hit that holds does not accept, which version of p last defined name
// at line and when it was replaced, and the sizes of the versions p may have held during
// [from, to].
func (h *history) explain(p string, line int, name string, from, to time.Time) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	vs := h.files[p]
	var during []string
	was := "no version of the file ever did"
	for i, v := range vs {
		size := len(strings.Join(v.lines, "\n"))
		if !v.begin.After(to) && !(i+1 < len(vs) && !vs[i+1].end.IsZero() && vs[i+1].end.Before(from)) {
			during = append(during, fmt.Sprint(size))
		}
		if line >= 1 && line <= len(v.lines) && strings.HasPrefix(v.lines[line-1], "func "+name+"(") && i+1 < len(vs) {
			was = fmt.Sprintf("the version of %d bytes replaced %v before the search did", size, from.Sub(vs[i+1].end).Round(time.Millisecond))
		}
	}
	return fmt.Sprintf("%s; during the search the file had %s bytes", was, strings.Join(during, " or "))
}

// moving is a file whose functions keep moving: lines come and go above them, functions are
// added and, now and then, removed.
type moving struct {
	path  string
	funcs []string // names, in order
	pads  []int    // comment lines above each function
}

func (m *moving) render() string {
	var b strings.Builder
	b.WriteString("package live\n\n")
	for i, name := range m.funcs {
		for range m.pads[i] {
			b.WriteString("// a line that moves what follows\n")
		}
		fmt.Fprintf(&b, "func %s(x int) int {\n\treturn x * %d\n}\n\n", name, i)
	}
	return b.String()
}

// mover is the writer of TestLoadSearchWhileWriting.
type mover struct {
	root  string
	rng   *rand.Rand
	files []*moving
	hist  *history
	seq   int
	mu    sync.Mutex
	names []string // every function name ever written
	live  []string // the names defined now
}

// step changes one file and writes it, in place or as an editor's atomic save.
func (mv *mover) step() error {
	mv.seq++
	m := mv.files[mv.rng.IntN(len(mv.files))]
	i := mv.rng.IntN(len(m.funcs))
	switch op := mv.rng.IntN(20); {
	case op < 9:
		m.pads[i] += 1 + mv.rng.IntN(4)
	case op < 15:
		m.pads[i] -= min(m.pads[i], 1+mv.rng.IntN(4))
	case op < 19:
		name := fmt.Sprintf("Moved%d", mv.seq)
		m.funcs = slices.Insert(m.funcs, i, name)
		m.pads = slices.Insert(m.pads, i, mv.rng.IntN(3))
	default:
		if len(m.funcs) > 3 {
			m.funcs = slices.Delete(m.funcs, i, i+1)
			m.pads = slices.Delete(m.pads, i, i+1)
		}
	}
	content := m.render()
	full := filepath.Join(mv.root, m.path)
	written := mv.hist.writing(m.path, content)
	var err error
	if mv.rng.IntN(10) < 3 {
		tmp := fmt.Sprintf("%s.%d.tmp", full, mv.seq)
		if err = os.WriteFile(tmp, []byte(content), 0o644); err == nil {
			err = os.Rename(tmp, full)
		}
	} else {
		err = os.WriteFile(full, []byte(content), 0o644)
	}
	written()
	mv.mu.Lock()
	defer mv.mu.Unlock()
	mv.live = mv.live[:0]
	for _, f := range mv.files {
		mv.live = append(mv.live, f.funcs...)
	}
	for _, name := range m.funcs {
		if !slices.Contains(mv.names, name) {
			mv.names = append(mv.names, name)
		}
	}
	return err
}

// pick returns a name to search: mostly one defined now, sometimes one that may be gone.
func (mv *mover) pick(rng *rand.Rand) string {
	mv.mu.Lock()
	defer mv.mu.Unlock()
	if rng.IntN(5) == 0 {
		return mv.names[rng.IntN(len(mv.names))]
	}
	return mv.live[rng.IntN(len(mv.live))]
}

// Eight searchers asking for the definitions of functions that a writer keeps moving get no
// error and no wrong line: each hit not marked stale points at a line that defines its name
// in a version of its file that was on disk at some moment of the search. The writer edits
// 20 files for 25 s (a change every 5 to 40 ms, a pause of 400 ms after every 40; comment
// lines inserted and removed above functions, functions added and removed; 30% of the
// writes are editors' atomic saves) and records every version with the time it was
// written; the workspace is served by one tools.Service with its watcher running, as quarry
// mcp does. Afterwards the index, once the watcher has caught up, equals a fresh index of
// the final tree.
func TestLoadSearchWhileWriting(t *testing.T) {
	const (
		searchers = 8
		duration  = 25 * time.Second
	)
	root := t.TempDir()
	mv := &mover{root: root, rng: rand.New(rand.NewPCG(31, 31)), hist: &history{files: map[string][]version{}}}
	for i := range 20 {
		m := &moving{path: fmt.Sprintf("live%d/f%02d.go", i%4, i)}
		for k := range 8 {
			m.funcs = append(m.funcs, fmt.Sprintf("Start%02d_%d", i, k))
			m.pads = append(m.pads, k%3)
		}
		written := mv.hist.writing(m.path, m.render())
		writeTree(t, root, map[string]string{m.path: m.render()})
		written()
		mv.files = append(mv.files, m)
		mv.names = append(mv.names, m.funcs...)
		mv.live = append(mv.live, m.funcs...)
	}
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	batches, stop := watching(t, svc)
	defer func() {
		if stop != nil {
			stop()
		}
	}()

	ctx := context.Background()
	end := time.Now().Add(duration)
	var (
		wg                                      sync.WaitGroup
		mu                                      sync.Mutex
		queries, errs, found, staleHits, checks int
		mismatches                              []string
		latency                                 []time.Duration
		writes                                  int
		writeErr                                error
	)
	wg.Go(func() {
		for time.Now().Before(end) {
			if err := mv.step(); err != nil {
				writeErr = err
				return
			}
			writes++
			time.Sleep(time.Duration(5+mv.rng.IntN(36)) * time.Millisecond)
			if writes%40 == 0 {
				time.Sleep(400 * time.Millisecond)
			}
		}
	})
	for s := range searchers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(32, uint64(s)))
			limit := 5
			for time.Now().Before(end) {
				name := mv.pick(rng)
				from := time.Now()
				res, err := svc.Search(ctx, tools.SearchRequest{Query: name, Target: "definitions", Limit: &limit})
				to := time.Now()
				mu.Lock()
				queries++
				latency = append(latency, to.Sub(from))
				if err != nil {
					errs++
					if errs <= 5 {
						t.Errorf("search %s: %v", name, err)
					}
					mu.Unlock()
					continue
				}
				for _, h := range res.Results {
					if h.Name == name && !h.Stale {
						found++
					}
					if h.Stale {
						staleHits++
						continue
					}
					checks++
					if !mv.hist.holds(h.Path, h.Line, h.Name, from, to) {
						mismatches = append(mismatches, fmt.Sprintf("search %s: hit %s:%d %s not marked stale, but no version of the file on disk during the search defines %s there: %s",
							name, h.Path, h.Line, h.Name, h.Name, mv.hist.explain(h.Path, h.Line, h.Name, from, to)))
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if writeErr != nil {
		t.Fatal(writeErr)
	}
	for i, m := range mismatches {
		if i == 10 {
			t.Errorf("... and %d more", len(mismatches)-i)
			break
		}
		t.Error(m)
	}
	t.Logf("%d searchers for %v against %d writes (a watcher applying %d batches): %d queries, %d errors, %d found their name, %d hits checked against the files' history, %d hits marked stale, %d mismatches; latency p50 %v, p95 %v, max %v",
		searchers, duration, writes, batches(), queries, errs, found, checks, staleHits, len(mismatches),
		percentile(latency, 50), percentile(latency, 95), percentile(latency, 100))

	// Once the watcher has caught up, nothing was lost.
	caught := time.Now()
	for deadline := caught.Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		h, err := svc.Health(ctx, tools.HealthRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Problems) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watcher did not catch up within 20 s of the last write: %+v", h.Problems)
		}
	}
	t.Logf("the watcher caught up %v after the last write", time.Since(caught).Round(time.Millisecond))
	stop()
	stop = nil
	lookups := mv.live[:10]
	compareFresh(t, "after the load", inspect(t, root, lookups), root, "", lookups)
}

// A function written to a watched workspace is found by a search within 10 s, whether the
// file is new, rewritten in place or saved as editors do (a temporary file renamed over
// it). With tools.Service's watcher running, each of 36 samples writes one uniquely named
// function and searches for it every 10 ms until a hit that is not stale names it; the time
// from the start of the write to that answer is measured.
func TestEventToSearchable(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("d%d/f%d.go", i%4, i)] = goFile("d", fmt.Sprintf("Old%d_", i), 10)
	}
	writeTree(t, root, files)
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	batches, stop := watching(t, svc)
	defer stop()
	modes := []string{"new file", "rewrite in place", "atomic save"}
	byMode := map[string][]time.Duration{}
	var all []time.Duration
	polls, errs := 0, 0
	ctx := context.Background()
	for i := range 36 {
		mode := modes[i%3]
		name := fmt.Sprintf("Arrived%03d", i)
		fn := fmt.Sprintf("\nfunc %s(x int) int {\n\treturn x\n}\n", name)
		rel := fmt.Sprintf("d%d/f%d.go", i%4, i%20)
		p := filepath.Join(root, rel)
		start := time.Now()
		switch mode {
		case "new file":
			err = os.WriteFile(filepath.Join(root, fmt.Sprintf("d%d/new%d.go", i%4, i)), []byte("package d\n"+fn), 0o644)
		case "rewrite in place":
			files[rel] += fn
			err = os.WriteFile(p, []byte(files[rel]), 0o644)
		case "atomic save":
			files[rel] += fn
			if err = os.WriteFile(p+".tmp", []byte(files[rel]), 0o644); err == nil {
				err = os.Rename(p+".tmp", p)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		limit := 3
		for {
			polls++
			res, err := svc.Search(ctx, tools.SearchRequest{Query: name, Target: "definitions", Limit: &limit})
			if err != nil {
				errs++
				t.Errorf("search %s: %v", name, err)
			} else if slices.ContainsFunc(res.Results, func(h tools.Hit) bool { return h.Name == name && !h.Stale }) {
				break
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("%s (%s) not found within 10 s", name, mode)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		took := time.Since(start)
		byMode[mode] = append(byMode[mode], took)
		all = append(all, took)
	}
	t.Logf("write to searchable, %d samples (%d searches, %d errors, %d batches): p50 %v, p95 %v, max %v",
		len(all), polls, errs, batches(), percentile(all, 50), percentile(all, 95), percentile(all, 100))
	for _, mode := range modes {
		ds := byMode[mode]
		t.Logf("  %s, %d samples: p50 %v, p95 %v, max %v", mode, len(ds), percentile(ds, 50), percentile(ds, 95), percentile(ds, 100))
	}
}

// A function written to a watched workspace is found by a search within 10 s even while
// another of its files is written all the time, as a log or a build output nobody ignored
// is: the watcher's debounce must not wait for a quiet moment that never comes. A goroutine
// rewrites notes/status.txt every 50 ms (the debounce is 150 ms); each of 5 samples writes a
// new uniquely named function and searches for it every 10 ms. The samples stop at the
// first one not found.
func TestSearchableUnderSteadyWrites(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"d/f.go": goFile("d", "Steady", 10), "notes/status.txt": "start\n"})
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	batches, stop := watching(t, svc)
	defer stop()
	quit, done := make(chan struct{}), make(chan struct{})
	var noise atomic.Int64
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			case <-time.After(50 * time.Millisecond):
				if err := os.WriteFile(filepath.Join(root, "notes/status.txt"), []byte(fmt.Sprintf("step %d\n", noise.Add(1))), 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	defer func() { close(quit); <-done }()
	time.Sleep(300 * time.Millisecond) // the noise has begun
	ctx := context.Background()
	limit := 3
	var took []time.Duration
	for i := range 5 {
		name := fmt.Sprintf("Amid%d", i)
		start := time.Now()
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("d/amid%d.go", i)), []byte(fmt.Sprintf("package d\n\nfunc %s() {}\n", name)), 0o644); err != nil {
			t.Fatal(err)
		}
		found := false
		for !found && time.Since(start) < 10*time.Second {
			res, err := svc.Search(ctx, tools.SearchRequest{Query: name, Target: "definitions", Limit: &limit})
			if err != nil {
				t.Fatalf("search %s: %v", name, err)
			}
			found = slices.ContainsFunc(res.Results, func(h tools.Hit) bool { return h.Name == name && !h.Stale })
			time.Sleep(10 * time.Millisecond)
		}
		if !found {
			t.Errorf("%s not found within 10 s while notes/status.txt is written every 50 ms (%d batches applied since the watcher started, %d writes of the other file)", name, batches(), noise.Load())
			break
		}
		took = append(took, time.Since(start))
	}
	if len(took) > 0 {
		t.Logf("under a write every 50 ms elsewhere: %d samples found, p50 %v, max %v; %d batches", len(took), percentile(took, 50), percentile(took, 100), batches())
	}
}
