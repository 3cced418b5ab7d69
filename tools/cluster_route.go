package tools

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
	"time"

	"github.com/nats-io/nats.go"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/suggest"
)

// SetCluster makes the operations run on cluster c until ctx ends: each shard a request
// covers answers it (its workspace, or all), and the answers are merged as --workspace all
// merges workspaces. Operations on a local workspace itself (index, health,
// manage_workspace) are refused. The catalog is watched, not read on every request.
func (s *Service) SetCluster(ctx context.Context, c *cluster.Cluster) error {
	if err := c.WatchRepos(ctx); err != nil {
		return err
	}
	s.cluster = c
	return nil
}

// Clustered reports whether the operations run on a cluster (SetCluster).
func (s *Service) Clustered() bool { return s.cluster != nil }

// clusterTimeout is how long the router waits for the shards of an operation without a
// time budget of its own.
const clusterTimeout = DefaultTimeoutMS * time.Millisecond

// clusterCall runs op with req on the cluster.
func (s *Service) clusterCall(ctx context.Context, op string, req any) (any, error) {
	switch r := req.(type) {
	case SearchRequest:
		return s.clusterSearch(ctx, r)
	case GotoRequest:
		return s.clusterGoto(ctx, r)
	case RefsRequest:
		return s.clusterRefs(ctx, r)
	case CallsRequest:
		ws := r.Workspace
		r.Workspace = ""
		return clusterOne[CallsResult](ctx, s, op, r, ws, r.Symbol)
	case ExplainRequest:
		ws := r.Workspace
		r.Workspace = ""
		return clusterOne[ExplainResult](ctx, s, op, r, ws, r.Symbol)
	}
	return nil, Errorf(CodeNotAllowed, "", "%s works on a local workspace, not through a cluster", op)
}

