package extract

import (
	"context"
	"os"
	"testing"
)

// TestDumpTree prints the syntax tree of the file named by QUARRY_DUMP_TREE, for writing an
// extractor: QUARRY_DUMP_TREE=path/to/file go test ./extract -run TestDumpTree -v
func TestDumpTree(t *testing.T) {
	p := os.Getenv("QUARRY_DUMP_TREE")
	if p == "" {
		t.Skip("QUARRY_DUMP_TREE is not set")
	}
	reg := registry(t)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lang := reg.Detect(p, src)
	if lang == nil {
		t.Fatalf("%s: unknown language", p)
	}
	s, err := New(reg, Options{}).SyntaxTree(context.Background(), p, src, lang)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
}
