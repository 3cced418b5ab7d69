package tools

import (
	"context"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index/nav"
	"github.com/quarrysearch/quarry/workspace"
)

// Limits of a calls request.
const (
	defaultCallsDepth = 1
	maxCallsDepth     = 5
	// maxCallsNodes bounds a tree: the nodes past it are left out (truncated, limit).
	MaxCallsNodes = 500
)

// Call directions.
const (
	CallsCallers = "callers"
	CallsCallees = "callees"
)

// CallsRequest asks who calls a definition, or what it calls, as a tree.
type CallsRequest struct {
	Symbol    string `json:"symbol" jsonschema:"the definition: its name, qualified as code writes it (http.Server, Server.ServeHTTP), its symbol id, or path:line"`
	Direction string `json:"direction" jsonschema:"callers (who calls it) or callees (what it calls)"`
	Depth     int    `json:"depth,omitempty" jsonschema:"levels of the tree, 1 to 5 (default 1)"`
	Workspace string `json:"workspace,omitempty" jsonschema:"a workspace id; default the primary workspace"`
}

// CallSite is where a call is made.
type CallSite struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// CallNode is one definition of a call tree: a caller (direction callers) or a callee
// (callees) of its parent node, with the calls between them. A tree is a list of nodes in
// depth-first order, each naming its parent.
type CallNode struct {
	Parent     int         `json:"parent" jsonschema:"the index of the parent node in nodes; -1 for the root"`
	Depth      int         `json:"depth" jsonschema:"0 for the root, 1 for its callers or callees, ..."`
	Symbol     *Definition `json:"symbol,omitempty" jsonschema:"the definition; absent for a callee no rule resolved"`
	Name       string      `json:"name" jsonschema:"its name (what was called, for an unresolved callee)"`
	Resolution string      `json:"resolution,omitempty" jsonschema:"why the calls resolve to it: scope, receiver, import, package, qualified or global-unique; empty when unresolved"`
	Sites      []CallSite  `json:"sites,omitempty" jsonschema:"the calls between it and its parent node: in it (callers), or in the parent (callees)"`
	Cycle      bool        `json:"cycle,omitempty" jsonschema:"it is already on the path from the root: its subtree is not repeated"`
}

// CallsResult is a call tree rooted at the definition asked about.
type CallsResult struct {
	Symbol          string      `json:"symbol"`
	Direction       string      `json:"direction"`
	Depth           int         `json:"depth"`
	Nodes           []CallNode  `json:"nodes" jsonschema:"the tree in depth-first order: the root first"`
	Count           int         `json:"count" jsonschema:"nodes in the tree, the root excluded"`
	Unresolved      int         `json:"unresolved,omitempty" jsonschema:"callers: calls of the name no rule resolves, left out of the tree"`
	Truncated       bool        `json:"truncated"`
	TruncatedReason string      `json:"truncated_reason,omitempty"`
	ElapsedMS       float64     `json:"elapsed_ms"`
	Errors          []ErrorInfo `json:"errors"`
}

var callDirections = []string{CallsCallers, CallsCallees}

