package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

// requestsFor returns requests (method, path and query, body) that reach the route pattern:
// its wildcards filled in ({op} with every operation), a method for each it takes.
func requestsFor(t *testing.T, pattern string) [][3]string {
	t.Helper()
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		method, path = "", pattern
	}
	methods := []string{method}
	if method == "" {
		methods = []string{"GET", "POST"}
	}
	paths := []string{path}
	switch {
	case strings.Contains(path, "{op}"):
		paths = nil
		for _, op := range tools.OperationNames() {
			paths = append(paths, strings.ReplaceAll(path, "{op}", op))
		}
	case strings.HasSuffix(path, "{$}"):
		paths = []string{strings.TrimSuffix(path, "{$}")}
	case strings.HasSuffix(path, "/"):
		paths = []string{path + "app.js"}
	}
	var out [][3]string
	for _, m := range methods {
		for _, p := range paths {
			if strings.Contains(p, "{") {
				t.Fatalf("route %s: a wildcard this test does not fill in; teach requestsFor", pattern)
			}
			body := ""
			if m == "POST" {
				body = `{"operation":"add","path":"/etc","query":"ServeHTTP"}`
			}
			out = append(out, [3]string{m, p + "?path=go/server/server.go&symbol=Server&workspace=", body})
		}
	}
	return out
}

// TestRebinding: on every route of the server (the page, the assets, the API, the views,
// MCP, health), a request whose Host names another site (DNS rebinding) is refused with 403
// and NOT_ALLOWED, with or without an Origin of that site, and so is a loopback Host with a
// foreign Origin; the same request with the server's own Host is not.
func TestRebinding(t *testing.T) {
	srv, _ := fixture(t)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	own := u.Host
	port := u.Port()
	patterns := Patterns(Options{MCP: http.NotFoundHandler()})
	if len(patterns) < 9 {
		t.Fatalf("Patterns: %v", patterns)
	}
	hostile := []struct{ host, origin string }{
		{"evil.example:" + port, ""},
		{"evil.example:" + port, "http://evil.example:" + port},
		{"evil.example", "http://evil.example"},
		{"localhost.evil.example:" + port, ""},
		{own, "http://evil.example:" + port},
		{"localhost:" + port, "https://evil.example"},
	}
	for _, pattern := range patterns {
		for _, rq := range requestsFor(t, pattern) {
			for _, h := range hostile {
				res, body := send(t, srv.URL, rq, h.host, h.origin)
				var env tools.Envelope
				if res.StatusCode != http.StatusForbidden || json.Unmarshal([]byte(body), &env) != nil || env.Error == nil || env.Error.Code != tools.CodeNotAllowed {
					t.Errorf("%s %s with Host %s, Origin %q: %d %.200s; want 403 NOT_ALLOWED", rq[0], rq[1], h.host, h.origin, res.StatusCode, body)
				}
				if res.Header.Get("Content-Security-Policy") != ContentSecurityPolicy {
					t.Errorf("%s %s refused without the security headers", rq[0], rq[1])
				}
			}
			for _, host := range []string{own, "localhost:" + port, "[::1]:" + port} {
				res, body := send(t, srv.URL, rq, host, "http://"+host)
				if strings.Contains(body, `"path":"host"`) || strings.Contains(body, `"path":"origin"`) {
					t.Errorf("%s %s with its own Host %s: refused: %d %.200s", rq[0], rq[1], host, res.StatusCode, body)
				}
			}
		}
	}
	// The two requests, and what they answer with the right Host.
	res, body := send(t, srv.URL, [3]string{"GET", "/file?path=go/server/server.go", ""}, own, "")
	if res.StatusCode != 200 || !strings.Contains(body, "ServeHTTP") {
		t.Errorf("GET /file with its own Host: %d", res.StatusCode)
	}
}

// TestWorkspaceAddOverHTTP: POST /api/workspace (and /api/manage_workspace) does not add,
// remove or clean workspaces unless the server names a root, and says which flag would let
// it; listing stays open. (quarry serve's /mcp: reliability/rebinding_reliability_test.go.)
func TestWorkspaceAddOverHTTP(t *testing.T) {
	srv, _ := fixture(t)
	dir := t.TempDir()
	for _, op := range []string{"workspace", "manage_workspace"} {
		for _, operation := range []string{"add", "remove", "clean"} {
			res, body := do(t, "POST", srv.URL+"/api/"+op, `{"operation":"`+operation+`","path":"`+dir+`","id":"x"}`, map[string]string{"Content-Type": "application/json", "Origin": srv.URL})
			if res.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":"NOT_ALLOWED"`) || !strings.Contains(body, "--allow-workspace-root DIR") {
				t.Errorf("POST /api/%s %s: %d %s", op, operation, res.StatusCode, body)
			}
		}
	}
	res, body := do(t, "POST", srv.URL+"/api/workspace", `{"operation":"list"}`, map[string]string{"Content-Type": "application/json", "Origin": srv.URL})
	if res.StatusCode != 200 || strings.Contains(body, dir) {
		t.Errorf("list: %d %s", res.StatusCode, body)
	}
}

// send sends rq to base with host as its Host header and origin (if any) as its Origin.
func send(t *testing.T, base string, rq [3]string, host, origin string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(rq[0], base+rq[1], strings.NewReader(rq[2]))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
