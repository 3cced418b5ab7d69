package tools

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// The smaller defects of issue 29 (item 14), a test each.

// smallRepo indexes files (path -> content) in a temporary workspace and returns a service
// over it.
func smallRepo(t *testing.T, files map[string]string) *Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, root, files)
	return indexedService(t, root)
}

const serverGo = `package a

type Server struct{}

func (s *Server) Start() {}
func (s *Server) Stop() {}

func Free() {}

type Client struct{}

func (c *Client) Start() {}
`

// parent:X alone finds the definitions whose parent is X, where it used to be refused with
// "nothing to look up".
func TestParentAloneFindsChildren(t *testing.T) {
	s := smallRepo(t, map[string]string{"a.go": serverGo})
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"parent:Server", []string{"a.go:5", "a.go:6"}},
		{"parent:server", []string{"a.go:5", "a.go:6"}},
		{"parent:Server -name:Stop", []string{"a.go:5"}},
		{"type:def parent:Client", []string{"a.go:12"}},
		{"parent:Nothing", nil},
	} {
		hits, err := exprSearch(t, s, sq(tt.query), 10)
		if err != nil {
			t.Errorf("Search(%q): %v", tt.query, err)
			continue
		}
		got := places(hits)
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

// A prose query in auto makes no content hit of its stop words: "how are cookies parsed"
// finds the lines about cookies, never a comment for its "how" or "are", as it used to
// once no line held every word.
func TestProseStopWordsMakeNoContentHits(t *testing.T) {
	s := smallRepo(t, map[string]string{"cookies.py": `# This module shows how requests are built.
# Here we decide how headers are merged.

def parse_cookies(header):
    """Parse the cookies of a Cookie header."""
    return dict(p.split("=", 1) for p in header.split(";"))


def other():
    # how this works: we are not sure
    pass
`})
	res, err := s.Search(context.Background(), SearchRequest{Query: "how are cookies parsed"})
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, h := range res.Results {
		if h.Hit != "content" {
			continue
		}
		lines++
		if text := strings.ToLower(h.Text); !strings.Contains(text, "cookie") && !strings.Contains(text, "pars") {
			t.Errorf("content hit %s:%d %q holds only stop words of the query", h.Path, h.Line, h.Text)
		}
	}
	if lines == 0 || len(res.Results) == 0 || res.Results[0].Name != "parse_cookies" {
		t.Errorf("Search(how are cookies parsed) = %v, want parse_cookies first and the docstring's line", places(res.Results))
	}
}

// A word written as a field that does not exist (colour:red) is searched as text with a
// notice saying so and listing the fields, where it used to be searched without a word.
func TestNotAFieldNotice(t *testing.T) {
	s := smallRepo(t, map[string]string{"a.go": serverGo + "\n// colour:red is a config key.\n"})
	for _, tt := range []struct {
		query  string
		notice bool
	}{
		{"colour:red", true},
		{"kind:method colour:red", true},
		{`"colour:red"`, false},
		{"Start", false},
		{"TODO: Start", false},
	} {
		res, err := s.Search(context.Background(), SearchRequest{Query: tt.query})
		if err != nil {
			t.Errorf("Search(%q): %v", tt.query, err)
			continue
		}
		got := strings.Contains(res.Notice, "colour: is not a field, so it was searched as text") && strings.Contains(res.Notice, "fields: name,")
		if got != tt.notice {
			t.Errorf("Search(%q).Notice = %q, want a not-a-field notice: %v", tt.query, res.Notice, tt.notice)
		}
	}
	res, err := s.Search(context.Background(), SearchRequest{Query: "colour:red"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Line != 14 {
		t.Errorf("Search(colour:red) = %v, %v; want the comment at a.go:14, searched as text", places(res.Results), err)
	}
}
