package tools

import (
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/scoring"
)

// TestGuardLex: fused with a vector line, a lex: line's first three results never fall below
// their place in it; what the vector line lifts above them stays above the rest; scores
// never rise down the list.
func TestGuardLex(t *testing.T) {
	keys := func(fs []scoring.Fused) []string {
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
		var fused []scoring.Fused
		for i, k := range c.fused {
			fused = append(fused, scoring.Fused{Key: k, Score: float64(len(c.fused) - i)})
		}
		got := guardLex(fused, [][]string{c.lex, c.fused}, []int{0})
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
