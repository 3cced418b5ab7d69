package vectors

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/embed"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
)

// vecTopics are three subjects whose words keep company only with each other.
var vecTopics = [][]string{
	{"retry", "upload", "again", "failure", "attempt", "backoff", "wait", "resend"},
	{"cookie", "browser", "expire", "header", "session", "domain", "drop", "path"},
	{"matrix", "vector", "multiply", "row", "column", "scalar", "product", "sum"},
}

// vecRecord is a file of topic t whose one function's body mixes the topic's words.
func vecRecord(t, n int, salt string) *store.FileRecord {
	words := vecTopics[t]
	var b strings.Builder
	for i := 0; i < 40; i++ {
		b.WriteString(words[(i*(n+3)+i/len(words))%len(words)] + " ")
	}
	b.WriteString(salt)
	return storetest.Record(fmt.Sprintf("t%d_%d.go", t, n), b.String(), fmt.Sprintf("topic%dfn%d", t, n))
}

// TestRefreshVectors: an index run's end learns the model and embeds every symbol; a
// vector search finds the symbols of a question's subject; the next run embeds only what
// changed and drops what is gone.
func TestRefreshVectors(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	var recs []*store.FileRecord
	for topic := range vecTopics {
		for n := 0; n < 5; n++ {
			recs = append(recs, vecRecord(topic, n, ""))
		}
	}
	storetest.Put(t, s, recs...)
	if words, err := Of(s).ExpandWords(ctx, "retry"); err != nil || words != nil {
		t.Fatalf("ExpandWords before any vectors: %v, %v; want none", words, err)
	}
	if _, err := Of(s).Search(ctx, "retry", 3, nil); err != ErrNoVectors {
		t.Fatalf("a vector search before any vectors: %v, want ErrNoVectors", err)
	}
	st, err := Of(s).Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Trained || st.Files != 15 || st.Symbols != 15 || st.Vectored != 15 || st.Words != 25 {
		t.Fatalf("first refresh: %+v, want a model of 25 words (the topics' and topic of the names) and 15 symbols of 15 files", st)
	}
	hits, err := Of(s).Search(ctx, "send the upload again after a failure", 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 5 {
		t.Fatalf("vector search: %d hits, want 5", len(hits))
	}
	for _, h := range hits {
		if !strings.HasPrefix(h.ID, "t0_") {
			t.Errorf("vector search for an upload retry: %+v, want only the retry topic's symbols", hits)
			break
		}
	}
	// Expansion: a word's variants are its topic's words, never its own or another topic's.
	words, err := Of(s).ExpandWords(ctx, "upload")
	if err != nil || len(words) == 0 || len(words) > ExpandPerWord {
		t.Errorf("ExpandWords(upload): %v, %v; want 1 to %d of the retry topic's words", words, err, ExpandPerWord)
	}
	for _, w := range words {
		if w == "upload" || !slices.ContainsFunc(vecTopics[0], func(v string) bool { return strings.HasPrefix(v, w) }) {
			t.Errorf("ExpandWords(upload): %v, want only other words of the retry topic", words)
		}
	}
	if words, err := Of(s).ExpandWords(ctx, "zebra"); err != nil || len(words) != 0 {
		t.Errorf("ExpandWords of an unknown word: %v, %v; want none", words, err)
	}
	if hits, err := Of(s).Search(ctx, "zebra quantum", 5, nil); err != nil || len(hits) != 0 {
		t.Errorf("a question with no known word: %v, %v; want nothing", hits, err)
	}
	// Nothing changed: nothing embedded.
	version := Of(s).vectorsVersion()
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Trained || st.Files != 0 || st.Vectored != 15 || Of(s).vectorsVersion() != version {
		t.Errorf("refresh without a change: %+v, %v", st, err)
	}
	// One file changed: that file only, the model kept; a search then reads again only that
	// file's vectors.
	var kept, edited int64
	s.DB().QueryRow(`SELECT id FROM files WHERE path = 't0_1.go'`).Scan(&kept)
	s.DB().QueryRow(`SELECT id FROM files WHERE path = 't1_0.go'`).Scan(&edited)
	keptVecs, editedVecs, model := Of(s).vecs().files[kept], Of(s).vecs().files[edited], Of(s).vecs().model
	storetest.Put(t, s, vecRecord(1, 0, "cookie"))
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Trained || st.Files != 1 || st.Vectored != 15 || Of(s).vectorsVersion() == version {
		t.Errorf("refresh after one edit: %+v, %v", st, err)
	}
	if hits, err := Of(s).Search(ctx, "browser cookie", 3, nil); err != nil || len(hits) != 3 || !strings.HasPrefix(hits[0].ID, "t1_") {
		t.Errorf("after one edit: %+v, %v", hits, err)
	}
	if keptVecs == nil || Of(s).vecs().files[kept] != keptVecs || Of(s).vecs().files[edited] == editedVecs || Of(s).vecs().model != model {
		t.Errorf("after one edit the search read again more than the edited file's vectors (kept %v, edited %v, model %v)",
			Of(s).vecs().files[kept] == keptVecs, Of(s).vecs().files[edited] != editedVecs, Of(s).vecs().model == model)
	}
	// A file gone: its vectors go.
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Delete("t2_4.go"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, err = Of(s).Refresh(ctx, nil); err != nil || st.Vectored != 14 {
		t.Errorf("refresh after a deletion: %+v, %v", st, err)
	}
	if hits, _ := Of(s).Search(ctx, "matrix product", 20, nil); len(hits) != 14 || strings.HasPrefix(hits[0].ID, "t2_4") {
		t.Errorf("after a deletion: %+v", hits)
	}
}

// TestVecModelDamaged: a damaged model blob is an error that says how to mend it.
func TestVecModelDamaged(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("QVM1"), []byte("QVM1\x04\x00\x02\x00\x00\x00ab\x00cd\x00\x01")} {
		if _, err := decodeVecModel(data); err == nil || !strings.Contains(err.Error(), "--force") {
			t.Errorf("decodeVecModel(%q) = %v, want the damaged error", data, err)
		}
	}
}

// TestVectorShortlist: the signs' shortlist keeps a vector equal to the query, and most of
// the exact nearest, on random vectors.
func TestVectorShortlist(t *testing.T) {
	const n, dim = 20000, 128
	r := rand.New(rand.NewPCG(5, 5))
	c := &vecCache{words: dim / 64}
	c.vecs = make([]int8, n*dim)
	c.bits = make([]uint64, n*c.words)
	for i := 0; i < n; i++ {
		v := make([]float32, dim)
		for k := range v {
			v[k] = float32(r.NormFloat64())
		}
		normalizeF(v)
		copy(c.vecs[i*dim:], embed.Quantize(v))
		signBits(c.vecs[i*dim:(i+1)*dim], c.bits[i*c.words:(i+1)*c.words])
		c.ids = append(c.ids, fmt.Sprint(i))
	}
	q := append([]int8(nil), c.vecs[77*dim:78*dim]...)
	short := c.shortlist(q, 500)
	if len(short) < 500 || len(short) > 2000 || !slices.Contains(short, 77) {
		t.Fatalf("shortlist of %d, holding 77: %v; want 500 or a few more, with the query's own vector", len(short), slices.Contains(short, 77))
	}
	exact := scanVectors(q, c.vecs, c.ids, dim, nil, 0, n, 10, nil)
	got := scanVectors(q, c.vecs, c.ids, dim, short, 0, 0, 10, nil)
	if got[0].i != 77 || exact[0].i != 77 {
		t.Errorf("nearest: shortlist %d, exact %d; want 77 both", got[0].i, exact[0].i)
	}
}

func normalizeF(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(s))
	}
}
