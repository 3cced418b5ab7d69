package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// TestContentPagesAcrossBlocks: a plain content search ranks its files in blocks (the
// content index's order, then BM25 within each block): followed page by page through
// next_cursor, it gives every line holding the word exactly once, in the order of one
// search of them all, across more files than a block holds; and those are exactly the lines
// a scan of the files finds, inside longer identifiers and in any case.
func TestContentPagesAcrossBlocks(t *testing.T) {
	files := map[string]string{}
	want := map[string]bool{}
	for i := range 130 {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", i%7)
		for j := range 1 + i%5 {
			name := []string{"RetryLater", "retry", "maxRETRYCount", "noRetryHere"}[(i+j)%4]
			fmt.Fprintf(&b, "// filler line %d of file %d\nvar %s%d = %d\n", j, i, name, j, j)
			want[fmt.Sprintf("d%02d/f%03d.go:%d", i%13, i, 4+2*j)] = true
		}
		files[fmt.Sprintf("d%02d/f%03d.go", i%13, i)] = b.String()
	}
	files["other/none.go"] = "package other\n\nvar ret, ry, etr, try = 1, 2, 3, 4 // the trigrams, apart\n"
	root := t.TempDir()
	testkit.WriteFiles(t, root, files)
	s := indexedService(t, root)
	ctx := context.Background()

	whole, err := s.Search(ctx, SearchRequest{Query: "retry", Target: "content", Limit: intp(MaxLimit)})
	if err != nil {
		t.Fatal(err)
	}
	got := places(whole.Results)
	if whole.NextCursor != "" || len(got) != len(want) {
		t.Fatalf("one search: %d lines (next_cursor %q), want the %d holding retry", len(got), whole.NextCursor, len(want))
	}
	for _, p := range got {
		if !want[p] {
			t.Errorf("one search answered %s, which does not hold retry", p)
		}
	}
	var paged []string
	req := SearchRequest{Query: "retry", Target: "content", Limit: intp(7)}
	for page := 0; page <= len(want); page++ {
		res, err := s.Search(ctx, req)
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		paged = append(paged, places(res.Results)...)
		if res.NextCursor == "" {
			break
		}
		req.Cursor = res.NextCursor
	}
	if !slices.Equal(paged, got) {
		t.Errorf("in pages of 7: %d lines\n%v\nwant the %d of one search, in its order\n%v", len(paged), paged, len(got), got)
	}
}
