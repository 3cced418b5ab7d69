package tools

import (
	"context"
	"testing"

	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// TestGuardLexExplained: a result the guard lifts says so in its explanation, whose score is
// the score it answers with.
func TestGuardLexExplained(t *testing.T) {
	root := t.TempDir()
	testkit.WriteFiles(t, root, map[string]string{
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
