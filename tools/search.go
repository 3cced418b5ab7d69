package tools

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/workspace"
)

// SearchRequest is a search: fast_search over MCP, quarry search on the command line.
type SearchRequest struct {
	Query        string       `json:"query" jsonschema:"a name (ServeHTTP, get_user_data), words (all must match), \"a phrase\", a file name or path fragment; or the query language and query documents of quarry://query-language"`
	Target       string       `json:"target,omitempty" jsonschema:"auto (default: definitions, lines and files ranked together), definitions, content (lines) or files (paths)"`
	Language     string       `json:"language,omitempty" jsonschema:"only this language (go, python, typescript, rust, ...; aliases like py and ts work)"`
	Kind         []string     `json:"kind,omitempty" jsonschema:"only symbols of these kinds (class, function, method, struct, interface, ...)"`
	FilePattern  string       `json:"file_pattern,omitempty" jsonschema:"only paths matching these globs, comma-separated: **/*.go, src/{api,db}/**, !**/vendor/** excludes"`
	Limit        *int         `json:"limit,omitempty" jsonschema:"at most this many results, 1 to 500 (default 10)"`
	ContextLines int          `json:"context_lines,omitempty" jsonschema:"lines of context around each matching line, 0 to 50"`
	IncludeTests bool         `json:"include_tests,omitempty" jsonschema:"rank tests like source (else they rank lower unless the query is about tests)"`
	ExcludeTests bool         `json:"exclude_tests,omitempty" jsonschema:"leave tests out"`
	Workspace    string       `json:"workspace,omitempty" jsonschema:"a workspace id, or all; default the primary workspace"`
	MaxBytes     int          `json:"max_bytes,omitempty" jsonschema:"cut whole results once their JSON exceeds this many bytes (0: no cut)"`
	Cursor       string       `json:"cursor,omitempty" jsonschema:"the next_cursor of the previous page (content and files targets)"`
	TimeoutMS    int          `json:"timeout_ms,omitempty" jsonschema:"answer with what was found after this many milliseconds (default 10000, at most 60000)"`
	Searches     []SearchLine `json:"searches,omitempty" jsonschema:"a query document as a list, instead of query: up to 10 lines {type, query}, searched apart and fused"`
	Explain      bool         `json:"explain,omitempty" jsonschema:"per result, the parts of its score (and each query document line's rank)"`
	Intent       string       `json:"intent,omitempty" jsonschema:"what the search is about, in words: biases vec: and hyde: lines and lifts results sharing its words"`
}

// Hit is one search or goto result: the index's hit, as it is on the wire.
type Hit = search.Hit

// ContextLine is one line of source shown with a hit.
type ContextLine = search.ContextLine

// What a hit is (its hit field).
const (
	HitDefinition = search.HitDefinition
	HitContent    = search.HitContent
	HitFile       = search.HitFile
)

// Targets lists the search targets, the default first.
func Targets() []string { return targetNames() }

// Plan is how a search runs in one workspace (quarry search --debug-query): the parsed
// query and the compiled full-text query of each target.
type Plan struct {
	Workspace string
	search.Plan
}

