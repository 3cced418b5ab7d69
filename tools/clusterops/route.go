package clusterops

// The router of a cluster (SetCluster): each operation asked of the shards it covers at
// once, their answers merged as the same operation over --workspace all merges workspaces.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/tools"
)

// Attach makes the operations of s run on cluster c until ctx ends: each shard a request
// covers answers it (its workspace, or all), and the answers are merged as --workspace all
// merges workspaces. Operations on a local workspace itself (index, health,
// manage_workspace) are refused. The catalog is watched, not read on every request: from
// the nodes' routing table and the changes after it (cluster.WatchRoutes).
func Attach(ctx context.Context, s *tools.Service, c *cluster.Cluster) error {
	if err := c.WatchRoutes(ctx); err != nil {
		return err
	}
	s.SetRemote(&router{Service: s, cluster: c})
	return nil
}

// router runs a service's operations on a cluster's shards.
type router struct {
	*tools.Service
	cluster *cluster.Cluster
	lat     latencies    // recent answer times: the hedging bound
	hedged  atomic.Int64 // requests asked again
	// partsMemo holds clusterParts' answers at the catalog copy's generation partsGen.
	partsMu   sync.Mutex
	partsGen  uint64
	partsMemo map[string]partsMemo
}

// clusterTimeout is how long the router waits for the shards of an operation without a
// time budget of its own.
const clusterTimeout = tools.DefaultTimeoutMS * time.Millisecond

// Answer runs op with req on the cluster.
func (s *router) Answer(ctx context.Context, op string, req any) (any, error) {
	switch r := req.(type) {
	case tools.SearchRequest:
		return s.clusterSearch(ctx, r)
	case tools.GotoRequest:
		return s.clusterGoto(ctx, r)
	case tools.RefsRequest:
		return s.clusterRefs(ctx, r)
	case tools.CallsRequest:
		return clusterOne[tools.CallsResult](ctx, s, op, func(ws string) any { r.Workspace = ws; return r }, r.Workspace, r.Symbol)
	case tools.ExplainRequest:
		return clusterOne[tools.ExplainResult](ctx, s, op, func(ws string) any { r.Workspace = ws; return r }, r.Workspace, r.Symbol)
	}
	return nil, tools.Errorf(tools.CodeNotAllowed, "", "%s works on a local workspace, not through a cluster", op)
}

// shardPart is a shard an operation asks, and the repositories of it the operation covers.
type shardPart struct {
	shard   string
	version string   // the shard's version in the catalog
	repos   []string // by name
}

// workspace is what a part's request names: its one repository, or all of its shard's.
func (p shardPart) workspace() string {
	if len(p.repos) == 1 {
		return p.repos[0]
	}
	return "all"
}

