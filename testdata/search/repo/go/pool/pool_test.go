package pool

import (
	"context"
	"errors"
	"testing"
	"time"
)

type stubConn struct{ closed bool }

func (c *stubConn) PingContext(context.Context) error { return nil }
func (c *stubConn) Close() error                      { c.closed = true; return nil }

func stubDialer(ctx context.Context) (Conn, error) { return &stubConn{}, nil }

func TestAcquireReusesIdleConnection(t *testing.T) {
	p := New(stubDialer, 2, 2, 10*time.Millisecond)
	c1, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	p.Release(c1, nil)
	c2, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	if c1 != c2 {
		t.Errorf("Acquire dialed a new connection; want the idle one reused")
	}
}

func TestAcquireTimesOutWhenPoolIsFull(t *testing.T) {
	p := New(stubDialer, 1, 1, 5*time.Millisecond)
	if _, err := p.Acquire(context.Background()); err != nil {
		t.Fatalf("first Acquire: %v", err)
	}
	_, err := p.Acquire(context.Background())
	if !errors.Is(err, ErrPoolExhausted) {
		t.Errorf("second Acquire = %v, want ErrPoolExhausted", err)
	}
}

func TestReleaseClosesBrokenConnection(t *testing.T) {
	p := New(stubDialer, 1, 1, time.Millisecond)
	c, _ := p.Acquire(context.Background())
	p.Release(c, errors.New("broken pipe"))
	if !c.(*stubConn).closed {
		t.Errorf("Release kept a broken connection; want it closed")
	}
	if got := p.Stats().Idle; got != 0 {
		t.Errorf("Stats().Idle = %d, want 0", got)
	}
}
