package reliability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// churn changes the files of a tree while an index run reads it: each mutation picks one of
// the tree's regular files and rewrites, appends to, deletes or renames it, makes it
// unreadable (chmod 000), or puts something else at its path: a directory, a dangling
// symlink, a named pipe.
type churn struct {
	root       string
	rng        *rand.Rand
	kinds      []string       // the mutations to choose from
	files      []string       // the tree's regular files (workspace-relative)
	unreadable []string       // files made unreadable, to make readable again at the end
	done       map[string]int // mutations made, by kind
	seq        int
}

// Mutations of churn.
const (
	mutRewrite    = "rewrite"
	mutAppend     = "append"
	mutDelete     = "delete"
	mutRename     = "rename"
	mutUnreadable = "chmod 000"
	mutDirectory  = "replaced by a directory"
	mutSymlink    = "replaced by a dangling symlink"
	mutFIFO       = "replaced by a named pipe"
)

// mutate makes one mutation, until a third of the files are left.
func (c *churn) mutate() error {
	if len(c.files) < 200 {
		return nil
	}
	c.seq++
	i := c.rng.IntN(len(c.files))
	p := c.files[i]
	full := filepath.Join(c.root, filepath.FromSlash(p))
	kind := c.kinds[c.rng.IntN(len(c.kinds))]
	gone := func() { c.files = slices.Delete(c.files, i, i+1) } // no longer a regular file there
	var err error
	switch kind {
	case mutRewrite:
		err = os.WriteFile(full, []byte(goFile("x", fmt.Sprintf("Rewritten%d_", c.seq), 1+c.rng.IntN(20))), 0o644)
	case mutAppend:
		var f *os.File
		if f, err = os.OpenFile(full, os.O_APPEND|os.O_WRONLY, 0); err == nil {
			_, err = fmt.Fprintf(f, "\nfunc Appended%d() {}\n", c.seq)
			f.Close()
		}
	case mutDelete:
		gone()
		err = os.Remove(full)
	case mutRename:
		np := fmt.Sprintf("%s/renamed%d.go", filepath.Dir(p), c.seq)
		c.files[i] = np
		err = os.Rename(full, filepath.Join(c.root, filepath.FromSlash(np)))
	case mutUnreadable:
		gone()
		c.unreadable = append(c.unreadable, full)
		err = os.Chmod(full, 0)
	case mutDirectory:
		gone()
		if err = os.Remove(full); err == nil {
			if err = os.Mkdir(full, 0o755); err == nil {
				err = os.WriteFile(filepath.Join(full, "inner.go"), []byte(goFile("inner", fmt.Sprintf("Inner%d_", c.seq), 2)), 0o644)
			}
		}
	case mutSymlink:
		gone()
		if err = os.Remove(full); err == nil {
			err = os.Symlink("no/such/file.go", full)
		}
	case mutFIFO:
		gone()
		if err = os.Remove(full); err == nil {
			err = syscall.Mkfifo(full, 0o644)
		}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", kind, p, err)
	}
	c.done[kind]++
	return nil
}

// Bounds of runBounded: a run that has used less than stallTicks of CPU time (clock ticks,
// 10 ms each) over stallTime is stuck; one still going after runLimit is too.
const (
	stallTime  = 5 * time.Second
	stallTicks = 5
	runLimit   = 2 * time.Minute
)

// runBounded runs cmd until it ends, or until it is stuck: it has used next to no CPU for
// stallTime (waiting on something that never comes; read from /proc where there is one), or
// it runs past runLimit. A stuck run is sent SIGQUIT (a Go program prints its goroutines'
// stacks on stderr) and killed; hung reports that.
func runBounded(cmd *exec.Cmd) (stdout, stderr []byte, hung bool, err error) {
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		return nil, nil, false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start, ticks := time.Now(), cpuTicks(cmd.Process.Pid)
	progress := start
	for err == nil && !hung {
		select {
		case err = <-done:
			return out.Bytes(), errOut.Bytes(), false, err
		case <-time.After(250 * time.Millisecond):
		}
		if now := cpuTicks(cmd.Process.Pid); now < 0 || now-ticks >= stallTicks {
			progress, ticks = time.Now(), now
		}
		hung = time.Since(progress) > stallTime || time.Since(start) > runLimit
	}
	_ = cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		err = <-done
	}
	return out.Bytes(), errOut.Bytes(), true, err
}

// cpuTicks returns the CPU time process pid has used (user and system, in clock ticks), or
// -1 when it cannot be read.
func cpuTicks(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// pid (comm) state ppid ... utime stime: fields 14 and 15, the comm may hold spaces.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return -1
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return utime + stime
}

