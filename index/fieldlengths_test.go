package index

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
)

// An index run measures the field lengths BM25 scores symbols with, and a searcher hands
// them to bleve as field cardinalities over the symbol documents.
func TestFieldLengths(t *testing.T) {
	ctx := context.Background()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("package p\n\n// Open opens the named file for reading and returns it with its size.\nfunc Open(name string) (*File, int64, error) {\n\treturn openFile(name, readOnly, defaultPermissions)\n}\n\ntype File struct{}\n")
	f, err := extract.New(reg, extract.Options{}).Extract(ctx, "p/open.go", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := openTestWriter(t, t.TempDir())
	defer w.Close()
	writeFiles(t, w, &store.FileRecord{Path: "p/open.go", Language: "go", Hash: "h", Size: int64(len(src)), MTime: 1, Content: src, Extract: f})
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := w.store.Meta(fulltext.MetaFieldLengths)
	if err != nil || v == "" {
		t.Fatalf("no field lengths kept: %q, %v", v, err)
	}
	var fl fulltext.FieldLengths
	if err := json.Unmarshal([]byte(v), &fl); err != nil {
		t.Fatal(err)
	}
	// Three symbols (the package, Open, File); Open's doc comment has 13 words, its body 5
	// identifiers (openFile, name, readOnly, defaultPermissions and their parts: more).
	if fl.Symbols != len(f.Symbols) || fl.Avg[fulltext.FieldName] < 1 || fl.Avg[fulltext.FieldDocComment] < 13.0/3 || fl.Avg[fulltext.FieldCodeBody] <= fl.Avg[fulltext.FieldName] {
		t.Errorf("field lengths %+v over %d symbols: want the averages of the tokens of each field", fl, len(f.Symbols))
	}
	var stats fulltext.BM25 // a new searcher's
	st := stats.Get(w.store, w.ft)
	if st == nil || st.DocCount != float64(fl.Symbols) || st.FieldCardinality[fulltext.FieldDocComment] < int(fl.Avg[fulltext.FieldDocComment]*float64(fl.Symbols)) ||
		st.FieldCardinality[fulltext.FieldLanguage] != fl.Symbols {
		t.Errorf("bleve's statistics %+v, want the measured lengths times %d symbols (1 per symbol for keyword fields)", st, fl.Symbols)
	}
}
