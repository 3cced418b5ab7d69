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

func TestSymbolsOutline(t *testing.T) {
	code, out, errOut := quarry(t, "", "symbols", goSample)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"(go, 19 symbols)", "    24  struct Server  —  type Server struct", "    26    field Addr  —  Addr string", "    49    method ServeHTTP"} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = quarry(t, "", "symbols", goSample, "--depth", "1", "--kind", "struct,method")
	if !strings.Contains(out, "struct Server") || strings.Contains(out, "ServeHTTP") || strings.Contains(out, "NewServer") {
		t.Errorf("--depth 1 --kind struct,method:\n%s", out)
	}
}

func TestSymbolsJSON(t *testing.T) {
	code, out, _ := quarry(t, "", "symbols", "--json", goSample)
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

func TestSymbolsBadInput(t *testing.T) {
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
		{[]string{"symbols", filepath.Join(dir, "missing.go")}, "no such file"},
		{[]string{"symbols", dir}, "is a directory"},
		{[]string{"symbols", bin}, "binary file"},
		{[]string{"symbols", "--max-size", "50", big}, "over the 50-byte limit"},
		{[]string{"symbols", txt}, "unknown language"},
		{[]string{"symbols", "--lang", "cobol", txt}, `unknown language "cobol"`},
		{[]string{"symbols", "--kind", "klass", goSample}, "did you mean class?"},
		{[]string{"symbols", "--depth", "-1", goSample}, "depth -1"},
		{[]string{"symbols"}, "accepts 1 arg(s)"},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	code, out, _ := quarry(t, "", "symbols", filepath.Join(dir, "missing.go"), "--json")
	if code != exitUsage || tools.Validate("error", []byte(out)) != nil || !strings.Contains(out, `"NOT_FOUND"`) || !strings.Contains(out, `"path": "file"`) {
		t.Errorf("symbols of a missing file --json: exit %d, %s", code, out)
	}
	code, out, _ = quarry(t, "", "symbols", "--lang", "go", txt)
	if code != exitNotFound || !strings.Contains(out, "0 symbols") {
		t.Errorf("symbols of a file without symbols: exit %d, %q", code, out)
	}
}
