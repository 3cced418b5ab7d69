package main

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"strings"
)

// Data settings.
const (
	// valShare is one in how many groups (packages) is held out for validation.
	valShare = 10
	// maxQueryTokens and maxCodeTokens cut an example's bags.
	maxQueryTokens = 48
	maxCodeTokens  = 160
	// minIDF is the least pooling weight a word starts with.
	minIDF = 0.1
)

// example is a pair as word ids: the query bag and the code bag.
type example struct {
	q, c []int32
	lang string
	// alt are the query bags training draws from (-query mix: the first sentence and the
	// whole comment, each with and without the name's words); none: q alone.
	alt [][]int32
	// group is the pair's package (-batches package).
	group string
}

// dataset is the pairs of a run as examples over one vocabulary.
type dataset struct {
	vocab      []string // sorted
	train, val []example
	idfQ, idfC []float32 // per word, over the training examples of each side
}

// dataOptions say which fields of a pair make each side, and the vocabulary's bounds.
type dataOptions struct {
	query    string   // "first" or "doc"
	code     []string // of "name", "sig", "body"
	minCount int
	maxVocab int
	// stripName leaves the name's words out of the query side.
	stripName bool
	// share is the share of the training packages trained on (0 or 1: all), for a
	// learning curve; the validation packages are the same whatever it is.
	share float64
}

// inShare reports whether a training pair's group is among the share of packages kept: by
// a hash of the group other than isVal's, so the packages of a smaller share are among those
// of a larger one.
func inShare(group string, share float64) bool {
	if share <= 0 || share >= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte("share\x00" + group))
	return float64(h.Sum32()%10000) < share*10000
}

// isVal reports whether a pair's group is held out for validation.
func isVal(group string) bool {
	h := fnv.New32a()
	h.Write([]byte(group))
	return h.Sum32()%valShare == 0
}

// sides returns the query and code words of p.
func sides(p Pair, o dataOptions) (q, c []string) {
	q = strings.Fields(p.First)
	if o.query == "doc" || o.query == "mix" {
		q = strings.Fields(p.Doc)
	}
	if o.stripName {
		name := strings.Fields(p.Words)
		q = slices.DeleteFunc(slices.Clone(q), func(w string) bool { return slices.Contains(name, w) })
	}
	for _, f := range o.code {
		switch f {
		case "name":
			c = append(c, strings.Fields(p.Words)...)
		case "sig":
			c = append(c, strings.Fields(p.Sig)...)
		case "body":
			c = append(c, strings.Fields(p.Body)...)
		}
	}
	return q[:min(len(q), maxQueryTokens)], c[:min(len(c), maxCodeTokens)]
}

// buildDataset splits pairs by group, builds the vocabulary from the training split (words
// seen at least minCount times over both sides, the maxVocab commonest) and turns the pairs
// into examples; a pair left with an empty side is dropped.
func buildDataset(pairs []Pair, o dataOptions) *dataset {
	counts := map[string]int{}
	for _, p := range pairs {
		if isVal(p.Group) || !inShare(p.Group, o.share) {
			continue
		}
		q, c := sides(p, o)
		for _, w := range q {
			counts[w]++
		}
		for _, w := range c {
			counts[w]++
		}
	}
	var common []string
	for w, n := range counts {
		if n >= o.minCount {
			common = append(common, w)
		}
	}
	slices.SortFunc(common, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	common = common[:min(len(common), o.maxVocab)]
	slices.Sort(common)
	d := &dataset{vocab: common}
	ids := make(map[string]int32, len(common))
	for i, w := range common {
		ids[w] = int32(i)
	}
	toIDs := func(ws []string) []int32 {
		var out []int32
		for _, w := range ws {
			if id, ok := ids[w]; ok {
				out = append(out, id)
			}
		}
		return out
	}
	for _, p := range pairs {
		if !isVal(p.Group) && !inShare(p.Group, o.share) {
			continue
		}
		q, c := sides(p, o)
		e := example{q: toIDs(q), c: toIDs(c), lang: p.Lang, group: p.Group}
		if len(e.q) == 0 || len(e.c) == 0 {
			continue
		}
		if o.query == "mix" {
			for _, v := range queryVariants(p) {
				if ids := toIDs(v); len(ids) > 0 {
					e.alt = append(e.alt, ids)
				}
			}
		}
		if isVal(p.Group) {
			d.val = append(d.val, e)
		} else {
			d.train = append(d.train, e)
		}
	}
	d.idfQ = idf(d.train, len(common), func(e example) []int32 { return e.q })
	d.idfC = idf(d.train, len(common), func(e example) []int32 { return e.c })
	return d
}

// idf returns each word's inverse document frequency over one side of the examples, at
// least minIDF.
func idf(examples []example, n int, side func(example) []int32) []float32 {
	df := make([]int, n)
	mark := make([]int, n)
	for i, e := range examples {
		for _, t := range side(e) {
			if mark[t] != i+1 {
				mark[t] = i + 1
				df[t]++
			}
		}
	}
	out := make([]float32, n)
	for t := range out {
		out[t] = float32(max(minIDF, math.Log(float64(len(examples)+1)/float64(df[t]+1))))
	}
	return out
}

// queryVariants returns the query sides -query mix trains on: the first sentence and the
// whole doc comment, each with and without the name's words.
func queryVariants(p Pair) [][]string {
	var out [][]string
	for _, q := range []string{"first", "doc"} {
		for _, strip := range []bool{false, true} {
			v, _ := sides(p, dataOptions{query: q, stripName: strip})
			out = append(out, v)
		}
	}
	return out
}
