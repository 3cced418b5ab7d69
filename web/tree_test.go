package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The callers tree indents each level clearly: a node carries the class of its depth, and
// the style sheet puts every depth 1.25em further in than the one above, with a guide line
// per level, where the levels used to be two spaces apart.
func TestCallsTreeIndentsLevels(t *testing.T) {
	srv, _ := fixture(t)
	_, page := do(t, "GET", srv.URL+"/calls?symbol=adapt&direction=callers&depth=3", "", nil)
	_, css := do(t, "GET", srv.URL+"/static/style.css", "", nil)
	nodes := regexp.MustCompile(`<li class="node depth-(\d+)" data-depth="(\d+)">`).FindAllStringSubmatch(page, -1)
	if len(nodes) < 3 || strings.Count(page, `<li class="node`) != len(nodes) {
		t.Fatalf("the callers tree has %d nodes with a depth class, of %d:\n%.3000s", len(nodes), strings.Count(page, `<li class="node`), page)
	}
	depths := map[string]bool{}
	for _, n := range nodes {
		if n[1] != n[2] {
			t.Errorf("node of depth %s has the class depth-%s", n[2], n[1])
		}
		depths[n[1]] = true
	}
	if !depths["3"] {
		t.Errorf("the tree of depth 3 has no node at depth 3: depths %v", depths)
	}
	if strings.Contains(page, "\u00a0\u00a0") {
		t.Errorf("the tree is still indented with spaces")
	}
	for d := range depths {
		if rule := fmt.Sprintf(".tree .depth-%s { --depth: %s; }", d, d); d != "0" && !strings.Contains(css, rule) {
			t.Errorf("the style sheet lacks %q", rule)
		}
	}
	node := regexp.MustCompile(`\.tree \.node \{[^}]*\}`).FindString(css)
	for _, want := range []string{"padding: 1px 0 1px calc(var(--depth) * 1.25em", "repeating-linear-gradient(to right, var(--line) 0 1px, transparent 1px 1.25em)", "/ calc(var(--depth) * 1.25em) 100%"} {
		if !strings.Contains(node, want) {
			t.Errorf("the style of a tree node %q lacks %q", node, want)
		}
	}
}
