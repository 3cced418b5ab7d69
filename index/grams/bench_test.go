package grams

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// BenchmarkBuild measures Add and Write of the first 40 MB of Go's own sources as one
// segment: MB/s of text, the segment's size as a fraction of the text, and the builder's
// memory (the Go heap in use after the last Add, before Write).
func BenchmarkBuild(b *testing.B) {
	files := goCorpus(b, 40<<20)
	total := int64(0)
	for _, f := range files {
		total += int64(len(f.content))
	}
	dir := b.TempDir()
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	b.SetBytes(total)
	b.ResetTimer()
	var info SegmentInfo
	var heap uint64
	for i := 0; i < b.N; i++ {
		bl := NewBuilder()
		for _, f := range files {
			bl.Add(f.path, f.prior, f.content)
		}
		if i == 0 {
			b.StopTimer()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = ms.HeapAlloc - base.HeapAlloc
			b.StartTimer()
		}
		var err error
		info, err = bl.Write(dir, "seg-0000000000000001.qg")
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(info.Bytes)/float64(total), "size/text")
	b.ReportMetric(float64(heap)/(1<<20), "heapMiB")
	b.ReportMetric(float64(len(files)), "files")
}

// benchQueries are the queries BenchmarkCandidates measures: a common literal with
// punctuation, a rare word, a very common word, an And of two, an Or, and a long
// identifier.
var benchQueries = []struct {
	name string
	q    *Query
}{
	{"func", Literal("func (")},
	{"rare", Literal("errnotexist")},
	{"return", Literal("return")},
	{"and", And(Literal("retry"), Literal("timeout"))},
	{"or", Or(Literal("mutex"), Literal("semaphore"))},
	{"long", Literal("NewReaderSize")},
}

// BenchmarkCandidates measures Candidates on the first 40 MB of Go's sources, in one
// segment (as a full build with the default FlushBytes writes them) and in 5 (FlushBytes
// 8 MiB).
func BenchmarkCandidates(b *testing.B) {
	files := goCorpus(b, 40<<20)
	for _, flush := range []int64{64 << 20, 8 << 20} {
		old := FlushBytes
		FlushBytes = flush
		dir := b.TempDir()
		w, err := NewWriter(dir, Manifest{})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			w.Put(f.path, f.prior, f.content)
		}
		m, err := w.Finish()
		w.Close()
		FlushBytes = old
		if err != nil {
			b.Fatal(err)
		}
		ix, err := Open(dir, m)
		if err != nil {
			b.Fatal(err)
		}
		for _, bq := range benchQueries {
			b.Run(fmt.Sprintf("%s/segs=%d", bq.name, len(m.Segments)), func(b *testing.B) {
				n := 0
				for b.Loop() {
					n = len(ix.Candidates(bq.q))
				}
				b.ReportMetric(float64(n), "candidates")
			})
		}
		ix.Close()
	}
}

// BenchmarkMerge measures merging segments without the text: the first 40 MB of Go's
// sources written in segments of FlushBytes = 4 MiB (about 10), merged into one by Compact.
func BenchmarkMerge(b *testing.B) {
	files := goCorpus(b, 40<<20)
	defer setFlush(4 << 20)()
	dir := b.TempDir()
	w, err := NewWriter(dir, Manifest{})
	if err != nil {
		b.Fatal(err)
	}
	total := int64(0)
	for _, f := range files {
		w.Put(f.path, f.prior, f.content)
		total += int64(len(f.content))
	}
	m, err := w.Finish()
	w.Close()
	if err != nil {
		b.Fatal(err)
	}
	in := int64(0)
	for _, e := range m.Segments {
		in += e.Bytes
	}
	b.SetBytes(total)
	b.ResetTimer()
	var out Manifest
	for b.Loop() {
		w, err := NewWriter(dir, m)
		if err != nil {
			b.Fatal(err)
		}
		w.Compact()
		out, err = w.Finish()
		w.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		Clean(dir, Manifest{Segments: append(slices.Clone(m.Segments), out.Segments...)})
		os.Remove(filepath.Join(dir, out.Segments[0].Name))
		b.StartTimer()
	}
	b.ReportMetric(float64(len(m.Segments)), "segments")
	b.ReportMetric(float64(in)/(1<<20), "inMiB")
	b.ReportMetric(float64(out.Segments[0].Bytes)/(1<<20), "outMiB")
}

// BenchmarkOpen measures OpenSegment of the segment of the first 40 MB of Go's sources
// (its header, documents and directory checked), and the first query on a fresh open (its
// posting blocks' CRCs checked).
func BenchmarkOpen(b *testing.B) {
	files := goCorpus(b, 40<<20)
	dir := b.TempDir()
	bl := NewBuilder()
	for _, f := range files {
		bl.Add(f.path, f.prior, f.content)
	}
	if _, err := bl.Write(dir, "s.qg"); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "s.qg")
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			s, err := OpenSegment(path)
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	b.Run("open+query", func(b *testing.B) {
		for b.Loop() {
			s, err := OpenSegment(path)
			if err != nil {
				b.Fatal(err)
			}
			s.Match(And(Literal("return"), Literal("mutex")))
			s.Close()
		}
	})
}
