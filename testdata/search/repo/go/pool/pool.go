// Package pool keeps a bounded set of reusable database connections for the API server.
package pool

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrPoolExhausted is returned by Acquire when every connection is in use and no slot
// frees up before the acquire timeout.
var ErrPoolExhausted = errors.New("connection pool exhausted")

// ErrPoolClosed is returned by Acquire once Close has been called.
var ErrPoolClosed = errors.New("pool: closed")

// Conn is one connection handed out by a ConnectionPool.
type Conn interface {
	PingContext(ctx context.Context) error
	Close() error
}

// Dialer opens a new connection to the database.
type Dialer func(ctx context.Context) (Conn, error)

// Stats is a snapshot of a pool's counters.
type Stats struct {
	Open    int // connections open, idle or in use
	Idle    int // connections waiting in the pool
	Waiting int // callers blocked in Acquire
}

// ConnectionPool hands out at most maxOpen connections at a time and keeps up to maxIdle
// of them open between uses. It is safe for concurrent use.
type ConnectionPool struct {
	dial    Dialer
	maxIdle int
	timeout time.Duration
	slots   chan struct{} // one token per connection that may be open

	mu      sync.Mutex
	idle    []Conn
	waiting int
	closed  bool
}

// New returns a ConnectionPool that opens connections with dial. Acquire waits at most
// timeout for a free connection.
func New(dial Dialer, maxOpen, maxIdle int, timeout time.Duration) *ConnectionPool {
	if maxIdle > maxOpen {
		maxIdle = maxOpen
	}
	return &ConnectionPool{
		dial:    dial,
		maxIdle: maxIdle,
		timeout: timeout,
		slots:   make(chan struct{}, maxOpen),
	}
}

// Acquire takes a connection from the pool, reusing an idle one when it can and dialing
// a new one otherwise. It returns ErrPoolExhausted when no connection frees up in time.
// Every successful Acquire must be paired with a Release.
func (p *ConnectionPool) Acquire(ctx context.Context) (Conn, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrPoolClosed
	}
	p.waiting++
	p.mu.Unlock()

	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	select {
	case p.slots <- struct{}{}:
	case <-timer.C:
		p.doneWaiting()
		return nil, ErrPoolExhausted
	case <-ctx.Done():
		p.doneWaiting()
		return nil, ctx.Err()
	}
	p.doneWaiting()

	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()

	c, err := p.dial(ctx)
	if err != nil {
		<-p.slots
		return nil, err
	}
	return c, nil
}

// Release gives c back to the pool. Pass the error the caller saw while using c: a
// connection that failed is closed rather than reused.
func (p *ConnectionPool) Release(c Conn, err error) {
	defer func() { <-p.slots }()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil || p.closed || len(p.idle) >= p.maxIdle {
		c.Close()
		return
	}
	p.idle = append(p.idle, c)
}

// Stats reports how many connections are open, idle and awaited.
func (p *ConnectionPool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{Open: len(p.slots), Idle: len(p.idle), Waiting: p.waiting}
}

// Close closes the idle connections and makes further calls to Acquire fail. Connections
// in use are closed when they are released.
func (p *ConnectionPool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for _, c := range p.idle {
		errs = append(errs, c.Close())
	}
	p.idle = nil
	return errors.Join(errs...)
}

func (p *ConnectionPool) doneWaiting() {
	p.mu.Lock()
	p.waiting--
	p.mu.Unlock()
}
