package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer a running command writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// While quarry watch runs, the other commands of the workspace ask it: quarry index is
// handed to it (and says so), quarry health reports its watcher, quarry search answers; a
// second quarry watch waits for the first, with a message.
func TestCommandsAskTheRunningServer(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{"main.go": "package main\n\n// Serve serves.\nfunc Serve() {}\n"})
	if code, _, errOut := quarry(t, "", "index", root); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	ctx, stop := context.WithCancel(context.Background())
	var watchOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--root", root, "watch"}, strings.NewReader(""), &watchOut, &watchOut)
	}()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("quarry watch: %v", err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(watchOut.String(), " scan: ") {
		if time.Now().After(deadline) {
			t.Fatalf("quarry watch did not start: %q", watchOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	code, out, errOut := quarry(t, "", "--root", root, "index")
	want := fmt.Sprintf("handing index to quarry process %d", os.Getpid())
	if code != exitOK || !strings.Contains(errOut, want) || !strings.Contains(out, "Indexed ") {
		t.Errorf("index while a watch runs: exit %d\nstdout %s\nstderr %s\nwant %q", code, out, errOut, want)
	}
	code, out, _ = quarry(t, "", "--root", root, "health")
	if code != exitOK || !strings.Contains(out, "watcher: running since") {
		t.Errorf("health while a watch runs: exit %d\n%s", code, out)
	}
	code, out, errOut = quarry(t, "", "--root", root, "search", "Serve")
	if code != exitOK || !strings.Contains(out, "main.go:4:1: function Serve") {
		t.Errorf("search while a watch runs: exit %d\n%s%s", code, out, errOut)
	}
	wctx, wstop := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer wstop()
	var second bytes.Buffer
	if err := run(wctx, []string{"--root", root, "watch"}, strings.NewReader(""), &second, &second); err != nil {
		t.Errorf("a second quarry watch: %v", err)
	}
	if !strings.Contains(second.String(), fmt.Sprintf("waiting: quarry process %d serves this workspace", os.Getpid())) {
		t.Errorf("a second quarry watch said %q; want it to wait for the first", second.String())
	}
}
