package cluster

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// watched is a bucket's entries as a watcher last saw them, by key.
type watched[T any] struct {
	mu   sync.Mutex
	list []T // nil: not watched (yet, or any more)
}

// get returns the entries (shared: not to be modified), and whether they are watched.
func (w *watched[T]) get() ([]T, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.list, w.list != nil
}

func (w *watched[T]) set(list []T) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = list
}

// watch keeps into a copy of kv's entries, each decoded by decode (false: left out), until
// ctx ends. what names the bucket in an error.
func watch[T any](ctx context.Context, kv jetstream.KeyValue, into *watched[T], what string, decode func(jetstream.KeyValueEntry) (T, bool)) error {
	w, err := retry(ctx, func(context.Context) (jetstream.KeyWatcher, error) { return kv.WatchAll(ctx) })
	if err != nil {
		return fmt.Errorf("cluster: watch %s: %w", what, err)
	}
	go func() {
		defer w.Stop()
		entries := map[string]T{}
		ready := false
		for {
			select {
			case <-ctx.Done():
				into.set(nil)
				return
			case e, ok := <-w.Updates():
				if !ok {
					into.set(nil)
					return
				}
				if e == nil { // the initial values are all in
					ready = true
				} else if e.Operation() != jetstream.KeyValuePut {
					delete(entries, e.Key())
				} else if v, ok := decode(e); ok {
					entries[e.Key()] = v
				}
				if ready {
					keys := make([]string, 0, len(entries))
					for k := range entries {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					out := make([]T, len(keys))
					for i, k := range keys {
						out[i] = entries[k]
					}
					into.set(out)
				}
			}
		}
	}()
	return nil
}
