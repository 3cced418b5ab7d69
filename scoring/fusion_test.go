package scoring

import (
	"math"
	"testing"
)

// TestFuseRRF: scores are the weighted reciprocal ranks plus the top-rank bonus; the first
// list weighs double; a key found by two lists beats one found high by one.
func TestFuseRRF(t *testing.T) {
	got := FuseRRF([][]string{{"a", "b", "c", "d"}, {"d", "c", "e"}})
	score := map[string]float64{}
	for _, f := range got {
		score[f.Key] = f.Score
	}
	want := map[string]float64{
		"a": 2.0/61 + TopRankBonus,
		"b": 2.0/62 + TopThreeBonus,
		"c": 2.0/63 + 1.0/62 + TopThreeBonus,
		"d": 2.0/64 + 1.0/61 + TopRankBonus,
		"e": 1.0/63 + TopThreeBonus,
	}
	for k, w := range want {
		if math.Abs(score[k]-w) > 1e-12 {
			t.Errorf("score %s = %v, want %v", k, score[k], w)
		}
	}
	order := ""
	for _, f := range got {
		order += f.Key
	}
	if order != "dacbe" {
		t.Errorf("order %s, want dacbe", order)
	}
	if len(got[0].Parts) != 2 || got[0].Parts[0] != (RankPart{List: 0, Rank: 4, Contribution: 2.0 / 64}) {
		t.Errorf("d's parts: %+v", got[0].Parts)
	}
	// One list: no double weight; a repeated key counts at its first place.
	one := FuseRRF([][]string{{"x", "y", "x"}})
	if len(one) != 2 || math.Abs(one[0].Score-(1.0/61+TopRankBonus)) > 1e-12 || one[1].Key != "y" {
		t.Errorf("one list: %+v", one)
	}
}
