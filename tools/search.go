package tools

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/workspace"
)

// SearchRequest is a search: fast_search over MCP, quarry search on the command line.
type SearchRequest struct {
	Query        string   `json:"query" jsonschema:"what to find: a name (ServeHTTP, get_user_data), words (all must match), \"quoted phrases\" (as written), a file name or path fragment"`
	Target       string   `json:"target,omitempty" jsonschema:"auto (default: definitions, lines and files ranked together), definitions, content (matching lines) or files (paths)"`
	Language     string   `json:"language,omitempty" jsonschema:"only this language (go, python, typescript, rust, ...; aliases like py and ts work)"`
	Kind         []string `json:"kind,omitempty" jsonschema:"only symbols of these kinds (class, function, method, struct, interface, ...)"`
	FilePattern  string   `json:"file_pattern,omitempty" jsonschema:"only paths matching these globs, comma-separated: **/*.go, src/{api,db}/**, !**/vendor/** excludes"`
	Limit        *int     `json:"limit,omitempty" jsonschema:"at most this many results, 1 to 500 (default 10)"`
	ContextLines int      `json:"context_lines,omitempty" jsonschema:"lines of context around each matching line, 0 to 50 (definitions always show their first lines)"`
	IncludeTests bool     `json:"include_tests,omitempty" jsonschema:"rank tests, fixtures and test data like source (by default they rank lower unless the query is about tests)"`
	ExcludeTests bool     `json:"exclude_tests,omitempty" jsonschema:"leave tests out"`
	Workspace    string   `json:"workspace,omitempty" jsonschema:"a workspace id (from the workspace list), or all; default the primary workspace"`
	MaxBytes     int      `json:"max_bytes,omitempty" jsonschema:"cut whole results once their JSON exceeds this many bytes (0: no cut)"`
}

// Hit is one search or goto result: the index's hit, as it is on the wire.
type Hit = index.Hit

// ContextLine is one line of source shown with a hit.
type ContextLine = index.ContextLine

// What a hit is (its hit field).
const (
	HitDefinition = index.HitDefinition
	HitContent    = index.HitContent
	HitFile       = index.HitFile
)

// Targets lists the search targets, the default first.
func Targets() []string { return targetNames() }

// Plan is how a search runs in one workspace (quarry search --debug-query): the parsed
// query and the compiled full-text query of each target.
type Plan struct {
	Workspace string
	index.Plan
}

