package batchrun

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

// batchLookups are five typical lookups of an agent on bench/corpus.sh full: each
// as a separate MCP call (tool, arguments) and as a statement of one batch.
var batchLookups = []struct{ tool, args, statement string }{
	{"fast_search", `{"query":"ServeHTTP","kind":["method"]}`, `search(q="ServeHTTP", kind=method) { name path line }`},
	{"fast_goto", `{"symbol":"NewRequest"}`, `goto(NewRequest) { brief }`},
	{"fast_refs", `{"symbol":"HandlerFunc","kind":["call"],"limit":5}`, `refs(symbol=HandlerFunc, kind=call, take=5) { path line }`},
	{"deep_dive", `{"symbol":"go/net/http/server.go:2964"}`, `explain(symbol=go/net/http/server.go:2964) { name kind path line signature doc_comment }`},
	{"fast_search", `{"query":"\"connection refused\"","target":"content"}`, `search(q="\"connection refused\"", target=content) { path line text }`},
}

// TestBatchSavings measures what one batch saves an agent against five separate MCP calls
// on the corpus at QUARRY_CORPUS: the bytes of the answers' text (and with the structured
// content a call also carries), and the wall time, warm, medians of runs alternated.
func TestBatchSavings(t *testing.T) {
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		t.Skip("QUARRY_CORPUS is not set: point it at an indexed bench/corpus.sh full")
	}
	s, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	s.Keep = time.Hour
	defer s.Close()
	ctx := context.Background()
	var text string
	for i, l := range batchLookups {
		if i > 0 {
			text += "; "
		}
		text += l.statement
	}
	separate := func() (textBytes, structBytes int) {
		for _, l := range batchLookups {
			res, err := s.Call(ctx, l.tool, json.RawMessage(l.args))
			if err != nil {
				t.Fatalf("%s %s: %v", l.tool, l.args, err)
			}
			r, err := qtext.Render(res)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res)
			textBytes += len(r)
			structBytes += len(b)
		}
		return
	}
	batched := func(format string) int {
		ans, err := Run(ctx, s, tools.BatchRequest{Batch: text, Format: format})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ans.Entries {
			if e.Err != nil {
				t.Fatalf("%s: %v", e.Statement, e.Err)
			}
		}
		return len(ans.Text())
	}
	textBytes, structBytes := separate()
	compact, asJSON := batched(tools.BatchCompact), batched(tools.BatchJSON)
	t.Logf("5 lookups: separate MCP calls %d bytes of text (%d tokens at 4 bytes), %d with their structured content (%d tokens); one batch %d bytes compact (%d tokens, %.1fx fewer than the calls' text), %d as json",
		textBytes, textBytes/4, textBytes+structBytes, (textBytes+structBytes)/4, compact, compact/4, float64(textBytes)/float64(compact), asJSON)
	const runs = 21
	var sep, bat []time.Duration
	for range runs {
		start := time.Now()
		separate()
		sep = append(sep, time.Since(start))
		start = time.Now()
		batched(tools.BatchCompact)
		bat = append(bat, time.Since(start))
	}
	slices.Sort(sep)
	slices.Sort(bat)
	t.Logf("wall time, warm, median of %d alternated runs: 5 calls in sequence %v, one batch %v (%.2fx)", runs, sep[runs/2], bat[runs/2], float64(sep[runs/2])/float64(bat[runs/2]))
}
