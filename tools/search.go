package tools

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/workspace"
)

// SearchRequest is a search: fast_search over MCP, quarry search on the command line.
type SearchRequest struct {
	Query        string   `json:"query" jsonschema:"what to find: a name (ServeHTTP, get_user_data), words (all must match), \"quoted phrases\" (as written), a file name or path fragment"`
	Target       string   `json:"target,omitempty" jsonschema:"auto (default: definitions, lines and files ranked together), definitions, content (matching lines) or files (paths)"`
	Language     string   `json:"language,omitempty" jsonschema:"only this language (go, python, typescript, rust, ...; aliases like py and ts work)"`
	Kind         []string `json:"kind,omitempty" jsonschema:"only symbols of these kinds (class, function, method, struct, interface, ...)"`
	FilePattern  string   `json:"file_pattern,omitempty" jsonschema:"only paths matching these globs, comma-separated: **/*.go, src/{api,db}/**, !**/vendor/** excludes"`
	Limit        int      `json:"limit,omitempty" jsonschema:"at most this many results, 1 to 500 (default 10)"`
	ContextLines int      `json:"context_lines,omitempty" jsonschema:"lines of context around each matching line, 0 to 50 (definitions always show their first lines)"`
	IncludeTests bool     `json:"include_tests,omitempty" jsonschema:"rank tests, fixtures and test data like source (by default they rank lower unless the query is about tests)"`
	ExcludeTests bool     `json:"exclude_tests,omitempty" jsonschema:"leave tests out"`
	Workspace    string   `json:"workspace,omitempty" jsonschema:"a workspace id (from the workspace list), or all; default the primary workspace"`
	MaxBytes     int      `json:"max_bytes,omitempty" jsonschema:"cut whole results once their JSON exceeds this many bytes (0: no cut)"`
}

// Hit is one search or goto result.
type Hit struct {
	Hit       string        `json:"hit" jsonschema:"definition, content or file"`
	Path      string        `json:"path" jsonschema:"workspace-relative, POSIX"`
	Line      int           `json:"line" jsonschema:"1-based"`
	EndLine   int           `json:"end_line"`
	Column    int           `json:"column,omitempty" jsonschema:"1-based, in characters"`
	Name      string        `json:"name,omitempty"`
	Kind      string        `json:"kind,omitempty"`
	Language  string        `json:"language,omitempty"`
	Signature string        `json:"signature,omitempty"`
	Text      string        `json:"text,omitempty" jsonschema:"the matching line of a content hit"`
	Context   []ContextLine `json:"context,omitempty" jsonschema:"lines around a content hit; the first lines of a definition"`
	Score     float64       `json:"score"`
	SymbolID  string        `json:"symbol_id,omitempty"`
	Workspace string        `json:"workspace,omitempty" jsonschema:"the workspace id, when several were searched"`
}

// ContextLine is one line of source shown with a hit.
type ContextLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

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

// indexRequest checks req and turns it into the index's request.
func (s *Service) indexRequest(req SearchRequest) (index.Request, error) {
	out := index.Request{Query: req.Query, Language: req.Language, Limit: req.Limit, Context: req.ContextLines}
	if strings.TrimSpace(req.Query) == "" {
		return out, &Error{Code: CodeBadQuery, Path: "query", Message: index.ErrEmptyQuery.Error()}
	}
	t, err := index.ParseTarget(req.Target)
	if err != nil {
		return out, AsError(err)
	}
	out.Target = t
	if req.Limit == 0 {
		out.Limit = index.DefaultLimit
	}
	for _, k := range req.Kind {
		out.Kinds = append(out.Kinds, strings.TrimSpace(k))
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

// Search runs a search.
func (s *Service) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	ireq, err := s.indexRequest(req)
	if err != nil {
		return nil, err
	}
	xs, err := s.openIndexes(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	defer s.release(xs)
	res, err := workspace.Search(ctx, xs, ireq)
	if err != nil {
		return nil, AsError(err)
	}
	out := &SearchResult{Query: req.Query, Target: string(ireq.Target), Results: hits(res.Hits), Relaxed: res.Relaxed,
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

// hits converts the index's hits to the contract's.
func hits(in []index.Hit) []Hit {
	out := make([]Hit, len(in))
	for i, h := range in {
		out[i] = Hit{Hit: string(h.Hit), Path: h.Path, Line: h.Line, EndLine: h.EndLine, Column: h.Column, Name: h.Name,
			Kind: h.Kind, Language: h.Language, Signature: h.Signature, Text: h.Text, Score: h.Score, SymbolID: h.SymbolID,
			Workspace: h.Workspace}
		for _, c := range h.Context {
			out[i].Context = append(out[i].Context, ContextLine(c))
		}
	}
	return out
}

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
	Limit       int    `json:"limit,omitempty" jsonschema:"at most this many definitions, 1 to 500 (default 10)"`
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

// Goto finds the definitions of a symbol.
func (s *Service) Goto(ctx context.Context, req GotoRequest) (*GotoResult, error) {
	start := time.Now()
	if strings.TrimSpace(req.Symbol) == "" {
		return nil, Errorf(CodeBadQuery, "symbol", "empty symbol: give the name of a definition")
	}
	limit, err := pageLimit(req.Limit, index.DefaultLimit, index.MaxLimit)
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
	found, err := workspace.Goto(ctx, xs, strings.TrimSpace(req.Symbol), rel)
	if err != nil {
		return nil, AsError(err)
	}
	out := &GotoResult{Symbol: req.Symbol, Results: hits(found), Errors: []ErrorInfo{}}
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
