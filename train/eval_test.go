package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/codemodel"
)

// oneHotModel returns a model of 4 dimensions whose every word's row, on each side, is the
// unit vector of the given dimension, all pooling weights 1.
func oneHotModel(t *testing.T, query, code map[string]int) *codemodel.Model {
	t.Helper()
	p := codemodel.Params{Dim: 4}
	for w := range query {
		p.Vocab = append(p.Vocab, w)
	}
	slices.Sort(p.Vocab)
	for _, w := range p.Vocab {
		q, c := make([]float32, 4), make([]float32, 4)
		q[query[w]], c[code[w]] = 1, 1
		p.Query, p.Code = append(p.Query, q...), append(p.Code, c...)
		p.QueryWeight, p.CodeWeight = append(p.QueryWeight, 1), append(p.CodeWeight, 1)
	}
	return decodeParams(t, p)
}

// randomModel returns a model of 8 dimensions with random rows over words.
func randomModel(t *testing.T, words []string) *codemodel.Model {
	t.Helper()
	rng := rand.New(rand.NewPCG(9, 9))
	p := codemodel.Params{Dim: 8, Vocab: slices.Compact(slices.Sorted(slices.Values(words)))}
	for range p.Vocab {
		for range p.Dim {
			p.Query = append(p.Query, float32(rng.NormFloat64()))
			p.Code = append(p.Code, float32(rng.NormFloat64()))
		}
		p.QueryWeight, p.CodeWeight = append(p.QueryWeight, 1), append(p.CodeWeight, 1)
	}
	return decodeParams(t, p)
}

