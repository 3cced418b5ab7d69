package index

// The full-text side of a search: what a target asks of the full-text index (an ftQuery),
// compiled into a bleve query and run. This file is the only one that builds bleve queries;
// the targets (search_defs.go, search_content.go) describe what they want and read back
// scored document ids.

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// Field boosts of a definitions search.
const (
	boostName       = 5
	boostSignature  = 3
	boostDocComment = 2
	boostCodeBody   = 1
)

// ftField is a text field searched for each token, and its boost.
type ftField struct {
	name  string
	boost float64
}

// Fields searched per target: a symbol by its name, signature, doc comment and body; a
// file by its content.
var (
	ftSymbolFields = []ftField{{ftFieldName, boostName}, {ftFieldSignature, boostSignature}, {ftFieldDocComment, boostDocComment}, {ftFieldCodeBody, boostCodeBody}}
	ftFileFields   = []ftField{{ftFieldContent, 1}}
)

// ftQuery is one search of the full-text index: every token (any, unless all) in one of
// fields, within the request's filters.
type ftQuery struct {
	docType string // ftDocTypeSymbol or ftDocTypeFile
	tokens  []string
	all     bool
	// inflect: search each token in its inflected forms and its thesaurus words too (a
	// prose query).
	inflect bool
	req     *Request // the filters: language, kinds (symbols), file pattern
}

// ftHit is a document found, by the id of what it stands for (a symbol id, a file path).
type ftHit struct {
	id    string
	score float64
}

// fields returns the fields s searches.
func (s ftQuery) fields() []ftField {
	if s.docType == ftDocTypeSymbol {
		return ftSymbolFields
	}
	return ftFileFields
}

