package fulltext

import (
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// ftTestAnalyzer returns the analyzer the index mapping defines for lang ("" for the
// neutral one).
func ftTestAnalyzer(t testing.TB, lang string) analysis.Analyzer {
	t.Helper()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	im, err := ftIndexMapping(reg, ftDefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	a := im.AnalyzerNamed(ftAnalyzerName(lang))
	if a == nil {
		t.Fatalf("AnalyzerNamed(%q): not defined", ftAnalyzerName(lang))
	}
	return a
}

func ftTestLanguage(t testing.TB, name string) *languages.Language {
	t.Helper()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	l, err := reg.Resolve(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func ftTerms(stream analysis.TokenStream) []string {
	out := make([]string, len(stream))
	for i, tok := range stream {
		out[i] = string(tok.Term)
	}
	return out
}

func TestAnalyzerRegistered(t *testing.T) {
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append([]string{""}, reg.Names()...) {
		a := ftTestAnalyzer(t, name)
		if got := ftTerms(a.Analyze([]byte("getUserData"))); !slices.Contains(got, "user") {
			t.Errorf("%s: Analyze(getUserData) = %v, want user among them", ftAnalyzerName(name), got)
		}
	}
	if ftAnalyzerName("go") != "quarry-go" || ftAnalyzerName("") != "quarry-code" {
		t.Errorf("analyzer names = %q, %q, want quarry-go, quarry-code", ftAnalyzerName("go"), ftAnalyzerName(""))
	}
}

func TestAnalyzerMatchesTokenizer(t *testing.T) {
	tests := []struct{ lang, input string }{
		{"rust", "std::io::Read is_valid"},
		{"csharp", "IUserService GetUserAsync"},
		{"go", "x := <-ch // NewReader"},
		{"python", "class Island(BaseModel): is_valid = None"},
		{"", "Größe naïve_café 42abc"},
	}
	for _, tt := range tests {
		var lang *languages.Language
		if tt.lang != "" {
			lang = ftTestLanguage(t, tt.lang)
		}
		want := tokenizer.New(lang).Tokenize(tt.input)
		got := ftTestAnalyzer(t, tt.lang).Analyze([]byte(tt.input))
		if len(got) != len(want) {
			t.Errorf("%s: Analyze(%q) = %v, want the terms of %v", tt.lang, tt.input, ftTerms(got), want)
			continue
		}
		for i, w := range want {
			g := got[i]
			if string(g.Term) != w.Text || g.Start != w.Start || g.End != w.End || g.Position != w.Pos+1 || g.Type != analysis.AlphaNumeric {
				t.Errorf("%s: Analyze(%q)[%d] = %v, want %q %d:%d at position %d", tt.lang, tt.input, i, g, w.Text, w.Start, w.End, w.Pos+1)
			}
		}
	}
}

func TestAnalyzerRustPath(t *testing.T) {
	got := ftTerms(ftTestAnalyzer(t, "rust").Analyze([]byte("std::io::Read is_valid")))
	want := []string{"std", "::", "io", "::", "read", "is_valid", "is", "valid"}
	if !slices.Equal(got, want) {
		t.Errorf("Analyze(std::io::Read is_valid) = %v, want %v", got, want)
	}
}

func TestAnalyzerLanguageRules(t *testing.T) {
	tests := []struct {
		lang, input, term string
		want              bool
	}{
		{"python", "island", "land", false},
		{"python", "island", "island", true},
		{"csharp", "IUserService", "userservice", true},
		{"go", "IUserService", "userservice", false},
		{"go", "NewReader", "reader", true},
		{"rust", "NewReader", "reader", true}, // a CamelCase part anyway
		{"rust", "a->b", "->", true},
		{"", "a->b", "->", false},
	}
	for _, tt := range tests {
		got := ftTerms(ftTestAnalyzer(t, tt.lang).Analyze([]byte(tt.input)))
		if slices.Contains(got, tt.term) != tt.want {
			t.Errorf("%s: Analyze(%q) = %v, contains %q: %v, want %v", ftAnalyzerName(tt.lang), tt.input, got, tt.term, !tt.want, tt.want)
		}
	}
}

func TestAnalyzerSpans(t *testing.T) {
	input := "func (s *Server) ServeHTTP(w http.ResponseWriter, r *Request) {\n\treturn s.handler_fn(w, r) // ÉCOLE Größe\n}"
	stream := ftTestAnalyzer(t, "go").Analyze([]byte(input))
	if len(stream) == 0 {
		t.Fatal("no tokens")
	}
	prevStart, prevPos := 0, 1
	for i, tok := range stream {
		if tok.Start < prevStart || tok.Start >= tok.End || tok.End > len(input) {
			t.Errorf("token %d %v: span out of order or bounds (previous start %d)", i, tok, prevStart)
		}
		if tok.Position < prevPos || tok.Position > prevPos+1 {
			t.Errorf("token %d %v: position %d after %d", i, tok, tok.Position, prevPos)
		}
		if want := strings.ToLower(input[tok.Start:tok.End]); string(tok.Term) != want {
			t.Errorf("token %d: term %q, want %q", i, tok.Term, want)
		}
		prevStart, prevPos = tok.Start, tok.Position
	}
	if stream[0].Position != 1 {
		t.Errorf("first position = %d, want 1", stream[0].Position)
	}
}

// TestAnalyzerReuse proves that the pooled token buffer is not shared with a returned stream.
func TestAnalyzerReuse(t *testing.T) {
	a := ftTestAnalyzer(t, "go")
	first := a.Analyze([]byte("alphaBeta gammaDelta"))
	want := ftTerms(first)
	for range 3 {
		a.Analyze([]byte("EpsilonZeta etaTheta iotaKappa lambdaMu"))
	}
	if got := ftTerms(first); !slices.Equal(got, want) {
		t.Errorf("first stream changed to %v, want %v", got, want)
	}
	if got := a.Analyze(nil); len(got) != 0 {
		t.Errorf("Analyze(nil) = %v, want nothing", ftTerms(got))
	}
}

func BenchmarkAnalyzer(b *testing.B) {
	files, total := ftBenchCorpus(b, ftBenchRoot())
	analyzers := map[string]analysis.Analyzer{}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			a := analyzers[f.Language]
			if a == nil {
				a = ftTestAnalyzer(b, f.Language)
				analyzers[f.Language] = a
			}
			a.Analyze([]byte(f.Content))
		}
	}
}
