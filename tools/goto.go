package tools

// The goto operation: the definitions of a name, the one a use at a place (a context file
// and line) means first.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/workspace"
)

// GotoRequest asks where a symbol is defined.
type GotoRequest struct {
	Symbol      string `json:"symbol" jsonschema:"the name to find the definition of; may be qualified (http.HandlerFunc, Vec::new)"`
	ContextFile string `json:"context_file,omitempty" jsonschema:"the file using the name: the definition it sees through scope and imports comes first"`
	Line        int    `json:"line,omitempty" jsonschema:"the line of context_file where the name is used: the definitions around it are in scope"`
	Workspace   string `json:"workspace,omitempty" jsonschema:"a workspace id, or all; default the primary workspace"`
	Limit       *int   `json:"limit,omitempty" jsonschema:"at most this many definitions, 1 to 500 (default 10)"`
}

// GotoResult lists the definitions of a symbol, best first.
type GotoResult struct {
	Symbol             string      `json:"symbol"`
	Results            []Hit       `json:"results"`
	Total              int         `json:"total" jsonschema:"definitions found, before the limit"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty"`
	TotalFilesSearched int         `json:"total_files_searched"`
	Notice             string      `json:"notice,omitempty" jsonschema:"what the definitions may miss, in words: files changed since indexing that could not be applied first, or an index run that did not finish"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
}

// maxGotoCandidates is how many definitions goto considers before ordering them.
const maxGotoCandidates = 100

// Goto finds the definitions of a symbol.
func (s *Service) Goto(ctx context.Context, req GotoRequest) (*GotoResult, error) {
	if res, ok, err := forward[GotoResult](ctx, s, "goto", req); ok {
		return res, err
	}
	start := time.Now()
	if strings.TrimSpace(req.Symbol) == "" {
		return nil, Errorf(CodeBadQuery, "symbol", "empty symbol: give the name of a definition")
	}
	q, err := parseQuery("symbol", strings.TrimSpace(req.Symbol))
	if err != nil {
		return nil, err
	}
	limit, err := ResultLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	rel, err := s.relPath("context_file", req.ContextFile)
	if err != nil {
		return nil, err
	}
	xs, err := s.OpenIndexes(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	defer func() { s.Release(xs) }()
	if req.Line < 0 || req.Line > 0 && rel == "" {
		return nil, Errorf(CodeBadValue, "line", "line %d: give a line of context_file (1 or more), with context_file", req.Line)
	}
	greq := search.Request{Query: q, Target: search.TargetDefinitions, Limit: max(maxGotoCandidates, limit+1)}
	checked := s.checkFreshness(ctx, xs) // at once with the search
	found, err := workspace.Goto(ctx, xs, greq, rel)
	fresh := checked()
	if err == nil && needsFreshening(fresh) {
		// A few files changed since indexing, or a run did not finish: apply them and
		// look again; what is still missing is said in the notice.
		s.Release(xs)
		xs = nil
		s.freshen(ctx, fresh, nil)
		if xs, err = s.OpenIndexes(ctx, req.Workspace); err != nil {
			return nil, err
		}
		checked = s.checkFreshness(ctx, xs)
		found, err = workspace.Goto(ctx, xs, greq, rel)
		fresh = checked()
	}
	if err != nil {
		return nil, AsError(err)
	}
	if rel != "" && len(xs) > 0 {
		if found, err = resolveGoto(ctx, xs[0], found, rel, req.Line, strings.TrimSpace(req.Symbol)); err != nil {
			return nil, err
		}
	}
	found, folded := exactCaseFirst(found, strings.TrimSpace(req.Symbol))
	out := &GotoResult{Symbol: req.Symbol, Results: append([]Hit{}, found...), Total: len(found), Notice: JoinNotices(folded, freshNotice(fresh)), Errors: []ErrorInfo{}}
	if out.TotalFilesSearched, err = FilesIn(ctx, xs); err != nil {
		return nil, err
	}
	if len(out.Results) > limit {
		out.Results, out.Truncated, out.TruncatedReason = out.Results[:limit], true, TruncatedLimit
	}
	FitBytes(&out.Results, s.Budget(ctx, 0), &out.Truncated, &out.TruncatedReason)
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// resolveGoto puts first the definition symbol means where it is used (the file rel, at
// line), with the reason; the others are name-only.
func resolveGoto(ctx context.Context, x *workspace.SearchIndex, hits []Hit, rel string, line int, symbol string) ([]Hit, error) {
	def, why, err := x.ResolveName(ctx, rel, line, symbol) // rel: relPath, slashed
	if err != nil {
		return nil, AsError(err)
	}
	first := -1
	for i := range hits {
		if hits[i].Workspace != "" && hits[i].Workspace != x.Entry.ID {
			continue
		}
		hits[i].Resolution = "name-only"
		if def != nil && hits[i].SymbolID == def.ID {
			hits[i].Resolution, first = why, i
		}
	}
	if first > 0 {
		h := hits[first]
		copy(hits[1:first+1], hits[:first])
		hits[0] = h
	}
	return hits, nil
}

// exactCaseFirst keeps, when some of hits are named exactly as symbol is written (its last
// part: Name of pkg.Name), only those: the names alike but for case or separators (the
// console variables of goto Console) are clutter then, left out with a notice saying how
// many and how to list them. Without an exact one, hits are kept as they are.
func exactCaseFirst(hits []Hit, symbol string) ([]Hit, string) {
	name := search.SymbolName(symbol)
	exact := func(h Hit) bool { return h.Name == symbol || h.Name == name }
	if !slices.ContainsFunc(hits, exact) {
		return hits, ""
	}
	var keep []Hit
	spellings := map[string]int{}
	for _, h := range hits {
		if exact(h) {
			keep = append(keep, h)
		} else {
			spellings[h.Name]++
		}
	}
	if len(spellings) == 0 {
		return hits, ""
	}
	names := slices.Sorted(maps.Keys(spellings))
	n := len(hits) - len(keep)
	if len(names) > 3 {
		names = append(names[:3], "...")
	}
	what := fmt.Sprintf("%d more definitions are", n)
	if n == 1 {
		what = "1 more definition is"
	}
	return keep, fmt.Sprintf("%s named so but for case or separators (%s): goto with that spelling lists them", what, strings.Join(names, ", "))
}

// SymbolName returns the name a written symbol ends with (Name of pkg.Name); see
// search.SymbolName.
func SymbolName(symbol string) string { return search.SymbolName(symbol) }
