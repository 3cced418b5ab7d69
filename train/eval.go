package main

// Intrinsic evaluation, CodeSearchNet-style: the documented definitions of a source tree
// (the benchmark corpus, never trained on) are split per language into chunks of 1,000; in
// each chunk every definition's doc comment is a query that ranks the chunk's 1,000 code
// sides, its own being the target. Four rankers are measured by their mean reciprocal rank:
// Okapi BM25 over the code words, the model's cosine, the reciprocal rank fusion of both,
// and the model's cosine added to the BM25 score as a search adds it to the words' score
// (index/search/meaning.go: weighed addedWeight, the BM25 score over the chunk's best).
//
// Ties: a target whose score equals that of other candidates gets the middle of their ranks,
// rounded up to the better one: rank = 1 + (candidates scoring strictly higher) +
// (other candidates scoring the same) / 2, rounded down. Every candidate is ranked the same
// way for the fusion. A query or code the model knows no word of has no vector and scores 0.

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarrysearch/quarry/codemodel"
)

// Evaluation settings.
const (
	// evalChunk is how many candidates each query ranks (CodeSearchNet's 1,000).
	evalChunk = 1000
	// maxEvalChunks is the most chunks of one language (so at most 10,000 queries).
	maxEvalChunks = 10
	// bm25K1 and bm25B are Okapi BM25's term-frequency saturation and length normalisation.
	bm25K1 = 1.2
	bm25B  = 0.75
	// rrfK is reciprocal rank fusion's constant: a candidate scores 1/(rrfK+rank) per ranking.
	rrfK = 60
)

// evalOptions are the settings of an evaluation run.
type evalOptions struct {
	chunk int // candidates per query
	// minPairs is the fewest pairs a language needs to be measured (at least 2): a handful
	// of CSS rules is not a language's figure.
	minPairs int
	seed     uint64 // order of each language's pairs before chunking
	// model says the query side (first or doc), the model's code fields and whether the
	// name's words are left out of the query; bm25 is the same with every code field.
	model, bm25 dataOptions
}

// evalMinPairs is -min-pairs' default.
const evalMinPairs = 100

// rankers are the names of the rankers, in the order of the columns.
var rankers = [4]string{"bm25", "model", "fused", "added"}

// addedWeight is the weight of the model's cosine in the added ranker: a prose search's
// (index/search/meaning.go's meaningWeight, chosen on the quality suite's dev half).
const addedWeight = 0.3

// evalRow is the result of one language, or of all of them.
type evalRow struct {
	Lang    string  `json:"lang"`
	Chunks  int     `json:"chunks"`
	Queries int     `json:"queries"`
	BM25    float64 `json:"bm25"`
	Model   float64 `json:"model"`
	Fused   float64 `json:"fused"`
	Added   float64 `json:"added"`
}

// evalResult is what an evaluation measured; -out writes it as JSON.
type evalResult struct {
	Model     string    `json:"model"` // the model's id
	Src       string    `json:"src"`
	Query     string    `json:"query"`
	Code      []string  `json:"code"`
	StripName bool      `json:"strip_name"`
	Chunk     int       `json:"chunk"`
	Seed      uint64    `json:"seed"`
	Pairs     int       `json:"pairs"`    // documented definitions extracted
	LeftOut   int       `json:"left_out"` // of them without query or code words
	Languages []evalRow `json:"languages"`
	// MeanOfLanguages is the unweighted mean of the languages' MRRs; AllQueries the MRR
	// over every query.
	MeanOfLanguages evalRow `json:"mean_of_languages"`
	AllQueries      evalRow `json:"all_queries"`
	ExtractSeconds  float64 `json:"extract_seconds"`
	RankSeconds     float64 `json:"rank_seconds"`
}

// evalChunkSet is one chunk: the pairs whose queries rank each other's code sides.
type evalChunkSet struct {
	lang  string
	pairs []Pair
}

