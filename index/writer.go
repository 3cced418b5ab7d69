package index

// The write side of an index: the store and the full-text index kept in step.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/grams"
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
	// Compact makes Finish leave each part of the index in one piece: the content index's
	// segments and the full-text index's merged into one, the store without free pages
	// (an index a cluster ships after an edit, which would else grow with each).
	Compact  bool
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
	// grams writes the content index (index/grams): the text of every file the store holds,
	// in segments beside it. Its manifest is committed with the clearing of the file
	// documents (store.FileDocID) it took from the pending log, which hold every file
	// changed since the committed manifest (gramsPending) until then.
	grams        *grams.Writer
	gramsMu      sync.Mutex // gramsPending, read by the searches of the searchers lent
	gramsPending []string
	// gramsRebuild: the committed content index cannot be used (none, a segment missing or
	// corrupt, or a first load that did not finish): Finish builds it from the store.
	gramsRebuild bool
	searchers    []*search.Searcher // lent by Searcher, closed by Close
}

// firstLoadCommitBytes is how much file content a first load writes in one store
// transaction.
const firstLoadCommitBytes = 256 << 20

// OpenWriter opens the store at storePath and the full-text index at fulltextPath for
// writing, replaying the log of a run that did not finish. Over an empty store (a first
// load) it fills the full-text index as files are written and builds the store's lookup
// indexes once, in Finish.
func OpenWriter(ctx context.Context, storePath, fulltextPath string) (*Writer, error) {
	open := store.Open
	if disposable, _ := ctx.Value(disposableKey{}).(bool); disposable {
		open = store.OpenUnjournaled
	}
	st, err := open(storePath)
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
	pending, err := st.PendingDocs(ctx)
	if err != nil {
		ix.Close()
		return nil, fmt.Errorf("index: read the full-text log: %w", err)
	}
	files, symbols := splitDocs(pending)
	if err := ix.openGrams(ctx, empty, files); err != nil {
		ix.Close()
		return nil, err
	}
	if ix.ftStatus == fulltext.Ready && len(symbols) > 0 {
		if err := ix.syncDocs(ctx, symbols); err != nil {
			ix.Close()
			return nil, fmt.Errorf("index: replay the full-text log: %w", err)
		}
	}
	ix.replayed = len(pending)
	return ix, nil
}

// splitDocs splits logged document ids into the files' (the content index's) and the
// symbols' (bleve's).
func splitDocs(ids []string) (files, symbols []string) {
	for _, id := range ids {
		if strings.HasPrefix(id, store.FileDocPrefix) {
			files = append(files, id)
		} else {
			symbols = append(symbols, id)
		}
	}
	return files, symbols
}

// openGrams opens the content index's writer over the committed manifest, removes what a
// run that did not finish left in its directory, and takes the files the log holds
// (pending: their document ids) from the store again. A manifest that cannot be used
// (none over a store with files, a segment missing or corrupt, a first load that did not
// finish) makes Finish build the content index from the store.
func (ix *Writer) openGrams(ctx context.Context, empty bool, pending []string) error {
	dir := ix.store.GramsDir()
	var m grams.Manifest
	raw, err := ix.store.Meta(store.MetaGrams)
	if err != nil {
		return err
	}
	switch {
	case empty:
	case raw == "" || ix.ftStatus == fulltext.Partial:
		ix.gramsRebuild = true
	default:
		if m, err = grams.ParseManifest(raw); err != nil {
			ix.gramsRebuild, m = true, grams.Manifest{}
		}
	}
	w, err := grams.NewWriter(dir, m)
	if err != nil && !ix.gramsRebuild && !empty {
		// A segment is missing or corrupt: build it all again from the store.
		ix.gramsRebuild, m = true, grams.Manifest{}
		w, err = grams.NewWriter(dir, m)
	}
	if err != nil {
		return fmt.Errorf("index: open the content index: %w", err)
	}
	ix.grams = w
	if err := grams.Clean(dir, m); err != nil {
		return err
	}
	ix.setGramsPending(pending)
	if ix.gramsRebuild || len(pending) == 0 {
		return nil
	}
	states, err := ix.store.Files(ctx)
	if err != nil {
		return err
	}
	for _, id := range pending {
		path := strings.TrimPrefix(id, store.FileDocPrefix)
		if f, ok := states[path]; !ok || f.Skipped != "" {
			if err := w.Delete(path); err != nil {
				return err
			}
			continue
		}
		content, err := ix.store.Content(ctx, path)
		if err != nil {
			return err
		}
		if err := w.Put(path, search.ContentPrior(path, len(content)), content); err != nil {
			return err
		}
	}
	return nil
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
	s, err := search.NewSearcher(ix.store, ix.ft)
	if err == nil {
		s.SetUnindexed(ix.unindexed)
		ix.searchers = append(ix.searchers, s)
	}
	return s, err
}

