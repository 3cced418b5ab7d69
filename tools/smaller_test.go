package tools

import (
	"path/filepath"
	"slices"
	"testing"
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
	writeFiles(t, root, files)
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
