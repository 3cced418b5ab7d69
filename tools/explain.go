package tools

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index/nav"
	"github.com/quarrysearch/quarry/workspace"
)

// Explain depths.
const (
	ExplainOverview = "overview"
	ExplainContext  = "context"
	ExplainFull     = "full"
)

var explainDepths = []string{ExplainOverview, ExplainContext, ExplainFull}

// explainSizes are how many children, callers, callees, type usages and implementations
// each depth lists, and how many lines of the body full shows.
var explainSizes = map[string]struct{ list, bodyLines int }{
	ExplainOverview: {5, 0},
	ExplainContext:  {25, 0},
	ExplainFull:     {200, 400},
}

// ExplainRequest asks for everything about one definition in one answer.
type ExplainRequest struct {
	Symbol    string `json:"symbol" jsonschema:"the definition: its name, qualified as code writes it (http.Server, Server.ServeHTTP), its symbol id, or path:line"`
	Depth     string `json:"depth,omitempty" jsonschema:"overview (default: the definition and the first few of each list), context (25 of each, with signatures) or full (200 of each, and the body)"`
	Workspace string `json:"workspace,omitempty" jsonschema:"a workspace id; default the primary workspace"`
}

// ExplainedSymbol is the definition explained, with its documentation.
type ExplainedSymbol struct {
	Definition
	EndLine    int    `json:"end_line"`
	DocComment string `json:"doc_comment,omitempty"`
	Visibility string `json:"visibility,omitempty"`
	Body       string `json:"body,omitempty" jsonschema:"the source of the definition (depth full), at most 400 lines"`
}

// Related is a definition related to the one explained (a caller, a callee), with how many
// calls link them and where the first is.
type Related struct {
	Definition
	Resolution string   `json:"resolution,omitempty"`
	Calls      int      `json:"calls"`
	Site       CallSite `json:"site"`
}

// Usage is one use of the definition as a type.
type Usage struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Container string `json:"container,omitempty"`
	Text      string `json:"text"`
}

// ExplainResult is one definition with its surroundings: parent, children, callers,
// callees, uses as a type, and the types that extend or implement it (or, for a method,
// the methods that override it). Each list is cut to the depth's size; its total is given.
type ExplainResult struct {
	Symbol               string          `json:"symbol"`
	Depth                string          `json:"depth"`
	Definition           ExplainedSymbol `json:"definition"`
	Parent               *Definition     `json:"parent,omitempty"`
	Children             []Definition    `json:"children"`
	ChildrenTotal        int             `json:"children_total"`
	Callers              []Related       `json:"callers"`
	CallersTotal         int             `json:"callers_total" jsonschema:"definitions calling it (resolved calls)"`
	Callees              []Related       `json:"callees"`
	CalleesTotal         int             `json:"callees_total" jsonschema:"definitions it calls (resolved calls)"`
	Unresolved           []string        `json:"unresolved_callees,omitempty" jsonschema:"names it calls that no rule resolved (library calls, unknown receivers)"`
	TypeUsages           []Usage         `json:"type_usages"`
	TypeUsagesTotal      int             `json:"type_usages_total"`
	Implementations      []Definition    `json:"implementations" jsonschema:"types extending or implementing it; for a method, the methods overriding it"`
	ImplementationsTotal int             `json:"implementations_total"`
	Truncated            bool            `json:"truncated" jsonschema:"some list is longer than the depth shows, or the answer was cut to its byte budget"`
	TruncatedReason      string          `json:"truncated_reason,omitempty" jsonschema:"max_bytes when the answer was cut to its byte budget (the body first, then the longest lists from their ends)"`
	ElapsedMS            float64         `json:"elapsed_ms"`
	Errors               []ErrorInfo     `json:"errors"`
}

