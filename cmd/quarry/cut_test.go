package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// cutFiles is a workspace with twelve methods named Render, a function Next called twice
// where resolution ties the call to it and three times on a library's type, and a function
// Tick with more callers than a call tree holds.
func cutFiles() map[string]string {
	files := map[string]string{
		"app.go": "package main\n\nimport \"container/list\"\n\n// Next advances.\nfunc Next() {}\n\nfunc a() { Next() }\n\nfunc b() { Next() }\n\n" +
			"func c(l *list.Element) { l.Next() }\n\nfunc d(l *list.Element) { l.Next(); l.Next() }\n",
	}
	var many strings.Builder // Tick and 501 callers of it: more than a tree holds
	many.WriteString("package main\n\n// Tick ticks.\nfunc Tick() {}\n")
	for i := range 501 {
		fmt.Fprintf(&many, "\nfunc tick%d() { Tick() }\n", i)
	}
	files["many.go"] = many.String()
	for i := 1; i <= 12; i++ {
		files[fmt.Sprintf("t%d.go", i)] = fmt.Sprintf("package main\n\n// T%d renders.\ntype T%d struct{}\n\n// Render writes.\nfunc (t T%d) Render() {}\n", i, i, i)
	}
	return files
}

// TestCutListsSaySo: a list cut by its limit or page says so on standard error, with the
// flag that shows the rest, and refs and callers say how many uses they left unresolved;
// standard output keeps one result a line.
func TestCutListsSaySo(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, cutFiles())
	tests := []struct {
		args    string
		results int    // lines on standard output
		note    string // standard error
	}{
		{"goto Render", 10, "(10 of 12 definitions shown; --limit 12 for all)\n"},
		{"goto Render --limit 3", 3, "(3 of 12 definitions shown; --limit 12 for all)\n"},
		{"goto Render --limit 12", 12, ""},
		{"search Render --target definitions --limit 3", 3, "(first 3 results shown; --limit 6 for more)\n"},
		{"search Render --target content --limit 4", 4, "(4 results on this page; --cursor "},
		{"refs Next", 3, "(3 more uses of Next left unresolved; --unresolved lists them)\n"},
		{"refs Next --unresolved --limit 2", 3, "(2 of 5 uses shown; --cursor 2 for the next page)\n"},
		{"refs Next --unresolved", 6, ""},
		{"callers Next", 4, "(3 more calls of Next left unresolved; quarry refs Next --kind call --unresolved lists them)\n"},
		{"callers Tick", 502, "(first 500 callers shown, the most a tree holds; quarry refs Tick --kind call for the rest)\n"},
		{"callers Tick --depth 2", 502, "(first 500 callers shown, the most a tree holds; --depth 1 or quarry refs Tick --kind call for the rest)\n"},
	}
	for _, tt := range tests {
		code, out, errOut := quarry(t, "", append([]string{"--root", root}, strings.Fields(tt.args)...)...)
		if code != exitOK {
			t.Errorf("quarry %s: exit %d, stderr %q", tt.args, code, errOut)
			continue
		}
		if n := strings.Count(out, "\n"); n != tt.results {
			t.Errorf("quarry %s: %d lines on standard output, want %d:\n%s", tt.args, n, tt.results, out)
		}
		if errOut != tt.note && !(strings.HasSuffix(tt.note, "--cursor ") && strings.HasPrefix(errOut, tt.note) && strings.HasSuffix(errOut, " for the next page)\n")) {
			t.Errorf("quarry %s: standard error %q, want %q", tt.args, errOut, tt.note)
		}
	}
}