func decodeParams(t *testing.T, p codemodel.Params) *codemodel.Model {
	t.Helper()
	data, err := codemodel.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	m, err := codemodel.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// handChunk is a chunk whose MRRs are worked out by hand in TestEvaluateByHand.
var handChunk = []Pair{
	{Lang: "go", First: "alpha", Words: "alpha beta"},
	{Lang: "go", First: "beta", Words: "alpha gamma"},
	{Lang: "go", First: "alpha delta", Words: "delta"},
	{Lang: "go", First: "omega zeta", Words: "omega"},
}

func defaultEvalOptions() evalOptions {
	all := []string{"name", "sig", "body"}
	return evalOptions{
		chunk: evalChunk, seed: 1,
		model: dataOptions{query: "first", code: all},
		bm25:  dataOptions{query: "first", code: all},
	}
}

func TestBM25Scores(t *testing.T) {
	// Four documents, 6 words: mean length 1.5. The length term of a document of length L
	// is k1 (1 - b + b L / 1.5): 1.5 for 2 words, 0.9 for 1.
	idx := newBM25Index([][]string{{"alpha", "beta"}, {"alpha", "gamma"}, {"delta"}, {"omega"}})
	idfAlpha := math.Log(1 + (4-2+0.5)/(2+0.5)) // ln 2
	idfDelta := math.Log(1 + (4-1+0.5)/(1+0.5)) // ln(10/3)
	tests := []struct {
		query []string
		want  []float64
	}{
		{[]string{"alpha"}, []float64{idfAlpha * 2.2 / 2.5, idfAlpha * 2.2 / 2.5, 0, 0}},
		{[]string{"alpha", "delta"}, []float64{idfAlpha * 2.2 / 2.5, idfAlpha * 2.2 / 2.5, idfDelta * 2.2 / 1.9, 0}},
		{[]string{"delta", "delta"}, []float64{0, 0, 2 * idfDelta * 2.2 / 1.9, 0}},
		{[]string{"unknown"}, []float64{0, 0, 0, 0}},
	}
	got := make([]float64, 4)
	for _, tt := range tests {
		idx.scores(tt.query, got)
		for j := range got {
			if math.Abs(got[j]-tt.want[j]) > 1e-12 {
				t.Errorf("scores(%q) = %v, want %v", tt.query, got, tt.want)
				break
			}
		}
	}
	// A word twice in a document: term frequency 2 saturates, 2 (k1+1) / (2 + k1 (1-b+b 3/2)).
	idx = newBM25Index([][]string{{"alpha", "alpha", "beta"}, {"gamma"}})
	idx.scores([]string{"alpha"}, got[:2])
	want := math.Log(1+1.5/1.5) * 2 * 2.2 / (2 + 1.2*(0.25+0.75*1.5))
	if math.Abs(got[0]-want) > 1e-12 || got[1] != 0 {
		t.Errorf("scores(alpha) with tf 2 = %v, want [%v 0]", got[:2], want)
	}
}

func TestEvaluateByHand(t *testing.T) {
	// The model maps the query word beta to gamma's code direction (it finds pair 1's code)
	// and delta to beta's (it misses pair 2's); omega and zeta are unknown to it.
	m := oneHotModel(t,
		map[string]int{"alpha": 0, "beta": 2, "delta": 1, "gamma": 2},
		map[string]int{"alpha": 0, "beta": 1, "delta": 3, "gamma": 2})
	// Ranks of each query's target (ties: 1 + higher + equal others / 2, rounded down):
	//   query          bm25                      model                    fused
	//   alpha          1 (tied with pair 1)      1 (tied with pair 1)     1 (tied with pair 1)
	//   beta           3 (0, tied with 2 and 3)  1                        1 (tied with pair 0)
	//   alpha delta    1                         3 (0, tied with pair 3)  2 (after pair 0)
	//   omega zeta     1                         2 (no vector: all 0)     1
	// bm25 (1 + 1/3 + 1 + 1)/4 = 5/6, model (1 + 1 + 1/3 + 1/2)/4 = 17/24,
	// fused (1 + 1 + 1/2 + 1)/4 = 7/8.
	res, err := evaluate(context.Background(), m, handChunk, defaultEvalOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := evalRow{Lang: "go", Chunks: 1, Queries: 4, BM25: 5.0 / 6, Model: 17.0 / 24, Fused: 7.0 / 8}
	if len(res.Languages) != 1 || !rowsClose(res.Languages[0], want) {
		t.Fatalf("languages = %+v, want [%+v]", res.Languages, want)
	}
	want.Lang = "all queries"
	if !rowsClose(res.AllQueries, want) {
		t.Errorf("all queries = %+v, want %+v", res.AllQueries, want)
	}
}

// rowsClose reports whether two rows have the same counts and MRRs within 1e-12.
func rowsClose(a, b evalRow) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	return a.Lang == b.Lang && a.Chunks == b.Chunks && a.Queries == b.Queries &&
		close(a.BM25, b.BM25) && close(a.Model, b.Model) && close(a.Fused, b.Fused)
}

func TestEvaluateMeans(t *testing.T) {
	// Two languages: go's 4 hand pairs and ruby's 2 pairs that each find only their own
	// code. The mean of languages weighs them alike, all queries weighs each query.
	m := oneHotModel(t,
		map[string]int{"alpha": 0, "beta": 2, "delta": 1, "gamma": 2},
		map[string]int{"alpha": 0, "beta": 1, "delta": 3, "gamma": 2})
	pairs := append(slices.Clone(handChunk),
		Pair{Lang: "ruby", First: "alpha", Words: "alpha"},
		Pair{Lang: "ruby", First: "delta", Words: "delta"})
	res, err := evaluate(context.Background(), m, pairs, defaultEvalOptions())
	if err != nil {
		t.Fatal(err)
	}
	// ruby: bm25 1, 1; model: alpha 1, delta's query row (1) misses both codes (0, 0: rank
	// 1 + 1/2 rounded down = 1); fused 1, 1.
	wantMean := evalRow{Lang: "mean of languages", Chunks: 2, Queries: 6,
		BM25: (5.0/6 + 1) / 2, Model: (17.0/24 + 1) / 2, Fused: (7.0/8 + 1) / 2}
	wantAll := evalRow{Lang: "all queries", Chunks: 2, Queries: 6,
		BM25: (5.0/6*4 + 2) / 6, Model: (17.0/24*4 + 2) / 6, Fused: (7.0/8*4 + 2) / 6}
	if !rowsClose(res.MeanOfLanguages, wantMean) || !rowsClose(res.AllQueries, wantAll) {
		t.Errorf("mean %+v, want %+v\nall %+v, want %+v", res.MeanOfLanguages, wantMean, res.AllQueries, wantAll)
	}
}

func TestTieRule(t *testing.T) {
	tests := []struct {
		scores []float64
		target int
		want   int
	}{
		{[]float64{3, 2, 1}, 0, 1},
		{[]float64{3, 2, 1}, 2, 3},
		{[]float64{5, 5}, 0, 1},          // one other equal: 1 + 1/2 rounded down
		{[]float64{5, 5, 5}, 1, 2},       // two: 1 + 1
		{[]float64{5, 5, 5, 5, 1}, 0, 2}, // three: 1 + 3/2 rounded down
		{[]float64{9, 5, 5, 5, 1}, 3, 3}, // one higher, two equal: 1 + 1 + 1
		{[]float64{0, 0, 0, 0}, 2, 2},    // all zero (a nil vector): 1 + 3/2
	}
	for _, tt := range tests {
		if got := rankOf(tt.scores, tt.target); got != tt.want {
			t.Errorf("rankOf(%v, %d) = %d, want %d", tt.scores, tt.target, got, tt.want)
		}
	}
	// ranks gives every candidate its rankOf, whatever the ties.
	rng := rand.New(rand.NewPCG(5, 5))
	for range 50 {
		s := make([]float64, 1+rng.IntN(30))
		for i := range s {
			s[i] = float64(rng.IntN(5))
		}
		r := ranks(s)
		for i := range s {
			if want := rankOf(s, i); r[i] != want {
				t.Fatalf("ranks(%v)[%d] = %d, rankOf = %d", s, i, r[i], want)
			}
		}
	}
}

func TestFuse(t *testing.T) {
	tests := []struct {
		a, b []int
		want []int // fused ranks
	}{
		// Opposite rankings: the ends meet at the top (1/61 + 1/64 > 1/62 + 1/63).
		{[]int{1, 2, 3, 4}, []int{4, 3, 2, 1}, []int{1, 3, 3, 1}},
		// Two swapped at the top tie there; the agreed last stays last.
		{[]int{1, 2, 3}, []int{2, 1, 3}, []int{1, 1, 3}},
		// First and second beat first and third, which beats second and third.
		{[]int{1, 2, 3}, []int{2, 3, 1}, []int{1, 3, 2}},
	}
	for _, tt := range tests {
		f := make([]float64, len(tt.a))
		fuse(tt.a, tt.b, f)
		if got := ranks(f); !slices.Equal(got, tt.want) {
			t.Errorf("fuse(%v, %v) ranks %v (scores %v), want %v", tt.a, tt.b, got, f, tt.want)
		}
	}
	f := make([]float64, 1)
	fuse([]int{1}, []int{3}, f)
	if want := 1.0/61 + 1.0/63; f[0] != want {
		t.Errorf("fuse(1, 3) = %v, want 1/61 + 1/63 = %v", f[0], want)
	}
}

// langPairs returns n pairs of language lang with distinct queries and codes.
func langPairs(lang string, n int) []Pair {
	out := make([]Pair, n)
	for i := range out {
		out[i] = Pair{Lang: lang, First: fmt.Sprintf("%s query %d", lang, i), Words: fmt.Sprintf("%s code %d", lang, i)}
	}
	return out
}

func TestEvalChunks(t *testing.T) {
	var pairs []Pair
	for _, l := range []struct {
		lang string
		n    int
	}{{"go", 25}, {"ruby", 7}, {"bash", 1}, {"c", 150}} {
		pairs = append(pairs, langPairs(l.lang, l.n)...)
	}
	o := defaultEvalOptions()
	o.chunk = 10
	var got []string
	seen := map[string]bool{}
	for _, c := range evalChunks(slices.Clone(pairs), o) {
		got = append(got, fmt.Sprintf("%s:%d", c.lang, len(c.pairs)))
		for _, p := range c.pairs {
			if p.Lang != c.lang || seen[p.First] {
				t.Fatalf("chunk of %s holds %+v (seen before: %v)", c.lang, p, seen[p.First])
			}
			seen[p.First] = true
		}
	}
	// c: 150 pairs, capped at 10 chunks; go: 25 -> 2 chunks, the 5 left dropped; ruby: fewer
	// than 10 -> one chunk of all 7; bash: a single pair cannot rank anything.
	want := slices.Concat(slices.Repeat([]string{"c:10"}, 10), []string{"go:10", "go:10", "ruby:7"})
	if !slices.Equal(got, want) {
		t.Errorf("chunks %q, want %q", got, want)
	}
	// With -min-pairs 20, ruby's 7 are too few to be a language's figure.
	o.minPairs = 20
	got = nil
	for _, c := range evalChunks(slices.Clone(pairs), o) {
		got = append(got, fmt.Sprintf("%s:%d", c.lang, len(c.pairs)))
	}
	if want := slices.Concat(slices.Repeat([]string{"c:10"}, 10), []string{"go:10", "go:10"}); !slices.Equal(got, want) {
		t.Errorf("chunks with min-pairs 20: %q, want %q", got, want)
	}
	o.minPairs = 0
	// The seed decides which pairs are in a chunk.
	first := func(seed uint64) []string {
		o.seed = seed
		var out []string
		for _, p := range evalChunks(slices.Clone(pairs), o)[0].pairs {
			out = append(out, p.First)
		}
		return out
	}
	if a, b, c := first(1), first(1), first(2); !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("first chunk: seed 1 %q, again %q, seed 2 %q", a, b, c)
	}
}

