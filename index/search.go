package index

// Search runs a query against one workspace's index: the full-text index finds and scores
// candidates, the store verifies and enriches them, and the rules of package scoring
// re-rank them. The targets:
//
//	definitions  symbol documents: each query token must match name^5, signature^3,
//	             doc_comment^2 or code_body^1; exact name matches of definition kinds first
//	content      file documents: each query token must match content; every candidate is
//	             verified against the stored text, and the answers are its matching lines
//	files        the paths of the indexed files: file names and path fragments
//	auto         all three, in one ranking shaped by what the query looks like

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/scoring"
	"github.com/quarrysearch/quarry/tokenizer"
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
)

// Limits of a request.
const (
	DefaultLimit = 10
	MaxLimit     = 500
	MaxContext   = 50
	// maxContentLinesPerFile caps the lines one file contributes to a content ranking, so
	// one file full of matches does not push every other file out.
	maxContentLinesPerFile = 5
	// maxQueryTokens caps the tokens of a query: a pasted paragraph is not a search.
	maxQueryTokens = 64
)

// Request is one search.
type Request struct {
	Query    string
	Target   Target
	Language string   // canonical language name, or "" for all
	Kinds    []string // symbol kinds (definitions); empty for all
	Pattern  *FilePattern
	Limit    int        // results; 0 is DefaultLimit
	Context  int        // lines of context around content hits, and of code after a definition
	Tests    TestPolicy // tests, fixtures and test data
}

// HitKind is what a hit is.
type HitKind string

// Hit kinds.
const (
	HitDefinition HitKind = "definition"
	HitContent    HitKind = "content"
	HitFile       HitKind = "file"
)

// Hit is one result.
type Hit struct {
	Hit       HitKind       `json:"hit"`
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	EndLine   int           `json:"end_line"`
	Column    int           `json:"column,omitempty"`
	Name      string        `json:"name,omitempty"`
	Kind      string        `json:"kind,omitempty"`
	Language  string        `json:"language,omitempty"`
	Signature string        `json:"signature,omitempty"`
	Text      string        `json:"text,omitempty"` // the matching line of a content hit
	Context   []ContextLine `json:"context,omitempty"`
	Score     float64       `json:"score"`
	SymbolID  string        `json:"symbol_id,omitempty"`
	Workspace string        `json:"workspace,omitempty"`
	class     scoring.PathClass
	bonus     float64 // promotion of an exact match, in auto's units
	parent    string  // the name of a definition's parent
}

// ContextLine is one line of source shown with a hit.
type ContextLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Result is the answer to a Request.
type Result struct {
	Hits []Hit `json:"results"`
	// Relaxed says no result held every word of a query of several, so results holding
	// any of them are shown instead.
	Relaxed bool `json:"relaxed,omitempty"`
	// Truncated says there were more results than the limit.
	Truncated bool `json:"truncated"`
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
	store *Store
	ft    *Fulltext
	reg   *languages.Registry

	pathsOnce sync.Once
	paths     []pathEntry
	pathsErr  error
}

// NewSearcher returns a searcher over store and ft.
func NewSearcher(store *Store, ft *Fulltext) (*Searcher, error) {
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	return &Searcher{store: store, ft: ft, reg: reg}, nil
}

// Validate checks req and fills its defaults.
func (s *Searcher) Validate(req *Request) error {
	if strings.TrimSpace(req.Query) == "" {
		return ErrEmptyQuery
	}
	if req.Target == "" {
		req.Target = TargetAuto
	}
	if _, err := ParseTarget(string(req.Target)); err != nil {
		return err
	}
	switch {
	case req.Limit == 0:
		req.Limit = DefaultLimit
	case req.Limit < 0 || req.Limit > MaxLimit:
		return badRequest("limit", "limit %d out of range: give 1 to %d", req.Limit, MaxLimit)
	}
	if req.Context < 0 || req.Context > MaxContext {
		return badRequest("context", "context %d out of range: give 0 to %d lines", req.Context, MaxContext)
	}
	if req.Language != "" {
		l, err := s.reg.Resolve(req.Language)
		if err != nil {
			return &BadRequestError{Field: "language", Msg: err.Error(), Err: err}
		}
		req.Language = l.Name
	}
	for i, k := range req.Kinds {
		kind, err := extract.ParseKind(k)
		if err != nil {
			return badRequest("kind", "unknown kind %q; valid kinds: %s", k, strings.Join(extract.Kinds(), ", "))
		}
		req.Kinds[i] = kind.String()
	}
	return nil
}

