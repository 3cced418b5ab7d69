package grams

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// file is a document of a test corpus.
type file struct {
	path    string
	prior   uint8
	content []byte
}

var (
	goCorpusMu    sync.Mutex
	goCorpusPaths []string // the .go files of GOROOT/src in lexical order, walked once
	goCorpusFiles []file   // the first of them, read
)

// goCorpus returns the first maxBytes of .go files under GOROOT/src (walked in lexical
// order, so the same files every run), each with a prior (tests and testdata 1, the rest
// 0), or skips the test when GOROOT has no sources.
func goCorpus(tb testing.TB, maxBytes int64) []file {
	tb.Helper()
	goCorpusMu.Lock()
	defer goCorpusMu.Unlock()
	root := filepath.Join(runtime.GOROOT(), "src")
	if goCorpusPaths == nil {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				goCorpusPaths = append(goCorpusPaths, p)
			}
			return nil
		})
	}
	total := int64(0)
	for i := 0; total < maxBytes; i++ {
		if i == len(goCorpusFiles) {
			if i == len(goCorpusPaths) {
				break
			}
			p := goCorpusPaths[i]
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			prior := uint8(0)
			if strings.HasSuffix(p, "_test.go") || strings.Contains(rel, "testdata") {
				prior = 1
			}
			goCorpusFiles = append(goCorpusFiles, file{path: filepath.ToSlash(rel), prior: prior, content: b})
		}
		total += int64(len(goCorpusFiles[i].content))
	}
	if total < maxBytes/2 {
		tb.Skipf("GOROOT/src holds %d bytes of .go files, want %d", total, maxBytes)
	}
	n := int64(0)
	for i, f := range goCorpusFiles {
		if n >= maxBytes {
			return goCorpusFiles[:i:i]
		}
		n += int64(len(f.content))
	}
	return goCorpusFiles[:len(goCorpusFiles):len(goCorpusFiles)]
}

// synthCorpus returns small documents meant to catch edge cases: mixed case, UTF-8 (whose
// case folding changes bytes), files shorter than a trigram, empty files, binary bytes.
func synthCorpus(r *rand.Rand, n int) []file {
	words := []string{"Retry", "RETRY", "retry", "ErrNoRows", "errnorows", "func (", "return",
		"Straße", "STRASSE", "İstanbul", "ÄÖÜ", "äöü", "ﬀ", "Ω", "ω", "日本語", "\x00\x01\x02",
		"\xff\xfe", "a", "ab", "AB", "x", "Zz", "QuArRy", "quarry", "\t\n", "  ", "@[`{"}
	var out []file
	for i := range n {
		var b []byte
		switch i % 7 {
		case 0:
			b = nil // empty
		case 1:
			b = []byte(words[r.IntN(len(words))])[:r.IntN(3)] // shorter than a trigram
		case 2:
			b = make([]byte, r.IntN(200)) // binary
			for j := range b {
				b[j] = byte(r.UintN(256))
			}
		default:
			for range 1 + r.IntN(30) {
				b = append(b, words[r.IntN(len(words))]...)
				if r.IntN(3) == 0 {
					b = append(b, ' ')
				}
			}
		}
		out = append(out, file{path: "dir" + string(rune('a'+i%5)) + "/f" + strconv.Itoa(i), prior: uint8(r.IntN(3)), content: b})
	}
	return out
}

// foldASCII returns b with ASCII letters lower-cased.
func foldASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// model is the brute-force answer to queries over a corpus: each file's folded text and
// sorted key set (trigrams and hashed 4-grams).
type model struct {
	files  []file
	folded [][]byte
	grams  [][]uint32
}

func newModel(files []file) *model {
	m := &model{files: files}
	for _, f := range files {
		fb := foldASCII(f.content)
		m.folded = append(m.folded, fb)
		var g []uint32
		for i := 0; i+3 <= len(fb); i++ {
			g = append(g, testKey3(fb[i:]))
			if i+4 <= len(fb) && testWord(fb[i:i+4]) {
				g = append(g, testKey4(fb[i:]))
			}
		}
		slices.Sort(g)
		m.grams = append(m.grams, slices.Compact(g))
	}
	return m
}

// testKey3 is the test's own key of the trigram b[:3] (folded).
func testKey3(b []byte) uint32 {
	return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])
}

