package search

import (
	"slices"
	"testing"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/query"
)

func TestIsProse(t *testing.T) {
	for q, want := range map[string]bool{
		"delete a folder and everything inside it":    true,
		"poll a spawned process's exit status":        true,
		"encode unsigned 64-bit integer":              true,
		"connection pool":                             false, // two words: a name's parts as likely as prose
		"ServeHTTP":                                   false,
		"fn(max_buf_size: usize) -> (DuplexStream)":   false,
		"ctx context.Context trace *ClientTrace":      false,
		"BtCursor* const BtreePayload* int flags int": false,
	} {
		if got := isProse(q); got != want {
			t.Errorf("isProse(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestDropStopWords(t *testing.T) {
	if got := dropStopWords([]string{"lock", "the", "selected", "rows", "until", "the", "transaction", "ends"}); !slices.Equal(got, []string{"lock", "selected", "rows", "until", "transaction", "ends"}) {
		t.Errorf("dropStopWords = %q", got)
	}
	if got := dropStopWords([]string{"to", "be", "or"}); !slices.Equal(got, []string{"to", "be", "or"}) {
		t.Errorf("only stop words: dropStopWords = %q, want them all kept", got)
	}
}

func TestInflections(t *testing.T) {
	tests := []struct {
		word string
		want []string // among the forms
	}{
		{"selected", []string{"selected", "select", "selects", "selecting"}},
		{"directories", []string{"directories", "directory"}},
		{"expire", []string{"expire", "expires", "expired"}},
		{"bits", []string{"bits", "bit"}},
		{"is", []string{"is"}},
	}
	for _, tt := range tests {
		got := inflections(tt.word)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("inflections(%q) = %q, missing %q", tt.word, got, w)
			}
		}
		if got[0] != tt.word {
			t.Errorf("inflections(%q) = %q, want the word itself first", tt.word, got)
		}
	}
}

func TestMissingDefinition(t *testing.T) {
	def := func(name, kind string) Hit { return Hit{Hit: HitDefinition, Name: name, Kind: kind, Path: "a.go"} }
	tests := []struct {
		q    string
		hits []Hit
		want string
	}{
		{"FetchAll", []Hit{def("Fetch", "function"), def("All", "method")}, "no definition named FetchAll; showing related"},
		{"FetchAll", nil, "no definition named FetchAll"},
		{"FetchAll", []Hit{def("Fetch", "function"), def("FetchAll", "function")}, ""},
		{"fetch_all", []Hit{def("FetchAll", "method")}, ""},                                             // another naming convention
		{"FetchAll", []Hit{def("FetchAll", "import")}, "no definition named FetchAll; showing related"}, // an import only names it
		{"pool.New", []Hit{def("New", "function")}, ""},
		{"fetch all", []Hit{def("Fetch", "function")}, ""},  // words, not an identifier
		{`"FetchAll"`, []Hit{def("Fetch", "function")}, ""}, // a phrase
	}
	for _, tt := range tests {
		q, err := query.Parse(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if got := MissingDefinition(q, tt.hits); got != tt.want {
			t.Errorf("MissingDefinition(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestRelated(t *testing.T) {
	tests := []struct {
		word    string
		want    []string // among the related words
		notWant []string
	}{
		{"delete", []string{"remove", "strip"}, []string{"delete", "create"}},
		{"deleting", []string{"remove"}, nil}, // by stem
		{"folder", []string{"directory", "dir"}, nil},
		{"stop", []string{"shutdown", "close"}, []string{"start"}},
		{"xyzzy", nil, nil},
	}
	for _, tt := range tests {
		got := related(tt.word)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("related(%q) = %q, missing %q", tt.word, got, w)
			}
		}
		for _, w := range tt.notWant {
			if slices.Contains(got, w) {
				t.Errorf("related(%q) = %q, should not hold %q", tt.word, got, w)
			}
		}
	}
	// Groups are symmetric: every word of a group finds the others.
	for _, g := range thesaurusGroups {
		for _, w := range g[1:] {
			if !slices.Contains(related(w), g[0]) && fulltext.Stem(w) != fulltext.Stem(g[0]) {
				t.Errorf("related(%q) misses %q of its group", w, g[0])
			}
		}
	}
}

// TestQuestion: a prose query mostly of names is not searched by meaning.
func TestQuestion(t *testing.T) {
	for text, want := range map[string]bool{
		"retry1 cookie1 matrix1":                 false,
		"parseConfig loadFile readAll":           false,
		"turn a byte array into a base64 String": true,
		"where are cookies signed":               true,
		"encode unsigned 64-bit integer":         true,
		"utf8 decode rune8":                      false,
	} {
		if got := question(text); got != want {
			t.Errorf("question(%q) = %v, want %v", text, got, want)
		}
	}
}
