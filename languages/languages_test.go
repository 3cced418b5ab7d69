package languages

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// required are the languages Quarry promises to support.
var required = []string{
	"go", "python", "javascript", "typescript", "tsx", "rust", "java", "c", "cpp", "csharp",
	"ruby", "php", "kotlin", "swift", "scala", "bash", "lua",
	"protobuf", "sql", "hcl", "dockerfile", "markdown", "toml", "yaml", "css",
	"html", "vue", "svelte", "cue", "elixir", "elm", "groovy", "ocaml",
}

var noAffixes = map[string]bool{"lua": true, "bash": true, "dockerfile": true, "markdown": true, "css": true}

func TestDefaultLoadsEveryFile(t *testing.T) {
	reg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	files, err := embedded.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(reg.All()); got != len(files) {
		t.Errorf("registry has %d languages, want one for each of the %d files", got, len(files))
	}
	for _, name := range required {
		l, ok := reg.Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q): no such language", name)
			continue
		}
		if len(l.Scoring.ImportantPatterns) == 0 {
			t.Errorf("%s: no scoring.important_patterns", name)
		}
		// Lua and Bash names, Dockerfile instructions, Markdown headings and CSS selectors
		// have no affixes worth stripping.
		if len(l.Tokenizer.MeaningfulAffixes)+len(l.Variants.StripPrefixes)+len(l.Variants.StripSuffixes) == 0 && !noAffixes[name] {
			t.Errorf("%s: no affixes, prefixes or suffixes", name)
		}
	}
}

func TestLookup(t *testing.T) {
	reg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want string }{
		{"go", "go"}, {"golang", "go"}, {"Rust", "rust"}, {"C#", "csharp"}, {"c++", "cpp"},
		{"py", "python"}, {"js", "javascript"}, {" ts ", "typescript"},
	}
	for _, tt := range tests {
		l, ok := reg.Lookup(tt.name)
		if !ok || l.Name != tt.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tt.name, l, ok, tt.want)
		}
	}
	if _, err := reg.Resolve("cobol"); err == nil || !strings.Contains(err.Error(), "known languages: bash, c,") {
		t.Errorf("Resolve(cobol) = %v, want an error listing the known languages", err)
	}
}

func TestDetect(t *testing.T) {
	reg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, head, want string
	}{
		{"src/main.go", "", "go"},
		{"lib/x.RS", "", "rust"},
		{"a/b/App.tsx", "", "tsx"},
		{"a/b/app.jsx", "", "javascript"},
		{"include/x.h", "", "c"},
		{"include/x.hpp", "", "cpp"},
		{"Rakefile", "", "ruby"},
		{"scripts/deploy", "#!/bin/bash\nset -e\n", "bash"},
		{"bin/tool", "#!/usr/bin/env python3.12\n", "python"},
		{"bin/tool", "#!/usr/bin/env -S node --no-warnings\n", "javascript"},
		{"bin/tool", "#!/usr/bin/perl\n", ""},
		{"README", "hello", ""},
		{"notes.txt", "", ""},
		{".gitignore", "", ""},
		{"build/Dockerfile.dev", "", "dockerfile"},
		{"Containerfile.prod", "", "dockerfile"},
		{"Dockerfile.go", "", "go"},
		{"Gemfile.lock", "", ""},
		{"Makefile.am", "", ""},
	}
	for _, tt := range tests {
		got := ""
		if l := reg.Detect(tt.path, []byte(tt.head)); l != nil {
			got = l.Name
		}
		if got != tt.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tt.path, tt.head, got, tt.want)
		}
	}
}

func TestInterpreter(t *testing.T) {
	tests := []struct{ head, want string }{
		{"#!/usr/bin/env python3", "python"},
		{"#! /usr/local/bin/lua5.4 -e", "lua"},
		{"#!/usr/bin/env -S FOO=1 ts-node", "ts-node"},
		{"#!/usr/bin/env", ""},
		{"#!", ""},
		{"no shebang", ""},
	}
	for _, tt := range tests {
		if got := Interpreter([]byte(tt.head)); got != tt.want {
			t.Errorf("Interpreter(%q) = %q, want %q", tt.head, got, tt.want)
		}
	}
}

const validFile = `name = "%s"
aliases = []
grammar = "python"
category = "code"
extensions = [".%s"]
filenames = []
interpreters = []
[tokenizer]
preserve_patterns = ["->"]
meaningful_affixes = ["is_"]
[variants]
strip_prefixes = []
strip_suffixes = []
[scoring]
important_patterns = ["def "]
`

func file(name, ext string, edit func(string) string) *fstest.MapFile {
	s := strings.ReplaceAll(strings.Replace(validFile, "%s", name, 1), "%s", ext)
	if edit != nil {
		s = edit(s)
	}
	return &fstest.MapFile{Data: []byte(s)}
}

