package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/scoring"
)

// vecCandidates is how many nearest vectors a vector search reads per result wanted: the
// filters (language, kinds, paths, tests) drop some.
const vecCandidates = 4

// vectorSearch answers a request whose Vector is set (a vec: or hyde: line): the
// definitions whose vectors are nearest to the text's, within req's filters, each scored by
// its cosine times its path's prior (tests, vendored and generated code lower), best first.
func (s *Searcher) vectorSearch(ctx context.Context, req Request, keepTests bool) ([]Hit, error) {
	want := req.Limit + req.Offset
	found, err := vectors.Of(s.store.Store).Search(ctx, req.Vector, want*vecCandidates+20, nil)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.ID
	}
	byID, err := s.store.symbolsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	for _, f := range found {
		h, ok := byID[f.ID]
		if !ok || f.Score <= 0 || !req.admitsFound(h) { // a cosine of 0 or less: unrelated
			continue
		}
		h.parts.cosine, h.parts.path, h.parts.set = f.Score, h.pathWeight(keepTests || req.Tests == TestsOnly), true
		h.Score = f.Score * h.parts.path
		hits = append(hits, h)
	}
	// Equal scores (definitions of one name and signature have one vector) in the order of
	// their places, as the other targets: never in the order the vectors were stored, which
	// differs between two builds of one tree.
	sortHits(hits, nil)
	if req.Offset >= len(hits) {
		return nil, nil
	}
	return hits[req.Offset:], nil
}

// admitsFound reports whether a definition the vectors found passes req's filters: its
// language, kind and path, and whether it is a test (the full-text candidates pass them in
// the query itself).
func (req Request) admitsFound(h Hit) bool {
	if !req.admits(h.Language, h.Kind, h.Path) {
		return false
	}
	test := scoring.Classify(h.Path) == scoring.Test
	return !(req.Tests == TestsExclude && test || req.Tests == TestsOnly && !test)
}

// Promoter returns the promotion a definitions search gives a hit for the query text (an
// exact name, one but for case and separators, the last part of a qualified name): what a
// query document adds after fusing its lines, so that a name asked for comes first
// whichever line found it. It gives 0 for none, and always when text is not a plain query.
func Promoter(text string, keepTests bool) func(Hit) float64 {
	q, err := query.Parse(text)
	if err != nil {
		return func(Hit) float64 { return 0 }
	}
	name := strings.Join(append(q.Phrases(), q.Words()...), " ")
	qual, last := q.Qualified()
	return func(h Hit) float64 {
		if h.Hit != HitDefinition {
			return 0
		}
		return namePromotion(name, qual, last, h.definition(), h.pathWeight(keepTests))
	}
}

// namePromotion is a definition's promotion for a query's name and qualifier, with the
// prior that orders the definitions named alike.
func namePromotion(name, qual, last string, def scoring.Definition, weight float64) float64 {
	p := scoring.Promotion(name, qual, last, def, weight)
	if p > 0 {
		p += scoring.PriorSpread * scoring.Prior(def)
	}
	return p
}

// Explanation is why a hit ranks where it does.
type Explanation struct {
	Score float64     `json:"score" jsonschema:"the hit's score"`
	Parts []ScorePart `json:"parts" jsonschema:"what made the score, in the order it was made: factors (op x) and additions (op +)"`
	Lines []LineRank  `json:"lines,omitempty" jsonschema:"a query document's lines: the hit's rank in each that found it and what that added to the fused score"`
}

// ScorePart is one part of a score.
type ScorePart struct {
	Name  string  `json:"name"`
	Op    string  `json:"op" jsonschema:"the operation: '=' (the start), 'x' (a factor) or '+' (an addition)"`
	Value float64 `json:"value"`
	Doc   string  `json:"doc"`
}

