package reliability

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// A forced index handed to the workspace's server (quarry watch) completes when the server
// stops normally (interrupted, as when its terminal closes) in the middle of the run: the
// stopping server answers nothing, and the index command runs the index itself (issue 41:
// it used to exit 3 with "sql: statement is closed" or a cancellation).
func TestForcedIndexOutlivesStoppingServer(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("p%d/f%d.go", i%8, i)] = goFile(fmt.Sprintf("p%d", i%8), fmt.Sprintf("Stop%d_", i), 30)
	}
	writeTree(t, root, files)
	if out, err := exec.Command(quarryBin, "--root", root, "index").CombinedOutput(); err != nil {
		t.Fatalf("first index: %v\n%s", err, out)
	}
	for trial := range 3 {
		w, idx, done, stdout, stderr := handForcedIndex(t, root, trial)
		time.Sleep(time.Duration(10+trial*30) * time.Millisecond)
		w.signal(os.Interrupt) // a normal stop, mid-run
		var err error
		select {
		case err = <-done:
		case <-time.After(2 * time.Minute):
			idx.Process.Kill()
			err = <-done
			t.Errorf("trial %d: quarry index --force still running 2 minutes after its server stopped", trial)
		}
		if err != nil {
			t.Fatalf("trial %d: quarry index --force when its server stopped mid-run: %v\nstdout:\n%s\nstderr:\n%s", trial, err, stdout.String(), stderr.String())
		}
		out, err := exec.Command(quarryBin, "--root", root, "goto", "Stop399_29").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "f399.go") {
			t.Errorf("trial %d: goto after the forced index: %v\n%s", trial, err, out)
		}
	}
}

// Searches from other processes while forced index runs replace the index, some handed to
// a server that stops and starts again: every one ends in a complete answer (issue 41: 4 of
// 800 failed with "context canceled"). 1,000 searches from four loops.
func TestSearchesAcrossIndexSwaps(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("p%d/f%d.go", i%6, i)] = goFile(fmt.Sprintf("p%d", i%6), fmt.Sprintf("Swap%d_", i), 20)
	}
	writeTree(t, root, files)
	if out, err := exec.Command(quarryBin, "--root", root, "index").CombinedOutput(); err != nil {
		t.Fatalf("first index: %v\n%s", err, out)
	}
	const loops, each = 4, 250
	stop := make(chan struct{})
	var swaps int
	var swapErrs []string
	var swapWG sync.WaitGroup
	swapWG.Add(1)
	go func() { // forced runs, alone and handed to a server that then stops
		defer swapWG.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			var w *watchProc
			if i%3 == 2 {
				w = startWatch(t, root)
				if _, err := w.nextBatch(30 * time.Second); err != nil {
					swapErrs = append(swapErrs, err.Error())
				}
			}
			out, err := exec.Command(quarryBin, "--root", root, "index", "--force").CombinedOutput()
			if w != nil {
				w.signal(os.Interrupt)
			}
			if err != nil {
				swapErrs = append(swapErrs, fmt.Sprintf("index --force: %v: %s", err, out))
			}
			swaps++
		}
	}()
	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	for l := range loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				q := fmt.Sprintf("Swap%d_%d", (l*each+i)%300, i%20)
				out, err := exec.Command(quarryBin, "--root", root, "search", q, "--limit", "3").CombinedOutput()
				if err != nil || !strings.Contains(string(out), q) {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("search %s: %v: %.300s", q, err, out))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	swapWG.Wait()
	t.Logf("%d searches across %d forced index runs: %d failed", loops*each, swaps, len(failures))
	if swaps < 3 {
		t.Errorf("only %d forced index runs during the searches", swaps)
	}
	for i, f := range failures {
		if i == 10 {
			t.Errorf("... and %d more", len(failures)-10)
			break
		}
		t.Error(f)
	}
	for _, e := range swapErrs {
		t.Error(e)
	}
}
