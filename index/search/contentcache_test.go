package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

// TestContentCache: text read once is served from memory, the least recently used file
// leaves first when the cache is full, a file larger than an eighth of it is never kept,
// and a search of a later store generation reads anew what a batch may have changed.
func TestContentCache(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "big"}
	text := func(p string) string {
		if p == "big" {
			return strings.Repeat("x", 1000)
		}
		return strings.Repeat(p[1:], 100)
	}
	for _, p := range names {
		if err := b.Put(&store.FileRecord{Path: p, Language: "text", Hash: p, Size: int64(len(text(p))), Content: []byte(text(p))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	c := newContentCache(800) // eight files of 100 bytes (read as text alone: no lower-cased copies)
	gen, err := s.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) {
		_, content, err := c.fileContent(atGeneration(ctx, gen), s, p)
		if err != nil {
			t.Fatal(err)
		}
		if string(content) != text(p) {
			t.Fatalf("%s = %q, want %q", p, content, text(p))
		}
	}
	for _, p := range []string{"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f0", "f8"} {
		read(p)
	}
	if _, ok := c.byKey["f1"]; ok {
		t.Errorf("f1, the least recently used, is still cached: %v", keys(c))
	}
	if _, ok := c.byKey["f0"]; !ok {
		t.Errorf("f0, used again, left the cache: %v", keys(c))
	}
	if c.size > c.max || len(c.byKey) != 8 {
		t.Errorf("cache holds %d bytes in %d files, want at most %d in 8", c.size, len(c.byKey), c.max)
	}
	read("big")
	if _, ok := c.byKey["big"]; ok {
		t.Errorf("a file over an eighth of the cache was kept")
	}
	// a literal search asks for the lower-cased copy: made then, kept, and counted (one
	// more file out)
	want8 := text("f8")
	got8, err := c.fileText(atGeneration(ctx, gen), s, "f8")
	if err != nil || string(got8.content) != want8 || string(got8.lower) != strings.ToLower(want8) {
		t.Fatalf("fileText(f8) = %q, %q, %v", got8.content, got8.lower, err)
	}
	if e, ok := c.byKey["f8"]; !ok || e.Value.(*cachedContent).lower == nil || c.size > c.max || len(c.byKey) != 7 {
		t.Errorf("after folding f8: cached %v, %d bytes in %d files, want its copy kept within %d in 7", ok, c.size, len(c.byKey), c.max)
	}
	// served from memory for the generation it was read at: a search that started before
	// the batch deleting f0 still reads it; one that starts after does not
	b, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Delete("f0"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	read("f0")
	if gen, err = s.Generation(ctx); err != nil {
		t.Fatal(err)
	}
	if _, content, err := c.fileContent(atGeneration(ctx, gen), s, "f0"); err != nil || content != nil {
		t.Errorf("f0 after the batch deleting it = %q, %v; want nothing (the cache is of an older generation)", content, err)
	}
	if len(c.byKey) != 0 {
		t.Errorf("the cache kept %v across a batch", keys(c))
	}
}

func keys(c *contentCache) []string {
	var out []string
	for k := range c.byKey {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
