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
