package server

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/acme/storefront/go/config"
	"github.com/acme/storefront/go/pool"
)

type fakeConn struct{}

func (fakeConn) PingContext(context.Context) error { return nil }
func (fakeConn) Close() error                      { return nil }

func newTestServer(t *testing.T, maxOpen int) (*Server, *pool.ConnectionPool) {
	t.Helper()
	dial := func(context.Context) (pool.Conn, error) { return fakeConn{}, nil }
	p := pool.New(dial, maxOpen, maxOpen, 10*time.Millisecond)
	t.Cleanup(func() { p.Close() })
	return New(config.Default(), p, log.New(io.Discard, "", 0)), p
}

// TestServeHTTP checks that ServeHTTP routes a request through the middleware chain.
func TestServeHTTP(t *testing.T) {
	s, _ := newTestServer(t, 1)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("ServeHTTP(GET /healthz) status = %d, want 200", rec.Code)
	}
	if rec.Header().Get("X-Request-ID") == "" {
		t.Errorf("ServeHTTP did not set a request id")
	}
}

func TestServeHTTPNotFound(t *testing.T) {
	s, _ := newTestServer(t, 1)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/nope", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("ServeHTTP(GET /nope) status = %d, want 404", rec.Code)
	}
}

func TestServeHTTPBadUserID(t *testing.T) {
	s, _ := newTestServer(t, 1)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/users/abc", nil))
	if rec.Code != http.StatusBadRequest {
		t.Errorf("ServeHTTP(GET /users/abc) status = %d, want 400", rec.Code)
	}
}

// With the only connection of the ConnectionPool taken, ServeHTTP must answer 503.
func TestServeHTTPPoolBusy(t *testing.T) {
	s, p := newTestServer(t, 1)
	conn, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release(conn, nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/users/7", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("ServeHTTP with a busy ConnectionPool: status = %d, want 503", rec.Code)
	}
	if rec.Header().Get("Retry-After") == "" {
		t.Errorf("ServeHTTP did not set Retry-After")
	}
}
