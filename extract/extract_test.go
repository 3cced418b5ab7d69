package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSkipped(t *testing.T) {
	ex := New(registry(t), Options{MaxFileSize: 64})
	tests := []struct {
		path, src string
		want      SkipReason
	}{
		{"big.go", "package x\n" + strings.Repeat("// x\n", 20), SkipTooLarge},
		{"bin.go", "package x\x00\x01", SkipBinary},
		{"notes.txt", "hello", SkipUnknownLanguage},
		{"script", "#!/usr/bin/perl\n", SkipUnknownLanguage},
	}
	for _, tt := range tests {
		f, err := ex.Extract(context.Background(), tt.path, []byte(tt.src), nil)
		if err != nil {
			t.Fatalf("Extract(%s): %v", tt.path, err)
		}
		if f.Skipped != tt.want || len(f.Symbols) != 0 {
			t.Errorf("Extract(%s) skipped %q with %d symbols, want %q and none", tt.path, f.Skipped, len(f.Symbols), tt.want)
		}
	}
}

func TestExtractPath(t *testing.T) {
	ex := New(registry(t), Options{})
	dir := t.TempDir()
	if _, err := ex.ExtractPath(context.Background(), dir, "d"); !errors.Is(err, ErrNotAFile) {
		t.Errorf("ExtractPath(dir) = %v, want ErrNotAFile", err)
	}
	if _, err := ex.ExtractPath(context.Background(), filepath.Join(dir, "missing.go"), "missing.go"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ExtractPath(missing) = %v, want not-exist", err)
	}
	p := filepath.Join(dir, "tool")
	if err := os.WriteFile(p, []byte("#!/usr/bin/env python3\ndef main():\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ex.ExtractPath(context.Background(), p, "tool")
	if err != nil {
		t.Fatal(err)
	}
	if f.Language != "python" {
		t.Errorf("ExtractPath(shebang script) language = %q, want python", f.Language)
	}
}

func TestTimeout(t *testing.T) {
	ex := New(registry(t), Options{Timeout: time.Microsecond, MaxFileSize: 8 << 20})
	src := []byte("package x\n" + strings.Repeat("func f() { a := []int{1, 2, 3}; _ = a }\n", 50000))
	if _, err := ex.Extract(context.Background(), "x.go", src, nil); !errors.Is(err, ErrTimeout) {
		t.Errorf("Extract with a 1µs timeout = %v, want ErrTimeout", err)
	}
	// The parser goes back to the pool reset: the next file parses in full.
	if f, err := ex.Extract(context.Background(), "y.go", []byte("package y\nfunc F() {}\n"), nil); err != nil || len(f.Symbols) != 2 {
		t.Errorf("Extract after a timeout = %v, %v", f, err)
	}
}

func TestGoSyntaxErrorsKeepSymbols(t *testing.T) {
	f := extractString(t, "broken.go", "package x\n\n// A is kept.\nfunc A() int { return 1 }\n\nfunc B( {\n\ntype C struct { X int }\n")
	syms := symbolsByName(f)
	if _, ok := syms["A"]; !ok {
		t.Errorf("symbols of a broken file = %v, want A", f.Symbols)
	}
	if f.ParseErrors == 0 {
		t.Errorf("ParseErrors = 0 for a broken file")
	}
}

func TestNonASCII(t *testing.T) {
	src := "package x\n\n// Größe gibt die 変数 zurück — ünïcödé.\nfunc Größe(変数 int) (ergebnis int) { return 変数 }\n"
	f := extractString(t, "u.go", src)
	s, ok := symbolsByName(f)["Größe"]
	if !ok {
		t.Fatalf("no symbol Größe in %v", f.Symbols)
	}
	if s.Signature != "func Größe(変数 int) (ergebnis int)" {
		t.Errorf("signature = %q", s.Signature)
	}
	if s.DocComment != "Größe gibt die 変数 zurück — ünïcödé." {
		t.Errorf("doc = %q", s.DocComment)
	}
	if s.StartColumn != 1 || s.EndColumn != 48 {
		t.Errorf("columns = %d..%d, want 1..48 (characters, not bytes)", s.StartColumn, s.EndColumn)
	}
	if got := src[s.StartByte:s.EndByte]; !strings.HasPrefix(got, "func Größe") || !strings.HasSuffix(got, "}") {
		t.Errorf("byte span gives %q", got)
	}
}

func TestOneLineCutsOnCharacters(t *testing.T) {
	s := oneLine(strings.Repeat("ä", 10), 4)
	if s != "ääää…" {
		t.Errorf("oneLine = %q", s)
	}
}

func TestCleanComment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"// a\n// b", "a\nb"},
		{"/**\n * Doc.\n * @param x y\n */", "Doc.\n@param x y"},
		{"/// <summary>Gets the <see cref=\"User\"/>.</summary>", "Gets the User."},
		{"# hello", "hello"},
		{"--- lua doc", "lua doc"},
		{"//! crate doc", "crate doc"},
	}
	for _, tt := range tests {
		if got := cleanComment(tt.in); got != tt.want {
			t.Errorf("cleanComment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStableIDs(t *testing.T) {
	src := "package x\nfunc A() {}\nfunc B() {}\n"
	a, b := extractString(t, "x.go", src), extractString(t, "x.go", src)
	for i := range a.Symbols {
		if a.Symbols[i].ID != b.Symbols[i].ID {
			t.Errorf("symbol %s: id %s then %s", a.Symbols[i].Name, a.Symbols[i].ID, b.Symbols[i].ID)
		}
	}
	seen := map[string]bool{}
	for _, s := range a.Symbols {
		if seen[s.ID] {
			t.Errorf("duplicate id %s", s.ID)
		}
		seen[s.ID] = true
	}
}

func TestGoVisibilityAndParents(t *testing.T) {
	f := extractString(t, "v.go", "package x\ntype T struct{ A int; b int }\nfunc (t *T) M() {}\nfunc (T) m() {}\nfunc F() { g() }\n")
	syms := symbolsByName(f)
	tests := []struct {
		name   string
		vis    Visibility
		parent string
	}{
		{"T", Public, ""}, {"A", Public, "T"}, {"b", Private, "T"}, {"M", Public, "T"}, {"m", Private, "T"}, {"F", Public, ""},
	}
	for _, tt := range tests {
		s := syms[tt.name]
		if s.Visibility != tt.vis {
			t.Errorf("%s visibility = %q, want %q", tt.name, s.Visibility, tt.vis)
		}
		parent := ""
		if s.ParentID != "" {
			for _, p := range f.Symbols {
				if p.ID == s.ParentID {
					parent = p.Name
				}
			}
		}
		if parent != tt.parent {
			t.Errorf("%s parent = %q, want %q", tt.name, parent, tt.parent)
		}
	}
	if !hasIdent(f, "g", Call) {
		t.Errorf("call of g not recorded: %v", f.Identifiers)
	}
}

func TestTrailingCommentIsNotDoc(t *testing.T) {
	f := extractString(t, "t.go", "package x\n\nvar a = 1 // the count\nfunc F() {}\n\n// G is documented.\nfunc G() {}\n")
	syms := symbolsByName(f)
	if d := syms["F"].DocComment; d != "" {
		t.Errorf("F doc = %q, want none: the comment ends the line above", d)
	}
	if d := syms["G"].DocComment; d != "G is documented." {
		t.Errorf("G doc = %q", d)
	}
}
