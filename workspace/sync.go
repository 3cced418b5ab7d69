package workspace

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index"
)

// openedIndex is a workspace's store and full-text index, kept in step: every change goes to
// the store first, in a transaction that also logs the full-text documents it touches
// (fulltext_pending), then to bleve, and the log entries are cleared only once bleve has
// them. After a crash anywhere in between, opening the index replays the log, so the
// full-text index never answers from documents the store no longer has.
type openedIndex struct {
	store    *index.Store
	ft       *index.Fulltext
	ftStatus index.FulltextStatus
	applier  *applier
}

func openIndex(ctx context.Context, dir string) (*openedIndex, error) {
	store, err := index.OpenStore(StorePath(dir))
	if err != nil {
		return nil, err
	}
	ft, status, err := index.OpenFulltext(FulltextPath(dir))
	if err != nil {
		store.Close()
		return nil, err
	}
	ix := &openedIndex{store: store, ft: ft, ftStatus: status}
	empty, err := store.Empty(ctx)
	if err != nil {
		ix.close()
		return nil, err
	}
	if empty {
		// A first load: the full-text index, new or replaced, is filled as files are written
		// (over a store with files it is rebuilt at the end instead), and the store's lookup
		// indexes are built once after the load.
		ix.ftStatus = index.FulltextReady
		store.SetBulk(true)
		if err := store.DropSecondaryIndexes(ctx); err != nil {
			ix.close()
			return nil, err
		}
	}
	ix.applier = newApplier(ix)
	if status == index.FulltextReady {
		pending, err := store.PendingDocs(ctx)
		if err == nil && len(pending) > 0 {
			err = ix.syncDocs(ctx, pending)
		}
		if err != nil {
			ix.close()
			return nil, fmt.Errorf("workspace: replay the full-text log: %w", err)
		}
	}
	return ix, nil
}

func (ix *openedIndex) close() {
	if ix.applier != nil {
		ix.applier.wait()
	}
	ix.ft.Close()
	ix.store.Close()
}

// finish rebuilds the full-text index from the store when it was missing, stale or corrupt,
// and folds the WAL into the database.
func (ix *openedIndex) finish(ctx context.Context) error {
	err := ix.applier.wait()
	if err == nil {
		err = ix.store.ClearPending(ctx, ix.applier.takeApplied())
	}
	ix.applier = nil
	if err != nil {
		return err
	}
	ix.store.SetBulk(false)
	if err := ix.store.CreateSecondaryIndexes(ctx); err != nil {
		return err
	}
	if ix.ftStatus != index.FulltextReady {
		if err := ix.rebuild(ctx); err != nil {
			return fmt.Errorf("workspace: rebuild the full-text index: %w", err)
		}
	}
	return ix.store.Checkpoint(ctx)
}

