package index

// The write side of an index: the store and the full-text index kept in step.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/vectors"
)

// rebuildBatchDocs is how many full-text documents a rebuild from the store writes in one
// bleve batch.
const rebuildBatchDocs = 800

// Writer writes a workspace's index: the store and the full-text index, kept in step. Every
// change goes to the store first, in a transaction that also logs the full-text documents it
// touches (fulltext_pending), then to bleve, and the log entries are cleared only once bleve
// has them. After a crash anywhere in between, opening a Writer replays the log, so the
// full-text index never answers from documents the store no longer has. The callers hand it
// file records (FileRecord); the documents, their ids and the log are its own.
//
// One Writer at a time may write an index (the caller holds the workspace's lock). Its
// batches are used from one goroutine; the full-text side of each is written by a
// background applier while the next is filled.
type Writer struct {
	// Vectors says what the last Finish did to the symbol vectors.
	Vectors vectors.Stats
	// Embedder, when set, makes the symbol vectors (else the built-in code-search model does).
	Embedder *vectors.Embedder
	store    *store.Store
	ft       *fulltext.Index
	ftStatus fulltext.Status
	applier  *applier
	// firstLoad: the store was empty, so this run fills the whole full-text index in bulk
	// (fulltext/bulk.go). Like the store's bulk load (Store.SetBulk), it takes each path
	// once: a bulk fill cannot replace a document.
	firstLoad bool
	// replayed counts the full-text documents of a run that did not finish, re-applied
	// from the pending log when the writer opened.
	replayed int
	// held is the store transaction a first load keeps open from one WriteBatch to the
	// next (heldBytes of content in it so far): committed every firstLoadCommitBytes and
	// by Finish. A transaction commits every page it changed, and a first load's inserts
	// into the symbol id and identifier name B-trees change pages all over them: a commit
	// every 100 files wrote 5.5 GB for a 0.6 GB index on corpus.sh full.
	held        *store.Batch
	heldBytes   int64
	commitBytes int64 // firstLoadCommitBytes, smaller in tests
	ftDir       string
}

// firstLoadCommitBytes is how much file content a first load writes in one store
// transaction.
const firstLoadCommitBytes = 256 << 20

// OpenWriter opens the store at storePath and the full-text index at fulltextPath for
// writing, replaying the log of a run that did not finish. Over an empty store (a first
// load) it fills the full-text index as files are written and builds the store's lookup
// indexes once, in Finish.
func OpenWriter(ctx context.Context, storePath, fulltextPath string) (*Writer, error) {
	st, err := store.Open(storePath)
	if err != nil {
		return nil, err
	}
	if st.ReadOnly() {
		st.Close()
		return nil, fmt.Errorf("index: %s: %w", filepath.Dir(filepath.Dir(storePath)), store.ErrNotWritable)
	}
	wait, _ := ctx.Value(lockWaitKey{}).(time.Duration)
	ft, status, err := fulltext.OpenWaiting(fulltextPath, wait)
	if err != nil {
		st.Close()
		return nil, err
	}
	// What a bulk fill that did not finish left behind (fulltext/bulk.go).
	if err := os.RemoveAll(fulltext.BuildDir(fulltextPath)); err != nil {
		ft.Close()
		st.Close()
		return nil, fmt.Errorf("index: remove an unfinished full-text build: %w", err)
	}
	ix := &Writer{store: st, ft: ft, ftStatus: status, ftDir: fulltextPath, commitBytes: firstLoadCommitBytes}
	empty, err := st.Empty(ctx)
	ix.firstLoad = empty
	if err != nil {
		ix.Close()
		return nil, err
	}
	if empty {
		// A first load: the full-text index, emptied, is filled in bulk as files are written
		// (over a st with files it is rebuilt at the end instead), and the st's lookup
		// indexes are built once after the load. It keeps no pending log (a million rows
		// written and deleted on corpus.sh full): the st records that a first load is
		// under way instead, and a load that does not finish has its full-text index
		// refilled from the st by the next run.
		ix.ftStatus = fulltext.Ready
		st.SetBulk(true)
		err := ft.StartBulk()
		if err == nil {
			err = st.SetMeta(store.MetaFirstLoad, "1")
		}
		if err == nil {
			err = st.DropSecondaryIndexes(ctx)
		}
		if err != nil {
			ix.Close()
			return nil, err
		}
	} else if partial, err := st.FirstLoadUnfinished(); err != nil {
		ix.Close()
		return nil, err
	} else if partial {
		// The unfinished load's bulk fill never finished (the index has no version mark), or
		// may hold files it never committed: Finish refills the full-text index from the
		// st (as it does one created, stale or corrupt).
		ix.ftStatus = fulltext.Partial
	}
	ix.applier = newApplier(ix)
	if ix.ftStatus == fulltext.Ready {
		pending, err := st.PendingDocs(ctx)
		if err == nil && len(pending) > 0 {
			err = ix.syncDocs(ctx, pending)
			ix.replayed = len(pending)
		}
		if err != nil {
			ix.Close()
			return nil, fmt.Errorf("index: replay the full-text log: %w", err)
		}
	}
	return ix, nil
}