// LineRank is a query document line's part in a fused hit.
type LineRank struct {
	Line         string      `json:"line" jsonschema:"the line: line 2 (vec:), searches[1] (vec)"`
	Rank         int         `json:"rank" jsonschema:"the hit's rank in the line's results, from 1"`
	Contribution float64     `json:"contribution" jsonschema:"weight/(60+rank): the line's share of the fused score"`
	Parts        []ScorePart `json:"parts,omitempty" jsonschema:"the parts of the hit's score in the first line that found it"`
}

// scoreParts are the factors of a hit's score, kept for an explanation.
type scoreParts struct {
	set                              bool // fulltext or cosine is the start
	fulltext, cosine                 float64
	important, path, kind, placement float64
	promotion, normalized, target    float64
	meaning                          float64 // a prose query's weighed cosine (meaning.go): added to the words' score, or the start of a definition only the model found
	share                            float64 // of the normalized score, added to the promotion (foldPromotion)
	// What a question's reranker reads (rerank.go): the coverages of its words
	// (prose.go's cov* places), a doc comment or not, the rank and score by the words and
	// the rules (0: only the model found it), the rank in the model's nearest list (0: not
	// in it); rerank is the reranker's score, when it ordered the hit.
	cov        [covCount]float64
	documented bool
	wordsRank  int
	wordsScore float64
	vecRank    int
	rerank     float64
	reranked   bool
}

// explain sets h.Explain from the parts its score was made of.
func (h *Hit) explain() {
	e := &Explanation{Score: h.Score}
	p := h.parts
	add := func(name, op string, v float64, doc string) {
		e.Parts = append(e.Parts, ScorePart{Name: name, Op: op, Value: v, Doc: doc})
	}
	switch {
	case p.meaning != 0 && p.fulltext == 0:
		add("cosine", "=", p.cosine, "the cosine of the definition's vector (its code's or its doc comment's) and the question's: only the code-search model found it")
		add("meaning_weight", "x", meaningWeight, "the weight of the model's cosine in a prose query")
	case p.cosine != 0:
		add("cosine", "=", p.cosine, "the cosine of the symbol's vector and the line's")
	case p.set:
		add("bm25", "=", p.fulltext, "the full-text score (BM25 over the name, signature, doc comment and body)")
	case p.normalized == 0:
		add("score", "=", h.Score, "the "+string(h.Hit)+" target's own score")
	}
	if p.important != 0 && p.important != 1 {
		add("important_pattern", "x", p.important, "its language's important pattern (pub fn, export, public class) in the signature")
	}
	if p.path != 0 && p.path != 1 {
		add("path_prior", "x", p.path, "tests, fixtures, vendored, generated code and docs rank lower unless asked for")
	}
	if p.kind != 0 && p.kind != 1 {
		add("kind_weight", "x", p.kind, "members and values below types and functions")
	}
	if p.placement != 0 && p.placement != 1 {
		add("placement", "x", p.placement, "visibility, nesting and path depth")
	}
	if p.meaning != 0 && p.fulltext != 0 {
		add("meaning", "+", p.meaning, fmt.Sprintf("the code-search model's cosine of the definition and the question (%.3f) times %g", p.cosine, meaningWeight))
	}
	if p.reranked {
		add("reranker", "=", p.rerank, "the learned reranker's order of a question's candidates (scoring.Reranker: trees over the parts above, the words' coverage by field, the rank in both lists): the score that orders them")
	}
	if p.normalized != 0 {
		add("normalized", "=", p.normalized, "the score over its target's best (auto ranks definitions, lines and files together)")
	}
	if p.share != 0 {
		add("score_share", "x", p.share, "the share of the score added to the promotion: under half the gap between two promotions, so that the definitions target's order is its score's")
	}
	if p.promotion != 0 {
		add("promotion", "+", p.promotion, "an exact or qualified name asked for (the definitions target sorts by it first)")
	}
	if p.target != 0 && p.target != 1 {
		add("target_weight", "x", p.target, "the weight of its target for this shape of query")
	}
	h.Explain = e
}
