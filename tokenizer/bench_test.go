package tokenizer

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/quarrysearch/quarry/languages"
)

// benchFile is one source file and the tokenizer of its language.
type benchFile struct {
	tk   *Tokenizer
	text string
}

// benchFiles reads the source files under root whose language is known, up to limit bytes.
func benchFiles(b *testing.B, root string, limit int) ([]benchFile, int) {
	b.Helper()
	reg, err := languages.Default()
	if err != nil {
		b.Fatal(err)
	}
	tks := map[string]*Tokenizer{}
	var files []benchFile
	total := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || total >= limit {
			return err
		}
		lang := reg.ForPath(p)
		if lang == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if tks[lang.Name] == nil {
			tks[lang.Name] = New(lang)
		}
		files = append(files, benchFile{tks[lang.Name], string(data)})
		total += len(data)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if total == 0 {
		b.Skipf("no source files under %s", root)
	}
	return files, total
}

func benchTokenize(b *testing.B, files []benchFile, total int) {
	b.SetBytes(int64(total))
	b.ReportAllocs()
	var buf []Token
	tokens := 0
	for b.Loop() {
		tokens = 0
		for _, f := range files {
			buf = f.tk.Append(buf[:0], f.text)
			tokens += len(buf)
		}
	}
	b.ReportMetric(float64(tokens)/float64(total)*1e6, "tokens/MB")
}

// BenchmarkTokenize tokenizes the Go standard library's net/http sources, which every machine
// that builds Quarry has.
func BenchmarkTokenize(b *testing.B) {
	files, total := benchFiles(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"), 64<<20)
	benchTokenize(b, files, total)
}

// BenchmarkTokenizeCorpus tokenizes up to 64 MB of the benchmark corpus named by
// QUARRY_CORPUS (see bench/corpus.sh) in all its languages.
func BenchmarkTokenizeCorpus(b *testing.B) {
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		b.Skip("QUARRY_CORPUS is not set")
	}
	files, total := benchFiles(b, root, 64<<20)
	benchTokenize(b, files, total)
}
