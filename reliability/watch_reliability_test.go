package reliability

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/workspace"
)

// batchLine is a line quarry watch prints for a batch it applied (cmd/quarry printBatch).
var batchLine = regexp.MustCompile(`^\d\d:\d\d:\d\d (scan|\d+ events): `)

// watchProc is a running `quarry watch`, its output read as it comes.
type watchProc struct {
	cmd     *exec.Cmd
	batches chan string // its batch lines
	stderr  bytes.Buffer
	mu      sync.Mutex
	out     strings.Builder // everything it printed on stdout
	seen    int             // batch lines printed
}

// startWatch starts `quarry watch` in the workspace root (its working directory).
func startWatch(t *testing.T, root string) *watchProc {
	t.Helper()
	w := &watchProc{cmd: exec.Command(quarryBin, "watch"), batches: make(chan string, 100)}
	w.cmd.Dir = root
	w.cmd.Stderr = &w.stderr
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.batches)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			batch := batchLine.MatchString(sc.Text())
			w.mu.Lock()
			w.out.WriteString(sc.Text() + "\n")
			if batch {
				w.seen++
			}
			w.mu.Unlock()
			if batch {
				w.batches <- sc.Text()
			}
		}
	}()
	return w
}

// nextBatch waits for the next batch line, at most d.
func (w *watchProc) nextBatch(d time.Duration) (string, error) {
	select {
	case line, ok := <-w.batches:
		if !ok {
			return "", fmt.Errorf("quarry watch ended: %s", w.output())
		}
		if strings.Contains(line, "index run failed") {
			return line, fmt.Errorf("a batch failed: %s", line)
		}
		return line, nil
	case <-time.After(d):
		return "", fmt.Errorf("no batch within %v: %s", d, w.output())
	}
}

// printed returns the number of batch lines printed so far.
func (w *watchProc) printed() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen
}

// output is what the process printed so far.
func (w *watchProc) output() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return fmt.Sprintf("stdout:\n%s\nstderr:\n%s", w.out.String(), w.stderr.String())
}

// signal sends sig and waits for the process to end; it returns the error of Wait.
func (w *watchProc) signal(sig os.Signal) error {
	_ = w.cmd.Process.Signal(sig)
	for range w.batches { // drain: the reader ends with the output
	}
	return w.cmd.Wait()
}

// liveTree is a tree of Go files changed the way people and tools change them, on disk and
// in files (path → content) alike.
type liveTree struct {
	root  string
	files map[string]string
	rng   *rand.Rand
	seq   int // makes every new name unique
}

