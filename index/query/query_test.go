package query

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		src     string
		words   []string
		phrases []string
		text    string
		str     string
	}{
		{"ServeHTTP", []string{"ServeHTTP"}, nil, "ServeHTTP", "ServeHTTP"},
		{"  connection   pool ", []string{"connection", "pool"}, nil, "connection pool", "connection pool"},
		{`"connection pool" exhausted`, []string{"exhausted"}, []string{"connection pool"}, "connection pool exhausted", `"connection pool" exhausted`},
		{`foo"bar baz"qux`, []string{"foo", "qux"}, []string{"bar baz"}, "foo bar baz qux", `foo "bar baz" qux`},
		{`a"b`, []string{"a", "b"}, nil, "a b", "a b"}, // an unclosed quote separates
		{`"x" "y`, []string{"y"}, []string{"x"}, "x y", `"x" y`},
		{`"" TODO`, []string{"TODO"}, nil, "TODO", "TODO"}, // an empty phrase is dropped
		{"get_user_data\tpool", []string{"get_user_data", "pool"}, nil, "get_user_data pool", "get_user_data pool"},
		{"größe", []string{"größe"}, nil, "größe", "größe"},
	}
	for _, tt := range tests {
		q, err := Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := q.Words(); !slices.Equal(got, tt.words) {
			t.Errorf("Parse(%q).Words() = %q, want %q", tt.src, got, tt.words)
		}
		if got := q.Phrases(); !slices.Equal(got, tt.phrases) {
			t.Errorf("Parse(%q).Phrases() = %q, want %q", tt.src, got, tt.phrases)
		}
		if got := q.Text(); got != tt.text {
			t.Errorf("Parse(%q).Text() = %q, want %q", tt.src, got, tt.text)
		}
		if got := q.String(); got != tt.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.src, got, tt.str)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "1:1: empty query"},
		{"   ", "1:1: empty query"},
		{`""`, "1:1: empty query"},
		{`"  "  "`, "1:1: empty query"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		var qe *Error
		if !errors.As(err, &qe) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %v, want a *Error starting %q", tt.src, err, tt.want)
		}
	}
}

func TestTermPositions(t *testing.T) {
	q, err := Parse(`find "a b" é c`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Term{{Word, "find", 0}, {Phrase, "a b", 5}, {Word, "é", 11}, {Word, "c", 14}}
	if !slices.Equal(q.Terms, want) {
		t.Errorf("Terms = %+v, want %+v", q.Terms, want)
	}
}

func TestQualified(t *testing.T) {
	tests := []struct{ q, qual, name string }{
		{"json.Marshal", "json", "Marshal"},
		{"Vec::with_capacity", "Vec", "with_capacity"},
		{"std::io::Read", "io", "Read"},
		{"a.b.c", "b", "c"},
		{"ServeHTTP", "", "ServeHTTP"},
		{"index.ts", "index", "ts"},
		{"x.", "", "x."},
		{"two words", "", "two words"},
		{"ptr->field", "ptr", "field"},
		{`"json.Marshal"`, "", `"json.Marshal"`},
	}
	for _, tt := range tests {
		q, err := Parse(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if qual, name := q.Qualified(); qual != tt.qual || name != tt.name {
			t.Errorf("Qualified(%q) = %q, %q; want %q, %q", tt.q, qual, name, tt.qual, tt.name)
		}
	}
}

// FuzzParse: parsing never panics; every term comes from the query at its position; an
// error has a position in the query; and Parse(q.String()) gives the same terms.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`"connection pool" exhausted`, `a"b`, `""`, `"x" "y`, `get_user_data`, "é \"ü\"", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		q, err := Parse(src)
		if err != nil {
			var qe *Error
			if !errors.As(err, &qe) || qe.Pos < 0 || qe.Pos > len(src) {
				t.Fatalf("Parse(%q) error %v: want a *Error with a position in the query", src, err)
			}
			return
		}
		for _, term := range q.Terms {
			if term.Text == "" || !strings.Contains(src[term.Pos:], term.Text) {
				t.Fatalf("Parse(%q) gave %+v, not in the query at its position", src, term)
			}
		}
		again, err := Parse(q.String())
		if err != nil {
			t.Fatalf("Parse(%q) of Parse(%q).String(): %v", q.String(), src, err)
		}
		if len(again.Terms) != len(q.Terms) {
			t.Fatalf("Parse(String()) of %q = %q, want %q", src, again.String(), q.String())
		}
		for i := range q.Terms {
			if again.Terms[i].Kind != q.Terms[i].Kind || again.Terms[i].Text != q.Terms[i].Text {
				t.Fatalf("Parse(String()) of %q = %+v, want %+v", src, again.Terms, q.Terms)
			}
		}
	})
}
