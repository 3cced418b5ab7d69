package scoring

// The learned reranker of a question's candidates (issue 42): gradient-boosted regression
// trees (LambdaMART, trained by `go run ./train rerank`) over what the ranking already knows
// of each candidate, shipped in the binary (rerank.json). It orders the candidates of a
// prose question only: names, fragments and signatures never reach it.

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"
)

// RerankFeatures names the features of a question's candidate, in the order a feature
// vector holds them. Index/search fills them (index/search/rerank.go); the trainer reads
// them from the same code; a reranker file names the features it was trained on and is
// refused when they differ.
var RerankFeatures = []string{
	"coverage",      // the share of the question's words (weighed by rarity) in the name, signature and doc comment, as the words' ranking counts it
	"cov_name",      // ... found in the name alone
	"cov_signature", // ... in the signature
	"cov_doc",       // ... in the doc comment
	"cov_related",   // ... only through the thesaurus's related words
	"bm25",          // log(1 + the full-text score: BM25 over name, signature, doc comment and body)
	"bm25_share",    // the full-text score over the best candidate's
	"words_rank",    // 1 / the rank by the words' ranking and the rules (0: only the model found it)
	"words_share",   // that ranking's score over the best
	"rules",         // the rules' weight: important pattern x path class x kind x placement
	"cosine",        // the model's cosine (the better of code and doc vector); the nearest list's last when not in it
	"cosine_gap",    // the cosine less the best candidate's
	"vec_rank",      // 1 / the rank in the model's nearest list (0: not in it)
	"model_only",    // 1 when only the model found it
	"documented",    // 1 when it has a doc comment
	"callable",      // 1 for a function or method
	"type",          // 1 for a type, class, struct, interface, trait or enum
	"test",          // 1 in a test file
	"depth",         // the path's folders
	"name_words",    // the words of the name
	"name_in_query", // the share of the name's words the question holds
	"query_words",   // the question's words (its stop words out)
	"lines",         // log(1 + the definition's lines)
	"order",         // 1 / the place the search gave it (the words, the rules and the model's cosine added), from 1
}

// Tree is one regression tree, its nodes in arrays: node i splits on Feature[i] at
// Threshold[i] (a value <= it goes Left), or is a leaf of Value[i] when Feature[i] < 0.
type Tree struct {
	Feature   []int     `json:"f"`
	Threshold []float64 `json:"t"`
	Left      []int     `json:"l"`
	Right     []int     `json:"r"`
	Value     []float64 `json:"v"`
}

// Eval returns the tree's value for x.
func (t *Tree) Eval(x []float64) float64 {
	i := 0
	for t.Feature[i] >= 0 {
		if x[t.Feature[i]] <= t.Threshold[i] {
			i = t.Left[i]
		} else {
			i = t.Right[i]
		}
	}
	return t.Value[i]
}

// Reranker is a trained sum of trees.
type Reranker struct {
	// Features are the names of the features it was trained on (RerankFeatures then).
	Features []string `json:"features"`
	// Base weighs each feature linearly under the trees (none: 0): the trees learn what to
	// change of an order the base already gives (the search's, through "order").
	Base  []float64 `json:"base,omitempty"`
	Trees []Tree    `json:"trees"`
	// Trained says how: the data, the settings and the validation figures.
	Trained string `json:"trained,omitempty"`
}

// Score returns the reranker's score of a feature vector: higher is better.
func (r *Reranker) Score(x []float64) float64 {
	s := 0.0
	for i, w := range r.Base {
		s += w * x[i]
	}
	for i := range r.Trees {
		s += r.Trees[i].Eval(x)
	}
	return s
}

// check reports a reranker that cannot run on RerankFeatures' vectors.
func (r *Reranker) check() error {
	if !slices.Equal(r.Features, RerankFeatures) {
		return fmt.Errorf("the reranker was trained on the features %v, the ranking gives %v: train it again (go run ./train rerank)", r.Features, RerankFeatures)
	}
	n := len(RerankFeatures)
	if len(r.Base) != 0 && len(r.Base) != n {
		return fmt.Errorf("the reranker's base weighs %d features, the ranking gives %d", len(r.Base), n)
	}
	for ti, t := range r.Trees {
		m := len(t.Feature)
		if m == 0 || len(t.Threshold) != m || len(t.Left) != m || len(t.Right) != m || len(t.Value) != m {
			return fmt.Errorf("reranker tree %d: node arrays of different lengths", ti)
		}
		for i := range m {
			if t.Feature[i] >= n || math.IsNaN(t.Value[i]) || math.IsNaN(t.Threshold[i]) {
				return fmt.Errorf("reranker tree %d node %d: feature %d of %d, or not a number", ti, i, t.Feature[i], n)
			}
			// Children come after their node: no cycle, every walk ends at a leaf.
			if t.Feature[i] >= 0 && (t.Left[i] <= i || t.Right[i] <= i || t.Left[i] >= m || t.Right[i] >= m) {
				return fmt.Errorf("reranker tree %d node %d: children %d, %d out of order", ti, i, t.Left[i], t.Right[i])
			}
		}
	}
	return nil
}

// DecodeReranker reads a reranker file and checks it against RerankFeatures.
func DecodeReranker(data []byte) (*Reranker, error) {
	var r Reranker
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("reranker: %w", err)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return &r, nil
}

//go:embed rerank.json
var shippedReranker []byte

var shipped = sync.OnceValues(func() (*Reranker, error) { return DecodeReranker(shippedReranker) })

// ShippedReranker returns the reranker built into Quarry (nil when the file has no trees).
func ShippedReranker() (*Reranker, error) {
	r, err := shipped()
	if err != nil || len(r.Trees) == 0 {
		return nil, err
	}
	return r, nil
}
