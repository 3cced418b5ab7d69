package tools

import (
	"context"

	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// Token is one token the code tokenizer makes of a text.
type Token struct {
	Text  string `json:"text" jsonschema:"the lower-case term"`
	Kind  string `json:"kind" jsonschema:"word, part, variant or operator"`
	Start int    `json:"start" jsonschema:"byte offset in the text of what the token was made from"`
	End   int    `json:"end" jsonschema:"byte offset just past it"`
}

// Tokens tokenizes req.Text with the rules of req.Language (default: language-neutral
// rules): the tokens an index holds for it, or with req.Query the tokens a search for it
// requires. A document matches a query when it holds every query token.
func (s *Service) Tokens(_ context.Context, req TokensRequest) ([]Token, error) {
	var lang *languages.Language
	if req.Language != "" {
		l, err := s.langs.Resolve(req.Language)
		if err != nil {
			return nil, &Error{Code: CodeBadValue, Path: "language", Message: "language: " + err.Error(), err: err}
		}
		lang = l
	}
	tk := tokenizer.New(lang)
	toks := tk.Tokenize
	if req.Query {
		toks = tk.Query
	}
	out := []Token{}
	for _, t := range toks(req.Text) {
		out = append(out, Token{Text: t.Text, Kind: t.Kind.String(), Start: t.Start, End: t.End})
	}
	return out, nil
}