// shardAnswers asks op of each part at once, with the request ask(part) gives, and returns
// the answers in parts' order (nil: none came), with an ErrorInfo for each repository of a
// part that did not answer within timeout, or whose answer did not come from it.
func (s *router) shardAnswers(ctx context.Context, parts []shardPart, op string, ask func(shardPart) any, timeout time.Duration) ([]*ShardAnswer, []tools.ErrorInfo, error) {
	payloads := make([][]byte, len(parts))
	for i, p := range parts {
		args, err := json.Marshal(ask(p))
		if err != nil {
			return nil, nil, tools.AsError(err)
		}
		if payloads[i], err = json.Marshal(ShardCall{Op: op, Args: args, Version: p.version}); err != nil {
			return nil, nil, tools.AsError(err)
		}
	}
	answers := make([]*ShardAnswer, len(parts))
	failed := make([]error, len(parts))
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() {
			m, err := s.request(rctx, cluster.ShardSubject(p.shard), payloads[i])
			if err == nil {
				answers[i] = new(ShardAnswer)
				if err = json.Unmarshal(m.Data, answers[i]); err != nil {
					answers[i] = nil
				}
			}
			failed[i] = err
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, nil, tools.AsError(ctx.Err())
	}
	var missing []tools.ErrorInfo
	for i, p := range parts {
		if err := failed[i]; err != nil {
			why := "no node answered within " + timeout.String()
			if errors.Is(err, nats.ErrNoResponders) {
				why = "no node serves it now"
			}
			for _, repo := range p.repos {
				missing = append(missing, tools.ErrorInfo{Code: tools.CodeShardUnavailable, Workspace: repo, Message: shardLabel(p, repo) + ": " + why})
			}
			continue
		}
		if answers[i].Error != nil {
			continue
		}
		if answers[i].Version == p.version && p.version != "" {
			continue // the version the catalog names: every repository of the part
		}
		held := make(map[string]bool, len(answers[i].Repos))
		for _, r := range answers[i].Repos {
			held[r] = true
		}
		for _, repo := range p.repos {
			if !held[repo] {
				missing = append(missing, tools.ErrorInfo{Code: tools.CodeShardUnavailable, Workspace: repo, Message: shardLabel(p, repo) + ": the node that answered (" + answers[i].Node + ") does not serve this repository's index yet"})
			}
		}
	}
	return answers, missing, nil
}

// Hedged requests: a shard's request not answered within hedgeAfter's bound (the p95 of
// recent answers) is asked again of the shard's queue group (another replica, once the
// server has dropped a dead node's subscription), then again after twice as long, and so
// on, up to maxAsks in all; the first answer wins. A request in flight to a killed node or
// server no longer waits the whole timeout, and a slow answer costs a few asks, not many.
const (
	maxAsks      = 6
	hedgeSamples = 256 // recent answer times the bound is read from
	minHedge     = 20 * time.Millisecond
	maxHedge     = time.Second
	firstHedge   = 250 * time.Millisecond // the bound before 20 answers were timed
)

// latencies are a router's recent answer times, by shard request.
type latencies struct {
	mu   sync.Mutex
	ring []time.Duration
	next int
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < hedgeSamples {
		l.ring = append(l.ring, d)
		return
	}
	l.ring[l.next] = d
	l.next = (l.next + 1) % hedgeSamples
}

// hedgeAfter is the bound after which a request is asked again: the p95 of the recent
// answer times, within [minHedge, maxHedge].
func (l *latencies) hedgeAfter() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < 20 {
		return firstHedge
	}
	sorted := slices.Clone(l.ring)
	slices.Sort(sorted)
	return min(max(sorted[len(sorted)*95/100], minHedge), maxHedge)
}

