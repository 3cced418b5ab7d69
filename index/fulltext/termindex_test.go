package fulltext

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTermsHolding: the terms of a field holding a word, ending with it unless open on the
// right; unavailable (ok false) until the terms were asked for twice and read.
func TestTermsHolding(t *testing.T) {
	f := openTestFulltext(t, t.TempDir())
	fillTestFulltext(t, f)
	if _, ok := f.termsHolding(FieldName, "user", true); ok {
		t.Fatal("the first use answered from memory: one-shot searches must not pay for reading the terms")
	}
	deadline := time.Now().Add(10 * time.Second)
	var terms []string
	for ok := false; !ok; {
		if time.Now().After(deadline) {
			t.Fatal("the terms were never read")
		}
		terms, ok = f.termsHolding(FieldName, "user", true)
		time.Sleep(time.Millisecond)
	}
	for _, want := range []string{"user", "getuserdata"} {
		if !slices.Contains(terms, want) {
			t.Errorf("terms holding user = %v, want %s among them", terms, want)
		}
	}
	for _, term := range terms {
		if !strings.Contains(term, "user") {
			t.Errorf("term %q does not hold user", term)
		}
	}
	ending, _ := f.termsHolding(FieldName, "data", false)
	if !slices.Contains(ending, "getuserdata") || slices.Contains(ending, "database") {
		t.Errorf("terms ending with data = %v", ending)
	}
	none, ok := f.termsHolding(FieldName, "zzyzx", true)
	if !ok || len(none) != 0 {
		t.Errorf("terms holding zzyzx = %v, %v; want none, from memory", none, ok)
	}
	again, _ := f.termsHolding(FieldName, "user", true)
	if !slices.Equal(again, terms) {
		t.Errorf("a remembered word gave %v, then %v", terms, again)
	}
}
