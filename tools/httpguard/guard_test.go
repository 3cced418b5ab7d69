package httpguard

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
	"github.com/quarrysearch/quarry/workspace"
)

// guarded sends a request with host and origin to a's Guard, as if it came in on local,
// and returns the status and body.
func guarded(a HTTPAccess, local net.Addr, host, origin string) (int, string) {
	h := a.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("served")) }))
	r := httptest.NewRequest("GET", "/file?path=a.go", nil)
	r.Host = host
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	if local != nil {
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// TestGuardHost: a request is served only for a Host that names this server (a loopback
// name or the address it listens on, with its port) and from no Origin, a loopback one or
// its own; anything else is refused with 403 and the NOT_ALLOWED envelope.
func TestGuardHost(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777}
	lan := &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 7777}
	loop6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 7777}
	tests := []struct {
		name         string
		access       HTTPAccess
		local        net.Addr
		host, origin string
		served       bool
	}{
		{"its address", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "127.0.0.1:7777", "", true},
		{"localhost", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "localhost:7777", "", true},
		{"LOCALHOST", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "LOCALHOST:7777", "", true},
		{"[::1]", HTTPAccess{Addr: "127.0.0.1:7777"}, loop6, "[::1]:7777", "", true},
		{"its own page", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "127.0.0.1:7777", "http://127.0.0.1:7777", true},
		{"a loopback page (the MCP Inspector)", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "localhost:7777", "http://localhost:6274", true},
		{"rebound name", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "evil.example:7777", "", false},
		{"rebound name with its own Origin", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "evil.example:7777", "http://evil.example:7777", false},
		{"rebound name without port", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "evil.example", "", false},
		{"localhost, another port", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "localhost:8080", "", false},
		{"localhost, no port", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "localhost", "", false},
		{"a name under localhost", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "localhost.evil.example:7777", "", false},
		{"no Host", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "", "", false},
		{"another machine's address", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "192.168.1.5:7777", "", false},
		{"a foreign page", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "127.0.0.1:7777", "https://evil.example", false},
		{"a sandboxed page", HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "127.0.0.1:7777", "null", false},
		{"a LAN address it listens on", HTTPAccess{Addr: "192.168.1.5:7777"}, lan, "192.168.1.5:7777", "http://192.168.1.5:7777", true},
		{"all addresses: the one connected to", HTTPAccess{Addr: "0.0.0.0:7777"}, lan, "192.168.1.5:7777", "", true},
		{"all addresses: a rebound name", HTTPAccess{Addr: "0.0.0.0:7777"}, lan, "evil.example:7777", "", false},
		{"the name it was given", HTTPAccess{Addr: "devbox.lan:7777"}, lan, "DEVBOX.lan:7777", "http://devbox.lan:7777", true},
		{"the name it was given, another page", HTTPAccess{Addr: "devbox.lan:7777"}, lan, "devbox.lan:7777", "http://evil.example:7777", false},
		{"port 80 without port", HTTPAccess{Addr: "127.0.0.1:80"}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}, "localhost", "http://localhost", true},
		{"no connection: the port of Addr", HTTPAccess{Addr: "127.0.0.1:7777"}, nil, "localhost:7777", "", true},
		{"no connection, no address (a handler called in the process)", HTTPAccess{}, nil, "example.com", "", true},
		{"no connection, no address, a foreign page", HTTPAccess{}, nil, "example.com", "https://evil.example", false},
	}
	for _, tt := range tests {
		status, body := guarded(tt.access, tt.local, tt.host, tt.origin)
		if served := status == 200 && body == "served"; served != tt.served {
			t.Errorf("%s: Host %q Origin %q on %v: %d %s, want served=%v", tt.name, tt.host, tt.origin, tt.local, status, body, tt.served)
			continue
		}
		if tt.served {
			continue
		}
		var env tools.Envelope
		if err := json.Unmarshal([]byte(body), &env); err != nil || status != 403 || env.Error == nil || env.Error.Code != tools.CodeNotAllowed {
			t.Errorf("%s: refused with %d %s, want 403 and NOT_ALLOWED", tt.name, status, body)
		}
	}
	_, body := guarded(HTTPAccess{Addr: "127.0.0.1:7777"}, loop, "evil.example:7777", "")
	for _, want := range []string{`host \"evil.example:7777\" refused`, "localhost:7777", "127.0.0.1:7777", "DNS rebinding", "--http NAME:PORT, with --allow-remote"} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal of a rebound Host lacks %q: %s", want, body)
		}
	}
}

