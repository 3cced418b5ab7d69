package search

// Searching with a query-language expression (Request.Expr): definitions compile the
// expression into a full-text query that finds candidates (fulltext.CompileExpr), content
// and files that read the text into a content index query (exprGrams); every candidate
// is verified against the expression with the stored text (matcher.go) unless the
// full-text query was exact. Content is complete: every matching line of every file, in
// pages (Request.Offset).

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/grams"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/scoring"
)

// Candidate fetching of expression searches.
const (
	// exprRounds bounds the rounds of a definitions search that fetch more candidates when
	// verification rejected too many; each round fetches exprGrowth times more.
	exprRounds = 4
	exprGrowth = 8
	// maxExprCandidates caps the candidate files or symbols one expression search reads.
	maxExprCandidates = 200000
)

// errNoDefinitionTerms is a definitions search whose expression gives the full-text index
// nothing to look up: every symbol would be a candidate.
var errNoDefinitionTerms = badRequest("query", "the query gives the index nothing to look up among definitions (only punctuation, or a regex without literal text): add a word, or a field such as name:, kind:, lang: or parent:")

// budgetLeft reports whether ctx still has time.
func budgetLeft(ctx context.Context) bool { return ctx.Err() == nil }

// exprTokens returns the function that tokenizes a word of the query by the index's rules
// of req's language.
func (s *Searcher) exprTokens(req Request) func(string) []string {
	tk := s.ft.Tokenizer(req.Language)
	return func(text string) []string {
		var out []string
		for _, t := range tk.Query(text) {
			if !slices.Contains(out, t.Text) {
				out = append(out, t.Text)
			}
		}
		return out
	}
}

// exprDefinitions returns up to want definitions matching req.Expr, best first, and
// whether the time budget ran out first.
func (s *Searcher) exprDefinitions(ctx context.Context, req Request, keepTests bool, want int) ([]Hit, bool, error) {
	m, err := s.newMatcher(req)
	if err != nil {
		return nil, false, err
	}
	ft := compileRequest(&req, fulltext.DocSymbol, s.exprTokens(req), s.ft)
	if ft.MatchesAll() {
		return s.exprChildren(ctx, req, keepTests, want, m)
	}
	verify := !ft.Exact || req.Pattern != nil && len(req.Pattern.Exclude) > 0 || req.Tests != TestsRankLower && req.Tests != TestsInclude
	bodies := &bodyCache{store: s.store.Store}
	var hits []Hit
	fetch := max(want*3, minFetch)
	timedOut := false
	for round := 0; round < exprRounds; round++ {
		// the statistics plain searches score with (bleve's own are gathered lazily, so a
		// process's first expression search scored otherwise than its later ones)
		found, total, err := s.ft.SearchExpr(fulltext.WithBM25(ctx, s.bm25.Get(s.store.Store, s.ft)), ft, fetch)
		if err != nil {
			if ctx.Err() != nil {
				timedOut = true
				break
			}
			return nil, false, err
		}
		ids := make([]string, len(found))
		for i, d := range found {
			ids[i] = d.ID
		}
		byID, err := s.store.symbolRecords(ctx, ids)
		if err != nil {
			if ctx.Err() != nil {
				timedOut = true
				break
			}
			return nil, false, err
		}
		hits = hits[:0]
		for _, d := range found {
			h, ok := byID[d.ID]
			if !ok {
				continue
			}
			if verify {
				if !budgetLeft(ctx) {
					timedOut = true
					break
				}
				ok, err := m.symbol(ctx, &h, bodies)
				if err != nil {
					return nil, false, err
				}
				if !ok || !s.admitsTests(req, h.Path) {
					continue
				}
			}
			h.Score = d.Score
			hits = append(hits, h)
		}
		if timedOut || len(hits) >= want || uint64(len(found)) >= total || fetch >= maxExprCandidates {
			break
		}
		fetch = min(fetch*exprGrowth, maxExprCandidates)
	}
	hits = s.scoreDefinitions(req, query.Plain(req.Expr), keepTests, hits)
	if len(hits) > want {
		hits = hits[:want]
	}
	return hits, timedOut, nil
}

// admitsTests reports whether a file at path passes req's test policy and file pattern.
func (s *Searcher) admitsTests(req Request, path string) bool {
	switch req.Tests { // the path's class only when it matters: a search admits thousands
	case TestsExclude:
		if scoring.Classify(path) == scoring.Test {
			return false
		}
	case TestsOnly:
		if scoring.Classify(path) != scoring.Test {
			return false
		}
	}
	return req.Pattern.Match(path)
}

// exprFile is a candidate file of a content or files search.
type exprFile struct {
	path, lang string
	score      float64
}

