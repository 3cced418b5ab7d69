package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

func decodeAll(t *testing.T, blob []byte) []extract.Identifier {
	t.Helper()
	var got []extract.Identifier
	if err := store.DecodeIdents(blob, nil, func(x extract.Identifier) bool { got = append(got, x); return true }); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestIdentBlobRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 50, 3000} {
		ids := storetest.RandomIdents(r, n)
		blob := store.EncodeIdents(ids)
		if got := decodeAll(t, blob); !slices.Equal(got, ids) {
			t.Fatalf("%d identifiers: decoded %v, want %v", n, got, ids)
		}
		// keep decodes the kept names only, in order.
		var only []extract.Identifier
		if err := store.DecodeIdents(blob, func(n string) bool { return n == "err" }, func(x extract.Identifier) bool {
			only = append(only, x)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		want := slices.DeleteFunc(slices.Clone(ids), func(x extract.Identifier) bool { return x.Name != "err" })
		if !slices.Equal(only, want) {
			t.Errorf("%d identifiers, keeping err: %v, want %v", n, only, want)
		}
	}
}

// A damaged blob is an error, never a panic or an identifier out of nothing valid.
func TestIdentBlobMalformed(t *testing.T) {
	blob := store.EncodeIdents(storetest.RandomIdents(rand.New(rand.NewPCG(3, 4)), 40))
	for i := range len(blob) - 1 {
		err := store.DecodeIdents(blob[:i+1], nil, func(extract.Identifier) bool { return true })
		if err == nil {
			t.Fatalf("a blob cut to %d of %d bytes decoded without an error", i+1, len(blob))
		}
	}
	bad := slices.Clone(blob)
	bad[0] = 9
	if err := store.DecodeIdents(bad, nil, func(extract.Identifier) bool { return true }); err == nil {
		t.Error("a blob of version 9 decoded")
	}
}

func TestContentPackRoundTrip(t *testing.T) {
	big := bytes.Repeat([]byte("func main() { fmt.Println(\"hello\") }\n"), 10000)
	for _, c := range [][]byte{{}, []byte("x"), []byte("package a\n"), big} {
		packed, err := store.PackContent(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := store.UnpackContent(packed)
		if err != nil || !bytes.Equal(got, c) {
			t.Fatalf("round trip of %d bytes: %d bytes, %v", len(c), len(got), err)
		}
	}
	packed, _ := store.PackContent(big)
	if len(packed)*10 > len(big) {
		t.Errorf("%d repetitive bytes packed to %d", len(big), len(packed))
	}
	if _, err := store.UnpackContent([]byte("not zstd")); err == nil {
		t.Error("unpacking garbage succeeded")
	}
}

// A store of an older schema is emptied and created anew: the next run refills it.
func TestOpenStoreEmptiesOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "symbols.db")
	db, err := sql.Open(store.SQLiteDriver, "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
		INSERT INTO meta VALUES('schema_version', '1');
		CREATE TABLE files(path TEXT PRIMARY KEY, content BLOB NOT NULL);
		INSERT INTO files VALUES('a.go', 'package a');
		CREATE TABLE identifiers(path TEXT, name TEXT);`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.Meta("schema_version"); v != fmt.Sprint(store.SchemaVersion) {
		t.Errorf("schema_version %q", v)
	}
	if empty, err := s.Empty(context.Background()); err != nil || !empty {
		t.Errorf("the store of schema 1 was not emptied (%v)", err)
	}
	storetest.Put(t, s, storetest.Record("a.go", "package a", "A"))
	if c, err := s.Content(context.Background(), "a.go"); err != nil || string(c) != "package a" {
		t.Errorf("content after the migration: %q, %v", c, err)
	}
}

func TestFactBlobsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	strs := []string{"", "a.go#f", "f", "Größe", "io.Reader", "declared", "return"}
	pick := func() string { return strs[r.IntN(len(strs))] }
	for _, n := range []int{0, 1, 300} {
		rels := make([]extract.Relationship, n)
		types := make([]extract.TypeInfo, n)
		for i := range n {
			rels[i] = extract.Relationship{FromID: pick(), FromName: pick(), To: pick(), Kind: extract.RelKind(1 + r.IntN(7)), Line: r.IntN(9000)}
			types[i] = extract.TypeInfo{SymbolID: pick(), Role: pick(), Type: pick()}
		}
		relBlob, typeBlob := store.EncodeRels(rels), store.EncodeTypes(types)
		gotRels, err := store.DecodeRels(relBlob)
		if err != nil || !slices.Equal(gotRels, rels) {
			t.Fatalf("%d relationships: %v, %v", n, gotRels, err)
		}
		gotTypes, err := store.DecodeTypes(typeBlob)
		if err != nil || !slices.Equal(gotTypes, types) {
			t.Fatalf("%d types: %v, %v", n, gotTypes, err)
		}
		if n == 0 {
			continue
		}
		for i := range len(relBlob) - 1 {
			if _, err := store.DecodeRels(relBlob[:i+1]); err == nil {
				t.Fatalf("a relationship blob cut to %d of %d bytes decoded", i+1, len(relBlob))
			}
		}
		for i := range len(typeBlob) - 1 {
			if _, err := store.DecodeTypes(typeBlob[:i+1]); err == nil {
				t.Fatalf("a type blob cut to %d of %d bytes decoded", i+1, len(typeBlob))
			}
		}
	}
}