// testKey4 is the test's own key of the 4-gram b[:4] (folded): 1<<24 plus the top 24 bits
// of the low 32 of its big-endian value times 2654435761.
func testKey4(b []byte) uint32 {
	v := uint64(b[0])<<24 + uint64(b[1])<<16 + uint64(b[2])<<8 + uint64(b[3])
	return 1<<24 + uint32(v*2654435761%(1<<32)/256)
}

// testWord is the test's own rule for the 4-grams indexed: letters, digits and _ only.
func testWord(b []byte) bool {
	for _, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// literalGrams is the test's own rule for a literal's keys: those of the trigrams of its
// ASCII-folded bytes that hold no byte >= 0x80, and of its 4-grams of letters, digits and _.
func literalGrams(s string) []uint32 {
	var out []uint32
	b := foldASCII([]byte(s))
	for n := 3; n <= 4; n++ {
	next:
		for i := 0; i+n <= len(b); i++ {
			for _, c := range b[i : i+n] {
				if c >= 0x80 {
					continue next
				}
			}
			if n == 3 {
				out = append(out, testKey3(b[i:]))
			} else if testWord(b[i : i+4]) {
				out = append(out, testKey4(b[i:]))
			}
		}
	}
	return out
}

// holds reports whether file i holds every key of keys.
func (m *model) holds(i int, keys []uint32) bool {
	for _, k := range keys {
		if _, ok := slices.BinarySearch(m.grams[i], k); !ok {
			return false
		}
	}
	return true
}

// expr is a boolean query of literals, evaluated by brute force two ways.
type expr struct {
	op   op // opLit, opAnd, opOr
	lit  string
	subs []*expr
}

func (e *expr) query() *Query {
	switch e.op {
	case opLit:
		return Literal(e.lit)
	case opAnd, opOr:
		var qs []*Query
		for _, s := range e.subs {
			qs = append(qs, s.query())
		}
		if e.op == opAnd {
			return And(qs...)
		}
		return Or(qs...)
	}
	panic("bad expr")
}

// contains evaluates e on file i by substring search with ASCII case folding: the truth a
// candidate set must include.
func (m *model) contains(i int, e *expr) bool {
	switch e.op {
	case opLit:
		return bytes.Contains(m.folded[i], foldASCII([]byte(e.lit)))
	case opAnd:
		for _, s := range e.subs {
			if !m.contains(i, s) {
				return false
			}
		}
		return true
	default:
		for _, s := range e.subs {
			if m.contains(i, s) {
				return true
			}
		}
		return false
	}
}

// keys evaluates e on file i by key sets: exactly what the index must answer.
func (m *model) keys(i int, e *expr) bool {
	switch e.op {
	case opLit:
		return m.holds(i, literalGrams(e.lit))
	case opAnd:
		for _, s := range e.subs {
			if !m.keys(i, s) {
				return false
			}
		}
		return true
	default:
		for _, s := range e.subs {
			if m.keys(i, s) {
				return true
			}
		}
		return false
	}
}

// randomLiteral returns a literal for queries over m: mostly a substring of a file of
// length 1..20 (its case changed at random), else a string that likely occurs nowhere.
func (m *model) randomLiteral(r *rand.Rand) string {
	if r.IntN(5) == 0 {
		n := 1 + r.IntN(12)
		b := make([]byte, n)
		for j := range b {
			if r.IntN(4) == 0 {
				b[j] = byte(r.UintN(256))
			} else {
				b[j] = "abcdefghijklmnopqrstuvwxyzQXZ_"[r.IntN(30)]
			}
		}
		return string(b)
	}
	for {
		f := m.files[r.IntN(len(m.files))].content
		if len(f) == 0 {
			continue
		}
		n := 1 + r.IntN(20)
		start := r.IntN(len(f))
		b := []byte(string(f[start:min(len(f), start+n)]))
		for j, c := range b {
			if r.IntN(3) == 0 && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				b[j] = c ^ 0x20
			}
		}
		return string(b)
	}
}

// randomExpr returns a random And/Or of literals, depth at most d.
func (m *model) randomExpr(r *rand.Rand, d int) *expr {
	if d == 0 || r.IntN(3) == 0 {
		return &expr{op: opLit, lit: m.randomLiteral(r)}
	}
	e := &expr{op: opAnd}
	if r.IntN(2) == 0 {
		e.op = opOr
	}
	for range 1 + r.IntN(3) {
		e.subs = append(e.subs, m.randomExpr(r, d-1))
	}
	return e
}