func runEval(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	modelFile := fs.String("model", "", "the model file to evaluate")
	src := fs.String("src", "", "the source tree whose documented definitions are the queries (never trained on)")
	n := fs.Int("n", evalChunk, "candidates each query ranks (a chunk's size)")
	seed := fs.Uint64("seed", 1, "random seed: the order of each language's pairs before chunking")
	query := fs.String("query", "first", "query side: first (the doc comment's first sentence) or doc (all of it)")
	code := fs.String("code", "name,sig,body", "the model's code side: fields of name, sig, body")
	strip := fs.Bool("strip-name", false, "leave the name's words out of the queries")
	minPairs := fs.Int("min-pairs", evalMinPairs, "the fewest pairs a language needs to be measured")
	dst := fs.String("out", "", "also write the results to this file as JSON")
	sources := fs.String("sources", "doc", "which pairs are queries: of doc (doc comments), test (tests' names), mention (comment sentences naming a definition)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	keep, err := parseSources(*sources)
	if err != nil {
		return usageError("eval: " + err.Error() + "\n" + usage)
	}
	if *modelFile == "" || *src == "" {
		return usageError("eval: -model and -src are required\n" + usage)
	}
	if *n < 2 {
		return usageError(fmt.Sprintf("eval: -n %d: want at least 2\n%s", *n, usage))
	}
	if *query != "first" && *query != "doc" {
		return usageError(fmt.Sprintf("eval: -query %q: want first or doc\n%s", *query, usage))
	}
	fields := strings.Split(*code, ",")
	for _, f := range fields {
		if f != "name" && f != "sig" && f != "body" {
			return usageError(fmt.Sprintf("eval: -code %q: want fields of name, sig, body\n%s", *code, usage))
		}
	}
	o := evalOptions{
		chunk: *n, seed: *seed, minPairs: *minPairs,
		model: dataOptions{query: *query, code: fields, stripName: *strip},
		bm25:  dataOptions{query: *query, code: []string{"name", "sig", "body"}, stripName: *strip},
	}
	data, err := os.ReadFile(*modelFile)
	if err != nil {
		return err
	}
	m, err := codemodel.Decode(data)
	if err != nil {
		return err
	}
	start := time.Now()
	all, _, err := collectPairs(ctx, *src, nil)
	if err != nil {
		return err
	}
	var pairs []Pair
	for _, p := range all {
		if keep[p.Source] {
			pairs = append(pairs, p)
		}
	}
	extracted := time.Now()
	res, err := evaluate(ctx, m, pairs, o)
	if err != nil {
		return err
	}
	res.Model, res.Src = m.ID(), *src
	res.ExtractSeconds = extracted.Sub(start).Seconds()
	res.RankSeconds = time.Since(extracted).Seconds()
	writeEvalTable(out, res)
	if *dst != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*dst, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// evaluate ranks the chunks of pairs (evalChunks) with the three rankers on every core and
// returns the MRRs; the result does not depend on the number of cores. Its timing and
// model and source fields are left for the caller.
func evaluate(ctx context.Context, m *codemodel.Model, pairs []Pair, o evalOptions) (evalResult, error) {
	res := evalResult{
		Query: o.model.query, Code: o.model.code, StripName: o.model.stripName,
		Chunk: o.chunk, Seed: o.seed, Pairs: len(pairs),
	}
	kept := usablePairs(pairs, o)
	res.LeftOut = len(pairs) - len(kept)
	chunks := evalChunks(kept, o)
	sums := make([][4]float64, len(chunks))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				sums[i] = rankChunk(m, chunks[i].pairs, o)
			}
		})
	}
	for i := range chunks {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	var all [4]float64
	var mean [4]float64
	for i, c := range chunks {
		if len(res.Languages) == 0 || res.Languages[len(res.Languages)-1].Lang != c.lang {
			res.Languages = append(res.Languages, evalRow{Lang: c.lang})
		}
		row := &res.Languages[len(res.Languages)-1]
		row.Chunks++
		row.Queries += len(c.pairs)
		row.BM25 += sums[i][0]
		row.Model += sums[i][1]
		row.Fused += sums[i][2]
		row.Added += sums[i][3]
		for k := range all {
			all[k] += sums[i][k]
		}
		res.AllQueries.Chunks++
		res.AllQueries.Queries += len(c.pairs)
	}
	for i := range res.Languages {
		row := &res.Languages[i]
		q := float64(row.Queries)
		row.BM25, row.Model, row.Fused, row.Added = row.BM25/q, row.Model/q, row.Fused/q, row.Added/q
		mean[0] += row.BM25
		mean[1] += row.Model
		mean[2] += row.Fused
		mean[3] += row.Added
	}
	res.AllQueries.Lang = "all queries"
	if q := float64(res.AllQueries.Queries); q > 0 {
		res.AllQueries.BM25, res.AllQueries.Model, res.AllQueries.Fused, res.AllQueries.Added = all[0]/q, all[1]/q, all[2]/q, all[3]/q
	}
	res.MeanOfLanguages = evalRow{Lang: "mean of languages", Chunks: res.AllQueries.Chunks, Queries: res.AllQueries.Queries}
	if l := float64(len(res.Languages)); l > 0 {
		res.MeanOfLanguages.BM25, res.MeanOfLanguages.Model, res.MeanOfLanguages.Fused, res.MeanOfLanguages.Added = mean[0]/l, mean[1]/l, mean[2]/l, mean[3]/l
	}
	return res, nil
}

