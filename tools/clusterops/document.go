package clusterops

// Searches through a cluster: each on every shard it covers (shardSearch, the shards'
// answers merged as --workspace all merges workspaces); a query document as one process
// runs it (fuseDocument), each line such a search (clusterLines), fused by the router.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// The operations a router asks of a shard for a query document: not the contract's, so
// no MCP client can name them.
const (
	opSearchLine  = "quarry.search_line"
	opExpandWords = "quarry.expand_words"
)

// lineCall is one line of a query document, as a router sends it to a shard.
type lineCall struct {
	Request tools.SearchRequest `json:"request"`
	Vector  string              `json:"vector,omitempty"` // a vec: or hyde: line's text
}

// lineHit is a hit of a line with the facts its fusion reads.
type lineHit struct {
	search.Hit
	Facts search.RankFacts `json:"facts"`
}

// lineResult is a shard's answer to a lineCall.
type lineResult struct {
	Hits      []lineHit `json:"hits"`
	Relaxed   bool      `json:"relaxed,omitempty"`
	Truncated bool      `json:"truncated,omitempty"`
	TimedOut  bool      `json:"timed_out,omitempty"`
	Files     int       `json:"files"`
	NoVectors bool      `json:"no_vectors,omitempty"` // the index has no symbol vectors yet
	Embedder  string    `json:"embedder,omitempty"`   // the embedder failed: why
}

// expandCall asks a shard's repository for the nearest terms of a text's words.
type expandCall struct {
	Workspace string `json:"workspace"`
	Text      string `json:"text"`
}

// shardOp answers a router's internal operation on a shard's service; ok false for an
// operation of the contract.
func shardOp(ctx context.Context, s *tools.Service, op string, args json.RawMessage) (res any, ok bool, err error) {
	switch op {
	case opSearchLine:
		var c lineCall
		if err := json.Unmarshal(args, &c); err != nil {
			return nil, true, tools.AsError(err)
		}
		res, err := searchLine(ctx, s, c)
		return res, true, err
	case opExpandWords:
		var c expandCall
		if err := json.Unmarshal(args, &c); err != nil {
			return nil, true, tools.AsError(err)
		}
		xs, err := s.OpenIndexes(ctx, c.Workspace)
		if err != nil {
			return nil, true, err
		}
		defer s.Release(xs)
		words, err := tools.ExpandVariant(ctx, xs, c.Text)
		if err != nil {
			return nil, true, tools.AsError(err)
		}
		return words, true, nil
	}
	return nil, false, nil
}

// searchLine runs one line of a query document on the shard's indexes.
func searchLine(ctx context.Context, s *tools.Service, c lineCall) (*lineResult, error) {
	ireq, xs, err := s.PrepareSearch(ctx, c.Request)
	if err != nil {
		s.Release(xs)
		return nil, err
	}
	defer s.Release(xs)
	ireq.Vector = c.Vector
	sctx, cancel := context.WithTimeout(ctx, time.Duration(max(c.Request.TimeoutMS, tools.DefaultTimeoutMS))*time.Millisecond)
	defer cancel()
	res, err := workspace.Search(sctx, xs, ireq)
	out := &lineResult{Hits: []lineHit{}}
	switch {
	case errors.Is(err, vectors.ErrNoVectors):
		out.NoVectors = true
	case errors.Is(err, vectors.ErrEmbedder):
		out.Embedder = err.Error()
	case err != nil:
		return nil, tools.AsError(err)
	default:
		for _, h := range res.Hits {
			out.Hits = append(out.Hits, lineHit{Hit: h, Facts: h.RankFacts()})
		}
		out.Relaxed, out.Truncated, out.TimedOut = res.Relaxed, res.Truncated, res.TimedOut
	}
	if out.Files, err = tools.FilesIn(ctx, xs); err != nil {
		return nil, err
	}
	return out, nil
}

// clusterLines runs a document's lines on a cluster's shards.
type clusterLines struct {
	s        *router
	ws       string // the document's workspace ("" or "all": every repository)
	lines    int
	first    int // files the first line searched
	gone     []tools.ErrorInfo
	goneSeen map[string]bool
}

func (c *clusterLines) Fresh(context.Context, string) *workspace.Freshness { return nil }
func (c *clusterLines) Files(context.Context) (int, error)                 { return c.first, nil }
func (c *clusterLines) Missing() []tools.ErrorInfo                         { return c.gone }
func (c *clusterLines) Release()                                           {}

