package web

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/mcpserver"
)

// fixture copies the search fixture (testdata/search/repo) into a temporary directory,
// indexes it and returns a server over it.
func fixture(t testing.TB) (*httptest.Server, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "testdata", "search", "repo")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	if _, err := svc.Index(context.Background(), tools.IndexRequest{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(svc, Options{MCP: mcpserver.MCPHandler(mcpserver.NewMCPServer(svc, "test"))}))
	t.Cleanup(srv.Close)
	return srv, root
}

func do(t *testing.T, method, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestAPIIsTheContract: POST /api/search answers what the search operation answers, the
// same JSON; the page, the assets and every response carry the security headers.
func TestAPIIsTheContract(t *testing.T) {
	srv, _ := fixture(t)
	res, body := do(t, "POST", srv.URL+"/api/search", `{"query":"ServeHTTP","limit":3}`, map[string]string{"Content-Type": "application/json"})
	var got tools.SearchResult
	if err := json.Unmarshal([]byte(body), &got); err != nil || res.StatusCode != 200 {
		t.Fatalf("POST /api/search: %d %v\n%s", res.StatusCode, err, body)
	}
	if err := tools.Validate("search.result", []byte(body)); err != nil {
		t.Errorf("the answer is not a search.result: %v", err)
	}
	if len(got.Results) == 0 || got.Results[0].Name != "ServeHTTP" || got.Results[0].Path != "go/server/server.go" {
		t.Errorf("POST /api/search: %+v", got.Results)
	}
	for _, path := range []string{"/", "/static/app.js", "/static/style.css", "/api/health", "/api/query", "/file?path=go/server/server.go", "/refs?symbol=Server", "/calls?symbol=adapt", "/nope"} {
		res, _ := do(t, "GET", srv.URL+path, "", nil)
		if res.Header.Get("Content-Security-Policy") != ContentSecurityPolicy || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: headers %v", path, res.Header)
		}
		if path != "/nope" && res.StatusCode != 200 {
			t.Errorf("GET %s: %d", path, res.StatusCode)
		}
	}
}

// TestFileView: the file with its lines as anchors, highlighted, the searched words
// marked, the outline with links to each definition's references and callers.
func TestFileView(t *testing.T) {
	srv, _ := fixture(t)
	res, body := do(t, "GET", srv.URL+"/file?path=go/server/server.go&q=ServeHTTP", "", nil)
	if res.StatusCode != 200 {
		t.Fatalf("%d\n%s", res.StatusCode, body)
	}
	for _, want := range []string{`<tr id="L41">`, `<a href="#L41">41</a>`, `<mark>ServeHTTP</mark>`, `<span class="k">func</span>`, `<span class="nf"><mark>ServeHTTP</mark></span>`,
		`href="/refs?symbol=`, `href="/calls?direction=callers&amp;symbol=`, `<a class="line" href="#L41">41</a>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the file view lacks %s", want)
		}
	}
	_, refs := do(t, "GET", srv.URL+"/refs?symbol=Server", "", nil)
	if !strings.Contains(refs, `href="/file?path=go%2Fserver%2Fhandlers.go&amp;q=Server#L24"`) {
		t.Errorf("the references view lacks the use at handlers.go:24:\n%.2000s", refs)
	}
	_, calls := do(t, "GET", srv.URL+"/calls?symbol=writeJSON&direction=callers", "", nil)
	if !strings.Contains(calls, `>handleHealth</a>`) {
		t.Errorf("the callers view:\n%.1000s", calls)
	}
}

// TestHostileRequests: malformed or hostile requests get the contract's error or a 4xx,
// never a 500, and nothing they send comes back unescaped.
func TestHostileRequests(t *testing.T) {
	srv, _ := fixture(t)
	script := `<script>alert(1)</script>`
	json := map[string]string{"Content-Type": "application/json"}
	cases := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
	}{
		{"path traversal", "GET", "/file?path=../../etc/passwd", "", nil, 403},
		{"absolute path", "GET", "/file?path=/etc/passwd", "", nil, 403},
		{"encoded traversal", "GET", "/file?path=go/%2e%2e/%2e%2e/etc/passwd", "", nil, 403},
		{"a file not indexed", "GET", "/file?path=.quarry/registry.json", "", nil, 404},
		{"a nul in the path", "GET", "/file?path=go%00x", "", nil, 403},
		{"script in the file path", "GET", "/file?path=" + script, "", nil, 404},
		{"huge query", "POST", "/api/search", `{"query":"` + strings.Repeat("a ", 300000) + `"}`, json, 400},
		{"huge body", "POST", "/api/search", `{"query":"` + strings.Repeat("a", MaxRequestBytes) + `"}`, json, 413},
		{"bad parameter", "POST", "/api/search", `{"query":"x","limt":3}`, json, 400},
		{"bad value", "POST", "/api/search", `{"query":"x","limit":-4}`, json, 400},
		{"not JSON", "POST", "/api/search", `query=x`, json, 400},
		{"form body", "POST", "/api/search", `query=x`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"foreign Origin", "POST", "/api/search", `{"query":"x"}`, map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, 403},
		{"foreign Origin on MCP", "POST", "/mcp", `{}`, map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, 403},
		{"script in a query", "POST", "/api/search", `{"query":"name:(` + script + `"}`, json, 400},
		{"unknown operation", "POST", "/api/" + "deleteEverything", `{}`, json, 404},
		{"GET of a POST operation", "GET", "/api/search?query=x", "", nil, 405},
		{"bad depth", "GET", "/calls?symbol=adapt&depth=" + script, "", nil, 400},
		{"unknown symbol with script", "GET", "/refs?symbol=" + script + "x.y", "", nil, 200},
		{"unknown workspace", "GET", "/file?path=go/server/server.go&workspace=" + script, "", nil, 404},
	}
	for _, c := range cases {
		res, body := do(t, c.method, srv.URL+c.path, c.body, c.header)
		if res.StatusCode != c.status || res.StatusCode >= 500 {
			t.Errorf("%s: %d, want %d\n%.300s", c.name, res.StatusCode, c.status, body)
		}
		if strings.Contains(body, script) {
			t.Errorf("%s: the script comes back unescaped:\n%.500s", c.name, body)
		}
		if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") && !strings.Contains(body, `"code":"`) && res.StatusCode >= 400 {
			t.Errorf("%s: a JSON failure without the contract's envelope: %.300s", c.name, body)
		}
	}
}