// usablePairs returns the pairs with words on the query side and on the code side (every
// field: the model may still know none of them, then its vector is nil).
func usablePairs(pairs []Pair, o evalOptions) []Pair {
	var out []Pair
	for _, p := range pairs {
		if q, c := sides(p, o.bm25); len(q) > 0 && len(c) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// evalChunks splits pairs by language (in order of the languages' names), shuffles each
// language's with a generator of the seed and the language, and cuts them into chunks of
// o.chunk pairs, the last partial chunk dropped, at most maxEvalChunks a language. A
// language with fewer than o.chunk pairs (but at least o.minPairs, and 2) makes one chunk of
// all of them; one with fewer is left out.
func evalChunks(pairs []Pair, o evalOptions) []evalChunkSet {
	byLang := map[string][]Pair{}
	for _, p := range pairs {
		byLang[p.Lang] = append(byLang[p.Lang], p)
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	var out []evalChunkSet
	for _, l := range langs {
		ps := byLang[l]
		if len(ps) < max(2, o.minPairs) {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(l))
		rng := rand.New(rand.NewPCG(o.seed, h.Sum64()))
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		if len(ps) < o.chunk {
			out = append(out, evalChunkSet{lang: l, pairs: ps})
			continue
		}
		for k := 0; k < maxEvalChunks && (k+1)*o.chunk <= len(ps); k++ {
			out = append(out, evalChunkSet{lang: l, pairs: ps[k*o.chunk : (k+1)*o.chunk]})
		}
	}
	return out
}

// rankChunk returns the sums of the reciprocal ranks of the chunk's targets by each ranker
// (bm25, model, fused), each pair's query ranking every pair's code side.
func rankChunk(m *codemodel.Model, chunk []Pair, o evalOptions) [4]float64 {
	n := len(chunk)
	queries, docs := make([][]string, n), make([][]string, n)
	codes := make([][]float32, n)
	for i, p := range chunk {
		queries[i], docs[i] = sides(p, o.bm25)
		_, c := sides(p, o.model)
		codes[i] = m.EncodeCode(c)
	}
	idx := newBM25Index(docs)
	var sums [4]float64
	bm, cos, fused, added := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range chunk {
		idx.scores(queries[i], bm)
		q, _ := sides(chunk[i], o.model)
		cosines(m.EncodeQuery(q), codes, cos)
		rb, rm := ranks(bm), ranks(cos)
		fuse(rb, rm, fused)
		add(bm, cos, added)
		sums[0] += 1 / float64(rb[i])
		sums[1] += 1 / float64(rm[i])
		sums[2] += 1 / float64(rankOf(fused, i))
		sums[3] += 1 / float64(rankOf(added, i))
	}
	return sums
}

// fuse writes the reciprocal rank fusion of two rankings of the same candidates into out:
// 1/(rrfK + rank in a) + 1/(rrfK + rank in b).
func fuse(a, b []int, out []float64) {
	for j := range out {
		out[j] = 1/float64(rrfK+a[j]) + 1/float64(rrfK+b[j])
	}
}

// add writes each candidate's BM25 score over the best one's, plus addedWeight times its
// cosine (when above 0), into out: how a prose search adds the model to the words' score.
func add(bm, cos, out []float64) {
	best := 0.0
	for _, b := range bm {
		best = max(best, b)
	}
	for j := range out {
		out[j] = 0
		if best > 0 {
			out[j] = bm[j] / best
		}
		out[j] += addedWeight * max(0, cos[j])
	}
}

// cosines writes the cosine of the query vector q with each code vector into out: their dot
// product (both are L2-normalised), 0 when either is nil.
func cosines(q []float32, codes [][]float32, out []float64) {
	for j, c := range codes {
		out[j] = 0
		if q != nil && c != nil {
			out[j] = float64(codemodel.Dot(q, c))
		}
	}
}

// rankOf returns the rank of candidate t by scores under the tie rule (the file comment):
// 1 + the candidates scoring higher + half the others scoring the same, rounded down.
func rankOf(scores []float64, t int) int {
	higher, equal := 0, 0
	for j, s := range scores {
		switch {
		case s > scores[t]:
			higher++
		case s == scores[t] && j != t:
			equal++
		}
	}
	return 1 + higher + equal/2
}

// ranks returns the rank of every candidate by scores, each as rankOf gives it.
func ranks(scores []float64) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	out := make([]int, len(scores))
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && scores[order[hi]] == scores[order[lo]] {
			hi++
		}
		for _, j := range order[lo:hi] {
			out[j] = 1 + lo + (hi-lo-1)/2
		}
		lo = hi
	}
	return out
}

// bm25Index is a chunk's code sides as an inverted index for Okapi BM25.
type bm25Index struct {
	postings map[string][]posting
	idf      map[string]float64
	norm     []float64 // per document: k1 * (1 - b + b * length / mean length)
}

// posting is a word's count in one document.
type posting struct {
	doc int
	tf  float64
}

// newBM25Index indexes docs (each a bag of words); a word's idf is over these documents,
// log(1 + (N - df + 0.5) / (df + 0.5)), which is never negative.
func newBM25Index(docs [][]string) *bm25Index {
	idx := &bm25Index{postings: map[string][]posting{}, idf: map[string]float64{}, norm: make([]float64, len(docs))}
	total := 0
	for d, words := range docs {
		total += len(words)
		tf := map[string]int{}
		var order []string
		for _, w := range words {
			if tf[w] == 0 {
				order = append(order, w)
			}
			tf[w]++
		}
		for _, w := range order {
			idx.postings[w] = append(idx.postings[w], posting{doc: d, tf: float64(tf[w])})
		}
	}
	n := float64(len(docs))
	for w, ps := range idx.postings {
		df := float64(len(ps))
		idx.idf[w] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	avg := float64(total) / max(n, 1)
	for d, words := range docs {
		idx.norm[d] = bm25K1 * (1 - bm25B + bm25B*float64(len(words))/max(avg, 1e-9))
	}
	return idx
}

// scores writes the BM25 score of the query words against every document into out. Each
// occurrence of a query word adds its term (the query-term frequency counts linearly).
func (idx *bm25Index) scores(query []string, out []float64) {
	clear(out)
	for _, w := range query {
		idf := idx.idf[w]
		for _, p := range idx.postings[w] {
			out[p.doc] += idf * p.tf * (bm25K1 + 1) / (p.tf + idx.norm[p.doc])
		}
	}
}

// writeEvalTable prints res as a markdown table, with the settings above and the time below.
func writeEvalTable(out io.Writer, res evalResult) {
	strip := ""
	if res.StripName {
		strip = ", name's words left out of the queries"
	}
	fmt.Fprintf(out, "model %s, %s: %d pairs, %d without query or code words\n", res.Model, res.Src, res.Pairs, res.LeftOut)
	fmt.Fprintf(out, "query %s, model's code %s%s; chunks of %d (at most %d a language), seed %d\n\n",
		res.Query, strings.Join(res.Code, ","), strip, res.Chunk, maxEvalChunks, res.Seed)
	fmt.Fprintf(out, "| language | queries | chunks | %s | %s | %s | %s |\n", rankers[0], rankers[1], rankers[2], rankers[3])
	fmt.Fprintln(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	row := func(r evalRow, bold string) {
		fmt.Fprintf(out, "| %s%s%s | %d | %d | %.4f | %.4f | %.4f | %.4f |\n", bold, r.Lang, bold, r.Queries, r.Chunks, r.BM25, r.Model, r.Fused, r.Added)
	}
	for _, r := range res.Languages {
		row(r, "")
	}
	row(res.MeanOfLanguages, "**")
	row(res.AllQueries, "**")
	fmt.Fprintf(out, "\nextraction %.1f s, ranking %.1f s\n", res.ExtractSeconds, res.RankSeconds)
}
