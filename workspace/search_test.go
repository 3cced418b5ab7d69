package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
)

// searchTree indexes files in a new workspace and opens it for searching.
func searchTree(t *testing.T, files map[string]string) *SearchIndex {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	indexTree(t, root, IndexOptions{})
	e := Entry{ID: ID(mustCanon(t, root)), Root: mustCanon(t, root), Name: "t"}
	x, err := OpenSearch(e, IndexDir(root, e.ID))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(x.Close)
	return x
}

// q parses a query of a test.
func q(s string) *query.Query {
	parsed, err := query.Parse(s)
	if err != nil {
		panic(err)
	}
	return parsed
}

// withDefaults fills the defaults of a request that package tools applies where requests
// enter: these tests build index requests directly.
func withDefaults(req search.Request) search.Request {
	if req.Target == "" {
		req.Target = search.TargetAuto
	}
	if req.Limit == 0 {
		req.Limit = 10
	}
	return req
}

func searchOne(t *testing.T, x *SearchIndex, req search.Request) *search.Result {
	t.Helper()
	res, err := Search(context.Background(), []*SearchIndex{x}, withDefaults(req))
	if err != nil {
		t.Fatalf("Search(%+v): %v", req, err)
	}
	return res
}

func hitList(res *search.Result) string {
	var b strings.Builder
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "%s %s:%d %s; ", h.Hit, h.Path, h.Line, h.Name)
	}
	return b.String()
}

var searchFiles = map[string]string{
	"server/server.go":      "package server\n\n// ServeHTTP answers a request.\nfunc (s *Server) ServeHTTP() {}\n\ntype Server struct{}\n",
	"server/server_test.go": "package server\n\n// ServeHTTP is a test double.\nfunc ServeHTTP() {}\n\nfunc TestServeHTTP() { ServeHTTP() }\n",
	"server/handler.go":     "package server\n\nfunc handle(s *Server) { s.ServeHTTP() }\n",
	"hash/blake.go":         "package hash\n\n// Sum is the Blake3 hash of b.\nfunc Sum(b []byte) {}\n",
	"hash/other.go":         "package hash\n\n// blake is a name; 3 is a number; a hash is a hash.\nfunc other() {}\n",
	"pool/pool.go":          "package pool\n\nvar ErrExhausted = errors.New(\"connection pool exhausted\")\n\n// the pool has no connection left\nfunc Acquire() {}\n",
	"a/one.py":              "def parse_config():\n    pass\n",
	"a/two.py":              "def parse_config_file():\n    pass\n",
	"b/three.py":            "def parse_config_b():\n    pass\n",
	"svc/service.py":        "class Service:\n    \"\"\"A service.\"\"\"\n\n    def refresh_tokens(self):\n        return 1\n",
}

func TestSearchDefinitionsRanking(t *testing.T) {
	x := searchTree(t, searchFiles)
	res := searchOne(t, x, search.Request{Query: q("ServeHTTP"), Target: search.TargetDefinitions})
	if len(res.Hits) < 2 || res.Hits[0].Path != "server/server.go" || res.Hits[0].Name != "ServeHTTP" || res.Hits[0].Line != 4 {
		t.Fatalf("ServeHTTP: %s; want the source definition first, then the test's", hitList(res))
	}
	h := res.Hits[0]
	if h.Kind != "method" || h.Language != "go" || h.EndLine != 4 || h.Column != 1 || !strings.Contains(h.Signature, "func (s *Server) ServeHTTP()") || len(h.Context) == 0 {
		t.Errorf("first hit fields: %+v", h)
	}

	res = searchOne(t, x, search.Request{Query: q("refresh_tokens"), Target: search.TargetDefinitions, Context: 5})
	if len(res.Hits) == 0 || res.Hits[0].Line != 4 || res.Hits[0].Column != 5 || res.Hits[0].EndLine != 5 ||
		len(res.Hits[0].Context) != 2 || res.Hits[0].Context[0] != (search.ContextLine{Line: 4, Text: "    def refresh_tokens(self):"}) ||
		res.Hits[0].Context[1].Line != 5 {
		t.Errorf("refresh_tokens: %+v; want svc/service.py:4:5 with its two lines as context", res.Hits)
	}

	excl := searchOne(t, x, search.Request{Query: q("ServeHTTP"), Target: search.TargetDefinitions, Tests: search.TestsExclude})
	for _, h := range excl.Hits {
		if strings.HasSuffix(h.Path, "_test.go") {
			t.Errorf("--exclude-tests returned %s", h.Path)
		}
	}
	about := searchOne(t, x, search.Request{Query: q("TestServeHTTP")})
	if len(about.Hits) == 0 || about.Hits[0].Name != "TestServeHTTP" {
		t.Errorf("TestServeHTTP (a query about tests): %s", hitList(about))
	}
}

