package search

// Definitions by their parent alone (parent:Server): the full-text index has no parent
// field, so such an expression gives it nothing to look up; the store finds the children
// of the definitions of that name instead, by the lower(name) and file indexes (a symbol's
// parent is in its file).

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/index/query"
)

// requiredParent returns the name in a parent: word or phrase that every match of n must
// have (n itself, or a clause of a conjunction), or "".
func requiredParent(n query.Node) string {
	switch x := n.(type) {
	case *query.Leaf:
		if x.Field == "parent" && (x.Kind == query.Word || x.Kind == query.Phrase) {
			return x.Text
		}
	case *query.Bool:
		if x.Op != query.And {
			return ""
		}
		for _, c := range x.Clauses {
			if p := requiredParent(c); p != "" {
				return p
			}
		}
	}
	return ""
}

// childrenOf returns the ids of up to limit symbols whose parent is named name (in any case).
func (s rows) childrenOf(ctx context.Context, name string, limit int) ([]string, error) {
	ids, err := s.Strings(ctx, `SELECT c.id FROM symbols p JOIN symbols c ON c.file = p.file AND c.parent_id = p.id
		WHERE lower(p.name) = ? LIMIT ?`, strings.ToLower(name), limit)
	if err != nil {
		return nil, fmt.Errorf("index: children of %s: %w", name, err)
	}
	return ids, nil
}

// exprChildren returns up to want definitions matching req.Expr, which requires a parent
// and gives the full-text index nothing else to look up: every child of a definition of
// that name is verified against the expression.
func (s *Searcher) exprChildren(ctx context.Context, req Request, keepTests bool, want int, m *matcher) ([]Hit, bool, error) {
	parent := requiredParent(req.Expr)
	if parent == "" {
		return nil, false, errNoDefinitionTerms
	}
	ids, err := s.store.childrenOf(ctx, parent, maxExprCandidates)
	if err != nil {
		return nil, false, err
	}
	byID, err := s.store.symbolRecords(ctx, ids)
	if err != nil {
		return nil, ctx.Err() != nil, err
	}
	bodies := &bodyCache{store: s.store.Store}
	var hits []Hit
	for _, id := range ids {
		h, found := byID[id]
		if !found {
			continue
		}
		if !budgetLeft(ctx) {
			return s.scoreChildren(req, keepTests, want, hits), true, nil
		}
		ok, err := m.symbol(ctx, &h, bodies)
		if err != nil {
			return nil, false, err
		}
		if ok && s.admitsTests(req, h.Path) {
			h.Score = 1
			hits = append(hits, h)
		}
	}
	return s.scoreChildren(req, keepTests, want, hits), false, nil
}

// scoreChildren ranks the children found and keeps the first want.
func (s *Searcher) scoreChildren(req Request, keepTests bool, want int, hits []Hit) []Hit {
	hits = s.scoreDefinitions(req, query.Plain(req.Expr), keepTests, hits)
	return hits[:min(len(hits), want)]
}