func replace(old, new string) func(string) string {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		fs   fstest.MapFS
		want string
	}{
		{"unknown key", fstest.MapFS{"a.toml": file("a", "a", replace("[scoring]", "[scoring]\nboost = 2"))},
			`languages/a.toml: unknown key "scoring.boost"`},
		{"unknown table", fstest.MapFS{"a.toml": file("a", "a", func(s string) string { return s + "[extra]\nx = 1\n" })},
			`languages/a.toml: unknown key "extra"`},
		{"missing key", fstest.MapFS{"a.toml": file("a", "a", replace("filenames = []\n", ""))},
			`languages/a.toml: missing key "filenames"`},
		{"unknown grammar", fstest.MapFS{"a.toml": file("a", "a", replace(`"python"`, `"cobol"`))},
			`languages/a.toml: grammar: unknown grammar "cobol"`},
		{"unknown category", fstest.MapFS{"a.toml": file("a", "a", replace(`category = "code"`, `category = "prose"`))},
			`languages/a.toml: category: unknown category "prose" (known: code, docs, config)`},
		{"name mismatch", fstest.MapFS{"a.toml": file("b", "a", nil)},
			`languages/a.toml: name: "b" must equal the file name "a"`},
		{"duplicate extension", fstest.MapFS{"a.toml": file("a", "x", nil), "b.toml": file("b", "x", nil)},
			`languages/b.toml: extensions: ".x" is already claimed by languages/a.toml`},
		{"duplicate alias", fstest.MapFS{"a.toml": file("a", "a", nil), "b.toml": file("b", "b", replace("aliases = []", `aliases = ["A"]`))},
			`languages/b.toml: aliases: "a" is already claimed by languages/a.toml`},
		{"bad extension", fstest.MapFS{"a.toml": file("a", "A", nil)},
			`languages/a.toml: extensions[0]: ".A" is not a lower-case extension`},
		{"bad affix", fstest.MapFS{"a.toml": file("a", "a", replace(`"is_"`, `"Is"`))},
			`languages/a.toml: tokenizer.meaningful_affixes[0]: "Is" must be a snake_case prefix`},
		{"bad pattern", fstest.MapFS{"a.toml": file("a", "a", replace(`"->"`, `"-x"`))},
			`languages/a.toml: tokenizer.preserve_patterns[0]: "-x" must be two or more punctuation characters`},
		{"bad interpreter", fstest.MapFS{"a.toml": file("a", "a", replace("interpreters = []", `interpreters = ["python3"]`))},
			`languages/a.toml: interpreters[0]: "python3" must be a program name without directory or version`},
		{"bad file name", fstest.MapFS{"a.toml": file("a", "a", replace("filenames = []", `filenames = ["Docker*file"]`))},
			`languages/a.toml: filenames[0]: "Docker*file" is not a base file name, or one followed by .* (Dockerfile.*)`},
		{"syntax", fstest.MapFS{"a.toml": &fstest.MapFile{Data: []byte("name = \n")}},
			`languages/a.toml: toml: line 1`},
		{"no files", fstest.MapFS{}, "languages: no language files"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.fs)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Parse = %v, want error containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := Parse(fstest.MapFS{"a.toml": file("a", "a", nil)}); err != nil {
		t.Errorf("Parse(valid file) = %v", err)
	}
}

// TestCategoryOf: documentation and configuration languages are told from code, so that
// ranking puts a definition in code above a heading or a key of the same name.
func TestCategoryOf(t *testing.T) {
	for name, want := range map[string]Category{"markdown": Docs, "toml": Config, "yaml": Config, "python": Code, "go": Code, "": Code, "nosuch": Code} {
		if got := CategoryOf(name); got != want {
			t.Errorf("CategoryOf(%q) = %s, want %s", name, got, want)
		}
	}
}

// TestREADMEListsEveryLanguage: the README's count and list of languages agree with the
// embedded language files (the one source of the languages Quarry extracts).
func TestREADMEListsEveryLanguage(t *testing.T) {
	reg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if want := fmt.Sprintf("in %d languages", len(reg.Names())); !strings.Contains(readme, want) {
		t.Errorf("README.md does not say %q", want)
	}
	start := strings.Index(readme, "\nLanguages: ")
	end := strings.Index(readme[start+1:], "\n\n")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no Languages: paragraph")
	}
	list := strings.ToLower(readme[start : start+1+end])
	shown := map[string]string{"csharp": "c#", "cpp": "c++", "golang": "go", "protobuf": "protocol buffers", "hcl": "hcl/terraform"}
	for _, name := range reg.Names() {
		word := name
		if s, ok := shown[name]; ok {
			word = s
		}
		if !strings.Contains(list, word) {
			t.Errorf("README.md's Languages: paragraph lacks %s", name)
		}
	}
}