// request asks subject with payload, hedged: asked again while no answer came, the waits
// doubling from hedgeAfter, up to maxAsks in all, until ctx ends. No responders at all ends
// it at once.
func (s *router) request(ctx context.Context, subject string, payload []byte) (*nats.Msg, error) {
	type result struct {
		m   *nats.Msg
		err error
	}
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan result, maxAsks)
	ask := func() {
		m, err := s.cluster.NC.RequestWithContext(hctx, subject, payload)
		answers <- result{m, err}
	}
	start := time.Now()
	go ask()
	asked, pending := 1, 1
	wait := s.lat.hedgeAfter()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var last error
	for {
		select {
		case r := <-answers:
			pending--
			if r.err == nil {
				s.lat.add(time.Since(start))
				return r.m, nil
			}
			last = r.err
			if errors.Is(r.err, nats.ErrNoResponders) || ctx.Err() != nil {
				if pending == 0 {
					return nil, last
				}
				continue
			}
			if asked < maxAsks { // a failure other than silence: ask again at once
				asked++
				pending++
				go ask()
			} else if pending == 0 {
				return nil, last
			}
		case <-timer.C:
			if asked < maxAsks {
				asked++
				pending++
				s.hedged.Add(1)
				go ask()
				wait *= 2
				timer.Reset(wait)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// shardLabel names repo's shard in a message.
func shardLabel(p shardPart, repo string) string {
	if p.shard == repo {
		return "shard " + repo
	}
	return "shard " + p.shard + " (repository " + repo + ")"
}

// clusterParts returns the repositories with an index that workspace ws covers ("" or
// "all": every one), by name, and the shards to ask for them, in the order of their first
// repository. With langs, a repository known to hold none of them is asked nothing: it
// could answer nothing (it stays in the names, which order and name the hits).
// The answer is shared (not to be modified): it is kept for the catalog's generation, so
// that a search over 10,000 repositories does not sort and group them all again (14% of a
// router's CPU by pprof).
func (s *router) clusterParts(ctx context.Context, ws string, langs ...string) ([]string, []shardPart, error) {
	repos, gen, err := s.cluster.ReposGeneration(ctx)
	if err != nil {
		return nil, nil, tools.AsError(err)
	}
	key := ws + "\x00" + strings.Join(langs, ",")
	s.partsMu.Lock()
	if gen != 0 && gen == s.partsGen {
		if m, ok := s.partsMemo[key]; ok {
			s.partsMu.Unlock()
			return m.names, m.parts, nil
		}
	}
	s.partsMu.Unlock()
	names, parts, err := groupParts(repos, ws, langs)
	if err != nil || gen == 0 {
		return names, parts, err
	}
	s.partsMu.Lock()
	defer s.partsMu.Unlock()
	if gen != s.partsGen {
		s.partsGen, s.partsMemo = gen, map[string]partsMemo{}
	}
	if len(s.partsMemo) < 64 {
		s.partsMemo[key] = partsMemo{names, parts}
	}
	return names, parts, nil
}

// partsMemo is an answer of clusterParts.
type partsMemo struct {
	names []string
	parts []shardPart
}

// groupParts is clusterParts over the catalog's repos.
func groupParts(repos []cluster.Repo, ws string, langs []string) ([]string, []shardPart, error) {
	var names []string
	shardOf := map[string]string{}
	skipped := map[string]bool{}
	for _, r := range repos {
		if r.Version != "" {
			names = append(names, r.Name)
			shardOf[r.Name] = r.ShardName()
			skipped[r.Name] = len(langs) > 0 && r.Languages != nil && !slices.ContainsFunc(langs, func(l string) bool { return slices.Contains(r.Languages, l) })
		}
	}
	sort.Strings(names)
	switch {
	case ws == "" || ws == "all":
		if len(names) == 0 {
			return nil, nil, tools.Errorf(tools.CodeNotIndexed, "", "the cluster has no repository with a shard yet: quarry cluster add, and a node with --index")
		}
	case hasName(names, ws):
		names = []string{ws}
	default:
		msg := fmt.Sprintf("the cluster has no repository %q with a shard", ws)
		if sug := suggest.Candidates(ws, names); len(sug) > 0 {
			msg += "; did you mean " + sug[0] + "?"
		}
		return nil, nil, tools.Errorf(tools.CodeUnknownWorkspace, "workspace", "%s", msg)
	}
	versions := map[string]string{}
	for _, sh := range cluster.Shards(repos) {
		versions[sh.Name] = sh.Version
	}
	var parts []shardPart
	at := map[string]int{}
	for _, name := range names {
		if skipped[name] {
			continue
		}
		sh := shardOf[name]
		i, ok := at[sh]
		if !ok {
			i = len(parts)
			at[sh] = i
			parts = append(parts, shardPart{shard: sh, version: versions[sh]})
		}
		parts[i].repos = append(parts[i].repos, name)
	}
	return names, parts, nil
}

// eachRepo splits parts into one part per repository: for operations on one workspace at
// a time.
func eachRepo(parts []shardPart) []shardPart {
	var out []shardPart
	for _, p := range parts {
		for _, r := range p.repos {
			out = append(out, shardPart{shard: p.shard, version: p.version, repos: []string{r}})
		}
	}
	return out
}

// decodeAnswer decodes a shard's result into R, or returns the shard's error.
func decodeAnswer[R any](a *ShardAnswer) (*R, *tools.Error) {
	if a.Error != nil {
		return nil, a.Error
	}
	r := new(R)
	if err := json.Unmarshal(a.Result, r); err != nil {
		return nil, tools.Errorf(tools.CodeInternal, "", "shard %s answered a malformed result: %v", a.Shard, err)
	}
	return r, nil
}

// ambiguous reports whether e is a repository's answer that it defines the symbol more
// than once (the contract's BAD_VALUE on symbol listing the candidates): it defines it, as a
// repository that answers does.
func ambiguous(e *tools.Error) bool {
	return e.Code == tools.CodeBadValue && e.Path == "symbol" && strings.Contains(e.Message, " is defined ")
}

// requestFault reports whether e is the request's fault: every shard would say the same.
func requestFault(e *tools.Error) bool {
	return e.Code == tools.CodeBadQuery || e.Code == tools.CodeBadValue || e.Code == tools.CodeUnknownField
}

// shardResults decodes the result of each part that answered, in parts' order, and hands
// it to use; a part's failure is returned as an ErrorInfo for each of its repositories, or
// as the request's error when it is the request's fault.
func shardResults[R any](parts []shardPart, answers []*ShardAnswer, use func(p shardPart, a *ShardAnswer, r *R)) ([]tools.ErrorInfo, error) {
	var failed []tools.ErrorInfo
	for i, p := range parts {
		a := answers[i]
		if a == nil {
			continue
		}
		r, e := decodeAnswer[R](a)
		if e != nil {
			if requestFault(e) {
				return nil, e
			}
			failed = append(failed, shardErrors(p, e)...)
			continue
		}
		use(p, a, r)
	}
	return failed, nil
}

// answerRepo is the repository a shard's hit or use named ws comes from: named when the
// shard searched several; else the one it answered from.
func answerRepo(ws string, p shardPart, a *ShardAnswer) string {
	switch {
	case ws != "":
		return ws
	case len(a.Repos) == 1:
		return a.Repos[0]
	}
	return p.repos[0]
}

// placedHits merges the shards' hits as --workspace all merges workspaces: by score, then
// by repository, then in the order each gave them; each is named by its repository when
// the operation covers several.
type placedHits struct {
	names []string // sorted
	hits  []tools.Hit
	repo  []int
}

func newPlacedHits(names []string) *placedHits { return &placedHits{names: names} }

// hasName reports whether sorted names holds name.
func hasName(names []string, name string) bool {
	_, ok := slices.BinarySearch(names, name)
	return ok
}

func (ph *placedHits) add(hits []tools.Hit, p shardPart, a *ShardAnswer) {
	for _, h := range hits {
		repo := answerRepo(h.Workspace, p, a)
		h.Workspace = ""
		if len(ph.names) > 1 {
			h.Workspace = repo
		}
		ph.hits = append(ph.hits, h)
		i, _ := slices.BinarySearch(ph.names, repo)
		ph.repo = append(ph.repo, i)
	}
}

func (ph *placedHits) merged() []tools.Hit {
	order := make([]int, len(ph.hits))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if ph.hits[a].Score != ph.hits[b].Score {
			return ph.hits[a].Score > ph.hits[b].Score
		}
		return ph.repo[a] < ph.repo[b]
	})
	out := make([]tools.Hit, len(order))
	for i, k := range order {
		out[i] = ph.hits[k]
	}
	return out
}

// shardErrors are the ErrorInfos of part p's failure e: one for each of its repositories.
func shardErrors(p shardPart, e *tools.Error) []tools.ErrorInfo {
	var out []tools.ErrorInfo
	for _, repo := range p.repos {
		out = append(out, tools.ErrorInfo{Code: e.Code, Workspace: repo, Message: shardLabel(p, repo) + ": " + e.Message})
	}
	return out
}

// clusterSearch runs req on every shard it covers (its workspace, or the query's
// workspace:, names one repository; "all" or none: every one) and merges the rankings as
// --workspace all does. A shard that does not answer within the request's time is named
// in errors, and the answer is truncated.
func (s *router) clusterSearch(ctx context.Context, req tools.SearchRequest) (*tools.SearchResult, error) {
	start := time.Now()
	if err := tools.CheckQueryLength(req); err != nil {
		return nil, err
	}
	doc, err := tools.QueryDocument(req)
	if err != nil {
		return nil, err
	}
	if doc != nil {
		return s.FuseDocument(ctx, req, doc, &clusterLines{s: s, ws: req.Workspace})
	}
	ireq, _, err := s.SearchRequest(req)
	if err != nil {
		return nil, err
	}
	// A page is cut from the merged list of every shard's first offset+limit.
	offset := ireq.Offset
	if offset+ireq.Limit > tools.MaxLimit {
		return nil, tools.Errorf(tools.CodeBadValue, "cursor", "a cluster pages through the first %d results, and this page ends at %d: narrow the query (lang:, path:, a longer literal)", tools.MaxLimit, offset+ireq.Limit)
	}
	pageLimit := offset + ireq.Limit
	sub := req
	sub.MaxBytes, sub.Cursor, sub.Limit = 0, "", &pageLimit
	r, bad, err := s.shardSearch(ctx, sub, "", time.Duration(cmp.Or(req.TimeoutMS, tools.DefaultTimeoutMS))*time.Millisecond)
	if bad != nil {
		return nil, bad
	}
	if err != nil {
		return nil, err
	}
	out := &tools.SearchResult{Query: req.Query, Target: string(ireq.Target), Results: []tools.Hit{}, Errors: append([]tools.ErrorInfo{}, r.gone...),
		Relaxed: r.Relaxed, Truncated: r.Truncated, TotalFilesSearched: r.files}
	if r.TimedOut {
		out.TruncatedReason = tools.TruncatedTimeout
	}
	hits := r.Hits[min(offset, len(r.Hits)):]
	if len(hits) > ireq.Limit {
		hits, out.Truncated = hits[:ireq.Limit], true
	}
	out.Results = hits
	pages := ireq.Target == search.TargetContent || ireq.Target == search.TargetFiles
	if out.Truncated && out.TruncatedReason == "" {
		out.TruncatedReason = tools.TruncatedLimit
		if pages {
			out.NextCursor = tools.EncodeCursor(req, ireq, offset+len(hits))
		}
	}
	if len(out.Errors) > 0 {
		out.Truncated, out.TruncatedReason, out.NextCursor = true, tools.TruncatedShards, ""
	}
	if ireq.Expr == nil && (ireq.Target == search.TargetDefinitions || ireq.Target == search.TargetAuto) && ireq.Offset == 0 {
		out.Notice = search.MissingDefinition(ireq.Query, hits)
	}
	out.Notice = tools.JoinNotices(out.Notice, tools.NotFieldNotice(req.Query))
	tools.FitBytes(&out.Results, s.Budget(ctx, req.MaxBytes), &out.Truncated, &out.TruncatedReason)
	if out.TruncatedReason == tools.TruncatedMaxBytes && pages {
		out.NextCursor = tools.EncodeCursor(req, ireq, offset+len(out.Results)) // the next page starts after what fit
	}
	out.ElapsedMS = tools.ElapsedMS(start)
	return out, nil
}

// clusterGoto merges the shards' definitions by score, as goto over --workspace all does.
func (s *router) clusterGoto(ctx context.Context, req tools.GotoRequest) (*tools.GotoResult, error) {
	start := time.Now()
	names, parts, err := s.clusterParts(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	limit, err := tools.ResultLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	answers, missing, err := s.shardAnswers(ctx, parts, "goto", func(p shardPart) any {
		sreq := req
		sreq.Workspace = p.workspace()
		return sreq
	}, clusterTimeout)
	if err != nil {
		return nil, err
	}
	out := &tools.GotoResult{Symbol: req.Symbol, Results: []tools.Hit{}, Errors: append([]tools.ErrorInfo{}, missing...)}
	ph := newPlacedHits(names)
	failed, err := shardResults(parts, answers, func(p shardPart, a *ShardAnswer, r *tools.GotoResult) {
		ph.add(r.Results, p, a)
		out.Total += r.Total
		out.TotalFilesSearched += r.TotalFilesSearched
	})
	if err != nil {
		return nil, err
	}
	out.Errors = append(out.Errors, failed...)
	hits := ph.merged()
	if len(hits) > limit {
		hits, out.Truncated, out.TruncatedReason = hits[:limit], true, tools.TruncatedLimit
	}
	out.Results = hits
	if len(out.Errors) > 0 {
		out.Truncated, out.TruncatedReason = true, tools.TruncatedShards
	}
	out.ElapsedMS = tools.ElapsedMS(start)
	return out, nil
}

// clusterRefs lists each repository's uses, repository after repository by name, paged as
// refs over --workspace all pages them: where some repository defines the name, one that
// does not adds nothing.
func (s *router) clusterRefs(ctx context.Context, req tools.RefsRequest) (*tools.RefsResult, error) {
	start := time.Now()
	names, parts, err := s.clusterParts(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	limit, err := tools.PageLimit(req.Limit, tools.DefaultRefsLimit, tools.MaxRefsLimit)
	if err != nil {
		return nil, err
	}
	offset, err := tools.ParseCursor(req.Cursor)
	if err != nil {
		return nil, err
	}
	answers, missing, err := s.shardAnswers(ctx, parts, "refs", func(p shardPart) any {
		sreq := req
		sreq.Workspace, sreq.Cursor, sreq.Limit = "all", "", min(offset+limit, tools.MaxRefsLimit)
		if len(p.repos) == 1 {
			sreq.Workspace = p.repos[0]
		}
		return sreq
	}, clusterTimeout)
	if err != nil {
		return nil, err
	}
	results := make([]*tools.RefsResult, len(parts))
	defined := false
	var firstErr *tools.Error
	out := &tools.RefsResult{Symbol: strings.TrimSpace(req.Symbol), Results: []tools.Ref{}, Errors: append([]tools.ErrorInfo{}, missing...)}
	for i, p := range parts {
		a := answers[i]
		if a == nil {
			continue
		}
		r, e := decodeAnswer[tools.RefsResult](a)
		if e != nil {
			if requestFault(e) {
				return nil, e
			}
			if e.Code != tools.CodeNotFound {
				out.Errors = append(out.Errors, shardErrors(p, e)...)
			}
			firstErr = cmp.Or(firstErr, e)
			continue
		}
		results[i] = r
		defined = defined || r.Definition != nil
	}
	if !slices.ContainsFunc(results, func(r *tools.RefsResult) bool { return r != nil }) && firstErr != nil && len(missing) == 0 {
		return nil, firstErr
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	type placedRef struct {
		ref  tools.Ref
		repo int
	}
	var all []placedRef
	for i, p := range parts {
		r := results[i]
		if r == nil || defined && r.Definition == nil {
			continue
		}
		if out.Definition == nil {
			out.Definition = r.Definition
		}
		if out.Notice == "" {
			out.Notice = r.Notice
		}
		out.Total += r.Total
		out.Unresolved += r.Unresolved
		out.UnresolvedListed = out.UnresolvedListed || r.UnresolvedListed
		out.TotalFilesSearched += r.TotalFilesSearched
		for _, ref := range r.Results {
			repo := answerRepo(ref.Workspace, p, answers[i])
			ref.Workspace = ""
			if len(names) > 1 {
				ref.Workspace = repo
			}
			all = append(all, placedRef{ref, index[repo]})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].repo < all[j].repo })
	for _, pr := range all[min(offset, len(all)):min(offset+limit, len(all))] {
		out.Results = append(out.Results, pr.ref)
	}
	if offset+len(out.Results) < out.Total {
		out.Truncated, out.TruncatedReason = true, tools.TruncatedLimit
	}
	if len(out.Errors) > 0 {
		out.Truncated, out.TruncatedReason = true, tools.TruncatedShards
	}
	out.ElapsedMS = tools.ElapsedMS(start)
	return out, nil
}

// clusterOne runs an operation about one definition (calls, explain) on each repository
// ws covers (the named one, or every one), answered by the one that has the definition;
// found in several, the request must name one.
func clusterOne[R any](ctx context.Context, s *router, op string, ask func(ws string) any, ws, what string) (*R, error) {
	_, parts, err := s.clusterParts(ctx, ws)
	if err != nil {
		return nil, err
	}
	parts = eachRepo(parts)
	answers, missing, err := s.shardAnswers(ctx, parts, op, func(p shardPart) any { return ask(p.repos[0]) }, clusterTimeout)
	if err != nil {
		return nil, err
	}
	var found []int
	var firstErr *tools.Error
	for i, a := range answers {
		if a == nil {
			continue
		}
		if a.Error != nil {
			if ambiguous(a.Error) { // the repository defines it, more than once
				found = append(found, i)
				continue
			}
			if requestFault(a.Error) {
				return nil, a.Error
			}
			firstErr = cmp.Or(firstErr, a.Error)
			continue
		}
		found = append(found, i)
	}
	switch {
	case len(found) == 1:
		r, e := decodeAnswer[R](answers[found[0]])
		if e != nil {
			return nil, e
		}
		return r, nil
	case len(found) > 1:
		var in []string
		for _, i := range found {
			name := parts[i].repos[0]
			if e := answers[i].Error; e != nil {
				if _, times, ok := strings.Cut(e.Message, " is defined "); ok {
					name += " (" + strings.SplitN(times, ";", 2)[0] + ")"
				}
			}
			in = append(in, name)
		}
		return nil, tools.Errorf(tools.CodeBadValue, "workspace", "%s is defined in %d repositories of the cluster (%s): name one with workspace", what, len(found), strings.Join(in, ", "))
	case len(missing) > 0:
		return nil, &tools.Error{Code: tools.CodeShardUnavailable, Message: fmt.Sprintf("%s is in no shard that answered; %d did not: %s", what, len(missing), missing[0].Message)}
	case firstErr != nil:
		return nil, firstErr
	}
	return nil, tools.Errorf(tools.CodeNotFound, "", "%s is in no repository of the cluster", what)
}

// requiredLanguages returns languages one of which every hit of r is in (none: any
// language): its language, or those its expression requires (lang:go, lang:go AND x,
// lang:go OR lang:rust; never under a NOT).
func requiredLanguages(r search.Request) []string {
	if r.Language != "" {
		return []string{r.Language}
	}
	var need func(n query.Node) ([]string, bool)
	need = func(n query.Node) ([]string, bool) {
		switch x := n.(type) {
		case *query.Leaf:
			if x.Field == "lang" && x.Kind == query.Word {
				return []string{x.Text}, true
			}
		case *query.Bool:
			var out []string
			found := false
			for _, c := range x.Clauses {
				ls, ok := need(c)
				switch {
				case x.Op == query.Or && !ok:
					return nil, false // a clause in any language
				case x.Op == query.Or:
					out, found = append(out, ls...), true
				case ok && (!found || len(ls) < len(out)):
					out, found = ls, true // AND: any required set holds; the smallest prunes most
				}
			}
			return out, found
		}
		return nil, false
	}
	if r.Expr == nil {
		return nil
	}
	langs, _ := need(r.Expr)
	return langs
}
