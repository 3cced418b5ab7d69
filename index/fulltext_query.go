package index

// The full-text side of a search: what a target asks of the full-text index (an ftQuery),
// compiled into a bleve query and run. This file is the only one that builds bleve queries;
// the targets (search_defs.go, search_content.go) describe what they want and read back
// scored document ids.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bq "github.com/blevesearch/bleve/v2/search/query"

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
		var alts []bq.Query
		for _, f := range s.fields() {
			alts = append(alts, term(f.name, t, f.boost))
		}
		clauses[i] = disjunction(alts)
	}
	var scored bq.Query = bleve.NewDisjunctionQuery(clauses...)
	if s.all {
		scored = bleve.NewConjunctionQuery(clauses...)
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(append([]bq.Query{scored}, s.filters()...)...)
	if p := s.req.Pattern; p != nil && len(p.exclude) > 0 {
		var not []bq.Query
		for _, re := range p.exclude {
			not = append(not, regexpQuery(ftFieldPath, re))
		}
		b.AddMustNot(not...)
	}
	return b
}

// filters returns the clauses every document must match besides its words.
func (s ftQuery) filters() []bq.Query {
	var must []bq.Query
	if s.req.Language != "" {
		must = append(must, term(ftFieldLanguage, s.req.Language, 0))
	}
	if s.docType == ftDocTypeSymbol && len(s.req.Kinds) > 0 {
		var kinds []bq.Query
		for _, k := range s.req.Kinds {
			kinds = append(kinds, term(ftFieldKind, k, 0))
		}
		must = append(must, bleve.NewDisjunctionQuery(kinds...))
	}
	if p := s.req.Pattern; p != nil && len(p.include) > 0 {
		var inc []bq.Query
		for _, re := range p.include {
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
		return symbolDocPrefix
	}
	return fileDocPrefix
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
