package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

func intp(n int) *int { return &n }

// TestSearchRequestChecked: a search request is checked and completed once, where it enters;
// the index gets a request it can trust.
func TestSearchRequestChecked(t *testing.T) {
	s, err := NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		req   SearchRequest
		code  Code
		field string
		want  string
	}{
		{SearchRequest{Query: "  "}, CodeBadQuery, "query", "1:1: empty query"},
		{SearchRequest{Query: `""`}, CodeBadQuery, "query", "empty query"},
		{SearchRequest{Query: "x", Target: "defs"}, CodeBadValue, "target", "did you mean definitions?"},
		{SearchRequest{Query: "x", Limit: intp(0)}, CodeBadValue, "limit", "limit 0 out of range: give 1 to 500"},
		{SearchRequest{Query: "x", Limit: intp(-1)}, CodeBadValue, "limit", "limit -1 out of range"},
		{SearchRequest{Query: "x", Limit: intp(MaxLimit + 1)}, CodeBadValue, "limit", "out of range"},
		{SearchRequest{Query: "x", Language: "cobol"}, CodeBadValue, "language", "known languages"},
		{SearchRequest{Query: "x", Kind: []string{"klass"}}, CodeBadValue, "kind", "did you mean class?"},
		{SearchRequest{Query: "x", ContextLines: -2}, CodeBadValue, "context_lines", "context_lines -2 out of range"},
		{SearchRequest{Query: "x", ContextLines: MaxContext + 1}, CodeBadValue, "context_lines", "out of range"},
		{SearchRequest{Query: "x", FilePattern: "src/[ab"}, CodeBadValue, "file_pattern", "unclosed ["},
		{SearchRequest{Query: "x", IncludeTests: true, ExcludeTests: true}, CodeBadValue, "exclude_tests", "contradict"},
	}
	for _, tt := range bad {
		_, err := s.indexRequest(tt.req)
		e := AsError(err)
		if err == nil || e.Code != tt.code || e.Path != tt.field || !strings.Contains(e.Message, tt.want) {
			t.Errorf("indexRequest(%+v) = %v, want %s at %s with %q", tt.req, err, tt.code, tt.field, tt.want)
		}
	}
	if _, err := s.indexRequest(SearchRequest{Query: "x", Language: "cobol"}); !errors.Is(err, languages.ErrUnknownLanguage) {
		t.Errorf("unknown language error %v does not wrap languages.ErrUnknownLanguage", err)
	}
	got, err := s.indexRequest(SearchRequest{Query: ` "a b"  c `, Language: "py", Kind: []string{" class"}, IncludeTests: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Query.String() != `"a b" c` || got.Target != search.TargetAuto || got.Limit != DefaultLimit ||
		got.Language != "python" || len(got.Kinds) != 1 || got.Kinds[0] != "class" || got.Tests != search.TestsInclude {
		t.Errorf("indexRequest gave %+v (query %s); want the defaults filled and names made canonical", got, got.Query)
	}
}

// localPair is one process over clusterRepos' two repositories: a-go the primary
// workspace, b-py a reference.
func localPair(t testing.TB, roots map[string]string) *Service {
	t.Helper()
	local, err := NewService(roots["a-go"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := local.Workspace(context.Background(), WorkspaceRequest{Operation: "add", Path: roots["b-py"], Name: "b-py"}); err != nil {
		t.Fatal(err)
	}
	return local
}

// pageKeys follows req's pages, a result a page, and returns their hits' keys (hitKeys).
func pageKeys(t testing.TB, svc *Service, req SearchRequest, names map[string]string) []string {
	t.Helper()
	one := 1
	req.Limit = &one
	var keys []string
	for range 100 {
		res, err := svc.Search(context.Background(), req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		keys = append(keys, testkit.HitKeys(res.Results, names)...)
		if res.NextCursor == "" {
			return keys
		}
		req.Cursor = res.NextCursor
	}
	t.Fatalf("%+v: more than 100 pages", req)
	return nil
}

// TestWorkspaceAllPages: the pages of a content search over several workspaces, followed
// by cursor, are the one long answer cut in pages: no hit lost or repeated.
func TestWorkspaceAllPages(t *testing.T) {
	local := localPair(t, testkit.ClusterRepos(t))
	for _, target := range []string{"content", "files"} {
		q := map[string]string{"content": "request", "files": "p"}[target]
		big := 50
		whole, err := local.Search(context.Background(), SearchRequest{Query: q, Target: target, Workspace: "all", Limit: &big})
		if err != nil {
			t.Fatal(err)
		}
		paged := pageKeys(t, local, SearchRequest{Query: q, Target: target, Workspace: "all"}, nil)
		if want := testkit.HitKeys(whole.Results, nil); len(want) < 3 || fmt.Sprint(paged) != fmt.Sprint(want) {
			t.Errorf("%s %q: pages of one\n %v\none page\n %v", target, q, paged, want)
		}
	}
}

// TestWorkspaceAllRelaxed: an answer over several workspaces says its query was relaxed
// (no result holds every word) only when no workspace found a result that does.
func TestWorkspaceAllRelaxed(t *testing.T) {
	local := localPair(t, testkit.ClusterRepos(t))
	relaxed := func(q, ws string) bool {
		res, err := local.Search(context.Background(), SearchRequest{Query: q, Workspace: ws})
		if err != nil || len(res.Results) == 0 {
			t.Fatalf("%q in %s: %v, %+v", q, ws, err, res)
		}
		return res.Relaxed
	}
	if relaxed("serve conn", "") || !relaxed("serve conn", "b-py") || relaxed("serve conn", "all") {
		t.Error(`"serve conn": a-go holds both words, b-py one: the answer over both is not relaxed`)
	}
	if !relaxed("conn reuse", "all") {
		t.Error(`"conn reuse": no workspace holds both words: the answer over both is relaxed`)
	}
}

// indexRequest checks req and turns it into the index's request, which the layers below
// trust: this is the one place a search request is validated and its defaults applied.
func (s *Service) indexRequest(req SearchRequest) (search.Request, error) {
	out, _, err := s.SearchRequest(req)
	return out, err
}
