package extract

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRebase proves that moving an extraction to another path gives exactly what extracting
// the same content there gives, for the golden source of every language.
func TestRebase(t *testing.T) {
	ex := New(registry(t), Options{})
	files, err := filepath.Glob("testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".json") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(path)
		moved, err := ex.Extract(context.Background(), "old/"+base, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ex.Extract(context.Background(), "new/dir/"+base, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Symbols) == 0 || moved.Symbols[0].ID == want.Symbols[0].ID {
			t.Fatalf("%s: no symbols, or ids that do not depend on the path", path)
		}
		moved.Rebase("new/dir/" + base)
		if !reflect.DeepEqual(moved, want) {
			for i := range want.Symbols {
				if i < len(moved.Symbols) && !reflect.DeepEqual(moved.Symbols[i], want.Symbols[i]) {
					t.Errorf("%s: symbol %d = %+v, want %+v", path, i, moved.Symbols[i], want.Symbols[i])
					break
				}
			}
			t.Errorf("%s: the rebased extraction differs from a new one", path)
		}
		n++
	}
	if n < 17 {
		t.Errorf("checked %d golden sources, want one per language (17)", n)
	}
}
