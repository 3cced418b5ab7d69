package fulltext

import (
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/index/store"
)

// TestBleveIDRoundTrip checks that bleveID is one to one and docID undoes it, for symbol
// ids and for ids that could be mistaken for encoded ones, and that encoded symbol ids sort
// as the ids do.
func TestBleveIDRoundTrip(t *testing.T) {
	ids := []string{
		store.SymbolDocID("0000084155488af8"), store.SymbolDocID("ffffffffffffffff"), store.SymbolDocID("000009137a9d851d"),
		store.SymbolDocID("0000084155488AF8"), // upper case: not what SymbolID makes, kept as is
		store.SymbolDocID("0123"), "s:0123456789abcdeg", "12345678", "1234567\x00", "abc\x00", "", "f:a/b.go", "sym1",
	}
	seen := map[string]string{}
	for _, id := range ids {
		b := bleveID(id)
		if other, dup := seen[b]; dup {
			t.Errorf("%q and %q are both kept as %q", id, other, b)
		}
		seen[b] = id
		if got := docID(b); got != id {
			t.Errorf("docID(bleveID(%q)) = %q", id, got)
		}
	}
	if b := bleveID(store.SymbolDocID("0000084155488af8")); len(b) != 8 {
		t.Errorf("a symbol id is kept in %d bytes, want 8", len(b))
	}
	sym := []string{store.SymbolDocID("ffffffffffffffff"), store.SymbolDocID("0000084155488af8"), store.SymbolDocID("7f00000000000000"), store.SymbolDocID("8000000000000000")}
	enc := make([]string, len(sym))
	for i, id := range sym {
		enc[i] = bleveID(id)
	}
	slices.Sort(sym)
	slices.Sort(enc)
	for i := range sym {
		if docID(enc[i]) != sym[i] {
			t.Fatalf("sorted encoded ids %q, sorted ids %q: orders differ", enc, sym)
		}
	}
}
