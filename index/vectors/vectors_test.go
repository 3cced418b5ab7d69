package vectors

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/codemodel"
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

// vecDef is a definition of a test file: its name, signature, doc comment and the
// identifiers its body uses.
type vecDef struct {
	name, sig, doc string
	body           []string
}

// vecDefs are definitions of four subjects, one of them without a doc comment.
var vecDefs = map[string]vecDef{
	"upload.go": {"RetryUpload", "func RetryUpload(ctx context.Context, f *File) error",
		"RetryUpload sends the file to the server again after a failed attempt, waiting longer each time.",
		[]string{"backoff", "attempt", "send", "sleep", "err"}},
	"cookie.go": {"SignCookie", "func SignCookie(value string, key []byte) string",
		"SignCookie signs a cookie value with the secret key so that the browser cannot change it.",
		[]string{"hmac", "New", "sha256", "Write", "Sum", "base64"}},
	"matrix.go": {"Multiply", "func Multiply(a, b Matrix) Matrix",
		"Multiply returns the product of two matrices.",
		[]string{"rows", "cols", "sum", "row", "col"}},
	"bits.go": {"CountSetBits", "func (v BitVector) CountSetBits() int", "",
		[]string{"OnesCount64", "word", "bits", "count"}},
}

// vecFileRecord is the record of the file path holding its vecDefs definition (salt changes
// its content).
func vecFileRecord(path, salt string) *store.FileRecord {
	return defRecord(path, vecDefs[path], salt)
}

// defRecord is the record of the file path holding the definition d.
func defRecord(path string, d vecDef, salt string) *store.FileRecord {
	content := d.sig + " {\n\t" + strings.Join(d.body, "(); ") + "()\n}\n" + salt
	f := &extract.File{Path: path, Language: "go"}
	f.Symbols = append(f.Symbols, extract.Symbol{ID: path + "#" + d.name, Name: d.name, Kind: extract.Function, Language: "go", Path: path,
		Signature: d.sig, DocComment: d.doc, Span: extract.Span{StartLine: 1, EndLine: 3, StartByte: 0, EndByte: len(content)}})
	at := len(d.sig) + 3
	for _, id := range d.body {
		f.Identifiers = append(f.Identifiers, extract.Identifier{Name: id, Kind: extract.Call,
			Span: extract.Span{StartLine: 2, EndLine: 2, StartByte: at, EndByte: at + len(id)}})
		at += len(id) + 4
	}
	// An identifier outside the definition's span: not one of its body's words.
	f.Identifiers = append(f.Identifiers, extract.Identifier{Name: "unrelated", Kind: extract.Call,
		Span: extract.Span{StartByte: len(content) + 10, EndByte: len(content) + 19}})
	return &store.FileRecord{Path: path, Language: "go", Hash: "h-" + content, Size: int64(len(content)), MTime: 1, Content: []byte(content), Extract: f}
}

// vecStore is a store holding the four vecDefs files.
func vecStore(t *testing.T) *store.Store {
	s := storetest.Open(t)
	for _, p := range []string{"upload.go", "cookie.go", "matrix.go", "bits.go"} {
		storetest.Put(t, s, vecFileRecord(p, ""))
	}
	return s
}

