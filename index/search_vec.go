package index

import (
	"context"
	"sort"
	"strings"

	"github.com/quarrysearch/quarry/index/query"
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
	found, err := s.store.VectorSearch(ctx, req.Vector, want*vecCandidates+20, nil)
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
		if !ok || !req.admits(h.Language, h.Kind, h.Path) {
			continue
		}
		class := scoring.Classify(h.Path)
		if req.Tests == TestsExclude && class == scoring.Test || req.Tests == TestsOnly && class != scoring.Test {
			continue
		}
		h.Score = f.Score * scoring.PathWeight(class, keepTests || req.Tests == TestsOnly)
		hits = append(hits, h)
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })
	if req.Offset >= len(hits) {
		return nil, nil
	}
	return hits[req.Offset:], nil
}

// Promotion returns the promotion a definitions search gives h for the query text (an
// exact name, one but for case and separators, the last part of a qualified name): what a
// query document adds after fusing its lines, so that a name asked for comes first
// whichever line found it. 0 for none, or when text is not a plain query.
func Promotion(h Hit, text string, keepTests bool) float64 {
	q, err := query.Parse(text)
	if err != nil || h.Hit != HitDefinition {
		return 0
	}
	name := strings.Join(append(q.Phrases(), q.Words()...), " ")
	qual, last := q.Qualified()
	class := scoring.Classify(h.Path)
	p := scoring.Promotion(name, qual, last, h.definition(), scoring.PathWeight(class, keepTests))
	if p > 0 {
		p += scoring.PriorSpread * scoring.Prior(h.definition())
	}
	return p
}
