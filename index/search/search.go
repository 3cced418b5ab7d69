package search

// Search runs a query against one workspace's index: the full-text index finds and scores
// candidates, the store verifies and enriches them, and the rules of package scoring
// re-rank them. The targets:
//
//	definitions  symbol documents: each query token must match name^5, signature^3,
//	             doc_comment^2 or code_body^1; exact name matches of definition kinds first
//	content      the content index (index/grams) finds the files that may hold the words;
//	             each is verified against the stored text, and the answers are its matching
//	             lines
//	files        the paths of the indexed files: file names and path fragments
//	auto         all three, in one ranking shaped by what the query looks like

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/scoring"
)

// Target is what a search looks for.
type Target string

// Targets.
const (
	TargetAuto        Target = "auto"
	TargetDefinitions Target = "definitions"
	TargetContent     Target = "content"
	TargetFiles       Target = "files"
)

// Targets lists every target, the default first.
var Targets = []Target{TargetAuto, TargetDefinitions, TargetContent, TargetFiles}

// ParseTarget returns the target named s ("" is auto).
func ParseTarget(s string) (Target, error) {
	if s == "" {
		return TargetAuto, nil
	}
	for _, t := range Targets {
		if string(t) == s {
			return t, nil
		}
	}
	return "", badRequest("target", "unknown target %q; valid targets: auto, definitions, content, files", s)
}

// TestPolicy says what to do with tests, fixtures and test data.
type TestPolicy int

// Test policies.
const (
	TestsRankLower TestPolicy = iota // the default: below source, unless the query is about tests
	TestsInclude                     // ranked like source
	TestsExclude                     // left out
	TestsOnly                        // nothing else (test:yes)
)

// Caps of a search the request does not set.
const (
	// maxContentLinesPerFile caps the lines one file contributes to a content ranking, so
	// one file full of matches does not push every other file out.
	maxContentLinesPerFile = 5
	// maxQueryTokens caps the tokens of a query: a pasted paragraph is not a search.
	maxQueryTokens = 64
)

// Request is one search, checked where it entered (package tools): the index trusts it.
type Request struct {
	Query    *query.Query
	Target   Target             // never ""
	Language string             // canonical language name, or "" for all
	Kinds    []string           // canonical symbol kind names (definitions); empty for all
	Pattern  *query.FilePattern // nil for every path
	Limit    int                // results, at least 1
	Context  int                // lines of context around content hits, and of code after a definition
	Tests    TestPolicy         // tests, fixtures and test data
	// Expr is the query-language expression, or nil for a plain query (words and phrases,
	// the fast path). With an expression, Query holds its plain words for the ranking.
	Expr query.Node
	Case query.Case // how terms match letters' case (case:)
	// Offset is how many results of the ordered list to skip: the page a cursor asked for
	// (content and files targets).
	Offset int
	// Explain asks for each hit's Explanation.
	Explain bool
	// Vector, when set, is the text of a vec: or hyde: line: the definitions whose symbol
	// vectors are nearest to it are the answer (Query holds its words, for the test policy).
	Vector string
	// Observe, when set, is given a question's candidates and their reranker features
	// (scoring.RerankFeatures) before the reranker orders them: `train rerank` gathers its
	// data with it. It must not keep hits or features.
	Observe func(hits []Hit, features [][]float64)
}

// HitKind is what a hit is.
type HitKind string

// Hit kinds.
const (
	HitDefinition HitKind = "definition"
	HitContent    HitKind = "content"
	HitFile       HitKind = "file"
)

// Hit is one result, from the index to the wire: the agent contract's search and goto
// results are lists of Hit.
type Hit struct {
	Hit       HitKind       `json:"hit" jsonschema:"definition, content or file"`
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
	Stale     bool          `json:"stale,omitempty" jsonschema:"the file changed on disk (or is gone) since it was indexed: the line and text are the indexed ones and may now point at other text; re-index to refresh"`
	// Resolution is set by goto with a context file: why this is the definition the file
	// sees (scope, receiver, import, package, qualified, global-unique), or name-only.
	Resolution string `json:"resolution,omitempty" jsonschema:"goto with context_file: why this is the definition the name means there (scope, receiver, import, package, qualified, global-unique), or name-only for the other definitions of the name"`
	// Explain is why the hit ranks where it does, when the request asked (explain).
	Explain *Explanation `json:"explain,omitempty" jsonschema:"with explain: the parts of the score, and a query document's lines"`
	parts   scoreParts
	class   scoring.PathClass
	bonus   float64 // promotion of an exact match, in auto's units
	parent  string  // the name of a definition's parent
	// parentKind is the kind of a definition's parent (a function: a local helper).
	parentKind string
	// visibility and declaration are a definition's visibility and whether it is a
	// declaration only (a C prototype); example says it is code in documentation (a
	// Markdown code block).
	visibility  string
	declaration bool
	example     bool
	// startColumn and startByte are where a definition read from the store starts
	// (spanRead): addContext reads its head from them without asking the store again.
	startColumn, startByte int
	spanRead               bool
	rec                    *symbolRecord // the rest of a definition's row, for an expression search
}

// ContextLine is one line of source shown with a hit.
type ContextLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Result is the answer to a Request.
type Result struct {
	Hits []Hit
	// Relaxed says no result held every word of a query of several, so results holding
	// any of them are shown instead.
	Relaxed bool
	// Truncated says there were more results than the limit.
	Truncated bool
	// TimedOut says the request's time ran out before the search finished: the results are
	// what was found until then.
	TimedOut bool
}

