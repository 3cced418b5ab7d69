package resolve

import (
	"slices"
	"testing"
)

// TestLiteralHeads: the function literals a line starts, and what only looks like one.
func TestLiteralHeads(t *testing.T) {
	cases := []struct {
		lang, line string
		want       []string // each head's parameters, and block or expr
	}{
		{"go", "\tr.Use(func(c *Context) { c.Next() })", []string{"c *Context block"}},
		{"go", "\th := func(a, b int) (int, error) {", []string{"a, b int block"}},
		{"go", "\tf := func(v any) interface{} {", []string{"v any block"}},
		{"go", "\tvar f func(c *Context)", nil},
		{"go", "func Use(h func(c *Context)) {", nil},
		{"go", "func (c *Context) Next() {", nil},
		{"go", "\tfs := []func(c *Context){a, b}", nil},
		{"typescript", "  use((c: Context) => c.next());", []string{"c: Context expr"}},
		{"typescript", "  use(async (c: Context): Promise<void> => {", []string{"c: Context block"}},
		{"typescript", "  arr.map(function (x: Item) {", []string{"x: Item block"}},
		{"typescript", "  const v = ok ? (a) : b;", nil},
		{"typescript", "  if (ready) {", nil},
		{"java", "        use((Context c) -> c.next());", []string{"Context c expr"}},
		{"java", "        if (c != null) {", nil},
		{"csharp", "        Use((Context c) => { c.Next(); });", []string{"Context c block"}},
	}
	for _, c := range cases {
		var got []string
		for _, h := range LiteralHeads(c.line, c.lang) {
			kind := "expr"
			if h.Block {
				kind = "block"
			}
			got = append(got, h.Params+" "+kind)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("literalHeads(%q, %s) = %q, want %q", c.line, c.lang, got, c.want)
		}
	}
}
