// Package pool is a small generic pool of reusable network connections.
//
// Copyright 2021 Acme Corp. Licensed under the Apache License, Version 2.0.
package pool

import (
	"errors"
	"net"
	"sync"
)

// ErrClosed is returned by Get after the pool has been closed.
var ErrClosed = errors.New("pool is closed")

// Factory creates a new connection for the pool.
type Factory func() (net.Conn, error)

// ConnectionPool is a fixed-capacity pool of net.Conn values backed by a buffered channel.
type ConnectionPool struct {
	mu      sync.RWMutex
	conns   chan net.Conn
	factory Factory
}

// NewConnectionPool returns a pool with initialCap connections already open and room
// for maxCap of them.
func NewConnectionPool(initialCap, maxCap int, factory Factory) (*ConnectionPool, error) {
	if initialCap < 0 || maxCap <= 0 || initialCap > maxCap {
		return nil, errors.New("invalid capacity settings")
	}
	c := &ConnectionPool{conns: make(chan net.Conn, maxCap), factory: factory}
	for i := 0; i < initialCap; i++ {
		conn, err := factory()
		if err != nil {
			c.Close()
			return nil, err
		}
		c.conns <- conn
	}
	return c, nil
}

// Get returns a connection from the pool, or a new one from the factory when the pool is empty.
func (c *ConnectionPool) Get() (net.Conn, error) {
	c.mu.RLock()
	conns := c.conns
	c.mu.RUnlock()
	if conns == nil {
		return nil, ErrClosed
	}
	select {
	case conn := <-conns:
		if conn == nil {
			return nil, ErrClosed
		}
		return conn, nil
	default:
		return c.factory()
	}
}

// Put puts conn back into the pool, closing it when the pool is full or closed.
func (c *ConnectionPool) Put(conn net.Conn) error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.conns == nil {
		return conn.Close()
	}
	select {
	case c.conns <- conn:
		return nil
	default:
		return conn.Close()
	}
}

// Close closes the pool and every connection in it.
func (c *ConnectionPool) Close() {
	c.mu.Lock()
	conns := c.conns
	c.conns = nil
	c.mu.Unlock()
	if conns == nil {
		return
	}
	close(conns)
	for conn := range conns {
		conn.Close()
	}
}

// Len returns the number of idle connections in the pool.
func (c *ConnectionPool) Len() int { return len(c.conns) }
