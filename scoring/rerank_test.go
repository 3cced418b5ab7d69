package scoring

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestShippedReranker: the reranker built into Quarry decodes and was trained on the
// features the ranking gives.
func TestShippedReranker(t *testing.T) {
	r, err := DecodeReranker(shippedReranker)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Features, RerankFeatures) {
		t.Fatalf("shipped reranker features %v, want %v", r.Features, RerankFeatures)
	}
	if len(r.Trees) > 0 && !strings.Contains(r.Trained, "train rerank") {
		t.Errorf("the shipped reranker does not say how it was trained: %q", r.Trained)
	}
}

// TestRerankerScore: a tree's walk and the sum of trees.
func TestRerankerScore(t *testing.T) {
	stump := func(f int, th, lo, hi float64) Tree {
		return Tree{Feature: []int{f, -1, -1}, Threshold: []float64{th, 0, 0}, Left: []int{1, 0, 0}, Right: []int{2, 0, 0}, Value: []float64{0, lo, hi}}
	}
	r := &Reranker{Features: RerankFeatures, Trees: []Tree{stump(0, 0.5, -1, 1), stump(10, 0.2, 0, 0.25)}}
	if err := r.check(); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(RerankFeatures))
	for _, c := range []struct {
		cov, cos, want float64
	}{{0, 0, -1}, {0.5, 0.2, -1}, {0.6, 0, 1}, {0.6, 0.3, 1.25}, {0.1, 0.9, -0.75}} {
		x[0], x[10] = c.cov, c.cos
		if got := r.Score(x); got != c.want {
			t.Errorf("coverage %g cosine %g: score %g, want %g", c.cov, c.cos, got, c.want)
		}
	}
}

// TestDecodeRerankerRefuses: a reranker of other features, with a cycle or out-of-range
// children or features, or not JSON, is refused with what is wrong.
func TestDecodeRerankerRefuses(t *testing.T) {
	good := Tree{Feature: []int{0, -1, -1}, Threshold: []float64{1, 0, 0}, Left: []int{1, 0, 0}, Right: []int{2, 0, 0}, Value: []float64{0, 1, 2}}
	encode := func(r Reranker) []byte {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cycle := good
	cycle.Left = []int{0, 0, 0}
	feature := good
	feature.Feature = []int{len(RerankFeatures), -1, -1}
	short := good
	short.Value = []float64{0, 1}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"other features": {encode(Reranker{Features: []string{"bm25"}, Trees: []Tree{good}}), "train it again"},
		"cycle":          {encode(Reranker{Features: RerankFeatures, Trees: []Tree{cycle}}), "out of order"},
		"feature":        {encode(Reranker{Features: RerankFeatures, Trees: []Tree{feature}}), "feature"},
		"short":          {encode(Reranker{Features: RerankFeatures, Trees: []Tree{short}}), "different lengths"},
		"not json":       {[]byte("{"), "reranker"},
	} {
		_, err := DecodeReranker(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, c.want)
		}
	}
	if _, err := DecodeReranker(encode(Reranker{Features: RerankFeatures, Trees: []Tree{good}})); err != nil {
		t.Errorf("a good reranker: %v", err)
	}
}
