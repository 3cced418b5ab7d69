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
}

// Handler returns the server of svc's workspaces.
func Handler(svc *tools.Service, opts Options) http.Handler {
	s := &server{svc: svc}
	mux := http.NewServeMux()
	assets, _ := fs.Sub(static, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.FS(assets))))
	mux.HandleFunc("GET /static/chroma.css", s.chromaCSS)
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("POST /api/{op}", s.api)
	mux.HandleFunc("GET /api/health", s.health)
	mux.HandleFunc("GET /api/{op}", s.apiGet)
	mux.HandleFunc("GET /file", s.file)
	mux.HandleFunc("GET /refs", s.refs)
	mux.HandleFunc("GET /calls", s.calls)
	if opts.MCP != nil {
		mux.Handle("/mcp", opts.MCP)
	}
	return secure(mux)
}

type server struct {
	svc *tools.Service
}

// secure wraps every response in the page's headers and refuses other sites' requests: a
// browser on another origin may not drive the index (the Origin check of quarry mcp --http).
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if origin := r.Header.Get("Origin"); origin != "" && !tools.LoopbackOrigin(origin) && !sameOrigin(origin, r) {
			writeError(w, http.StatusForbidden, tools.Errorf(tools.CodeBadValue, "origin", "cross-origin request from %s refused", origin))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether origin is the page's own (served on a remote address with
// --allow-remote).
func sameOrigin(origin string, r *http.Request) bool {
	_, host, ok := strings.Cut(origin, "://")
	return ok && host == r.Host
}

// statusOf is the HTTP status of a contract error.
func statusOf(e *tools.Error) int {
	switch e.Code {
	case tools.CodeBadQuery, tools.CodeBadValue, tools.CodeUnknownField:
		return http.StatusBadRequest
	case tools.CodeNotFound, tools.CodeUnknownWorkspace:
		return http.StatusNotFound
	case tools.CodePathOutsideWorkspace:
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
	res, err := s.svc.Call(ctx, op, bytes.TrimSpace(body))
	if err != nil {
		writeError(w, 0, err)
		return
	}
	if a, ok := res.(*tools.BatchAnswer); ok && a.Format == tools.BatchCompact {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, a.Compact())
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// health is the status line's: GET /api/health (the health report of quarry health --json).
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