func TestEvaluateDeterministic(t *testing.T) {
	var pairs []Pair
	var words []string
	for i, p := range synthPairs(900, 40) {
		p.Lang = []string{"go", "python", "rust"}[i%3]
		p.Sig = strings.Join(strings.Fields(p.First)[:3], " ") // the planted query words
		pairs = append(pairs, p)
		words = append(words, strings.Fields(p.First+" "+p.Words)...)
	}
	m := randomModel(t, words)
	o := defaultEvalOptions()
	o.chunk = 50
	eval := func(seed uint64) evalResult {
		o.seed = seed
		res, err := evaluate(context.Background(), m, pairs, o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b, c := eval(3), eval(3), eval(4)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two runs with seed 3 differ:\n%+v\n%+v", a, b)
	}
	prev := runtime.GOMAXPROCS(1)
	one := eval(3)
	runtime.GOMAXPROCS(3)
	three := eval(3)
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(a, one) || !reflect.DeepEqual(a, three) {
		t.Errorf("seed 3 on 1 or 3 cores differs from the default:\n%+v\n%+v\n%+v", a, one, three)
	}
	if reflect.DeepEqual(a.Languages, c.Languages) {
		t.Error("seeds 3 and 4 gave the same MRRs")
	}
	if a.AllQueries.Queries != 900 || a.AllQueries.Chunks != 18 {
		t.Errorf("all queries = %+v, want 900 queries in 18 chunks", a.AllQueries)
	}
	// The query words planted in the signatures make BM25 find most targets; a random model
	// is near chance.
	if a.AllQueries.BM25 < 0.5 || a.AllQueries.Model > 0.5 {
		t.Errorf("bm25 MRR %.3f, random model's %.3f", a.AllQueries.BM25, a.AllQueries.Model)
	}
}

func TestRunEval(t *testing.T) {
	dir := t.TempDir()
	p := codemodel.Params{Dim: 2, Vocab: []string{"bit", "count", "reader"},
		Query: []float32{1, 0, 1, 0, 0, 1}, Code: []float32{1, 0, 1, 0, 0, 1},
		QueryWeight: []float32{1, 1, 1}, CodeWeight: []float32{1, 1, 1}}
	data, err := codemodel.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "model")
	if err := os.WriteFile(model, data, 0o644); err != nil {
		t.Fatal(err)
	}
	jsonOut := filepath.Join(dir, "eval.json")
	var out bytes.Buffer
	// The fixture's pairs: go 2 (CountBits, Reader), one chunk; python's and typescript's
	// single pairs rank nothing.
	args := []string{"eval", "-model", model, "-src", writeTree(t, fixture), "-out", jsonOut, "-min-pairs", "2"}
	if err := run(context.Background(), args, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| go | 2 | 1 | 1.0000 | 1.0000 | 1.0000 |") || strings.Contains(out.String(), "python") ||
		!strings.Contains(out.String(), "4 pairs") || !strings.Contains(out.String(), "| **all queries** | 2 | 1 |") {
		t.Errorf("eval printed:\n%s", out.String())
	}
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var res evalResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Model == "" || res.Query != "first" || len(res.Languages) != 1 || res.Languages[0].Queries != 2 || res.AllQueries.Model != 1 {
		t.Errorf("eval wrote %s", b)
	}
}

func TestRunEvalUsage(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"eval", "-src", "x"}, "-model"},
		{[]string{"eval", "-model", "x"}, "-src"},
		{[]string{"eval", "-model", "x", "-src", "y", "-n", "1"}, "-n"},
		{[]string{"eval", "-model", "x", "-src", "y", "-query", "title"}, "-query"},
		{[]string{"eval", "-model", "x", "-src", "y", "-code", "name,docs"}, "-code"},
		{[]string{"eval", "-model", "x", "-src", "y", "-seed", "minus"}, "-seed"},
		{[]string{"eval", "-bogus"}, "-bogus"},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.args, &bytes.Buffer{})
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.flag) {
			t.Errorf("run(%q) = %v, want a usage error naming %s", tt.args, err, tt.flag)
		}
	}
}

// TestAdd: the added ranker is BM25 over the chunk's best plus addedWeight times a positive
// cosine, so a strong cosine lifts a candidate BM25 ranks close, never one it ranks far.
func TestAdd(t *testing.T) {
	bm := []float64{4, 3.6, 1, 0}
	cos := []float64{0.1, 0.5, 0.9, -0.5}
	out := make([]float64, len(bm))
	add(bm, cos, out)
	want := []float64{1 + 0.03, 0.9 + 0.15, 0.25 + 0.27, 0}
	for i := range want {
		if math.Abs(out[i]-want[i]) > 1e-12 {
			t.Fatalf("add = %v, want %v", out, want)
		}
	}
	if got := ranks(out); !slices.Equal(got, []int{2, 1, 3, 4}) {
		t.Errorf("ranks %v, want the close second lifted to first", got)
	}
	add([]float64{0, 0}, []float64{0.2, 0.4}, out[:2])
	if out[0] != addedWeight*0.2 || out[1] != addedWeight*0.4 {
		t.Errorf("no BM25 score: %v, want the weighed cosines", out[:2])
	}
}