// rebuild writes every stored file and symbol to the full-text index.
func (ix *openedIndex) rebuild(ctx context.Context) error {
	b := ix.ft.NewBatch()
	err := ix.store.FileDocs(ctx, func(path, lang string, content []byte) error {
		if err := ix.addFileDocs(ctx, b, path, lang, content); err != nil {
			return err
		}
		if b.Size() >= writeBatchFiles*8 {
			if err := ix.ft.Apply(b); err != nil {
				return err
			}
			b = ix.ft.NewBatch()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := ix.ft.Apply(b); err != nil {
		return err
	}
	pending, err := ix.store.PendingDocs(ctx)
	if err != nil {
		return err
	}
	return ix.store.ClearPending(ctx, pending)
}

// addFileDocs adds the documents of one stored file to b.
func (ix *openedIndex) addFileDocs(ctx context.Context, b *index.FulltextBatch, path, lang string, content []byte) error {
	b.AddFile(index.FileDoc{Path: path, Language: lang, Content: string(content)})
	syms, err := ix.store.FileSymbols(ctx, path)
	if err != nil {
		return err
	}
	for _, s := range syms {
		b.AddSymbol(index.SymbolDoc{ID: s.ID, Name: s.Name, Signature: s.Signature, DocComment: s.DocComment,
			CodeBody: index.SymbolBody(s.Kind, content, s.StartByte, s.EndByte), Language: s.Language, Kind: s.Kind, Path: s.Path})
	}
	return nil
}

// syncDocs brings the given full-text documents in line with the store.
func (ix *openedIndex) syncDocs(ctx context.Context, docIDs []string) error {
	b := ix.ft.NewBatch()
	paths := map[string]bool{}
	for _, id := range docIDs {
		b.Delete(id)
		switch {
		case strings.HasPrefix(id, "f:"):
			paths[strings.TrimPrefix(id, "f:")] = true
		case strings.HasPrefix(id, "s:"):
			p, err := ix.store.SymbolPath(ctx, strings.TrimPrefix(id, "s:"))
			if err != nil {
				return err
			}
			if p != "" {
				paths[p] = true
			}
		}
	}
	files, err := ix.store.Files(ctx)
	if err != nil {
		return err
	}
	for p := range paths {
		f, ok := files[p]
		if !ok || f.Skipped != "" {
			continue
		}
		content, err := ix.store.Content(ctx, p)
		if err != nil {
			return err
		}
		if err := ix.addFileDocs(ctx, b, p, f.Language, content); err != nil {
			return err
		}
	}
	if err := ix.ft.Apply(b); err != nil {
		return err
	}
	return ix.store.ClearPending(ctx, docIDs)
}

// writeBatch is a store batch and the full-text batch that follows it.
type writeBatch struct {
	ix    *openedIndex
	store *index.Batch
	ft    *index.FulltextBatch
	added map[string]bool // full-text documents this batch (re)writes
}

func (ix *openedIndex) begin(ctx context.Context) (*writeBatch, error) {
	sb, err := ix.store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	if err := sb.ClearPending(ix.applier.takeApplied()); err != nil {
		sb.Rollback()
		return nil, err
	}
	return &writeBatch{ix: ix, store: sb, ft: ix.ft.NewBatch(), added: map[string]bool{}}, nil
}

func (b *writeBatch) put(rec *index.FileRecord) error {
	if err := b.store.Put(rec); err != nil {
		return err
	}
	if b.ix.ftStatus != index.FulltextReady || rec.Skipped != "" {
		return nil // the whole full-text index is rebuilt at the end
	}
	b.ft.AddFile(index.FileDoc{Path: rec.Path, Language: rec.Language, Content: string(rec.Content)})
	b.added[index.FileDocID(rec.Path)] = true
	if rec.Extract == nil {
		return nil
	}
	for i := range rec.Extract.Symbols {
		s := &rec.Extract.Symbols[i]
		b.ft.AddSymbol(index.SymbolDoc{ID: s.ID, Name: s.Name, Signature: s.Signature, DocComment: s.DocComment,
			CodeBody: index.SymbolBody(s.Kind.String(), rec.Content, s.StartByte, s.EndByte), Language: s.Language, Kind: s.Kind.String(), Path: rec.Path})
		b.added[index.SymbolDocID(s.ID)] = true
	}
	return nil
}

func (b *writeBatch) delete(path string) error { return b.store.Delete(path) }

func (b *writeBatch) touch(path string, mtime, size int64) error {
	return b.store.Touch(path, mtime, size)
}

func (b *writeBatch) rollback() { b.store.Rollback() }

// commit commits the store batch and hands the full-text batch to the applier, which writes
// it to bleve and then clears the log, while the next store batch is being filled.
func (b *writeBatch) commit(ctx context.Context) error {
	if err := b.store.Commit(); err != nil {
		return err
	}
	touched := b.store.Touched()
	if b.ix.ftStatus != index.FulltextReady || len(touched) == 0 && b.ft.Size() == 0 {
		return nil
	}
	for _, id := range touched {
		if !b.added[id] {
			b.ft.Delete(id)
		}
	}
	return b.ix.applier.submit(ctx, b.ft, touched)
}

// applier writes full-text batches in the background, in order, one at a time.
type applier struct {
	ix       *openedIndex
	queue    chan applyJob
	done     chan struct{}
	err      error // the first failure; read after done is closed
	mu       sync.Mutex
	applied  []string       // written to bleve, still in the log
	inflight map[string]int // submitted, not yet written: a document a later batch changed again stays logged
}

type applyJob struct {
	batch   *index.FulltextBatch
	touched []string
}

// applierQueue is how many full-text batches may wait while the next store batch is written.
const applierQueue = 1

func newApplier(ix *openedIndex) *applier {
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
			a.err = fmt.Errorf("workspace: write the full-text index: %w", err)
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

func (a *applier) submit(ctx context.Context, b *index.FulltextBatch, touched []string) error {
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