// compile returns the bleve query of s.
//
// There is no clause on doc_type: the text fields of symbols and files differ, so the words
// already pick the kind of document, and a term matching every symbol (three quarters of a
// million on corpus.sh full) made each search walk its postings: 11 ms of a 12 ms median.
func (s ftQuery) compile() bq.Query {
	clauses := make([]bq.Query, len(s.tokens))
	for i, t := range s.tokens {
		forms := []string{t}
		if s.inflect {
			forms = inflections(t)
		}
		var alts []bq.Query
		for _, f := range s.fields() {
			// A body is searched for the word as written, the other fields for its
			// inflections and related words too: those, common words' in every body, made
			// a prose query walk most of the symbols' postings (40 ms on corpus.sh full).
			// (Leaving them out of signatures too cut the dev descriptions' MRR@10 from
			// 0.502 to 0.456.)
			fforms := forms
			if f.name == ftFieldCodeBody {
				fforms = forms[:1]
			}
			for _, form := range fforms {
				alts = append(alts, term(f.name, form, f.boost))
			}
			if s.inflect && f.name != ftFieldCodeBody {
				for _, r := range related(t) {
					alts = append(alts, term(f.name, r, f.boost*proseRelatedWeight))
				}
			}
		}
		clauses[i] = disjunction(alts)
	}
	var scored bq.Query = bleve.NewDisjunctionQuery(clauses...)
	if s.all {
		scored = bleve.NewConjunctionQuery(clauses...)
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(append([]bq.Query{scored}, s.filters()...)...)
	if p := s.req.Pattern; p != nil && len(p.Exclude) > 0 {
		var not []bq.Query
		for _, re := range p.Exclude {
			not = append(not, regexpQuery(ftFieldPath, re))
		}
		b.AddMustNot(not...)
	}
	return b
}

// filters returns the clauses every document must match besides its words.
func (s ftQuery) filters() []bq.Query { return requestFilters(s.docType, s.req) }

// requestFilters returns the clauses of req's filters (language, kinds, file pattern's
// includes) for docType's documents.
func requestFilters(docType string, req *Request) []bq.Query {
	var must []bq.Query
	if req.Language != "" {
		must = append(must, term(ftFieldLanguage, req.Language, 0))
	}
	if docType == ftDocTypeSymbol && len(req.Kinds) > 0 {
		var kinds []bq.Query
		for _, k := range req.Kinds {
			kinds = append(kinds, term(ftFieldKind, k, 0))
		}
		must = append(must, bleve.NewDisjunctionQuery(kinds...))
	}
	if p := req.Pattern; p != nil && len(p.Include) > 0 {
		var inc []bq.Query
		for _, re := range p.Include {
			inc = append(inc, regexpQuery(ftFieldPath, re))
		}
		must = append(must, bleve.NewDisjunctionQuery(inc...))
	}
	return must
}

// disjunction is the one query of qs, or their disjunction.
func disjunction(qs []bq.Query) bq.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// term matches token in field exactly, with boost (0: none).
func term(field, token string, boost float64) bq.Query {
	q := bleve.NewTermQuery(token)
	q.SetField(field)
	if boost != 0 {
		q.SetBoost(boost)
	}
	return q
}

func regexpQuery(field, re string) bq.Query {
	q := bleve.NewRegexpQuery(re)
	q.SetField(field)
	return q
}

// search runs s and returns up to size hits, best first, and how many documents match.
func (f *Fulltext) search(ctx context.Context, s ftQuery, size int) ([]ftHit, uint64, error) {
	sr := bleve.NewSearchRequestOptions(s.compile(), size, 0, false)
	res, err := f.idx.SearchInContext(ctx, sr)
	if err != nil {
		return nil, 0, fmt.Errorf("index: search: %w", err)
	}
	prefix := ftDocIDPrefix(s.docType)
	hits := make([]ftHit, len(res.Hits))
	for i, d := range res.Hits {
		hits[i] = ftHit{id: strings.TrimPrefix(d.ID, prefix), score: d.Score}
	}
	return hits, res.Total, nil
}

// ftDocIDPrefix is the prefix of the document ids of docType.
func ftDocIDPrefix(docType string) string {
	if docType == ftDocTypeSymbol {
		return store.SymbolDocPrefix
	}
	return store.FileDocPrefix
}

// explain returns s's bleve query as JSON.
func (s ftQuery) explain() string {
	b, err := json.Marshal(s.compile())
	if err != nil {
		return fmt.Sprintf("(cannot print: %v)", err)
	}
	return string(b)
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

// Plan is how a request is searched, for debugging a search (quarry search --debug-query):
// the parsed query and, per target, the tokens and the compiled full-text query.
type Plan struct {
	Query string     // the parsed query, printed back
	Terms []string   // each term: kind, position and text
	Steps []PlanStep // one per target searched
}

// PlanStep is the full-text query one target runs.
type PlanStep struct {
	Target   Target
	Tokens   []string // the query tokens, by the rules the index was built with
	Fulltext string   // the bleve query as JSON, all tokens required; "" when the target matches paths
}

// Explain returns the plan of req without running it.
func (s *Searcher) Explain(req Request) (*Plan, error) {
	if req.Expr != nil {
		return s.explainExpr(req), nil
	}
	p := &Plan{Query: req.Query.String()}
	for _, t := range req.Query.Terms {
		p.Terms = append(p.Terms, fmt.Sprintf("%s@%d %q", t.Kind, t.Pos, t.Text))
	}
	targets := []Target{req.Target}
	if req.Target == TargetAuto {
		targets = []Target{TargetDefinitions, TargetContent, TargetFiles}
	}
	for _, t := range targets {
		step := PlanStep{Target: t}
		if t != TargetFiles {
			tokens, err := s.tokens(req.Query, req.Language)
			if err != nil {
				return nil, err
			}
			docType := ftDocTypeSymbol
			if t == TargetContent {
				docType = ftDocTypeFile
			}
			step.Tokens = tokens
			step.Fulltext = ftQuery{docType: docType, tokens: tokens, all: true, req: &req}.explain()
		}
		p.Steps = append(p.Steps, step)
	}
	return p, nil
}

// exprFTQuery is a query-language expression compiled for one kind of document: a bleve
// query whose matches are a superset of what the expression matches (nil: anything), and
// whether it is exact (its matches need no verification against the stored text).
type exprFTQuery struct {
	docType string
	q       bq.Query
	exact   bool
	filters []bq.Query // the request's filters (language, kinds, file pattern)
}

// compileRequest compiles req's expression for docType's documents, with req's filters.
func compileRequest(req *Request, docType string, tokens func(string) []string, ft *Fulltext) exprFTQuery {
	e := compileExpr(req.Expr, docType, req.Case, tokens, ft)
	e.filters = requestFilters(docType, req)
	return e
}

// matchesAll reports whether e would match every document of its kind.
func (e exprFTQuery) matchesAll() bool { return e.q == nil && len(e.filters) == 0 }

// compileExpr compiles an expression for docType's documents. tokens tokenizes a query
// word by the index's rules. Leaves bleve cannot decide exactly (phrases, regexes, paths
// by regex, line numbers, visibility, parents, case-sensitive words) compile to a superset,
// and the caller verifies the candidates.
func compileExpr(n query.Node, docType string, cs query.Case, tokens func(string) []string, ft *Fulltext) exprFTQuery {
	c := exprCompiler{docType: docType, cs: cs, tokens: tokens, ft: ft}
	q, exact := c.node(n)
	return exprFTQuery{docType: docType, q: q, exact: exact}
}

type exprCompiler struct {
	docType string
	cs      query.Case
	tokens  func(string) []string
	ft      *Fulltext // for the terms holding a word; nil: wildcard queries
	// keepInside keeps the words looked up inside terms beside whole words and prefixes
	// (set per leaf, when that lookup is cheap).
	keepInside bool
}

// inside matches the documents with a term of field holding w (ending with it unless
// openRight): the terms from memory when the index keeps them, else a wildcard query.
func (c exprCompiler) inside(field, w string, openRight bool) bq.Query {
	if c.ft != nil {
		if terms, ok := c.ft.termsHolding(field, w, openRight); ok {
			if len(terms) == 0 {
				return bleve.NewMatchNoneQuery()
			}
			alts := make([]bq.Query, len(terms))
			for i, t := range terms {
				alts[i] = term(field, t, 0)
			}
			return disjunction(alts)
		}
	}
	pat := "*" + w
	if openRight {
		pat += "*"
	}
	q := bleve.NewWildcardQuery(pat)
	q.SetField(field)
	return q
}

func (c exprCompiler) node(n query.Node) (bq.Query, bool) {
	switch x := n.(type) {
	case *query.Bool:
		if x.Op == query.And {
			return c.and(x)
		}
		var qs []bq.Query
		exact := true
		for _, cl := range x.Clauses {
			q, ex := c.node(cl)
			exact = exact && ex
			if q == nil && x.Op == query.Or {
				return nil, false
			}
			if q != nil {
				qs = append(qs, q)
			}
		}
		switch {
		case len(qs) == 0:
			return nil, exact
		case x.Op == query.Or:
			return bleve.NewDisjunctionQuery(qs...), exact
		case len(qs) == 1:
			return qs[0], exact
		}
		return bleve.NewConjunctionQuery(qs...), exact
	case *query.Not:
		q, exact := c.node(x.X)
		if q == nil || !exact {
			return nil, false
		}
		b := bleve.NewBooleanQuery()
		b.AddMust(c.everyDoc())
		b.AddMustNot(q)
		return b, true
	case *query.Range:
		return nil, false
	case *query.Leaf:
		q, exact := c.leaf(x)
		if q != nil && x.Boost > 0 {
			if bst, ok := q.(bq.BoostableQuery); ok {
				bst.SetBoost(x.Boost)
			}
		}
		return q, exact
	}
	return nil, false
}

// and compiles a conjunction: its negated clauses that compile exactly become the
// must_not of one boolean query beside the others, rather than each a "every document but"
// query of its own.
func (c exprCompiler) and(x *query.Bool) (bq.Query, bool) {
	var must, mustNot []bq.Query
	exact := true
	for _, cl := range x.Clauses {
		if n, ok := cl.(*query.Not); ok {
			if q, ex := c.node(n.X); q != nil && ex {
				mustNot = append(mustNot, q)
				continue
			}
			exact = false
			continue
		}
		q, ex := c.node(cl)
		exact = exact && ex
		if q != nil {
			must = append(must, q)
		}
	}
	if len(mustNot) == 0 {
		return conjunction(must), exact
	}
	if len(must) == 0 {
		must = []bq.Query{c.everyDoc()}
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(must...)
	b.AddMustNot(mustNot...)
	return b, exact
}

// everyDoc matches every document of the compiler's kind.
func (c exprCompiler) everyDoc() bq.Query { return term(ftFieldDocType, c.docType, 0) }

// textFields returns the text fields a leaf of field searches in the compiler's documents.
func (c exprCompiler) textFields(field string) []ftField {
	if c.docType == ftDocTypeFile {
		if field == "" || field == "content" {
			return ftFileFields
		}
		return nil
	}
	switch field {
	case "":
		return ftSymbolFields
	case "name":
		return []ftField{{ftFieldName, boostName}}
	case "signature":
		return []ftField{{ftFieldSignature, boostSignature}}
	case "doc":
		return []ftField{{ftFieldDocComment, boostDocComment}}
	case "body":
		return []ftField{{ftFieldCodeBody, boostCodeBody}}
	}
	return nil
}

func (c exprCompiler) leaf(l *query.Leaf) (bq.Query, bool) {
	switch l.Field {
	case "lang":
		return term(ftFieldLanguage, l.Text, 0), true
	case "kind":
		if c.docType != ftDocTypeSymbol {
			return nil, false
		}
		return term(ftFieldKind, l.Text, 0), true
	case "path":
		switch {
		case l.Kind == query.Wildcard || l.Kind == query.Word && strings.ContainsAny(l.Text, "[{"):
			p, err := query.ParseFilePattern(l.Text)
			if err != nil || p == nil || len(p.Include) != 1 {
				return nil, false
			}
			return regexpQuery(ftFieldPath, p.Include[0]), true
		case l.Kind == query.Word || l.Kind == query.Phrase:
			return regexpQuery(ftFieldPath, ".*"+regexp.QuoteMeta(l.Text)+".*"), true
		}
		return nil, false
	case "ext":
		if l.Kind == query.Word && isPlainExt(l.Text) {
			return regexpQuery(ftFieldPath, `.*\.`+regexp.QuoteMeta(l.Text)), l.Text == strings.ToLower(l.Text)
		}
		return nil, false
	}
	fields := c.textFields(l.Field)
	if fields == nil {
		return nil, false
	}
	sensitive := c.cs.Sensitive(l.Kind, l.Text)
	c.keepInside = c.insideCheap(fields)
	perField := func(mk func(field string) bq.Query) bq.Query {
		var alts []bq.Query
		for _, f := range fields {
			q := mk(f.name)
			if q == nil {
				return nil // this field may hold anything: so may the disjunction
			}
			if f.boost != 0 {
				q.(bq.BoostableQuery).SetBoost(f.boost)
			}
			alts = append(alts, q)
		}
		return disjunction(alts)
	}
	switch l.Kind {
	case query.Word, query.Phrase, query.PhrasePrefix:
		if c.docType == ftDocTypeFile {
			// Content words and phrases match as written, inside longer words too (return
			// in "returned"), as rg -F does: their words are looked up inside terms.
			text := l.Text
			if l.Kind == query.Phrase && l.Slop > 0 {
				var qs []bq.Query
				for _, w := range strings.Fields(text) {
					if q := c.need(query.Need{Op: query.NeedLit, Lit: w, Fold: true, OpenLeft: true, OpenRight: true}, perField); q != nil {
						qs = append(qs, q)
					}
				}
				return conjunction(qs), false
			}
			return c.need(query.Need{Op: query.NeedLit, Lit: text, Fold: !sensitive, OpenLeft: true, OpenRight: true}, perField), false
		}
		toks := c.tokens(l.Text)
		if l.Kind == query.PhrasePrefix && len(toks) > 0 {
			toks = toks[:len(toks)-1] // the last word may be cut short
		}
		if len(toks) == 0 {
			return nil, false
		}
		var all []bq.Query
		for _, t := range toks {
			all = append(all, perField(func(f string) bq.Query { return term(f, t, 0) }))
		}
		exact := l.Kind == query.Word && !sensitive && c.docType == ftDocTypeSymbol
		if len(all) == 1 {
			return all[0], exact
		}
		return bleve.NewConjunctionQuery(all...), exact
	case query.Prefix:
		lower := strings.ToLower(l.Text)
		if !isWordText(lower) {
			return nil, false
		}
		return perField(func(f string) bq.Query { q := bleve.NewPrefixQuery(lower); q.SetField(f); return q }), !sensitive && c.docType == ftDocTypeSymbol
	case query.Fuzzy:
		lower := strings.ToLower(l.Text)
		if !isWordText(lower) {
			return nil, false
		}
		return perField(func(f string) bq.Query {
			q := bleve.NewFuzzyQuery(lower)
			q.SetFuzziness(l.Edits)
			q.SetField(f)
			return q
		}), !sensitive && c.docType == ftDocTypeSymbol
	case query.Wildcard:
		lower := strings.ToLower(l.Text)
		if !strings.ContainsAny(lower, "abcdefghijklmnopqrstuvwxyz0123456789_") {
			return nil, false
		}
		return perField(func(f string) bq.Query { q := bleve.NewWildcardQuery(lower); q.SetField(f); return q }), false
	case query.Regex:
		return c.need(query.RegexNeed(l.Text, !sensitive), perField), false
	}
	return nil, false
}

// need compiles what a regex requires into word queries: a word of a literal that is
// whole (bounded by non-word characters in the regex) must be a token, one whose end is
// open a token's prefix, one whose start is open the end of a token (a wildcard). Words
// too short to narrow anything are left out, which only widens the candidates.
func (c exprCompiler) need(n query.Need, perField func(func(string) bq.Query) bq.Query) bq.Query {
	q, _ := c.needQuery(n, perField)
	return q
}

// insideCheap reports whether words inside terms of the fields are looked up in memory:
// then they narrow a conjunction cheaply and are kept beside whole words.
func (c exprCompiler) insideCheap(fields []ftField) bool {
	if c.ft == nil {
		return false
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return c.ft.termsReady(names...)
}

// needQuery compiles n, and says whether the query looks words up inside terms (slower
// and less selective than whole terms and prefixes): a conjunction keeps those parts only
// when it has nothing better.
func (c exprCompiler) needQuery(n query.Need, perField func(func(string) bq.Query) bq.Query) (bq.Query, bool) {
	switch n.Op {
	case query.NeedLit:
		words := literalWords(n.Lit)
		var whole, inside []bq.Query
		for i, w := range words {
			openL := i == 0 && n.OpenLeft && startsWithWord(n.Lit)
			openR := i == len(words)-1 && n.OpenRight && endsWithWord(n.Lit)
			w = strings.ToLower(w)
			switch {
			case !openL && !openR:
				whole = append(whole, perField(func(f string) bq.Query { return term(f, w, 0) }))
			case !openL && len(w) >= 2:
				whole = append(whole, perField(func(f string) bq.Query { q := bleve.NewPrefixQuery(w); q.SetField(f); return q }))
			case len(w) >= 3:
				if q := perField(func(f string) bq.Query { return c.inside(f, w, openR) }); q != nil {
					inside = append(inside, q)
				}
			}
		}
		return c.narrowest(whole, inside)
	case query.NeedAll:
		var whole, inside []bq.Query
		for _, s := range n.Subs {
			q, in := c.needQuery(s, perField)
			switch {
			case q == nil:
			case in:
				inside = append(inside, q)
			default:
				whole = append(whole, q)
			}
		}
		return c.narrowest(whole, inside)
	case query.NeedAny:
		var qs []bq.Query
		anyInside := false
		for _, s := range n.Subs {
			q, in := c.needQuery(s, perField)
			if q == nil {
				return nil, false
			}
			anyInside = anyInside || in
			qs = append(qs, q)
		}
		return bleve.NewDisjunctionQuery(qs...), anyInside
	}
	return nil, false
}

// narrowest joins the parts of a conjunction: the whole words and prefixes, with the
// words inside terms beside them only when that lookup is cheap; the words inside terms
// alone when there is nothing else. The bool says the result looks words up inside terms.
func (c exprCompiler) narrowest(whole, inside []bq.Query) (bq.Query, bool) {
	if len(whole) == 0 {
		return conjunction(inside), len(inside) > 0
	}
	if c.keepInside {
		return conjunction(append(whole, inside...)), false
	}
	return conjunction(whole), false
}

// conjunction is nil for no queries, the one query, or their conjunction.
func conjunction(qs []bq.Query) bq.Query {
	switch len(qs) {
	case 0:
		return nil
	case 1:
		return qs[0]
	}
	return bleve.NewConjunctionQuery(qs...)
}

// isPlainExt reports whether s is a file extension without wildcards.
func isPlainExt(s string) bool {
	return s != "" && !strings.ContainsAny(s, "*?/[]{}\\")
}

// compileExprDoc returns q restricted to docType when it would otherwise match anything.
func (e exprFTQuery) query() bq.Query {
	if e.q == nil {
		return term(ftFieldDocType, e.docType, 0)
	}
	return e.q
}

// searchExpr runs a compiled expression and returns up to size hits, best first (score,
// then id), and how many documents match.
func (f *Fulltext) searchExpr(ctx context.Context, e exprFTQuery, size int) ([]ftHit, uint64, error) {
	q := e.query()
	if len(e.filters) > 0 {
		b := bleve.NewBooleanQuery()
		b.AddMust(append([]bq.Query{q}, e.filters...)...)
		q = b
	}
	sr := bleve.NewSearchRequestOptions(q, size, 0, false)
	sr.SortBy([]string{"-_score", "_id"})
	res, err := f.idx.SearchInContext(ctx, sr)
	if err != nil {
		return nil, 0, fmt.Errorf("index: search: %w", err)
	}
	prefix := ftDocIDPrefix(e.docType)
	hits := make([]ftHit, 0, len(res.Hits))
	for _, d := range res.Hits {
		if !strings.HasPrefix(d.ID, prefix) {
			continue
		}
		hits = append(hits, ftHit{id: strings.TrimPrefix(d.ID, prefix), score: d.Score})
	}
	return hits, res.Total, nil
}

// explainExpr returns e's bleve query as JSON.
func (e exprFTQuery) explain() string {
	b, err := json.Marshal(e.query())
	if err != nil {
		return fmt.Sprintf("(cannot print: %v)", err)
	}
	return string(b)
}

// literalWords returns the runs of word characters of a literal, as the tokenizer sees
// words.
func literalWords(lit string) []string {
	return strings.FieldsFunc(lit, func(r rune) bool { return !isWordByte(r) })
}

// startsWithWord and endsWithWord report whether lit starts or ends with a word character.
func startsWithWord(lit string) bool {
	r, _ := utf8.DecodeRuneInString(lit)
	return isWordByte(r)
}

func endsWithWord(lit string) bool {
	r, _ := utf8.DecodeLastRuneInString(lit)
	return isWordByte(r)
}

// isWordText reports whether s is one word: what a prefix or fuzzy query can look up.
func isWordText(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isWordByte(r) {
			return false
		}
	}
	return true
}

// explainExpr returns the plan of an expression search: the full-text query each target
// runs, and whether its matches are verified against the stored text.
func (s *Searcher) explainExpr(req Request) *Plan {
	return explainExpr(req, s.exprTokens(req))
}

// ExplainExpr returns the plan of an expression search with the current tokenizer rules,
// without an index (quarry search --parse-only).
func ExplainExpr(req Request) (*Plan, error) {
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	var lang *languages.Language
	if req.Language != "" {
		lang, _ = reg.Lookup(req.Language)
	}
	tk := tokenizer.New(lang)
	return explainExpr(req, func(text string) []string {
		var out []string
		for _, t := range tk.Query(text) {
			if !slices.Contains(out, t.Text) {
				out = append(out, t.Text)
			}
		}
		return out
	}), nil
}

func explainExpr(req Request, tokens func(string) []string) *Plan {
	p := &Plan{Query: req.Expr.String()}
	query.Walk(req.Expr, func(n query.Node, neg bool) {
		switch x := n.(type) {
		case *query.Leaf:
			t := fmt.Sprintf("%s@%d %s", x.Kind, x.At, x.String())
			if neg {
				t = "NOT " + t
			}
			if x.Kind == query.Regex {
				t += " needs " + query.RegexNeed(x.Text, !req.Case.Sensitive(x.Kind, x.Text)).String()
			}
			p.Terms = append(p.Terms, t)
		case *query.Range:
			p.Terms = append(p.Terms, fmt.Sprintf("range@%d %s", x.At, x.String()))
		}
	})
	targets := []Target{req.Target}
	if req.Target == TargetAuto {
		targets = nil
		for _, t := range query.Targets(req.Expr) {
			targets = append(targets, Target(t))
		}
	}
	for _, t := range targets {
		docType := ftDocTypeSymbol
		if t != TargetDefinitions {
			docType = ftDocTypeFile
		}
		if t == TargetFiles && len(query.Leaves(req.Expr, "content")) == 0 {
			p.Steps = append(p.Steps, PlanStep{Target: t})
			continue
		}
		e := compileExpr(req.Expr, docType, req.Case, tokens, nil)
		step := PlanStep{Target: t, Fulltext: e.explain()}
		if !e.exact || t != TargetDefinitions {
			step.Tokens = []string{"(candidates verified against the stored text)"}
		}
		p.Steps = append(p.Steps, step)
	}
	return p
}

// docFreqs returns, for each of terms, the most documents it is found in among fields
// (0 where the index cannot say).
func (f *Fulltext) docFreqs(ctx context.Context, terms []string, fields ...string) []uint64 {
	out := make([]uint64, len(terms))
	ix, err := f.idx.Advanced()
	if err != nil {
		return out
	}
	r, err := ix.Reader()
	if err != nil {
		return out
	}
	defer r.Close()
	for i, term := range terms {
		for _, field := range fields {
			tfr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
			if err != nil {
				continue
			}
			out[i] = max(out[i], tfr.Count())
			tfr.Close()
		}
	}
	return out
}
