package search

// The matcher decides whether a candidate — a symbol, a file, a line — matches a
// query-language expression, from what the store holds. It is the exact half of an
// expression search: the full-text index proposes, the matcher disposes.

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/store"
)

// matcher is an expression compiled for matching stored records.
type matcher struct {
	// tokens tokenizes text by the index's rules of a language, as its documents were.
	tokens func(lang, text string) []string
	// queryTokens tokenizes a word of the query, as compileExpr did.
	queryTokens func(text string) []string
	root        query.Node
	leaves      map[*query.Leaf]*leafMatch
	// lineRanges are the top-level line: conditions of a content search: a line shown
	// must satisfy each.
	lineRanges []*query.Range
	// shown are the leaves whose matches make a line a content hit: the bare and content:
	// leaves not under a NOT.
	shown []*leafMatch
}

// leafMatch is one leaf, ready to match.
type leafMatch struct {
	l         *query.Leaf
	sensitive bool
	needle    []byte         // a word or phrase (lower-case unless sensitive)
	ascii     bool           // needle is ASCII: matched by folding ASCII letters only
	re        *regexp.Regexp // a regex, prefix, wildcard or sloppy phrase, on one line or value
	fileRe    *regexp.Regexp // re over a whole file: ^ and $ at line ends
	cover     []query.Need   // literals every regex match holds (nil: none known)
	need      query.Need
	glob      *query.FilePattern // a path glob
	words     []string           // a sloppy phrase's words
}

