package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
)

// echo "# marker" >> app.py; quarry search marker: the search finds the line (a few changed
// files are indexed first); with more changed files than that, nothing found says how many
// changed since the last index.
func TestSearchAfterEditsWithoutWatcher(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	files := map[string]string{"app.py": "def run():\n    pass\n"}
	for i := range tools.FreshenLimit + 2 {
		files[fmt.Sprintf("lib/m%02d.py", i)] = fmt.Sprintf("def f%d():\n    pass\n", i)
	}
	writeFiles(t, root, files)
	if code, _, errOut := quarry(t, "", "--root", root, "index"); code != exitOK {
		t.Fatalf("quarry index: exit %d\n%s", code, errOut)
	}
	appendTo := func(p, line string) {
		full := filepath.Join(root, filepath.FromSlash(p))
		f, err := os.OpenFile(full, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, line)
		f.Close()
		later := time.Now().Add(2 * time.Second)
		os.Chtimes(full, later, later)
	}
	appendTo("app.py", "# marker")
	if code, out, errOut := quarry(t, "", "--root", root, "search", "marker"); code != exitOK || !strings.Contains(out, "app.py:3:# marker") {
		t.Errorf("search marker after appending it to app.py: exit %d\n%s%s", code, out, errOut)
	}
	for i := range tools.FreshenLimit + 2 {
		appendTo(fmt.Sprintf("lib/m%02d.py", i), "# beacon")
	}
	want := fmt.Sprintf("%d files changed since the last index", tools.FreshenLimit+2)
	if code, _, errOut := quarry(t, "", "--root", root, "search", "beacon"); code != exitNotFound || !strings.Contains(errOut, want) {
		t.Errorf("search beacon after changing %d files: exit %d\n%s\nwant exit 1 and %q", tools.FreshenLimit+2, code, errOut, want)
	}
}
