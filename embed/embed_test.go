package embed

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWords: identifiers split at case changes, underscores and digits, lower-cased and
// stemmed; stop words and single letters dropped.
func TestWords(t *testing.T) {
	got := Words("func (s *Server) ServeHTTP(w http.ResponseWriter) // retries failed uploads_to S3 bucket")
	want := []string{"server", "serve", "http", "http", "response", "writer", "retry", "fail", "upload", "bucket"}
	if !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

// TestRandomizedSVD: on a matrix of known rank, the vectors found span its column space
// and the singular values match.
func TestRandomizedSVD(t *testing.T) {
	// M = a·aᵀ·3 + b·bᵀ·1 for orthonormal a, b: singular values 3 and 1.
	n := 40
	r := rand.New(rand.NewPCG(7, 7))
	a, b := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i], b[i] = r.NormFloat64(), r.NormFloat64()
	}
	x := append(append([]float64(nil), a...), b...) // n x 2 column-major -> make row-major
	rows := make([]float64, n*2)
	for i := 0; i < n; i++ {
		rows[i*2], rows[i*2+1] = x[i], x[n+i]
	}
	orthonormalize(rows, n, 2)
	m := &sparse{n: n, rowStart: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := 3*rows[i*2]*rows[j*2] + rows[i*2+1]*rows[j*2+1]
			m.col = append(m.col, int32(j))
			m.val = append(m.val, float32(v))
		}
		m.rowStart[i+1] = len(m.col)
	}
	u, s := randomizedSVD(m, 2, 4, 2, 1)
	if math.Abs(s[0]-3) > 1e-4 || math.Abs(s[1]-1) > 1e-4 {
		t.Errorf("singular values %v, want 3 and 1", s)
	}
	// u's first column is ±a.
	dot := 0.0
	for i := 0; i < n; i++ {
		dot += u[i*2] * rows[i*2]
	}
	if math.Abs(math.Abs(dot)-1) > 1e-4 {
		t.Errorf("first vector · a = %v, want ±1", dot)
	}
}

// TestTrainNearest: words that keep the same company come out near each other; words that
// never meet, far.
func TestTrainNearest(t *testing.T) {
	docs := [][]string{}
	r := rand.New(rand.NewPCG(3, 3))
	topics := [][]string{
		{"retry", "backoff", "attempt", "upload", "failure", "again"},
		{"cookie", "browser", "expire", "header", "session", "domain"},
		{"matrix", "vector", "multiply", "row", "column", "scalar"},
	}
	for i := 0; i < 600; i++ {
		tp := topics[i%3]
		doc := make([]string, 12)
		for j := range doc {
			doc[j] = tp[r.IntN(len(tp))]
		}
		docs = append(docs, doc)
	}
	m := Train(func(yield func(words, anchors []string)) {
		for _, d := range docs {
			yield(d, nil)
		}
	}, Options{Dim: 4, Window: 3, MinCount: 1, MaxVocab: 100, Seed: 1, EigPower: 0.5})
	near := m.Nearest("retry", 5)
	for _, w := range near {
		if !slices.Contains(topics[0], w) {
			t.Errorf("nearest to retry: %q, want only words of its topic", near)
			break
		}
	}
	v1, v2 := m.Embed([]string{"expire", "cookie"}, nil), m.Embed([]string{"session", "browser"}, nil)
	v3 := m.Embed([]string{"matrix", "row"}, nil)
	if Dot(v1, v2) <= Dot(v1, v3) {
		t.Errorf("cookie words %.3f apart from each other, %.3f from matrix words: want nearer each other", Dot(v1, v2), Dot(v1, v3))
	}
	if m.Embed([]string{"unknown"}, nil) != nil {
		t.Error("Embed of words without vectors: want nil")
	}
}
