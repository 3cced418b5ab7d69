// Package sample exercises every Go construct the extractor knows.
package sample

import (
	"fmt"
	nethttp "net/http"
)

// MaxSize is the largest size.
const MaxSize = 10

const (
	// Red is a colour.
	Red Color = iota
	green
)

var defaultName string = "x"

// Color is an enum-like type.
type Color int

// Server serves größe requests.
type Server struct {
	// Addr is where it listens.
	Addr    string
	handler nethttp.Handler
	fmt.Stringer
}

// Store keeps things.
type Store interface {
	Get(key string) ([]byte, error)
	// Put stores a value.
	Put(key string, value []byte) error
	fmt.Stringer
}

type Alias = map[string]*Server

// NewServer makes a Server.
func NewServer(addr string) *Server {
	s := &Server{Addr: addr}
	fmt.Println("new", addr)
	return s
}

// ServeHTTP handles a request.
func (s *Server) ServeHTTP(w nethttp.ResponseWriter, r *nethttp.Request) {
	s.handler.ServeHTTP(w, r)
	helper(defaultName)
}

func helper[T any](v T) T { return v }
