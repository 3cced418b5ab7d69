package grams

import (
	"bytes"
	"testing"
)

// filterLiterals are the literals TestFilter measures: identifiers made of common trigrams,
// a rare one, a long one, a very common word, and literals with punctuation.
var filterLiterals = []string{"usestate", "serializer", "mergemap", "errnotexist", "newreadersize",
	"return", "func (", "err != nil", ") error {", ":= range", "b.n", "if x == nil"}

// TestFilter logs, for each of filterLiterals on the first 40 MB of Go's sources, the
// candidates against the files that hold the literal (ASCII case folded): the false
// candidates a caller reads and rejects. Run with -v to see them.
func TestFilter(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads 40 MB")
	}
	files := goCorpus(t, 40<<20)
	ix, _, _ := buildIndex(t, files)
	folded := make([][]byte, len(files))
	for i, f := range files {
		folded[i] = foldASCII(f.content)
	}
	for _, lit := range filterLiterals {
		got := ix.Candidates(Literal(lit))
		in := map[string]bool{}
		for _, d := range got {
			in[d.Path] = true
		}
		holding := 0
		for i, f := range files {
			if bytes.Contains(folded[i], foldASCII([]byte(lit))) {
				holding++
				if !in[f.path] {
					t.Errorf("%q: %s holds it but is no candidate", lit, f.path)
				}
			}
		}
		t.Logf("%-14q %5d candidates, %5d files hold it", lit, len(got), holding)
	}
}
