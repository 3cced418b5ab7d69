package index

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/scoring"
)

// Scores of a path match, best first: how a file name or path fragment matches a path.
const (
	fileExactName    = 100 // the file name itself: index.ts
	fileExactPath    = 95  // the whole path, or its tail on a / boundary: search/mod.rs
	fileNamePrefix   = 70  // the start of the file name: serv for server.go
	fileStemMatch    = 65  // the file name without extension, but for case and _ -: user_service for UserService.java
	fileNameContains = 50  // inside the file name
	filePathContains = 40  // inside the path
	fileFragments    = 25  // every fragment (split at / . _ - and spaces), in order
	// filePathLengthCost prefers, among equal matches, the shorter path.
	filePathLengthCost = 0.01
)

type pathEntry struct {
	path, lower, lang string
	class             scoring.PathClass
}

// loadPaths reads the indexed paths once. SQLite joins them into one string: a row per
// file through database/sql costs microseconds each (cgo calls), 70 ms for 22,000 files.
func (s *Searcher) loadPaths(ctx context.Context) ([]pathEntry, error) {
	s.pathsOnce.Do(func() {
		var all sql.NullString
		err := s.store.db.QueryRowContext(ctx, `SELECT group_concat(path || char(9) || language, char(10)) FROM files WHERE skipped = ''`).Scan(&all)
		if err != nil {
			s.pathsErr = fmt.Errorf("index: list files: %w", err)
			return
		}
		for line := range strings.SplitSeq(all.String, "\n") {
			p, lang, ok := strings.Cut(line, "\t")
			if !ok {
				continue
			}
			s.paths = append(s.paths, pathEntry{path: p, lower: strings.ToLower(p), lang: lang, class: scoring.Classify(p)})
		}
	})
	return s.paths, s.pathsErr
}

// files returns up to want paths matching q, best first.
func (s *Searcher) files(ctx context.Context, req Request, q parsedQuery, keepTests bool, want int) ([]Hit, error) {
	paths, err := s.loadPaths(ctx)
	if err != nil {
		return nil, err
	}
	needle := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(q.raw), `"`)))
	needle = strings.TrimPrefix(strings.TrimPrefix(needle, "./"), "/")
	frags := strings.FieldsFunc(needle, func(r rune) bool { return strings.ContainsRune("/._- \\", r) })
	if len(frags) == 0 {
		return nil, ErrEmptyQuery
	}
	var hits []Hit
	for _, e := range paths {
		if req.Tests == TestsExclude && e.class == scoring.Test || req.Language != "" && e.lang != req.Language || !req.Pattern.Match(e.path) {
			continue
		}
		score := matchPath(e.lower, needle, frags)
		if score == 0 {
			continue
		}
		score = (score - filePathLengthCost*float64(len(e.path))) * scoring.PathWeight(e.class, keepTests)
		hits = append(hits, Hit{Hit: HitFile, Path: e.path, Language: e.lang, Line: 1, EndLine: 1, Score: score, class: e.class})
	}
	sortHits(hits, nil)
	if len(hits) > want {
		hits = hits[:want]
	}
	return hits, nil
}

// matchPath scores how the lower-cased path p matches the lower-cased needle and its
// fragments; 0 is no match.
func matchPath(p, needle string, frags []string) float64 {
	name := path.Base(p)
	switch {
	case name == needle:
		return fileExactName
	case p == needle || strings.HasSuffix(p, "/"+needle):
		return fileExactPath
	case strings.HasPrefix(name, needle):
		return fileNamePrefix
	case scoring.Fold(strings.TrimSuffix(name, path.Ext(name))) == scoring.Fold(needle):
		return fileStemMatch
	case strings.Contains(name, needle):
		return fileNameContains
	case strings.Contains(p, needle):
		return filePathContains
	}
	rest := p
	for _, f := range frags {
		i := strings.Index(rest, f)
		if i < 0 {
			return 0
		}
		rest = rest[i+len(f):]
	}
	return fileFragments
}