// ExplainSearch checks req like Search and returns how it would run in each workspace,
// without running it.
func (s *Service) ExplainSearch(ctx context.Context, req SearchRequest) ([]Plan, error) {
	ireq, xs, err := s.PrepareSearch(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.Release(xs)
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
	Notice             string      `json:"notice,omitempty" jsonschema:"what the results are not, in words: 'no definition named X; showing related' when an identifier has no definition"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty" jsonschema:"limit, max_bytes, timeout, or shards (a cluster's shards did not all answer: errors names them)"`
	NextCursor         string      `json:"next_cursor,omitempty" jsonschema:"pass as cursor to get the next page (content and files targets, when truncated by the limit)"`
	TotalFilesSearched int         `json:"total_files_searched"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
}

// Time budgets of a search.
const (
	DefaultTimeoutMS = 10000 // a search's time when the request sets none
	MaxTimeoutMS     = 60000 // the most a request may ask for
)

// checkedSearch is what checking a search request finds besides the index's request.
type checkedSearch struct {
	workspace string           // the workspace searched: the request's, or the query's workspace:
	dirs      query.Directives // the query's directives (case:, type:, test:, workspace:)
}

// Workspace is the workspace searched.
func (c checkedSearch) Workspace() string { return c.workspace }

// SearchRequest checks req and turns it into the index's request, which the layers below
// trust: the one place a search request is validated and its defaults applied. It also
// returns the workspace searched and the query's directives.
func (s *Service) SearchRequest(req SearchRequest) (search.Request, checkedSearch, error) {
	c := checkedSearch{workspace: req.Workspace}
	out, err := s.checkSearch(req, &c)
	return out, c, err
}

// MaxQueryBytes is the longest query text (and query document line) a search takes.
const MaxQueryBytes = 8192

// checkQueryLength refuses a query text, or a searches line, over MaxQueryBytes.
func CheckQueryLength(req SearchRequest) error {
	if n := len(req.Query); n > MaxQueryBytes {
		return Errorf(CodeBadQuery, "query", "the query is %d bytes: at most %d; search for a shorter, distinctive part", n, MaxQueryBytes)
	}
	for i, l := range req.Searches {
		if n := len(l.Query); n > MaxQueryBytes {
			return Errorf(CodeBadQuery, fmt.Sprintf("searches[%d]", i), "searches[%d] is %d bytes: at most %d", i, n, MaxQueryBytes)
		}
	}
	return nil
}

func (s *Service) checkSearch(req SearchRequest, checked *checkedSearch) (search.Request, error) {
	if err := CheckQueryLength(req); err != nil {
		return search.Request{}, err
	}
	out := search.Request{Language: req.Language, Context: req.ContextLines, Explain: req.Explain}
	var err error
	if !query.Engages(req.Query) {
		if out.Query, err = parseQuery("query", req.Query); err != nil {
			return out, err
		}
	}
	if out.Target, err = search.ParseTarget(req.Target); err != nil {
		if s := suggest.Candidates(req.Target, targetNames()); len(s) > 0 {
			return out, Errorf(CodeBadValue, "target", "%v; did you mean %s?", err, s[0])
		}
		return out, AsError(err)
	}
	if out.Limit, err = ResultLimit(req.Limit); err != nil {
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
	if out.Pattern, err = query.ParseFilePattern(req.FilePattern); err != nil {
		return out, AsError(err)
	}
	switch {
	case req.IncludeTests && req.ExcludeTests:
		return out, Errorf(CodeBadValue, "exclude_tests", "include_tests and exclude_tests contradict each other; give one")
	case req.IncludeTests:
		out.Tests = search.TestsInclude
	case req.ExcludeTests:
		out.Tests = search.TestsExclude
	}
	if req.MaxBytes < 0 {
		return out, Errorf(CodeBadValue, "max_bytes", "max_bytes %d: give 0 (no cut) or a positive number of bytes", req.MaxBytes)
	}
	if req.TimeoutMS < 0 || req.TimeoutMS > MaxTimeoutMS {
		return out, Errorf(CodeBadValue, "timeout_ms", "timeout_ms %d out of range: give 1 to %d milliseconds (0: the default, %d)", req.TimeoutMS, MaxTimeoutMS, DefaultTimeoutMS)
	}
	if out.Query == nil {
		if err := s.expression(req, &out, checked); err != nil {
			return out, err
		}
	}
	if req.Cursor != "" {
		if out.Offset, err = decodeCursor(req, out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// expression parses req's query as a query-language expression into out: the directives
// (case:, type:, test:, workspace:) set how the search runs, and contradict the request's
// parameters only at the cost of an error.
func (s *Service) expression(req SearchRequest, out *search.Request, checked *checkedSearch) error {
	text := req.Query
	n, err := query.ParseExpr(text, query.Options{Values: map[string][]string{"kind": extract.Kinds(), "lang": s.languageNames()}})
	if err != nil {
		return badQuery(err)
	}
	rest, dirs, err := query.Split(text, n)
	if err != nil {
		return badQuery(err)
	}
	fail := func(pos int, format string, a ...any) error {
		return badQuery(query.NewError(text, pos, fmt.Sprintf(format, a...)))
	}
	if rest == nil {
		return fail(0, "the query holds only %s: add what to search for (a word, a phrase, a /regex/ or a field like name: or lang:)", "case:, type:, test: or workspace:")
	}
	at := func(field string) int {
		for _, l := range query.Leaves(n, field) {
			return l.At
		}
		return 0
	}
	if dirs.Type != "" {
		t := map[string]search.Target{"def": search.TargetDefinitions, "line": search.TargetContent, "file": search.TargetFiles}[dirs.Type]
		if out.Target != search.TargetAuto && out.Target != t {
			return fail(at("type"), "type:%s contradicts target %s: give one", dirs.Type, out.Target)
		}
		out.Target = t
	}
	switch dirs.Test {
	case "yes":
		if req.ExcludeTests {
			return fail(at("test"), "test:yes contradicts exclude_tests: give one")
		}
		out.Tests = search.TestsOnly
	case "no":
		if req.IncludeTests {
			return fail(at("test"), "test:no contradicts include_tests: give one")
		}
		out.Tests = search.TestsExclude
	}
	if dirs.Workspace != "" && req.Workspace != "" && dirs.Workspace != req.Workspace {
		return fail(at("workspace"), "workspace:%s contradicts workspace %s: give one", dirs.Workspace, req.Workspace)
	}
	checked.dirs = dirs
	if dirs.Workspace != "" {
		checked.workspace = dirs.Workspace
	}
	for _, l := range query.Leaves(rest, "lang") {
		lang, err := s.langs.Resolve(l.Text)
		if err != nil {
			return fail(l.At, "%v", err)
		}
		l.Text = lang.Name
		if out.Language != "" && lang.Name != out.Language {
			return fail(l.At, "lang:%s contradicts language %s: give one", lang.Name, out.Language)
		}
	}
	if len(out.Kinds) > 0 {
		for _, l := range query.Leaves(rest, "kind") {
			if !slices.Contains(out.Kinds, l.Text) {
				return fail(l.At, "kind:%s contradicts kind %s: give one", l.Text, strings.Join(out.Kinds, ","))
			}
		}
	}
	var badRange *query.Range
	query.Walk(rest, func(n query.Node, _ bool) {
		if r, ok := n.(*query.Range); ok && badRange == nil && !rangeFields[r.Field] {
			badRange = r
		}
	})
	if badRange != nil {
		return fail(badRange.At, "%s: takes no range: ranges apply to line:, name:, parent: and ext:", badRange.Field)
	}
	if out.Target == search.TargetContent || out.Target == search.TargetAuto {
		top := map[query.Node]bool{rest: true}
		if b, ok := rest.(*query.Bool); ok && b.Op == query.And {
			for _, c := range b.Clauses {
				top[c] = true
			}
		}
		var inner *query.Range
		query.Walk(rest, func(n query.Node, _ bool) {
			if r, ok := n.(*query.Range); ok && r.Field == "line" && !top[n] && inner == nil {
				inner = r
			}
		})
		if inner != nil {
			return fail(inner.At, "line: chooses the lines shown: put it at the top level of the query, not under OR, NOT or in a group (or search definitions: type:def)")
		}
	}
	if out.Target != search.TargetAuto {
		if f, pos := query.FieldFor(rest, string(out.Target)); f != "" {
			fd, _ := query.LookupField(f)
			return fail(pos, "%s: applies to %s, not to the %s target", f, strings.Join(fd.Targets, " and "), out.Target)
		}
	} else if len(query.Targets(rest)) == 0 {
		return fail(0, "the fields of this query apply to no one target (definitions, content or files): split it into several searches")
	}
	out.Expr, out.Case, out.Query = rest, dirs.Case, query.Plain(rest)
	return nil
}

// rangeFields are the fields a range [a TO b] applies to: line numbers, and names and
// extensions compared as text.
var rangeFields = map[string]bool{"line": true, "name": true, "parent": true, "ext": true}

// languageNames lists every language name and alias, the values lang: takes.
func (s *Service) languageNames() []string {
	var out []string
	for _, l := range s.langs.All() {
		out = append(out, l.Name)
		out = append(out, l.Aliases...)
	}
	return out
}

// badQuery is a query error as the contract's BAD_QUERY (or UNKNOWN_FIELD for a field
// name that does not exist), with the position in its message.
func badQuery(err error) error {
	code := CodeBadQuery
	if strings.Contains(err.Error(), "unknown field") {
		code = CodeUnknownField
	}
	return &Error{Code: code, Path: "query", Message: err.Error(), err: err}
}

// cursor is what a next_cursor encodes: the offset of the next page, and a fingerprint of
// the request it pages, so a cursor is not used with another query.
type cursor struct {
	Offset int    `json:"o"`
	Of     string `json:"q"`
}

// fingerprint identifies what a cursor pages: the query and every parameter that changes
// the results.
func fingerprint(req SearchRequest, ir search.Request) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v\x00%s\x00%v\x00%v\x00%s", req.Query, ir.Target, ir.Language, ir.Kinds, ir.Pattern.String(), ir.Tests, ir.Case, req.Workspace)
	return strconv.FormatUint(h.Sum64(), 36)
}

func EncodeCursor(req SearchRequest, ir search.Request, offset int) string {
	b, _ := json.Marshal(cursor{Offset: offset, Of: fingerprint(req, ir)})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(req SearchRequest, ir search.Request) (int, error) {
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(req.Cursor)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Offset < 0 {
		return 0, Errorf(CodeBadValue, "cursor", "cursor %q is not a next_cursor of Quarry's: pass the next_cursor of the previous answer as it was", req.Cursor)
	}
	if c.Of != fingerprint(req, ir) {
		return 0, Errorf(CodeBadValue, "cursor", "this cursor pages another request: give the same query and parameters as the answer it came from")
	}
	if ir.Target != search.TargetContent && ir.Target != search.TargetFiles {
		return 0, Errorf(CodeBadValue, "cursor", "only the content and files targets page with a cursor; target %s answers at most limit results", ir.Target)
	}
	return c.Offset, nil
}

// resultLimit checks the limit of a search or goto: DefaultLimit when none is given, else 1
// to MaxLimit (an explicit 0 is out of range, not the default).
func ResultLimit(limit *int) (int, error) {
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
	names := make([]string, len(search.Targets))
	for i, t := range search.Targets {
		names[i] = string(t)
	}
	return names
}

// prepareSearch checks req and opens the indexes it covers; the caller releases them.
func (s *Service) PrepareSearch(ctx context.Context, req SearchRequest) (search.Request, []*workspace.SearchIndex, error) {
	ireq, checked, err := s.SearchRequest(req)
	if err != nil {
		return ireq, nil, err
	}
	xs, err := s.OpenIndexes(ctx, checked.workspace)
	return ireq, xs, err
}

// Search runs a search.
func (s *Service) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	if res, ok, err := forward[SearchResult](ctx, s, "search", req); ok {
		return res, err
	}
	if err := CheckQueryLength(req); err != nil {
		return nil, err
	}
	doc, err := QueryDocument(req)
	if err != nil {
		return nil, err
	}
	if doc != nil {
		return s.searchDocument(ctx, req, doc)
	}
	start := time.Now()
	ireq, xs, err := s.PrepareSearch(ctx, req)
	if err != nil {
		return nil, err
	}
	defer func() { s.Release(xs) }()
	timeout := time.Duration(cmp.Or(req.TimeoutMS, DefaultTimeoutMS)) * time.Millisecond
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	timedOut := func(err error) error {
		if sctx.Err() != nil && ctx.Err() == nil {
			return Errorf(CodeTimeout, "timeout_ms", "the search took longer than %v: narrow it (a field like lang: or path:, a longer literal) or give a larger timeout_ms", timeout)
		}
		return AsError(err)
	}
	checked := s.checkFreshness(ctx, xs) // at once with the search
	res, err := workspace.Search(sctx, xs, ireq)
	fresh := checked()
	// An index written by an older Quarry has no content index: freshening builds it.
	noContent := errors.Is(err, search.ErrNoContentIndex) && needsFreshening(fresh)
	if err != nil && !noContent {
		return nil, timedOut(err)
	}
	var hits []search.Hit
	if res != nil {
		hits = res.Hits
	}
	if dirs := s.primaryStale(xs, hits); len(dirs) > 0 || needsFreshening(fresh) {
		// Files the answer comes from changed since they were indexed, or a few files
		// changed, or a run did not finish: bring the index up to date within a small
		// budget and search again; what is still stale stays marked, and what is still
		// missing is said in the notice.
		s.Release(xs)
		xs = nil
		if needsFreshening(fresh) {
			s.freshen(ctx, fresh, dirs)
		} else {
			s.refreshPrimary(ctx, dirs)
		}
		if ireq, xs, err = s.PrepareSearch(ctx, req); err != nil {
			return nil, err
		}
		checked = s.checkFreshness(ctx, xs)
		res, err = workspace.Search(sctx, xs, ireq)
		fresh = checked()
		if err != nil {
			return nil, timedOut(err)
		}
	}
	out := &SearchResult{Query: req.Query, Target: string(ireq.Target), Results: res.Hits, Relaxed: res.Relaxed,
		Truncated: res.Truncated, Errors: []ErrorInfo{}}
	if ireq.Expr == nil && (ireq.Target == search.TargetDefinitions || ireq.Target == search.TargetAuto) && ireq.Offset == 0 {
		out.Notice = search.MissingDefinition(ireq.Query, res.Hits)
	}
	out.Notice = JoinNotices(out.Notice, NotFieldNotice(req.Query), freshNotice(fresh))
	if res.Truncated {
		out.TruncatedReason = TruncatedLimit
		if ireq.Target == search.TargetContent || ireq.Target == search.TargetFiles {
			out.NextCursor = EncodeCursor(req, ireq, ireq.Offset+len(res.Hits))
		}
	}
	if res.TimedOut {
		out.Truncated, out.TruncatedReason, out.NextCursor = true, TruncatedTimeout, ""
	}
	if out.TotalFilesSearched, err = FilesIn(ctx, xs); err != nil {
		return nil, err
	}
	FitBytes(&out.Results, s.Budget(ctx, req.MaxBytes), &out.Truncated, &out.TruncatedReason)
	if out.TruncatedReason == TruncatedMaxBytes && (ireq.Target == search.TargetContent || ireq.Target == search.TargetFiles) {
		out.NextCursor = EncodeCursor(req, ireq, ireq.Offset+len(out.Results)) // the next page starts after what fit
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// StaleRefreshBudget bounds the index run a search makes when files it answers from changed
// since they were indexed. An index run cut short keeps what it wrote; the next one goes on.
const StaleRefreshBudget = time.Second

// staleLockWait is how long that index run waits for another holder of the index before it
// gives up (and the hits stay marked stale).
const staleLockWait = 100 * time.Millisecond

// primaryStale returns the directories of the stale hits from the primary workspace, among
// the open indexes xs (none: no hit is stale).
func (s *Service) primaryStale(xs []*workspace.SearchIndex, hits []Hit) []string {
	if !slices.ContainsFunc(hits, func(h Hit) bool { return h.Stale }) {
		return nil // the common case: no registry read on every search
	}
	reg, err := s.registry()
	if err != nil {
		return nil
	}
	var dirs []string
	for _, h := range hits {
		if !h.Stale {
			continue
		}
		if h.Workspace == reg.Primary.ID || h.Workspace == "" && len(xs) == 1 && xs[0].Entry.ID == reg.Primary.ID {
			d := path.Dir(h.Path)
			if d == "." {
				d = ""
			}
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// refreshPrimary brings the primary workspace's index up to date in the directories dirs
// (and below) within StaleRefreshBudget. It fails quietly: another process writing the
// index, or an open search holding it in this one, leaves the hits marked stale.
func (s *Service) refreshPrimary(ctx context.Context, dirs []string) {
	reg, err := s.registry()
	if err != nil {
		return
	}
	if !s.indexMu.TryLock() {
		return // a run of this process is writing: it applies the changes; the hits stay marked
	}
	s.indexMu.Unlock()
	rctx, cancel := context.WithTimeout(index.WithLockWait(ctx, staleLockWait), StaleRefreshBudget)
	defer cancel()
	sum, err := s.update(rctx, reg, reg.Primary, workspace.IndexOptions{Scope: dirs}, true) // quietly: a few files
	if w := s.runningWatcher(); w != nil && err == nil {
		w.Applied(sum) // its next batch says what changed, this run's part too
	}
}

func ElapsedMS(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

// fitBytes cuts whole results from the end until their JSON fits in maxBytes (0: no cut);
// at least one result stays, so an answer is never empty because one result is large.
func FitBytes[T any](results *[]T, maxBytes int, truncated *bool, reason *string) {
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

// Budget returns the byte budget of an answer: the request's, else the default of the
// process that asked (a local server's client), else the service's.
func (s *Service) Budget(ctx context.Context, requested int) int {
	if requested > 0 {
		return requested
	}
	if b, ok := ctx.Value(budgetKey{}).(int); ok {
		return b
	}
	return s.MaxBytes
}

// budgetKey is the context key of the default budget of a local server's client.
type budgetKey struct{}

// filesIn returns the number of files indexed in xs.
func FilesIn(ctx context.Context, xs []*workspace.SearchIndex) (int, error) {
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

// ParsedQuery is a search request's query as Quarry reads it, without searching
// (quarry search --parse-only): for an agent to check a query before it runs it.
type ParsedQuery struct {
	Query     string       `json:"query" jsonschema:"the query as given"`
	Canonical string       `json:"canonical" jsonschema:"the query in canonical form: it parses to the same query"`
	Syntax    string       `json:"syntax" jsonschema:"plain (words and phrases) or expression (the query language)"`
	Target    string       `json:"target" jsonschema:"the target searched, after type: and the request's target"`
	Targets   []string     `json:"targets,omitempty" jsonschema:"for auto: the targets every field of the query applies to"`
	Case      string       `json:"case,omitempty" jsonschema:"yes, no or auto when case: was given"`
	Workspace string       `json:"workspace,omitempty" jsonschema:"the workspace the query names (workspace:)"`
	Terms     []ParsedTerm `json:"terms" jsonschema:"each term and range of the query, in order"`
	Plan      []ParsedStep `json:"plan,omitempty" jsonschema:"for an expression: what each target asks of the full-text index (definitions) or the content index (content, files with content:), and whether candidates are then verified against the stored text"`
}

// ParsedStep is how one target runs an expression.
type ParsedStep struct {
	Target   string `json:"target"`
	Fulltext string `json:"fulltext,omitempty" jsonschema:"the full-text query (bleve's JSON) of definitions, or the content index's query of content (content index: and(lit(...)...)); empty when the target matches paths"`
	Verified bool   `json:"verified" jsonschema:"candidates are checked against the stored text (phrases, regexes, case, paths by regex...)"`
}

// ParsedTerm is one term or range of a parsed query.
type ParsedTerm struct {
	Field   string `json:"field,omitempty" jsonschema:"the field, empty for a bare term"`
	Kind    string `json:"kind" jsonschema:"word, phrase, prefix, wildcard, fuzzy, regex, exists or range"`
	Text    string `json:"text" jsonschema:"the term as printed in the canonical form"`
	Negated bool   `json:"negated,omitempty" jsonschema:"under a NOT: results must not match it"`
	Pos     int    `json:"pos" jsonschema:"byte offset in the query"`
}

// ParseQuery checks req like Search and returns its query as parsed, without opening an
// index.
func (s *Service) ParseQuery(req SearchRequest) (*ParsedQuery, error) {
	ir, checked, err := s.SearchRequest(req)
	if err != nil {
		return nil, err
	}
	out := &ParsedQuery{Query: req.Query, Target: string(ir.Target), Workspace: checked.workspace, Terms: []ParsedTerm{}}
	if ir.Expr == nil {
		out.Canonical, out.Syntax = ir.Query.String(), "plain"
		for _, t := range ir.Query.Terms {
			out.Terms = append(out.Terms, ParsedTerm{Kind: t.Kind.String(), Text: t.Text, Pos: t.Pos})
		}
		return out, nil
	}
	out.Syntax, out.Canonical = "expression", ir.Expr.String()
	if dirs := checked.dirs.String(); dirs != "" {
		if b, ok := ir.Expr.(*query.Bool); ok && b.Op == query.Or {
			out.Canonical = "(" + out.Canonical + ")"
		}
		out.Canonical = dirs + " " + out.Canonical
	}
	out.Case = ir.Case.String()
	if ir.Target == search.TargetAuto {
		out.Targets = query.Targets(ir.Expr)
	}
	plan, err := search.ExplainExpr(ir)
	if err != nil {
		return nil, AsError(err)
	}
	for _, st := range plan.Steps {
		out.Plan = append(out.Plan, ParsedStep{Target: string(st.Target), Fulltext: st.Fulltext, Verified: len(st.Tokens) > 0 || st.Fulltext == ""})
	}
	query.Walk(ir.Expr, func(n query.Node, neg bool) {
		switch x := n.(type) {
		case *query.Leaf:
			out.Terms = append(out.Terms, ParsedTerm{Field: x.Field, Kind: x.Kind.String(), Text: x.String(), Negated: neg, Pos: x.At})
		case *query.Range:
			out.Terms = append(out.Terms, ParsedTerm{Field: x.Field, Kind: "range", Text: x.String(), Negated: neg, Pos: x.At})
		}
	})
	return out, nil
}

// NotAFieldNotice is in the notice of a search whose query writes a word as a field that
// does not exist (colour:red).
const NotAFieldNotice = "is not a field"

// notFieldNotice says which words of the query text are written as fields but name none
// (colour:red), and so were searched as text, naming the nearest field; "" when none are.
func NotFieldNotice(text string) string {
	n, err := query.ParseExpr(text, query.Options{})
	if err != nil {
		return ""
	}
	names := query.NotFields(n)
	if len(names) == 0 {
		return ""
	}
	var parts []string
	for _, name := range names {
		parts = append(parts, name+":")
	}
	return fmt.Sprintf("%s %s, so it was searched as text (fields: %s; quote the word to search for the text without this notice)",
		strings.Join(parts, ", "), NotAFieldNotice, strings.Join(query.FieldNames(), ", "))
}