// newMatcher compiles req.Expr for s's index.
func (s *Searcher) newMatcher(req Request) (*matcher, error) {
	m := &matcher{root: req.Expr, leaves: map[*query.Leaf]*leafMatch{}, queryTokens: s.exprTokens(req)}
	m.tokens = func(lang, text string) []string {
		var out []string
		for _, t := range s.ft.Tokenizer(lang).Tokenize(text) {
			out = append(out, t.Text)
		}
		return out
	}
	var err error
	query.Walk(req.Expr, func(n query.Node, neg bool) {
		l, ok := n.(*query.Leaf)
		if !ok || err != nil {
			return
		}
		var lm *leafMatch
		if lm, err = compileLeaf(l, req.Case); err == nil {
			m.leaves[l] = lm
			if !neg && (l.Field == "" || l.Field == "content") {
				m.shown = append(m.shown, lm)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	top := []query.Node{req.Expr}
	if b, ok := req.Expr.(*query.Bool); ok && b.Op == query.And {
		top = b.Clauses
	}
	for _, c := range top {
		if r, ok := c.(*query.Range); ok && r.Field == "line" {
			m.lineRanges = append(m.lineRanges, r)
		}
	}
	return m, nil
}

// compileLeaf prepares one leaf.
func compileLeaf(l *query.Leaf, cs query.Case) (*leafMatch, error) {
	lm := &leafMatch{l: l, sensitive: cs.Sensitive(l.Kind, l.Text)}
	flags := ""
	if !lm.sensitive {
		flags = "(?i)"
	}
	var src string
	switch l.Kind {
	case query.Word, query.Phrase:
		lm.needle = []byte(l.Text)
		if !lm.sensitive {
			lm.needle = bytes.ToLower(lm.needle)
		}
		lm.ascii = isASCII([]string{l.Text})
		if l.Kind == query.Phrase && l.Slop > 0 {
			lm.words = strings.Fields(strings.ToLower(l.Text))
			parts := make([]string, len(lm.words))
			for i, w := range lm.words {
				parts[i] = regexp.QuoteMeta(w)
			}
			// each word in order, at most Slop other words between two of them
			src = strings.Join(parts, fmt.Sprintf(`(?:\W+\w+){0,%d}?\W+`, l.Slop))
			lm.needle = nil
		}
		if l.Field == "path" && (l.Kind == query.Word && strings.ContainsAny(l.Text, "[{")) {
			p, err := query.ParseFilePattern(l.Text)
			if err != nil {
				return nil, badRequest("query", "path:%s: %v", l.Text, err)
			}
			lm.glob, lm.needle = p, nil
		}
	case query.PhrasePrefix:
		src = regexp.QuoteMeta(l.Text)
	case query.Prefix:
		src = `\b` + regexp.QuoteMeta(l.Text)
	case query.Wildcard:
		if l.Field == "path" {
			p, err := query.ParseFilePattern(l.Text)
			if err != nil {
				return nil, badRequest("query", "path:%s: %v", l.Text, err)
			}
			lm.glob = p
			return lm, nil
		}
		src = wildcardRegexp(l.Text, wholeValue(l.Field))
	case query.Regex:
		src = l.Text
		lm.need = query.RegexNeed(l.Text, !lm.sensitive)
		lm.cover = lm.need.Cover()
		for _, c := range lm.cover {
			if c.Fold && !isASCII([]string{c.Lit}) {
				lm.cover = nil // folding non-ASCII literals byte-wise could miss lines
				break
			}
		}
	case query.Fuzzy, query.Exists:
		return lm, nil
	}
	if src != "" {
		re, err := regexp.Compile(flags + src)
		if err != nil {
			return nil, badRequest("query", "invalid regex %q: %v", l.Text, err)
		}
		lm.re = re
		if lm.fileRe, err = regexp.Compile(flags + "(?m)" + src); err != nil {
			return nil, badRequest("query", "invalid regex %q: %v", l.Text, err)
		}
	}
	return lm, nil
}

// wholeValue reports whether a field's wildcard matches its whole value (a name, a
// parent's name, an extension) rather than a word within text.
func wholeValue(field string) bool { return field == "name" || field == "parent" || field == "ext" }

// wildcardRegexp turns a wildcard (* any characters, ? one) into a regexp: over the whole
// value, or over one word of a text.
func wildcardRegexp(w string, whole bool) string {
	var b strings.Builder
	star, one := `\w*`, `\w`
	if whole {
		star, one = ".*", "."
		b.WriteString("^")
	} else {
		b.WriteString(`\b`)
	}
	for _, r := range w {
		switch r {
		case '*':
			b.WriteString(star)
		case '?':
			b.WriteString(one)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if whole {
		b.WriteString("$")
	} else {
		b.WriteString(`\b`)
	}
	return b.String()
}

// textMatch reports whether text holds a match of lm (for symbol fields and paths: the
// value; for content: a file or a line).
func (lm *leafMatch) textMatch(text []byte) bool {
	switch {
	case lm.l.Kind == query.Exists:
		return len(text) > 0
	case lm.glob != nil:
		return lm.glob.Match(string(text))
	case lm.needle != nil:
		if lm.sensitive {
			return bytes.Contains(text, lm.needle)
		}
		if lm.ascii {
			return containsFoldASCII(text, string(lm.needle))
		}
		return bytes.Contains(bytes.ToLower(text), lm.needle)
	case lm.l.Kind == query.Fuzzy:
		return fuzzyFind(text, lm.l.Text, lm.l.Edits) >= 0
	case lm.re != nil:
		if lm.cover != nil {
			return lm.coverMatch(text)
		}
		return lm.fileRe.Match(text)
	}
	return false
}

// coverMatch reports whether a line of text holds a match, running the regex only on the
// lines that hold one of its literals: a regex over a whole file is many times slower than
// finding the literals.
func (lm *leafMatch) coverMatch(text []byte) bool {
	found := false
	lm.coverLines(text, lineBounds(text), func(int, int) { found = true }, func() bool { return found })
	return found
}

// lineBounds returns the function giving the start and end of the line holding offset i of
// text.
func lineBounds(text []byte) func(int) (int, int) {
	return func(i int) (int, int) {
		s := bytes.LastIndexByte(text[:i], '\n') + 1
		e := bytes.IndexByte(text[i:], '\n')
		if e < 0 {
			return s, len(text)
		}
		return s, i + e
	}
}

// symbolRecord is what the matcher reads of a symbol besides its hit: the rest of its row.
type symbolRecord struct {
	doc, visibility    string
	startByte, endByte int
}

// bodyCache reads the text of symbols' files once per search.
type bodyCache struct {
	store *store.Store
	files map[string][]byte
}

func (c *bodyCache) body(ctx context.Context, h *Hit) ([]byte, error) {
	if c.files == nil {
		c.files = map[string][]byte{}
	}
	content, ok := c.files[h.Path]
	if !ok {
		var err error
		if _, content, err = c.store.FileContent(ctx, h.Path); err != nil {
			return nil, err
		}
		c.files[h.Path] = content
	}
	r := h.rec
	if r == nil || r.startByte < 0 || r.endByte > len(content) || r.startByte > r.endByte {
		return nil, nil
	}
	return content[r.startByte:r.endByte], nil
}

// symbol reports whether the symbol of h matches.
func (m *matcher) symbol(ctx context.Context, h *Hit, bodies *bodyCache) (bool, error) {
	var err error
	ok := m.eval(m.root, func(l *query.Leaf) bool {
		lm := m.leaves[l]
		switch l.Field {
		case "", "body":
			if l.Field == "" {
				for _, f := range []string{h.Name, h.Signature, h.rec.doc} {
					if m.symbolText(lm, h.Language, []byte(f)) {
						return true
					}
				}
			}
			if k, ok := extract.KindNamed(h.Kind); !ok || !k.HasBody() {
				return false
			}
			b, e := bodies.body(ctx, h)
			if e != nil {
				err = e
				return false
			}
			return m.symbolText(lm, h.Language, b)
		case "name":
			if wholeValue(l.Field) && l.Kind == query.Wildcard {
				return lm.valueMatch(h.Name)
			}
			return m.symbolText(lm, h.Language, []byte(h.Name))
		case "signature":
			return m.symbolText(lm, h.Language, []byte(h.Signature))
		case "doc":
			return m.symbolText(lm, h.Language, []byte(h.rec.doc))
		case "parent":
			return lm.valueMatch(h.parent)
		case "kind":
			return lm.valueMatch(h.Kind)
		case "visibility":
			return lm.valueMatch(h.rec.visibility)
		}
		return m.fileLeaf(lm, h.Path, h.Language, nil)
	}, func(r *query.Range) bool {
		return rangeMatch(r, h.Line, map[string]string{"name": h.Name, "parent": h.parent, "ext": extOf(h.Path)}[r.Field])
	})
	return ok, err
}

// symbolText matches a text field of a symbol the way the full-text index does: a word by
// its tokens (get_user_data finds getUserData), a prefix or fuzzy word against each token;
// case-sensitive words must also occur as written. Phrases, wildcards and regexes match
// the text itself.
func (m *matcher) symbolText(lm *leafMatch, lang string, text []byte) bool {
	if len(text) == 0 {
		return false
	}
	switch lm.l.Kind {
	case query.Word, query.Prefix, query.Fuzzy:
	default:
		return lm.textMatch(text)
	}
	if lm.sensitive && !bytes.Contains(text, []byte(lm.l.Text)) {
		return false
	}
	have := m.tokens(lang, string(text))
	switch lm.l.Kind {
	case query.Prefix:
		p := strings.ToLower(lm.l.Text)
		for _, t := range have {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	case query.Fuzzy:
		w := []rune(strings.ToLower(lm.l.Text))
		for _, t := range have {
			if levenshtein([]rune(t), w) <= lm.l.Edits {
				return true
			}
		}
		return false
	}
	want := m.queryTokens(lm.l.Text)
	if len(want) == 0 {
		return lm.textMatch(text)
	}
	for _, t := range want {
		found := false
		for _, h := range have {
			if h == t {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// valueMatch matches a whole value (a keyword or enum field): exactly (ignoring case unless
// sensitive), by wildcard or regex, or that it exists.
func (lm *leafMatch) valueMatch(v string) bool {
	switch lm.l.Kind {
	case query.Word, query.Phrase:
		if lm.sensitive {
			return v == lm.l.Text
		}
		return strings.EqualFold(v, lm.l.Text)
	case query.Exists:
		return v != ""
	}
	if lm.re != nil {
		return lm.re.MatchString(v)
	}
	return false
}

// fileLeaf matches the leaves about a file: path, ext, lang, and (with content) bare and
// content: terms.
func (m *matcher) fileLeaf(lm *leafMatch, p, lang string, content []byte) bool {
	switch lm.l.Field {
	case "path":
		if lm.l.Kind == query.Word || lm.l.Kind == query.Phrase {
			if lm.glob != nil {
				return lm.glob.Match(p)
			}
			return strings.Contains(p, lm.l.Text) // paths are case-sensitive
		}
		if lm.l.Kind == query.Regex {
			return lm.re.MatchString(p)
		}
		return lm.textMatch([]byte(p))
	case "ext":
		ext := strings.TrimPrefix(path.Ext(p), ".")
		if lm.l.Kind == query.Word {
			return strings.EqualFold(ext, lm.l.Text)
		}
		return lm.valueMatch(ext)
	case "lang":
		return lm.valueMatch(lang)
	case "", "content":
		return content != nil && lm.textMatch(content)
	}
	return false
}

// file reports whether a file with content matches, line: conditions aside (they choose
// its lines).
func (m *matcher) file(p, lang string, content []byte) bool {
	return m.eval(m.root, func(l *query.Leaf) bool { return m.fileLeaf(m.leaves[l], p, lang, content) },
		func(r *query.Range) bool { return r.Field != "ext" || rangeMatch(r, 0, extOf(p)) })
}

// pathMatches reports whether a file matches as a files-target result: bare words are path
// fragments (ignoring case), content: terms read content.
func (m *matcher) pathMatches(p, lang string, content []byte) bool {
	return m.eval(m.root, func(l *query.Leaf) bool {
		lm := m.leaves[l]
		if l.Field == "" {
			if lm.needle != nil || lm.re != nil {
				if lm.needle != nil {
					return containsFoldASCII([]byte(p), strings.ToLower(l.Text)) || bytes.Contains(bytes.ToLower([]byte(p)), lm.needle)
				}
				return lm.re.MatchString(p)
			}
			return lm.textMatch([]byte(p))
		}
		return m.fileLeaf(lm, p, lang, content)
	}, func(r *query.Range) bool { return r.Field != "ext" || rangeMatch(r, 0, extOf(p)) })
}

// eval evaluates n with leaf and rng deciding the leaves and ranges.
func (m *matcher) eval(n query.Node, leaf func(*query.Leaf) bool, rng func(*query.Range) bool) bool {
	switch x := n.(type) {
	case *query.Bool:
		for _, c := range x.Clauses {
			v := m.eval(c, leaf, rng)
			if x.Op == query.Or && v {
				return true
			}
			if x.Op == query.And && !v {
				return false
			}
		}
		return x.Op == query.And
	case *query.Not:
		return !m.eval(x.X, leaf, rng)
	case *query.Leaf:
		return leaf(x)
	case *query.Range:
		return rng(x)
	}
	return false
}

// extOf returns the extension of p without its dot.
func extOf(p string) string { return strings.TrimPrefix(path.Ext(p), ".") }

// rangeMatch matches a range of line numbers (n) or of a value (a name, a parent's name, an
// extension), compared ignoring case.
func rangeMatch(r *query.Range, n int, value string) bool {
	if r.Field == "line" {
		if r.Lo != "*" {
			lo, _ := strconv.Atoi(r.Lo)
			if n < lo || n == lo && !r.IncLo {
				return false
			}
		}
		if r.Hi != "*" {
			hi, _ := strconv.Atoi(r.Hi)
			if n > hi || n == hi && !r.IncHi {
				return false
			}
		}
		return true
	}
	v := strings.ToLower(value)
	if r.Lo != "*" {
		c := strings.Compare(v, strings.ToLower(r.Lo))
		if c < 0 || c == 0 && !r.IncLo {
			return false
		}
	}
	if r.Hi != "*" {
		c := strings.Compare(v, strings.ToLower(r.Hi))
		if c > 0 || c == 0 && !r.IncHi {
			return false
		}
	}
	return true
}

// lineMatch is a line of a content hit: its number, first match's column (in characters),
// and text.
type lineMatch struct {
	line, column int
	text         []byte
}

// lines returns the lines of content that hold a match of a shown leaf and satisfy the
// top-level line: conditions, in order.
func (m *matcher) lines(content []byte) []lineMatch {
	cols := map[int]int{} // line start offset -> first match offset
	for _, lm := range m.shown {
		lm.lineStarts(content, cols)
	}
	if len(cols) == 0 {
		return nil
	}
	var out []lineMatch
	line := 1
	for start := 0; start <= len(content); {
		end := bytes.IndexByte(content[start:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += start
		}
		if at, ok := cols[start]; ok && m.lineAllowed(line) {
			out = append(out, lineMatch{line: line, column: utf8.RuneCount(content[start:at]) + 1, text: content[start:end]})
		}
		line++
		if end == len(content) {
			break
		}
		start = end + 1
	}
	return out
}

func (m *matcher) lineAllowed(n int) bool {
	for _, r := range m.lineRanges {
		if !rangeMatch(r, n, "") {
			return false
		}
	}
	return true
}

// lineStarts records, for each line of content holding a match of lm, the offset of the
// line's start and of its first match (the smallest seen) in cols.
func (lm *leafMatch) lineStarts(content []byte, cols map[int]int) {
	record := func(lineStart, at int) {
		if prev, ok := cols[lineStart]; !ok || at < prev {
			cols[lineStart] = at
		}
	}
	lineOf := func(i int) (int, int) {
		s := bytes.LastIndexByte(content[:i], '\n') + 1
		e := bytes.IndexByte(content[i:], '\n')
		if e < 0 {
			return s, len(content)
		}
		return s, i + e
	}
	switch {
	case lm.needle != nil:
		hay := content
		switch {
		case lm.sensitive:
		case lm.ascii:
			hay = asciiLower(nil, content)
		default:
			if hay = bytes.ToLower(content); len(hay) != len(content) {
				hay = asciiLower(nil, content) // keep offsets when a rune changes length
			}
		}
		for i := 0; ; {
			j := bytes.Index(hay[i:], lm.needle)
			if j < 0 {
				return
			}
			at := i + j
			s, e := lineOf(at)
			record(s, at)
			i = e + 1
			if i >= len(hay) {
				return
			}
		}
	case lm.l.Kind == query.Fuzzy:
		for s := 0; s < len(content); {
			e := bytes.IndexByte(content[s:], '\n')
			if e < 0 {
				e = len(content)
			} else {
				e += s
			}
			if at := fuzzyFind(content[s:e], lm.l.Text, lm.l.Edits); at >= 0 {
				record(s, s+at)
			}
			s = e + 1
		}
	case lm.re != nil:
		if lm.cover != nil {
			lm.coverLines(content, lineOf, record, func() bool { return false })
			return
		}
		done := -1
		for _, loc := range lm.fileRe.FindAllIndex(content, -1) {
			for i := loc[0]; i <= loc[1] && i <= len(content); {
				s, e := lineOf(min(i, len(content)))
				if s > done {
					done = s
					if at := lm.re.FindIndex(content[s:e]); at != nil {
						record(s, s+at[0])
					}
				}
				i = e + 1
			}
		}
	}
}

// coverLines finds the lines holding a regex match by its literals: only lines holding one
// of them are run through the regex.
func (lm *leafMatch) coverLines(content []byte, lineOf func(int) (int, int), record func(int, int), done func() bool) {
	var lower []byte
	tried := map[int]bool{}
	for _, c := range lm.cover {
		if done() {
			return
		}
		hay, lit := content, []byte(c.Lit)
		if c.Fold {
			if lower == nil {
				lower = asciiLower(nil, content)
			}
			hay = lower
		}
		for i := 0; i < len(hay); {
			j := bytes.Index(hay[i:], lit)
			if j < 0 {
				break
			}
			s, e := lineOf(i + j)
			if !tried[s] {
				tried[s] = true
				if at := lm.re.FindIndex(content[s:e]); at != nil {
					record(s, s+at[0])
					if done() {
						return
					}
				}
			}
			i = e + 1
		}
	}
}

// fuzzyFind returns the offset of the first word of text within edits edits of word
// (ignoring case), or -1.
func fuzzyFind(text []byte, word string, edits int) int {
	w := []rune(strings.ToLower(word))
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if !fulltext.IsWordByte(r) {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRune(text[j:])
			if !fulltext.IsWordByte(r) {
				break
			}
			j += size
		}
		cand := []rune(strings.ToLower(string(text[i:j])))
		if abs(len(cand)-len(w)) <= edits && levenshtein(cand, w) <= edits {
			return i
		}
		i = j
	}
	return -1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// levenshtein returns the edit distance of a and b, a swap of two neighbouring letters
// counting as one edit (optimal string alignment), as the full-text index's fuzzy queries
// count it.
func levenshtein(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
