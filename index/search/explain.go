package search

// A search's plan, for debugging (quarry search --debug-query, --parse-only): the parsed
// query and the full-text query each target runs.

import (
	"fmt"
	"slices"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/grams"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// Plan is how a request is searched, for debugging a search (quarry search --debug-query):
// the parsed query and, per target, the tokens and the compiled full-text query.
type Plan struct {
	Query string     // the parsed query, printed back
	Terms []string   // each term: kind, position and text
	Steps []PlanStep // one per target searched
}

// PlanStep is the full-text or content index query one target runs.
type PlanStep struct {
	Target Target
	Tokens []string // the query tokens, by the rules the index was built with (content: the needles)
	// Fulltext is the bleve query as JSON, all tokens required (definitions), the content
	// index's query (content, and files with content:), "" when the target matches paths.
	Fulltext string
}

// contentPlan prints a content index query for a plan.
func contentPlan(q *grams.Query) string { return "content index: " + q.String() }

// Explain returns the plan of req without running it.
func (s *Searcher) Explain(req Request) (*Plan, error) {
	if req.Expr != nil {
		return s.explainExpr(req), nil
	}
	p := &Plan{Query: req.Query.String()}
	for _, t := range req.Query.Terms {
		p.Terms = append(p.Terms, fmt.Sprintf("%s@%d %q", t.Kind, t.Pos, t.Text))
	}
	targets := []Target{req.Target}
	if req.Target == TargetAuto {
		targets = []Target{TargetDefinitions, TargetContent, TargetFiles}
	}
	for _, t := range targets {
		step := PlanStep{Target: t}
		switch t {
		case TargetDefinitions:
			tokens, err := s.tokens(req.Query, req.Language)
			if err != nil {
				return nil, err
			}
			step.Tokens = tokens
			step.Fulltext = fulltext.Query{DocType: fulltext.DocSymbol, Tokens: tokens, All: true, Filter: filterOf(&req)}.Explain()
		case TargetContent:
			step.Tokens = needles(req.Query)
			step.Fulltext = contentPlan(needlesQuery(step.Tokens, true))
		}
		p.Steps = append(p.Steps, step)
	}
	return p, nil
}

// explainExpr returns the plan of an expression search: the full-text query each target
// runs, and whether its matches are verified against the stored text.
func (s *Searcher) explainExpr(req Request) *Plan {
	return explainExpr(req, s.exprTokens(req))
}

// ExplainExpr returns the plan of an expression search with the current tokenizer rules,
// without an index (quarry search --parse-only).
func ExplainExpr(req Request) (*Plan, error) {
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	var lang *languages.Language
	if req.Language != "" {
		lang, _ = reg.Lookup(req.Language)
	}
	tk := tokenizer.New(lang)
	return explainExpr(req, func(text string) []string {
		var out []string
		for _, t := range tk.Query(text) {
			if !slices.Contains(out, t.Text) {
				out = append(out, t.Text)
			}
		}
		return out
	}), nil
}

func explainExpr(req Request, tokens func(string) []string) *Plan {
	p := &Plan{Query: req.Expr.String()}
	query.Walk(req.Expr, func(n query.Node, neg bool) {
		switch x := n.(type) {
		case *query.Leaf:
			t := fmt.Sprintf("%s@%d %s", x.Kind, x.At, x.String())
			if neg {
				t = "NOT " + t
			}
			if x.Kind == query.Regex {
				t += " needs " + query.RegexNeed(x.Text, !req.Case.Sensitive(x.Kind, x.Text)).String()
			}
			p.Terms = append(p.Terms, t)
		case *query.Range:
			p.Terms = append(p.Terms, fmt.Sprintf("range@%d %s", x.At, x.String()))
		}
	})
	targets := []Target{req.Target}
	if req.Target == TargetAuto {
		targets = nil
		for _, t := range query.Targets(req.Expr) {
			targets = append(targets, Target(t))
		}
	}
	for _, t := range targets {
		if t == TargetFiles && len(query.Leaves(req.Expr, "content")) == 0 {
			p.Steps = append(p.Steps, PlanStep{Target: t})
			continue
		}
		if t != TargetDefinitions {
			p.Steps = append(p.Steps, PlanStep{Target: t, Fulltext: contentPlan(exprGrams(req.Expr, req.Case, t != TargetFiles)),
				Tokens: []string{"(candidates verified against the stored text)"}})
			continue
		}
		e := fulltext.CompileExpr(req.Expr, fulltext.DocSymbol, req.Case, tokens, nil)
		step := PlanStep{Target: t, Fulltext: e.Explain()}
		if !e.Exact || t != TargetDefinitions {
			step.Tokens = []string{"(candidates verified against the stored text)"}
		}
		p.Steps = append(p.Steps, step)
	}
	return p
}