// TestRefreshVectors: an index run's end embeds every definition with the shipped model; a
// question in words finds the definition it describes, through its doc comment or, without
// one, its code; the next run embeds only what changed and drops what is gone.
func TestRefreshVectors(t *testing.T) {
	ctx := context.Background()
	s := vecStore(t)
	m, err := codemodel.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if words, err := Of(s).ExpandWords(ctx, "upload"); err != nil || words != nil {
		t.Fatalf("ExpandWords before any vectors: %v, %v; want none", words, err)
	}
	if _, err := Of(s).Search(ctx, "upload", 3, nil); !errors.Is(err, ErrNoVectors) {
		t.Fatalf("a vector search before any vectors: %v, want ErrNoVectors", err)
	}
	st, err := Of(s).Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reembedded || st.Files != 4 || st.Symbols != 4 || st.Vectored != 4 || !strings.Contains(st.Embedder, m.ID()) {
		t.Fatalf("first refresh: %+v, want 4 symbols of 4 files embedded by model %s", st, m.ID())
	}
	row, _ := Of(s).storedModel(ctx)
	if string(row) != modelFormat+m.ID() {
		t.Errorf("model row %q, want the shipped model's id", row)
	}
	for _, tc := range []struct {
		question, want string
		doc            bool
	}{
		{"send the upload again after a failure", "upload.go#RetryUpload", true},
		{"where are cookies signed", "cookie.go#SignCookie", true},
		{"product of two matrices", "matrix.go#Multiply", true},
		{"count how many bits are set in a bit vector", "bits.go#CountSetBits", false},
	} {
		hits, err := Of(s).Search(ctx, tc.question, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 4 || hits[0].ID != tc.want || tc.doc != hits[0].Doc && !tc.doc {
			t.Errorf("%q: %+v, want %s first (of 4, each once)", tc.question, hits, tc.want)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score || hits[i].ID == hits[i-1].ID {
				t.Errorf("%q: %+v not best first, each once", tc.question, hits)
			}
		}
	}
	if hits, err := Of(s).Search(ctx, "where are cookies signed", 4, func(id string) bool { return !strings.HasPrefix(id, "cookie") }); err != nil || len(hits) != 3 {
		t.Errorf("a search keeping all but the cookie: %+v, %v; want the 3 others", hits, err)
	}
	if hits, err := Of(s).Search(ctx, "zzqx qqzz", 5, nil); err != nil || len(hits) != 0 {
		t.Errorf("a question with no known word: %v, %v; want nothing", hits, err)
	}
	// Nothing changed: nothing embedded.
	version := Of(s).vectorsVersion()
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Reembedded || st.Files != 0 || st.Vectored != 4 || Of(s).vectorsVersion() != version {
		t.Errorf("refresh without a change: %+v, %v", st, err)
	}
	// The check of every file is left out when no batch was committed since the last one;
	// a refresh that did not end (the key not written) makes the next one check again.
	gen, _ := s.Generation(ctx)
	if got, _ := s.Meta(metaVectorsChecked); got != fmt.Sprintf("%s%s@%d", modelFormat, m.ID(), gen) {
		t.Errorf("after a refresh, %s = %q; want the model and generation %d", metaVectorsChecked, got, gen)
	}
	if _, err := s.DB().Exec(`DELETE FROM symbol_vectors WHERE file = (SELECT id FROM files WHERE path = 'upload.go'); DELETE FROM meta WHERE key = '` + metaVectorsChecked + `'`); err != nil {
		t.Fatal(err)
	}
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Files != 1 || st.Vectored != 4 {
		t.Errorf("refresh after one that did not end: %+v, %v; want upload.go embedded again", st, err)
	}
	version = Of(s).vectorsVersion()
	// One file changed: that file only; a search then reads again only that file's vectors.
	var kept, edited int64
	s.DB().QueryRow(`SELECT id FROM files WHERE path = 'upload.go'`).Scan(&kept)
	s.DB().QueryRow(`SELECT id FROM files WHERE path = 'cookie.go'`).Scan(&edited)
	keptVecs, editedVecs := Of(s).vecs().files[kept], Of(s).vecs().files[edited]
	storetest.Put(t, s, vecFileRecord("cookie.go", "// edited"))
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Files != 1 || st.Vectored != 4 || Of(s).vectorsVersion() == version {
		t.Errorf("refresh after one edit: %+v, %v", st, err)
	}
	if hits, err := Of(s).Search(ctx, "sign the cookie", 3, nil); err != nil || len(hits) != 3 || hits[0].ID != "cookie.go#SignCookie" {
		t.Errorf("after one edit: %+v, %v", hits, err)
	}
	if keptVecs == nil || Of(s).vecs().files[kept] != keptVecs || Of(s).vecs().files[edited] == editedVecs {
		t.Errorf("after one edit the search read again more than the edited file's vectors")
	}
	// A file gone: its vectors go.
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Delete("matrix.go"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Vectored != 3 {
		t.Errorf("refresh after a deletion: %+v, %v", st, err)
	}
	if hits, _ := Of(s).Search(ctx, "product of two matrices", 20, nil); len(hits) != 3 || slices.ContainsFunc(hits, func(h Hit) bool { return h.ID == "matrix.go#Multiply" }) {
		t.Errorf("after a deletion: %+v", hits)
	}
}

// TestAnotherModelReembeds: vectors another model made (an index of another build) are not
// searched, and the next refresh makes them all again; so are vectors of an older layout.
func TestAnotherModelReembeds(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		spoil string
	}{
		{"another model", `UPDATE vec_model SET data = CAST('QCM10123456789abcdef' AS BLOB)`},
		{"the learned vectors of before", `UPDATE vec_model SET data = CAST('QVM1' AS BLOB); DELETE FROM meta WHERE key = 'vectors_format'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := vecStore(t)
			if _, err := Of(s).Refresh(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := s.DB().Exec(tc.spoil + `; UPDATE meta SET value = value + 1 WHERE key = 'vectors_version'`); err != nil {
				t.Fatal(err)
			}
			if _, err := Of(s).Search(ctx, "sign the cookie", 3, nil); err == nil {
				t.Errorf("a search of another model's vectors: no error")
			}
			st, err := Of(s).Refresh(ctx, nil)
			if err != nil || !st.Reembedded || st.Files != 4 || st.Vectored != 4 {
				t.Fatalf("refresh: %+v, %v; want every file embedded again", st, err)
			}
			if hits, err := Of(s).Search(ctx, "sign the cookie", 3, nil); err != nil || len(hits) == 0 || hits[0].ID != "cookie.go#SignCookie" {
				t.Errorf("after the refresh: %+v, %v", hits, err)
			}
		})
	}
}

// TestEntries: a file's blob gives back its symbols' vectors, both or one; a damaged blob is
// an error that says how to mend it.
func TestEntries(t *testing.T) {
	const dim = 4
	code, doc := []float32{0.5, -0.5, 0.5, 0.5}, []float32{1, 0, 0, 0}
	b := appendEntry(nil, "a", code, doc)
	b = appendEntry(b, "bb", code, nil)
	b = appendEntry(b, "c", nil, doc)
	f, err := decodeFileVecs("h", b, dim)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.ids, []string{"a", "bb", "c"}) || !slices.Equal(f.owner, []int32{0, 0, 1, 2}) || !slices.Equal(f.doc, []bool{false, true, false, true}) {
		t.Fatalf("decoded %+v", f)
	}
	for i, want := range [][]float32{code, doc, code, doc} {
		for k, x := range want {
			if got := float32(f.vecs[i*dim+k]) * f.scales[i]; math.Abs(float64(got-x)) > 0.01 {
				t.Errorf("vector %d component %d: %v, want %v", i, k, got, x)
			}
		}
	}
	for _, bad := range [][]byte{b[:len(b)-1], {1, 'a'}, {1, 'a', 0}, {1, 'a', 8, 0, 0, 0, 0, 1, 2, 3, 4}, {5, 'a'}} {
		if _, err := decodeFileVecs("h", bad, dim); !errors.Is(err, errDamaged) || !strings.Contains(err.Error(), "--force") {
			t.Errorf("decode of %v: %v, want the damaged error", bad, err)
		}
	}
}

// TestVectorShortlist: the signs' shortlist keeps a vector equal to the query, and the
// nearest, on random vectors.
func TestVectorShortlist(t *testing.T) {
	const n, dim = 20000, 128
	r := rand.New(rand.NewPCG(5, 5))
	c := &vecCache{dim: dim, words: dim / 64}
	c.vecs = make([]int8, n*dim)
	c.bits = make([]uint64, n*c.words)
	for i := 0; i < n; i++ {
		v := make([]float32, dim)
		for k := range v {
			v[k] = float32(r.NormFloat64())
		}
		q, scale := codemodel.Quantize(v)
		copy(c.vecs[i*dim:], q)
		c.scales = append(c.scales, scale)
		signBits(c.vecs[i*dim:(i+1)*dim], c.bits[i*c.words:(i+1)*c.words])
		c.ids = append(c.ids, fmt.Sprint(i))
		c.owner = append(c.owner, int32(i))
	}
	q := append([]int8(nil), c.vecs[77*dim:78*dim]...)
	short := c.shortlist(q, 500)
	if len(short) < 500 || len(short) > 2000 || !slices.Contains(short, 77) {
		t.Fatalf("shortlist of %d, holding 77: %v; want 500 or a few more, with the query's own vector", len(short), slices.Contains(short, 77))
	}
	all := func(int) bool { return true }
	exact := c.scan(q, nil, 0, n, 10, all)
	got := c.scan(q, short, 0, 0, 10, all)
	if got[0].i != 77 || exact[0].i != 77 {
		t.Errorf("nearest: shortlist %d, exact %d; want 77 both", got[0].i, exact[0].i)
	}
}

// TestExpandWords: an expand: line's candidates are the words common to the names of the
// definitions nearest to the question, most common first, never the question's own.
func TestExpandWords(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for i, d := range []vecDef{
		{"SetCookie", "func SetCookie(w Writer, c *Cookie)", "SetCookie adds a Set-Cookie header to the response so the browser keeps the value.", []string{"Header", "Add"}},
		{"DeleteCookie", "func DeleteCookie(w Writer, name string)", "DeleteCookie tells the browser to drop a cookie by setting its expiry in the past.", []string{"SetCookie", "Unix"}},
		{"ReadCookie", "func ReadCookie(r *Request, name string) (*Cookie, error)", "ReadCookie returns the named cookie the browser sent with the request.", []string{"Header", "Get"}},
		{"Multiply", "func Multiply(a, b Matrix) Matrix", "Multiply returns the product of two matrices.", []string{"rows", "cols"}},
	} {
		storetest.Put(t, s, defRecord(fmt.Sprintf("f%d.go", i), d, ""))
	}
	if words, err := Of(s).ExpandWords(ctx, "browser session value"); err != nil || words != nil {
		t.Fatalf("before any vectors: %v, %v; want none", words, err)
	}
	if _, err := Of(s).Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	words, err := Of(s).ExpandWords(ctx, "what the browser keeps for a session")
	if err != nil || len(words) == 0 || words[0] != "cookie" || slices.Contains(words, "browser") {
		t.Errorf("ExpandWords: %v, %v; want cookie first (in three of the nearest names), never the question's words", words, err)
	}
	if words, err := Of(s).ExpandWords(ctx, "the cookie the browser keeps"); err != nil || slices.Contains(words, "cookie") {
		t.Errorf("ExpandWords of a question naming cookie: %v, %v; want no cookie", words, err)
	}
}
