package tokenizer

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/languages"
)

func forLang(t testing.TB, name string) *Tokenizer {
	t.Helper()
	if name == "" {
		return New(nil)
	}
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	lang, err := reg.Resolve(name)
	if err != nil {
		t.Fatal(err)
	}
	return New(lang)
}

func texts(toks []Token) []string {
	out := make([]string, len(toks))
	for i, tok := range toks {
		out[i] = tok.Text
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		lang, in string
		want     []string
	}{
		{"", "getUserData", []string{"getuserdata", "get", "user", "data"}},
		{"", "get_user_data", []string{"get_user_data", "get", "user", "data"}},
		{"", "XMLParser", []string{"xmlparser", "xml", "parser"}},
		{"", "getHTTPResponse", []string{"gethttpresponse", "get", "http", "response"}},
		{"", "MAX_BUFFER_SIZE", []string{"max_buffer_size", "max", "buffer", "size"}},
		{"", "parseURLs", []string{"parseurls", "parse", "urls"}},
		{"", "userIDs byID", []string{"userids", "user", "ids", "byid", "by", "id"}},
		{"", "base64Encode", []string{"base64encode", "base", "64", "encode"}},
		{"", "0x1F 3.14", []string{"0x1f", "3", "14"}},
		{"", "__init__", []string{"__init__", "init"}},
		{"", "_private", []string{"_private", "private"}},
		{"", "get_HTTPResponse", []string{"get_httpresponse", "get", "httpresponse", "http", "response"}},
		{"", "data_data", []string{"data_data", "data"}},
		{"", "a.b->c", []string{"a", "b", "c"}},
		{"", "größe", []string{"größe"}},
		{"", "変数 Δx", []string{"変数", "δx"}},
		{"", "変数Name", []string{"変数name", "変数", "name"}},
		{"", "ÜberKlasse", []string{"überklasse", "über", "klasse"}},
		{"rust", "std::io::Read", []string{"std", "::", "io", "::", "read"}},
		{"rust", "is_valid", []string{"is_valid", "is", "valid"}},
		{"rust", "borrow_mut", []string{"borrow_mut", "borrow", "mut"}},
		{"rust", "try_into_iter", []string{"try_into_iter", "try", "into_iter", "into", "iter"}},
		{"rust", "fn f() -> T", []string{"fn", "f", "->", "t"}},
		{"rust", "0..=9", []string{"0", "..=", "9"}},
		{"python", "island", []string{"island"}},
		{"python", "is_land", []string{"is_land", "is", "land"}},
		{"csharp", "IPaymentService", []string{"ipaymentservice", "ipayment", "i", "paymentservice", "payment", "service"}},
		{"csharp", "IOStream", []string{"iostream", "io", "stream"}},
		{"csharp", "Item", []string{"item"}},
		{"go", "NewReader", []string{"newreader", "new", "reader"}},
		{"go", "Newline", []string{"newline"}},
		{"go", "x := <-ch", []string{"x", ":=", "<-", "ch"}},
		{"go", "NewHTTPServer", []string{"newhttpserver", "new", "httpserver", "http", "server"}},
	}
	for _, tt := range tests {
		got := texts(forLang(t, tt.lang).Tokenize(tt.in))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize[%s](%q) = %q, want %q", tt.lang, tt.in, got, tt.want)
		}
	}
}

// TestLanguageIsolation proves that rules apply per language: an affix of one language never
// splits the words of another.
func TestLanguageIsolation(t *testing.T) {
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range reg.All() {
		for _, in := range []string{"island", "Island", "Newline", "Item", "Isolate"} {
			if got := texts(New(lang).Tokenize(in)); len(got) != 1 {
				t.Errorf("Tokenize[%s](%q) = %q, want only the whole word", lang.Name, in, got)
			}
		}
	}
	if got := texts(forLang(t, "python").Tokenize("IUserService")); slices.Contains(got, "userservice") {
		t.Errorf("python Tokenize(IUserService) = %q: C#'s I prefix leaked into python", got)
	}
	if got := texts(forLang(t, "").Tokenize("std::io is_valid")); slices.Contains(got, "::") || slices.Contains(got, "valid") && len(got) != 5 {
		t.Errorf("neutral Tokenize = %q, want no operators and no affix remainders", got)
	}
}