// Explain describes one definition with its parent, children, callers, callees, uses as a
// type and implementations, sized by depth.
func (s *Service) Explain(ctx context.Context, req ExplainRequest) (*ExplainResult, error) {
	if res, ok, err := forward[ExplainResult](ctx, s, "explain", req); ok {
		return res, err
	}
	start := time.Now()
	name := strings.TrimSpace(req.Symbol)
	if name == "" {
		return nil, Errorf(CodeBadQuery, "symbol", "empty symbol: give the definition's name, symbol id or path:line")
	}
	depth := req.Depth
	if depth == "" {
		depth = ExplainOverview
	}
	size, ok := explainSizes[depth]
	if !ok {
		return nil, Errorf(CodeBadValue, "depth", "depth %q: want overview, context or full%s", req.Depth, DidYouMean(req.Depth, explainDepths))
	}
	xs, def, err := s.navTarget(ctx, "explain", req.Workspace, name)
	if err != nil {
		return nil, err
	}
	defer s.Release(xs)
	x := xs[0]
	if def == nil {
		return nil, notDefined(ctx, x, name)
	}
	out := &ExplainResult{Symbol: name, Depth: depth, Children: []Definition{}, Callers: []Related{}, Callees: []Related{},
		TypeUsages: []Usage{}, Implementations: []Definition{}, Errors: []ErrorInfo{}}
	out.Definition = ExplainedSymbol{Definition: *definitionOf(def), EndLine: def.EndLine, DocComment: def.DocComment, Visibility: def.Visibility}
	if err := explainAll(ctx, x, def, size.list, out); err != nil {
		return nil, AsError(err)
	}
	if size.bodyLines > 0 {
		if out.Definition.Body, err = bodyOf(ctx, x, def, size.bodyLines); err != nil {
			return nil, AsError(err)
		}
	}
	out.Truncated = len(out.Children) < out.ChildrenTotal || len(out.Callers) < out.CallersTotal || len(out.Callees) < out.CalleesTotal ||
		len(out.TypeUsages) < out.TypeUsagesTotal || len(out.Implementations) < out.ImplementationsTotal
	if fitExplain(out, s.Budget(ctx, 0)) {
		out.Truncated, out.TruncatedReason = true, TruncatedMaxBytes
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// fitExplain cuts out to at most maxBytes of JSON (none: no cut), and reports whether it
// cut: the body's last lines first (down to 20), then one entry at a time from the end of
// the longest list in bytes. The definition itself and the totals stay.
func fitExplain(out *ExplainResult, maxBytes int) bool {
	size := func() int {
		b, err := json.Marshal(out)
		if err != nil {
			return 0
		}
		return len(b)
	}
	if maxBytes <= 0 || size() <= maxBytes {
		return false
	}
	const keepBodyLines = 20
	if lines := strings.Split(out.Definition.Body, "\n"); len(lines) > keepBodyLines {
		over := size() - maxBytes
		n := len(lines)
		for n > keepBodyLines && over > 0 {
			n--
			over -= len(lines[n]) + 1
		}
		out.Definition.Body = strings.Join(lines[:n], "\n")
	}
	// the lists' entries, sized once: cutting one takes its bytes and a comma off the total
	type list struct {
		sizes []int
		bytes int         // the sizes' sum, with a comma each
		cut   func(n int) // keep the first n entries
	}
	entries := func(n int, at func(i int) any, cut func(n int)) *list {
		l := &list{sizes: make([]int, n), cut: cut}
		for i := range l.sizes {
			b, _ := json.Marshal(at(i))
			l.sizes[i] = len(b)
			l.bytes += len(b) + 1
		}
		return l
	}
	lists := []*list{
		entries(len(out.Callers), func(i int) any { return out.Callers[i] }, func(n int) { out.Callers = out.Callers[:n] }),
		entries(len(out.Callees), func(i int) any { return out.Callees[i] }, func(n int) { out.Callees = out.Callees[:n] }),
		entries(len(out.Children), func(i int) any { return out.Children[i] }, func(n int) { out.Children = out.Children[:n] }),
		entries(len(out.TypeUsages), func(i int) any { return out.TypeUsages[i] }, func(n int) { out.TypeUsages = out.TypeUsages[:n] }),
		entries(len(out.Implementations), func(i int) any { return out.Implementations[i] }, func(n int) { out.Implementations = out.Implementations[:n] }),
		entries(len(out.Unresolved), func(i int) any { return out.Unresolved[i] }, func(n int) { out.Unresolved = out.Unresolved[:n] }),
	}
	// dropLast takes the last entry off the longest list in bytes and returns its bytes; 0
	// when only the definition is left (it is the answer)
	dropLast := func() int {
		var best *list
		for _, l := range lists {
			if len(l.sizes) > 0 && (best == nil || l.bytes > best.bytes) {
				best = l
			}
		}
		if best == nil {
			return 0
		}
		n := best.sizes[len(best.sizes)-1] + 1
		best.sizes, best.bytes = best.sizes[:len(best.sizes)-1], best.bytes-n
		best.cut(len(best.sizes))
		return n
	}
	for total := size(); total > maxBytes; {
		n := dropLast()
		if n == 0 {
			break
		}
		total -= n
	}
	for size() > maxBytes && dropLast() > 0 { // the estimate's slack (an emptied list's comma)
	}
	return true
}

// explainAll fills out's lists, each cut to n.
func explainAll(ctx context.Context, x *workspace.SearchIndex, def *nav.Def, n int, out *ExplainResult) error {
	if p, err := x.Definition(ctx, def.ParentID); err != nil {
		return err
	} else if p != nil {
		out.Parent = definitionOf(p)
	}
	kids, err := x.Children(ctx, *def)
	if err != nil {
		return err
	}
	out.ChildrenTotal = len(kids)
	for _, k := range kids[:min(n, len(kids))] {
		out.Children = append(out.Children, *definitionOf(&k))
	}
	t := &callTree{ctx: ctx, x: x, callers: true}
	for _, dir := range []bool{true, false} {
		t.callers = dir
		nodes, defs, err := t.children(*def)
		if err != nil {
			return err
		}
		list, total := &out.Callers, &out.CallersTotal
		if !dir {
			list, total = &out.Callees, &out.CalleesTotal
		}
		for i, node := range nodes {
			if defs[i] == nil {
				if !dir {
					out.Unresolved = append(out.Unresolved, node.Name)
				}
				continue
			}
			*total++
			if len(*list) < n {
				*list = append(*list, Related{Definition: *node.Symbol, Resolution: node.Resolution, Calls: len(node.Sites), Site: node.Sites[0]})
			}
		}
	}
	if len(out.Unresolved) > n {
		out.Unresolved = out.Unresolved[:n]
	}
	uses, total, err := x.SymbolRefs(ctx, *def, nav.RefsQuery{Kinds: []string{"type_usage"}, Limit: n})
	if err != nil {
		return err
	}
	out.TypeUsagesTotal = total
	for _, u := range uses {
		out.TypeUsages = append(out.TypeUsages, Usage{Path: u.Path, Line: u.Line, Container: u.Container, Text: u.Text})
	}
	impls, err := x.Implementations(ctx, *def)
	if err != nil {
		return err
	}
	out.ImplementationsTotal = len(impls)
	for _, d := range impls[:min(n, len(impls))] {
		out.Implementations = append(out.Implementations, *definitionOf(&d))
	}
	return nil
}

// bodyOf returns the lines of def's source, at most max.
func bodyOf(ctx context.Context, x *workspace.SearchIndex, def *nav.Def, max int) (string, error) {
	content, err := x.Content(ctx, def.Path)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(content), "\n")
	lo, hi := def.Line-1, min(def.EndLine, len(lines), def.Line-1+max)
	if lo < 0 || lo >= hi {
		return "", nil
	}
	return strings.Join(lines[lo:hi], "\n"), nil
}