// TestNotIndexed: over a workspace with no index the page still loads, health says so, and
// the first search indexes it and answers.
func TestNotIndexed(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc Fresh() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	srv := httptest.NewServer(Handler(svc, Options{}))
	t.Cleanup(srv.Close)
	if res, _ := do(t, "GET", srv.URL+"/", "", nil); res.StatusCode != 200 {
		t.Fatalf("the page: %d", res.StatusCode)
	}
	_, body := do(t, "GET", srv.URL+"/api/health", "", nil)
	if !strings.Contains(body, `"status":"not_indexed"`) {
		t.Errorf("health of a workspace never indexed: %.300s", body)
	}
	_, body = do(t, "POST", srv.URL+"/api/search", `{"query":"Fresh"}`, map[string]string{"Content-Type": "application/json"})
	if !strings.Contains(body, `"name":"Fresh"`) {
		t.Errorf("the first search: %.300s", body)
	}
}

// TestPageOutlineAndRefsMarks: the file view's outline starts at the first definition, the
// imports before it folded under a summary; the references view marks the name in each
// quoted line, escaped (issue 41 j).
func TestPageOutlineAndRefsMarks(t *testing.T) {
	srv, _ := fixture(t)
	_, body := do(t, "GET", srv.URL+"/file?path=go/server/server.go", "", nil)
	fold := strings.Index(body, `<details class="imports"><summary>`)
	list := strings.Index(body, "</details>\n<ul>") // the outline proper, after the fold
	if fold < 0 || list < fold || !strings.Contains(body[fold:list], " imports and declarations</summary>") || strings.Contains(body[list:], `<span class="kind">import</span>`) {
		t.Errorf("the outline: imports not folded above the first definition:\n%.3000s", body[max(fold, 0):])
	}
	_, refs := do(t, "GET", srv.URL+"/refs?symbol=Server", "", nil)
	if !strings.Contains(refs, "<mark>Server</mark>") {
		t.Errorf("the references view marks no use of Server:\n%.2000s", refs)
	}
	if got := string(markName(`s := &Server{} // ServerName <b>`, "Server")); got != `s := &amp;<mark>Server</mark>{} // ServerName &lt;b&gt;` {
		t.Errorf("markName = %q", got)
	}
}
