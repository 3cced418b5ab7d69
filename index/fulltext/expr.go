package fulltext

// A query-language expression compiled into a bleve query for one kind of document: a
// superset of its matches where bleve cannot decide (phrases, regexes, paths by regex,
// case-sensitive words), exact where it can, with the request's filters.

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrysearch/quarry/index/query"
)

// ExprQuery is a query-language expression compiled for one kind of document: a bleve
// query whose matches are a superset of what the expression matches (nil: anything), and
// whether it is exact (its matches need no verification against the stored text).
type ExprQuery struct {
	DocType string
	q       bq.Query
	Exact   bool
	filters []bq.Query // the request's filters (language, kinds, file pattern)
}

// Within returns e with the clauses of f for its documents.
func (e ExprQuery) Within(f Filter) ExprQuery {
	e.filters = f.clauses(e.DocType)
	return e
}

// MatchesAll reports whether e would match every document of its kind.
func (e ExprQuery) MatchesAll() bool { return e.q == nil && len(e.filters) == 0 }

// CompileExpr compiles an expression for docType's documents. tokens tokenizes a query
// word by the index's rules. Leaves bleve cannot decide exactly (phrases, regexes, paths
// by regex, line numbers, visibility, parents, case-sensitive words) compile to a superset,
// and the caller verifies the candidates.
func CompileExpr(n query.Node, docType string, cs query.Case, tokens func(string) []string, ft *Index) ExprQuery {
	c := exprCompiler{docType: docType, cs: cs, tokens: tokens, ft: ft}
	q, exact := c.node(n)
	return ExprQuery{DocType: docType, q: q, Exact: exact}
}

type exprCompiler struct {
	docType string
	cs      query.Case
	tokens  func(string) []string
	ft      *Index // for the terms holding a word; nil: wildcard queries
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
			scaleBoost(q, x.Boost)
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
func (c exprCompiler) everyDoc() bq.Query { return everyDocOf(c.docType) }

// textFields returns the text fields a leaf of field searches in the compiler's documents.
func (c exprCompiler) textFields(field string) []ftField {
	switch field {
	case "":
		return ftSymbolFields
	case "name":
		return []ftField{{FieldName, boostName}}
	case "signature":
		return []ftField{{FieldSignature, boostSignature}}
	case "doc":
		return []ftField{{FieldDocComment, boostDocComment}}
	case "body":
		return []ftField{{FieldCodeBody, boostCodeBody}}
	}
	return nil
}

func (c exprCompiler) leaf(l *query.Leaf) (bq.Query, bool) {
	switch l.Field {
	case "lang":
		return term(FieldLanguage, l.Text, 0), true
	case "kind":
		if c.docType != DocSymbol {
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
				scaleBoost(q, f.boost)
			}
			alts = append(alts, q)
		}
		return disjunction(alts)
	}
	switch l.Kind {
	case query.Word, query.Phrase, query.PhrasePrefix:
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
		exact := l.Kind == query.Word && !sensitive && c.docType == DocSymbol
		if len(all) == 1 {
			return all[0], exact
		}
		return bleve.NewConjunctionQuery(all...), exact
	case query.Prefix:
		lower := strings.ToLower(l.Text)
		if !isWordText(lower) {
			return nil, false
		}
		return perField(func(f string) bq.Query { q := bleve.NewPrefixQuery(lower); q.SetField(f); return q }), !sensitive && c.docType == DocSymbol
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
		}), !sensitive && c.docType == DocSymbol
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
		// Beside whole words, the words inside terms only narrow the candidates: they
		// score nothing, so a hit scores the same whether the field's terms were in
		// memory (they are kept) or not yet (they are left out).
		for _, q := range inside {
			scaleBoost(q, 0)
		}
		return conjunction(append(whole, inside...)), false
	}
	return conjunction(whole), false
}

// scaleBoost multiplies the boost of q by b: of each clause of a disjunction or
// conjunction, whose own boost bleve does not apply.
func scaleBoost(q bq.Query, b float64) {
	switch x := q.(type) {
	case *bq.DisjunctionQuery:
		for _, d := range x.Disjuncts {
			scaleBoost(d, b)
		}
	case *bq.ConjunctionQuery:
		for _, d := range x.Conjuncts {
			scaleBoost(d, b)
		}
	case bq.BoostableQuery:
		x.SetBoost(x.Boost() * b)
	}
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
func (e ExprQuery) query() bq.Query {
	if e.q == nil {
		return everyDocOf(e.DocType)
	}
	return e.q
}

// SearchExpr runs a compiled expression and returns up to size hits, best first (score,
// then id), and how many documents match.
func (f *Index) SearchExpr(ctx context.Context, e ExprQuery, size int) ([]Hit, uint64, error) {
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
	prefix := ftDocIDPrefix(e.DocType)
	hits := make([]Hit, 0, len(res.Hits))
	for _, d := range res.Hits {
		id := docID(d.ID)
		if !strings.HasPrefix(id, prefix) {
			continue
		}
		hits = append(hits, Hit{ID: strings.TrimPrefix(id, prefix), Score: d.Score})
	}
	return hits, res.Total, nil
}

// Explain returns e's bleve query as JSON.
func (e ExprQuery) Explain() string {
	b, err := json.Marshal(e.query())
	if err != nil {
		return fmt.Sprintf("(cannot print: %v)", err)
	}
	return string(b)
}

// IsWordByte reports whether r is a word character, as the tokenizer sees words.
func IsWordByte(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf && r != utf8.RuneError
}

// literalWords returns the runs of word characters of a literal, as the tokenizer sees
// words.
func literalWords(lit string) []string {
	return strings.FieldsFunc(lit, func(r rune) bool { return !IsWordByte(r) })
}

// startsWithWord and endsWithWord report whether lit starts or ends with a word character.
func startsWithWord(lit string) bool {
	r, _ := utf8.DecodeRuneInString(lit)
	return IsWordByte(r)
}

func endsWithWord(lit string) bool {
	r, _ := utf8.DecodeLastRuneInString(lit)
	return IsWordByte(r)
}

// isWordText reports whether s is one word: what a prefix or fuzzy query can look up.
func isWordText(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !IsWordByte(r) {
			return false
		}
	}
	return true
}
