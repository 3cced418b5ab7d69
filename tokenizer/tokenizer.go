// Package tokenizer is Quarry's code tokenizer: it turns source text into the lower-case terms
// the full-text index stores and a query is matched with.
//
// The rules, applied with one language's configuration (package languages):
//
//   - Words are maximal runs of letters, digits, combining marks and '_'. Everything else,
//     including bytes that are not valid UTF-8, separates words.
//   - Between words, the language's preserved operators ("::", "->", "=>") are tokens of their
//     own, longest match first.
//   - Each word yields its whole lower-cased text, its snake_case segments, and the atoms of
//     each segment: CamelCase parts (acronym aware: XMLParser gives xml, parser; URLs stays
//     one part) and digit runs. A word that starts with a digit is a number and is not split.
//   - A word with a meaningful affix ("is_", "_mut") or a naming prefix or suffix ("I",
//     "Service") of its language also yields the remainder without it (IUserService gives
//     userservice); remainders shorter than two characters are dropped.
//   - Within a word no text is emitted twice; every token carries the byte span of its source
//     text, and Text is always strings.ToLower(input[Start:End]).
//
// Text of no known language gets only the language-neutral rules (no operators, no affixes).
package tokenizer

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/quarrysearch/quarry/languages"
)

// Kind tells where a token comes from.
type Kind uint8

// Token kinds.
const (
	Word     Kind = iota // a whole word
	Part                 // a snake_case segment or a CamelCase/digit atom of a word
	Variant              // a word without an affix, prefix or suffix
	Operator             // a preserved operator of the language
)

var kindNames = [...]string{Word: "word", Part: "part", Variant: "variant", Operator: "operator"}

// String returns the kind's name as shown by `quarry tokens`.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + string(rune('0'+k)) + ")"
}

// Token is one term with the span of the input it was made from.
type Token struct {
	Text  string // lower-case term
	Start int    // byte offset of the source text
	End   int    // byte offset just past the source text
	Pos   int    // ordinal of the word or operator the token belongs to
	Kind  Kind
	Atoms int // distinct atoms (indivisible parts) the token spans; more than one marks a compound
}

// Limits of the splitter.
const (
	// MaxSplitLen is the longest word, in bytes, that is split into parts; longer ones
	// (base64, generated names) are indexed whole.
	MaxSplitLen = 256
	// MinRemainder is the fewest characters an affix-stripped remainder must keep.
	MinRemainder = 2
)

type affix struct {
	text  string
	snake bool // matched ignoring case, at an underscore
}

// Tokenizer applies one language's rules. It is safe for concurrent use.
type Tokenizer struct {
	lang     string
	patterns []string     // longest first
	patFirst [256]bool    // first bytes of patterns
	prefixes [256][]affix // by the lower case of their first byte
	suffixes [256][]affix // by the lower case of their last byte
}

// New returns the tokenizer for lang; a nil lang gives the language-neutral rules.
func New(lang *languages.Language) *Tokenizer {
	t := &Tokenizer{}
	if lang == nil {
		return t
	}
	t.lang = lang.Name
	t.patterns = append([]string(nil), lang.Tokenizer.PreservePatterns...)
	sort.SliceStable(t.patterns, func(i, j int) bool { return len(t.patterns[i]) > len(t.patterns[j]) })
	for _, p := range t.patterns {
		t.patFirst[p[0]] = true
	}
	addPrefix := func(a affix) { k := lowerByte(a.text[0]); t.prefixes[k] = append(t.prefixes[k], a) }
	addSuffix := func(a affix) { k := lowerByte(a.text[len(a.text)-1]); t.suffixes[k] = append(t.suffixes[k], a) }
	for _, a := range lang.Tokenizer.MeaningfulAffixes {
		if strings.HasSuffix(a, "_") {
			addPrefix(affix{a, true})
		} else {
			addSuffix(affix{a, true})
		}
	}
	for _, p := range lang.Variants.StripPrefixes {
		addPrefix(affix{p, strings.HasSuffix(p, "_")})
	}
	for _, s := range lang.Variants.StripSuffixes {
		addSuffix(affix{s, strings.HasPrefix(s, "_")})
	}
	return t
}

// Language returns the name of the language whose rules t applies, or "" for neutral rules.
func (t *Tokenizer) Language() string { return t.lang }

// Tokenize returns the tokens of input in order of their start offset (longer first at equal
// starts).
func (t *Tokenizer) Tokenize(input string) []Token {
	return t.Append(nil, input)
}

// Append appends the tokens of input to dst and returns the extended slice, so a caller that
// tokenizes many inputs can reuse one buffer.
func (t *Tokenizer) Append(dst []Token, input string) []Token {
	s := scanner{t: t, input: input, dst: dst}
	s.lower, s.irregular = lower(input)
	s.run()
	return s.dst
}

// Query tokenizes a search query: the same tokens as Tokenize, without the compounds whose
// parts are all present (see FilterCompounds).
func (t *Tokenizer) Query(q string) []Token {
	return FilterCompounds(t.Tokenize(q))
}

// FilterCompounds drops each compound token (getuserdata, search_term) whose atoms all occur
// as tokens too, so that requiring every query token matches the atoms a differently spelled
// or longer name was indexed with: "search_term" finds search_term_one, and getUserData finds
// get_user_data.
func FilterCompounds(tokens []Token) []Token {
	present := make(map[string]bool, len(tokens))
	for _, tok := range tokens {
		present[tok.Text] = true
	}
	out := tokens[:0:0]
	for i, tok := range tokens {
		if tok.Atoms > 1 && atomsPresent(tokens, i, present) {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// atomsPresent reports whether all the distinct atoms of tokens[i] occur among tokens.
func atomsPresent(tokens []Token, i int, present map[string]bool) bool {
	c, n := tokens[i], 0
	for _, tok := range tokens {
		if tok.Pos == c.Pos && tok.Atoms == 1 && tok.Start >= c.Start && tok.End <= c.End && present[tok.Text] {
			n++
		}
	}
	return n >= c.Atoms
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lower returns input lower-cased rune by rune, keeping every byte offset. A rune whose lower
// case has another UTF-8 length is copied unchanged and irregular is set; tokens over such a
// rune lower their text on their own. Bytes that are not valid UTF-8 are copied unchanged.
func lower(input string) (string, bool) {
	i := 0
	for i < len(input) {
		c := input[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			break
		}
		i++
	}
	if i == len(input) {
		return input, false
	}
	buf := []byte(input)
	irregular := false
	for i < len(buf) {
		c := buf[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				buf[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(input[i:])
		if r == utf8.RuneError {
			i += size
			continue
		}
		if l := unicode.ToLower(r); l != r {
			if utf8.RuneLen(l) == size {
				utf8.EncodeRune(buf[i:], l)
			} else {
				irregular = true
			}
		}
		i += size
	}
	return unsafe.String(&buf[0], len(buf)), irregular // buf is never written again
}

// Atoms appends the atoms of input's words to dst, in order and lower-cased, and returns
// the extended slice: each indivisible part (a word of one part, or the CamelCase, snake_case
// and digit parts of a longer one), without operators, compounds or affix variants. They
// are the words of the code-search model (package codemodel).
func (t *Tokenizer) Atoms(dst []string, input string) []string {
	for _, tok := range t.Tokenize(input) {
		if tok.Atoms == 1 && (tok.Kind == Word || tok.Kind == Part) {
			dst = append(dst, tok.Text)
		}
	}
	return dst
}
