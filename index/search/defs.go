package search

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/scoring"
)

// Candidates of a definitions search.
const (
	// maxNamedCandidates caps the symbols of exactly the queried name fetched from the store
	// besides the full-text candidates.
	maxNamedCandidates = 200
	// minFetch is the fewest candidates fetched from the full-text index.
	minFetch = 30
)

// definitions returns up to want definitions for q, best first, and whether the query was
// relaxed from all words to any.
func (s *Searcher) definitions(ctx context.Context, req Request, q *query.Query, keepTests bool, want int) ([]Hit, bool, error) {
	tokens, err := s.tokens(q, req.Language)
	if err != nil {
		return nil, false, err
	}
	fetch := max(want*3, minFetch)
	search := fulltext.Query{DocType: fulltext.DocSymbol, Tokens: tokens, All: true, Filter: filterOf(&req)}
	prose := isProse(q.String())
	if prose {
		search.Tokens, search.All, search.Prose = dropStopWords(tokens), false, proseExpansion
		fetch = max(fetch, proseFetch)
	}
	exact := ""
	if q.Single() {
		_, exact = q.Qualified()
	}
	hits, err := s.headSearch(ctx, search, prose, fetch, exact)
	if err != nil {
		return nil, false, err
	}
	relaxed := false
	if prose {
		complete, err := s.proseRank(ctx, search.Tokens, hits)
		if err != nil {
			return nil, false, err
		}
		relaxed = !complete && len(hits) > 0
	} else if len(hits) == 0 && len(tokens) > 1 {
		relaxed, search.All = true, false
		if hits, err = s.defSearch(ctx, search, fetch); err != nil {
			return nil, false, err
		}
	}
	if hits, err = s.addNamed(ctx, req, q, hits); err != nil {
		return nil, false, err
	}
	hits = s.scoreDefinitions(req, q, keepTests, hits)
	if prose {
		meant := false
		if hits, meant, err = s.addMeaning(ctx, req, q, search.Tokens, keepTests, hits); err != nil {
			return nil, false, err
		}
		if meant {
			if hits, err = s.rerankQuestion(req, tokens, search.Tokens, hits); err != nil {
				return nil, false, err
			}
		}
	}
	if len(hits) > want {
		hits = hits[:want]
	}
	return hits, relaxed, nil
}

// headSearch runs the full-text part of a definitions search: first over names,
// signatures and doc comments alone, whose postings are a fraction of the bodies', and
// over the bodies too only when that finds fewer than size definitions (or for prose,
// whose words are in bodies more than in names). A name's words are in its name: for
// NewReader, "new" and "reader" in every body of corpus.sh full made bleve score tens of
// thousands of definitions to keep 63 (3 ms of a 4 ms warm search). Nor when a one-word
// query's name (exact) is the name of a definition the first search found: the bodies
// only add the definitions that use it, below it, and their lines are content hits
// (sqlite3VdbeExec: 2 ms of a 4.5 ms warm search went to scoring bodies for "sqlite3",
// "vdbe" and "exec").
func (s *Searcher) headSearch(ctx context.Context, search fulltext.Query, prose bool, size int, exact string) ([]Hit, error) {
	if !prose {
		head := search
		head.NoBody = true
		hits, err := s.defSearch(ctx, head, size)
		if err != nil || len(hits) >= size || exact != "" && slices.ContainsFunc(hits, func(h Hit) bool { return h.Name == exact }) {
			return hits, err
		}
	}
	return s.defSearch(ctx, search, size)
}

