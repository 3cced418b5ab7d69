package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
)

// TestLoadExtractRoundTrip stores the extraction of every language's golden source and
// proves LoadExtract gives it back.
func TestLoadExtractRoundTrip(t *testing.T) {
	ctx := context.Background()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	ex := extract.New(reg, extract.Options{})
	files, err := filepath.Glob(filepath.Join("..", "extract", "testdata", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	s := openTestStore(t)
	n := 0
	for _, p := range files {
		if strings.HasSuffix(p, ".json") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.ToSlash(strings.TrimPrefix(p, filepath.Join("..", "extract", "testdata")+string(filepath.Separator)))
		want, err := ex.Extract(ctx, path, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		put(t, s, &FileRecord{Path: path, Language: want.Language, Hash: "h", Size: int64(len(src)), MTime: 1, Content: src, Extract: want})
		got, err := s.LoadExtract(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			t.Fatalf("%s: LoadExtract = nil", path)
		}
		// The store keeps an identifier's start only; its end follows from its name.
		for i := range want.Identifiers {
			id := &want.Identifiers[i]
			if id.EndLine != id.StartLine || id.EndByte != id.StartByte+len(id.Name) {
				t.Errorf("%s: identifier %+v does not span exactly its name", path, id)
			}
		}
		for i := range got.Symbols {
			if i < len(want.Symbols) && !reflect.DeepEqual(got.Symbols[i], want.Symbols[i]) {
				t.Errorf("%s: symbol %d = %+v, want %+v", path, i, got.Symbols[i], want.Symbols[i])
				break
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: loaded extraction differs (symbols %d/%d, identifiers %d/%d, relationships %d/%d, types %d/%d)", path,
				len(got.Symbols), len(want.Symbols), len(got.Identifiers), len(want.Identifiers),
				len(got.Relationships), len(want.Relationships), len(got.Types), len(want.Types))
		}
		n++
	}
	if n < 17 {
		t.Errorf("round-tripped %d golden sources, want 17", n)
	}
	if f, err := s.LoadExtract(ctx, "missing.go"); f != nil || err != nil {
		t.Errorf("LoadExtract(missing) = %v, %v; want nil, nil", f, err)
	}
	put(t, s, &FileRecord{Path: "notes.txt", Hash: "h", Size: 1, MTime: 1, Content: []byte("x")})
	if f, err := s.LoadExtract(ctx, "notes.txt"); f != nil || err != nil {
		t.Errorf("LoadExtract(a file without extractor) = %v, %v; want nil, nil", f, err)
	}
}