func TestSearchContentVerification(t *testing.T) {
	x := searchTree(t, searchFiles)
	// "Blake3 hash" splits into blake, 3, hash, which other.go holds too, but not as written.
	res := searchOne(t, x, search.Request{Query: q("Blake3 hash"), Target: search.TargetContent})
	if len(res.Hits) != 1 || res.Hits[0].Path != "hash/blake.go" || res.Hits[0].Line != 3 {
		t.Errorf("Blake3 hash: %s; want only hash/blake.go:3", hitList(res))
	}
	res = searchOne(t, x, search.Request{Query: q(`"connection pool exhausted"`), Target: search.TargetContent, Context: 1})
	if len(res.Hits) != 1 || res.Hits[0].Line != 3 || !strings.Contains(res.Hits[0].Text, "connection pool exhausted") || len(res.Hits[0].Context) != 2 {
		t.Errorf("quoted phrase: %+v; want pool/pool.go:3 with a line of context on each side", res.Hits)
	}
	// The words occur on another line, but not as the phrase: only the phrase's line counts.
	res = searchOne(t, x, search.Request{Query: q(`"pool exhausted"`)})
	if len(res.Hits) == 0 || res.Hits[0].Hit != search.HitContent || res.Hits[0].Line != 3 {
		t.Errorf("auto on a quoted phrase: %s; want the content line first", hitList(res))
	}
}

func TestSearchRelaxed(t *testing.T) {
	x := searchTree(t, searchFiles)
	res := searchOne(t, x, search.Request{Query: q("Acquire zebra"), Target: search.TargetDefinitions})
	if !res.Relaxed || len(res.Hits) == 0 || res.Hits[0].Name != "Acquire" {
		t.Errorf("Acquire zebra: relaxed %v, %s; want relaxed with Acquire", res.Relaxed, hitList(res))
	}
	if res := searchOne(t, x, search.Request{Query: q("Acquire"), Target: search.TargetDefinitions}); res.Relaxed {
		t.Errorf("a query every result matches was reported relaxed")
	}
}

func TestSearchFilePatternBeforeLimit(t *testing.T) {
	x := searchTree(t, searchFiles)
	p, err := query.ParseFilePattern("b/**")
	if err != nil {
		t.Fatal(err)
	}
	res := searchOne(t, x, search.Request{Query: q("parse config"), Target: search.TargetDefinitions, Pattern: p, Limit: 1})
	if len(res.Hits) != 1 || res.Hits[0].Path != "b/three.py" {
		t.Errorf("parse config in b/** with limit 1: %s", hitList(res))
	}
	p, _ = query.ParseFilePattern("**/*.py,!a/two.py")
	res = searchOne(t, x, search.Request{Query: q("parse_config"), Target: search.TargetDefinitions, Pattern: p})
	for _, h := range res.Hits {
		if h.Path == "a/two.py" || !strings.HasSuffix(h.Path, ".py") {
			t.Errorf("pattern **/*.py,!a/two.py let through %s", h.Path)
		}
	}
	if len(res.Hits) != 2 || res.Hits[0].Path != "a/one.py" {
		t.Errorf("parse_config: %s; want a/one.py (exact name) then b/three.py", hitList(res))
	}
}

