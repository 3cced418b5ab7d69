package search

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/scoring"
)

type pathEntry struct {
	path, lower, lang string
	name              string  // the lower-cased file name (a suffix of lower)
	bytes             byteSet // the bytes of lower
}

func newPathEntry(p, lang string) pathEntry {
	e := pathEntry{path: p, lower: strings.ToLower(p), lang: lang}
	e.name = e.lower[strings.LastIndexByte(e.lower, '/')+1:]
	e.bytes.addAll(e.lower)
	return e
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) addAll(text string) {
	for i := 0; i < len(text); i++ {
		s[text[i]>>6] |= 1 << (text[i] & 63)
	}
}

// holds reports whether every byte of t is in s.
func (s *byteSet) holds(t *byteSet) bool {
	return t[0]&^s[0] == 0 && t[1]&^s[1] == 0 && t[2]&^s[2] == 0 && t[3]&^s[3] == 0
}

// loadPaths reads the indexed paths once. SQLite joins them into one string: a row per
// file through database/sql costs microseconds each (cgo calls), 70 ms for 22,000 files.
func (s *Searcher) loadPaths(ctx context.Context) ([]pathEntry, error) {
	s.pathsOnce.Do(func() {
		var all sql.NullString
		err := s.store.DB().QueryRowContext(ctx, `SELECT group_concat(path || char(9) || language, char(10)) FROM files WHERE skipped = ''`).Scan(&all)
		if err != nil {
			s.pathsErr = fmt.Errorf("index: list files: %w", err)
			return
		}
		for line := range strings.SplitSeq(all.String, "\n") {
			p, lang, ok := strings.Cut(line, "\t")
			if !ok {
				continue
			}
			s.paths = append(s.paths, newPathEntry(p, lang))
		}
	})
	return s.paths, s.pathsErr
}

// files returns up to want paths matching q, best first.
func (s *Searcher) files(ctx context.Context, req Request, q *query.Query, keepTests bool, want int) ([]Hit, error) {
	paths, err := s.loadPaths(ctx)
	if err != nil {
		return nil, err
	}
	needle := strings.ToLower(strings.TrimSpace(strings.Trim(q.String(), `"`)))
	needle = strings.TrimPrefix(strings.TrimPrefix(needle, "./"), "/")
	frags := strings.FieldsFunc(needle, func(r rune) bool { return strings.ContainsRune("/._- \\", r) })
	if len(frags) == 0 {
		return nil, ErrEmptyQuery
	}
	m := pathMatcher{needle: needle, folded: scoring.Fold(needle), frags: frags}
	for _, f := range frags {
		m.need.addAll(f)
	}
	var hits []Hit
	for _, e := range paths {
		if req.Language != "" && e.lang != req.Language {
			continue
		}
		score := m.match(&e)
		if score == 0 || !req.Pattern.Match(e.path) {
			continue
		}
		class := scoring.Classify(e.path)
		if req.Tests == TestsExclude && class == scoring.Test {
			continue
		}
		score = scoring.PathScore(score, e.path, class, keepTests)
		hits = append(hits, Hit{Hit: HitFile, Path: e.path, Language: e.lang, Line: 1, EndLine: 1, Score: score, class: class})
	}
	sortHits(hits, nil)
	if len(hits) > want {
		hits = hits[:want]
	}
	return hits, nil
}

// pathMatcher scores how paths match a lower-cased needle.
type pathMatcher struct {
	needle, folded string
	frags          []string // the needle split at / . _ - and spaces
	// need holds the bytes of frags. A path that matches in any way holds them all (each
	// way holds the needle, its folded form or its fragments), and most paths lack one: a
	// check of four words skips them (the files target of a warm search scanned every
	// path of 25,000 with several string searches, 1.3 ms a query on corpus.sh full).
	need byteSet
}

// match scores how e matches; 0 is no match.
func (m *pathMatcher) match(e *pathEntry) float64 {
	if !e.bytes.holds(&m.need) {
		return 0
	}
	p := e.lower
	switch {
	case e.name == m.needle:
		return scoring.PathExactName
	case p == m.needle || strings.HasSuffix(p, m.needle) && p[len(p)-len(m.needle)-1] == '/':
		return scoring.PathExactPath
	case strings.HasPrefix(e.name, m.needle):
		return scoring.PathNamePrefix
	case foldEqual(stem(e.name), m.folded):
		return scoring.PathStemMatch
	case strings.Contains(e.name, m.needle):
		return scoring.PathNameContains
	case strings.Contains(p, m.needle):
		return scoring.PathContains
	}
	rest := p
	for _, f := range m.frags {
		i := strings.Index(rest, f)
		if i < 0 {
			return 0
		}
		rest = rest[i+len(f):]
	}
	return scoring.PathFragments
}

// stem returns a file name without its extension.
func stem(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return name
}

// foldEqual reports whether scoring.Fold(s) == folded, for a lower-case s, without
// allocating.
func foldEqual(s, folded string) bool {
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' || c == ' ' {
			continue
		}
		if c >= utf8.RuneSelf {
			return scoring.Fold(s) == folded
		}
		if j >= len(folded) || folded[j] != c {
			return false
		}
		j++
	}
	return j == len(folded)
}