// exprCandidates lists the candidate files of an expression in a fixed order, the content
// index's (ContentPrior, then path), so the files of one page are a prefix of those of the
// next (paging never skips or repeats a file). With nothing the content index can look
// up, every indexed file is a candidate.
type exprCandidates struct {
	s     *Searcher
	req   Request
	q     *grams.Query
	files []exprFile
	done  bool // files holds every candidate
}

func (s *Searcher) exprCandidates(req Request, bare bool) *exprCandidates {
	return &exprCandidates{s: s, req: req, q: exprGrams(req.Expr, req.Case, bare)}
}

// next returns the i-th candidate; ok is false past the last.
func (c *exprCandidates) next(ctx context.Context, i int) (exprFile, bool, error) {
	if !c.done {
		docs, err := c.s.contentCandidates(ctx, &c.req, c.q)
		if err != nil {
			return exprFile{}, false, err
		}
		c.files = make([]exprFile, len(docs))
		for k, d := range docs {
			c.files[k] = exprFile{path: d.Path, score: 1}
		}
		c.done = true
	}
	if i >= len(c.files) {
		return exprFile{}, false, nil
	}
	return c.files[i], true, nil
}

// exprContent returns matching lines of req.Expr from the offset-th on, up to want, with at
// most perFile lines of a file (0: all), and whether the time budget ran out first. Lines
// are grouped by file, files in exprCandidates's order, lines in order.
func (s *Searcher) exprContent(ctx context.Context, req Request, keepTests bool, offset, want, perFile int) ([]Hit, bool, error) {
	m, err := s.newMatcher(req)
	if err != nil {
		return nil, false, err
	}
	cands := s.exprCandidates(req, true)
	var hits []Hit
	for i := 0; ; i++ {
		if !budgetLeft(ctx) {
			return cut(hits, offset), true, nil
		}
		f, ok, err := cands.next(ctx, i)
		if err != nil {
			if ctx.Err() != nil {
				return cut(hits, offset), true, nil
			}
			return nil, false, err
		}
		if !ok {
			break
		}
		lang, content, err := s.contents.fileContent(ctx, s.store.Store, f.path)
		if err != nil {
			if ctx.Err() != nil {
				return cut(hits, offset), true, nil
			}
			return nil, false, err
		}
		if content == nil || req.Language != "" && lang != req.Language || !m.file(f.path, lang, content) {
			continue
		}
		lines := m.lines(content)
		if perFile > 0 && len(lines) > perFile {
			lines = lines[:perFile]
		}
		class := scoring.Classify(f.path)
		score := f.score * scoring.PathWeight(class, keepTests)
		for _, l := range lines {
			hits = append(hits, Hit{Hit: HitContent, Path: f.path, Language: lang, Line: l.line, EndLine: l.line, Column: l.column,
				Text: store.LineText(l.text), Score: score, class: class})
		}
		if len(hits) >= offset+want {
			break
		}
	}
	return cut(hits, offset), false, nil
}

// cut drops the first offset hits.
func cut(hits []Hit, offset int) []Hit {
	if offset >= len(hits) {
		return nil
	}
	return hits[offset:]
}

// exprPaths returns up to want files matching req.Expr (the files target), best first.
// Paths are matched by the path, ext, lang and test fields and bare words (path
// fragments); a content: field reads the files' text.
func (s *Searcher) exprPaths(ctx context.Context, req Request, keepTests bool, offset, want int) ([]Hit, bool, error) {
	m, err := s.newMatcher(req)
	if err != nil {
		return nil, false, err
	}
	readsText := len(query.Leaves(req.Expr, "content")) > 0
	var cands []exprFile
	if readsText {
		c := s.exprCandidates(req, false)
		for i := 0; ; i++ {
			f, ok, err := c.next(ctx, i)
			if err != nil {
				if ctx.Err() != nil {
					return nil, true, nil
				}
				return nil, false, err
			}
			if !ok {
				break
			}
			cands = append(cands, f)
		}
	} else {
		paths, err := s.loadPaths(ctx)
		if err != nil {
			return nil, false, err
		}
		for _, e := range paths {
			if req.Language != "" && e.lang != req.Language {
				continue
			}
			cands = append(cands, exprFile{path: e.path, lang: e.lang})
		}
	}
	plain := query.Plain(req.Expr)
	var hits []Hit
	for _, f := range cands {
		if !budgetLeft(ctx) {
			return cut(hits, offset), true, nil
		}
		var content []byte
		if readsText {
			if f.lang, content, err = s.contents.fileContent(ctx, s.store.Store, f.path); err != nil || content == nil {
				continue
			}
			if req.Language != "" && f.lang != req.Language {
				continue
			}
		}
		if !m.pathMatches(f.path, f.lang, content) || !readsText && !s.admitsTests(req, f.path) {
			continue
		}
		class := scoring.Classify(f.path)
		score := f.score
		if !readsText {
			score = pathScore(plain, f.path) * scoring.PathWeight(class, keepTests)
		}
		hits = append(hits, Hit{Hit: HitFile, Path: f.path, Language: f.lang, Line: 1, EndLine: 1, Score: score, class: class})
	}
	sortHits(hits, nil)
	hits = cut(hits, offset)
	if len(hits) > want {
		hits = hits[:want]
	}
	return hits, false, nil
}

