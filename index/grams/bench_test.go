package grams

import (
	"runtime"
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
