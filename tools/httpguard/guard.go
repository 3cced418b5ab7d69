package httpguard

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/quarrysearch/quarry/tools"
)

// What a client of Quarry's HTTP servers (quarry serve, quarry mcp --http) may do. A web
// page the user visits can send requests to a local server: directly (refused by the
// Origin check) or, after DNS rebinding, under a name of its own that now resolves to
// 127.0.0.1, so that the browser takes the server for the page's own site. Such a request
// names the page's site in its Host header, so a request is served only when its Host is
// the address the server listens on, a loopback name with the server's port, or the host
// the user gave to listen on; an IP address cannot be rebound. Its Origin, when it has
// one, must be loopback or one of those. Every route goes through the same check.
//
// Over HTTP a client reads (searches, files, health, the list of workspaces) but does not
// choose which directories are indexed: adding, removing and cleaning workspaces are for
// the user at the terminal (and for an agent on standard input and output, which the user
// started), unless the server was started with --allow-workspace-root DIR, and then only
// for directories under DIR.

// WorkspaceRootFlag is the flag of quarry serve and quarry mcp --http that lets HTTP clients
// add and remove workspaces under a directory.
const WorkspaceRootFlag = "--allow-workspace-root"

// httpDefaultPort is the port of a Host header that names none.
const httpDefaultPort = "80"

// HTTPAccess is what Quarry's HTTP servers let their clients do.
type HTTPAccess struct {
	// Addr is the HOST:PORT the server was asked to listen on (--addr, --http). Its host is
	// accepted as a request's Host besides loopback names and the address the connection
	// came in on.
	Addr string
	// WorkspaceRoot, a canonical directory (workspace.CanonicalDir), lets clients add
	// workspaces in directories under it and remove those; empty, they add and remove none.
	WorkspaceRoot string
}

// guardedKey marks a request's context once its Host and Origin were checked.
type guardedKey struct{}

// Guard returns next behind the Host and Origin check: a request for another host, or from
// a page of another site, is refused with 403 and the contract's envelope (NOT_ALLOWED).
// A request already checked by an outer Guard is not checked again (MCPHandler guards
// itself, and quarry serve guards every route with its own address).
func (a HTTPAccess) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Context().Value(guardedKey{}) != nil {
			next.ServeHTTP(w, r)
			return
		}
		if err := a.check(r); err != nil {
			b, _ := json.Marshal(tools.Fail(err))
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write(b)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), guardedKey{}, true)))
	})
}

// check returns why r may not be served, or nil.
func (a HTTPAccess) check(r *http.Request) error {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	// With neither a connection (net/http's server always tells it) nor an address given,
	// the handler is called in the process (a test): no server port to hold the Host to.
	if (local != nil || a.Addr != "") && !a.hostAllowed(r.Host, local) {
		return tools.Errorf(tools.CodeNotAllowed, "host", "request for host %q refused: this server answers only to %s (a page of another site may have reached it under its own name: DNS rebinding); to serve it under another name, listen on that name (--addr or --http NAME:PORT, with --allow-remote)",
			r.Host, strings.Join(a.hostNames(local), ", "))
	}
	if origin := r.Header.Get("Origin"); origin != "" && !a.originAllowed(origin, local) {
		return tools.Errorf(tools.CodeNotAllowed, "origin", "cross-origin request from %s refused: only this server's own pages and loopback ones (localhost, 127.0.0.1, [::1]) may call it", origin)
	}
	return nil
}

// hostAllowed reports whether hostport, a Host header, names this server: a loopback name,
// the address the connection came in on (local) or the host of a.Addr, with its port.
func (a HTTPAccess) hostAllowed(hostport string, local net.Addr) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, httpDefaultPort
	}
	host = strings.Trim(host, "[]")
	if host == "" || port != a.port(local) {
		return false
	}
	if LoopbackHost(host) {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		tcp, ok := local.(*net.TCPAddr)
		return ok && tcp.IP.Equal(ip)
	}
	given, _, err := net.SplitHostPort(a.Addr)
	return err == nil && strings.EqualFold(host, strings.Trim(given, "[]"))
}