// pathScore scores a path for the plain words of q (1 when it has none): the files
// target's matching of names and fragments.
func pathScore(q *query.Query, p string) float64 {
	words := q.Words()
	if len(words) == 0 {
		return 1
	}
	e := newPathEntry(p, "")
	total := 0.0
	for _, w := range words {
		needle := strings.ToLower(w)
		frags := strings.FieldsFunc(needle, func(r rune) bool { return strings.ContainsRune("/._- \\", r) })
		if len(frags) == 0 {
			continue
		}
		m := pathMatcher{needle: needle, folded: scoring.Fold(needle), frags: frags}
		total += max(m.match(&e), 0.01)
	}
	return total
}

// exprSearch runs an expression search for req's target.
func (s *Searcher) exprSearch(ctx context.Context, req Request, keepTests bool) (hits []Hit, timedOut bool, err error) {
	want := req.Limit + 1
	switch req.Target {
	case TargetDefinitions:
		hits, timedOut, err = s.exprDefinitions(ctx, req, keepTests, want)
		foldPromotion(hits)
		return hits, timedOut, err
	case TargetContent:
		return s.exprContent(ctx, req, keepTests, req.Offset, want, 0)
	case TargetFiles:
		return s.exprPaths(ctx, req, keepTests, req.Offset, want)
	}
	// auto: each target every field of the expression applies to, ranked together.
	targets := query.Targets(req.Expr)
	var defs, lines, files []Hit
	for _, t := range targets {
		var got []Hit
		var out bool
		switch Target(t) {
		case TargetDefinitions:
			got, out, err = s.exprDefinitions(ctx, req, keepTests, want)
			if err == errNoDefinitionTerms && len(targets) > 1 {
				err = nil // the other targets still search
			}
			defs = got
		case TargetContent:
			got, out, err = s.exprContent(ctx, req, keepTests, 0, want, maxContentLinesPerFile)
			lines = got
		case TargetFiles:
			got, out, err = s.exprPaths(ctx, req, keepTests, 0, want)
			files = got
		}
		if err != nil {
			return nil, false, err
		}
		timedOut = timedOut || out
	}
	w := scoring.WordsWeights
	if plain := query.Plain(req.Expr); len(plain.Terms) > 0 {
		w = autoWeights[s.shape(plain)]
	}
	lines = dropLines(lines, defs)
	var all []Hit
	all = appendNormalized(all, defs, w.Definition)
	all = appendNormalized(all, lines, w.Content)
	all = appendNormalized(all, files, w.File)
	sortHits(all, nil)
	return all, timedOut, nil
}

// symbolRecords returns the symbols ids as hits with the rest of their rows (doc comment,
// visibility, byte span), by id.
func (s rows) symbolRecords(ctx context.Context, ids []string) (map[string]Hit, error) {
	out := make(map[string]Hit, len(ids))
	for len(ids) > 0 {
		batch := ids[:min(len(ids), store.MaxSQLParams)]
		ids = ids[len(batch):]
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
		}
		rows, err := s.DB().QueryContext(ctx, `SELECT `+symbolColumns+`, s.doc_comment, s.start_byte, s.end_byte FROM `+symbolsFrom+
			` WHERE s.id IN (?`+strings.Repeat(",?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("index: read symbols: %w", err)
		}
		for rows.Next() {
			h := Hit{Hit: HitDefinition, rec: &symbolRecord{}, spanRead: true}
			if err := rows.Scan(&h.SymbolID, &h.Path, &h.Name, &h.Kind, &h.Language, &h.Signature, &h.Line, &h.EndLine, &h.visibility, &h.declaration, &h.parent,
				&h.example, &h.parentKind, &h.startColumn, &h.startByte, &h.rec.doc, &h.rec.startByte, &h.rec.endByte); err != nil {
				rows.Close()
				return nil, err
			}
			h.rec.visibility = h.visibility
			out[h.SymbolID] = h
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compileRequest compiles req's expression for docType's documents, with req's filters.
func compileRequest(req *Request, docType string, tokens func(string) []string, ft *fulltext.Index) fulltext.ExprQuery {
	return fulltext.CompileExpr(req.Expr, docType, req.Case, tokens, ft).Within(filterOf(req))
}
