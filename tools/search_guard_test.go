package tools

import (
	"context"
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

// TestGuardLexExplained: a result the guard lifts says so in its explanation, whose score is
// the score it answers with.
func TestGuardLexExplained(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"a.go": "package a\n\n// RetryUpload sends the file again after a failure.\nfunc RetryUpload() {}\n\n// Backoff waits longer after each failed attempt before trying again.\nfunc Backoff() {}\n",
	})
	s := indexedService(t, root)
	res, err := s.Search(context.Background(), SearchRequest{Query: "lex: RetryUpload\nvec: wait longer after each failed attempt", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	guarded := false
	for _, h := range res.Results {
		if h.Explain == nil || h.Explain.Score != h.Score {
			t.Errorf("%s: score %g, explained %+v", h.Name, h.Score, h.Explain)
		}
		for _, p := range h.Explain.Parts {
			if p.Name == "lex_guard" {
				guarded = true
				if p.Value != h.Score {
					t.Errorf("%s: lex_guard %g, score %g", h.Name, p.Value, h.Score)
				}
			}
		}
	}
	// The lex: line's second result (RetryUpload's comment line) falls below Backoff, which
	// the vec: line ranks first, unless the guard lifts it.
	if !guarded {
		t.Errorf("no result lifted by the guard: %+v", res.Results)
	}
}
