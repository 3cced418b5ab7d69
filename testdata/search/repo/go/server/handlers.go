package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/acme/storefront/go/pool"
)

// HandlerFunc is an HTTP handler that returns its error instead of writing it. adapt turns
// it into an http.Handler that maps the error to a status code.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// httpError is an error with the status code to answer it with.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func (s *Server) adapt(h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		if err == nil {
			return
		}
		var he *httpError
		switch {
		case errors.As(err, &he):
			http.Error(w, he.msg, he.status)
		case errors.Is(err, pool.ErrPoolExhausted):
			w.Header().Set("Retry-After", "1")
			http.Error(w, "server busy, try again", http.StatusServiceUnavailable)
		default:
			s.log.Printf("%s %s: %v", r.Method, r.URL.Path, err)
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.pool.Stats())
}

// handleGetUser answers GET /users/{id} with the user's public profile.
func (s *Server) handleGetUser(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return &httpError{http.StatusBadRequest, "user id must be a number"}
	}
	conn, err := s.pool.Acquire(r.Context())
	if err != nil {
		return err
	}
	user, err := loadUser(r.Context(), conn, id)
	s.pool.Release(conn, err)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, user)
}

func (s *Server) handleDeactivateUser(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return &httpError{http.StatusBadRequest, "user id must be a number"}
	}
	conn, err := s.pool.Acquire(r.Context())
	if err != nil {
		return err
	}
	err = deactivateUser(r.Context(), conn, id)
	s.pool.Release(conn, err)
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// writeJSON writes v as the JSON body of a response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}
