package reliability

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// handForcedIndex starts a quarry watch in root, then quarry index --force, which hands
// the run to it, and returns once the server holds the index lock (running the index); done
// gives the index command's end, stdout and stderr its output.
func handForcedIndex(t *testing.T, root string, trial int) (w *watchProc, idx *exec.Cmd, done chan error, stdout, stderr *bytes.Buffer) {
	t.Helper()
	w = startWatch(t, root)
	if _, err := w.nextBatch(30 * time.Second); err != nil {
		w.signal(os.Kill)
		t.Fatalf("trial %d: %v", trial, err)
	}
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	idx = exec.Command(quarryBin, "index", "--force")
	idx.Dir, idx.Stdout, idx.Stderr = root, stdout, stderr
	if err := idx.Start(); err != nil {
		t.Fatal(err)
	}
	done = make(chan error, 1)
	go func() { done <- idx.Wait() }()
	lock := lockPath(t, root)
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if _, err := os.Stat(lock); err == nil {
			return w, idx, done, stdout, stderr
		}
	}
	w.signal(os.Kill)
	t.Fatalf("trial %d: the server never took the index lock\n%s", trial, w.output())
	return nil, nil, nil, nil, nil
}

// A forced index handed to the workspace's server (quarry watch) while the server dies in
// the middle of the run, killed and not yet reaped by its parent (a zombie), is taken over:
// the index command runs it itself and succeeds, where the dead server's index lock used to
// make it fail with INDEX_BUSY (exit 3) until the zombie was reaped.
func TestForcedIndexTakesOverFromDeadServer(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("p%d/f%d.go", i%8, i)] = goFile(fmt.Sprintf("p%d", i%8), fmt.Sprintf("Handover%d_", i), 30)
	}
	writeTree(t, root, files)
	if out, err := exec.Command(quarryBin, "--root", root, "index").CombinedOutput(); err != nil {
		t.Fatalf("first index: %v\n%s", err, out)
	}
	for trial := range 3 {
		w, idx, done, stdout, stderr := handForcedIndex(t, root, trial)
		time.Sleep(time.Duration(trial*20) * time.Millisecond)
		if err := w.cmd.Process.Kill(); err != nil { // not reaped until the index has ended
			t.Fatal(err)
		}
		var err error
		select {
		case err = <-done:
		case <-time.After(2 * time.Minute):
			idx.Process.Kill()
			err = <-done
			t.Errorf("trial %d: quarry index --force still running 2 minutes after its server died", trial)
		}
		zombie := isZombie(w.cmd.Process.Pid)
		w.signal(os.Kill) // reap
		if err != nil {
			t.Fatalf("trial %d: quarry index --force after its server died: %v\nstdout:\n%s\nstderr:\n%s", trial, err, stdout.String(), stderr.String())
		}
		if !strings.Contains(stderr.String(), "handing index to quarry process") {
			t.Errorf("trial %d: the forced index was not handed to the server:\n%s", trial, stderr.String())
		}
		if !zombie {
			t.Logf("trial %d: the server was reaped before the index ended", trial)
		}
		out, err := exec.Command(quarryBin, "--root", root, "goto", "Handover399_29").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "f399.go") {
			t.Errorf("trial %d: goto after the take-over: %v\n%s", trial, err, out)
		}
	}
}

// isZombie reports whether process pid has ended and is not reaped.
func isZombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && strings.HasPrefix(s[i+1:], " Z")
}
