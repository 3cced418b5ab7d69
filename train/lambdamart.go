package main

// LambdaMART (Burges, "From RankNet to LambdaRank to LambdaMART", 2010): gradient-boosted
// regression trees whose gradients are LambdaRank's. A question has one answer, so its
// pairs are (answer, other candidate); a pair's lambda is RankNet's logistic gradient
// scaled by how much swapping the two would change the NDCG (1/log2(1 + place)). Each tree
// is grown leaf by leaf (the split of best gain first) over features cut into quantile bins,
// its leaves' values the Newton step sum(lambda) / sum(weight). Deterministic: no sampling.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/quarrysearch/quarry/scoring"
)

type fitTreesOptions struct {
	trees, leaves, minLeaf int
	rate                   float64
	// base is the weight of the search's order (the feature "order": 1 / place) under the
	// trees: they learn what to change of it, and small data cannot take them far from it.
	base float64
}

// treeBins is how many quantile bins a feature is cut into.
const treeBins = 64

// binned is the training candidates' features as bin numbers, with each bin's upper
// threshold per feature.
type binned struct {
	rows       int
	features   int
	bins       []uint8     // rows x features
	thresholds [][]float64 // per feature: bin b holds values <= thresholds[b] (the last: +Inf)
}

// binFeatures cuts each feature of rows into at most treeBins quantile bins.
func binFeatures(rows [][]float64, nf int) *binned {
	b := &binned{rows: len(rows), features: nf, bins: make([]uint8, len(rows)*nf), thresholds: make([][]float64, nf)}
	vals := make([]float64, len(rows))
	for f := range nf {
		for i, r := range rows {
			vals[i] = r[f]
		}
		sorted := slices.Clone(vals)
		slices.Sort(sorted)
		sorted = slices.Compact(sorted)
		var th []float64
		if len(sorted) <= treeBins {
			th = sorted[:len(sorted)-1]
		} else {
			for k := 1; k < treeBins; k++ {
				v := sorted[k*len(sorted)/treeBins]
				if len(th) == 0 || v > th[len(th)-1] {
					th = append(th, v)
				}
			}
		}
		// A threshold halfway to the next value: a value seen at serving between two seen in
		// training goes the way of the nearer.
		for k, v := range th {
			next := sorted[sort.SearchFloat64s(sorted, v)+1]
			th[k] = v + (next-v)/2
		}
		th = append(th, math.Inf(1))
		b.thresholds[f] = th
		for i, v := range vals {
			b.bins[i*nf+f] = uint8(sort.SearchFloat64s(th, v))
		}
	}
	return b
}

// fitTrees fits a reranker on train's groups, keeping the number of trees that gives val's
// written questions (or all of val when it has none) their best MRR@10; it returns the
// reranker and a line per 25 trees of the curve.
func fitTrees(train, val []rerankGroup, o fitTreesOptions) (*scoring.Reranker, string) {
	var rows [][]float64
	var starts []int
	var useful []rerankGroup
	for _, g := range train {
		if g.target < 0 || len(g.x) < 2 {
			continue // no answer among the candidates: nothing to learn
		}
		useful = append(useful, g)
		starts = append(starts, len(rows))
		rows = append(rows, g.x...)
	}
	starts = append(starts, len(rows))
	nf := len(scoring.RerankFeatures)
	r := &scoring.Reranker{}
	var curve strings.Builder
	if len(rows) == 0 {
		return r, "no training question has its answer among the candidates\n"
	}
	if o.base != 0 {
		r.Base = make([]float64, nf)
		r.Base[slices.Index(scoring.RerankFeatures, "order")] = o.base
	}
	b := binFeatures(rows, nf)
	scores := make([]float64, len(rows))
	for i, x := range rows {
		scores[i] = r.Score(x)
	}
	grad := make([]float64, len(rows))
	hess := make([]float64, len(rows))
	valScores := make([][]float64, len(val))
	for i, g := range val {
		valScores[i] = make([]float64, len(g.x))
		for j, x := range g.x {
			valScores[i][j] = r.Score(x)
		}
	}
	pick := val
	if slices.ContainsFunc(val, func(g rerankGroup) bool { return g.q.source == "written" }) {
		pick = nil
		for _, g := range val {
			if g.q.source == "written" {
				pick = append(pick, g)
			}
		}
	}
	valMRR := func() (float64, float64) {
		var all, picked, n, np float64
		for i, g := range val {
			p := placeOf(g.target, valScores[i])
			all += mrrAt10(p)
			n++
			if len(pick) == len(val) || g.q.source == "written" {
				picked += mrrAt10(p)
				np++
			}
		}
		return all / max(n, 1), picked / max(np, 1)
	}
	_, bestMRR := valMRR()
	bestTrees := 0
	fmt.Fprintf(&curve, "trees 0: validation MRR@10 (all, picked) %.4f, %.4f\n", func() float64 { a, _ := valMRR(); return a }(), bestMRR)
	for t := range o.trees {
		clear(grad)
		clear(hess)
		for gi, g := range useful {
			lambdas(scores[starts[gi]:starts[gi+1]], g.target, g.weight, grad[starts[gi]:starts[gi+1]], hess[starts[gi]:starts[gi+1]])
		}
		tree := growTree(b, grad, hess, o)
		for i := range tree.Value {
			tree.Value[i] *= o.rate
		}
		r.Trees = append(r.Trees, tree)
		for i, x := range rows {
			scores[i] += tree.Eval(x)
		}
		for i, g := range val {
			for j, x := range g.x {
				valScores[i][j] += tree.Eval(x)
			}
		}
		all, picked := valMRR()
		if picked > bestMRR+1e-9 {
			bestMRR, bestTrees = picked, t+1
		}
		if (t+1)%25 == 0 || t+1 == o.trees {
			fmt.Fprintf(&curve, "trees %d: validation MRR@10 (all, picked) %.4f, %.4f\n", t+1, all, picked)
		}
	}
	r.Trees = r.Trees[:bestTrees]
	fmt.Fprintf(&curve, "kept %d trees (validation MRR@10 of the picked questions %.4f)\n", bestTrees, bestMRR)
	return r, curve.String()
}

