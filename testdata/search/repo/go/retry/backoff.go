// Package retry runs an operation again after transient failures.
package retry

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"time"
)

// Backoff computes the delay between attempts: Initial, then Initial*Multiplier,
// Initial*Multiplier², ... (exponential growth), never more than Max, with up to Jitter
// of the delay added at random so that clients do not retry in lockstep.
type Backoff struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
	Jitter     float64 // fraction of the delay, 0 to 1
}

// DefaultBackoff suits calls to other services on the same network.
var DefaultBackoff = Backoff{Initial: 100 * time.Millisecond, Max: 5 * time.Second, Multiplier: 2, Jitter: 0.2}

// Next returns how long to wait before attempt n (counting from 0).
func (b Backoff) Next(n int) time.Duration {
	d := float64(b.Initial) * math.Pow(b.Multiplier, float64(n))
	if d > float64(b.Max) {
		d = float64(b.Max)
	}
	d += d * b.Jitter * rand.Float64()
	return time.Duration(d)
}

// Permanent wraps an error that Do must not try again.
type Permanent struct{ Err error }

func (p Permanent) Error() string { return p.Err.Error() }
func (p Permanent) Unwrap() error { return p.Err }

// Do calls op until it succeeds, returns a Permanent error, ctx is done or attempts calls
// have failed, sleeping b.Next(i) between calls. It returns the last error.
func Do(ctx context.Context, attempts int, b Backoff, op func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		var perm Permanent
		if errors.As(err, &perm) {
			return perm.Err
		}
		select {
		case <-time.After(b.Next(i)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}
