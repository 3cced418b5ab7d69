package search

import (
	"context"
	"errors"
	"path"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/scoring"
)

// queryShape is what a query looks like, which decides how auto weighs the targets.
type queryShape int

const (
	shapeIdentifier queryShape = iota // one word: a name
	shapeFile                         // one word with a / or a known file extension
	shapeWords                        // several bare words: natural phrasing
	shapePhrase                       // quoted text
)

// autoWeights are the weights of definition, content and file hits per query shape.
var autoWeights = map[queryShape]scoring.TargetWeights{
	shapeIdentifier: scoring.IdentifierWeights,
	shapeFile:       scoring.FileNameWeights,
	shapeWords:      scoring.WordsWeights,
	shapePhrase:     scoring.PhraseWeights,
}

// docExtensions are file extensions that make a one-word query a file name although no
// language claims them (those a language claims, .md and .yaml among them, do so through
// the registry).
var docExtensions = map[string]bool{
	".txt": true, ".json": true, ".xml": true, ".cfg": true, ".ini": true, ".lock": true, ".mod": true, ".sum": true,
}

// textPunct reports whether a query holds punctuation that names never do (a colon or
// comma ending a word, brackets, quotes, operators), so that several words with it are
// text to find as written rather than words naming a definition. Qualifiers (. :: ->) and
// the separators of names (_ -) do not count.
func textPunct(raw string) bool {
	for _, w := range strings.Fields(raw) {
		t := strings.NewReplacer("::", "", "->", "").Replace(w)
		if strings.ContainsAny(t, ":;,(){}[]<>=!?'`@$%^&*+|\\~") {
			return true
		}
	}
	return false
}

func (s *Searcher) shape(q *query.Query) queryShape {
	words := q.Words()
	switch {
	case len(q.Phrases()) > 0:
		return shapePhrase
	case len(words) > 1 && textPunct(q.String()):
		return shapePhrase // TODO: remove, panic: unreachable: text, not names
	case len(words) > 1:
		return shapeWords
	}
	w := words[0]
	if strings.Contains(w, "/") {
		return shapeFile
	}
	if ext := strings.ToLower(path.Ext(w)); ext != "" && ext != w {
		if docExtensions[ext] || s.reg.ForPath(strings.ToLower(w)) != nil {
			return shapeFile
		}
	}
	if s.reg.ForPath(w) != nil { // Makefile, Dockerfile, ...
		return shapeFile
	}
	return shapeIdentifier
}

// auto ranks definitions, content lines and files together.
func (s *Searcher) auto(ctx context.Context, req Request, q *query.Query, keepTests bool) ([]Hit, bool, error) {
	want := req.Limit + 1
	if len(req.Kinds) > 0 { // only symbols have kinds
		defs, defRelaxed, err := s.definitions(ctx, req, q, keepTests, want)
		if err != nil {
			return nil, false, err
		}
		for i := range defs {
			defs[i].bonus = 0
		}
		return defs, defRelaxed, nil
	}
	// The three searches are independent: they run at once, on the cores there are.
	var (
		wg               sync.WaitGroup
		lines, files     []Hit
		lineRelaxed      bool
		lineErr, fileErr error
	)
	cq := contentQuery(q)
	wg.Go(func() { lines, lineRelaxed, lineErr = s.content(ctx, req, cq, keepTests, want, maxContentLinesPerFile) })
	wg.Go(func() { files, fileErr = s.files(ctx, req, q, keepTests, want) })
	defs, defRelaxed, err := s.definitions(ctx, req, q, keepTests, want)
	wg.Wait()
	if err != nil {
		return nil, false, err
	}
	if lineErr != nil && !errors.Is(lineErr, ErrNoContentIndex) { // an old index: its definitions and files still answer, and freshness says why no line does
		return nil, false, lineErr
	}
	if fileErr != nil && fileErr != ErrEmptyQuery {
		return nil, false, fileErr
	}
	shape := s.shape(q)
	w := autoWeights[shape]
	// A definition and a content hit on the same line are one answer: for a quoted phrase
	// the line (text was asked for), else the definition.
	if shape == shapePhrase {
		defs = dropLines(defs, lines)
	} else {
		lines = dropLines(lines, defs)
		lines = dropHeads(lines, defs)
	}
	var all []Hit
	all = appendNormalized(all, defs, w.Definition)
	all = appendNormalized(all, lines, w.Content)
	for i := range files {
		files[i].bonus = fileBonus(shape, q, files[i].Path)
	}
	all = appendNormalized(all, files, w.File)
	sortHits(all, nil)
	// Relaxed only if what is shown came from a relaxed search.
	relaxed := len(all) > 0 && (all[0].Hit == HitDefinition && defRelaxed || all[0].Hit == HitContent && lineRelaxed)
	return all, relaxed, nil
}

// contentQuery is the query auto's content search runs for q: for a prose query, q without
// its stop words, which say nothing of what a line holds ("how are cookies parsed" finds
// the lines with cookies or parsed, never a comment for its "how").
func contentQuery(q *query.Query) *query.Query {
	if !isProse(q.String()) {
		return q
	}
	words := q.Words()
	var kept []string
	for _, w := range words {
		if !stopWords[strings.ToLower(w)] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 || len(kept) == len(words) {
		return q
	}
	cq, err := query.Parse(strings.Join(kept, " "))
	if err != nil {
		return q
	}
	return cq
}

// lineRef is a line of a file.
type lineRef struct {
	path string
	line int
}

// dropLines returns hits without those on a line one of others is on.
func dropLines(hits, others []Hit) []Hit {
	on := make(map[lineRef]bool, len(others))
	for _, h := range others {
		on[lineRef{h.Path, h.Line}] = true
	}
	var kept []Hit
	for _, h := range hits {
		if !on[lineRef{h.Path, h.Line}] {
			kept = append(kept, h)
		}
	}
	return kept
}

// headLines is how many lines from its start a definition's head (annotations, decorators,
// a signature over several lines) may take.
const headLines = 3

// dropHeads returns content hits without those in the head of a definition among defs that
// name it: with annotations or decorators above it, a definition starts a line or two
// before the line that names it, and that line is the same answer.
func dropHeads(lines, defs []Hit) []Hit {
	var kept []Hit
	for _, h := range lines {
		same := false
		for _, d := range defs {
			if d.Path == h.Path && h.Line > d.Line && h.Line < d.Line+headLines && d.Name != "" && strings.Contains(h.Text, d.Name) {
				same = true
				break
			}
		}
		if !same {
			kept = append(kept, h)
		}
	}
	return kept
}

// appendNormalized appends hits with scores normalized to at most 1 within their target,
// plus their promotion, times the target's weight.
func appendNormalized(all, hits []Hit, weight float64) []Hit {
	top := 0.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	for _, h := range hits {
		norm := 0.0
		if top > 0 {
			norm = h.Score / top
		}
		h.parts.normalized, h.parts.target = norm, weight
		if h.Hit != HitDefinition { // a definition's promotion is recorded already
			h.parts.promotion = h.bonus
		}
		h.Score = (norm + h.bonus) * weight
		h.bonus = 0
		all = append(all, h)
	}
	return all
}

// fileBonus returns the promotion of a file hit at p for a query of shape.
func fileBonus(shape queryShape, q *query.Query, p string) float64 {
	words := q.Words()
	if len(words) != 1 {
		return 0
	}
	needle := strings.ToLower(strings.TrimPrefix(words[0], "./"))
	switch shape {
	case shapeFile:
		return scoring.FileNamePromotion(needle, p)
	case shapeIdentifier:
		return scoring.FileStemPromotion(needle, p)
	}
	return 0
}