func TestSearchFilesAndAuto(t *testing.T) {
	x := searchTree(t, searchFiles)
	res := searchOne(t, x, search.Request{Query: q("server.go"), Target: search.TargetFiles})
	if len(res.Hits) == 0 || res.Hits[0].Path != "server/server.go" {
		t.Errorf("files server.go: %s", hitList(res))
	}
	res = searchOne(t, x, search.Request{Query: q("pool/pool.go")})
	if len(res.Hits) == 0 || res.Hits[0].Hit != search.HitFile || res.Hits[0].Path != "pool/pool.go" {
		t.Errorf("auto pool/pool.go: %s; want the file first", hitList(res))
	}
	res = searchOne(t, x, search.Request{Query: q("get_config"), Language: "python", Target: search.TargetDefinitions})
	if !res.Relaxed {
		t.Errorf("get_config (no symbol has get and config): not relaxed: %s", hitList(res))
	}
	res = searchOne(t, x, search.Request{Query: q("zebra"), Target: search.TargetDefinitions})
	if len(res.Hits) != 0 || res.Relaxed {
		t.Errorf("zebra found %s", hitList(res))
	}
}

// TestSearchBadInput: what only the index can tell (a query with no words by the rules it
// was built with) is an error; requests are otherwise checked where they enter (tools).
func TestSearchBadInput(t *testing.T) {
	x := searchTree(t, map[string]string{"a.go": "package a\n"})
	req := withDefaults(search.Request{Query: q("(*&^)"), Target: search.TargetDefinitions})
	_, err := Search(context.Background(), []*SearchIndex{x}, req)
	var bad *search.BadRequestError
	if !errors.As(err, &bad) || bad.Field != "query" || !strings.Contains(err.Error(), "no words to search for") {
		t.Errorf("Search(%+v) error = %v, want a BadRequestError on the query: no words to search for", req, err)
	}
	if _, err := OpenSearch(Entry{ID: "none"}, t.TempDir()); !errors.Is(err, ErrNotIndexed) {
		t.Errorf("OpenSearch of an empty directory: %v, want ErrNotIndexed", err)
	}
}

func TestSearchSeveralWorkspacesAndGoto(t *testing.T) {
	a := searchTree(t, map[string]string{"lib/pool.go": "package lib\n\n// Pool is a pool.\ntype Pool struct{}\n"})
	b := searchTree(t, map[string]string{"pool.py": "class Pool:\n    pass\n", "other/pool.go": "package other\n\ntype Pool struct{}\n"})
	res, err := Search(context.Background(), []*SearchIndex{a, b}, withDefaults(search.Request{Query: q("Pool"), Target: search.TargetDefinitions}))
	if err != nil {
		t.Fatal(err)
	}
	ws := map[string]bool{}
	for _, h := range res.Hits {
		ws[h.Workspace] = true
	}
	if len(res.Hits) != 3 || !ws[a.Entry.ID] || !ws[b.Entry.ID] {
		t.Errorf("two workspaces: %s (workspaces %v)", hitList(res), ws)
	}
	gotoReq := func(name string) search.Request {
		return search.Request{Query: q(name), Target: search.TargetDefinitions, Limit: 100}
	}
	hits, err := Goto(context.Background(), []*SearchIndex{b}, gotoReq("Pool"), "other/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].Path != "other/pool.go" {
		t.Errorf("goto Pool from other/main.go: %+v; want other/pool.go first", hits)
	}
	if hits, _ := Goto(context.Background(), []*SearchIndex{b}, gotoReq("Poo"), ""); len(hits) != 0 {
		t.Errorf("goto Poo found %+v; want only exact names", hits)
	}
}

