package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The smaller defects of issue 29 (item 14) on the command line, a test each.

// smallRoot writes files (path -> content) in a temporary workspace, indexes it and returns
// its root.
func smallRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, files)
	if code, _, errOut := quarry(t, "", "--root", root, "index"); code != exitOK {
		t.Fatalf("quarry index: exit %d: %s", code, errOut)
	}
	return root
}

// A symbol that names no definition is "nothing found" (exit 1) for every command that
// looks one up, with a message saying so, where explain, callers and callees used to exit 2
// (a usage error) and goto 1.
func TestUnknownSymbolIsNothingFound(t *testing.T) {
	root := smallRoot(t, map[string]string{"a.go": "package a\n\nfunc Known() {}\n"})
	for _, cmd := range []string{"goto", "explain", "callers", "callees", "refs"} {
		for _, json := range []bool{false, true} {
			args := []string{"--root", root, cmd, "NoSuchThing"}
			if json {
				args = append(args, "--json")
			}
			code, out, errOut := quarry(t, "", args...)
			if code != exitNotFound {
				t.Errorf("quarry %s: exit %d, want %d\n%s%s", strings.Join(args[2:], " "), code, exitNotFound, out, errOut)
			}
			if !json && !strings.Contains(errOut, "NoSuchThing") {
				t.Errorf("quarry %s: stderr %q does not name the symbol", strings.Join(args[2:], " "), errOut)
			}
			if strings.Contains(errOut, "--help") {
				t.Errorf("quarry %s: stderr %q points to the usage: the command was right", strings.Join(args[2:], " "), errOut)
			}
		}
	}
}