// ExplainSearch checks req like Search and returns how it would run in each workspace,
// without running it.
func (s *Service) ExplainSearch(ctx context.Context, req SearchRequest) ([]Plan, error) {
	ireq, xs, err := s.prepareSearch(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.release(xs)
	var out []Plan
	for _, x := range xs {
		p, err := x.Explain(ireq)
		if err != nil {
			return nil, AsError(err)
		}
		out = append(out, Plan{Workspace: x.Entry.ID, Plan: *p})
	}
	return out, nil
}

// Limits of search and goto requests: the one place their defaults and ranges are set.
const (
	DefaultLimit = 10  // results when a request sets no limit
	MaxLimit     = 500 // the most results a request may ask for
	MaxContext   = 50  // the most context lines a request may ask for
)

// SearchResult is the answer to a SearchRequest.
type SearchResult struct {
	Query              string      `json:"query"`
	Target             string      `json:"target"`
	Results            []Hit       `json:"results"`
	Relaxed            bool        `json:"relaxed" jsonschema:"no result held every word, so results with any of them are shown"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty" jsonschema:"limit, max_bytes or timeout"`
	TotalFilesSearched int         `json:"total_files_searched"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
}

// indexRequest checks req and turns it into the index's request, which the layers below
// trust: this is the one place a search request is validated and its defaults applied.
func (s *Service) indexRequest(req SearchRequest) (index.Request, error) {
	out := index.Request{Language: req.Language, Context: req.ContextLines}
	q, err := parseQuery("query", req.Query)
	if err != nil {
		return out, err
	}
	out.Query = q
	if out.Target, err = index.ParseTarget(req.Target); err != nil {
		if s := suggest.Candidates(req.Target, targetNames()); len(s) > 0 {
			return out, Errorf(CodeBadValue, "target", "%v; did you mean %s?", err, s[0])
		}
		return out, AsError(err)
	}
	if out.Limit, err = resultLimit(req.Limit); err != nil {
		return out, err
	}
	if req.ContextLines < 0 || req.ContextLines > MaxContext {
		return out, Errorf(CodeBadValue, "context_lines", "context_lines %d out of range: give 0 to %d lines", req.ContextLines, MaxContext)
	}
	if req.Language != "" {
		l, err := s.langs.Resolve(req.Language)
		if err != nil {
			return out, AsError(err)
		}
		out.Language = l.Name
	}
	if out.Kinds, err = kindNames(req.Kind); err != nil {
		return out, err
	}
	if out.Pattern, err = index.ParseFilePattern(req.FilePattern); err != nil {
		return out, AsError(err)
	}
	switch {
	case req.IncludeTests && req.ExcludeTests:
		return out, Errorf(CodeBadValue, "exclude_tests", "include_tests and exclude_tests contradict each other; give one")
	case req.IncludeTests:
		out.Tests = index.TestsInclude
	case req.ExcludeTests:
		out.Tests = index.TestsExclude
	}
	if req.MaxBytes < 0 {
		return out, Errorf(CodeBadValue, "max_bytes", "max_bytes %d: give 0 (no cut) or a positive number of bytes", req.MaxBytes)
	}
	return out, nil
}

// resultLimit checks the limit of a search or goto: DefaultLimit when none is given, else 1
// to MaxLimit (an explicit 0 is out of range, not the default).
func resultLimit(limit *int) (int, error) {
	switch {
	case limit == nil:
		return DefaultLimit, nil
	case *limit < 1 || *limit > MaxLimit:
		return 0, Errorf(CodeBadValue, "limit", "limit %d out of range: give 1 to %d", *limit, MaxLimit)
	}
	return *limit, nil
}

// parseQuery parses the query text of field; an error is BAD_QUERY with its position.
func parseQuery(field, text string) (*query.Query, error) {
	q, err := query.Parse(text)
	if err != nil {
		return nil, &Error{Code: CodeBadQuery, Path: field, Message: err.Error(), err: err}
	}
	return q, nil
}

// kindNames checks symbol kind names, returning them canonical.
func kindNames(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		k, err := parseKind(n)
		if err != nil {
			return nil, err
		}
		out = append(out, k.String())
	}
	return out, nil
}

// targetNames lists the search targets.
func targetNames() []string {
	names := make([]string, len(index.Targets))
	for i, t := range index.Targets {
		names[i] = string(t)
	}
	return names
}

// prepareSearch checks req and opens the indexes it covers; the caller releases them.
func (s *Service) prepareSearch(ctx context.Context, req SearchRequest) (index.Request, []*workspace.SearchIndex, error) {
	ireq, err := s.indexRequest(req)
	if err != nil {
		return ireq, nil, err
	}
	xs, err := s.openIndexes(ctx, req.Workspace)
	return ireq, xs, err
}

// Search runs a search.
func (s *Service) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	ireq, xs, err := s.prepareSearch(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.release(xs)
	res, err := workspace.Search(ctx, xs, ireq)
	if err != nil {
		return nil, AsError(err)
	}
	out := &SearchResult{Query: req.Query, Target: string(ireq.Target), Results: res.Hits, Relaxed: res.Relaxed,
		Truncated: res.Truncated, Errors: []ErrorInfo{}}
	if res.Truncated {
		out.TruncatedReason = TruncatedLimit
	}
	if out.TotalFilesSearched, err = filesIn(ctx, xs); err != nil {
		return nil, err
	}
	fitBytes(&out.Results, s.budget(req.MaxBytes), &out.Truncated, &out.TruncatedReason)
	out.ElapsedMS = elapsedMS(start)
	return out, nil
}

func elapsedMS(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

// fitBytes cuts whole results from the end until their JSON fits in maxBytes (0: no cut);
// at least one result stays, so an answer is never empty because one result is large.
func fitBytes[T any](results *[]T, maxBytes int, truncated *bool, reason *string) {
	if maxBytes <= 0 {
		return
	}
	total := 2 // the brackets of the array
	for i, r := range *results {
		b, err := json.Marshal(r)
		if err != nil {
			continue
		}
		total += len(b) + 1
		if total > maxBytes && i > 0 {
			*results = (*results)[:i]
			*truncated, *reason = true, TruncatedMaxBytes
			return
		}
	}
}

// GotoRequest asks where a symbol is defined.
type GotoRequest struct {
	Symbol      string `json:"symbol" jsonschema:"the name to find the definition of; may be qualified (http.HandlerFunc, Vec::new)"`
	ContextFile string `json:"context_file,omitempty" jsonschema:"the file the name is used in (workspace-relative or absolute): definitions near it come first"`
	Workspace   string `json:"workspace,omitempty" jsonschema:"a workspace id, or all; default the primary workspace"`
	Limit       *int   `json:"limit,omitempty" jsonschema:"at most this many definitions, 1 to 500 (default 10)"`
}

// GotoResult lists the definitions of a symbol, best first.
type GotoResult struct {
	Symbol             string      `json:"symbol"`
	Results            []Hit       `json:"results"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty"`
	TotalFilesSearched int         `json:"total_files_searched"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
}

// maxGotoCandidates is how many definitions goto considers before ordering them.
const maxGotoCandidates = 100

// Goto finds the definitions of a symbol.
func (s *Service) Goto(ctx context.Context, req GotoRequest) (*GotoResult, error) {
	start := time.Now()
	if strings.TrimSpace(req.Symbol) == "" {
		return nil, Errorf(CodeBadQuery, "symbol", "empty symbol: give the name of a definition")
	}
	q, err := parseQuery("symbol", strings.TrimSpace(req.Symbol))
	if err != nil {
		return nil, err
	}
	limit, err := resultLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	rel, err := s.relPath("context_file", req.ContextFile)
	if err != nil {
		return nil, err
	}
	xs, err := s.openIndexes(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	defer s.release(xs)
	found, err := workspace.Goto(ctx, xs, index.Request{Query: q, Target: index.TargetDefinitions, Limit: maxGotoCandidates}, rel)
	if err != nil {
		return nil, AsError(err)
	}
	out := &GotoResult{Symbol: req.Symbol, Results: append([]Hit{}, found...), Errors: []ErrorInfo{}}
	if out.TotalFilesSearched, err = filesIn(ctx, xs); err != nil {
		return nil, err
	}
	if len(out.Results) > limit {
		out.Results, out.Truncated, out.TruncatedReason = out.Results[:limit], true, TruncatedLimit
	}
	fitBytes(&out.Results, s.budget(0), &out.Truncated, &out.TruncatedReason)
	out.ElapsedMS = elapsedMS(start)
	return out, nil
}

// budget returns the byte budget of an answer: the request's, else the service's default.
func (s *Service) budget(requested int) int {
	if requested > 0 {
		return requested
	}
	return s.MaxBytes
}

// filesIn returns the number of files indexed in xs.
func filesIn(ctx context.Context, xs []*workspace.SearchIndex) (int, error) {
	total := 0
	for _, x := range xs {
		n, err := x.FileCount(ctx)
		if err != nil {
			return 0, AsError(err)
		}
		total += n
	}
	return total, nil
}
