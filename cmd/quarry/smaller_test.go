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

// A binary file given to quarry outline is said to be binary, whatever its name, where one
// of no known extension used to be "unknown language".
func TestSymbolsOfBinaryFile(t *testing.T) {
	dir := t.TempDir()
	blob := []byte("\x7fELF\x02\x01\x01\x00\x00\x00binary\x00data")
	for _, name := range []string{"blob.bin", "blob", "blob.go"} {
		p := filepath.Join(dir, name)
		writeFiles(t, dir, map[string]string{name: string(blob)})
		for _, args := range [][]string{{"outline", p}, {"outline", "--tree", p}} {
			code, _, errOut := quarry(t, "", args...)
			if code != exitUsage || !strings.Contains(errOut, "binary file") || strings.Contains(errOut, "unknown language") {
				t.Errorf("quarry %s: exit %d, stderr %q; want exit 2 and \"binary file\"", strings.Join(args, " "), code, errOut)
			}
		}
	}
}

// A file name holding a newline is quoted in every text output of the command line, one
// line per result, where it used to split the result's line in two.
func TestNewlineInPathOnTheCommandLine(t *testing.T) {
	root := smallRoot(t, map[string]string{
		"we\nird.go": "package a\n\n// weirdmarker\nfunc Weird() { Plain() }\n",
		"p.go":       "package a\n\nfunc Plain() { Weird() }\n",
	})
	for _, args := range [][]string{
		{"search", "weirdmarker"},
		{"search", "type:def Weird"},
		{"goto", "Weird"},
		{"refs", "Plain"},
		{"refs", "Weird", "--include-definition"},
		{"callers", "Plain"},
		{"explain", "Weird"},
		{"symbols", filepath.Join(root, "we\nird.go")},
		{"outline", filepath.Join(root, "we\nird.go")},
	} {
		code, out, errOut := quarry(t, "", append([]string{"--root", root}, args...)...)
		if code != exitOK {
			t.Errorf("quarry %q: exit %d: %s", args, code, errOut)
			continue
		}
		if !strings.Contains(out, `"we\nird.go"`) && !strings.Contains(out, `we\nird.go"`) {
			t.Errorf("quarry %q = %q, want the path quoted", args, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "ird.go") {
				t.Errorf("quarry %q: a line starts inside the path:\n%s", args, out)
			}
		}
	}
}

// The unknown-flag error lists each flag once, where the flags a command inherits (--root,
// --cpuprofile, --memprofile) used to appear twice.
func TestUnknownFlagListsEachFlagOnce(t *testing.T) {
	for _, args := range [][]string{{"search", "--zzzzzz", "x"}, {"goto", "--qqqqqq", "x"}, {"search", "--rot", "x"}} {
		code, _, errOut := quarry(t, "", args...)
		if code != exitUsage {
			t.Errorf("quarry %q: exit %d, want %d", args, code, exitUsage)
		}
		list := errOut
		if _, after, ok := strings.Cut(errOut, "known flags: "); ok {
			list, _, _ = strings.Cut(after, "\n")
		} else if _, after, ok := strings.Cut(errOut, "did you mean "); ok {
			list, _, _ = strings.Cut(after, "?")
			list = strings.ReplaceAll(list, " or ", ", ")
		} else {
			t.Errorf("quarry %q: stderr %q lists no flag", args, errOut)
			continue
		}
		seen := map[string]bool{}
		for _, f := range strings.Split(list, ", ") {
			if seen[f] {
				t.Errorf("quarry %q: %s listed twice in %q", args, f, errOut)
			}
			if f == "--cpuprofile" || f == "--memprofile" || f == "cpuprofile" {
				t.Errorf("quarry %q: the hidden %s is offered in %q", args, f, errOut)
			}
			seen[f] = true
		}
		if !seen["--root"] {
			t.Errorf("quarry %q: stderr %q does not list --root", args, errOut)
		}
	}
}
