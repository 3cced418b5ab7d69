package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/localserver"
)

// quarryIn runs the quarry binary in root with QUARRY_AUTOWATCH set to autowatch.
func quarryIn(t *testing.T, root, autowatch string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(quarryBinary(t), args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "QUARRY_AUTOWATCH="+autowatch)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// watching reports whether a watcher serves root's workspace (quarry health's watch).
func watching(t *testing.T, root string) bool {
	t.Helper()
	out, _, err := quarryIn(t, root, "0", "health", "--json") // exit 1 while the watcher's first run is in progress
	if err != nil && out == "" {
		t.Fatalf("quarry health: %v", err)
	}
	var res struct {
		Health struct {
			Watch *struct {
				Running bool `json:"running"`
			} `json:"watch"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("quarry health --json: %v\n%s", err, out)
	}
	h := res.Health
	return h.Watch != nil && h.Watch.Running
}

// eventually waits up to 30 s for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("after 30 s: %s", what)
}

// TestAutoWatch: a search that answers from the index itself leaves a watcher behind
// (quarry watch --idle-exit, its output in .quarry/logs/watch.log); the next commands are
// answered by it, an edit is seen through it, and it stops once idle for QUARRY_AUTOWATCH.
// QUARRY_AUTOWATCH=0 starts none, and a value that is no duration is said so.
func TestAutoWatch(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := quarryIn(t, root, "0", "index"); err != nil {
		t.Fatalf("quarry index: %v\n%s%s", err, out, errOut)
	}
	logFile := filepath.Join(root, ".quarry", "logs", "watch.log")

	if _, errOut, err := quarryIn(t, root, "0", "search", "Alpha"); err != nil || watching(t, root) {
		t.Fatalf("QUARRY_AUTOWATCH=0: %v %s; a watcher runs: %v", err, errOut, watching(t, root))
	}
	if _, err := os.Stat(logFile); err == nil {
		t.Fatal("QUARRY_AUTOWATCH=0 started a watcher: watch.log exists")
	}
	if _, errOut, _ := quarryIn(t, root, "soon", "search", "Alpha"); !strings.Contains(errOut, `QUARRY_AUTOWATCH="soon": want a duration`) {
		t.Errorf("QUARRY_AUTOWATCH=soon: stderr %q", errOut)
	}

	out, errOut, err := quarryIn(t, root, "4s", "search", "Alpha")
	if err != nil || !strings.Contains(out, "a.go") {
		t.Fatalf("search: %v\n%s%s", err, out, errOut)
	}
	eventually(t, "no watcher serves the workspace after a search", func() bool { return watching(t, root) })
	if err := os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\n\nfunc Bravo() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the watcher did not index b.go", func() bool {
		out, _, _ := quarryIn(t, root, "4s", "goto", "Bravo")
		return strings.Contains(out, "b.go")
	})
	eventually(t, "the watcher did not stop once idle", func() bool {
		b, _ := os.ReadFile(logFile)
		return strings.Contains(string(b), "no request for 4s: stopping")
	})
	eventually(t, "the stopped watcher still serves", func() bool { return !watching(t, root) })
	if st, err := os.Stat(logFile); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("watch.log: %v %v; want mode 0600", st, err)
	}
}

// TestStopWhenIdle: a watcher started with --idle-exit stops once it no longer serves at
// the workspace's socket (its .quarry/ removed, and a new server there), and once idle.
func TestStopWhenIdle(t *testing.T) {
	root := t.TempDir()
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := localserver.Listen(svc)
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	why := make(chan string, 1)
	go stopWhenIdle(context.Background(), svc, time.Hour, ls.Current, func(w string) { why <- w })
	time.Sleep(100 * time.Millisecond)
	if err := os.RemoveAll(filepath.Join(root, ".quarry")); err != nil {
		t.Fatal(err)
	}
	other, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	ls2, err := localserver.Listen(other) // a new server in the new .quarry/
	if err != nil {
		t.Fatal(err)
	}
	defer ls2.Close()
	select {
	case w := <-why:
		if !strings.Contains(w, "gone or another server's") {
			t.Errorf("stopped because %q", w)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a watcher whose socket was replaced did not stop")
	}
	if !ls2.Current() {
		t.Error("the new server is not current")
	}
	go stopWhenIdle(context.Background(), other, 200*time.Millisecond, ls2.Current, func(w string) { why <- w })
	select {
	case w := <-why:
		if w != "no request for 200ms" {
			t.Errorf("stopped because %q", w)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an idle watcher did not stop")
	}
}