// Replayed returns how many full-text documents of a run that did not finish (a crash, a
// kill) the writer re-applied from the pending log when it opened.
func (ix *Writer) Replayed() int { return ix.replayed }

// Status returns what the full-text index was when the writer opened it: ready, or to be
// rebuilt from the store by Finish (created, stale, corrupt, ...).
func (ix *Writer) Status() fulltext.Status { return ix.ftStatus }

// Store returns the store, to read what it holds (files, a stored extraction, counts).
func (ix *Writer) Store() *store.Store { return ix.store }

// Searcher returns a searcher over the writer's own store and full-text index, for
// searches in this process while it writes: they answer from what is committed (the store's
// transactions, the full-text batches applied), never wait, and must be done before the
// writer closes. Over a first load (nothing committed yet to answer from, lookup indexes
// dropped) it returns nil.
func (ix *Writer) Searcher() (*search.Searcher, error) {
	if ix.firstLoad || ix.ftStatus != fulltext.Ready {
		return nil, nil
	}
	return search.NewSearcher(ix.store, ix.ft)
}

// Close waits for the full-text batches in flight and closes both indexes. After a Close
// without Finish, the log keeps what bleve did not get, for the next writer to replay; a
// first load's open transaction is rolled back.
func (ix *Writer) Close() {
	if ix.held != nil {
		ix.held.Rollback()
		ix.held = nil
	}
	if ix.applier != nil {
		ix.applier.wait()
	}
	ix.ft.Close()
	ix.store.Close()
}

// Finish ends a run: waits for the full-text batches, clears their log, builds the store's
// lookup indexes, rebuilds the full-text index from the store when it was missing, stale or
// corrupt, and folds the WAL into the database.
func (ix *Writer) Finish(ctx context.Context) error {
	if ix.held != nil {
		held := ix.held
		ix.held = nil
		if err := held.Commit(); err != nil {
			return err
		}
	}
	err := ix.applier.wait()
	if applied := ix.applier.takeApplied(); err == nil && !ix.firstLoad {
		err = ix.store.ClearPending(ctx, applied)
	}
	ix.applier = nil
	if err != nil {
		return err
	}
	ix.store.SetBulk(false)
	if err := ix.store.CreateSecondaryIndexes(ctx); err != nil {
		return err
	}
	if ix.ftStatus == fulltext.Ready {
		if err := ix.ft.FinishBulk(); err != nil { // a first load's
			return err
		}
	} else if err := ix.rebuild(ctx); err != nil {
		return fmt.Errorf("index: rebuild the full-text index: %w", err)
	}
	if err := ix.ft.MeasureFieldLengths(ctx, ix.store, ix.firstLoad || ix.ftStatus != fulltext.Ready); err != nil {
		return err
	}
	if ix.Vectors, err = vectors.Of(ix.store).Refresh(ctx, ix.Embedder); err != nil {
		return fmt.Errorf("index: symbol vectors: %w", err)
	}
	if ix.firstLoad || ix.ftStatus == fulltext.Partial {
		if err := ix.store.SetMeta(store.MetaFirstLoad, ""); err != nil {
			return err
		}
	}
	return ix.store.Checkpoint(ctx)
}

