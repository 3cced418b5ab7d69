package extract

import (
	"testing"
)

func TestMarkdownSymbols(t *testing.T) {
	f := extractString(t, "README.md", `---
title: Front matter is not a heading
---

# Guide

## Install ##

`+"```sh\n# not a heading\n```"+`

### From source

Text.

Usage
-----

> # A quoted heading

- # A heading in a list item

[home]: https://example.com "Home"
`)
	checkSymbols(t, f, []symWant{
		{"Guide", Namespace, "", "", ""},
		{"Install", Namespace, "", "", "Guide"},
		{"From source", Namespace, "", "", "Install"},
		{"Usage", Namespace, "", "", "Guide"},
		{"home", Variable, "", "", "Usage"},
	})
	syms := symbolsByName(f)
	for _, name := range []string{"not a heading", "A quoted heading", "A heading in a list item", "Front matter is not a heading"} {
		if _, ok := syms[name]; ok {
			t.Errorf("%q became a symbol", name)
		}
	}
	tests := []struct {
		name, sig        string
		start, end, endC int
	}{
		{"Guide", "# Guide", 5, 24, 35},
		{"Install", "## Install ##", 7, 15, 6},
		{"From source", "### From source", 13, 15, 6},
		{"Usage", "Usage -----", 17, 24, 35},
		{"home", `[home]: https://example.com "Home"`, 24, 24, 35},
	}
	for _, tt := range tests {
		s := syms[tt.name]
		if s.Signature != tt.sig || s.StartLine != tt.start || s.EndLine != tt.end || s.EndColumn != tt.endC {
			t.Errorf("%s: signature %q lines %d-%d:%d, want %q lines %d-%d:%d",
				tt.name, s.Signature, s.StartLine, s.EndLine, s.EndColumn, tt.sig, tt.start, tt.end, tt.endC)
		}
	}
	if got := syms["home"].Metadata["destination"]; got != "https://example.com" {
		t.Errorf("home: destination %q, want %q", got, "https://example.com")
	}
}

// TestMarkdownSetextLevels checks that an = underline is a level 1 heading, which ends the
// sections of every deeper heading, and a - underline a level 2 one.
func TestMarkdownSetextLevels(t *testing.T) {
	f := extractString(t, "a.md", "# One\n\n## Two\n\nThree\n=====\n\nFour\n----\n\n#### Five\n")
	checkSymbols(t, f, []symWant{
		{"One", Namespace, "", "", ""},
		{"Two", Namespace, "", "", "One"},
		{"Three", Namespace, "", "", ""},
		{"Four", Namespace, "", "", "Three"},
		{"Five", Namespace, "", "", "Four"},
	})
	if got := symbolsByName(f)["Three"].Metadata["level"]; got != "1" {
		t.Errorf("Three: level %q, want 1", got)
	}
}
