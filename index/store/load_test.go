package store_test

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
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
	s := storetest.Open(t)
	n := 0
	for _, g := range storetest.GoldenSources(t) {
		path, src := g.Path, g.Src
		want, err := ex.Extract(ctx, path, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		storetest.Put(t, s, &store.FileRecord{Path: path, Language: want.Language, Hash: "h", Size: int64(len(src)), MTime: 1, Content: src, Extract: want})
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
	storetest.Put(t, s, &store.FileRecord{Path: "notes.txt", Hash: "h", Size: 1, MTime: 1, Content: []byte("x")})
	if f, err := s.LoadExtract(ctx, "notes.txt"); f != nil || err != nil {
		t.Errorf("LoadExtract(a file without extractor) = %v, %v; want nil, nil", f, err)
	}
}

// Replacing a stored file in place (Put over it) leaves the store holding exactly what a
// store given only the new version holds, for every language's golden source edited in
// ways a working day does: lines inserted above everything, a block cut from the middle,
// the file doubled, the file cut to its first half. Only symbols whose full-text document
// changed are touched.
func TestPutInPlaceEqualsFresh(t *testing.T) {
	ctx := context.Background()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	ex := extract.New(reg, extract.Options{})
	edits := map[string]func(string) string{
		"insert above": func(s string) string { return "\n\n" + s },
		"cut middle": func(s string) string {
			lines := strings.SplitAfter(s, "\n")
			a, b := len(lines)/3, 2*len(lines)/3
			return strings.Join(append(lines[:a:a], lines[b:]...), "")
		},
		"doubled":    func(s string) string { return s + "\n" + s },
		"first half": func(s string) string { return s[:len(s)/2] },
	}
	n := 0
	for _, g := range storetest.GoldenSources(t) {
		path, src := g.Path, g.Src
		rec := func(content string) *store.FileRecord {
			f, err := ex.Extract(ctx, path, []byte(content), nil)
			if err != nil {
				t.Fatal(err)
			}
			return &store.FileRecord{Path: path, Language: f.Language, Hash: content, Size: int64(len(content)), MTime: 1, Content: []byte(content), Extract: f}
		}
		for name, edit := range edits {
			before, after := rec(string(src)), rec(edit(string(src)))
			updated, fresh := storetest.Open(t), storetest.Open(t)
			storetest.Put(t, updated, before)
			touched := storetest.Put(t, updated, after)
			storetest.Put(t, fresh, after)
			got, err := updated.LoadExtract(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.LoadExtract(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			byStart := func(f *extract.File) {
				slices.SortStableFunc(f.Symbols, func(a, b extract.Symbol) int {
					return cmp.Or(cmp.Compare(a.StartByte, b.StartByte), cmp.Compare(b.EndByte, a.EndByte), strings.Compare(a.ID, b.ID))
				})
			}
			byStart(got)
			byStart(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: updated in place differs from fresh (symbols %d/%d, identifiers %d/%d, relationships %d/%d, types %d/%d)",
					path, name, len(got.Symbols), len(want.Symbols), len(got.Identifiers), len(want.Identifiers),
					len(got.Relationships), len(want.Relationships), len(got.Types), len(want.Types))
			}
			// A symbol is touched exactly when its document changed, it is gone, or it is
			// stored anew (its name or parent changed: indexed columns).
			oldDocs := map[string]string{}
			for _, s := range before.Extract.Symbols {
				if _, ok := oldDocs[s.ID]; !ok {
					oldDocs[s.ID] = s.ParentID + "\x00" + s.Name + "\x00" + s.Signature + "\x00" + s.DocComment + "\x00" + s.Kind.String() + "\x00" + store.SymbolBody(s.Kind.String(), before.Content, s.StartByte, s.EndByte)
				}
			}
			wantTouched := map[string]bool{store.FileDocID(path): true}
			newIDs := map[string]bool{}
			for _, s := range after.Extract.Symbols {
				if newIDs[s.ID] {
					continue
				}
				newIDs[s.ID] = true
				doc := s.ParentID + "\x00" + s.Name + "\x00" + s.Signature + "\x00" + s.DocComment + "\x00" + s.Kind.String() + "\x00" + store.SymbolBody(s.Kind.String(), after.Content, s.StartByte, s.EndByte)
				if oldDocs[s.ID] != doc {
					wantTouched[store.SymbolDocID(s.ID)] = true
				}
			}
			for id := range oldDocs {
				if !newIDs[id] {
					wantTouched[store.SymbolDocID(id)] = true
				}
			}
			gotTouched := map[string]bool{}
			for _, id := range touched {
				gotTouched[id] = true
			}
			if !reflect.DeepEqual(gotTouched, wantTouched) {
				t.Errorf("%s, %s: touched %d documents, want %d", path, name, len(gotTouched), len(wantTouched))
			}
			n++
		}
	}
	if n < 17*len(edits) {
		t.Errorf("compared %d edits, want %d", n, 17*len(edits))
	}
}