// defSearch runs the full-text part of a definitions search and reads the symbols found.
func (s *Searcher) defSearch(ctx context.Context, search fulltext.Query, size int) ([]Hit, error) {
	found, _, err := s.ft.Search(fulltext.WithBM25(ctx, s.bm25.Get(s.store.Store, s.ft)), search, size)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(found))
	for i, d := range found {
		ids[i] = d.ID
	}
	byID, err := s.store.symbolsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(found))
	for _, d := range found {
		if h, ok := byID[d.ID]; ok { // else deleted from the store, not yet from bleve
			h.Score = d.Score
			h.parts.fulltext, h.parts.set = d.Score, true
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// addNamed adds the stored symbols named exactly like a one-word query that the full-text
// candidates missed, so an exact definition is found however common its name's words are.
func (s *Searcher) addNamed(ctx context.Context, req Request, q *query.Query, hits []Hit) ([]Hit, error) {
	if !q.Single() {
		return hits, nil
	}
	_, name := q.Qualified()
	named, err := s.store.symbolsNamed(ctx, name, maxNamedCandidates)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(hits))
	floor := 0.0
	for i, h := range hits {
		seen[h.SymbolID] = true
		if i == 0 || h.Score < floor {
			floor = h.Score
		}
	}
	for _, h := range named {
		if seen[h.SymbolID] || !req.admits(h.Language, h.Kind, h.Path) {
			continue
		}
		h.Score = floor
		hits = append(hits, h)
	}
	return hits, nil
}

// admits reports whether a symbol of lang and kind at path passes req's filters.
func (req Request) admits(lang, kind, path string) bool {
	if req.Language != "" && lang != req.Language {
		return false
	}
	if len(req.Kinds) > 0 && kind != "" {
		ok := false
		for _, k := range req.Kinds {
			ok = ok || k == kind
		}
		if !ok {
			return false
		}
	}
	return req.Pattern.Match(path)
}

// scoreDefinitions applies the ranking rules to definition hits and sorts them.
func (s *Searcher) scoreDefinitions(req Request, q *query.Query, keepTests bool, hits []Hit) []Hit {
	name := strings.Join(append(q.Phrases(), q.Words()...), " ")
	qual, last := q.Qualified()
	out := hits[:0]
	for _, h := range hits {
		h.class = scoring.Classify(h.Path)
		if req.Tests == TestsExclude && h.class == scoring.Test {
			continue
		}
		lang, _ := s.reg.Lookup(h.Language)
		weight := h.pathWeight(keepTests)
		h.parts.important, h.parts.path, h.parts.kind = scoring.ImportantBoost(lang, h.Signature), weight, scoring.KindWeight(h.Kind)
		h.Score *= h.parts.important * weight * h.parts.kind
		def := h.definition()
		// Among definitions named alike, the one most likely meant first.
		if h.bonus = namePromotion(name, qual, last, def, weight); h.bonus == 0 {
			h.parts.placement = scoring.Placement(def)
			h.Score *= h.parts.placement // the kind is weighed above
		}
		h.parts.promotion = h.bonus
		out = append(out, h)
	}
	// The name as written outranks its case-folded clutter (serveHTTP, a console variable
	// for Console): where a definition is named exactly so, one named so but for case or
	// separators loses its promotion and ranks among the others.
	exact := slices.ContainsFunc(out, func(h Hit) bool {
		return h.bonus > 0 && scoring.MatchName(name, h.Name) == scoring.NameExact
	})
	if exact {
		for i := range out {
			h := &out[i]
			if h.bonus > 0 && scoring.MatchName(name, h.Name) == scoring.NameExactFold {
				h.bonus, h.parts.promotion = 0, 0
				h.parts.placement = scoring.Placement(h.definition())
				h.Score *= h.parts.placement
			}
		}
	}
	sortPromoted(out)
	return out
}

// pathWeight is the weight of a definition hit by where it is: its path's class, and at
// most scoring.ExampleWeight for an example in documentation.
func (h Hit) pathWeight(keepTests bool) float64 {
	w := scoring.PathWeight(scoring.Classify(h.Path), keepTests)
	if h.example {
		w = min(w, scoring.ExampleWeight)
	}
	return w
}

// definition returns what ranking knows of a definition hit.
func (h Hit) definition() scoring.Definition {
	return scoring.Definition{Name: h.Name, Kind: h.Kind, Parent: h.parent, ParentKind: h.parentKind, Path: h.Path, Signature: h.Signature,
		Visibility: h.visibility, Declaration: h.declaration, Category: languages.CategoryOf(h.Language)}
}

// maxScoreShare is the most of a definition's score, over the best score, that
// foldPromotion adds to its promotion.
const maxScoreShare = 0.01

// foldPromotion makes the score of definition hits sorted by sortPromoted the order they
// are in: a promoted hit's score becomes its promotion plus a share of its score over the
// best, one not promoted that share alone, the share under half the smallest gap between
// two promotions. The definitions target answers with these scores, so that a hit never
// follows one of lower score.
func foldPromotion(hits []Hit) {
	top, share := 0.0, maxScoreShare
	for i, h := range hits {
		top = max(top, h.Score)
		if i > 0 && hits[i-1].bonus > h.bonus {
			share = min(share, (hits[i-1].bonus-h.bonus)/2)
		}
	}
	if top <= 0 || hits[0].bonus == 0 {
		return // nothing promoted: the scores are the order
	}
	for i := range hits {
		h := &hits[i]
		h.parts.normalized, h.parts.share = h.Score/top, share
		h.Score = h.bonus + share*h.Score/top
	}
}

// sortPromoted sorts hits by promotion first, then by score.
func sortPromoted(hits []Hit) {
	sortHits(hits, func(h Hit) float64 { return h.bonus })
}

// symbolColumns are the columns of a symbol a hit shows, in the order scanSymbolHit reads.
// With symbolsFrom, they include the name and kind of the symbol's parent.
const (
	symbolColumns = `s.id, f.path, s.name, s.kind, s.language, s.signature, s.start_line, s.end_line, s.visibility, ` +
		`s.metadata LIKE '%"declaration":"true"%', coalesce(p.name, ''), s.metadata LIKE '%"example":"true"%', coalesce(p.kind, ''), ` +
		`s.start_column, s.start_byte`
	symbolsFrom = `symbols s JOIN files f ON f.id = s.file LEFT JOIN symbols p ON p.id = s.parent_id`
)

func scanSymbolHit(rows *sql.Rows) (Hit, error) {
	h := Hit{Hit: HitDefinition, spanRead: true}
	err := rows.Scan(&h.SymbolID, &h.Path, &h.Name, &h.Kind, &h.Language, &h.Signature, &h.Line, &h.EndLine, &h.visibility, &h.declaration, &h.parent, &h.example, &h.parentKind,
		&h.startColumn, &h.startByte)
	return h, err
}

// symbolsNamed returns the symbols named name (exactly, or but for case), as hits.
func (s rows) symbolsNamed(ctx context.Context, name string, limit int) ([]Hit, error) {
	st, err := s.Stmt(ctx, `SELECT `+symbolColumns+` FROM `+symbolsFrom+` WHERE lower(s.name) = lower(?) LIMIT ?`)
	if err != nil {
		return nil, fmt.Errorf("index: symbols named %q: %w", name, err)
	}
	rows, err := st.QueryContext(ctx, name, limit)
	if err != nil {
		return nil, fmt.Errorf("index: symbols named %q: %w", name, err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		h, err := scanSymbolHit(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// symbolsByID returns the symbols ids as hits, by id.
func (s rows) symbolsByID(ctx context.Context, ids []string) (map[string]Hit, error) {
	out := make(map[string]Hit, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	// The list is padded (with its last id) to a power of two, so that a handful of
	// statements, prepared once each, serve every search: preparing one was an eighth of a
	// small index's search.
	n := 8
	for n < len(ids) {
		n *= 2
	}
	args := make([]any, n)
	for i := range args {
		args[i] = ids[min(i, len(ids)-1)]
	}
	st, err := s.Stmt(ctx, `SELECT `+symbolColumns+` FROM `+symbolsFrom+` WHERE s.id IN (?`+strings.Repeat(",?", n-1)+`)`)
	if err != nil {
		return nil, fmt.Errorf("index: read symbols: %w", err)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("index: read symbols: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		h, err := scanSymbolHit(rows)
		if err != nil {
			return nil, err
		}
		out[h.SymbolID] = h
	}
	return out, rows.Err()
}

// Defines reports whether h is a definition that q names: a definition kind named exactly
// as the query (or but for its naming convention), or as the last part of a qualified
// name (Marshal for json.Marshal).
func (h Hit) Defines(q *query.Query) bool {
	if !scoring.IsDefinitionKind(h.Kind) {
		return false
	}
	symbol := q.String()
	name := SymbolName(symbol)
	return scoring.MatchName(symbol, h.Name) != scoring.NameNone || scoring.MatchName(name, h.Name) == scoring.NameExact
}

// SymbolName returns the name a written symbol ends with: Name of pkg.Name, name of
// Type::name or Class#name; the symbol itself when it is not qualified.
func SymbolName(symbol string) string {
	if i := strings.LastIndexAny(symbol, ".:#"); i >= 0 && i+1 < len(symbol) {
		return symbol[i+1:]
	}
	return symbol
}

// identifierShape matches a query that names something: an identifier, or a qualified one
// (json.Marshal, Vec::new, ptr->field, Class#method).
var identifierShape = regexp.MustCompile(`^[\pL_$][\pL\pN_$]*((::|->|[.#])[\pL_$][\pL\pN_$]*)*$`)

// MissingDefinition returns the notice a search of definitions or auto for q must show when
// q names an identifier and no hit defines it ("no definition named X; showing related"),
// else "". The hits are then only related to it (its parts, other spellings), which a
// reader must not mistake for it.
func MissingDefinition(q *query.Query, hits []Hit) string {
	if q == nil || !q.Single() || !identifierShape.MatchString(q.String()) {
		return ""
	}
	for _, h := range hits {
		if h.Hit == HitDefinition && h.Defines(q) {
			return ""
		}
	}
	if len(hits) == 0 {
		return fmt.Sprintf("no definition named %s", q.String())
	}
	return fmt.Sprintf("no definition named %s; showing related", q.String())
}

// RankFacts are what ranking reads of a definition hit beyond its wire fields: a cluster's
// shard sends them with a query document's line, so that the router fuses the lines as one
// process does.
type RankFacts struct {
	Parent      string `json:"parent,omitempty"`
	ParentKind  string `json:"parent_kind,omitempty"`
	Visibility  string `json:"visibility,omitempty"`
	Declaration bool   `json:"declaration,omitempty"`
	Example     bool   `json:"example,omitempty"`
}

// RankFacts returns h's ranking facts.
func (h Hit) RankFacts() RankFacts {
	return RankFacts{Parent: h.parent, ParentKind: h.parentKind, Visibility: h.visibility, Declaration: h.declaration, Example: h.example}
}

// SetRankFacts sets h's ranking facts, as RankFacts gave them.
func (h *Hit) SetRankFacts(f RankFacts) {
	h.parent, h.parentKind, h.visibility, h.declaration, h.example = f.Parent, f.ParentKind, f.Visibility, f.Declaration, f.Example
}
