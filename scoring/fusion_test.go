package scoring

import (
	"math"
	"slices"
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

// TestGuardLex: fused with a vector line, a lex: line's first three results never fall below
// their place in it; what the vector line lifts above them stays above the rest; scores
// never rise down the list.
func TestGuardLex(t *testing.T) {
	keys := func(fs []Fused) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Key)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		lex   []string
		fused []string // best first
		want  []string
	}{
		{"vector pushes the lex first down", []string{"a", "b", "c", "d"}, []string{"x", "y", "a", "b", "c"}, []string{"a", "b", "c", "x", "y"}},
		{"vector lifts one past the second", []string{"a", "b", "c"}, []string{"a", "x", "b", "c"}, []string{"a", "b", "c", "x"}},
		{"the lex order kept below the top three", []string{"a", "b", "c", "d"}, []string{"a", "b", "x", "c", "d"}, []string{"a", "b", "c", "x", "d"}},
		{"lifted within the top three", []string{"a", "b", "c"}, []string{"b", "a", "c"}, []string{"a", "b", "c"}},
		{"nothing lowered", []string{"a", "b", "c"}, []string{"a", "b", "c", "x"}, []string{"a", "b", "c", "x"}},
		{"a vector hit may pass the fourth", []string{"a", "b", "c", "d"}, []string{"a", "b", "c", "x", "d"}, []string{"a", "b", "c", "x", "d"}},
	} {
		var fused []Fused
		for i, k := range c.fused {
			fused = append(fused, Fused{Key: k, Score: float64(len(c.fused) - i)})
		}
		got := GuardLex(fused, [][]string{c.lex, c.fused}, []int{0})
		if !slices.Equal(keys(got), c.want) {
			t.Errorf("%s: %v, want %v", c.name, keys(got), c.want)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Score > got[i-1].Score {
				t.Errorf("%s: score rises at %d: %v", c.name, i, got)
			}
		}
	}
}