// blockedIn returns the goroutines of a Go stack dump that run Quarry code and are blocked in
// a system call, each as its innermost standard library call and its Quarry frames.
func blockedIn(dump string) []string {
	var out []string
	for _, g := range strings.Split(dump, "\n\n") {
		if !strings.Contains(g, "[syscall") || !strings.Contains(g, "quarrysearch/quarry/") {
			continue
		}
		var frames []string
		osCall := "" // the outermost call into package os, below the Quarry frames
		lines := strings.Split(g, "\n")
		for i, line := range lines {
			if strings.HasPrefix(line, "os.") && len(frames) == 0 {
				osCall = line[:max(strings.LastIndexByte(line, '('), 0)]
			}
			fn, ok := strings.CutPrefix(line, "github.com/quarrysearch/quarry/")
			if !ok || strings.Contains(fn, "-fm(") {
				continue
			}
			fn = fn[:max(strings.LastIndexByte(fn, '('), 0)]
			if i+1 < len(lines) {
				at, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
				fn += " (" + filepath.Base(filepath.Dir(at)) + "/" + filepath.Base(at) + ")"
			}
			frames = append(frames, fn)
		}
		if osCall != "" {
			frames = append([]string{osCall}, frames...)
		}
		if s := strings.Join(frames, " <- "); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// indexAnswer is what the test reads of quarry index --json: manage_workspace index's
// answer, whose indexed list holds the run's report.
type indexAnswer struct {
	Indexed []indexSummary `json:"indexed"`
}

// indexSummary is what the test reads of the run's report.
type indexSummary struct {
	Files     int            `json:"files"`
	Skipped   map[string]int `json:"skipped"`
	Errors    []string       `json:"errors"`
	ElapsedMS int64          `json:"elapsed_ms"`
}

// Files that change, vanish, become unreadable or are replaced by something else while
// quarry index reads them neither crash the run nor fail it nor make it hang: it ends with
// exit status 0, skipping (and counting) what it could not read, the full-text index it
// leaves is ready, and the next run brings the index to exactly what a fresh index of the
// final tree holds (counts, every stored symbol, health, 10 lookups). Each case writes a tree
// of 600 Go files and runs the first quarry index over it while a goroutine changes a random
// file every 10 ms until the run ends. A run that uses next to no CPU for 5 s before it ends
// is hung; its goroutines' stacks say where. Unreadable means chmod 000 where permissions
// bind; as root (they do not), the same race is exercised by a path that becomes a
// directory or a dangling symlink. Named pipes have their own case: opening one blocks
// until a writer comes, so a reader that met one where it listed a file would wait forever.
func TestFilesChangingWhileIndexed(t *testing.T) {
	kinds := []string{mutRewrite, mutAppend, mutDelete, mutRename, mutDirectory, mutSymlink}
	if os.Geteuid() == 0 {
		t.Log("running as root: chmod 000 does not make a file unreadable to root, so that mutation is left out; directories and dangling symlinks replacing files cover a read that fails")
	} else {
		kinds = append(kinds, mutUnreadable)
	}
	t.Run("changed, deleted, unreadable", func(t *testing.T) { indexWhileChurning(t, kinds, 21) })
	t.Run("replaced by named pipes", func(t *testing.T) { indexWhileChurning(t, []string{mutRewrite, mutFIFO}, 22) })
}

func indexWhileChurning(t *testing.T, kinds []string, seed uint64) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 600 {
		pkg := fmt.Sprintf("p%02d", i%30)
		files[fmt.Sprintf("%s/f%03d.go", pkg, i)] = goFile(pkg, fmt.Sprintf("Churn%03d_", i), 20)
	}
	writeTree(t, root, files)
	c := &churn{root: root, rng: rand.New(rand.NewPCG(seed, seed)), kinds: kinds, done: map[string]int{}}
	for p := range files {
		c.files = append(c.files, p)
	}
	slices.Sort(c.files)
	stop, stopped := make(chan struct{}), make(chan error, 1)
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				stopped <- nil
				return
			case <-tick.C:
				if err := c.mutate(); err != nil {
					stopped <- err
					return
				}
			}
		}
	}()
	start := time.Now()
	stdout, stderr, hung, err := runBounded(exec.Command(quarryBin, "--root", root, "index", "--json"))
	took := time.Since(start)
	close(stop)
	if merr := <-stopped; merr != nil {
		t.Fatal(merr)
	}
	var sum indexSummary
	switch {
	case hung:
		t.Errorf("quarry index hung (no progress for %v, %v after it started) while files changed under it (%v); blocked in: %q",
			stallTime, time.Since(start).Round(time.Millisecond), c.done, blockedIn(string(stderr)))
	case bytes.Contains(stderr, []byte("panic")) || bytes.Contains(stderr, []byte("goroutine ")):
		t.Errorf("quarry index crashed while files changed under it: %v\n%s", err, stderr)
	case err != nil:
		t.Errorf("quarry index failed while files changed under it (%v): %v\n%s", c.done, err, stderr)
	default:
		var ans indexAnswer
		if jerr := json.Unmarshal(stdout, &ans); jerr != nil || len(ans.Indexed) != 1 {
			t.Errorf("quarry index --json: %v, %d reports\n%s", jerr, len(ans.Indexed), stdout)
		} else {
			sum = ans.Indexed[0]
		}
	}
	if !hung {
		if h, err := exec.Command(quarryBin, "--root", root, "health", "--json").Output(); !bytes.Contains(h, []byte(`"status": "ready"`)) {
			t.Errorf("health after the run: the full-text index is not ready (%v):\n%s", err, h)
		}
	}
	// The final tree: unreadable files readable again; directories, dangling symlinks and
	// named pipes stay where files were.
	for _, p := range c.unreadable {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start = time.Now()
	stdout2, stderr2, hung2, err := runBounded(exec.Command(quarryBin, "--root", root, "index"))
	second := time.Since(start)
	if hung2 || err != nil {
		t.Fatalf("second quarry index (hung %v): %v\n%s%s", hung2, err, stdout2, stderr2)
	}
	all := funcNames(readTree(t, root))
	rng := rand.New(rand.NewPCG(seed, 1))
	var lookups []string
	for range 10 {
		lookups = append(lookups, all[rng.IntN(len(all))])
	}
	compareFresh(t, "after the second run", inspect(t, root, lookups), root, "", lookups)
	t.Logf("600 files: the first index, under changes, took %v (hung: %v) with %d mutations %v; its summary: %d files, skipped %v, %d per-file errors; the second run took %v",
		took.Round(time.Millisecond), hung, c.seq, c.done, sum.Files, sum.Skipped, len(sum.Errors), second.Round(time.Millisecond))
}

// readTree returns the Go files under root (not .quarry) that are regular files, with their
// content.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".quarry" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
