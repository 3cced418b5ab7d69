package search

import (
	"testing"

	"github.com/quarrysearch/quarry/scoring"
)

// TestRerankOrders: the reranker's scores order a question's hits (a promoted hit first
// still), each hit's score the logistic of its reranker score, explained.
func TestRerankOrders(t *testing.T) {
	nf := len(scoring.RerankFeatures)
	// One stump on the cosine: above 0.5 scores 2, else -1.
	r := &scoring.Reranker{Features: scoring.RerankFeatures, Trees: []scoring.Tree{{
		Feature: []int{10, -1, -1}, Threshold: []float64{0.5, 0, 0}, Left: []int{1, 0, 0}, Right: []int{2, 0, 0}, Value: []float64{0, -1, 2},
	}}}
	hits := []Hit{{Name: "words"}, {Name: "near"}, {Name: "promoted", bonus: 1}}
	features := make([][]float64, len(hits))
	for i := range features {
		features[i] = make([]float64, nf)
	}
	features[1][10] = 0.8
	rerank(r, hits, features)
	got := []string{hits[0].Name, hits[1].Name, hits[2].Name}
	if got[0] != "promoted" || got[1] != "near" || got[2] != "words" {
		t.Fatalf("order %v, want promoted, near, words", got)
	}
	if s := hits[1].Score; s < 0.88 || s > 0.881 { // 1/(1+e^-2)
		t.Errorf("near's score %g, want the logistic of 2", s)
	}
	hits[1].explain()
	found := false
	for _, p := range hits[1].Explain.Parts {
		found = found || p.Name == "reranker" && p.Value == 2
	}
	if !found {
		t.Errorf("no reranker part in %+v", hits[1].Explain.Parts)
	}
}

// TestNamesCandidate: a question whose words are all in one of its first candidates' names
// is left to the words' order.
func TestNamesCandidate(t *testing.T) {
	nf := len(scoring.RerankFeatures)
	row := func(covName, nameInQuery float64) []float64 {
		x := make([]float64, nf)
		x[1], x[20] = covName, nameInQuery
		return x
	}
	hits := make([]Hit, 12)
	for _, c := range []struct {
		name     string
		features [][]float64
		want     bool
	}{
		{"count down latch: CountDownLatch third", [][]float64{row(0.5, 0.3), row(0, 0), row(1, 1)}, true},
		{"single host reverse proxy: NewSingleHostReverseProxy", [][]float64{row(0.4, 1), row(1, 0.8)}, true},
		{"the name's words all in the question, not the reverse", [][]float64{row(0.4, 1), row(0.7, 1)}, false},
		{"the name beyond the first ten", append(make([][]float64, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(0, 0), row(1, 1)), false},
	} {
		if got := namesCandidate(c.features, hits[:len(c.features)]); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