func (c *clusterLines) note(infos []tools.ErrorInfo) {
	if c.goneSeen == nil {
		c.goneSeen = map[string]bool{}
	}
	for _, e := range infos {
		if !c.goneSeen[e.Workspace] {
			c.goneSeen[e.Workspace] = true
			c.gone = append(c.gone, e)
		}
	}
}

func (c *clusterLines) Search(ctx, sctx context.Context, sub tools.SearchRequest, vector string) (*search.Result, error, error) {
	timeout := clusterTimeout
	if d, ok := sctx.Deadline(); ok {
		timeout = max(time.Until(d), time.Millisecond)
	}
	r, bad, err := c.s.shardSearch(ctx, sub, vector, timeout)
	if bad != nil || err != nil {
		return nil, bad, err
	}
	c.note(r.gone)
	if c.lines++; c.lines == 1 {
		c.first = r.files
	}
	switch { // as one process: a line any workspace cannot search is skipped
	case r.noVectors:
		return nil, nil, vectors.ErrNoVectors
	case r.embedder != "":
		return nil, nil, fmt.Errorf("%w: %s", vectors.ErrEmbedder, r.embedder)
	}
	return &r.Result, nil, nil
}

// shardSearched is one search merged from the shards it covers.
type shardSearched struct {
	// Result: the hits ordered and named as --workspace all orders and names them, each
	// with its rank facts, cut at the request's limit.
	search.Result
	files     int               // files the shards searched
	gone      []tools.ErrorInfo // the repositories whose shard did not answer, or failed
	noVectors bool              // a shard has no symbol vectors yet
	embedder  string            // a shard's embedder failed: why
}

// shardSearch runs sub (a plain search; with vector, a vec: or hyde: line's) on every shard
// it covers, within timeout, and merges the answers as --workspace all merges workspaces.
// A fault of the request is returned as bad.
func (s *router) shardSearch(ctx context.Context, sub tools.SearchRequest, vector string, timeout time.Duration) (out *shardSearched, bad, err error) {
	ireq, checked, err := s.SearchRequest(sub)
	if err != nil {
		return nil, err, nil
	}
	names, parts, err := s.clusterParts(ctx, checked.Workspace(), requiredLanguages(ireq)...)
	if err != nil {
		return nil, err, nil
	}
	answers, gone, err := s.shardAnswers(ctx, parts, opSearchLine, func(p shardPart) any {
		r := sub
		r.Workspace = p.workspace()
		return lineCall{Request: r, Vector: vector}
	}, timeout)
	if err != nil {
		return nil, nil, err
	}
	out = &shardSearched{gone: gone}
	ph := newPlacedHits(names)
	var relaxed workspace.Relaxation
	failed, err := shardResults(parts, answers, func(p shardPart, a *ShardAnswer, r *lineResult) {
		out.noVectors = out.noVectors || r.NoVectors
		out.embedder = cmp.Or(r.Embedder, out.embedder)
		hits := make([]tools.Hit, len(r.Hits))
		for i, lh := range r.Hits {
			hits[i] = lh.Hit
			hits[i].SetRankFacts(lh.Facts)
		}
		ph.add(hits, p, a)
		relaxed.Add(r.Relaxed, len(r.Hits))
		out.Truncated = out.Truncated || r.Truncated
		out.TimedOut = out.TimedOut || r.TimedOut
		out.files += r.Files
	})
	if err != nil {
		return nil, err, nil
	}
	out.gone = append(out.gone, failed...)
	out.Relaxed = relaxed.Relaxed()
	out.Hits = ph.merged()
	if len(out.Hits) > ireq.Limit {
		out.Hits, out.Truncated = out.Hits[:ireq.Limit], true
	}
	return out, nil, nil
}

// expand asks each repository the document covers for its words' nearest terms, and joins
// them in the repositories' order, each once (as one process over them does).
func (c *clusterLines) Expand(ctx context.Context, text string) (string, error) {
	names, parts, err := c.s.clusterParts(ctx, c.ws)
	if err != nil {
		return "", err
	}
	parts = eachRepo(parts)
	answers, gone, err := c.s.shardAnswers(ctx, parts, opExpandWords, func(p shardPart) any {
		return expandCall{Workspace: p.repos[0], Text: text}
	}, clusterTimeout)
	if err != nil {
		return "", err
	}
	c.note(gone)
	of := map[string]string{} // repository -> its words
	failed, err := shardResults(parts, answers, func(p shardPart, _ *ShardAnswer, r *string) { of[p.repos[0]] = *r })
	if err != nil {
		return "", err
	}
	c.note(failed)
	var words []string
	for _, name := range names {
		for _, w := range strings.Fields(of[name]) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return strings.Join(words, " "), nil
}
