package scoring

// Reciprocal rank fusion: several ranked lists of the same kind of result (one a query
// document's line) merged into one, each result scored by the lists it is in and how high.

import "sort"

// Fusion weights, after the hybrid query syntax: a list's result at rank r (from 1) adds
// weight/(RRFK+r); the first list weighs FirstListWeight; a result that is first in any
// list gets TopRankBonus, one second or third at best TopThreeBonus.
const (
	RRFK            = 60
	FirstListWeight = 2.0
	TopRankBonus    = 0.05
	TopThreeBonus   = 0.02
)

// RankPart is what one list gave a fused result.
type RankPart struct {
	List         int     // the list's place among those fused, from 0
	Rank         int     // the result's rank in it, from 1
	Contribution float64 // weight/(RRFK+Rank)
}

// Fused is one result of a fusion: its key, the fused score and what made it.
type Fused struct {
	Key   string
	Score float64
	Bonus float64 // the top-rank bonus included in Score
	Parts []RankPart
}

// FuseRRF fuses ranked lists of keys (best first; a key repeated in a list counts at its
// first place) by reciprocal rank fusion, the first list weighted FirstListWeight: the
// fused results, best first (ties: the better best rank, then the key).
func FuseRRF(lists [][]string) []Fused {
	at := map[string]int{}
	var out []Fused
	best := map[string]int{}
	for li, list := range lists {
		w := 1.0
		if li == 0 && len(lists) > 1 {
			w = FirstListWeight
		}
		seen := map[string]bool{}
		rank := 0
		for _, key := range list {
			if seen[key] {
				continue
			}
			seen[key] = true
			rank++
			i, ok := at[key]
			if !ok {
				i = len(out)
				at[key] = i
				out = append(out, Fused{Key: key})
				best[key] = rank
			}
			c := w / float64(RRFK+rank)
			out[i].Score += c
			out[i].Parts = append(out[i].Parts, RankPart{List: li, Rank: rank, Contribution: c})
			best[key] = min(best[key], rank)
		}
	}
	for i := range out {
		switch b := best[out[i].Key]; {
		case b == 1:
			out[i].Bonus = TopRankBonus
		case b <= 3:
			out[i].Bonus = TopThreeBonus
		}
		out[i].Score += out[i].Bonus
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		if best[out[a].Key] != best[out[b].Key] {
			return best[out[a].Key] < best[out[b].Key]
		}
		return out[a].Key < out[b].Key
	})
	return out
}

// LexGuardDepth is how many of a lex: line's first results a fused vector line never pushes
// below their place in it.
const LexGuardDepth = 3

// GuardLex keeps each of the first LexGuardDepth results of every lex list (lists[i], i in
// lex) at or above its place in that list, in fused (best first): a vec: or hyde: line adds
// what the words missed and may lift it past them, but never pushes down what the words
// found first (issue 42: on the quality suite's dev descriptions a vec: line lowered a top-3
// lex: hit for some questions). A result moved up takes the score of the one below it, so
// scores still never rise down the list.
func GuardLex(fused []Fused, lists [][]string, lex []int) []Fused {
	want := map[string]int{} // key -> the highest place (from 1) it must hold
	for _, li := range lex {
		for r, key := range lists[li][:min(LexGuardDepth, len(lists[li]))] {
			if w, ok := want[key]; !ok || r+1 < w {
				want[key] = r + 1
			}
		}
	}
	if len(want) == 0 {
		return fused
	}
	out := make([]Fused, 0, len(fused))
	placed := make([]bool, len(fused))
	next := 0 // the first result not placed, in fused order
	for len(out) < len(fused) {
		pos := len(out) + 1
		pick := -1
		for i, f := range fused {
			if w, ok := want[f.Key]; ok && !placed[i] && w <= pos && (pick < 0 || w < want[fused[pick].Key]) {
				pick = i
			}
		}
		if pick < 0 {
			for placed[next] {
				next++
			}
			pick = next
		}
		placed[pick] = true
		out = append(out, fused[pick])
	}
	for i := len(out) - 2; i >= 0; i-- {
		out[i].Score = max(out[i].Score, out[i+1].Score)
	}
	return out
}
