package grams

import (
	"bytes"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
)

// BenchmarkDecode compares ways of reading a roaring posting from the mapped file, on every
// posting above smallMax of a segment of the first 40 MB of Go's sources, each read and
// intersected with the posting of "ret": FromBuffer (the format's way), FromUnsafeBytes, a
// copying ReadFrom, and FrozenView over the frozen format (32-byte aligned copies; the
// format would have to pad each posting).
func BenchmarkDecode(b *testing.B) {
	files := goCorpus(b, 40<<20)
	dir := b.TempDir()
	bl := NewBuilder()
	for _, f := range files {
		bl.Add(f.path, f.prior, f.content)
	}
	if _, err := bl.Write(dir, "s.qg"); err != nil {
		b.Fatal(err)
	}
	s, err := OpenSegment(filepath.Join(dir, "s.qg"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var bodies [][]byte
	var frozen [][]byte
	for i := range s.grams {
		p, _ := s.posting(i)
		if p.card <= smallMax {
			continue
		}
		bodies = append(bodies, p.body)
		bm, _ := s.decode(p)
		var buf bytes.Buffer
		bm.WriteFrozenTo(&buf)
		al := make([]byte, buf.Len()+32)
		off := 0
		for uintptrOf(al[off:])%32 != 0 {
			off++
		}
		copy(al[off:], buf.Bytes())
		frozen = append(frozen, al[off:off+buf.Len()])
	}
	ri, _ := s.find(queryGrams("ret")[0])
	rp, _ := s.posting(ri)
	ret, _ := s.decode(rp)
	ret.CloneCopyOnWriteContainers()
	b.ReportMetric(float64(len(bodies)), "postings")
	run := func(name string, read func(bm *roaring.Bitmap, i int)) {
		for _, and := range []bool{false, true} {
			n := name
			if and {
				n += "+And"
			}
			b.Run(n, func(b *testing.B) {
				for b.Loop() {
					for i := range bodies {
						bm := roaring.New()
						read(bm, i)
						if and {
							bm.And(ret)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bodies)), "ns/posting")
			})
		}
	}
	run("FromBuffer", func(bm *roaring.Bitmap, i int) { bm.FromBuffer(bodies[i]) })
	run("FromUnsafeBytes", func(bm *roaring.Bitmap, i int) { bm.FromUnsafeBytes(bodies[i]) })
	run("ReadFrom", func(bm *roaring.Bitmap, i int) { bm.ReadFrom(bytes.NewReader(bodies[i])) })
	run("FrozenView", func(bm *roaring.Bitmap, i int) { bm.FrozenView(frozen[i]) })
}

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
