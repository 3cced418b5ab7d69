package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIndexCompact: after an edit, a compacting run leaves one content segment and one
// full-text segment, and an index no larger than the same edit's without compaction (issue
// 44: a one-line edit grew a cluster's shard by 15%); the edited text is what a search
// finds.
func TestIndexCompact(t *testing.T) {
	size := func(dir string) (total int64, grams, zaps int) {
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				total += info.Size()
				switch {
				case strings.HasSuffix(p, ".qg"):
					grams++
				case strings.HasSuffix(p, ".zap"):
					zaps++
				}
			}
			return nil
		})
		return
	}
	run := func(compact bool) (int64, int, int, string) {
		root := t.TempDir()
		files := map[string]string{}
		for i := range 40 {
			files[fmt.Sprintf("pkg/f%02d.go", i)] = fmt.Sprintf("package pkg\n\n// Func%02d does %d things.\nfunc Func%02d(x int) int { return x * %d }\n", i, i, i, i)
		}
		writeTree(t, root, files)
		indexTree(t, root, IndexOptions{})
		for round := range 3 {
			writeTree(t, root, map[string]string{"pkg/f07.go": fmt.Sprintf("package pkg\n\n// Edited%d is new.\nfunc Edited%d() {}\n", round, round)})
			later := time.Now().Add(time.Duration(2+round) * time.Second)
			if err := os.Chtimes(filepath.Join(root, "pkg/f07.go"), later, later); err != nil {
				t.Fatal(err)
			}
			indexTree(t, root, IndexOptions{Compact: compact})
		}
		dir := IndexDir(root, ID(mustCanon(t, root)))
		total, grams, zaps := size(dir)
		x, err := OpenSearch(Entry{ID: "w", Root: root}, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		text, err := x.Content(context.Background(), "pkg/f07.go")
		if err != nil {
			t.Fatal(err)
		}
		return total, grams, zaps, string(text)
	}
	plain, pg, pz, _ := run(false)
	compact, cg, cz, text := run(true)
	t.Logf("after 3 edits: %d bytes in %d content and %d full-text segments; compacted: %d bytes in %d and %d", plain, pg, pz, compact, cg, cz)
	if cg != 1 || cz != 1 {
		t.Errorf("compacted: %d content segments and %d full-text segments, want 1 each", cg, cz)
	}
	if compact > plain {
		t.Errorf("compacted index %d bytes, larger than without compaction (%d)", compact, plain)
	}
	if !strings.Contains(text, "Edited2") {
		t.Errorf("the compacted index holds %q for the edited file", text)
	}
}
