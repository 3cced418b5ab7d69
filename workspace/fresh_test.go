package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/index/search"
)

// lineOf returns line n (1-based) of the file at path, as it is on disk now.
func lineOf(t *testing.T, path string, n int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// A searcher that read a file's text keeps no copy of it past the batch that changed the
// file: the lent index of a watcher's run (the case of quarry mcp, 50-200 ms after lines
// are inserted above a definition) answers a content search with the line the text is on
// now, or marks the hit stale; never the old text at its old line, unmarked.
func TestContentHitsFollowCommittedEdits(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "app.py")
	writeTree(t, root, map[string]string{"app.py": "import os\n\n# marker here\ndef run():\n    pass\n"})
	indexTree(t, root, IndexOptions{})
	if err := os.WriteFile(file, []byte("import os\n\n\n\n\n\n\n# marker here\ndef run():\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	req := withDefaults(search.Request{Query: q("marker"), Target: search.TargetContent})
	var lent *SearchIndex
	var checked int
	check := func(when string) {
		res, err := Search(context.Background(), []*SearchIndex{lent}, req)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		for _, h := range res.Hits {
			checked++
			if now := lineOf(t, file, h.Line); !h.Stale && now != h.Text {
				t.Errorf("%s: %s:%d %q, not stale, but the line is now %q", when, h.Path, h.Line, h.Text, now)
			}
		}
	}
	indexTree(t, root, IndexOptions{
		Serve: func(x *SearchIndex) {
			if x != nil {
				lent = x
				check("before the batch") // reads app.py as indexed
			}
		},
		Progress: func(Progress) { check("after the batch") },
	})
	if lent == nil || checked < 2 {
		t.Fatalf("the run lent no index or no search found the marker (%d hits checked)", checked)
	}
}

// A long-lived index (a watcher's, a server's) keeps the stored states of the files its hits
// came from, so a warm search's stale marks read nothing from the store; an edit on disk
// still marks the hit, and a batch the run commits (the generation moves) drops what was
// kept, so the re-indexed file is not marked from its old state.
func TestStaleMarksFromCachedStates(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "app.py")
	writeTree(t, root, map[string]string{"app.py": "# marker here\ndef run():\n    pass\n"})
	indexTree(t, root, IndexOptions{})
	req := withDefaults(search.Request{Query: q("marker"), Target: search.TargetContent})
	stale := func(x *SearchIndex, when string) bool {
		t.Helper()
		res, err := Search(context.Background(), []*SearchIndex{x}, req)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if len(res.Hits) != 1 || res.Hits[0].Path != "app.py" {
			t.Fatalf("%s: hits %+v, want the one line of app.py", when, res.Hits)
		}
		return res.Hits[0].Stale
	}
	kept := func(x *SearchIndex) bool {
		t.Helper()
		gen, err := x.store.Generation(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		_, missing := x.states.lookup(gen, []string{"app.py"})
		return len(missing) == 0
	}
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root), Name: "t"}
	x, err := OpenSearch(e, IndexDir(root, e.ID))
	if err != nil {
		t.Fatal(err)
	}
	if stale(x, "as indexed") {
		t.Fatal("as indexed: the hit is marked stale")
	}
	if !kept(x) {
		t.Fatal("after a search the state of app.py is not kept")
	}
	if err := os.WriteFile(file, []byte("# marker here, and more\ndef run():\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !stale(x, "edited, not indexed") {
		t.Fatal("edited on disk: the hit is not marked stale though its state was kept")
	}
	x.Close()
	var lent *SearchIndex
	var after int
	indexTree(t, root, IndexOptions{
		Serve: func(l *SearchIndex) {
			if l != nil {
				lent = l
				if !stale(lent, "before the batch") || !kept(lent) {
					t.Error("before the batch: the hit is not stale, or its state not kept")
				}
			}
		},
		Progress: func(Progress) {
			after++
			if stale(lent, "after the batch") {
				t.Error("after the batch: the hit is marked stale from the state kept before it")
			}
		},
	})
	if lent == nil || after == 0 {
		t.Fatal("the run lent no index or committed no batch")
	}
}
