package extract

import (
	"context"
	"strings"
	"testing"
)

// classesOf highlights src as the file at path and returns each classified run's text with
// its CSS class, as "class:text".
func classesOf(t *testing.T, path, src string) []string {
	t.Helper()
	reg := registry(t)
	spans, err := New(reg, Options{}).Highlight(context.Background(), path, []byte(src), reg.ForPath(path))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	last := uint32(0)
	for _, s := range spans {
		if s.Start < last || s.End <= s.Start || int(s.End) > len(src) {
			t.Fatalf("span %+v out of order or outside the file (%d bytes)", s, len(src))
		}
		last = s.End
		out = append(out, s.Syntax.CSSClass()+":"+src[s.Start:s.End])
	}
	return out
}

func hasAll(t *testing.T, got []string, want ...string) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, g := range got {
			if g == w {
				found = true
			}
		}
		if !found {
			t.Errorf("no %q among %q", w, got)
		}
	}
}

func hasNone(t *testing.T, got []string, unwanted ...string) {
	t.Helper()
	for _, g := range got {
		for _, u := range unwanted {
			if strings.HasSuffix(g, ":"+u) {
				t.Errorf("%q is classified (%s)", u, g)
			}
		}
	}
}

// TestHighlight: the file view's classes come from the syntax tree: keywords, strings,
// comments, numbers, constants, types and defined names, in several grammars, with the code
// inside a string's interpolation classified as code.
func TestHighlight(t *testing.T) {
	goSrc := "package main\n\n// Serve answers.\nfunc (s *Server) ServeHTTP(w int, n string) bool {\n\tx := 42 + len(\"a\\n\")\n\treturn x > 0 && true\n}\n"
	got := classesOf(t, "main.go", goSrc)
	hasAll(t, got, "k:package", "c:// Serve answers.", "k:func", "nf:ServeHTTP", "kt:int", "kt:string",
		"m:42", `s:"a\n"`, "k:return", "kc:true", "kt:Server")
	hasNone(t, got, "x", "len", "w")

	py := "import os\n\nclass Tree:\n    def walk(self, depth=3):\n        \"\"\"Walk it.\"\"\"\n        return f\"{self.name}-{depth + 1}\" if depth else None  # done\n"
	got = classesOf(t, "tree.py", py)
	hasAll(t, got, "k:import", "k:class", "nf:Tree", "k:def", "nf:walk", "m:3", `s:"""Walk it."""`,
		"kc:None", "c:# done", "m:1")
	hasNone(t, got, "self.name", "depth")

	js := "const a = `x ${b(1)} y`; // c\nfunction f() { return /re+/g }\n"
	got = classesOf(t, "a.js", js)
	hasAll(t, got, "k:const", "s:`x ", "m:1", "s: y`", "c:// c", "k:function", "nf:f", "s:/re+/g")

	yml := "name: quarry\nport: 8080\n"
	got = classesOf(t, "c.yaml", yml)
	hasAll(t, got, "py:name", "py:port")
}

// TestHighlightNoGrammar: a file no grammar parses has no classes, and no error.
func TestHighlightNoGrammar(t *testing.T) {
	if got := classesOf(t, "notes.txt", "func return 42\n"); len(got) != 0 {
		t.Errorf("a text file got classes: %q", got)
	}
}
