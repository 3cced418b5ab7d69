package cluster

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// watched is a bucket's entries as a watcher last saw them, by key. A change costs O(1)
// (issue 44: re-sorting and copying every entry on every change made a burst of n changes
// cost n²); the sorted list is made again only when it is read after a change.
type watched[T any] struct {
	mu      sync.Mutex
	entries map[string]T
	ready   bool   // the watcher has delivered the bucket's initial values
	dirty   bool   // entries changed since list was made
	list    []T    // entries sorted by key, as last made
	rev     uint64 // the last revision of the bucket delivered: the copy is the bucket as of it
	gen     uint64 // changes made to the copy
}

// seen records that the bucket's entry at rev was delivered.
func (w *watched[T]) seen(rev uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rev = max(w.rev, rev)
}

// snapshot returns the entries sorted by key (as get), the bucket's revision they are as
// of, and a number that changes whenever they do, once the initial values are in.
func (w *watched[T]) snapshot() (list []T, rev, gen uint64, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	list, ok = w.getLocked()
	return list, w.rev, w.gen + 1, ok
}

// load starts the copy from entries, the bucket as of revision rev (a routing table), for a
// watch that resumes after rev.
func (w *watched[T]) load(entries map[string]T, rev uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.entries, w.rev, w.dirty = entries, rev, true
	w.gen++
}

// get returns the entries sorted by key (shared: not to be modified), and whether they are
// watched.
func (w *watched[T]) get() ([]T, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.getLocked()
}

func (w *watched[T]) getLocked() ([]T, bool) {
	if !w.ready {
		return nil, false
	}
	if w.dirty || w.list == nil {
		keys := make([]string, 0, len(w.entries))
		for k := range w.entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		w.list = make([]T, len(keys))
		for i, k := range keys {
			w.list[i] = w.entries[k]
		}
		w.dirty = false
	}
	return w.list, true
}

// put sets key's entry.
func (w *watched[T]) put(key string, v T) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.entries == nil {
		w.entries = map[string]T{}
	}
	w.entries[key], w.dirty = v, true
	w.gen++
}

// del removes key's entry.
func (w *watched[T]) del(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.entries, key)
	w.dirty = true
	w.gen++
}

// markReady says the initial values are all in: get answers from here on.
func (w *watched[T]) markReady() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ready = true
}

// isReady reports whether the initial values are in.
func (w *watched[T]) isReady() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ready
}

// reset forgets everything: the watch ended.
func (w *watched[T]) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.entries, w.list, w.ready, w.dirty, w.rev = nil, nil, false, false, 0
	w.gen++
}

// watchReadyWait bounds how long watch waits for a bucket's initial values before it
// returns (the copy then answers once they are in; reads go to the bucket until then).
var watchReadyWait = 10 * time.Second

// watch keeps into a copy of kv's entries, each decoded by decode (false: left out), until
// ctx ends, and returns once the copy holds the bucket's initial values (at most
// watchReadyWait): the first read after it answers from the copy, not one Get per key.
// A watch the client ends (its consumer could not be made again after a server was lost),
// or one that delivers nothing while the bucket's stream holds newer revisions (last, when
// not nil, says its last) for lagChecks checks in a row, is started again from the bucket's
// current entries; reads go to the bucket meanwhile. what names the bucket in an error.
func watch[T any](ctx context.Context, kv jetstream.KeyValue, last func(context.Context) (uint64, error), into *watched[T], what string, decode func(jetstream.KeyValueEntry) (T, bool), opts ...jetstream.WatchOpt) error {
	w, err := retry(ctx, func(context.Context) (jetstream.KeyWatcher, error) { return kv.WatchAll(ctx, opts...) })
	if err != nil {
		return fmt.Errorf("cluster: watch %s: %w", what, err)
	}
	ready := make(chan struct{})
	var once sync.Once
	isReady := func() { once.Do(func() { close(ready) }) }
	defer func() {
		select {
		case <-ready:
		case <-ctx.Done():
		case <-time.After(watchReadyWait):
		}
	}()
	go func() {
		defer isReady()
		for {
			follow(ctx, w, last, into, decode, isReady)
			into.reset()
			if ctx.Err() != nil {
				return
			}
			// Started again from the bucket's current entries, not from opts (where a
			// watch resumes from a routing table): the copy was reset.
			for w = nil; w == nil; {
				select {
				case <-ctx.Done():
					return
				case <-time.After(rewatchWait):
				}
				w, _ = retry(ctx, func(context.Context) (jetstream.KeyWatcher, error) { return kv.WatchAll(ctx) })
			}
		}
	}()
	return nil
}

// rewatchWait is the pause before a watch that ended is started again; a watch is checked
// against its bucket every lagCheck, and started again once it has been behind without
// delivering anything at lagChecks checks in a row. nats.go makes a stalled watch's consumer
// again itself, but after kill -9 of a nats-server 2.9 its attempts, seconds apart, failed
// as often as not.
var (
	rewatchWait = time.Second
	lagCheck    = 5 * time.Second
)

const lagChecks = 2

// follow applies w's updates to into until w or ctx ends, or w stalls behind the bucket
// (last), calling ready once the initial values are in.
func follow[T any](ctx context.Context, w jetstream.KeyWatcher, last func(context.Context) (uint64, error), into *watched[T], decode func(jetstream.KeyValueEntry) (T, bool), ready func()) {
	defer w.Stop()
	tick := time.NewTicker(lagCheck)
	defer tick.Stop()
	// delivered is the last revision w delivered, of any key (the copy's revision leaves out
	// the routing table's own entry, whose writes are not changes of the catalog).
	var delivered, atTick uint64 // now, and at the last check
	behind := 0                  // checks in a row that found the watch behind, delivering nothing
	// base is the bucket's last revision once the initial values were in: revisions up to it
	// that were not delivered expired before (a heartbeat), they are not a lag.
	var base uint64
	lastRev := func() (uint64, error) {
		lctx, cancel := context.WithTimeout(ctx, opTimeout)
		defer cancel()
		return last(lctx)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if last == nil {
				continue
			}
			seq, err := lastRev()
			switch {
			case err != nil || seq <= max(delivered, base) || delivered > atTick:
				behind = 0
			default:
				if behind++; behind >= lagChecks {
					return
				}
			}
			atTick = delivered
		case e, ok := <-w.Updates():
			switch {
			case !ok:
				return
			case e == nil: // the initial values are all in
				into.markReady()
				ready()
				if last != nil {
					base, _ = lastRev()
				}
				continue
			case e.Operation() != jetstream.KeyValuePut:
				into.del(e.Key())
				into.seen(e.Revision())
			default:
				if v, ok := decode(e); ok {
					into.put(e.Key(), v)
					into.seen(e.Revision())
				} else {
					into.del(e.Key()) // not an entry of the copy (the routing table): not a change of it
				}
			}
			delivered = max(delivered, e.Revision())
		}
	}
}
