package extract

import (
	"path/filepath"
	"runtime"
	"testing"
)

func BenchmarkParseOnly(b *testing.B) {
	files := corpusFiles(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"))["go"]
	ex := New(registry(b), Options{})
	total := 0
	for _, f := range files {
		total += len(f.src)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, f := range files {
			t, err := ex.parse(f.lang, f.src)
			if err != nil {
				b.Fatal(err)
			}
			t.Close()
		}
	}
}