// BadRequestError is a request field with a value search cannot take.
type BadRequestError struct {
	Field string // the request field: target, limit, context, language, kind, query
	Msg   string // what was wrong and what would be accepted
	Err   error  // the cause, if any
}

func (e *BadRequestError) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *BadRequestError) Unwrap() error { return e.Err }

func badRequest(field, format string, a ...any) error {
	return &BadRequestError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// ErrEmptyQuery is returned for a query with nothing to search for.
var ErrEmptyQuery = errors.New("empty query: give a name, words or a \"quoted phrase\" to search for")

// Searcher searches one workspace's index. It is safe for concurrent use.
type Searcher struct {
	store rows
	ft    *fulltext.Index
	reg   *languages.Registry

	pathsOnce sync.Once
	paths     []pathEntry
	pathsErr  error

	contents *contentCache // file text read by expression searches
	grams    gramsHolder   // the content index
	// unindexed, when set, lists the files committed to the store and not yet to the
	// content index (an index run's searcher: SetUnindexed).
	unindexed func() []string

	langsOnce sync.Once
	langs     map[string]string // the stored language of every indexed file, by path
	bm25      fulltext.BM25     // the field lengths of symbol documents
}

// rows is the store as a searcher reads it: the reads that complete hits are its methods.
type rows struct{ *store.Store }

// NewSearcher returns a searcher over store and ft.
func NewSearcher(store *store.Store, ft *fulltext.Index) (*Searcher, error) {
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	return &Searcher{store: rows{store}, ft: ft, reg: reg, contents: newContentCache(contentCacheBytes)}, nil
}

// Search runs req.
func (s *Searcher) Search(ctx context.Context, req Request) (*Result, error) {
	if _, ok := ctx.Value(genKey{}).(int64); !ok { // the caller read it just before (AtGeneration)
		gen, err := s.store.Generation(context.WithoutCancel(ctx)) // read even out of time: what was found so far is answered
		if err != nil {
			return nil, err
		}
		ctx = atGeneration(ctx, gen) // the file text it reads is of gen or later
	}
	q := req.Query
	keepTests := req.Tests == TestsInclude || scoring.AboutTests(q.String())
	var (
		err      error
		hits     []Hit
		relaxed  bool
		timedOut bool
	)
	switch {
	case req.Vector != "":
		hits, err = s.vectorSearch(ctx, req, keepTests)
	case req.Expr != nil:
		hits, timedOut, err = s.exprSearch(ctx, req, keepTests || req.Tests == TestsOnly)
	default:
		hits, relaxed, err = s.plainSearch(ctx, req, q, keepTests)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Hits: hits, Relaxed: relaxed, TimedOut: timedOut}
	if len(res.Hits) > req.Limit {
		res.Hits, res.Truncated = res.Hits[:req.Limit], true
	}
	if err := s.addContext(ctx, res.Hits, req.Context); err != nil {
		if ctx.Err() != nil {
			res.TimedOut = true
			return res, nil
		}
		return nil, err
	}
	if req.Explain {
		for i := range res.Hits {
			res.Hits[i].explain()
		}
	}
	return res, nil
}

// plainSearch runs a plain query (words and phrases) on req's target.
func (s *Searcher) plainSearch(ctx context.Context, req Request, q *query.Query, keepTests bool) (hits []Hit, relaxed bool, err error) {
	switch req.Target {
	case TargetDefinitions:
		hits, relaxed, err = s.definitions(ctx, req, q, keepTests, req.Limit+1)
		foldPromotion(hits)
	case TargetContent:
		hits, relaxed, err = s.content(ctx, req, q, keepTests, req.Offset+req.Limit+1, 0)
		hits = cut(hits, req.Offset)
	case TargetFiles:
		hits, err = s.files(ctx, req, q, keepTests, req.Offset+req.Limit+1)
		hits = cut(hits, req.Offset)
	default:
		hits, relaxed, err = s.auto(ctx, req, q, keepTests)
	}
	return hits, relaxed, err
}

// tokens returns the distinct query tokens of q by the rules of lang as the index was
// built with them ("" for the language-neutral rules).
func (s *Searcher) tokens(q *query.Query, lang string) ([]string, error) {
	tk := s.ft.Tokenizer(lang)
	var out []string
	for _, t := range tk.Query(q.Text()) {
		if !slices.Contains(out, t.Text) {
			out = append(out, t.Text)
		}
	}
	if len(out) == 0 {
		return nil, badRequest("query", "query %q has no words to search for (only punctuation?)", q.String())
	}
	if len(out) > maxQueryTokens {
		return nil, badRequest("query", "query has %d words; the most is %d", len(out), maxQueryTokens)
	}
	return out, nil
}

// sortHits orders hits best first: by key (nil: none), then score, then path and line.
func sortHits(hits []Hit, key func(Hit) float64) {
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if key != nil {
			if ka, kb := key(a), key(b); ka != kb {
				return cmpDesc(ka, kb)
			}
		}
		if a.Score != b.Score {
			return cmpDesc(a.Score, b.Score)
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// LanguageOf returns the language of the file at path by its name ("" if none claims it).
func (s *Searcher) LanguageOf(path string) string {
	if l := s.reg.ForPath(path); l != nil {
		return l.Name
	}
	return ""
}

// filterOf returns the full-text filter of req: its language, kinds and file pattern.
func filterOf(req *Request) fulltext.Filter {
	f := fulltext.Filter{Language: req.Language, Kinds: req.Kinds}
	if p := req.Pattern; p != nil {
		f.Include, f.Exclude = p.Include, p.Exclude
	}
	return f
}
