package suggest

import (
	"slices"
	"testing"
)

func TestCandidates(t *testing.T) {
	known := []string{"lang", "json", "query", "limit", "definitions", "lib_77f3cabb"}
	tests := []struct {
		typed string
		want  []string
	}{
		{"lnag", []string{"lang"}},
		{"jsn", []string{"json"}},
		{"qu", []string{"query"}},
		{"defs", []string{"definitions"}}, // an abbreviation
		{"lib", []string{"lib_77f3cabb"}}, // a prefix
		{"LIMT", []string{"limit"}},       // case is ignored
		{"lib_77f3cabc", []string{"lib_77f3cabb"}},
		{"xyzzy", nil},
	}
	for _, tt := range tests {
		if got := Candidates(tt.typed, known); !slices.Equal(got, tt.want) {
			t.Errorf("Candidates(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
	if got := Closest("lmit", known); got != "limit" {
		t.Errorf("Closest(lmit) = %q, want limit", got)
	}
	if got := Closest("zzz", known); got != "" {
		t.Errorf("Closest(zzz) = %q, want nothing", got)
	}
	if d := Distance("größe", "grösse"); d != 2 {
		t.Errorf("Distance counts runes: got %d, want 2", d)
	}
}
