package fulltext

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// Analyzer names. Each index mapping defines its analyzers (ftAddAnalysis); only the
// tokenizer type is registered globally (init).
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

// ftTokenizerType is the bleve tokenizer type of Quarry's code tokenizer. Its configuration
// holds a language's tokenizer rules (ftTokenizerConfig); the index mapping defines one
// tokenizer of this type per language with the rules of languages.Default() at build time.
// Bleve keeps the mapping in the index, so an index is always reopened with the rules that
// built it, even after languages/*.toml changed: its own queries still match its terms.
const ftTokenizerType = "quarry"

// Keys of a ftTokenizerType configuration.
const (
	ftCfgLanguage          = "language"
	ftCfgPreservePatterns  = "preserve_patterns"
	ftCfgMeaningfulAffixes = "meaningful_affixes"
	ftCfgStripPrefixes     = "strip_prefixes"
	ftCfgStripSuffixes     = "strip_suffixes"
)

// ftTokenizerConfig returns the configuration of the tokenizer of lang (nil: neutral rules).
func ftTokenizerConfig(lang *languages.Language) map[string]any {
	cfg := map[string]any{"type": ftTokenizerType}
	if lang == nil {
		return cfg
	}
	cfg[ftCfgLanguage] = lang.Name
	cfg[ftCfgPreservePatterns] = lang.Tokenizer.PreservePatterns
	cfg[ftCfgMeaningfulAffixes] = lang.Tokenizer.MeaningfulAffixes
	cfg[ftCfgStripPrefixes] = lang.Variants.StripPrefixes
	cfg[ftCfgStripSuffixes] = lang.Variants.StripSuffixes
	return cfg
}

// ftNewTokenizer is the registry constructor of ftTokenizerType: it rebuilds the language's
// rules from a configuration written by ftTokenizerConfig, either as built or as read back
// from an index's JSON mapping.
func ftNewTokenizer(cfg map[string]any, _ *registry.Cache) (analysis.Tokenizer, error) {
	name, ok := cfg[ftCfgLanguage]
	if !ok {
		return ftTokenizer{tk: neutralTokenizer}, nil
	}
	lang := &languages.Language{}
	var err error
	if lang.Name, err = ftCfgString(name, ftCfgLanguage); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		dst *[]string
	}{
		{ftCfgPreservePatterns, &lang.Tokenizer.PreservePatterns},
		{ftCfgMeaningfulAffixes, &lang.Tokenizer.MeaningfulAffixes},
		{ftCfgStripPrefixes, &lang.Variants.StripPrefixes},
		{ftCfgStripSuffixes, &lang.Variants.StripSuffixes},
	} {
		if *f.dst, err = ftCfgStrings(cfg[f.key], f.key); err != nil {
			return nil, err
		}
	}
	for _, p := range lang.Tokenizer.PreservePatterns {
		if p == "" {
			return nil, fmt.Errorf("quarry tokenizer %q: empty %s entry", lang.Name, ftCfgPreservePatterns)
		}
	}
	for _, list := range [][]string{lang.Tokenizer.MeaningfulAffixes, lang.Variants.StripPrefixes, lang.Variants.StripSuffixes} {
		for _, a := range list {
			if a == "" {
				return nil, fmt.Errorf("quarry tokenizer %q: empty affix", lang.Name)
			}
		}
	}
	return ftTokenizer{tk: sharedTokenizer(lang)}, nil
}

var neutralTokenizer = tokenizer.New(nil)

// sharedTokenizers are the tokenizers the indexes of a process built, by their rules: a
// Tokenizer is read-only once built and about 12 KB, and each index's mapping builds one
// per language. A node of a cluster opens thousands of small indexes, and their copies
// were 62% of its heap (450 KB an index; issue 44's pprof of 300 open shards).
var sharedTokenizers sync.Map // string -> *tokenizer.Tokenizer

func sharedTokenizer(lang *languages.Language) *tokenizer.Tokenizer {
	key := strings.Join([]string{lang.Name,
		strings.Join(lang.Tokenizer.PreservePatterns, "\x00"), strings.Join(lang.Tokenizer.MeaningfulAffixes, "\x00"),
		strings.Join(lang.Variants.StripPrefixes, "\x00"), strings.Join(lang.Variants.StripSuffixes, "\x00")}, "\x01")
	if tk, ok := sharedTokenizers.Load(key); ok {
		return tk.(*tokenizer.Tokenizer)
	}
	tk, _ := sharedTokenizers.LoadOrStore(key, tokenizer.New(lang))
	return tk.(*tokenizer.Tokenizer)
}

func ftCfgString(v any, key string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("quarry tokenizer: %s is %T, want a string", key, v)
	}
	return s, nil
}

// ftCfgStrings reads a list of strings: []string as built, []any once read back from JSON.
func ftCfgStrings(v any, key string) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []string:
		return v, nil
	case []any:
		out := make([]string, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("quarry tokenizer: %s[%d] is %T, want a string", key, i, e)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("quarry tokenizer: %s is %T, want a list of strings", key, v)
}

// ftAddAnalysis defines, in im, the tokenizer and the analyzer of every language of reg and
// the neutral ones, each named ftAnalyzerName(language). An analyzer is its tokenizer and
// nothing else: the tokenizer already lower-cases.
func ftAddAnalysis(im *mapping.IndexMappingImpl, reg *languages.Registry) error {
	add := func(name string, lang *languages.Language) error {
		if err := im.AddCustomTokenizer(name, ftTokenizerConfig(lang)); err != nil {
			return err
		}
		return im.AddCustomAnalyzer(name, map[string]any{"type": custom.Name, "tokenizer": name})
	}
	if err := add(ftNeutralAnalyzer, nil); err != nil {
		return err
	}
	for _, lang := range reg.All() {
		if err := add(ftAnalyzerName(lang.Name), lang); err != nil {
			return err
		}
	}
	return nil
}

func init() {
	if err := registry.RegisterTokenizer(ftTokenizerType, ftNewTokenizer); err != nil {
		panic(fmt.Sprintf("index: register the quarry tokenizer: %v", err))
	}
}

var stemmer = porter.NewPorterStemmer()

// Stem returns the Porter stem of a lower-case word.
func Stem(w string) string {
	out := stemmer.Filter(analysis.TokenStream{{Term: []byte(w)}})
	return string(out[0].Term)
}