// Search runs req.
func (s *Searcher) Search(ctx context.Context, req Request) (*Result, error) {
	if err := s.Validate(&req); err != nil {
		return nil, err
	}
	q := parseQuery(req.Query)
	keepTests := req.Tests == TestsInclude || scoring.AboutTests(req.Query)
	var (
		hits    []Hit
		relaxed bool
		err     error
	)
	switch req.Target {
	case TargetDefinitions:
		hits, relaxed, err = s.definitions(ctx, req, q, keepTests, req.Limit+1)
	case TargetContent:
		hits, relaxed, err = s.content(ctx, req, q, keepTests, req.Limit+1)
	case TargetFiles:
		hits, err = s.files(ctx, req, q, keepTests, req.Limit+1)
	default:
		hits, relaxed, err = s.auto(ctx, req, q, keepTests)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Hits: hits, Relaxed: relaxed}
	if len(res.Hits) > req.Limit {
		res.Hits, res.Truncated = res.Hits[:req.Limit], true
	}
	if err := s.addContext(ctx, res.Hits, req.Context); err != nil {
		return nil, err
	}
	return res, nil
}

// parsedQuery is a query split into its quoted phrases and bare words.
type parsedQuery struct {
	raw     string
	text    string   // the query without quotes: what is tokenized
	phrases []string // quoted, as written
	words   []string // bare, as written
}

func parseQuery(raw string) parsedQuery {
	q := parsedQuery{raw: raw}
	rest := raw
	var text []string
	for {
		i := strings.IndexByte(rest, '"')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '"')
		if j < 0 {
			break // an unclosed quote is a bare word character
		}
		q.words = append(q.words, strings.Fields(rest[:i])...)
		if p := strings.TrimSpace(rest[i+1 : i+1+j]); p != "" {
			q.phrases = append(q.phrases, p)
		}
		text = append(text, rest[:i], rest[i+1:i+1+j])
		rest = rest[i+2+j:]
	}
	q.words = append(q.words, strings.Fields(strings.ReplaceAll(rest, `"`, " "))...)
	text = append(text, strings.ReplaceAll(rest, `"`, " "))
	q.text = strings.Join(text, " ")
	return q
}

// single reports whether the query is one bare word (an identifier, a file name).
func (q parsedQuery) single() bool { return len(q.phrases) == 0 && len(q.words) == 1 }

// qualifiers separate the parts of a qualified name: pkg.Name, Type::name, Class#method,
// ptr->field.
var qualifiers = []string{"::", "->", ".", "#"}

// qualified splits a one-word query naming something qualified (json.Marshal, Vec::new)
// into the qualifier's last part and the name; any other query gives "" and itself.
func (q parsedQuery) qualified() (qual, name string) {
	if !q.single() {
		return "", q.raw
	}
	w := q.words[0]
	for _, sep := range qualifiers {
		if i := strings.LastIndex(w, sep); i > 0 && i+len(sep) < len(w) {
			qual, name = w[:i], w[i+len(sep):]
			for _, sep2 := range qualifiers { // a.b.c: qualify by the part just before
				if j := strings.LastIndex(qual, sep2); j >= 0 {
					qual = qual[j+len(sep2):]
				}
			}
			if isIdent(name) && isIdent(qual) {
				return qual, name
			}
		}
	}
	return "", w
}

// isIdent reports whether s is made of word characters only.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !languages.IsWordRune(r) {
			return false
		}
	}
	return true
}

