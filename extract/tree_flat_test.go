package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestFlattenMatchesTreeSitter parses every golden source, whole and cut in half (a cut
// file has ERROR and MISSING nodes), and checks that every node of the flattened tree
// answers each method the extractors call as go-tree-sitter's node does; each flat tree
// reuses the arrays of the one before (treePool).
func TestFlattenMatchesTreeSitter(t *testing.T) {
	reg := registry(t)
	ex := New(reg, Options{})
	files, err := filepath.Glob("testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	checked, withErrors := 0, 0
	for _, path := range files {
		if strings.HasSuffix(path, ".json") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lang := reg.Detect(filepath.Base(path), src)
		if lang == nil || !Supported(lang.Name) {
			continue
		}
		for _, text := range [][]byte{src, src[:len(src)/2]} {
			tree, err := ex.parse(lang, text)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			root := tree.RootNode()
			if root.HasError() {
				withErrors++
			}
			var diffs []string
			flat := flatten(tree, text)
			compareNodes(root, flat, "", &diffs)
			flat.t.release() // the next tree reuses its arrays: stale entries would differ
			tree.Close()
			if len(diffs) > 0 {
				t.Errorf("%s (%d bytes): %d differences, first: %s", path, len(text), len(diffs), strings.Join(diffs[:min(len(diffs), 5)], "; "))
			}
			checked++
		}
	}
	if checked < 70 || withErrors < 25 {
		t.Fatalf("checked %d trees, %d with errors: the golden sources are missing", checked, withErrors)
	}
}

// compareNodes appends to diffs where flat answers differently from want, for the two
// nodes and their descendants.
func compareNodes(want *sitter.Node, flat *Node, at string, diffs *[]string) {
	at += "/" + want.Type()
	check := func(what string, w, g any) {
		if fmt.Sprint(w) != fmt.Sprint(g) {
			*diffs = append(*diffs, fmt.Sprintf("%s %s: tree-sitter %v, flat %v", at, what, w, g))
		}
	}
	check("type", want.Type(), flat.Type())
	check("bytes", [2]uint32{want.StartByte(), want.EndByte()}, [2]uint32{flat.StartByte(), flat.EndByte()})
	check("points", [2]sitter.Point{want.StartPoint(), want.EndPoint()}, [2]sitter.Point{flat.StartPoint(), flat.EndPoint()})
	check("flags", []bool{want.IsNamed(), want.IsMissing(), want.IsExtra(), want.HasError(), want.IsError()},
		[]bool{flat.IsNamed(), flat.IsMissing(), flat.IsExtra(), flat.HasError(), flat.IsError()})
	check("counts", [2]uint32{want.ChildCount(), want.NamedChildCount()}, [2]uint32{flat.ChildCount(), flat.NamedChildCount()})
	if len(*diffs) > 0 || want.ChildCount() != flat.ChildCount() {
		return
	}
	for i := range int(want.ChildCount()) {
		// tree-sitter 0.22 names the field of the child before an extra node (a comment)
		// for the extra too; flat's extras are in no field.
		if !want.Child(i).IsExtra() {
			check(fmt.Sprintf("field of child %d", i), want.FieldNameForChild(i), flat.FieldNameForChild(i))
		}
		if name := want.FieldNameForChild(i); name != "" {
			check("child by field "+name, nodeKey(want.ChildByFieldName(name)), flatKey(flat.ChildByFieldName(name)))
		}
	}
	for i := range int(want.NamedChildCount()) {
		w, g := want.NamedChild(i), flat.NamedChild(i)
		check(fmt.Sprintf("named child %d", i), [2]any{w.Type(), w.StartByte()}, [2]any{g.Type(), g.StartByte()})
	}
	for i := range int(want.ChildCount()) {
		w, g := want.Child(i), flat.Child(i)
		if g.Parent() != flat {
			check(fmt.Sprintf("parent of child %d", i), "this node", g.Parent())
		}
		// Siblings are the neighbours in the parent's children (tree-sitter 0.22's sibling
		// functions step into a neighbour ending where the node starts, now and then).
		check(fmt.Sprintf("next sibling of child %d", i), nodeKey(want.Child(i+1)), flatKey(g.NextSibling()))
		check(fmt.Sprintf("prev sibling of child %d", i), nodeKey(want.Child(i-1)), flatKey(g.PrevSibling()))
		check(fmt.Sprintf("next named sibling of child %d", i), nodeKey(namedFrom(want, i+1, 1)), flatKey(g.NextNamedSibling()))
		check(fmt.Sprintf("prev named sibling of child %d", i), nodeKey(namedFrom(want, i-1, -1)), flatKey(g.PrevNamedSibling()))
		compareNodes(w, g, at, diffs)
		if len(*diffs) > 20 {
			return
		}
	}
}

// namedFrom is the first named child of p from its i-th on, stepping by d, or nil.
func namedFrom(p *sitter.Node, i, d int) *sitter.Node {
	for ; i >= 0 && i < int(p.ChildCount()); i += d {
		if c := p.Child(i); c.IsNamed() {
			return c
		}
	}
	return nil
}

func nodeKey(n *sitter.Node) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprintf("%s@%d-%d", n.Type(), n.StartByte(), n.EndByte())
}

func flatKey(n *Node) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprintf("%s@%d-%d", n.Type(), n.StartByte(), n.EndByte())
}

// TestFlattenPointsMultiByte checks the lines and character columns of definitions after
// multi-byte text, which flat nodes compute from byte offsets.
func TestFlattenPointsMultiByte(t *testing.T) {
	ex := New(registry(t), Options{})
	src := []byte("package p\n\n// Größe is ✓.\nfunc Größe() {}\n\nvar x = \"日本\"; func After() {\n}\n")
	f, err := ex.Extract(context.Background(), "p.go", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Span{}
	for _, s := range f.Symbols {
		got[s.Name] = s.Span
	}
	if s := got["Größe"]; s.StartLine != 4 || s.StartColumn != 1 || s.EndColumn != 16 {
		t.Errorf("Größe at %+v, want line 4, columns 1-16", s)
	}
	if s := got["After"]; s.StartLine != 6 || s.StartColumn != 15 || s.EndLine != 7 {
		t.Errorf("After at %+v, want line 6 column 15 to line 7", s)
	}
}
