package fulltext

// The full-text side of a search: what a target asks of the full-text index (a Query),
// compiled into a bleve query and run. This file and expr.go (a query-language expression)
// are the only ones that build bleve queries; the targets (package search: defs.go,
// content.go) describe what they want and read back scored document ids.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrysearch/quarry/index/store"
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

// The fields a symbol is searched by: its name, signature, doc comment and body.
var ftSymbolFields = []ftField{{FieldName, boostName}, {FieldSignature, boostSignature}, {FieldDocComment, boostDocComment}, {FieldCodeBody, boostCodeBody}}

// Query is one search of the full-text index: every token (any, unless all) in one of
// fields, within the request's filters.
type Query struct {
	DocType string // DocSymbol (any other matches nothing)
	Tokens  []string
	All     bool
	// Prose widens each token to its inflected forms and related words (a prose query);
	// nil: each token as written.
	Prose  *Prose
	Filter Filter
	// NoBody leaves the code body out: the words are looked for in names, signatures and
	// doc comments only.
	NoBody bool
}

// Filter is what every document must match besides its words: its language, a symbol's
// kinds (any of them), and its path (the regexps of a file pattern: any of include, none of
// exclude).
type Filter struct {
	Language         string
	Kinds            []string
	Include, Exclude []string
}

// Prose is how a prose query's tokens are widened: each to its inflected forms (the token
// first) and its related words, the related words found at RelatedWeight of the field's
// boost.
type Prose struct {
	Forms         func(token string) []string
	Related       func(token string) []string
	RelatedWeight float64
}

// Hit is a document found, by the id of what it stands for (a symbol id, a file path).
type Hit struct {
	ID    string
	Score float64
}

// fields returns the fields s searches.
func (s Query) fields() []ftField {
	if s.NoBody {
		return ftSymbolFields[:3]
	}
	return ftSymbolFields
}

// compile returns the bleve query of s.
//
// There is no clause on doc_type: the text fields of symbols and files differ, so the words
// already pick the kind of document, and a term matching every symbol (three quarters of a
// million on corpus.sh full) made each search walk its postings: 11 ms of a 12 ms median.
func (s Query) compile() bq.Query {
	clauses := make([]bq.Query, len(s.Tokens))
	for i, t := range s.Tokens {
		forms := []string{t}
		if s.Prose != nil {
			forms = s.Prose.Forms(t)
		}
		var alts []bq.Query
		for _, f := range s.fields() {
			// A body is searched for the word as written, the other fields for its
			// inflections and related words too: those, common words' in every body, made
			// a prose query walk most of the symbols' postings (40 ms on corpus.sh full).
			// (Leaving them out of signatures too cut the dev descriptions' MRR@10 from
			// 0.502 to 0.456.)
			fforms := forms
			if f.name == FieldCodeBody {
				fforms = forms[:1]
			}
			for _, form := range fforms {
				alts = append(alts, term(f.name, form, f.boost))
			}
			if s.Prose != nil && f.name != FieldCodeBody {
				for _, r := range s.Prose.Related(t) {
					alts = append(alts, term(f.name, r, f.boost*s.Prose.RelatedWeight))
				}
			}
		}
		clauses[i] = disjunction(alts)
	}
	var scored bq.Query = bleve.NewDisjunctionQuery(clauses...)
	if s.All {
		scored = bleve.NewConjunctionQuery(clauses...)
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(append([]bq.Query{scored}, s.filters()...)...)
	if len(s.Filter.Exclude) > 0 {
		var not []bq.Query
		for _, re := range s.Filter.Exclude {
			not = append(not, regexpQuery(ftFieldPath, re))
		}
		b.AddMustNot(not...)
	}
	return b
}

// filters returns the clauses every document must match besides its words.
func (s Query) filters() []bq.Query { return s.Filter.clauses(s.DocType) }

// clauses returns the clauses of f (language, kinds, the file pattern's includes) for
// docType's documents.
func (f Filter) clauses(docType string) []bq.Query {
	var must []bq.Query
	if f.Language != "" {
		must = append(must, term(FieldLanguage, f.Language, 0))
	}
	if docType == DocSymbol && len(f.Kinds) > 0 {
		var kinds []bq.Query
		for _, k := range f.Kinds {
			kinds = append(kinds, term(ftFieldKind, k, 0))
		}
		must = append(must, bleve.NewDisjunctionQuery(kinds...))
	}
	if len(f.Include) > 0 {
		var inc []bq.Query
		for _, re := range f.Include {
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

// everyDocOf matches every document of docType: all of them for DocSymbol, none else.
func everyDocOf(docType string) bq.Query {
	if docType == DocSymbol {
		return bleve.NewMatchAllQuery()
	}
	return bleve.NewMatchNoneQuery()
}

func regexpQuery(field, re string) bq.Query {
	q := bleve.NewRegexpQuery(re)
	q.SetField(field)
	return q
}

// Search runs s and returns up to size hits, best first, and how many documents match.
func (f *Index) Search(ctx context.Context, s Query, size int) ([]Hit, uint64, error) {
	sr := bleve.NewSearchRequestOptions(s.compile(), size, 0, false)
	res, err := f.idx.SearchInContext(ctx, sr)
	if err != nil {
		return nil, 0, fmt.Errorf("index: search: %w", err)
	}
	prefix := ftDocIDPrefix(s.DocType)
	hits := make([]Hit, len(res.Hits))
	for i, d := range res.Hits {
		hits[i] = Hit{ID: strings.TrimPrefix(docID(d.ID), prefix), Score: d.Score}
	}
	return hits, res.Total, nil
}

// ftDocIDPrefix is the prefix of the document ids of docType.
func ftDocIDPrefix(docType string) string {
	if docType == DocSymbol {
		return store.SymbolDocPrefix
	}
	return store.FileDocPrefix
}

// Explain returns s's bleve query as JSON.
func (s Query) Explain() string {
	b, err := json.Marshal(s.compile())
	if err != nil {
		return fmt.Sprintf("(cannot print: %v)", err)
	}
	return string(b)
}

// Tokenizer returns the tokenizer of lang as f was built with it.
func (f *Index) Tokenizer(lang string) *tokenizer.Tokenizer {
	if a, ok := f.Analyzer(lang).(*analysis.DefaultAnalyzer); ok {
		if t, ok := a.Tokenizer.(ftTokenizer); ok {
			return t.tk
		}
	}
	return tokenizer.New(nil)
}

// DocFreqs returns, for each of terms, the most documents it is found in among fields
// (0 where the index cannot say).
func (f *Index) DocFreqs(ctx context.Context, terms []string, fields ...string) []uint64 {
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
