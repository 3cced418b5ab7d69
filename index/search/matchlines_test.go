package search

import (
	"bytes"
	"fmt"
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
				lower := asciiLower(nil, content)
				for _, text := range []cachedText{{content: content}, {content: content, lower: lower}, {content: content, lower: lower, chunks: newChunkFilter(lower)}} {
					gotCounts := make([]int, len(needles))
					got := matchLinesASCII(text, needles, p, "x", scoring.Source, 1, perFile, gotCounts)
					how := fmt.Sprintf("lower copy %v, chunk filter %v", text.lower != nil, text.chunks != nil)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s %q perFile %d (%s): %d lines, want %d (first %+v vs %+v)", p, needles, perFile, how, len(got), len(want), first(got), first(want))
					}
					if !slices.Equal(gotCounts, wantCounts) || slices.Max(wantCounts) == 0 {
						t.Errorf("%s %q (%s): occurrences %v, a lower-cased copy holds %v", p, needles, how, gotCounts, wantCounts)
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

// indexChunked finds every occurrence indexLower finds, in texts of several chunks with
// the needle placed across chunk boundaries, and the chunk filter rules out most chunks of
// a text that does not hold the needle.
func TestIndexChunkedEqualsLower(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"func", "return", "usestate", "state", "use", "err", "nil", "x", "\n", " ", "(", ")", "{", "}", "sqlite3", "vdbe", "exec"}
	for trial := range 300 {
		var b []byte
		for len(b) < chunkBytes*(1+r.IntN(4)) {
			b = append(b, words[r.IntN(len(words))]...)
		}
		needle := []byte(words[r.IntN(len(words))] + words[r.IntN(len(words))] + words[r.IntN(len(words))])
		if trial%3 == 0 { // across a chunk boundary
			at := chunkBytes*(1+r.IntN(len(b)/chunkBytes)) - r.IntN(len(needle))
			if at+len(needle) <= len(b) && at > 0 {
				copy(b[at:], needle)
			}
		}
		f := newChunkFilter(b)
		bits := needleBits(needle)
		at := rareByteOf(string(needle))
		for from := 0; ; {
			want := indexLower(b[from:], needle, at)
			got := indexChunked(b, needle, at, from, f, bits)
			if want >= 0 {
				want += from
			}
			if got != want {
				t.Fatalf("trial %d: %q from %d: indexChunked %d, indexLower %d", trial, needle, from, got, want)
			}
			if want < 0 {
				break
			}
			from = want + 1
		}
	}
	// a needle the text lacks: most chunks are not looked at
	text := bytes.Repeat([]byte("func (s *server) handle(w http.ResponseWriter) error { return nil }\n"), 2000)
	f := newChunkFilter(text)
	bits := needleBits([]byte("usestate"))
	may := 0
	for c := 0; c*chunkBytes < len(text); c++ {
		if f.mayStart(c, bits) {
			may++
		}
	}
	if chunks := (len(text) + chunkBytes - 1) / chunkBytes; may*10 > chunks {
		t.Errorf("usestate may start in %d of %d chunks of Go code that lacks it", may, chunks)
	}
}

// asciiLower lower-cases exactly the bytes 'A'..'Z', eight at a time or one by one: every
// byte value, at every offset in a word, among neighbours of every kind.
func TestASCIILower(t *testing.T) {
	want := func(b []byte) []byte {
		out := make([]byte, len(b))
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out[i] = c
		}
		return out
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			if got := asciiLower([]byte("x"), b); !bytes.Equal(got[1:], want(b)) || got[0] != 'x' {
				t.Fatalf("asciiLower(%q) = %q, want %q", b, got[1:], want(b))
			}
		}
	}
	all := make([]byte, 256+7)
	for i := range 256 {
		all[i] = byte(i)
	}
	for off := range 8 {
		if got := asciiLower(nil, all[off:]); !bytes.Equal(got, want(all[off:])) {
			t.Fatalf("every byte from offset %d: %q", off, got)
		}
	}
}

func BenchmarkASCIILower(b *testing.B) {
	text := bytes.Repeat([]byte("func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\tÉtat := 0\n"), 1000)
	dst := make([]byte, 0, len(text))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		dst = asciiLower(dst[:0], text)
	}
}
