package search

// A question's candidates (a prose query that reads as words, meaning.go's question) are
// put in order last by the learned reranker built into Quarry (scoring.ShippedReranker):
// trees trained by `go run ./train rerank` on questions over public packages (never the
// quality suite's corpus), reading what the ranking already knows of each candidate
// (scoring.RerankFeatures). Names, fragments and signatures are not questions and never
// reach it.

import (
	"math"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/scoring"
)

// rerankFeatures returns the feature vector of each hit of a question whose words are all
// and, its stop words left out, words, in scoring.RerankFeatures' order. The hits carry their parts:
// coverage (prose.go), the rules (scoreDefinitions), the words' rank and the model's
// (meaning.go).
func (s *Searcher) rerankFeatures(all, words []string, hits []Hit) [][]float64 {
	tk := s.ft.Tokenizer("")
	query := make(map[string]bool, len(all))
	for _, w := range all {
		query[strings.ToLower(w)] = true
		query[wordStem(w)] = true
	}
	var bestFT, bestWords, bestCos, lastCos float64
	lastCos = math.Inf(1)
	for _, h := range hits {
		bestFT = max(bestFT, h.parts.fulltext)
		bestWords = max(bestWords, h.parts.wordsScore)
		if h.parts.vecRank > 0 {
			bestCos = max(bestCos, h.parts.cosine)
			lastCos = min(lastCos, h.parts.cosine)
		}
	}
	if math.IsInf(lastCos, 1) {
		lastCos = 0
	}
	out := make([][]float64, len(hits))
	x := make([]float64, len(hits)*len(scoring.RerankFeatures))
	for i := range hits {
		h := &hits[i]
		p := &h.parts
		f := x[i*len(scoring.RerankFeatures) : (i+1)*len(scoring.RerankFeatures)]
		f[0], f[1], f[2], f[3], f[4] = p.cov[covAll], p.cov[covName], p.cov[covSig], p.cov[covDoc], p.cov[covRelated]
		f[5] = math.Log1p(max(p.fulltext, 0))
		f[6] = share(p.fulltext, bestFT)
		f[7] = inverse(p.wordsRank)
		f[8] = share(p.wordsScore, bestWords)
		f[9] = ruleWeight(p)
		cos := p.cosine
		if p.vecRank == 0 {
			cos = lastCos // below the nearest list's last: at most that
		}
		f[10], f[11], f[12] = cos, cos-bestCos, inverse(p.vecRank)
		f[13] = flag(p.wordsRank == 0)
		f[14] = flag(p.documented)
		k, _ := extract.KindNamed(h.Kind)
		f[15], f[16] = flag(k.IsCallable()), flag(k.IsType() || k.IsContainer())
		f[17] = flag(scoring.Classify(h.Path) == scoring.Test)
		f[18] = float64(strings.Count(h.Path, "/"))
		parts := tk.Append(nil, h.Name)
		inQuery := 0
		for _, t := range parts {
			if query[strings.ToLower(t.Text)] || query[wordStem(t.Text)] {
				inQuery++
			}
		}
		f[19] = float64(len(parts))
		f[20] = share(float64(inQuery), float64(len(parts)))
		f[21] = float64(len(words))
		f[22] = math.Log1p(float64(max(h.EndLine-h.Line, 0)))
		f[23] = 1 / float64(i+1)
		out[i] = f
	}
	return out
}

// reranking reports whether a question of req is reranked or observed: the features of its
// candidates are needed.
func reranking(req Request) bool {
	r, _ := scoring.ShippedReranker()
	return r != nil || req.Observe != nil
}

// rerankQuestion gives a question's hits (all its words, and its prose words without the
// stop words) to req.Observe and orders them by the shipped reranker, when there is one,
// unless the question spells a candidate's name.
func (s *Searcher) rerankQuestion(req Request, all, words []string, hits []Hit) ([]Hit, error) {
	r, err := scoring.ShippedReranker()
	if err != nil {
		return nil, err
	}
	if (r == nil && req.Observe == nil) || len(hits) == 0 {
		return hits, nil
	}
	features := s.rerankFeatures(all, words, hits)
	if namesCandidate(features, hits) {
		return hits, nil // a name in words (count down latch): the words' order stands
	}
	if req.Observe != nil {
		req.Observe(hits, features)
	}
	if r != nil {
		rerank(r, hits, features)
	}
	return hits, nil
}

// nameCheckDepth is how many of a question's first candidates are checked for a name its
// words spell.
const nameCheckDepth = 10

// namesCandidate reports whether a question's words are all in the name of one of its
// first candidates (count down latch: CountDownLatch; single host reverse proxy:
// NewSingleHostReverseProxy): a fragment of a name typed as words, which the reranker was
// not trained on (its written questions never hold their answer's name) and must leave
// alone.
func namesCandidate(features [][]float64, hits []Hit) bool {
	for i := range min(nameCheckDepth, len(hits)) {
		if features[i][1] >= 1-1e-9 {
			return true
		}
	}
	return false
}

// rerank orders a question's hits by r's scores of their features, promotions first as
// everywhere: a hit's score becomes the logistic of its reranker score.
func rerank(r *scoring.Reranker, hits []Hit, features [][]float64) {
	for i := range hits {
		h := &hits[i]
		h.parts.rerank, h.parts.reranked = r.Score(features[i]), true
		h.Score = 1 / (1 + math.Exp(-h.parts.rerank))
	}
	sortPromoted(hits)
}

func wordStem(w string) string { return fulltext.Stem(strings.ToLower(w)) }

func share(v, best float64) float64 {
	if best <= 0 {
		return 0
	}
	return v / best
}

func inverse(rank int) float64 {
	if rank <= 0 {
		return 0
	}
	return 1 / float64(rank)
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ruleWeight is the product of the rules' weights a hit's score was multiplied by (1 for
// a weight not set).
func ruleWeight(p *scoreParts) float64 {
	w := 1.0
	for _, v := range []float64{p.important, p.path, p.kind, p.placement} {
		if v != 0 {
			w *= v
		}
	}
	return w
}
