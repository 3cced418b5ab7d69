package index

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/extract"
)

// randomIdents returns n identifiers with names from a small vocabulary (some not ASCII),
// lines and bytes that go back as well as forward, and containers some of which are none.
func randomIdents(r *rand.Rand, n int) []extract.Identifier {
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

func decodeAll(t *testing.T, blob []byte) []extract.Identifier {
	t.Helper()
	var got []extract.Identifier
	if err := decodeIdents(blob, nil, func(x extract.Identifier) bool { got = append(got, x); return true }); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestIdentBlobRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 50, 3000} {
		ids := randomIdents(r, n)
		blob := encodeIdents(ids)
		if got := decodeAll(t, blob); !slices.Equal(got, ids) {
			t.Fatalf("%d identifiers: decoded %v, want %v", n, got, ids)
		}
		// keep decodes the kept names only, in order.
		var only []extract.Identifier
		if err := decodeIdents(blob, func(n string) bool { return n == "err" }, func(x extract.Identifier) bool {
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
	blob := encodeIdents(randomIdents(rand.New(rand.NewPCG(3, 4)), 40))
	for i := range len(blob) - 1 {
		err := decodeIdents(blob[:i+1], nil, func(extract.Identifier) bool { return true })
		if err == nil {
			t.Fatalf("a blob cut to %d of %d bytes decoded without an error", i+1, len(blob))
		}
	}
	bad := slices.Clone(blob)
	bad[0] = 9
	if err := decodeIdents(bad, nil, func(extract.Identifier) bool { return true }); err == nil {
		t.Error("a blob of version 9 decoded")
	}
}

func TestContentPackRoundTrip(t *testing.T) {
	big := bytes.Repeat([]byte("func main() { fmt.Println(\"hello\") }\n"), 10000)
	for _, c := range [][]byte{{}, []byte("x"), []byte("package a\n"), big} {
		packed, err := packContent(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := unpackContent(packed)
		if err != nil || !bytes.Equal(got, c) {
			t.Fatalf("round trip of %d bytes: %d bytes, %v", len(c), len(got), err)
		}
	}
	packed, _ := packContent(big)
	if len(packed)*10 > len(big) {
		t.Errorf("%d repetitive bytes packed to %d", len(big), len(packed))
	}
	if _, err := unpackContent([]byte("not zstd")); err == nil {
		t.Error("unpacking garbage succeeded")
	}
}

// Refs over identifier blobs answers what a scan of every identifier answers: the uses of
// a name by path, line and column, counted, filtered by kind and paged.
func TestStoreRefsMatchesScan(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	r := rand.New(rand.NewPCG(5, 6))
	var recs []*FileRecord
	for i := range 30 {
		path := fmt.Sprintf("d%d/f%02d.go", i%3, i)
		rec := record(path, "package f\n")
		rec.Extract.Identifiers = randomIdents(r, r.IntN(60))
		recs = append(recs, rec)
	}
	// Put them, then replace some files in place.
	put(t, s, recs...)
	for _, rec := range recs[:10] {
		rec.Extract.Identifiers = randomIdents(r, r.IntN(60))
	}
	put(t, s, recs[:10]...)
	var all []Ref
	for _, rec := range recs {
		for _, x := range rec.Extract.Identifiers {
			if x.Name == "err" {
				all = append(all, Ref{Path: rec.Path, Line: x.StartLine, Column: x.StartColumn, Kind: x.Kind.String()})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b Ref) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	strip := func(refs []Ref) []Ref {
		out := slices.Clone(refs)
		for i := range out {
			out[i].Text, out[i].Container, out[i].ContainerKind, out[i].ContainerID = "", "", "", ""
		}
		return out
	}
	for _, kinds := range [][]string{nil, {"call"}, {"call", "import"}} {
		want := slices.DeleteFunc(slices.Clone(all), func(x Ref) bool { return kinds != nil && !slices.Contains(kinds, x.Kind) })
		for _, page := range [][2]int{{0, 10}, {7, 25}, {len(want) - 3, 10}, {0, 100000}, {len(want) + 5, 10}} {
			got, total, err := NewReader(s).Refs(ctx, "err", kinds, page[0], page[1])
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := min(max(page[0], 0), len(want)), min(max(page[0], 0)+page[1], len(want))
			if total != len(want) || !slices.Equal(strip(got), want[lo:hi]) {
				t.Errorf("kinds %v, offset %d, limit %d: %d of %d: %v\nwant %v", kinds, page[0], page[1], len(got), total, got, want[lo:hi])
			}
		}
	}
	if _, _, err := NewReader(s).Refs(ctx, "err", []string{"calls"}, 0, 10); err == nil {
		t.Error("an unknown kind was accepted")
	}
	// Deleting files removes their names.
	b, _ := s.Begin(ctx)
	for _, rec := range recs {
		if err := b.Delete(rec.Path); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM identifier_names) + (SELECT count(*) FROM identifiers)`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after deleting every file: %d identifier rows left (%v)", n, err)
	}
}

// A store of an older schema is emptied and created anew: the next run refills it.
func TestOpenStoreEmptiesOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "symbols.db")
	db, err := sql.Open(sqliteDriver, "file:"+path)
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
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.Meta("schema_version"); v != fmt.Sprint(SchemaVersion) {
		t.Errorf("schema_version %q", v)
	}
	if empty, err := s.Empty(context.Background()); err != nil || !empty {
		t.Errorf("the store of schema 1 was not emptied (%v)", err)
	}
	put(t, s, record("a.go", "package a", "A"))
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
		relBlob, typeBlob := encodeRels(rels), encodeTypes(types)
		gotRels, err := decodeRels(relBlob)
		if err != nil || !slices.Equal(gotRels, rels) {
			t.Fatalf("%d relationships: %v, %v", n, gotRels, err)
		}
		gotTypes, err := decodeTypes(typeBlob)
		if err != nil || !slices.Equal(gotTypes, types) {
			t.Fatalf("%d types: %v, %v", n, gotTypes, err)
		}
		if n == 0 {
			continue
		}
		for i := range len(relBlob) - 1 {
			if _, err := decodeRels(relBlob[:i+1]); err == nil {
				t.Fatalf("a relationship blob cut to %d of %d bytes decoded", i+1, len(relBlob))
			}
		}
		for i := range len(typeBlob) - 1 {
			if _, err := decodeTypes(typeBlob[:i+1]); err == nil {
				t.Fatalf("a type blob cut to %d of %d bytes decoded", i+1, len(typeBlob))
			}
		}
	}
}
