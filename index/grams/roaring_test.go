package grams

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestAppendRoaring: what appendRoaring writes reads back with roaring's own reader as the
// same set, valid, for sparse, dense, run-heavy and multi-container sets; and it is as small
// as roaring's own serialization after RunOptimize.
func TestAppendRoaring(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	gen := []func() []uint32{
		func() []uint32 { return []uint32{0} },
		func() []uint32 { return []uint32{65535, 65536} },
		func() []uint32 { return seq(0, 5000) },            // one run
		func() []uint32 { return seq(100, 70000) },         // runs across containers
		func() []uint32 { return randSet(r, 4096, 65536) }, // array at its largest
		func() []uint32 { return randSet(r, 4097, 65536) }, // bitmap at its smallest
		func() []uint32 { return randSet(r, 30000, 65536) },
		func() []uint32 { return randSet(r, 50, 1<<20) }, // many containers
		func() []uint32 { return randSet(r, 20000, 300000) },
		func() []uint32 { // runs and gaps mixed
			var out []uint32
			for x := uint32(0); x < 200000; x += 1 + uint32(r.IntN(40)) {
				for range r.IntN(20) {
					out = append(out, x)
					x++
				}
			}
			return out
		},
	}
	for i := range 200 {
		want := gen[i%len(gen)]()
		if len(want) == 0 {
			continue
		}
		b := appendRoaring([]byte("prefix"), want)
		if !bytes.HasPrefix(b, []byte("prefix")) {
			t.Fatal("prefix lost")
		}
		bm := roaring.New()
		n, err := bm.FromBuffer(b[6:])
		if err != nil || n != int64(len(b)-6) {
			t.Fatalf("set %d: FromBuffer read %d of %d bytes: %v", i, n, len(b)-6, err)
		}
		if err := bm.Validate(); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
		if got := bm.ToArray(); !slices.Equal(got, want) {
			t.Fatalf("set %d: %d values read back, want %d", i, len(got), len(want))
		}
		ref := roaring.BitmapOf(want...)
		ref.RunOptimize()
		if size := ref.GetSerializedSizeInBytes(); uint64(len(b)-6) > size {
			t.Errorf("set %d: %d bytes, roaring writes %d", i, len(b)-6, size)
		}
	}
}

// TestSortByBits: sortDocs sorts and leaves its scratch zeroed.
func TestSortByBits(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	scratch := make([]uint64, 1000)
	for range 300 {
		docs := randSet(r, 1+r.IntN(3000), 64000)
		r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
		want := slices.Sorted(slices.Values(docs))
		sortDocs(docs, scratch)
		if !slices.Equal(docs, want) {
			t.Fatal("not sorted")
		}
		if slices.ContainsFunc(scratch, func(w uint64) bool { return w != 0 }) {
			t.Fatal("scratch left dirty")
		}
	}
}

func seq(lo, hi uint32) []uint32 {
	var out []uint32
	for x := lo; x < hi; x++ {
		out = append(out, x)
	}
	return out
}

// randSet returns n distinct values below max, sorted.
func randSet(r *rand.Rand, n int, max uint32) []uint32 {
	set := map[uint32]bool{}
	for len(set) < n {
		set[r.Uint32N(max)] = true
	}
	out := make([]uint32, 0, n)
	for x := range set {
		out = append(out, x)
	}
	slices.Sort(out)
	return out
}