// originAllowed reports whether origin, an Origin header, is a loopback page or one of
// this server's own.
func (a HTTPAccess) originAllowed(origin string, local net.Addr) bool {
	if LoopbackOrigin(origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Host
	if u.Port() == "" && u.Scheme == "http" {
		host = net.JoinHostPort(u.Hostname(), httpDefaultPort)
	}
	return a.hostAllowed(host, local)
}

// port is the server's port: the connection's, or a.Addr's.
func (a HTTPAccess) port(local net.Addr) string {
	if tcp, ok := local.(*net.TCPAddr); ok {
		return fmt.Sprint(tcp.Port)
	}
	_, port, _ := net.SplitHostPort(a.Addr)
	return port
}

// hostNames lists the Host values this server answers to, for the refusal's message.
func (a HTTPAccess) hostNames(local net.Addr) []string {
	port := a.port(local)
	names := []string{net.JoinHostPort("localhost", port), net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port)}
	if tcp, ok := local.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		names = append(names, net.JoinHostPort(tcp.IP.String(), port))
	}
	if given, _, err := net.SplitHostPort(a.Addr); err == nil && given != "" && !LoopbackHost(given) && net.ParseIP(given) == nil {
		names = append(names, net.JoinHostPort(given, port))
	}
	return names
}

// Call returns svc.Call as this server's clients may run it: a workspace operation that
// changes which directories are registered (add, remove, clean) is refused with NOT_ALLOWED
// unless a.WorkspaceRoot is set, and then add and remove only take directories under it
// (symbolic links resolved; a relative path is taken from it).
func (a HTTPAccess) Call(svc *tools.Service) func(ctx context.Context, op string, args json.RawMessage) (any, error) {
	return func(ctx context.Context, op string, args json.RawMessage) (any, error) {
		if o, err := tools.OperationNamed(op); err != nil || o.Name != "workspace" {
			return svc.Call(ctx, op, args)
		}
		var req tools.WorkspaceRequest
		if err := tools.DecodeStrict(args, &req); err != nil {
			return nil, err
		}
		if err := a.allowWorkspace(ctx, svc, &req); err != nil {
			return nil, err
		}
		b, err := json.Marshal(req)
		if err != nil {
			return nil, tools.AsError(err)
		}
		return svc.Call(ctx, op, b)
	}
}

// allowWorkspace refuses req unless its operation is open to HTTP clients; an add's path
// becomes the directory it resolves to.
func (a HTTPAccess) allowWorkspace(ctx context.Context, svc *tools.Service, req *tools.WorkspaceRequest) error {
	switch req.Operation {
	case "add", "remove", "clean":
	default:
		return nil // reading, and index runs of workspaces the user registered
	}
	if a.WorkspaceRoot == "" {
		return tools.Errorf(tools.CodeNotAllowed, "operation", "manage_workspace %s is not allowed over HTTP: it changes which directories this server indexes; start the server with %s DIR to let HTTP clients add and remove workspaces under DIR, or run quarry workspace %s in a terminal",
			req.Operation, WorkspaceRootFlag, req.Operation)
	}
	switch req.Operation {
	case "add":
		dir, err := a.underRoot(req.Path)
		if err != nil {
			return err
		}
		req.Path = dir
	case "remove":
		root := ""
		if list, err := svc.Workspace(ctx, tools.WorkspaceRequest{Operation: "list"}); err == nil {
			for _, w := range list.Workspaces {
				if w.ID == req.ID {
					root = w.Root
				}
			}
		}
		if root == "" {
			return nil // the operation reports it
		}
		if !within(a.WorkspaceRoot, root) {
			return tools.Errorf(tools.CodeNotAllowed, "id", "workspace %s (%s) is not under %s, the directory given to %s: HTTP clients may remove only workspaces there",
				req.ID, root, a.WorkspaceRoot, WorkspaceRootFlag)
		}
	}
	return nil
}

// underRoot returns the directory path names (relative paths from a.WorkspaceRoot),
// symbolic links resolved, or NOT_ALLOWED when it is not under a.WorkspaceRoot. A path that
// leaves it by name is refused before anything is looked up on disk.
func (a HTTPAccess) underRoot(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", tools.Errorf(tools.CodeBadValue, "path", "operation add needs path: a directory under %s", a.WorkspaceRoot)
	}
	refuse := func() error {
		return tools.Errorf(tools.CodeNotAllowed, "path", "%s is not under %s, the directory given to %s: HTTP clients may add only directories there",
			path, a.WorkspaceRoot, WorkspaceRootFlag)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(a.WorkspaceRoot, abs)
	}
	if !within(a.WorkspaceRoot, filepath.Clean(abs)) {
		return "", refuse()
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", tools.Errorf(tools.CodeNotFound, "path", "%s: no such directory under %s", path, a.WorkspaceRoot)
	}
	if !within(a.WorkspaceRoot, real) {
		return "", refuse()
	}
	return real, nil
}

// within reports whether path is root or below it (both clean and absolute).
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// LoopbackOrigin reports whether the Origin header value origin names localhost,
// 127.0.0.1 or ::1 (any scheme and port).
func LoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return LoopbackHost(u.Hostname())
}

// LoopbackHost reports whether host (a name or an IP address, without a port) is
// localhost or a loopback address.
func LoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
