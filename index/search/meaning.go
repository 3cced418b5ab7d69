package search

// A prose query ("where are cookies signed") is also searched by meaning: the built-in
// code-search model (index/vectors) finds the definitions whose code or doc comment is
// nearest to the question. Its cosine is added, weighed, to the words' score of each
// definition the words found (prose.go), and the nearest definitions the words missed join
// them at their cosine alone, weighed the same. Ranking by the words stays first: the model
// re-orders what they found and brings in what they could not name.
//
// The weight was chosen on the dev half of the quality suite (testdata/quality), never on
// its test half or holdout: MRR@10 of the dev descriptions 0.502 (words alone) -> 0.533 at
// 0.3, 0.514 at 0.5, 0.464 at 0.7. Reciprocal rank fusion of the two rankings (k 60, equal
// weights) gave 0.381: the model's ranking alone (0.20-0.24) is far below the words' on
// this suite, and fusing ranks throws the words' score away.

import (
	"context"
	"errors"
	"strings"
	"unicode"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/vectors"
)

// Settings of a prose query's search by meaning.
const (
	// meaningFetch is how many of the model's nearest definitions a prose query reads.
	meaningFetch = 200
	// meaningJoin is how many of them that the words did not find may join the ranking.
	meaningJoin = 50
	// meaningWeight is the weight of a definition's cosine added to its words' score.
	meaningWeight = 0.3
)

// addMeaning adds the model's view to the ranked definitions of a prose query (see the
// file's comment) and sorts them again, promotions first. It reports whether the query is
// a question the model was asked: without vectors (an index made before them, or by
// another build's model) it returns hits as they are. words are the query's prose words:
// the definitions only the model found get their coverage of them (for the reranker).
func (s *Searcher) addMeaning(ctx context.Context, req Request, q *query.Query, words []string, keepTests bool, hits []Hit) ([]Hit, bool, error) {
	if !question(q.String()) {
		return hits, false, nil
	}
	found, err := vectors.Of(s.store.Store).Search(ctx, q.String(), meaningFetch, nil)
	if errors.Is(err, vectors.ErrNoVectors) {
		return hits, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	cos := make(map[string]float64, len(found))
	vecRank := make(map[string]int, len(found))
	for i, f := range found {
		if f.Score > 0 {
			cos[f.ID], vecRank[f.ID] = f.Score, i+1
		}
	}
	seen := make(map[string]bool, len(hits))
	for i := range hits {
		h := &hits[i]
		seen[h.SymbolID] = true
		h.parts.wordsRank, h.parts.wordsScore = i+1, h.Score // the words' order (scoreDefinitions sorted them)
		if c, ok := cos[h.SymbolID]; ok {
			h.parts.cosine, h.parts.meaning, h.parts.vecRank = c, meaningWeight*c, vecRank[h.SymbolID]
			h.Score += h.parts.meaning
		}
	}
	var ids []string
	for _, f := range found {
		if !seen[f.ID] && f.Score > 0 && len(ids) < 4*meaningJoin {
			ids = append(ids, f.ID)
		}
	}
	rows, err := s.store.symbolsByID(ctx, ids)
	if err != nil {
		return nil, false, err
	}
	var near []Hit
	for _, id := range ids {
		h, ok := rows[id]
		if !ok || !req.admitsFound(h) {
			continue
		}
		h.Score, h.parts.cosine, h.parts.set, h.parts.vecRank = meaningWeight*cos[id], cos[id], true, vecRank[id]
		near = append(near, h)
		if len(near) == meaningJoin {
			break
		}
	}
	if reranking(req) {
		if err := s.coverage(ctx, words, near); err != nil {
			return nil, false, err
		}
	}
	hits = append(hits, s.scoreDefinitions(req, q, keepTests, near)...)
	sortPromoted(hits)
	return hits, true, nil
}

// question reports whether a prose query is a question in words rather than a list of
// names: fewer than half its words hold a digit or a capital after their first letter
// (retry1 cookie1 matrix1 is names; turn a byte array into a base64 String a question).
func question(text string) bool {
	words := strings.Fields(text)
	names := 0
	for _, w := range words {
		for i, r := range w {
			if unicode.IsDigit(r) || i > 0 && unicode.IsUpper(r) {
				names++
				break
			}
		}
	}
	return 2*names < len(words)
}
