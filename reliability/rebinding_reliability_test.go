package reliability

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/web"
)

// serverStartTimeout bounds how long a server takes to print its address.
const serverStartTimeout = 2 * time.Minute

var servingOn = regexp.MustCompile(`serving .* on (http://\S+)/`)

// startServer runs the built quarry with args (quarry serve or quarry mcp --http on port 0)
// in root and returns its base URL (http://127.0.0.1:PORT); the test's end stops it.
func startServer(t *testing.T, root string, args ...string) string {
	t.Helper()
	cmd := exec.Command(quarryBin, args...)
	cmd.Dir = root
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() { // read to the end, so the server never blocks on a full pipe
			if m := servingOn.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		close(found)
	}()
	select {
	case base, ok := <-found:
		if !ok {
			t.Fatalf("quarry %v ended without serving", args)
		}
		return base
	case <-time.After(serverStartTimeout):
		t.Fatalf("quarry %v printed no address in %v", args, serverStartTimeout)
	}
	return ""
}

// routeProbe is one request to a route.
type routeProbe struct{ method, target, body string }

// routeProbes returns requests reaching every route of quarry serve, enumerated from the
// server's own table (web.Patterns), so a route added later is probed too: wildcards filled
// in ({op} with every operation), each method a route takes.
func routeProbes(t *testing.T) []routeProbe {
	t.Helper()
	var out []routeProbe
	for _, pattern := range web.Patterns(web.Options{MCP: http.NotFoundHandler()}) {
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
		for _, m := range methods {
			for _, p := range paths {
				if strings.Contains(p, "{") {
					t.Fatalf("route %s has a wildcard this test does not fill in: teach routeProbes", pattern)
				}
				body := ""
				if m == "POST" {
					body = `{"operation":"add","path":"/etc"}`
				}
				out = append(out, routeProbe{m, p + "?path=app.go&symbol=Serve", body})
			}
		}
	}
	return out
}