// tokens returns the distinct query tokens of q by the rules of lang as the index was
// built with them ("" for the language-neutral rules).
func (s *Searcher) tokens(q parsedQuery, lang string) ([]string, error) {
	tk := s.ft.tokenizer(lang)
	var out []string
	for _, t := range tk.Query(q.text) {
		if !slices.Contains(out, t.Text) {
			out = append(out, t.Text)
		}
	}
	if len(out) == 0 {
		return nil, badRequest("query", "query %q has no words to search for (only punctuation?)", q.raw)
	}
	if len(out) > maxQueryTokens {
		return nil, badRequest("query", "query has %d words; the most is %d", len(out), maxQueryTokens)
	}
	return out, nil
}

// tokenizer returns the tokenizer of lang as f was built with it.
func (f *Fulltext) tokenizer(lang string) *tokenizer.Tokenizer {
	if a, ok := f.Analyzer(lang).(*analysis.DefaultAnalyzer); ok {
		if t, ok := a.Tokenizer.(ftTokenizer); ok {
			return t.tk
		}
	}
	return tokenizer.New(nil)
}

// filters returns the clauses every document of a search must match besides its words.
// There is no clause on doc_type: the text fields of symbols and files differ, so the words
// already pick the kind of document, and a term matching every symbol (three quarters of a
// million on corpus.sh full) made each search walk its postings: 11 ms of a 12 ms median.
func filters(docType string, req Request) (must []query.Query, mustNot []query.Query) {
	if req.Language != "" {
		must = append(must, termQuery(ftFieldLanguage, req.Language))
	}
	if docType == ftDocTypeSymbol && len(req.Kinds) > 0 {
		var kinds []query.Query
		for _, k := range req.Kinds {
			kinds = append(kinds, termQuery(ftFieldKind, k))
		}
		must = append(must, bleve.NewDisjunctionQuery(kinds...))
	}
	if p := req.Pattern; p != nil {
		if len(p.include) > 0 {
			var inc []query.Query
			for _, re := range p.include {
				inc = append(inc, regexpQuery(ftFieldPath, re))
			}
			must = append(must, bleve.NewDisjunctionQuery(inc...))
		}
		for _, re := range p.exclude {
			mustNot = append(mustNot, regexpQuery(ftFieldPath, re))
		}
	}
	return must, mustNot
}

func termQuery(field, term string) query.Query {
	q := bleve.NewTermQuery(term)
	q.SetField(field)
	return q
}

func boostedTerm(field, term string, boost float64) query.Query {
	q := bleve.NewTermQuery(term)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

func regexpQuery(field, re string) query.Query {
	q := bleve.NewRegexpQuery(re)
	q.SetField(field)
	return q
}

// words returns the disjunction (any) or conjunction (all) of one query per token.
func words(tokens []string, all bool, clause func(tok string) query.Query) query.Query {
	qs := make([]query.Query, len(tokens))
	for i, t := range tokens {
		qs[i] = clause(t)
	}
	if all {
		return bleve.NewConjunctionQuery(qs...)
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// run executes a boolean query of must, mustNot and the scoring part, returning up to size
// hits (document ids and scores).
func (s *Searcher) run(ctx context.Context, scored query.Query, must, mustNot []query.Query, size int) (*bleve.SearchResult, error) {
	bq := bleve.NewBooleanQuery()
	bq.AddMust(append([]query.Query{scored}, must...)...)
	if len(mustNot) > 0 {
		bq.AddMustNot(mustNot...)
	}
	sr := bleve.NewSearchRequestOptions(bq, size, 0, false)
	res, err := s.ft.idx.SearchInContext(ctx, sr)
	if err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	return res, nil
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

// Query is a bleve query.
type Query = query.Query

// anyOf is the disjunction of qs.
func anyOf(qs ...Query) Query { return bleve.NewDisjunctionQuery(qs...) }

// LanguageOf returns the language of the file at path by its name ("" if none claims it).
func (s *Searcher) LanguageOf(path string) string {
	if l := s.reg.ForPath(path); l != nil {
		return l.Name
	}
	return ""
}