// TestSearchAutoOneAnswerPerDefinition: a decorated definition starts at its decorator; the
// line naming it is the same answer, not a second result.
func TestSearchAutoOneAnswerPerDefinition(t *testing.T) {
	x := searchTree(t, map[string]string{
		"app.py": "import app\n\n@app.route(\"/users\")\ndef list_users_handler():\n    return []\n",
	})
	res := searchOne(t, x, search.Request{Query: q("list_users_handler")})
	if len(res.Hits) != 1 || res.Hits[0].Hit != search.HitDefinition {
		t.Errorf("list_users_handler: %s; want only the definition", hitList(res))
	}
}

// TestSearchQualifiedNames: json.Marshal finds Marshal in the json package, Bytes::new the
// new of Bytes, not of CowBytes.
func TestSearchQualifiedNames(t *testing.T) {
	x := searchTree(t, map[string]string{
		"encoding/json/encode.go": "package json\n\n// Marshal returns the JSON encoding of v.\nfunc Marshal(v any) ([]byte, error) { return nil, nil }\n",
		"big/int.go":              "package big\n\n// MarshalJSON implements json.Marshaler.\nfunc (x *Int) MarshalJSON() ([]byte, error) { return json.Marshal(x) }\n\nfunc Marshal() {}\n",
		"src/cow.rs":              "pub struct CowBytes;\nimpl CowBytes {\n    pub fn new() -> CowBytes { CowBytes }\n}\n",
		"src/buf.rs":              "pub struct Bytes;\nimpl Bytes {\n    pub fn new() -> Bytes { Bytes }\n}\n",
	})
	for _, tt := range []struct{ query, path, name string }{
		{"json.Marshal", "encoding/json/encode.go", "Marshal"},
		{"Bytes::new", "src/buf.rs", "new"},
	} {
		res := searchOne(t, x, search.Request{Query: q(tt.query)})
		if len(res.Hits) == 0 || res.Hits[0].Path != tt.path || res.Hits[0].Name != tt.name {
			t.Errorf("%s: %s; want %s %s first", tt.query, hitList(res), tt.path, tt.name)
		}
	}
}

// TestSearchTextWithPunctuation: several words with punctuation names never have (a colon
// ending a word) are text to find, not a definition's words.
func TestSearchTextWithPunctuation(t *testing.T) {
	x := searchTree(t, map[string]string{
		"store.go": "package store\n\n// remove deletes a key.\nfunc remove(k string) {}\n\nfunc flush() {\n\t// TODO: remove the cache\n}\n",
	})
	res := searchOne(t, x, search.Request{Query: q("TODO: remove")})
	if len(res.Hits) == 0 || res.Hits[0].Hit != search.HitContent || res.Hits[0].Line != 7 {
		t.Errorf("TODO: remove: %s; want the comment line first", hitList(res))
	}
}

// TestSearchTimeBudget: a search whose time has run out answers with what it found and says
// so (TimedOut), in every workspace searched; it is never a silent empty result.
func TestSearchTimeBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("pkg%d/a.go", i)] = "package pkg\n\nfunc f() {}\n"
	}
	a := searchTree(t, files)
	b := searchTree(t, files)
	n, err := query.ParseExpr(`/\w+\(\)/`, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	req := withDefaults(search.Request{Query: query.Plain(n), Expr: n, Target: search.TargetContent})
	res, err := Search(context.Background(), []*SearchIndex{a}, req)
	if err != nil || res.TimedOut || len(res.Hits) == 0 {
		t.Fatalf("with time: %v, timed out %v, %d hits; want hits", err, res != nil && res.TimedOut, len(res.Hits))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = Search(ctx, []*SearchIndex{a, b}, req)
	if err != nil {
		t.Fatalf("out of time: %v, want the results found so far", err)
	}
	if !res.TimedOut {
		t.Errorf("out of time: TimedOut false with %d hits: a silent (partial) result", len(res.Hits))
	}
}