// Calls returns the callers or the callees of a definition, as a tree of depth levels.
func (s *Service) Calls(ctx context.Context, req CallsRequest) (*CallsResult, error) {
	if res, ok, err := forward[CallsResult](ctx, s, "calls", req); ok {
		return res, err
	}
	start := time.Now()
	name := strings.TrimSpace(req.Symbol)
	if name == "" {
		return nil, Errorf(CodeBadQuery, "symbol", "empty symbol: give the definition's name, symbol id or path:line")
	}
	if req.Direction != CallsCallers && req.Direction != CallsCallees {
		return nil, Errorf(CodeBadValue, "direction", "direction %q: want callers or callees%s", req.Direction, DidYouMean(req.Direction, callDirections))
	}
	depth := req.Depth
	if depth == 0 {
		depth = defaultCallsDepth
	}
	if depth < 1 || depth > maxCallsDepth {
		return nil, Errorf(CodeBadValue, "depth", "depth %d: want 1 to %d", req.Depth, maxCallsDepth)
	}
	xs, def, err := s.navTarget(ctx, "calls", req.Workspace, name)
	if err != nil {
		return nil, err
	}
	defer s.Release(xs)
	if def == nil {
		return nil, notDefined(ctx, xs[0], name)
	}
	t := &callTree{ctx: ctx, x: xs[0], callers: req.Direction == CallsCallers}
	out := &CallsResult{Symbol: name, Direction: req.Direction, Depth: depth, Errors: []ErrorInfo{}}
	t.out = append(t.out, CallNode{Parent: -1, Symbol: definitionOf(def), Name: def.Name})
	if err := t.expand(*def, depth); err != nil {
		return nil, AsError(err)
	}
	if t.callers {
		if out.Unresolved, err = unresolvedUses(ctx, xs[0], *def, []string{"call"}); err != nil {
			return nil, err
		}
	}
	out.Nodes, out.Count, out.Truncated = depthFirst(t.out), len(t.out)-1, t.truncated
	if out.Truncated {
		out.TruncatedReason = TruncatedLimit
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// callTree builds a call tree, counting its nodes.
type callTree struct {
	ctx       context.Context
	x         *workspace.SearchIndex
	callers   bool
	out       []CallNode
	truncated bool
	defs      map[string]*nav.Def // Definition's answers, by id
}

// definition returns the definition with id, once per tree.
func (t *callTree) definition(id string) (*nav.Def, error) {
	if d, ok := t.defs[id]; ok {
		return d, nil
	}
	d, err := t.x.Definition(t.ctx, id)
	if err != nil {
		return nil, err
	}
	if t.defs == nil {
		t.defs = map[string]*nav.Def{}
	}
	t.defs[id] = d
	return d, nil
}

// expand builds the tree under the root (t.out[0], the definition root) down to depth
// levels, a level at a time, so that a tree cut at maxCallsNodes still holds every node
// of its upper levels; a definition already on the path from the root is marked a cycle and
// not expanded.
func (t *callTree) expand(root nav.Def, depth int) error {
	type pending struct {
		node int
		def  nav.Def
	}
	queue := []pending{{0, root}}
	for len(queue) > 0 && !t.truncated {
		p := queue[0]
		queue = queue[1:]
		if t.out[p.node].Depth == depth {
			continue
		}
		kids, defs, err := t.children(p.def)
		if err != nil {
			return err
		}
		for i := range kids {
			if len(t.out) > MaxCallsNodes {
				t.truncated = true
				break
			}
			k := kids[i]
			k.Parent, k.Depth = p.node, t.out[p.node].Depth+1
			d := defs[i]
			k.Cycle = d != nil && t.onPath(p.node, d.ID)
			t.out = append(t.out, k)
			if d != nil && !k.Cycle {
				queue = append(queue, pending{len(t.out) - 1, *d})
			}
		}
	}
	return nil
}

// onPath reports whether the definition id is node n or one of its ancestors.
func (t *callTree) onPath(n int, id string) bool {
	for ; n >= 0; n = t.out[n].Parent {
		if s := t.out[n].Symbol; s != nil && s.ID == id {
			return true
		}
	}
	return false
}

// depthFirst reorders a tree built a level at a time into depth-first order (each node
// followed by its subtree), renumbering the parents.
func depthFirst(nodes []CallNode) []CallNode {
	kids := make([][]int, len(nodes))
	for i := 1; i < len(nodes); i++ {
		kids[nodes[i].Parent] = append(kids[nodes[i].Parent], i)
	}
	out := make([]CallNode, 0, len(nodes))
	var walk func(i, parent int)
	walk = func(i, parent int) {
		n := nodes[i]
		n.Parent = parent
		out = append(out, n)
		at := len(out) - 1
		for _, k := range kids[i] {
			walk(k, at)
		}
	}
	if len(nodes) > 0 {
		walk(0, -1)
	}
	return out
}

// children returns the callers or callees of def as nodes (in order of their first call
// site), with their definitions (nil for an unresolved callee).
func (t *callTree) children(def nav.Def) ([]CallNode, []*nav.Def, error) {
	var nodes []CallNode
	var defs []*nav.Def
	at := map[string]int{} // node index by definition id, or by "?"+name for an unresolved callee
	add := func(key string, d *nav.Def, name, why string, site CallSite) {
		i, ok := at[key]
		if !ok {
			i = len(nodes)
			at[key] = i
			n := CallNode{Name: name, Resolution: why}
			if d != nil {
				n.Symbol = definitionOf(d)
			}
			nodes, defs = append(nodes, n), append(defs, d)
		}
		nodes[i].Sites = append(nodes[i].Sites, site)
	}
	if t.callers {
		refs, _, err := t.x.SymbolRefs(t.ctx, def, nav.RefsQuery{Kinds: []string{"call"}, Limit: MaxCallsNodes * 4, NoText: true})
		if err != nil {
			return nil, nil, err
		}
		for _, r := range refs {
			site := CallSite{Path: r.Path, Line: r.Line, Column: r.Column}
			if r.ContainerID == "" {
				add("file:"+r.Path, nil, "(top level of "+r.Path+")", r.Resolution, site)
				continue
			}
			caller, err := t.definition(r.ContainerID)
			if err != nil {
				return nil, nil, err
			}
			if caller == nil {
				continue
			}
			add(caller.ID, caller, caller.Name, r.Resolution, site)
		}
		return nodes, defs, nil
	}
	calls, err := t.x.Callees(t.ctx, def)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range calls {
		site := CallSite{Path: def.Path, Line: c.Line, Column: c.Column}
		if c.Target == nil {
			add("?"+c.Name, nil, c.Name, "", site)
			continue
		}
		add(c.Target.ID, c.Target, c.Target.Name, c.Resolution, site)
	}
	return nodes, defs, nil
}
