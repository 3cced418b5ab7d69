package main

// Pairs that read like questions (issue 42): the names of tests that describe a behaviour,
// and the sentences of comments that name a definition of their package.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/tokenizer"
)

const (
	// minTestWords is the fewest words a test's name must have, its leading "test" left out.
	minTestWords = 2
	// minDescriptiveWords is the fewest words a test's name without a "test" prefix must
	// have to be taken as a description (rejectsExpiredCookie), not a helper (setUp).
	minDescriptiveWords = 3
	// minMentionWords is the fewest words a mentioning sentence keeps without the name's.
	minMentionWords = 3
	// maxMentionsPerComment caps the pairs one comment gives.
	maxMentionsPerComment = 3
)

// stringTest matches a test given by a string: it('retries after a timeout', ...),
// test("parses dates"), specify `...`, it "does x" do (Ruby).
var stringTest = regexp.MustCompile("(?m)\\b(?:it|test|specify|scenario)\\s*\\(?\\s*(?:'([^'\\n]{6,200})'|\"([^\"\\n]{6,200})\"|`([^`\\n]{6,200})`)")

// testUnit is one test of a test file: its description and the bytes of its body.
type testUnit struct {
	text       string
	start, end int
	name       string // the test function's name ("" for a string test)
}

// testPairs returns the pairs of a test file's tests: each test whose name describes a
// behaviour, paired with the definition of its package (defs) it calls most.
func testPairs(tk *tokenizer.Tokenizer, f *extract.File, src []byte, defs map[string]Pair) []Pair {
	var out []Pair
	for _, u := range testUnits(tk, f, src) {
		target := mostCalled(f, u, defs)
		if target == "" {
			continue
		}
		q := testWords(tk, u.text)
		code := defs[target]
		if len(q) < minTestWords || !addsWords(q, strings.Fields(code.Words)) {
			continue
		}
		code.First, code.Doc, code.Source = strings.Join(q, " "), strings.Join(q, " "), SourceTest
		out = append(out, code)
	}
	return out
}

// testUnits lists the tests of a test file: its callables named like a test (a "test"
// prefix and more words, or a name of several words: rejectsExpiredCookie), and the tests
// given by a string (it('...')), each until the next.
func testUnits(tk *tokenizer.Tokenizer, f *extract.File, src []byte) []testUnit {
	var out []testUnit
	for _, s := range f.Symbols {
		if !s.Kind.IsCallable() {
			continue
		}
		w := words(tk, s.Name, maxDocWords)
		prefixed := len(w) > 0 && w[0] == "test"
		if prefixed && len(w)-1 < minTestWords || !prefixed && len(w) < minDescriptiveWords {
			continue
		}
		out = append(out, testUnit{text: s.Name, start: s.StartByte, end: s.EndByte, name: s.Name})
	}
	ms := stringTest.FindAllSubmatchIndex(src, -1)
	for i, m := range ms {
		end := len(src)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		text := ""
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				text = string(src[m[2*g]:m[2*g+1]])
			}
		}
		out = append(out, testUnit{text: text, start: m[0], end: end})
	}
	return out
}

// testWords returns the words of a test's description, without a leading "test".
func testWords(tk *tokenizer.Tokenizer, text string) []string {
	w := words(tk, text, maxDocWords)
	if len(w) > 0 && w[0] == "test" {
		w = w[1:]
	}
	return w
}

// mostCalled returns the definition of defs that the body of u calls most often (the first
// called, on a tie), or "".
func mostCalled(f *extract.File, u testUnit, defs map[string]Pair) string {
	counts := map[string]int{}
	var order []string
	for _, id := range f.Identifiers {
		if id.Kind != extract.Call || id.StartByte < u.start || id.StartByte >= u.end || id.Name == u.name {
			continue
		}
		if _, ok := defs[id.Name]; !ok {
			continue
		}
		if counts[id.Name] == 0 {
			order = append(order, id.Name)
		}
		counts[id.Name]++
	}
	best := ""
	for _, n := range order {
		if best == "" || counts[n] > counts[best] {
			best = n
		}
	}
	return best
}

// addsWords reports whether q holds a word that name does not: a test named after the
// definition alone (TestParse) describes nothing.
func addsWords(q, name []string) bool {
	return slices.ContainsFunc(q, func(w string) bool { return !slices.Contains(name, w) })
}

// sentenceEnd splits a comment into sentences: at a period, question or exclamation mark
// followed by a space or line end, and at a blank line.
var sentenceEnd = regexp.MustCompile(`[.!?](\s|$)|\n\s*\n`)

// codeName matches a name in prose: an identifier, in backquotes or not, with a call's
// parentheses or not.
var codeName = regexp.MustCompile("`?([A-Za-z_][A-Za-z0-9_]{3,})`?(\\(\\))?")

// mentionPairs returns the pairs of the sentences of f's comments that name another
// definition of the package (defs) the way code is named: in backquotes, with (), or with
// an inner capital, underscore or digit (ReadAll, read_all); the sentence without the
// name's words is the query.
func mentionPairs(tk *tokenizer.Tokenizer, f *extract.File, defs map[string]Pair) []Pair {
	var out []Pair
	for _, s := range f.Symbols {
		if s.DocComment == "" {
			continue
		}
		n := 0
		for _, sentence := range sentenceEnd.Split(s.DocComment, -1) {
			for _, m := range codeName.FindAllStringSubmatchIndex(sentence, -1) {
				name := sentence[m[2]:m[3]]
				code, ok := defs[name]
				if !ok || name == s.Name || !looksLikeCode(sentence[m[0]:m[1]], name) {
					continue
				}
				nameWords := strings.Fields(code.Words)
				var q []string
				for _, w := range words(tk, sentence, maxDocWords) {
					if !slices.Contains(nameWords, w) {
						q = append(q, w)
					}
				}
				if len(q) < minMentionWords {
					continue
				}
				code.First, code.Doc, code.Source = strings.Join(q, " "), strings.Join(q, " "), SourceMention
				out = append(out, code)
				if n++; n == maxMentionsPerComment {
					break
				}
			}
			if n == maxMentionsPerComment {
				break
			}
		}
	}
	return out
}

// looksLikeCode reports whether name, as written (written, with its backquotes or
// parentheses), is named the way code is, not a word of the prose that happens to name a
// definition ("open", "close").
func looksLikeCode(written, name string) bool {
	if strings.HasPrefix(written, "`") || strings.HasSuffix(written, "()") || strings.ContainsAny(name, "_0123456789") {
		return true
	}
	return strings.ToLower(name[1:]) != name[1:] // an inner capital: ReadAll, readAll
}

// parseSources reads a -sources list (doc, test, mention) as the set of Pair.Source values
// it names ("" for doc).
func parseSources(list string) (map[string]bool, error) {
	keep := map[string]bool{}
	for _, src := range strings.Split(list, ",") {
		switch src {
		case "doc":
			keep[""] = true
		case SourceTest, SourceMention:
			keep[src] = true
		default:
			return nil, fmt.Errorf("-sources %q: want some of doc, test, mention", list)
		}
	}
	return keep, nil
}