// setGramsPending sets the files committed to the store and not yet to the content index.
func (ix *Writer) setGramsPending(ids []string) {
	ix.gramsMu.Lock()
	ix.gramsPending = ids
	ix.gramsMu.Unlock()
}

// unindexed returns the paths of the files the store has committed since the content
// index's manifest: a search of this run's searcher reads them besides the content index's
// candidates, so a file changed by the run is found by its new text before the run ends.
func (ix *Writer) unindexed() []string {
	ix.gramsMu.Lock()
	defer ix.gramsMu.Unlock()
	out := make([]string, len(ix.gramsPending))
	for i, id := range ix.gramsPending {
		out[i] = strings.TrimPrefix(id, store.FileDocPrefix)
	}
	return out
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
	if ix.grams != nil {
		ix.grams.Close()
	}
	for _, s := range ix.searchers {
		s.Close() // once the searches running are done
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
	vectorsDone := false
	if ix.ftStatus == fulltext.Ready {
		// A first load's: bleve's merge of its segments (one core, bleve's files only)
		// and the symbol vectors (the store only) at once.
		vecs := make(chan error, 1)
		go func() {
			var err error
			ix.Vectors, err = vectors.Of(ix.store).Refresh(ctx, ix.Embedder)
			vecs <- err
		}()
		err := ix.ft.FinishBulk()
		if verr := <-vecs; verr != nil {
			return fmt.Errorf("index: symbol vectors: %w", verr)
		}
		if err != nil {
			return err
		}
		vectorsDone = true
	} else if err := ix.rebuild(ctx); err != nil {
		return fmt.Errorf("index: rebuild the full-text index: %w", err)
	}
	if ix.Compact {
		ix.grams.Compact()
	}
	if err := ix.finishGrams(ctx); err != nil {
		return fmt.Errorf("index: the content index: %w", err)
	}
	if ix.Compact {
		if err := ix.ft.Compact(ctx); err != nil {
			return err
		}
	}
	if err := ix.ft.MeasureFieldLengths(ctx, ix.store, ix.firstLoad || ix.ftStatus != fulltext.Ready); err != nil {
		return err
	}
	if !vectorsDone {
		if ix.Vectors, err = vectors.Of(ix.store).Refresh(ctx, ix.Embedder); err != nil {
			return fmt.Errorf("index: symbol vectors: %w", err)
		}
	}
	if ix.firstLoad || ix.ftStatus == fulltext.Partial {
		if err := ix.store.SetMeta(store.MetaFirstLoad, ""); err != nil {
			return err
		}
	}
	if err := ix.store.Checkpoint(ctx); err != nil {
		return err
	}
	if ix.Compact {
		return ix.store.Vacuum(ctx)
	}
	return nil
}

// finishGrams writes the content index's last segment (every stored file, when it is
// rebuilt), merges by its policy, and commits its manifest with the clearing of the file
// documents it took from the log; then removes the segments no longer listed.
func (ix *Writer) finishGrams(ctx context.Context) error {
	if ix.gramsRebuild {
		err := ix.store.FileDocs(ctx, func(path, _ string, content []byte) error {
			return ix.grams.Put(path, search.ContentPrior(path, len(content)), content)
		})
		if err != nil {
			return err
		}
	}
	if !ix.gramsRebuild && !ix.firstLoad && !ix.grams.Changed() && len(ix.gramsPending) == 0 {
		return nil
	}
	m, err := ix.grams.Finish()
	if err != nil {
		return err
	}
	b, err := ix.store.Begin(ctx)
	if err != nil {
		return err
	}
	if err := b.ClearPending(ix.gramsPending); err != nil {
		b.Rollback()
		return err
	}
	if err := b.SetMeta(store.MetaGrams, m.String()); err != nil {
		b.Rollback()
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	ix.setGramsPending(nil)
	ix.gramsRebuild = false
	return grams.Clean(ix.store.GramsDir(), m)
}

// rebuild fills the full-text index, emptied, with every stored file and symbol, in bulk.
func (ix *Writer) rebuild(ctx context.Context) error {
	if err := ix.ft.StartBulk(); err != nil {
		return err
	}
	b := ix.ft.NewBatch()
	err := ix.store.FileDocs(ctx, func(path, _ string, content []byte) error {
		if err := ix.addSymbolDocs(ctx, b, path, content); err != nil {
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
	_, symbols := splitDocs(pending) // the files' stay for the content index
	return ix.store.ClearPending(ctx, symbols)
}

// addSymbolDocs adds the symbol documents of one stored file to b.
func (ix *Writer) addSymbolDocs(ctx context.Context, b *fulltext.Batch, path string, content []byte) error {
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

// syncDocs brings the given symbol documents in line with the store.
func (ix *Writer) syncDocs(ctx context.Context, docIDs []string) error {
	b := ix.ft.NewBatch()
	paths := map[string]bool{}
	for _, id := range docIDs {
		b.Delete(id)
		switch {
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
		if err := ix.addSymbolDocs(ctx, b, p, content); err != nil {
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

// Put writes a file: its store rows and, unless it is skipped, its text to the content
// index and each symbol's full-text document.
func (b *WriteBatch) Put(rec *store.FileRecord) error {
	if err := b.store.Put(rec); err != nil {
		return err
	}
	if b.ix.firstLoad {
		b.ix.heldBytes += int64(len(rec.Content))
	}
	if !b.ix.gramsRebuild {
		var err error
		if rec.Skipped != "" {
			err = b.ix.grams.Delete(rec.Path)
		} else {
			err = b.ix.grams.Put(rec.Path, search.ContentPrior(rec.Path, len(rec.Content)), rec.Content)
		}
		if err != nil {
			return err
		}
	}
	if b.ix.ftStatus != fulltext.Ready || rec.Skipped != "" {
		return nil // the whole full-text index is rebuilt at the end
	}
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

// Delete removes the file at path: its rows, its text and its full-text documents.
func (b *WriteBatch) Delete(path string) error {
	if err := b.store.Delete(path); err != nil {
		return err
	}
	if b.ix.gramsRebuild {
		return nil
	}
	return b.ix.grams.Delete(path)
}

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
	files, touched := splitDocs(b.store.TakeTouched())
	if !b.ix.firstLoad {
		b.ix.gramsMu.Lock()
		b.ix.gramsPending = append(b.ix.gramsPending, files...) // cleared when the content index commits
		b.ix.gramsMu.Unlock()
	}
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

type disposableKey struct{}

// WithDisposable returns ctx telling OpenWriter that the index it writes is thrown away
// unless the run finishes (a forced run's rebuild): its store keeps no journal
// (store.OpenUnjournaled); Writer.Sync makes it durable.
func WithDisposable(ctx context.Context) context.Context {
	return context.WithValue(ctx, disposableKey{}, true)
}

// Sync writes the store to the disk: after a run in a disposable index (WithDisposable),
// before the index is marked complete. The full-text and content indexes sync their own
// files.
func (ix *Writer) Sync() error { return ix.store.Sync() }

// WithLockWait returns ctx telling OpenWriter to wait at most d for another holder of the
// full-text index (by default it waits 2 s): a search refreshing stale files must not stall
// behind a reader in another process.
func WithLockWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, d)
}