func TestOffsets(t *testing.T) {
	in := "fn größe_Wert(x: &mut Vec<u8>) -> Result<(), io::Error> { self.is_valid() }"
	toks := forLang(t, "rust").Tokenize(in)
	for _, tok := range toks {
		if src := in[tok.Start:tok.End]; strings.ToLower(src) != tok.Text {
			t.Errorf("token %q has source %q at %d:%d", tok.Text, src, tok.Start, tok.End)
		}
	}
	want := map[string]Kind{"größe_wert": Word, "größe": Part, "wert": Part, "->": Operator, "valid": Part}
	for _, tok := range toks {
		if k, ok := want[tok.Text]; ok {
			if tok.Kind != k {
				t.Errorf("token %q kind = %v, want %v", tok.Text, tok.Kind, k)
			}
			delete(want, tok.Text)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing tokens %v in %q", want, texts(toks))
	}
}

func TestIrregularLowerCase(t *testing.T) {
	// U+0130 (İ) lower-cases to two runes of another byte length; Ⱥ (U+023A) to a longer rune.
	in := "İstanbulCity ȺBC x"
	for _, tok := range New(nil).Tokenize(in) {
		if want := strings.ToLower(in[tok.Start:tok.End]); tok.Text != want {
			t.Errorf("token %q, want %q", tok.Text, want)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	in := "abc\xffdef\xc3(ghi"
	got := texts(New(nil).Tokenize(in))
	if want := []string{"abc", "def", "ghi"}; !slices.Equal(got, want) {
		t.Errorf("Tokenize(%q) = %q, want %q", in, got, want)
	}
}

func TestQuery(t *testing.T) {
	tests := []struct {
		lang, in string
		want     []string
	}{
		{"", "search_term", []string{"search", "term"}},
		{"", "getUserData", []string{"get", "user", "data"}},
		{"", "__init__", []string{"__init__", "init"}},
		{"", "connection pool", []string{"connection", "pool"}},
		{"rust", "is_valid", []string{"is", "valid"}},
		{"csharp", "IPaymentService", []string{"i", "payment", "service"}},
	}
	for _, tt := range tests {
		got := texts(forLang(t, tt.lang).Query(tt.in))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Query[%s](%q) = %q, want %q", tt.lang, tt.in, got, tt.want)
		}
	}
	// search_term_one is indexed with the atoms the filtered query asks for.
	doc := texts(New(nil).Tokenize("search_term_one"))
	for _, q := range texts(New(nil).Query("search_term")) {
		if !slices.Contains(doc, q) {
			t.Errorf("query token %q is not among the tokens of search_term_one %q", q, doc)
		}
	}
}

func TestFilterCompoundsKeepsCompoundWithMissingAtom(t *testing.T) {
	toks := New(nil).Tokenize("getUserData")
	toks = slices.DeleteFunc(toks, func(tok Token) bool { return tok.Text == "user" })
	got := texts(FilterCompounds(toks))
	if want := []string{"getuserdata", "get", "data"}; !slices.Equal(got, want) {
		t.Errorf("FilterCompounds = %q, want %q", got, want)
	}
}

func TestAppendReusesBuffer(t *testing.T) {
	tk := New(nil)
	buf := tk.Append(nil, "alpha betaGamma")
	buf = tk.Append(buf[:0], "x")
	if got := texts(buf); !slices.Equal(got, []string{"x"}) {
		t.Errorf("Append after reset = %q", got)
	}
}

func checkInvariants(t *testing.T, in string, toks []Token) {
	t.Helper()
	for i, tok := range toks {
		if tok.Start < 0 || tok.End > len(in) || tok.Start >= tok.End {
			t.Fatalf("token %d %q: span %d:%d out of bounds for %d bytes", i, tok.Text, tok.Start, tok.End, len(in))
		}
		if want := strings.ToLower(in[tok.Start:tok.End]); tok.Text != want {
			t.Fatalf("token %d %q: source %q lower-cases to %q", i, tok.Text, in[tok.Start:tok.End], want)
		}
		if !utf8.ValidString(tok.Text) {
			t.Fatalf("token %d %q is not valid UTF-8", i, tok.Text)
		}
		if i > 0 {
			p := toks[i-1]
			if tok.Start < p.Start || tok.Start == p.Start && tok.End > p.End || tok.Pos < p.Pos {
				t.Fatalf("token %d %q at %d:%d (pos %d) comes after %q at %d:%d (pos %d)", i, tok.Text, tok.Start, tok.End, tok.Pos, p.Text, p.Start, p.End, p.Pos)
			}
			if tok.Pos == p.Pos && tok.Kind != Operator {
				for _, q := range toks[:i] {
					if q.Pos == tok.Pos && q.Text == tok.Text {
						t.Fatalf("token %q repeated within word %d", tok.Text, tok.Pos)
					}
				}
			}
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"getHTTPResponse", "std::io::Read is_valid", "größe 変数 Δx", "\xff\xfe", "IUserService", "a__b__", "İİİ", "URLs_IDs9x"} {
		f.Add(s, uint8(0))
	}
	reg, err := languages.Default()
	if err != nil {
		f.Fatal(err)
	}
	toks := []*Tokenizer{New(nil)}
	for _, l := range reg.All() {
		toks = append(toks, New(l))
	}
	f.Fuzz(func(t *testing.T, in string, which uint8) {
		tk := toks[int(which)%len(toks)]
		checkInvariants(t, in, tk.Tokenize(in))
		tk.Query(in)
	})
}

func TestAtoms(t *testing.T) {
	tk := New(nil)
	tests := []struct {
		in   string
		want []string
	}{
		{"ReadAll(r io.Reader)", []string{"read", "all", "r", "io", "reader"}},
		{"get_user_data XMLParser", []string{"get", "user", "data", "xml", "parser"}},
		{"Returns the count.", []string{"returns", "the", "count"}},
	}
	for _, tt := range tests {
		if got := tk.Atoms(nil, tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Atoms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