// paths returns the tree's files, sorted (a deterministic choice for rng).
func (lt *liveTree) paths() []string {
	out := make([]string, 0, len(lt.files))
	for p := range lt.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// dirs returns the tree's directories holding files, sorted.
func (lt *liveTree) dirs() []string {
	var out []string
	for p := range lt.files {
		if d := filepath.Dir(p); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// write writes a file's content, in place or, when atomic, as editors save: a temporary
// file renamed over it.
func (lt *liveTree) write(p, content string, atomic bool) error {
	full := filepath.Join(lt.root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if !atomic {
		return os.WriteFile(full, []byte(content), 0o644)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", full, lt.seq)
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, full)
}

// change makes one random change: an edit in place, an append, an editor's atomic save, a
// new file (sometimes in a new directory), a deletion, a rename of a file or, rarely, of a
// whole directory. It returns what it did.
func (lt *liveTree) change() (string, error) {
	lt.seq++
	paths := lt.paths()
	p := paths[lt.rng.IntN(len(paths))]
	dir := filepath.Dir(p)
	pkg := filepath.Base(dir)
	switch op := lt.rng.IntN(16); {
	case op < 3: // edit in place
		lt.files[p] = goFile(pkg, fmt.Sprintf("Edit%d_", lt.seq), 1+lt.rng.IntN(12))
		return "edit", lt.write(p, lt.files[p], false)
	case op < 5: // append a function
		add := fmt.Sprintf("func Append%d(x int) int {\n\treturn x\n}\n", lt.seq)
		f, err := os.OpenFile(filepath.Join(lt.root, filepath.FromSlash(p)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return "append", err
		}
		_, err = f.WriteString(add)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		lt.files[p] += add
		return "append", err
	case op < 7: // an editor's save
		lt.files[p] = goFile(pkg, fmt.Sprintf("Saved%d_", lt.seq), 1+lt.rng.IntN(12))
		return "atomic save", lt.write(p, lt.files[p], true)
	case op < 10: // a new file
		d := lt.dirs()[lt.rng.IntN(len(lt.dirs()))]
		if lt.rng.IntN(4) == 0 {
			d = fmt.Sprintf("n%d", lt.seq)
		}
		np := fmt.Sprintf("%s/new%d.go", d, lt.seq)
		lt.files[np] = goFile(filepath.Base(d), fmt.Sprintf("New%d_", lt.seq), 1+lt.rng.IntN(12))
		return "add", lt.write(np, lt.files[np], false)
	case op < 12: // delete
		if len(paths) < 10 {
			return "none", nil
		}
		delete(lt.files, p)
		return "delete", os.Remove(filepath.Join(lt.root, filepath.FromSlash(p)))
	case op < 15: // rename a file, to its directory or another
		d := lt.dirs()[lt.rng.IntN(len(lt.dirs()))]
		np := fmt.Sprintf("%s/moved%d.go", d, lt.seq)
		lt.files[np] = lt.files[p]
		delete(lt.files, p)
		return "rename", os.Rename(filepath.Join(lt.root, filepath.FromSlash(p)), filepath.Join(lt.root, filepath.FromSlash(np)))
	default: // rename a directory
		nd := fmt.Sprintf("%s_r%d", strings.SplitN(dir, "_", 2)[0], lt.seq)
		for _, q := range paths {
			if filepath.Dir(q) == dir {
				lt.files[nd+"/"+filepath.Base(q)] = lt.files[q]
				delete(lt.files, q)
			}
		}
		return "rename dir", os.Rename(filepath.Join(lt.root, filepath.FromSlash(dir)), filepath.Join(lt.root, filepath.FromSlash(nd)))
	}
}

// newLiveTree writes a tree of dirs×perDir Go files of funcs functions each under root.
func newLiveTree(t *testing.T, root string, dirs, perDir, funcs int, seed uint64) *liveTree {
	t.Helper()
	lt := &liveTree{root: root, files: map[string]string{}, rng: rand.New(rand.NewPCG(seed, seed))}
	for d := range dirs {
		for f := range perDir {
			pkg := fmt.Sprintf("d%d", d)
			lt.files[fmt.Sprintf("%s/f%d.go", pkg, f)] = goFile(pkg, fmt.Sprintf("W%d_%d_", d, f), funcs)
		}
	}
	writeTree(t, root, lt.files)
	return lt
}

// lockPath is the file an index run of the workspace at root holds while it writes
// (workspace's lockFile).
func lockPath(t *testing.T, root string) string {
	t.Helper()
	canon, err := workspace.CanonicalDir(root)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(workspace.IndexDir(canon, workspace.ID(canon)), "index.lock")
}

// Killing a watching server (quarry watch) with SIGKILL at any moment, in the middle of a
// batch or between batches, loses nothing: the next run, a quarry index or a new quarry
// watch, repairs the index, which then answers exactly as a fresh index of the same tree
// does. Each trial starts quarry watch, waits for its first batch, applies a burst of
// changes (edits in place, appends, editors' atomic saves, new files and directories,
// deletions, renames of files and directories), kills it (half the trials while a batch's
// index run holds the index lock, half after a uniform random delay), lets the repair run
// and compares the counts, every stored symbol, the health report and the first definition
// of 10 names with a fresh index of a copy; the repaired index is inspected as it is, with
// no index run of the test's own.
func TestKillWatchingServer(t *testing.T) {
	const trials = 50
	root := t.TempDir()
	lt := newLiveTree(t, root, 6, 6, 10, 7)
	if out, err := exec.Command(quarryBin, "--root", root, "index").CombinedOutput(); err != nil {
		t.Fatalf("first index: %v\n%s", err, out)
	}
	lock := lockPath(t, root)
	rng := rand.New(rand.NewPCG(14, 14))
	fresh := filepath.Join(t.TempDir(), "fresh")
	var (
		midBatch, afterBatch, changes int
		repairIndex, repairWatch      []time.Duration
	)
	for trial := range trials {
		w := startWatch(t, root)
		if _, err := w.nextBatch(30 * time.Second); err != nil {
			w.signal(os.Kill)
			t.Fatalf("trial %d: %v", trial, err)
		}
		// A burst of changes, some apart enough for a batch to start in between.
		n := 5 + rng.IntN(8)
		burst := make(chan error, 1)
		go func() {
			for range n {
				if what, err := lt.change(); err != nil {
					burst <- fmt.Errorf("%s: %w", what, err)
					return
				}
				pause := time.Duration(lt.rng.IntN(30)) * time.Millisecond
				if lt.rng.IntN(8) == 0 {
					pause = 200 * time.Millisecond
				}
				time.Sleep(pause)
			}
			burst <- nil
		}()
		if trial%2 == 0 {
			// While a batch's index run holds the lock, after a random part of it.
			for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
				if _, err := os.Stat(lock); err == nil {
					break
				}
			}
			time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		} else {
			time.Sleep(time.Duration(rng.IntN(700)) * time.Millisecond)
		}
		_, err := os.Stat(lock)
		holding, applied := err == nil, w.printed() > 1
		w.signal(os.Kill)
		switch {
		case holding:
			midBatch++
		case applied:
			afterBatch++ // a batch of the burst was applied; the kill came between batches
		}
		if err := <-burst; err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		changes += n
		// Repair: a quarry index, or a new quarry watch's first batch.
		start := time.Now()
		if trial%4 < 2 {
			cmd := exec.Command(quarryBin, "index")
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("trial %d: quarry index after the kill: %v\n%s", trial, err, out)
			}
			repairIndex = append(repairIndex, time.Since(start))
		} else {
			w := startWatch(t, root)
			_, err := w.nextBatch(30 * time.Second)
			repairWatch = append(repairWatch, time.Since(start))
			if serr := w.signal(os.Interrupt); err == nil && serr != nil {
				err = fmt.Errorf("quarry watch stopped by SIGINT: %v: %s", serr, w.output())
			}
			if err != nil {
				t.Fatalf("trial %d: quarry watch after the kill: %v", trial, err)
			}
		}
		all := funcNames(lt.files)
		var lookups []string
		for range 10 {
			lookups = append(lookups, all[rng.IntN(len(all))])
		}
		compareFresh(t, fmt.Sprintf("trial %d: after the repair", trial), inspect(t, root, lookups), root, fresh, lookups)
	}
	t.Logf("kill -9 of quarry watch: %d trials, %d changes; %d kills while a batch's index run held the lock, %d after a batch of the burst, the rest before any; each compared with a fresh index of the same tree (counts, every stored symbol, health, 10 lookups)",
		trials, changes, midBatch, afterBatch)
	t.Logf("repair by quarry index: %d runs, median %v, max %v; by a new quarry watch (start to first batch): %d runs, median %v, max %v",
		len(repairIndex), median(repairIndex), slices.Max(repairIndex).Round(time.Millisecond), len(repairWatch), median(repairWatch), slices.Max(repairWatch).Round(time.Millisecond))
}

// median returns the median of ds, rounded to the millisecond.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Millisecond)
}
