package text

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// TestCutAnswersSaySo: goto counts the definitions it found (total) beside those it lists,
// refs and callers count the uses they left unresolved, and the compact text an agent
// reads says what was cut and which field shows the rest.
func TestCutAnswersSaySo(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"app.go": "package main\n\nimport \"container/list\"\n\n// Next advances.\nfunc Next() {}\n\nfunc a() { Next() }\n\nfunc b() { Next() }\n\n" +
			"func c(l *list.Element) { l.Next() }\n\nfunc d(l *list.Element) { l.Next(); l.Next() }\n",
	}
	for i := 1; i <= 12; i++ {
		files[fmt.Sprintf("t%d.go", i)] = fmt.Sprintf("package main\n\n// T%d renders.\ntype T%d struct{}\n\n// Render writes.\nfunc (t T%d) Render() {}\n", i, i, i)
	}
	testkit.WriteFiles(t, root, files)
	s := indexedService(t, root)
	ctx := context.Background()
	text := func(r any) string {
		s, err := Render(r)
		if err != nil {
			t.Fatal(err)
		}
		return s[strings.LastIndexByte(s, '\n')+1:] // the last line: the count
	}

	g, err := s.Goto(ctx, tools.GotoRequest{Symbol: "Render"})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Results) != tools.DefaultLimit || g.Total != 12 || !g.Truncated {
		t.Errorf("goto Render: %d results, total %d, truncated %v; want %d, 12, true", len(g.Results), g.Total, g.Truncated, tools.DefaultLimit)
	}
	if got, want := text(g), "10 of 12 definitions of Render (truncated: limit; more: limit 12)"; got != want {
		t.Errorf("goto Render text ends %q, want %q", got, want)
	}

	r, err := s.Refs(ctx, tools.RefsRequest{Symbol: "Next"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 2 || r.Unresolved != 3 {
		t.Errorf("refs Next: total %d, unresolved %d; want 2 and 3", r.Total, r.Unresolved)
	}
	if got, want := text(r), "2 of 2 uses of Next; 3 more uses left unresolved (unresolved: true lists them)"; got != want {
		t.Errorf("refs Next text ends %q, want %q", got, want)
	}
	// Listed, the unresolved uses are still counted (a use without a resolution is one of them).
	if r, err = s.Refs(ctx, tools.RefsRequest{Symbol: "Next", Unresolved: true}); err != nil || r.Total != 5 || r.Unresolved != 3 || !r.UnresolvedListed {
		t.Errorf("refs Next unresolved: total %d, unresolved %d, listed %v, %v; want 5, 3, true", r.Total, r.Unresolved, r.UnresolvedListed, err)
	} else if got, want := text(r), "5 of 5 uses of Next; 3 uses unresolved (after the resolved ones)"; got != want {
		t.Errorf("refs Next unresolved text ends %q, want %q", got, want)
	}
	if r, err = s.Refs(ctx, tools.RefsRequest{Symbol: "Next", Kind: []string{"type_usage"}}); err != nil || r.Unresolved != 0 {
		t.Errorf("refs Next kind type_usage: unresolved %d, %v; want 0 (the unresolved uses are calls)", r.Unresolved, err)
	}

	c, err := s.Calls(ctx, tools.CallsRequest{Symbol: "Next", Direction: tools.CallsCallers})
	if err != nil {
		t.Fatal(err)
	}
	if c.Count != 2 || c.Unresolved != 3 {
		t.Errorf("callers Next: %d callers, unresolved %d; want 2 and 3", c.Count, c.Unresolved)
	}
	if got, want := text(c), "2 callers of Next, depth 1; 3 more calls of Next left unresolved (refs with unresolved lists them)"; got != want {
		t.Errorf("callers Next text ends %q, want %q", got, want)
	}

	limit := 3
	sr, err := s.Search(ctx, tools.SearchRequest{Query: "Render", Target: "definitions", Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := text(sr), "3 results (truncated: limit; more: limit 6)"; got != want {
		t.Errorf("search Render limit 3 text ends %q, want %q", got, want)
	}
}
