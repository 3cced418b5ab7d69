package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/languages"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func registry(t testing.TB) *languages.Registry {
	t.Helper()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestGolden extracts every testdata/<language>/<file> and compares the result with
// <file>.json beside it; -update rewrites the JSON.
func TestGolden(t *testing.T) {
	reg := registry(t)
	ex := New(reg, Options{})
	files, err := filepath.Glob("testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, ".json") {
			continue
		}
		t.Run(filepath.ToSlash(strings.TrimPrefix(path, "testdata"+string(filepath.Separator))), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ex.Extract(context.Background(), filepath.Base(path), src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f.Skipped != "" {
				t.Fatalf("skipped: %s", f.Skipped)
			}
			if f.ParseErrors > 0 {
				t.Errorf("%d parse errors in a golden source", f.ParseErrors)
			}
			got, err := json.MarshalIndent(f, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := path + ".json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./extract -run TestGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("extraction of %s differs from %s; run with -update and review the diff", path, golden)
			}
		})
	}
}

// TestGoldenCoverage requires a golden source for every language.
// goldenPrefixStep is the distance in bytes between the prefixes of a golden source that
// TestGoldenPrefixes extracts.
const goldenPrefixStep = 7

// TestGoldenPrefixes extracts every goldenPrefixStep-th byte prefix of every golden source:
// a file cut anywhere (a half-written one) never makes an extractor fail or panic.
func TestGoldenPrefixes(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, ".json") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= len(src); n += goldenPrefixStep {
			extractString(t, filepath.Base(path), string(src[:n]))
		}
	}
}

func TestGoldenCoverage(t *testing.T) {
	reg := registry(t)
	for _, name := range reg.Names() {
		files, _ := filepath.Glob(filepath.Join("testdata", name, "*.json"))
		if len(files) == 0 {
			t.Errorf("language %s has no golden file under testdata/%s/", name, name)
		}
		for _, golden := range files {
			if l := reg.ForPath(strings.TrimSuffix(golden, ".json")); l == nil || l.Name != name {
				t.Errorf("%s: the source is not %s", golden, name)
			}
		}
	}
}

func TestEveryGrammarAndExtractorExists(t *testing.T) {
	for _, g := range languages.KnownGrammars {
		if grammars[g] == nil || grammars[g]() == nil {
			t.Errorf("grammar %q of languages.KnownGrammars is not linked", g)
		}
	}
	for _, l := range registry(t).All() {
		if !Supported(l.Name) {
			t.Errorf("language %s has no extractor", l.Name)
		}
	}
	if len(grammars) != len(languages.KnownGrammars) {
		t.Errorf("%d grammars linked, %d known: link only what a language uses", len(grammars), len(languages.KnownGrammars))
	}
}

// symbolsByName indexes the symbols of f by name (the first of each name).
func symbolsByName(f *File) map[string]Symbol {
	m := map[string]Symbol{}
	for _, s := range f.Symbols {
		if _, ok := m[s.Name]; !ok {
			m[s.Name] = s
		}
	}
	return m
}

func extractString(t *testing.T, path, src string) *File {
	t.Helper()
	f, err := New(registry(t), Options{}).Extract(context.Background(), path, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// hasIdent reports whether f records an identifier name of kind.
func hasIdent(f *File, name string, kind IdentKind) bool {
	return slices.ContainsFunc(f.Identifiers, func(id Identifier) bool { return id.Name == name && id.Kind == kind })
}

// symWant is what a focused test expects of one symbol.
type symWant struct {
	name   string
	kind   Kind
	vis    Visibility
	doc    string
	parent string // name of the parent symbol, "" for none
}

// checkSymbols asserts the kind, visibility, doc comment and parent of the symbols of f.
func checkSymbols(t *testing.T, f *File, wants []symWant) {
	t.Helper()
	syms := symbolsByName(f)
	byID := map[string]string{}
	for _, s := range f.Symbols {
		byID[s.ID] = s.Name
	}
	for _, want := range wants {
		s, ok := syms[want.name]
		if !ok {
			t.Errorf("no symbol %q in %+v", want.name, f.Symbols)
			continue
		}
		if s.Kind != want.kind || s.Visibility != want.vis || s.DocComment != want.doc || byID[s.ParentID] != want.parent {
			t.Errorf("%s: got kind %s vis %q doc %q parent %q; want kind %s vis %q doc %q parent %q",
				want.name, s.Kind, s.Visibility, s.DocComment, byID[s.ParentID], want.kind, want.vis, want.doc, want.parent)
		}
	}
}

// symWantPF is symWant with the parent before the doc comment, the order of the C, C++,
// JavaScript and Rust tables.
type symWantPF struct {
	name   string
	kind   Kind
	vis    Visibility
	parent string // name of the parent symbol, "" for none
	doc    string
}

// checkSymbolsPF is checkSymbols for tables in the symWantPF order.
func checkSymbolsPF(t *testing.T, f *File, wants []symWantPF) {
	t.Helper()
	conv := make([]symWant, len(wants))
	for i, w := range wants {
		conv[i] = symWant{name: w.name, kind: w.kind, vis: w.vis, doc: w.doc, parent: w.parent}
	}
	checkSymbols(t, f, conv)
}
