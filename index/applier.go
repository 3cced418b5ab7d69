package index

import (
	"context"
	"fmt"
	"sync"

	"github.com/quarrysearch/quarry/index/fulltext"
)

// applier writes full-text batches in the background, in order, one at a time.
type applier struct {
	ix       *Writer
	queue    chan applyJob
	done     chan struct{}
	err      error // the first failure; read after done is closed
	mu       sync.Mutex
	applied  []string       // written to bleve, still in the log
	inflight map[string]int // submitted, not yet written: a document a later batch changed again stays logged
}

type applyJob struct {
	batch   *fulltext.Batch
	touched []string
}

// applierQueue is how many full-text batches may wait while the next store batch is written.
// With one, the writer waited on bleve and the extractors on the writer: a first index of
// corpus.sh full kept 1.6 of 2 cores busy; with four, 1.8.
const applierQueue = 4

func newApplier(ix *Writer) *applier {
	a := &applier{ix: ix, queue: make(chan applyJob, applierQueue), done: make(chan struct{}), inflight: map[string]int{}}
	go a.loop()
	return a
}

func (a *applier) loop() {
	defer close(a.done)
	for job := range a.queue {
		if a.err != nil {
			continue // drain: the log keeps the documents for the next run
		}
		if err := a.ix.ft.Apply(job.batch); err != nil {
			a.err = fmt.Errorf("index: write the full-text index: %w", err)
			continue
		}
		a.mu.Lock()
		for _, id := range job.touched {
			if a.inflight[id]--; a.inflight[id] == 0 {
				delete(a.inflight, id)
				a.applied = append(a.applied, id)
			}
		}
		a.mu.Unlock()
	}
}

// takeApplied returns the documents bleve has written since the last call. The writer clears
// them from the log inside its own next transaction: SQLite has one writer at a time.
func (a *applier) takeApplied() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := a.applied
	a.applied = nil
	return ids
}

func (a *applier) submit(ctx context.Context, b *fulltext.Batch, touched []string) error {
	a.mu.Lock()
	for _, id := range touched {
		a.inflight[id]++
	}
	a.mu.Unlock()
	select {
	case a.queue <- applyJob{b, touched}:
		return nil
	case <-a.done:
		return a.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait stops the applier once every submitted batch is written, and returns its first error.
func (a *applier) wait() error {
	close(a.queue)
	<-a.done
	return a.err
}