// TestGuardOnce: an outer Guard's check stands for MCPHandler's own, so a server listening
// on a name the user gave serves MCP under that name.
func TestGuardOnce(t *testing.T) {
	lan := &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 7777}
	inner := HTTPAccess{}.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("served")) }))
	if status, body := guarded(HTTPAccess{Addr: "devbox.lan:7777"}, lan, "devbox.lan:7777", ""); status != 200 {
		t.Fatalf("the outer guard alone: %d %s", status, body)
	}
	a := HTTPAccess{Addr: "devbox.lan:7777"}
	r := httptest.NewRequest("GET", "/mcp", nil)
	r.Host = "devbox.lan:7777"
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, lan))
	w := httptest.NewRecorder()
	a.Guard(inner).ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("inner guard behind an outer one: %d %s", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	inner.ServeHTTP(w, r)
	if w.Code != 403 {
		t.Errorf("inner guard alone, for a name it was not given: %d, want 403", w.Code)
	}
}

// TestHTTPWorkspaceOperations: over HTTP, add, remove and clean are refused unless the
// server names a root, and then take only directories under it (symbolic links resolved, ..
// refused before the disk is looked at); reading stays open.
func TestHTTPWorkspaceOperations(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	ctx := context.Background()
	allowed, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, allowed, map[string]string{"lib/a.go": "package lib\n\nfunc Allowed() {}\n", "other/b.go": "package other\n"})
	testkit.WriteFiles(t, outside, map[string]string{"secret.go": "package secret\n\nfunc Secret() {}\n"})
	if err := os.Symlink(outside, filepath.Join(allowed, "link")); err != nil {
		t.Fatal(err)
	}
	code := func(err error) tools.Code {
		if err == nil {
			return ""
		}
		return tools.AsError(err).Code
	}
	closed := HTTPAccess{}.Call(svc)
	for _, args := range []string{`{"operation":"add","path":"` + outside + `"}`, `{"operation":"add","path":"` + allowed + `/lib"}`, `{"operation":"remove","id":"x"}`, `{"operation":"clean"}`} {
		_, err := closed(ctx, "workspace", json.RawMessage(args))
		if code(err) != tools.CodeNotAllowed || !strings.Contains(err.Error(), "--allow-workspace-root DIR") {
			t.Errorf("%s with no root: %v, want NOT_ALLOWED naming --allow-workspace-root", args, err)
		}
	}
	for _, op := range []string{"workspace", "manage_workspace"} {
		if _, err := closed(ctx, op, json.RawMessage(`{"operation":"list"}`)); err != nil {
			t.Errorf("%s list with no root: %v", op, err)
		}
	}
	if _, err := closed(ctx, "manage_workspace", json.RawMessage(`{"operation":"add","path":"`+outside+`"}`)); code(err) != tools.CodeNotAllowed {
		t.Errorf("add under the tool's name: %v, want NOT_ALLOWED", err)
	}
	if _, err := closed(ctx, "search", json.RawMessage(`{"query":"Handle"}`)); err != nil {
		t.Errorf("search with no root: %v", err)
	}

	open := HTTPAccess{WorkspaceRoot: allowed}.Call(svc)
	for _, c := range []struct {
		path string
		want tools.Code
	}{
		{outside, tools.CodeNotAllowed},
		{allowed + "/../" + filepath.Base(outside), tools.CodeNotAllowed},
		{"../" + filepath.Base(outside), tools.CodeNotAllowed},
		{"link", tools.CodeNotAllowed},
		{allowed + "/nope", tools.CodeNotFound},
		{"/etc", tools.CodeNotAllowed},
	} {
		_, err := open(ctx, "workspace", json.RawMessage(`{"operation":"add","path":"`+c.path+`"}`))
		if code(err) != c.want {
			t.Errorf("add %s under %s: %v, want %s", c.path, allowed, err, c.want)
		}
	}
	res, err := open(ctx, "workspace", json.RawMessage(`{"operation":"add","path":"lib"}`))
	if err != nil {
		t.Fatalf("add lib under the root: %v", err)
	}
	added := res.(*tools.WorkspaceResult).Workspaces
	if len(added) != 1 || added[0].Root != filepath.Join(allowed, "lib") || !added[0].Indexed {
		t.Fatalf("add lib: %+v", added)
	}
	reg, err := workspace.LoadRegistry(svc.Root())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range reg.All() {
		if strings.HasPrefix(e.Root, outside) {
			t.Errorf("a directory outside the root was registered: %s", e.Root)
		}
	}
	// A workspace the user added at the terminal, outside the root, stays.
	local, err := svc.Workspace(ctx, tools.WorkspaceRequest{Operation: "add", Path: outside})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(ctx, "workspace", json.RawMessage(`{"operation":"remove","id":"`+local.Workspaces[0].ID+`"}`)); code(err) != tools.CodeNotAllowed {
		t.Errorf("remove of a workspace outside the root: %v, want NOT_ALLOWED", err)
	}
	if _, err := open(ctx, "workspace", json.RawMessage(`{"operation":"remove","id":"`+added[0].ID+`"}`)); err != nil {
		t.Errorf("remove of the workspace under the root: %v", err)
	}
}
