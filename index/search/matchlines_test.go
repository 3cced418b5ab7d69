package search

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/index/storetest"
	"github.com/quarrysearch/quarry/scoring"
)

// matchLinesASCII, which visits only the lines holding a needle (found in the text or in
// the content cache's lower-cased copy), finds exactly the lines matchLinesLower finds
// scanning a lower-cased copy line by line, over real sources and needles of one and
// several words in any case, and counts the same occurrences of each.
func TestMatchLinesASCIIEqualsLower(t *testing.T) {
	needleSets := [][]string{{"func"}, {"return"}, {"self", "return"}, {"new"}, {"string", "err"}, {"e"}, {"class", "public", "void"}, {"x"}, {"( "}, {"nil", "zzzzzz"}}
	n := 0
	for _, g := range storetest.GoldenSources(t) {
		p, content := g.Path, g.Src
		for _, needles := range needleSets {
			for _, perFile := range []int{0, 3} {
				if !holdsNeedles(content, needles, false) {
					continue
				}
				wantCounts := make([]int, len(needles))
				want := matchLinesLower(content, needles, true, false, p, "x", scoring.Source, 1, perFile, wantCounts)
				// found in the text as it is, and in the content cache's lower-cased copy
				for _, lower := range [][]byte{nil, asciiLower(nil, content)} {
					gotCounts := make([]int, len(needles))
					got := matchLinesASCII(content, lower, needles, p, "x", scoring.Source, 1, perFile, gotCounts)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s %q perFile %d (lower copy %v): %d lines, want %d (first %+v vs %+v)", p, needles, perFile, lower != nil, len(got), len(want), first(got), first(want))
					}
					if !slices.Equal(gotCounts, wantCounts) || slices.Max(wantCounts) == 0 {
						t.Errorf("%s %q (lower copy %v): occurrences %v, a lower-cased copy holds %v", p, needles, lower != nil, gotCounts, wantCounts)
					}
					n++
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("compared %d cases", n)
	}
}

func first(h []Hit) any {
	if len(h) == 0 {
		return nil
	}
	return h[0]
}

// indexFoldASCII, and indexLower in a lower-cased copy, find the first occurrence
// bytes.Index finds in a lower-cased copy, whatever byte of the needle they anchor on.
func TestIndexFoldASCIIEqualsLower(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	alphabet := []byte("aAbBeEwWzZ_ \n(")
	for range 3000 {
		s := make([]byte, r.IntN(200))
		for i := range s {
			s[i] = alphabet[r.IntN(len(alphabet))]
		}
		needle := make([]byte, 1+r.IntN(4))
		for i := range needle {
			c := alphabet[r.IntN(len(alphabet))]
			needle[i] = bytes.ToLower([]byte{c})[0]
		}
		want := bytes.Index(bytes.ToLower(s), needle)
		if got := indexFoldASCII(s, string(needle)); got != want {
			t.Fatalf("indexFoldASCII(%q, %q) = %d, want %d", s, needle, got, want)
		}
		if got := indexLower(bytes.ToLower(s), needle, rareByteOf(string(needle))); got != want {
			t.Fatalf("indexLower(%q, %q) = %d, want %d", bytes.ToLower(s), needle, got, want)
		}
	}
	if got := indexFoldASCII([]byte("x := db.ErrNoRows; errnorows"), "errnorows"); got != 8 {
		t.Errorf("ErrNoRows at %d, want 8", got)
	}
}

func TestContainsFoldASCII(t *testing.T) {
	tests := []struct {
		s, needle string
		want      bool
	}{
		{"Connection Pool exhausted", "pool exhausted", true},
		{"CONNECTION", "connection", true},
		{"conn", "connection", false},
		{"xxPOOLyy", "pool", true},
		{"p o o l", "pool", false},
		{"index.TS", "index.ts", true},
		{"Pp Pool", "pool", true},
		{"", "a", false},
		{"abc", "", true},
		{"..-..", "-.", true},
	}
	for _, tt := range tests {
		if got := containsFoldASCII([]byte(tt.s), tt.needle); got != tt.want {
			t.Errorf("containsFoldASCII(%q, %q) = %v, want %v", tt.s, tt.needle, got, tt.want)
		}
	}
}