// placeOf is the 0-based place of the target among scores (ties: the earlier first), -1
// without a target.
func placeOf(target int, scores []float64) int {
	if target < 0 {
		return -1
	}
	p := 0
	for i, s := range scores {
		if i != target && (s > scores[target] || s == scores[target] && i < target) {
			p++
		}
	}
	return p
}

// lambdas adds a group's LambdaRank gradients (towards a higher score) and second
// derivatives, the answer at target, weighed by w.
func lambdas(scores []float64, target int, w float64, grad, hess []float64) {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	place := make([]int, len(scores))
	for p, i := range order {
		place[i] = p + 1
	}
	gain := func(p int) float64 { return 1 / math.Log2(1+float64(p)) }
	gt := gain(place[target])
	for j := range scores {
		if j == target {
			continue
		}
		delta := math.Abs(gt - gain(place[j]))
		rho := 1 / (1 + math.Exp(scores[target]-scores[j]))
		l := w * rho * delta
		h := w * rho * (1 - rho) * delta
		grad[target] += l
		grad[j] -= l
		hess[target] += h
		hess[j] += h
	}
}

// node is a tree node being grown: its candidates, sums and best split.
type node struct {
	rows      []int32
	g, h      float64
	at        int // its place in the tree's arrays
	gain      float64
	feature   int
	bin       int
	splitDone bool
}

// growTree grows a tree leaf by leaf to o.leaves leaves on the gradients.
func growTree(b *binned, grad, hess []float64, o fitTreesOptions) scoring.Tree {
	const l2 = 1.0
	all := make([]int32, b.rows)
	var g, h float64
	for i := range all {
		all[i] = int32(i)
		g += grad[i]
		h += hess[i]
	}
	var t scoring.Tree
	newNode := func(rows []int32, g, h float64) *node {
		n := &node{rows: rows, g: g, h: h, at: len(t.Feature)}
		t.Feature = append(t.Feature, -1)
		t.Threshold = append(t.Threshold, 0)
		t.Left = append(t.Left, 0)
		t.Right = append(t.Right, 0)
		t.Value = append(t.Value, g/(h+l2))
		bestSplit(b, grad, hess, n, o.minLeaf, l2)
		return n
	}
	leaves := []*node{newNode(all, g, h)}
	for len(leaves) < o.leaves {
		best := -1
		for i, n := range leaves {
			if n.gain > 1e-12 && (best < 0 || n.gain > leaves[best].gain) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		n := leaves[best]
		var left, right []int32
		var lg, lh float64
		for _, r := range n.rows {
			if int(b.bins[int(r)*b.features+n.feature]) <= n.bin {
				left = append(left, r)
				lg += grad[r]
				lh += hess[r]
			} else {
				right = append(right, r)
			}
		}
		t.Feature[n.at], t.Threshold[n.at] = n.feature, b.thresholds[n.feature][n.bin]
		ln := newNode(left, lg, lh)
		rn := newNode(right, n.g-lg, n.h-lh)
		t.Left[n.at], t.Right[n.at] = ln.at, rn.at
		t.Value[n.at] = 0
		leaves[best] = ln
		leaves = append(leaves, rn)
	}
	return t
}

// bestSplit finds n's split of best gain (n.gain 0: none with minLeaf candidates a side).
func bestSplit(b *binned, grad, hess []float64, n *node, minLeaf int, l2 float64) {
	if len(n.rows) < 2*minLeaf {
		return
	}
	var hg, hh [treeBins]float64
	var hc [treeBins]int
	parent := n.g * n.g / (n.h + l2)
	for f := range b.features {
		clear(hg[:])
		clear(hh[:])
		clear(hc[:])
		for _, r := range n.rows {
			k := b.bins[int(r)*b.features+f]
			hg[k] += grad[r]
			hh[k] += hess[r]
			hc[k]++
		}
		var lg, lh float64
		lc := 0
		for k := 0; k < len(b.thresholds[f])-1; k++ {
			lg, lh, lc = lg+hg[k], lh+hh[k], lc+hc[k]
			rc := len(n.rows) - lc
			if lc < minLeaf || rc < minLeaf {
				continue
			}
			rg, rh := n.g-lg, n.h-lh
			gain := lg*lg/(lh+l2) + rg*rg/(rh+l2) - parent
			if gain > n.gain {
				n.gain, n.feature, n.bin = gain, f, k
			}
		}
	}
}
