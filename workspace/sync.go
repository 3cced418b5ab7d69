package workspace

import (
	"context"
	"fmt"
	"strings"

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
	ix.ft.Close()
	ix.store.Close()
}

// finish rebuilds the full-text index from the store when it was missing, stale or corrupt,
// and folds the WAL into the database.
func (ix *openedIndex) finish(ctx context.Context) error {
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
			CodeBody: index.CodeBody(content, s.StartByte, s.EndByte), Language: s.Language, Kind: s.Kind, Path: s.Path, StartLine: s.StartLine})
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
			CodeBody: index.CodeBody(rec.Content, s.StartByte, s.EndByte), Language: s.Language, Kind: s.Kind.String(), Path: rec.Path, StartLine: s.StartLine})
		b.added[index.SymbolDocID(s.ID)] = true
	}
	return nil
}

func (b *writeBatch) delete(path string) error { return b.store.Delete(path) }

func (b *writeBatch) touch(path string, mtime, size int64) error {
	return b.store.Touch(path, mtime, size)
}

func (b *writeBatch) rollback() { b.store.Rollback() }

// commit commits the store batch, then writes the full-text batch, then clears the log.
func (b *writeBatch) commit(ctx context.Context) error {
	if err := b.store.Commit(); err != nil {
		return err
	}
	touched := b.store.Touched()
	if b.ix.ftStatus != index.FulltextReady || len(touched) == 0 {
		return nil
	}
	for _, id := range touched {
		if !b.added[id] {
			b.ft.Delete(id)
		}
	}
	if err := b.ix.ft.Apply(b.ft); err != nil {
		return err
	}
	return b.ix.store.ClearPending(ctx, touched)
}
