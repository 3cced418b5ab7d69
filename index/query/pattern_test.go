package query

import (
	"strings"
	"testing"
)

func TestFilePatternMatch(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		reject  []string
	}{
		{"*.py", []string{"a.py", "pkg/deep/b.py"}, []string{"a.pyc", "py/a.go"}},
		{"**/*.go", []string{"a.go", "x/y/z.go"}, []string{"a.gox"}},
		{"src/**", []string{"src/a.go", "src/x/y.rs"}, []string{"lib/src/a.go", "src"}},
		{"src/*.go", []string{"src/a.go"}, []string{"src/x/a.go"}},
		{"**/*.{ts,tsx}", []string{"a.ts", "ui/b.tsx"}, []string{"c.js"}},
		{"*.go,!*_test.go", []string{"a.go"}, []string{"a_test.go", "a.py"}},
		{"!vendor/**", []string{"a.go", "src/vendor.go"}, []string{"vendor/x/a.go"}},
		{"internal/**/*_test.go", []string{"internal/a_test.go", "internal/x/y/a_test.go"}, []string{"a_test.go"}},
		{"file?.c", []string{"file1.c"}, []string{"file12.c"}},
		{"[ab].c, [!ab].h", []string{"a.c", "c.h"}, []string{"c.c", "a.h"}},
		{"./cmd/**", []string{"cmd/quarry/main.go"}, []string{"x/cmd/a.go"}},
		{"{go,rust}/**/mod.*", []string{"rust/src/mod.rs", "go/mod.go"}, []string{"ts/mod.ts"}},
		{"a+b(c).txt", []string{"a+b(c).txt"}, []string{"aab(c).txt"}},
	}
	for _, tt := range tests {
		p, err := ParseFilePattern(tt.pattern)
		if err != nil {
			t.Errorf("ParseFilePattern(%q): %v", tt.pattern, err)
			continue
		}
		for _, path := range tt.match {
			if !p.Match(path) {
				t.Errorf("%q.Match(%q) = false, want true", tt.pattern, path)
			}
		}
		for _, path := range tt.reject {
			if p.Match(path) {
				t.Errorf("%q.Match(%q) = true, want false", tt.pattern, path)
			}
		}
	}
	if p, err := ParseFilePattern("  "); p != nil || err != nil || !p.Match("x") {
		t.Errorf("an empty pattern: %v, %v; want nil matching everything", p, err)
	}
}

func TestFilePatternErrors(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{"*.go,,*.py", "at byte 5: empty glob"},
		{"src/[ab", "at byte 4: unclosed ["},
		{"*.{go,rs", "unclosed {"},
		{"a}", "at byte 1: } without {"},
		{"!", "at byte 1: ! must be followed by a glob"},
		{"*.go, []x", "at byte 6: empty character class"},
	}
	for _, tt := range tests {
		_, err := ParseFilePattern(tt.pattern)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseFilePattern(%q) error = %v, want %q", tt.pattern, err, tt.want)
		}
	}
}

// FuzzFilePattern: parsing any pattern never panics, errors carry a position inside the
// pattern, and a parsed pattern matches any path without panicking.
func FuzzFilePattern(f *testing.F) {
	for _, s := range []string{"*.go", "src/**/*.{ts,tsx},!**/test/**", "[!a-z]?.c", "{a,{b,c}}", "\\*", "a[", "}{", "!,", "**/", "./x/**/y"} {
		f.Add(s, "src/a/b.go")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		p, err := ParseFilePattern(pattern)
		if err != nil {
			pe, ok := err.(*PatternError)
			if !ok || pe.Pos < 0 || pe.Pos > len(pattern) {
				t.Fatalf("ParseFilePattern(%q) error %v: want a *PatternError with a position in the pattern", pattern, err)
			}
			return
		}
		p.Match(path)
	})
}
