package nav

import (
	"context"
	"strconv"
	"testing"
)

// TestResolveMemberNotBareName: a member of an object literal or of a prototype is reached
// through its object, never as a bare name in its owner's body: the bare a in O
// is the module's const a (line 1), not the prototype's method a (line 5).
func TestResolveMemberNotBareName(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"lib/o.js": "const a = 2\nfunction O () {\n  return a\n}\nO.prototype.a = function () {}\nnew O().a()\n",
	})
	defs, err := NewReader(s).Definitions(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	uses := map[int][]string{} // definition line -> its uses' lines
	for _, d := range defs {
		refs, _, err := NewReader(s).SymbolRefs(context.Background(), d, RefsQuery{Limit: 100, NoText: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range refs {
			uses[d.Line] = append(uses[d.Line], strconv.Itoa(r.Line)+" "+r.Resolution)
		}
	}
	if len(defs) != 2 || len(uses[1]) != 1 || uses[1][0] != "3 scope" {
		t.Errorf("uses of the const a: %v, want [3 scope] (definitions %d, all uses %v)", uses[1], len(defs), uses)
	}
	for _, u := range uses[5] {
		if u[:2] == "3 " {
			t.Errorf("the member a took the bare a of line 3: %v", uses[5])
		}
	}
}
