package main

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/quarrysearch/quarry/scoring"
	"github.com/quarrysearch/quarry/tokenizer"
)

// syntheticGroups makes n questions of 40 candidates each whose answer is the candidate
// with the highest cosine among those whose coverage is over 0.5, the search's order (their
// place) being random: a rule no single feature's order gives.
func syntheticGroups(n int, seed uint64) []rerankGroup {
	rng := rand.New(rand.NewPCG(seed, 7))
	nf := len(scoring.RerankFeatures)
	var out []rerankGroup
	for q := range n {
		g := rerankGroup{target: -1, weight: 1, q: rerankQuery{ID: "q", source: "doc"}}
		g.q.ID = string(rune('a'+q%26)) + string(rune('a'+q/26%26))
		best := -1.0
		for i := range 40 {
			x := make([]float64, nf)
			for f := range x {
				x[f] = rng.Float64()
			}
			g.x = append(g.x, x)
			if x[0] > 0.5 && x[10] > best {
				best, g.target = x[10], i
			}
		}
		out = append(out, g)
	}
	return out
}

// TestFitTreesLearnsARule: LambdaMART finds the rule of syntheticGroups from 300 questions
// (the search's random order puts its answer first one time in 40), validated on 100
// others, and two fits give the same trees.
func TestFitTreesLearnsARule(t *testing.T) {
	train, val := syntheticGroups(300, 1), syntheticGroups(100, 2)
	o := fitTreesOptions{trees: 60, leaves: 8, minLeaf: 20, rate: 0.2}
	r, curve := fitTrees(train, val, o)
	before, after := groupMRR(val, r)
	t.Logf("validation MRR@10 %.3f -> %.3f with %d trees\n%s", before, after, len(r.Trees), curve)
	if before > 0.3 || after < 0.8 {
		t.Errorf("validation MRR@10 %.3f -> %.3f: want a random order under 0.3 and the rule learnt over 0.8", before, after)
	}
	r2, _ := fitTrees(train, val, o)
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(r2)
	if string(a) != string(b) {
		t.Error("two fits of the same data differ")
	}
	r.Features = scoring.RerankFeatures
	if _, err := scoring.DecodeReranker(a); err == nil && len(r.Trees) == 0 {
		t.Error("no tree kept")
	}
}

// TestDocQuestion: a doc comment's first sentence without the name's words, code spans,
// inner-capital names and digits, at most eight words; too few words make none.
func TestDocQuestion(t *testing.T) {
	tk := tokenizer.New(nil)
	for _, c := range []struct{ name, doc, want string }{
		{"ParseDuration", "ParseDuration parses a duration string such as `300ms` into a Duration value. More text.", "string such as into value"},
		{"load_host_keys", "Load host keys from a system (read-only) file and remember them for later.", "from system read only file and remember them"},
		{"close", "Close it.", ""},
		{"retry", "Retries the HTTPRequest after a timeout of 30 seconds or when the server resets the connection", "retries the after timeout of seconds or when"},
	} {
		got, ok := docQuestion(tk, c.name, c.doc)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("%s %q: %q %v, want %q", c.name, c.doc, got, ok, c.want)
		}
	}
}

// TestRemoveWords: a doc comment's first sentence is taken out of the comment nearest its
// definition (above it, or a docstring below), the rest of the comment and the line count
// kept; a sentence not found there changes nothing.
func TestRemoveWords(t *testing.T) {
	src := []string{
		"// Parse reads a config.",
		"// Other words stay.",
		"func Parse() {}",
		"",
		"def load(path):",
		`    """Load the settings from path.`,
		"",
		`    More text."""`,
	}
	lines := append([]string(nil), src...)
	if !removeWords(lines, docEdit{line: 3, words: sentenceWords("Parse reads a config")}) {
		t.Fatal("the Go sentence was not found")
	}
	if !removeWords(lines, docEdit{line: 5, words: sentenceWords("Load the settings from path")}) {
		t.Fatal("the docstring sentence was not found")
	}
	want := []string{"//    .", "// Other words stay.", "func Parse() {}", "", "def load(path):", `    """    .`, "", `    More text."""`}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], want[i])
		}
	}
	again := append([]string(nil), src...)
	if removeWords(again, docEdit{line: 3, words: sentenceWords("Nothing like this here")}) {
		t.Error("a sentence not in the file was found")
	}
}
