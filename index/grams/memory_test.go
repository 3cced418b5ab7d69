package grams

import (
	"runtime"
	"testing"
	"time"
)

// TestBuilderMemory: a builder holding 64 MiB of source text (FlushBytes, what a Writer
// holds at most) stays well under 200 MB: its live heap after the last Add, plus everything
// Write allocates (an upper bound of its peak).
func TestBuilderMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads 64 MiB")
	}
	files := goCorpus(t, 64<<20)
	runtime.GC()
	var base, afterAdd, afterWrite runtime.MemStats
	runtime.ReadMemStats(&base)
	b := NewBuilder()
	total := int64(0)
	start := time.Now()
	for _, f := range files {
		b.Add(f.path, f.prior, f.content)
		total += int64(len(f.content))
	}
	addTime := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&afterAdd)
	start = time.Now()
	info, err := b.Write(t.TempDir(), "s.qg")
	if err != nil {
		t.Fatal(err)
	}
	writeTime := time.Since(start)
	runtime.ReadMemStats(&afterWrite)
	live := afterAdd.HeapAlloc - base.HeapAlloc
	peak := live + (afterWrite.TotalAlloc - afterAdd.TotalAlloc)
	t.Logf("%d files, %.1f MiB of text: Add %v (%.0f MB/s), Write %v; builder heap %.1f MiB, peak at most %.1f MiB; segment %.1f MiB (%.3f of the text)",
		len(files), float64(total)/(1<<20), addTime, float64(total)/addTime.Seconds()/1e6, writeTime,
		float64(live)/(1<<20), float64(peak)/(1<<20), float64(info.Bytes)/(1<<20), float64(info.Bytes)/float64(total))
	if peak > 120<<20 {
		t.Errorf("builder peak %d MiB, want well under 200 MB", peak>>20)
	}
	runtime.KeepAlive(b)
}
