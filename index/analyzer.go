package index

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// Analyzer names. Bleve stores them in the index mapping, so every process that opens an
// index must have registered them: init does, for every language of languages.Default().
const (
	// ftAnalyzerPrefix starts the name of every Quarry analyzer and tokenizer: "quarry-go".
	ftAnalyzerPrefix = "quarry-"
	// ftNeutralAnalyzer analyzes text of no known language with the language-neutral rules.
	ftNeutralAnalyzer = ftAnalyzerPrefix + "code"
)

// ftAnalyzerName returns the name of the analyzer registered for the language named lang (a
// canonical name from languages.Default()), or ftNeutralAnalyzer for "".
func ftAnalyzerName(lang string) string {
	if lang == "" {
		return ftNeutralAnalyzer
	}
	return ftAnalyzerPrefix + lang
}

// ftMaxPooledTokens bounds the token buffers kept for reuse, so one huge file does not pin
// its buffer forever.
const ftMaxPooledTokens = 1 << 18

// ftTokenPool holds *[]tokenizer.Token buffers reused across Tokenize calls.
var ftTokenPool = sync.Pool{New: func() any { return new([]tokenizer.Token) }}

// ftTokenizer adapts Quarry's code tokenizer to bleve's analysis.Tokenizer.
//
// Every Quarry token becomes one bleve token with the same text and byte span. Its position
// is the ordinal of its word plus one, so all the tokens of a word (getUserData, get, user,
// data) share a position and a phrase over whole words lines up with any of them.
type ftTokenizer struct {
	tk *tokenizer.Tokenizer
}

// Tokenize implements analysis.Tokenizer. The terms share memory with input and with the
// strings the Quarry tokenizer returned; no analyzer of Quarry's writes to them (there are no
// token filters), and bleve copies a stored field's value before analyzing it.
func (t ftTokenizer) Tokenize(input []byte) analysis.TokenStream {
	if len(input) == 0 {
		return nil
	}
	bufp := ftTokenPool.Get().(*[]tokenizer.Token)
	toks := t.tk.Append((*bufp)[:0], unsafe.String(unsafe.SliceData(input), len(input)))
	stream := ftStream(toks)
	clear(toks) // drop the references to this input's text
	if cap(toks) <= ftMaxPooledTokens {
		*bufp = toks[:0]
		ftTokenPool.Put(bufp)
	}
	return stream
}

// ftStream converts Quarry tokens to a bleve token stream with two allocations: one array
// of tokens and one of pointers to them.
func ftStream(toks []tokenizer.Token) analysis.TokenStream {
	if len(toks) == 0 {
		return nil
	}
	slab := make([]analysis.Token, len(toks))
	stream := make(analysis.TokenStream, len(toks))
	for i, tok := range toks {
		slab[i] = analysis.Token{
			Term:     unsafe.Slice(unsafe.StringData(tok.Text), len(tok.Text)),
			Start:    tok.Start,
			End:      tok.End,
			Position: tok.Pos + 1,
			Type:     analysis.AlphaNumeric,
		}
		stream[i] = &slab[i]
	}
	return stream
}

// ftLanguageTokenizer returns a registry constructor for the tokenizer of lang (nil: neutral).
func ftLanguageTokenizer(lang *languages.Language) registry.TokenizerConstructor {
	tk := tokenizer.New(lang)
	return func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return ftTokenizer{tk: tk}, nil
	}
}

// ftAnalyzer returns a registry constructor for the analyzer named name, which is the
// tokenizer of the same name and nothing else: the tokenizer already lower-cases.
func ftAnalyzer(name string) registry.AnalyzerConstructor {
	return func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
		tk, err := cache.TokenizerNamed(name)
		if err != nil {
			return nil, err
		}
		return &analysis.DefaultAnalyzer{Tokenizer: tk}, nil
	}
}

// ftRegister registers the tokenizer and the analyzer named name.
func ftRegister(name string, lang *languages.Language) error {
	if err := registry.RegisterTokenizer(name, ftLanguageTokenizer(lang)); err != nil {
		return err
	}
	return registry.RegisterAnalyzer(name, ftAnalyzer(name))
}

func init() {
	reg, err := languages.Default()
	if err != nil {
		panic(fmt.Sprintf("index: register analyzers: %v", err))
	}
	if err := ftRegister(ftNeutralAnalyzer, nil); err != nil {
		panic(fmt.Sprintf("index: register analyzers: %v", err))
	}
	for _, lang := range reg.All() {
		if err := ftRegister(ftAnalyzerName(lang.Name), lang); err != nil {
			panic(fmt.Sprintf("index: register analyzers: %v", err))
		}
	}
}
