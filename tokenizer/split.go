package tokenizer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/languages"
)

// span is a byte range of the input.
type span struct{ start, end int }

// scanner holds the state of one Append call.
type scanner struct {
	t         *Tokenizer
	input     string
	lower     string // input lower-cased with the same byte offsets
	irregular bool   // some rune's lower case has another length: see lower
	dst       []Token
	pos       int
	atoms     []span // scratch for the atoms of the current word
	atomBuf   [16]span
	prevSame  []int // see markRepeats
	prevBuf   [16]int
}

// asciiWord marks the ASCII bytes that belong to words.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = languages.IsWordRune(rune(c))
	}
	return t
}()

func (s *scanner) run() {
	in := s.input
	for i := 0; i < len(in); {
		c := in[i]
		if c < utf8.RuneSelf {
			if asciiWord[c] {
				i = s.word(i)
				continue
			}
			if s.t.patFirst[c] {
				if n := s.t.matchPattern(in[i:]); n > 0 {
					s.dst = append(s.dst, Token{Text: in[i : i+n], Start: i, End: i + n, Pos: s.pos, Kind: Operator, Atoms: 1})
					s.pos++
					i += n
					continue
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(in[i:])
		if languages.IsWordRune(r) {
			i = s.word(i)
			continue
		}
		if s.t.patFirst[c] {
			if n := s.t.matchPattern(in[i:]); n > 0 {
				s.dst = append(s.dst, Token{Text: in[i : i+n], Start: i, End: i + n, Pos: s.pos, Kind: Operator, Atoms: 1})
				s.pos++
				i += n
				continue
			}
		}
		i += size
	}
}

// matchPattern returns the length of the longest preserved pattern at the start of in, or 0.
func (t *Tokenizer) matchPattern(in string) int {
	for _, p := range t.patterns {
		if strings.HasPrefix(in, p) {
			return len(p)
		}
	}
	return 0
}

// word emits the tokens of the word starting at start and returns its end.
func (s *scanner) word(start int) int {
	in := s.input
	end := start
	simple := true // only lower-case ASCII letters: one atom, nothing to split
	for end < len(in) {
		c := in[end]
		if c < utf8.RuneSelf {
			if !asciiWord[c] {
				break
			}
			if c < 'a' {
				simple = false
			}
			end++
			continue
		}
		r, size := utf8.DecodeRuneInString(in[end:])
		if !languages.IsWordRune(r) {
			break
		}
		simple = false
		end += size
	}
	base := len(s.dst)
	s.emit(start, end, Word)
	if c := in[start]; simple || '0' <= c && c <= '9' || end-start > MaxSplitLen {
		s.pos++
		return end
	}
	s.split(start, end)
	if len(s.atoms) > 1 {
		s.variants(start, end)
	}
	s.finishWord(base)
	s.pos++
	return end
}

// emit appends the token for in[start:end].
func (s *scanner) emit(start, end int, kind Kind) {
	text := s.lower[start:end]
	if s.irregular && !isASCII(s.input[start:end]) {
		text = strings.ToLower(s.input[start:end])
	}
	s.dst = append(s.dst, Token{Text: text, Start: start, End: end, Pos: s.pos, Kind: kind, Atoms: 1})
}

func isASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// split emits the snake_case segments of in[start:end] and the atoms of each segment, and
// leaves the atoms in s.atoms.
func (s *scanner) split(start, end int) {
	s.atoms = s.atomBuf[:0]
	segStart := start
	for i := start; i <= end; i++ {
		if i < end && s.input[i] != '_' {
			continue
		}
		if segStart < i {
			n := len(s.atoms)
			s.camel(segStart, i)
			if len(s.atoms)-n > 1 || segStart != start || i != end {
				s.emit(segStart, i, Part)
			}
		}
		segStart = i + 1
	}
	if len(s.atoms) > 1 {
		for _, a := range s.atoms {
			s.emit(a.start, a.end, Part)
		}
	}
}

// Rune classes for CamelCase splitting.
const (
	clsLower = iota
	clsUpper
	clsDigit
	clsOther // a letter without case (CJK, Arabic, ...)
)

func class(r rune) (cls int, mark bool) {
	switch {
	case 'a' <= r && r <= 'z':
		return clsLower, false
	case 'A' <= r && r <= 'Z':
		return clsUpper, false
	case '0' <= r && r <= '9':
		return clsDigit, false
	case r < utf8.RuneSelf:
		return clsOther, false
	case unicode.IsMark(r):
		return clsOther, true
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clsUpper, false
	case unicode.IsLower(r):
		return clsLower, false
	case unicode.IsDigit(r):
		return clsDigit, false
	}
	return clsOther, false
}

// camel appends the atoms of the segment in[start:end] to s.atoms. Boundaries fall between
// digits and non-digits, before an upper-case letter that follows a lower-case one, before the
// last capital of an acronym that a lower-case letter follows (XMLParser), and where cased
// letters meet letters without case. A plural acronym (URLs, IDs) stays one atom.
func (s *scanner) camel(start, end int) {
	in := s.input
	atomStart := start
	prev, prevStart := -1, start // class and offset of the previous rune
	run := 0                     // length of the current run of capitals
	for i := start; i < end; {
		r, size := rune(in[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(in[i:])
		}
		cls, mark := class(r)
		if mark {
			i += size
			continue
		}
		cut := -1
		switch {
		case prev < 0:
		case (prev == clsDigit) != (cls == clsDigit):
			cut = i
		case cls == clsUpper && (prev == clsLower || prev == clsOther):
			cut = i
		case cls == clsLower && prev == clsUpper && run >= 2 && !pluralAcronym(in, i, end):
			cut = prevStart
		case (cls == clsOther) != (prev == clsOther):
			cut = i
		}
		if cut > atomStart {
			s.atoms = append(s.atoms, span{atomStart, cut})
			atomStart = cut
		}
		if cls == clsUpper {
			run++
		} else {
			run = 0
		}
		prev, prevStart = cls, i
		i += size
	}
	if atomStart < end {
		s.atoms = append(s.atoms, span{atomStart, end})
	}
}

// pluralAcronym reports whether the lower-case letter at i is the "s" of a plural acronym
// such as URLs or IDs: an "s" that ends the segment or comes before a capital or a digit.
func pluralAcronym(in string, i, end int) bool {
	if in[i] != 's' {
		return false
	}
	return i+1 == end || in[i+1] < 'a' || in[i+1] > 'z'
}

// variants emits the remainders of in[start:end] without each matching prefix and suffix,
// and without the longest prefix and longest suffix together. Leading and trailing
// underscores are ignored for matching.
func (s *scanner) variants(start, end int) {
	in := s.input
	for start < end && in[start] == '_' {
		start++
	}
	for end > start && in[end-1] == '_' {
		end--
	}
	w := in[start:end]
	bestPre, bestSuf := 0, 0
	for _, p := range s.t.prefixes[lowerByte(w[0])] {
		if n := matchPrefix(w, p); n > 0 {
			s.remainder(start+n, end)
			bestPre = max(bestPre, n)
		}
	}
	for _, x := range s.t.suffixes[lowerByte(w[len(w)-1])] {
		if n := matchSuffix(w, x); n > 0 {
			s.remainder(start, end-n)
			bestSuf = max(bestSuf, n)
		}
	}
	if bestPre > 0 && bestSuf > 0 && bestPre+bestSuf < len(w) {
		s.remainder(start+bestPre, end-bestSuf)
	}
}

func (s *scanner) remainder(start, end int) {
	for start < end && s.input[start] == '_' {
		start++
	}
	for end > start && s.input[end-1] == '_' {
		end--
	}
	if utf8.RuneCountInString(s.input[start:end]) >= MinRemainder {
		s.emit(start, end, Variant)
	}
}

// matchPrefix returns the length of prefix a at the start of w, or 0 when it does not match
// at a word boundary. A snake_case prefix ("is_") matches ignoring case; a CamelCase one
// ("New") matches exactly and needs an upper-case letter after it, and a one-letter one ("I")
// needs a capital and then a lower-case letter (IUser, not IOStream).
func matchPrefix(w string, a affix) int {
	n := len(a.text)
	if len(w) <= n {
		return 0
	}
	if a.snake {
		if strings.EqualFold(w[:n], a.text) {
			return n
		}
		return 0
	}
	if w[:n] != a.text {
		return 0
	}
	r, size := utf8.DecodeRuneInString(w[n:])
	if !unicode.IsUpper(r) {
		return 0
	}
	if utf8.RuneCountInString(a.text) == 1 {
		next, _ := utf8.DecodeRuneInString(w[n+size:])
		if !unicode.IsLower(next) {
			return 0
		}
	}
	return n
}

// matchSuffix returns the length of suffix a at the end of w, or 0 when it does not match at
// a word boundary. A snake_case suffix ("_mut") matches ignoring case; a CamelCase one
// ("Service") matches exactly.
func matchSuffix(w string, a affix) int {
	n := len(a.text)
	if len(w) <= n {
		return 0
	}
	if a.snake {
		if strings.EqualFold(w[len(w)-n:], a.text) {
			return n
		}
		return 0
	}
	if w[len(w)-n:] != a.text {
		return 0
	}
	return n
}

// finishWord orders the tokens of the word at dst[base:] by start (longer first), drops
// repeated texts, and counts the distinct atoms each token spans.
func (s *scanner) finishWord(base int) {
	s.markRepeats()
	toks := s.dst[base:]
	for i := 1; i < len(toks); i++ { // insertion sort: a word has a handful of tokens
		for j := i; j > 0 && less(toks[j], toks[j-1]); j-- {
			toks[j], toks[j-1] = toks[j-1], toks[j]
		}
	}
	out := toks[:0]
	for _, tok := range toks {
		if containsText(out, tok.Text) {
			continue
		}
		tok.Atoms = max(s.distinctAtoms(tok.Start, tok.End), 1)
		out = append(out, tok)
	}
	s.dst = s.dst[:base+len(out)]
}

func less(a, b Token) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	return a.End > b.End
}

func containsText(toks []Token, text string) bool {
	for _, t := range toks {
		if t.Text == text {
			return true
		}
	}
	return false
}

// distinctAtoms counts the atoms inside start:end with distinct texts.
func (s *scanner) distinctAtoms(start, end int) int {
	n := 0
	for i, a := range s.atoms {
		if a.start < start || a.end > end {
			continue
		}
		if p := s.prevSame[i]; p < 0 || s.atoms[p].start < start {
			n++
		}
	}
	return n
}

// markRepeats sets prevSame[i] to the index of the last atom before i with the same text, or -1.
func (s *scanner) markRepeats() {
	s.prevSame = s.prevBuf[:0]
	for i, a := range s.atoms {
		p := -1
		for j := i - 1; j >= 0; j-- {
			if b := s.atoms[j]; s.lower[b.start:b.end] == s.lower[a.start:a.end] {
				p = j
				break
			}
		}
		s.prevSame = append(s.prevSame, p)
	}
}