// send sends p to base with host as its Host and origin (if any) as its Origin.
func send(t *testing.T, base string, p routeProbe, host, origin string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(p.method, base+p.target, strings.NewReader(p.body))
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
		t.Fatalf("%s %s: %v", p.method, p.target, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// hostile lists the Host and Origin pairs a page of another site can make a browser send
// to a server on port: its own name after DNS rebinding, with or without its Origin, and a
// loopback Host with its Origin.
func hostile(port string) [][2]string {
	return [][2]string{
		{"evil.example:" + port, ""},
		{"evil.example:" + port, "http://evil.example:" + port},
		{"evil.example", ""},
		{"localhost.evil.example:" + port, "http://localhost.evil.example:" + port},
		{"127.0.0.1.nip.io:" + port, ""},
		{"localhost:1", ""},
		{"127.0.0.1:" + port, "http://evil.example:" + port},
		{"localhost:" + port, "null"},
	}
}

// checkRefused sends every routeProbe with every hostile Host and Origin to base and counts the
// ones not refused with 403 and NOT_ALLOWED; with the server's own Host and Origin each must
// not be refused so. It returns the probes sent.
func checkRefused(t *testing.T, name, base string, probes []routeProbe) int {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	sent, notRefused := 0, 0
	for _, p := range probes {
		for _, h := range hostile(u.Port()) {
			status, body := send(t, base, p, h[0], h[1])
			sent++
			var env tools.Envelope
			if status != http.StatusForbidden || json.Unmarshal([]byte(body), &env) != nil || env.Error == nil || env.Error.Code != tools.CodeNotAllowed {
				notRefused++
				t.Errorf("%s: %s %s with Host %s, Origin %q: %d %.200s; want 403 NOT_ALLOWED", name, p.method, p.target, h[0], h[1], status, body)
			}
		}
		for _, host := range []string{u.Host, "localhost:" + u.Port(), "[::1]:" + u.Port()} {
			status, body := send(t, base, p, host, "http://"+host)
			if status == http.StatusForbidden && (strings.Contains(body, `"path":"host"`) || strings.Contains(body, `"path":"origin"`)) {
				t.Errorf("%s: %s %s with its own Host %s refused: %.200s", name, p.method, p.target, host, body)
			}
		}
	}
	t.Logf("%s: %d requests (every route, each method) × %d hostile Host/Origin pairs: %d sent, %d not refused", name, len(probes), len(hostile(u.Port())), sent, notRefused)
	return sent
}

// callTool calls an MCP tool at endpoint and returns its text and whether it is an error.
func callTool(t *testing.T, endpoint, tool string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "rebinding", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", endpoint, err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s over %s: %v", tool, endpoint, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// TestRebindingRefused proves that a web page of another site cannot drive quarry serve or
// quarry mcp --http (the built binary, on loopback ports): every route, enumerated from the
// server's table, refuses a Host naming another site (DNS rebinding) and a foreign Origin
// with 403 and NOT_ALLOWED, and serves its own Host; and that over HTTP no workspace is
// added unless --allow-workspace-root names the directory it is under.
func TestRebindingRefused(t *testing.T) {
	base := t.TempDir()
	files := map[string]string{"app.go": "package app\n\n// Serve answers.\nfunc Serve() {}\n"}
	roots := map[string]string{}
	for _, name := range []string{"serve", "mcp", "serve-open", "mcp-open", "allowed/lib", "outside"} {
		roots[name] = filepath.Join(base, name)
		writeTree(t, roots[name], files)
	}
	if err := os.Symlink(roots["outside"], filepath.Join(base, "allowed", "link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"serve", "mcp", "serve-open", "mcp-open"} {
		if out, err := exec.Command(quarryBin, "--root", roots[name], "index").CombinedOutput(); err != nil {
			t.Fatalf("index %s: %v\n%s", name, err, out)
		}
	}

	serve := startServer(t, roots["serve"], "serve", "--addr", "127.0.0.1:0", "--no-watch")
	probes := routeProbes(t)
	total := checkRefused(t, "quarry serve", serve, probes)
	for _, p := range []routeProbe{{"GET", "/", ""}, {"GET", "/file?path=app.go", ""}, {"GET", "/api/health", ""}, {"POST", "/api/search", `{"query":"Serve"}`}} {
		if status, body := send(t, serve, p, strings.TrimPrefix(serve, "http://"), ""); status != http.StatusOK {
			t.Errorf("quarry serve: %s %s with its own Host: %d %.200s", p.method, p.target, status, body)
		}
	}
	add := routeProbe{"POST", "/api/workspace", `{"operation":"add","path":"` + roots["outside"] + `"}`}
	if status, body := send(t, serve, add, strings.TrimPrefix(serve, "http://"), serve); status != http.StatusForbidden || !strings.Contains(body, "--allow-workspace-root") {
		t.Errorf("quarry serve: workspace add with its own Host and no --allow-workspace-root: %d %.300s", status, body)
	}
	if text, isErr := callTool(t, serve+"/mcp", "manage_workspace", map[string]any{"operation": "add", "path": roots["outside"]}); !isErr || !strings.Contains(text, "NOT_ALLOWED") {
		t.Errorf("quarry serve /mcp: manage_workspace add: %.300s", text)
	}
	if text, isErr := callTool(t, serve+"/mcp", "fast_goto", map[string]any{"symbol": "Serve"}); isErr || !strings.Contains(text, "app.go:4") {
		t.Errorf("quarry serve /mcp: fast_goto: %.300s", text)
	}

	mcpHTTP := startServer(t, roots["mcp"], "mcp", "--http", "127.0.0.1:0", "--no-watch")
	var mcpProbes []routeProbe
	for _, path := range []string{"/", "/mcp", "/anything"} {
		for _, m := range []string{"GET", "POST", "DELETE"} {
			mcpProbes = append(mcpProbes, routeProbe{m, path, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`})
		}
	}
	total += checkRefused(t, "quarry mcp --http", mcpHTTP, mcpProbes)
	if status, body := send(t, mcpHTTP, mcpProbes[1], strings.TrimPrefix(mcpHTTP, "http://"), ""); status != http.StatusOK {
		t.Errorf("quarry mcp --http: initialize with its own Host: %d %.300s", status, body)
	}
	if text, isErr := callTool(t, mcpHTTP, "manage_workspace", map[string]any{"operation": "add", "path": roots["outside"]}); !isErr || !strings.Contains(text, "NOT_ALLOWED") {
		t.Errorf("quarry mcp --http: manage_workspace add: %.300s", text)
	}

	// With --allow-workspace-root: directories under it, and no other.
	allowed := filepath.Join(base, "allowed")
	open := startServer(t, roots["serve-open"], "serve", "--addr", "127.0.0.1:0", "--no-watch", "--allow-workspace-root", allowed)
	host := strings.TrimPrefix(open, "http://")
	for path, want := range map[string]int{roots["outside"]: 403, allowed + "/../outside": 403, "link": 403, "../outside": 403, "lib": 200} {
		status, body := send(t, open, routeProbe{"POST", "/api/workspace", `{"operation":"add","path":"` + path + `"}`}, host, open)
		if status != want {
			t.Errorf("quarry serve --allow-workspace-root %s: add %s: %d %.300s; want %d", allowed, path, status, body, want)
		}
	}
	_, list := send(t, open, routeProbe{"POST", "/api/workspace", `{"operation":"list"}`}, host, "")
	if strings.Contains(list, roots["outside"]) || !strings.Contains(list, roots["allowed/lib"]) {
		t.Errorf("quarry serve --allow-workspace-root: the workspaces after the adds: %.500s", list)
	}
	mcpOpen := startServer(t, roots["mcp-open"], "mcp", "--http", "127.0.0.1:0", "--no-watch", "--allow-workspace-root", allowed)
	if text, isErr := callTool(t, mcpOpen, "manage_workspace", map[string]any{"operation": "add", "path": roots["outside"]}); !isErr || !strings.Contains(text, "NOT_ALLOWED") {
		t.Errorf("quarry mcp --http --allow-workspace-root: add outside: %.300s", text)
	}
	if text, isErr := callTool(t, mcpOpen, "manage_workspace", map[string]any{"operation": "add", "path": roots["allowed/lib"]}); isErr {
		t.Errorf("quarry mcp --http --allow-workspace-root: add under it: %.300s", text)
	}
	t.Logf("%d hostile requests to quarry serve and quarry mcp --http, all refused unless reported above", total)
}
