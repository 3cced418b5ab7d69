package layers

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module path of the repository.
const module = "github.com/quarrysearch/quarry"

// TestImportTable checks the imports of every non-test Go file of the module against
// allowed.txt.
func TestImportTable(t *testing.T) {
	allowed := readAllowed(t, "allowed.txt")
	imports := moduleImports(t, "..")
	for pkg, imps := range imports {
		ok, listed := allowed[pkg]
		if !listed {
			t.Errorf("package %s is not in allowed.txt: add it with what it may import (and to ARCHITECTURE.md's table)", pkg)
			continue
		}
		for imp, file := range imps {
			if !slices.Contains(ok, imp) {
				t.Errorf("%s imports %s, which allowed.txt does not allow for %s", file, imp, pkg)
			}
		}
	}
	for pkg := range allowed {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("allowed.txt names package %s, which has no Go files", pkg)
		}
	}
}

// readAllowed reads the table: package -> the module packages and third-party modules it
// may import.
func readAllowed(t *testing.T, name string) map[string][]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pkg, deps, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s:%d: want 'package: imports...', got %q", name, n, line)
		}
		if _, dup := out[pkg]; dup {
			t.Fatalf("%s:%d: package %s listed twice", name, n, pkg)
		}
		out[pkg] = strings.Fields(deps)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// moduleImports returns, for each package under root (by its path in the module), what its
// non-test files import: module packages by their path in the module, third-party
// packages by their module (as allowed.txt names them), with a file that imports each.
// The standard library is left out.
func moduleImports(t *testing.T, root string) map[string]map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string]string{}
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if name := importName(imp); name != "" {
				out[pkg][name] = p
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// importName returns how allowed.txt names an import path: a module package by its path in
// the module, a third-party package by its module, and "" for the standard library.
func importName(imp string) string {
	if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
		return rest
	}
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") {
		return "" // the standard library: no dot in the first element
	}
	for _, mod := range thirdParty {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			return mod
		}
	}
	return path.Clean(imp) // unknown: named in full, so the failure says what it is
}

// thirdParty are the modules the table names: a package below one counts as that module.
var thirdParty = []string{
	"github.com/BurntSushi/toml", "github.com/smacker/go-tree-sitter",
	"github.com/blevesearch/bleve/v2", "github.com/blevesearch/bleve_index_api",
	"github.com/mattn/go-sqlite3", "go.etcd.io/bbolt", "github.com/cespare/xxhash/v2",
	"github.com/go-git/go-git/v5", "github.com/modelcontextprotocol/go-sdk",
	"github.com/google/jsonschema-go", "github.com/spf13/cobra", "github.com/spf13/pflag",
	"github.com/klauspost/compress",
	"github.com/RoaringBitmap/roaring/v2", "github.com/nats-io/nats.go",
}

// TestModuleImports: the reader names imports as the table does, and sees a forbidden one.
func TestModuleImports(t *testing.T) {
	root := t.TempDir()
	src := "package tokenizer\n\nimport (\n\t\"fmt\"\n\t\"github.com/blevesearch/bleve/v2/search/query\"\n\t\"github.com/quarrysearch/quarry/index/query\"\n\t\"example.com/x/y\"\n)\n"
	if err := os.MkdirAll(filepath.Join(root, "tokenizer"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tokenizer", "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := moduleImports(t, root)["tokenizer"]
	for _, want := range []string{"github.com/blevesearch/bleve/v2", "index/query", "example.com/x/y"} {
		if _, ok := got[want]; !ok {
			t.Errorf("moduleImports = %v, want %s among them", got, want)
		}
	}
	if _, ok := got["fmt"]; ok || len(got) != 3 {
		t.Errorf("moduleImports = %v, want the three non-standard imports only", got)
	}
}

// TestArchitectureTable: the table of ARCHITECTURE.md names the same packages and the same
// module imports as allowed.txt (third-party modules are allowed.txt's detail).
func TestArchitectureTable(t *testing.T) {
	allowed := readAllowed(t, "allowed.txt")
	doc, err := os.ReadFile(filepath.Join("..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := map[string][]string{}
	for line := range strings.SplitSeq(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue // not a row of the package table
		}
		pkg := strings.Trim(strings.TrimSpace(cells[1]), "`")
		var deps []string
		for _, d := range strings.Split(cells[3], ",") {
			if d = strings.Trim(strings.TrimSpace(d), "`"); d != "" && d != "—" {
				deps = append(deps, d)
			}
		}
		table[pkg] = deps
	}
	for pkg, all := range allowed {
		var mod []string
		for _, d := range all {
			if !strings.Contains(d, ".") {
				mod = append(mod, d)
			}
		}
		got, ok := table[pkg]
		slices.Sort(mod)
		slices.Sort(got)
		if !ok || !slices.Equal(got, mod) {
			t.Errorf("ARCHITECTURE.md: package %s may import %v, allowed.txt says %v", pkg, got, mod)
		}
	}
	for pkg := range table {
		if _, ok := allowed[pkg]; !ok {
			t.Errorf("ARCHITECTURE.md lists package %s, allowed.txt does not", pkg)
		}
	}
}
