// Package server implements the storefront HTTP API.
package server

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"

	"github.com/acme/storefront/go/config"
	"github.com/acme/storefront/go/pool"
)

// Server is the storefront API: it routes requests to handlers that borrow database
// connections from a shared ConnectionPool.
type Server struct {
	cfg     config.Config
	pool    *pool.ConnectionPool
	log     *log.Logger
	mux     *http.ServeMux
	handler http.Handler // mux wrapped in the middleware chain
}

// New returns a Server with its routes registered.
func New(cfg config.Config, p *pool.ConnectionPool, logger *log.Logger) *Server {
	s := &Server{cfg: cfg, pool: p, log: logger, mux: http.NewServeMux()}
	s.routes()
	s.handler = Chain(s.mux, RequestID(), Logging(logger), Recover(logger))
	return s
}

func (s *Server) routes() {
	s.mux.Handle("GET /healthz", s.adapt(s.handleHealth))
	s.mux.Handle("GET /users/{id}", s.adapt(s.handleGetUser))
	s.mux.Handle("POST /users/{id}/deactivate", s.adapt(s.handleDeactivateUser))
}

// ServeHTTP makes Server an http.Handler: it runs the middleware chain and then the
// handler registered for the request's method and path.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// ListenAndServe serves on the configured address until ctx is cancelled, then shuts
// down gracefully, giving in-flight requests up to five seconds to finish.
func (s *Server) ListenAndServe(ctx context.Context) error {
	srv := &http.Server{
		Addr:         s.cfg.Addr,
		Handler:      s,
		ReadTimeout:  s.cfg.ReadTimeout,
		WriteTimeout: s.cfg.WriteTimeout,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
