package extract

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/languages"
)

// sourceFile is one file of a benchmark corpus.
type sourceFile struct {
	path string
	lang *languages.Language
	src  []byte
}

// corpusFiles reads the files under root that have an extractor, grouped by language.
func corpusFiles(tb testing.TB, root string) map[string][]sourceFile {
	tb.Helper()
	reg := registry(tb)
	byLang := map[string][]sourceFile{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".quarry" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if l := reg.Detect(p, src); l != nil && Supported(l.Name) && len(src) <= DefaultMaxFileSize {
			byLang[l.Name] = append(byLang[l.Name], sourceFile{p, l, src})
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return byLang
}

func benchExtract(b *testing.B, files []sourceFile) {
	ex := New(registry(b), Options{})
	total := 0
	for _, f := range files {
		total += len(f.src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	symbols := 0
	for b.Loop() {
		symbols = 0
		for _, f := range files {
			res, err := ex.Extract(context.Background(), f.path, f.src, f.lang)
			if err != nil {
				b.Fatal(err)
			}
			symbols += len(res.Symbols)
		}
	}
	b.ReportMetric(float64(symbols)*float64(b.N)/b.Elapsed().Seconds(), "symbols/s")
}

// BenchmarkExtract extracts the Go standard library's net/http sources on one goroutine.
func BenchmarkExtract(b *testing.B) {
	files := corpusFiles(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"))["go"]
	if len(files) == 0 {
		b.Skip("no Go sources in GOROOT")
	}
	benchExtract(b, files)
}

// BenchmarkExtractCorpus extracts the corpus named by QUARRY_CORPUS, one sub-benchmark per
// language, on one goroutine.
func BenchmarkExtractCorpus(b *testing.B) {
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		b.Skip("QUARRY_CORPUS is not set (see bench/corpus.sh)")
	}
	byLang := corpusFiles(b, root)
	names := make([]string, 0, len(byLang))
	for name := range byLang {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.Run(name, func(b *testing.B) { benchExtract(b, byLang[name]) })
	}
}

// TestCorpus extracts every file of the corpus named by QUARRY_CORPUS on all cores and reports
// symbols per language and the throughput; any error fails it.
func TestCorpus(t *testing.T) {
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		t.Skip("QUARRY_CORPUS is not set (see bench/corpus.sh)")
	}
	byLang := corpusFiles(t, root)
	ex := New(registry(t), Options{})
	var all []sourceFile
	for _, files := range byLang {
		all = append(all, files...)
	}
	var next, bytes atomic.Int64
	counts := make([]int, len(all))
	var wg sync.WaitGroup
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(all); i = int(next.Add(1) - 1) {
				f, err := ex.Extract(context.Background(), all[i].path, all[i].src, all[i].lang)
				if err != nil {
					t.Errorf("%s: %v", all[i].path, err)
					continue
				}
				counts[i] = len(f.Symbols)
				bytes.Add(int64(len(all[i].src)))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	perLang := map[string]int{}
	total := 0
	for i, f := range all {
		perLang[f.lang.Name] += counts[i]
		total += counts[i]
	}
	for name, files := range byLang {
		t.Logf("%-11s %5d files %8d symbols", name, len(files), perLang[name])
	}
	t.Logf("%d files, %.1f MB, %d symbols in %v on %d cores: %.1f MB/s, %.0f symbols/s",
		len(all), float64(bytes.Load())/1e6, total, elapsed.Round(time.Millisecond), runtime.GOMAXPROCS(0),
		float64(bytes.Load())/1e6/elapsed.Seconds(), float64(total)/elapsed.Seconds())
}