// shardAnswers asks op of the shards of repos at once and returns the answers of those
// that answered, and an ErrorInfo for each that did not within timeout.
func (s *Service) shardAnswers(ctx context.Context, repos []string, op string, req any, timeout time.Duration) (map[string]ShardAnswer, []ErrorInfo, error) {
	args, err := json.Marshal(req)
	if err != nil {
		return nil, nil, AsError(err)
	}
	payload, err := json.Marshal(ShardCall{Op: op, Args: args})
	if err != nil {
		return nil, nil, AsError(err)
	}
	answers := make([]ShardAnswer, len(repos))
	failed := make([]error, len(repos))
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var wg sync.WaitGroup
	for i, name := range repos {
		wg.Go(func() {
			m, err := s.cluster.NC.RequestWithContext(rctx, cluster.ShardSubject(name), payload)
			if err == nil {
				err = json.Unmarshal(m.Data, &answers[i])
			}
			failed[i] = err
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, nil, AsError(ctx.Err())
	}
	out := map[string]ShardAnswer{}
	var missing []ErrorInfo
	for i, name := range repos {
		if err := failed[i]; err != nil {
			why := "no node answered within " + timeout.String()
			if errors.Is(err, nats.ErrNoResponders) {
				why = "no node serves it now"
			}
			missing = append(missing, ErrorInfo{Code: CodeShardUnavailable, Workspace: name, Message: "shard " + name + ": " + why})
			continue
		}
		out[name] = answers[i]
	}
	return out, missing, nil
}

// clusterRepos returns the repositories with a shard that workspace ws covers ("" or
// "all": every one), by name.
func (s *Service) clusterRepos(ctx context.Context, ws string) ([]string, error) {
	repos, err := s.cluster.Repos(ctx)
	if err != nil {
		return nil, AsError(err)
	}
	var names []string
	for _, r := range repos {
		if r.Version != "" {
			names = append(names, r.Name)
		}
	}
	if ws == "" || ws == "all" {
		if len(names) == 0 {
			return nil, Errorf(CodeNotIndexed, "", "the cluster has no repository with a shard yet: quarry cluster add, and a node with --index")
		}
		return names, nil
	}
	if !slices.Contains(names, ws) {
		msg := fmt.Sprintf("the cluster has no repository %q with a shard", ws)
		if sug := suggest.Candidates(ws, names); len(sug) > 0 {
			msg += "; did you mean " + sug[0] + "?"
		}
		return nil, Errorf(CodeUnknownWorkspace, "workspace", "%s", msg)
	}
	return []string{ws}, nil
}

// decodeAnswer decodes a shard's result into R, or returns the shard's error.
func decodeAnswer[R any](a ShardAnswer) (*R, *Error) {
	if a.Error != nil {
		return nil, a.Error
	}
	r := new(R)
	if err := json.Unmarshal(a.Result, r); err != nil {
		return nil, Errorf(CodeInternal, "", "shard %s answered a malformed result: %v", a.Repo, err)
	}
	return r, nil
}

// requestFault reports whether e is the request's fault: every shard would say the same.
func requestFault(e *Error) bool {
	return e.Code == CodeBadQuery || e.Code == CodeBadValue || e.Code == CodeUnknownField
}

// shardResults decodes the result of each shard of names that answered, in names' order,
// and hands it to use; a shard's failure is returned as an ErrorInfo, or as the request's
// error when it is the request's fault.
func shardResults[R any](names []string, answers map[string]ShardAnswer, use func(name string, r *R)) ([]ErrorInfo, error) {
	var failed []ErrorInfo
	for _, name := range names {
		a, ok := answers[name]
		if !ok {
			continue
		}
		r, e := decodeAnswer[R](a)
		if e != nil {
			if requestFault(e) {
				return nil, e
			}
			failed = append(failed, shardError(name, e))
			continue
		}
		use(name, r)
	}
	return failed, nil
}

// appendShardHits appends shard name's hits to hits, naming the shard when several answer
// (as --workspace all names the workspace).
func appendShardHits(hits, shard []Hit, name string, several bool) []Hit {
	for _, h := range shard {
		if several {
			h.Workspace = name
		}
		hits = append(hits, h)
	}
	return hits
}

// shardError is the ErrorInfo of shard name's failure e.
func shardError(name string, e *Error) ErrorInfo {
	return ErrorInfo{Code: e.Code, Workspace: name, Message: "shard " + name + ": " + e.Message}
}

// clusterSearch runs req on every shard it covers (its workspace, or the query's
// workspace:, names one repository; "all" or none: every one) and merges the rankings as
// --workspace all does. A shard that does not answer within the request's time is named
// in errors, and the answer is truncated.
func (s *Service) clusterSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	if err := checkQueryLength(req); err != nil {
		return nil, err
	}
	ireq, checked, err := s.searchRequest(req)
	if err != nil {
		return nil, err
	}
	if len(req.Searches) > 0 {
		return nil, Errorf(CodeBadValue, "searches", "query documents are not searched through a cluster yet: send each line as its own search")
	}
	if req.Cursor != "" {
		return nil, Errorf(CodeBadValue, "cursor", "paging through a cluster is not supported yet: raise limit")
	}
	names, err := s.clusterRepos(ctx, checked.workspace)
	if err != nil {
		return nil, err
	}
	timeout := time.Duration(cmp.Or(req.TimeoutMS, DefaultTimeoutMS)) * time.Millisecond
	sreq := req
	sreq.Workspace, sreq.MaxBytes = "", 0
	answers, missing, err := s.shardAnswers(ctx, names, "search", sreq, timeout)
	if err != nil {
		return nil, err
	}
	out := &SearchResult{Query: req.Query, Target: string(ireq.Target), Results: []Hit{}, Errors: append([]ErrorInfo{}, missing...)}
	var hits []Hit
	failed, err := shardResults(names, answers, func(name string, r *SearchResult) {
		hits = appendShardHits(hits, r.Results, name, len(names) > 1)
		out.Relaxed = out.Relaxed || r.Relaxed
		out.Truncated = out.Truncated || r.Truncated
		out.TotalFilesSearched += r.TotalFilesSearched
		if r.TruncatedReason == TruncatedTimeout {
			out.TruncatedReason = TruncatedTimeout
		}
	})
	if err != nil {
		return nil, err
	}
	out.Errors = append(out.Errors, failed...)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	if len(hits) > ireq.Limit {
		hits, out.Truncated = hits[:ireq.Limit], true
	}
	out.Results = hits
	if out.Truncated && out.TruncatedReason == "" {
		out.TruncatedReason = TruncatedLimit
	}
	if len(out.Errors) > 0 {
		out.Truncated, out.TruncatedReason = true, TruncatedShards
	}
	if ireq.Expr == nil && (ireq.Target == search.TargetDefinitions || ireq.Target == search.TargetAuto) && ireq.Offset == 0 {
		out.Notice = search.MissingDefinition(ireq.Query, hits)
	}
	out.Notice = joinNotices(out.Notice, notFieldNotice(req.Query))
	fitBytes(&out.Results, s.budget(ctx, req.MaxBytes), &out.Truncated, &out.TruncatedReason)
	out.ElapsedMS = elapsedMS(start)
	return out, nil
}

// clusterGoto merges the shards' definitions by score, as goto over --workspace all does.
func (s *Service) clusterGoto(ctx context.Context, req GotoRequest) (*GotoResult, error) {
	start := time.Now()
	repos, err := s.clusterRepos(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	limit, err := resultLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	sreq := req
	sreq.Workspace = ""
	answers, missing, err := s.shardAnswers(ctx, repos, "goto", sreq, clusterTimeout)
	if err != nil {
		return nil, err
	}
	out := &GotoResult{Symbol: req.Symbol, Results: []Hit{}, Errors: append([]ErrorInfo{}, missing...)}
	var hits []Hit
	failed, err := shardResults(repos, answers, func(name string, r *GotoResult) {
		hits = appendShardHits(hits, r.Results, name, len(repos) > 1)
		out.Total += r.Total
		out.TotalFilesSearched += r.TotalFilesSearched
	})
	if err != nil {
		return nil, err
	}
	out.Errors = append(out.Errors, failed...)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	if len(hits) > limit {
		hits, out.Truncated, out.TruncatedReason = hits[:limit], true, TruncatedLimit
	}
	out.Results = hits
	if len(out.Errors) > 0 {
		out.Truncated, out.TruncatedReason = true, TruncatedShards
	}
	out.ElapsedMS = elapsedMS(start)
	return out, nil
}

// clusterRefs lists each shard's uses, shard after shard by name, paged as refs over
// --workspace all pages them: where some shard defines the name, a shard that does not adds
// nothing.
func (s *Service) clusterRefs(ctx context.Context, req RefsRequest) (*RefsResult, error) {
	start := time.Now()
	repos, err := s.clusterRepos(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	limit, err := pageLimit(req.Limit, defaultRefsLimit, maxRefsLimit)
	if err != nil {
		return nil, err
	}
	offset, err := parseCursor(req.Cursor)
	if err != nil {
		return nil, err
	}
	sreq := req
	sreq.Workspace, sreq.Cursor, sreq.Limit = "all", "", min(offset+limit, maxRefsLimit)
	answers, missing, err := s.shardAnswers(ctx, repos, "refs", sreq, clusterTimeout)
	if err != nil {
		return nil, err
	}
	results := map[string]*RefsResult{}
	defined := false
	var firstErr *Error
	out := &RefsResult{Symbol: strings.TrimSpace(req.Symbol), Results: []Ref{}, Errors: append([]ErrorInfo{}, missing...)}
	for _, name := range repos {
		a, ok := answers[name]
		if !ok {
			continue
		}
		r, e := decodeAnswer[RefsResult](a)
		if e != nil {
			if requestFault(e) {
				return nil, e
			}
			if e.Code != CodeNotFound {
				out.Errors = append(out.Errors, shardError(name, e))
			}
			firstErr = cmp.Or(firstErr, e)
			continue
		}
		results[name] = r
		defined = defined || r.Definition != nil
	}
	if len(results) == 0 && firstErr != nil && len(missing) == 0 {
		return nil, firstErr
	}
	var all []Ref
	for _, name := range repos {
		r := results[name]
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
		out.TotalFilesSearched += r.TotalFilesSearched
		for _, ref := range r.Results {
			if len(repos) > 1 {
				ref.Workspace = name
			}
			all = append(all, ref)
		}
	}
	out.Results = append(out.Results, all[min(offset, len(all)):min(offset+limit, len(all))]...)
	if offset+len(out.Results) < out.Total {
		out.Truncated, out.TruncatedReason = true, TruncatedLimit
	}
	if len(out.Errors) > 0 {
		out.Truncated, out.TruncatedReason = true, TruncatedShards
	}
	out.ElapsedMS = elapsedMS(start)
	return out, nil
}

// clusterOne runs an operation about one definition (calls, explain): on the named
// repository, or on every shard, answered by the one shard that has the definition; found
// in several, the request must name one.
func clusterOne[R any](ctx context.Context, s *Service, op string, req any, ws, what string) (*R, error) {
	repos, err := s.clusterRepos(ctx, ws)
	if err != nil {
		return nil, err
	}
	answers, missing, err := s.shardAnswers(ctx, repos, op, req, clusterTimeout)
	if err != nil {
		return nil, err
	}
	var found []string
	var firstErr *Error
	for _, name := range repos {
		a, ok := answers[name]
		if !ok {
			continue
		}
		if a.Error != nil {
			if requestFault(a.Error) {
				return nil, a.Error
			}
			firstErr = cmp.Or(firstErr, a.Error)
			continue
		}
		found = append(found, name)
	}
	switch {
	case len(found) == 1:
		r, e := decodeAnswer[R](answers[found[0]])
		if e != nil {
			return nil, e
		}
		return r, nil
	case len(found) > 1:
		return nil, Errorf(CodeBadValue, "workspace", "%s is defined in %d repositories of the cluster (%s): name one with workspace", what, len(found), strings.Join(found, ", "))
	case len(missing) > 0:
		return nil, &Error{Code: CodeShardUnavailable, Message: fmt.Sprintf("%s is in no shard that answered; %d did not: %s", what, len(missing), missing[0].Message)}
	case firstErr != nil:
		return nil, firstErr
	}
	return nil, Errorf(CodeNotFound, "", "%s is in no repository of the cluster", what)
}