// rebuild fills the full-text index, emptied, with every stored file and symbol, in bulk.
func (ix *Writer) rebuild(ctx context.Context) error {
	if err := ix.ft.StartBulk(); err != nil {
		return err
	}
	b := ix.ft.NewBatch()
	err := ix.store.FileDocs(ctx, func(path, lang string, content []byte) error {
		if err := ix.addFileDocs(ctx, b, path, lang, content); err != nil {
			return err
		}
		if b.Size() >= rebuildBatchDocs {
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
	if err := ix.ft.FinishBulk(); err != nil {
		return err
	}
	pending, err := ix.store.PendingDocs(ctx)
	if err != nil {
		return err
	}
	return ix.store.ClearPending(ctx, pending)
}

// addFileDocs adds the documents of one stored file to b.
func (ix *Writer) addFileDocs(ctx context.Context, b *fulltext.Batch, path, lang string, content []byte) error {
	b.AddFile(fulltext.FileDoc{Path: path, Language: lang, Content: string(content)})
	syms, err := ix.store.FileSymbols(ctx, path)
	if err != nil {
		return err
	}
	for _, s := range syms {
		b.AddSymbol(fulltext.SymbolDoc{ID: s.ID, Name: s.Name, Signature: s.Signature, DocComment: s.DocComment,
			CodeBody: store.SymbolBody(s.Kind, content, s.StartByte, s.EndByte), Language: s.Language, Kind: s.Kind, Path: s.Path})
	}
	return nil
}

// syncDocs brings the given full-text documents in line with the store.
func (ix *Writer) syncDocs(ctx context.Context, docIDs []string) error {
	b := ix.ft.NewBatch()
	paths := map[string]bool{}
	for _, id := range docIDs {
		b.Delete(id)
		switch {
		case strings.HasPrefix(id, store.FileDocPrefix):
			paths[strings.TrimPrefix(id, store.FileDocPrefix)] = true
		case strings.HasPrefix(id, store.SymbolDocPrefix):
			p, err := ix.store.SymbolPath(ctx, strings.TrimPrefix(id, store.SymbolDocPrefix))
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

// WriteBatch is a store transaction and the full-text batch that follows it: what Put,
// Delete and Touch write to the store commits at once, and the full-text index follows.
type WriteBatch struct {
	ix    *Writer
	store *store.Batch
	ft    *fulltext.Batch
	added map[string]bool // full-text documents this batch (re)writes
}

// Begin starts a batch. One batch at a time: commit or roll back one before the next.
func (ix *Writer) Begin(ctx context.Context) (*WriteBatch, error) {
	if ix.held != nil { // a first load goes on in its open transaction
		sb := ix.held
		ix.held = nil
		return &WriteBatch{ix: ix, store: sb, ft: ix.ft.NewBatch(), added: map[string]bool{}}, nil
	}
	sb, err := ix.store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	if err := sb.ClearPending(ix.applier.takeApplied()); err != nil {
		sb.Rollback()
		return nil, err
	}
	return &WriteBatch{ix: ix, store: sb, ft: ix.ft.NewBatch(), added: map[string]bool{}}, nil
}

// Put writes a file: its store rows and, unless it is skipped, its full-text documents
// (the file's content and each symbol).
func (b *WriteBatch) Put(rec *store.FileRecord) error {
	if err := b.store.Put(rec); err != nil {
		return err
	}
	if b.ix.firstLoad {
		b.ix.heldBytes += int64(len(rec.Content))
	}
	if b.ix.ftStatus != fulltext.Ready || rec.Skipped != "" {
		return nil // the whole full-text index is rebuilt at the end
	}
	b.ft.AddFile(fulltext.FileDoc{Path: rec.Path, Language: rec.Language, Content: string(rec.Content)})
	b.added[store.FileDocID(rec.Path)] = true
	if rec.Extract == nil {
		return nil
	}
	for i := range rec.Extract.Symbols {
		s := &rec.Extract.Symbols[i]
		if b.store.Unchanged(s.ID) {
			continue // bleve has this document as it is: only its lines moved
		}
		b.ft.AddSymbol(fulltext.SymbolDoc{ID: s.ID, Name: s.Name, Signature: s.Signature, DocComment: s.DocComment,
			CodeBody: store.SymbolBody(s.Kind.String(), rec.Content, s.StartByte, s.EndByte), Language: s.Language, Kind: s.Kind.String(), Path: rec.Path})
		b.added[store.SymbolDocID(s.ID)] = true
	}
	return nil
}

// Delete removes the file at path: its rows and its full-text documents.
func (b *WriteBatch) Delete(path string) error { return b.store.Delete(path) }

// Touch records a new modification time and size of a file whose content is unchanged.
func (b *WriteBatch) Touch(path string, mtime, size int64) error {
	return b.store.Touch(path, mtime, size)
}

// Rollback abandons the batch.
func (b *WriteBatch) Rollback() { b.store.Rollback() }

// Commit commits the store transaction and hands the full-text batch to the applier, which
// writes it to bleve and then has the log cleared, while the next batch is being filled.
// In a first load the transaction stays open for the next batch (Writer.held), up to
// firstLoadCommitBytes of content: nothing reads the store before the load finishes.
func (b *WriteBatch) Commit(ctx context.Context) error {
	if b.ix.firstLoad && b.ix.heldBytes < b.ix.commitBytes {
		b.ix.held = b.store
	} else {
		b.ix.heldBytes = 0
		if err := b.store.Commit(); err != nil {
			return err
		}
	}
	touched := b.store.TakeTouched()
	if b.ix.ftStatus != fulltext.Ready || len(touched) == 0 && b.ft.Size() == 0 {
		return nil
	}
	if b.ix.firstLoad {
		return b.ix.applier.submit(ctx, b.ft, nil) // no log to clear
	}
	for _, id := range touched {
		if !b.added[id] {
			b.ft.Delete(id)
		}
	}
	return b.ix.applier.submit(ctx, b.ft, touched)
}

type lockWaitKey struct{}

// WithLockWait returns ctx telling OpenWriter to wait at most d for another holder of the
// full-text index (by default it waits 2 s): a search refreshing stale files must not stall
// behind a reader in another process.
func WithLockWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, d)
}
