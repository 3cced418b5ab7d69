package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

const goSample = "../../extract/testdata/go/sample.go"

// quarry outline (the contract's outline operation): any file, every field of each symbol.
func TestOutline(t *testing.T) {
	code, out, errOut := quarry(t, "", "outline", goSample)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"(go, 19 symbols)", "    24  struct Server  —  type Server struct", "    26    field Addr  —  Addr string", "    49    method ServeHTTP"} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = quarry(t, "", "outline", goSample, "--depth", "1", "--kind", "struct,method")
	if !strings.Contains(out, "struct Server") || strings.Contains(out, "ServeHTTP") || strings.Contains(out, "NewServer") {
		t.Errorf("--depth 1 --kind struct,method:\n%s", out)
	}
}

func TestOutlineJSON(t *testing.T) {
	code, out, _ := quarry(t, "", "outline", "--json", goSample)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var res struct {
		File     string           `json:"file"`
		Language string           `json:"language"`
		Results  []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not the outline's JSON: %v", err)
	}
	syms := res.Results
	if len(syms) != 19 || res.Language != "go" || res.File != goSample {
		t.Fatalf("%d symbols of %s in %s, want 19 of go in %s", len(syms), res.Language, res.File, goSample)
	}
	for _, key := range []string{"id", "name", "kind", "language", "path", "start_line", "end_line", "start_column", "end_column", "start_byte", "end_byte", "signature", "depth"} {
		if _, ok := syms[8][key]; !ok {
			t.Errorf("symbol %v lacks %q", syms[8], key)
		}
	}
}

func TestOutlineBadInput(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "x.go")
	if err := os.WriteFile(bin, []byte("package x\x00\x01\x02"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, []byte("package x\n"+strings.Repeat("//\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(txt, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"outline", filepath.Join(dir, "missing.go")}, "no such file"},
		{[]string{"outline", dir}, "is a directory"},
		{[]string{"outline", bin}, "binary file"},
		{[]string{"outline", "--max-size", "50", big}, "over the 50-byte limit"},
		{[]string{"outline", txt}, "unknown language"},
		{[]string{"outline", "--lang", "cobol", txt}, `unknown language "cobol"`},
		{[]string{"outline", "--kind", "klass", goSample}, "did you mean class?"},
		{[]string{"outline", "--depth", "-1", goSample}, "depth -1"},
		{[]string{"outline"}, "accepts 1 arg(s)"},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	code, out, _ := quarry(t, "", "outline", filepath.Join(dir, "missing.go"), "--json")
	if code != exitUsage || tools.Validate("error", []byte(out)) != nil || !strings.Contains(out, `"NOT_FOUND"`) || !strings.Contains(out, `"path": "file"`) {
		t.Errorf("outline of a missing file --json: exit %d, %s", code, out)
	}
	code, out, _ = quarry(t, "", "outline", "--lang", "go", txt)
	if code != exitNotFound || !strings.Contains(out, "0 symbols") {
		t.Errorf("outline of a file without symbols: exit %d, %q", code, out)
	}
}

// quarry symbols is get_symbols: the outline of a workspace file as a tree (its signatures,
// doc comments and bodies by --mode, paged), a flag of quarry outline refused with a pointer
// there, a file outside the workspace refused with the same pointer. (Its --json equals the
// tool's answer: TestJSONIsTheMCPAnswer.)
func TestSymbolsIsGetSymbols(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a.go")
	writeFiles(t, root, map[string]string{"a.go": "package a\n\n// Server serves.\ntype Server struct{ Addr string }\n\n// Start starts it.\nfunc (s *Server) Start() {}\n\nfunc Stop() {}\n"})
	code, out, errOut := quarry(t, "", "--root", root, "symbols", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"a.go (go, 5 symbols)", "     4  struct Server  —  type Server struct", "     4    field Addr  —  Addr string", "     7    method Start  —  func (s *Server) Start()"} {
		if !strings.Contains(out, want) {
			t.Errorf("symbols lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Server serves.") {
		t.Errorf("doc comments in the default mode (structure):\n%s", out)
	}
	_, out, _ = quarry(t, "", "--root", root, "symbols", file, "--mode", "full", "--target", "start")
	if !strings.Contains(out, "method Start") || !strings.Contains(out, "Start starts it.") || !strings.Contains(out, "func (s *Server) Start() {}") || strings.Contains(out, "Stop") {
		t.Errorf("--mode full --target start:\n%s", out)
	}
	code, out, errOut = quarry(t, "", "--root", root, "symbols", file, "--limit", "2")
	if code != exitOK || strings.Count(out, "\n") != 3 || !strings.Contains(errOut, "2 of 5 symbols shown, truncated: limit; next page: --cursor 2") {
		t.Errorf("--limit 2: exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = quarry(t, "", "--root", root, "symbols", file, "--limit", "2", "--cursor", "2")
	if !strings.Contains(out, "method Start") || strings.Contains(out, "struct Server") {
		t.Errorf("--cursor 2:\n%s", out)
	}
	for _, args := range [][]string{{"--kind", "struct"}, {"--lang", "go"}, {"--max-size", "10"}, {"--tree"}} {
		code, _, errOut := quarry(t, "", append([]string{"--root", root, "symbols", file}, args...)...)
		if code != exitUsage || !strings.Contains(errOut, args[0]+" is a flag of quarry outline") || !strings.Contains(errOut, "quarry outline "+file+" "+args[0]) {
			t.Errorf("symbols %v: exit %d, %q; want a pointer to quarry outline", args, code, errOut)
		}
	}
	outside := filepath.Join(t.TempDir(), "b.go")
	if err := os.WriteFile(outside, []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = quarry(t, "", "--root", root, "symbols", outside, "--json")
	if code != exitUsage || !strings.Contains(out, `"PATH_OUTSIDE_WORKSPACE"`) || !strings.Contains(out, "quarry outline FILE outlines a file outside the workspace") {
		t.Errorf("symbols of a file outside the workspace: exit %d, %s", code, out)
	}
	if code, _, errOut := quarry(t, "", "--root", root, "symbols", file, "--mode", "ful"); code != exitUsage || !strings.Contains(errOut, "did you mean full?") {
		t.Errorf("--mode ful: exit %d, %q", code, errOut)
	}
}
