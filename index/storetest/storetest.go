// Package storetest makes stores for tests: an empty store in a temporary directory, file
// records with symbols and identifiers, and the extractor's golden sources.
package storetest

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// Open opens an empty store in a temporary directory, closed when the test ends.
func Open(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "db", "symbols.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Record returns the record of a Go file at path holding content, with one function per
// name in syms, each with an identifier, a relationship and a type.
func Record(path, content string, syms ...string) *store.FileRecord {
	f := &extract.File{Path: path, Language: "go"}
	for i, name := range syms {
		f.Symbols = append(f.Symbols, extract.Symbol{ID: path + "#" + name, Name: name, Kind: extract.Function, Language: "go", Path: path,
			Span: extract.Span{StartLine: i + 1, EndLine: i + 1, StartByte: 0, EndByte: len(content)}, Metadata: map[string]string{"k": "v"}})
		f.Identifiers = append(f.Identifiers, extract.Identifier{Name: "x" + name, Kind: extract.Call})
		f.Relationships = append(f.Relationships, extract.Relationship{FromID: path + "#" + name, FromName: name, To: "y", Kind: extract.Calls})
		f.Types = append(f.Types, extract.TypeInfo{SymbolID: path + "#" + name, Role: "return", Type: "int"})
	}
	return &store.FileRecord{Path: path, Language: "go", Hash: "h-" + content, Size: int64(len(content)), MTime: 1, Content: []byte(content), Extract: f}
}

// Put writes recs in one transaction and returns the paths it touched.
func Put(t *testing.T, s *store.Store, recs ...*store.FileRecord) []string {
	t.Helper()
	b, err := s.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := b.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	return b.Touched()
}

// RandomIdents returns n identifiers with names from a small vocabulary (some not ASCII),
// lines and bytes that go back as well as forward, and containers some of which are none.
func RandomIdents(r *rand.Rand, n int) []extract.Identifier {
	names := []string{"err", "x", "Größe", "handleRequest", "a_b", "ǅemal", "n"}
	containers := []string{"", "", "c1", "c2", "0123456789abcdef"}
	out := make([]extract.Identifier, n)
	for i := range out {
		name := names[r.IntN(len(names))]
		line, col, start := 1+r.IntN(5000), 1+r.IntN(200), r.IntN(1<<22)
		out[i] = extract.Identifier{Name: name, Kind: extract.IdentKind(1 + r.IntN(5)),
			ContainingSymbolID: containers[r.IntN(len(containers))],
			Span: extract.Span{StartLine: line, StartColumn: col, EndLine: line, EndColumn: col + utf8.RuneCountInString(name),
				StartByte: start, EndByte: start + len(name)}}
	}
	return out
}

// Source is one of the extractor's golden sources: its path below extract/testdata
// and its text.
type Source struct {
	Path string
	Src  []byte
}

// GoldenSources reads every language's golden source.
func GoldenSources(t *testing.T) []Source {
	t.Helper()
	dir := filepath.Join(moduleRoot(t), "extract", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Source
	for _, p := range files {
		if strings.HasSuffix(p, ".json") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Source{filepath.ToSlash(rel), src})
	}
	return out
}

// moduleRoot returns the directory of go.mod above the test's working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("storetest: no go.mod above the working directory")
		}
		dir = up
	}
}
