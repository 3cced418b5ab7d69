package nav

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

// Refs over identifier blobs answers what a scan of every identifier answers: the uses of
// a name by path, line and column, counted, filtered by kind and paged.
func TestStoreRefsMatchesScan(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	r := rand.New(rand.NewPCG(5, 6))
	var recs []*store.FileRecord
	for i := range 30 {
		path := fmt.Sprintf("d%d/f%02d.go", i%3, i)
		rec := storetest.Record(path, "package f\n")
		rec.Extract.Identifiers = storetest.RandomIdents(r, r.IntN(60))
		recs = append(recs, rec)
	}
	// Put them, then replace some files in place.
	storetest.Put(t, s, recs...)
	for _, rec := range recs[:10] {
		rec.Extract.Identifiers = storetest.RandomIdents(r, r.IntN(60))
	}
	storetest.Put(t, s, recs[:10]...)
	var all []Ref
	for _, rec := range recs {
		for _, x := range rec.Extract.Identifiers {
			if x.Name == "err" {
				all = append(all, Ref{Path: rec.Path, Line: x.StartLine, Column: x.StartColumn, Kind: x.Kind.String()})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b Ref) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	strip := func(refs []Ref) []Ref {
		out := slices.Clone(refs)
		for i := range out {
			out[i].Text, out[i].Container, out[i].ContainerKind, out[i].ContainerID = "", "", "", ""
		}
		return out
	}
	for _, kinds := range [][]string{nil, {"call"}, {"call", "import"}} {
		want := slices.DeleteFunc(slices.Clone(all), func(x Ref) bool { return kinds != nil && !slices.Contains(kinds, x.Kind) })
		for _, page := range [][2]int{{0, 10}, {7, 25}, {len(want) - 3, 10}, {0, 100000}, {len(want) + 5, 10}} {
			got, total, err := NewReader(s).Refs(ctx, "err", kinds, page[0], page[1])
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := min(max(page[0], 0), len(want)), min(max(page[0], 0)+page[1], len(want))
			if total != len(want) || !slices.Equal(strip(got), want[lo:hi]) {
				t.Errorf("kinds %v, offset %d, limit %d: %d of %d: %v\nwant %v", kinds, page[0], page[1], len(got), total, got, want[lo:hi])
			}
		}
	}
	if _, _, err := NewReader(s).Refs(ctx, "err", []string{"calls"}, 0, 10); err == nil {
		t.Error("an unknown kind was accepted")
	}
	// Deleting files removes their names.
	b, _ := s.Begin(ctx)
	for _, rec := range recs {
		if err := b.Delete(rec.Path); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.DB().QueryRow(`SELECT (SELECT count(*) FROM identifier_names) + (SELECT count(*) FROM identifiers)`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after deleting every file: %d identifier rows left (%v)", n, err)
	}
}
