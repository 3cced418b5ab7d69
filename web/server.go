// Package web is quarry serve: a search page for people, its JSON API (the agent contract's
// requests and results over HTTP, run by tools.Service.Call: the same types, no second API),
// server-rendered file, references and callers views, and the MCP endpoint, from one
// process. The page's assets are embedded in the binary: it works offline.
package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/batchrun"
	"github.com/quarrysearch/quarry/tools/httpguard"
)

//go:embed static
var static embed.FS

// MaxRequestBytes caps an API request's body.
const MaxRequestBytes = 1 << 20

// ContentSecurityPolicy is sent with every response: the page's own scripts, styles and
// requests only; no frames, no inline script.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Options are the server's settings.
type Options struct {
	// MCP, when set, is served at /mcp (quarry serve --mcp).
	MCP http.Handler
	// Access is what the server's clients may do: the Host and Origin it answers to, and
	// whether they may add workspaces (quarry serve --addr, --allow-workspace-root).
	Access httpguard.HTTPAccess
}

// Handler returns the server of svc's workspaces. Every route is behind opts.Access's Host
// and Origin check.
func Handler(svc *tools.Service, opts Options) http.Handler {
	s := &server{svc: svc, call: opts.Access.Call(svc)}
	mux := http.NewServeMux()
	for _, r := range s.routes(opts) {
		mux.Handle(r.pattern, r.handler)
	}
	return secure(opts.Access.Guard(mux))
}

// Patterns lists the routes Handler serves with opts, as ServeMux patterns ("GET /file"): a
// test of what every route must do (refuse a foreign Host) covers a route added later.
func Patterns(opts Options) []string {
	var out []string
	for _, r := range (&server{}).routes(opts) {
		out = append(out, r.pattern)
	}
	return out
}

type route struct {
	pattern string
	handler http.Handler
}

func (s *server) routes(opts Options) []route {
	assets, _ := fs.Sub(static, "static")
	rs := []route{
		{"GET /static/", http.StripPrefix("/static/", http.FileServer(http.FS(assets)))},
		{"GET /{$}", http.HandlerFunc(s.page)},
		{"POST /api/{op}", http.HandlerFunc(s.api)},
		{"GET /api/health", http.HandlerFunc(s.health)},
		{"GET /api/{op}", http.HandlerFunc(s.apiGet)},
		{"GET /file", http.HandlerFunc(s.file)},
		{"GET /refs", http.HandlerFunc(s.refs)},
		{"GET /calls", http.HandlerFunc(s.calls)},
	}
	if opts.MCP != nil {
		rs = append(rs, route{"/mcp", opts.MCP})
	}
	return rs
}

type server struct {
	svc  *tools.Service
	call func(ctx context.Context, op string, args json.RawMessage) (any, error) // svc.Call as the clients may run it
}

// secure wraps every response in the page's headers.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// statusOf is the HTTP status of a contract error.
func statusOf(e *tools.Error) int {
	switch e.Code {
	case tools.CodeBadQuery, tools.CodeBadValue, tools.CodeUnknownField:
		return http.StatusBadRequest
	case tools.CodeNotFound, tools.CodeUnknownWorkspace:
		return http.StatusNotFound
	case tools.CodePathOutsideWorkspace, tools.CodeNotAllowed:
		return http.StatusForbidden
	case tools.CodeNotIndexed:
		return http.StatusConflict
	case tools.CodeBusy:
		return http.StatusServiceUnavailable
	case tools.CodeTimeout:
		return http.StatusGatewayTimeout
	case tools.CodeUnreadable:
		return http.StatusUnprocessableEntity
	}
	return http.StatusInternalServerError
}

// writeError writes the contract's envelope of err with status (0: the code's).
func writeError(w http.ResponseWriter, status int, err error) {
	e := tools.AsError(err)
	if status == 0 {
		status = statusOf(e)
	}
	writeJSON(w, status, tools.Fail(e))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(tools.Fail(tools.Errorf(tools.CodeInternal, "", "encode the answer: %v", err)))
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// api runs an operation of the contract: POST /api/search with its request as the body.
func (s *server) api(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") && !strings.HasPrefix(ct, "text/plain") {
		writeError(w, http.StatusUnsupportedMediaType, tools.Errorf(tools.CodeBadValue, "", "the body is %s: send the request as application/json", ct))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, tools.Errorf(tools.CodeBadValue, "", "read the request: %v", err))
		return
	}
	if len(body) > MaxRequestBytes {
		writeError(w, http.StatusRequestEntityTooLarge, tools.Errorf(tools.CodeBadValue, "", "the request is over %d bytes", MaxRequestBytes))
		return
	}
	s.run(w, r.Context(), r.PathValue("op"), body)
}

// apiGet answers the operations that take no request: GET /api/query (the query language),
// /api/capabilities; the others want POST.
func (s *server) apiGet(w http.ResponseWriter, r *http.Request) {
	switch op := r.PathValue("op"); op {
	case tools.QueryOperation:
		s.run(w, r.Context(), op, nil)
	case "capabilities":
		c, err := tools.GetCapabilities()
		if err != nil {
			writeError(w, 0, err)
			return
		}
		writeJSON(w, http.StatusOK, c)
	default:
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, tools.Errorf(tools.CodeBadValue, "", "GET /api/%s: send its request with POST as JSON", op))
	}
}

func (s *server) run(w http.ResponseWriter, ctx context.Context, op string, body []byte) {
	if _, err := tools.OperationNamed(op); err != nil {
		writeError(w, http.StatusNotFound, tools.Errorf(tools.CodeBadValue, "op", "no operation %q; operations: %s", op, strings.Join(tools.OperationNames(), ", ")))
		return
	}
	res, err := s.call(ctx, op, bytes.TrimSpace(body))
	if err != nil {
		writeError(w, 0, err)
		return
	}
	if a, ok := res.(*batchrun.BatchAnswer); ok && a.Format == tools.BatchCompact {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, a.Compact())
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// health is the status line's: GET /api/health (the health report, as in quarry health --json's health).
func (s *server) health(w http.ResponseWriter, r *http.Request) {
	h, err := s.svc.Health(r.Context(), tools.HealthRequest{Workspace: r.URL.Query().Get("workspace")})
	if err != nil {
		writeError(w, 0, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// page serves the search page.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	b, err := static.ReadFile("static/index.html")
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b)
}

// errorPage renders a contract error as a page (the file, references and callers views).
func (s *server) errorPage(w http.ResponseWriter, err error) {
	e := tools.AsError(err)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(statusOf(e))
	_ = pages.ExecuteTemplate(w, "error", e)
}
