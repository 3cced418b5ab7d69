package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// Batch is one store transaction that replaces, renames or deletes many files. Every full-text
// document it touches is recorded in fulltext_pending in the same transaction.
type Batch struct {
	bulk    bool // Store.setBulk: no old rows to remove
	ctx     context.Context
	tx      *sql.Tx
	stmts   map[string]*sql.Stmt
	touched []string // full-text documents changed by this batch
	// unchanged holds the symbols of the last Put whose full-text document is as stored
	// (name, signature, doc comment, body, kind, language): only their lines moved.
	unchanged map[string]bool
}

var batchStatements = map[string]string{
	// A stored file keeps its id: the identifier, relationship and type rows refer to it.
	"file": `INSERT INTO files(path, language, hash, size, mtime, parse_errors, symbol_count, identifier_count, relationship_count, type_count, skipped, content) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET language = excluded.language, hash = excluded.hash, size = excluded.size, mtime = excluded.mtime,
		parse_errors = excluded.parse_errors, symbol_count = excluded.symbol_count, identifier_count = excluded.identifier_count,
		relationship_count = excluded.relationship_count, type_count = excluded.type_count, skipped = excluded.skipped, content = excluded.content
		RETURNING id`,
	"fileID":       `SELECT id FROM files WHERE path = ?`,
	"oldContent":   `SELECT content FROM files WHERE path = ?`,
	"idents":       `INSERT OR REPLACE INTO identifiers(file, data) VALUES(?, ?)`,
	"oldIdents":    `SELECT data FROM identifiers WHERE file = ?`,
	"delIdents":    `DELETE FROM identifiers WHERE file = ?`,
	"identName":    `INSERT OR REPLACE INTO identifier_names(name, file, uses, kinds) VALUES(?, ?, ?, ?)`,
	"delIdentName": `DELETE FROM identifier_names WHERE name = ? AND file = ?`,
	"rels":         `INSERT OR REPLACE INTO relationships(file, data) VALUES(?, ?)`,
	"oldRels":      `SELECT data FROM relationships WHERE file = ?`,
	"delRels":      `DELETE FROM relationships WHERE file = ?`,
	"types":        `INSERT OR REPLACE INTO types(file, data) VALUES(?, ?)`,
	"oldTypes":     `SELECT data FROM types WHERE file = ?`,
	"delTypes":     `DELETE FROM types WHERE file = ?`,
	"symbol":       `INSERT OR IGNORE INTO symbols(id, file, name, kind, language, start_line, start_column, end_line, end_column, start_byte, end_byte, signature, doc_comment, visibility, parent_id, metadata) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"pending":      `INSERT OR IGNORE INTO fulltext_pending(doc_id) VALUES(?)`,
	"clear":        `DELETE FROM fulltext_pending WHERE doc_id = ?`,
	"setMeta":      `INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`,
	"symbolIDs":    `SELECT id FROM symbols WHERE file = ?`,
	"touch":        `UPDATE files SET mtime = ?, size = ? WHERE path = ?`,
	"delFile":      `DELETE FROM files WHERE path = ?`,
	"delSyms":      `DELETE FROM symbols WHERE file = ?`,
	// generation counts the batches committed (Store.Generation).
	"generation": `INSERT INTO meta(key, value) VALUES('generation', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,

	// Replacing a file's rows in place (Put over a stored file): rows that stay keep their
	// place in the lookup indexes, which are most of the cost of a write.
	"oldSyms":  `SELECT id, name, kind, language, start_line, start_column, end_line, end_column, start_byte, end_byte, signature, doc_comment, visibility, parent_id, metadata FROM symbols WHERE file = ?`,
	"updSym":   `UPDATE symbols SET kind = ?, language = ?, start_line = ?, start_column = ?, end_line = ?, end_column = ?, start_byte = ?, end_byte = ?, signature = ?, doc_comment = ?, visibility = ?, metadata = ? WHERE id = ?`,
	"delSymID": `DELETE FROM symbols WHERE id = ?`,
}

// Begin starts a batch.
func (s *Store) Begin(ctx context.Context) (*Batch, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("index: begin: %w", err)
	}
	// Statements run under a context that is never done: one that can be would make the
	// driver run each in a goroutine of its own (a third of a write's cost). The run checks
	// ctx between files.
	b := &Batch{ctx: context.WithoutCancel(ctx), tx: tx, stmts: map[string]*sql.Stmt{}, bulk: s.bulk}
	if s.bulk {
		// A first load inserts into B-trees (symbol ids, identifier names) in no order:
		// SQLite's default 2 MB page cache made each insert read pages back (15 s of 38
		// for the symbols on corpus.sh full). The cache grows only as far as it is used.
		if _, err := tx.ExecContext(ctx, `PRAGMA cache_size = -65536`); err != nil {
			b.Rollback()
			return nil, fmt.Errorf("index: cache size: %w", err)
		}
	}
	for name, q := range batchStatements {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			b.Rollback()
			return nil, fmt.Errorf("index: prepare %s: %w", name, err)
		}
		b.stmts[name] = st
	}
	return b, nil
}

func (b *Batch) exec(name string, args ...any) error {
	if _, err := b.stmts[name].ExecContext(b.ctx, args...); err != nil {
		return fmt.Errorf("index: %s: %w", name, err)
	}
	return nil
}

func (b *Batch) touch(docID string) error {
	b.touched = append(b.touched, docID)
	if b.bulk {
		return nil // a first load keeps no log (OpenWriter)
	}
	return b.exec("pending", docID)
}

// removeRows deletes every row of path, recording its documents as pending.
func (b *Batch) removeRows(path string) error {
	if err := b.touch(FileDocID(path)); err != nil {
		return err
	}
	var id int64
	switch err := b.stmts["fileID"].QueryRowContext(b.ctx, path).Scan(&id); {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("index: id of %s: %w", path, err)
	}
	rows, err := b.stmts["symbolIDs"].QueryContext(b.ctx, id)
	if err != nil {
		return fmt.Errorf("index: symbols of %s: %w", path, err)
	}
	var ids []string
	for rows.Next() {
		var sid string
		if err := rows.Scan(&sid); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, sid)
	}
	rows.Close()
	for _, sid := range ids {
		if err := b.touch(SymbolDocID(sid)); err != nil {
			return err
		}
	}
	if err := b.replaceIdents(id, nil); err != nil {
		return err
	}
	for _, q := range []string{"delRels", "delTypes", "delSyms"} {
		if err := b.exec(q, id); err != nil {
			return err
		}
	}
	return b.exec("delFile", path)
}

// Put stores a file and what was extracted from it, replacing what the store had for its
// path. The file keeps its id. Over a stored file the rows are replaced in place (replace):
// a symbol whose id stays is updated and only the rest is deleted or inserted, so an edit
// that moves lines rewrites no lookup index entry; the identifier, relationship and type
// blobs are written only when they changed, and identifier_names only for the names whose
// uses changed; a symbol whose full-text document is unchanged is not touched (Unchanged).
func (b *Batch) Put(rec *FileRecord) error {
	clear(b.unchanged)
	f := rec.Extract
	var parseErrors, nsyms, nidents, nrels, ntypes int
	if f != nil {
		parseErrors, nidents, nrels, ntypes = f.ParseErrors, len(f.Identifiers), len(f.Relationships), len(f.Types)
		nsyms = distinctIDs(f.Symbols) // a repeated id is stored once (INSERT OR IGNORE)
	}
	content := rec.Content
	if content == nil {
		content = []byte{}
	}
	// The stored content, read before the file's row is written over: replace compares
	// symbol bodies with it.
	var oldPacked []byte
	if !b.bulk {
		err := b.stmts["oldContent"].QueryRowContext(b.ctx, rec.Path).Scan(&oldPacked)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("index: content of %s: %w", rec.Path, err)
		}
	}
	packed, err := packContent(content)
	if err != nil {
		return err
	}
	var id int64
	if err := b.stmts["file"].QueryRowContext(b.ctx, rec.Path, rec.Language, rec.Hash, rec.Size, rec.MTime, parseErrors, nsyms,
		nidents, nrels, ntypes, rec.Skipped, packed).Scan(&id); err != nil {
		return fmt.Errorf("index: file %s: %w", rec.Path, err)
	}
	if err := b.replace(rec, id, content, oldPacked); err != nil {
		return err
	}
	if f == nil {
		f = &extract.File{}
	}
	if err := b.replaceIdents(id, f.Identifiers); err != nil {
		return err
	}
	if err := b.replaceBlob("Rels", id, encodeRels(f.Relationships)); err != nil {
		return err
	}
	if err := b.replaceBlob("Types", id, encodeTypes(f.Types)); err != nil {
		return err
	}
	if rec.Skipped == "" {
		if err := b.touch(FileDocID(rec.Path)); err != nil {
			return err
		}
	}
	return nil
}

// Unchanged reports whether the full-text document of symbol id, written by the last Put,
// is the one the store had: only its position changed.
func (b *Batch) Unchanged(id string) bool { return b.unchanged[id] }

func (b *Batch) insertSymbol(file int64, s *extract.Symbol) error {
	if err := b.exec("symbol", s.ID, file, s.Name, s.Kind.String(), s.Language, s.StartLine, s.StartColumn,
		s.EndLine, s.EndColumn, s.StartByte, s.EndByte, s.Signature, s.DocComment, string(s.Visibility),
		s.ParentID, marshalMeta(s.Metadata)); err != nil {
		return err
	}
	return b.touch(SymbolDocID(s.ID))
}

// storedSymbol is a symbol row as replace reads it.
type storedSymbol struct {
	name, kind, language, signature, doc, visibility, parent, metadata string
	startLine, startCol, endLine, endCol, startByte, endByte           int
	kept                                                               bool
}

// replace brings the stored rows of rec's path to what rec holds, in place (see Put); in a
// bulk load, where the store holds nothing of the path, it inserts them all. The file's row
// and its identifiers (keyed by the file's id) are the caller's.
func (b *Batch) replace(rec *FileRecord, file int64, content, oldPacked []byte) error {
	old := map[string]*storedSymbol{}
	err := b.oldRows("oldSyms", file, func(rows *sql.Rows) error {
		var id string
		o := &storedSymbol{}
		if err := rows.Scan(&id, &o.name, &o.kind, &o.language, &o.startLine, &o.startCol, &o.endLine, &o.endCol,
			&o.startByte, &o.endByte, &o.signature, &o.doc, &o.visibility, &o.parent, &o.metadata); err != nil {
			return err
		}
		old[id] = o
		return nil
	})
	if err != nil {
		return err
	}
	if !b.bulk { // a file stored before: its document is gone, or replaced by the caller
		if err := b.touch(FileDocID(rec.Path)); err != nil {
			return err
		}
	}
	f := rec.Extract
	if f == nil {
		f = &extract.File{}
	}
	var oldContent []byte
	oldRead := false
	seen := make(map[string]bool, len(f.Symbols))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if seen[s.ID] {
			continue // a repeated id is stored once: the first
		}
		seen[s.ID] = true
		o := old[s.ID]
		if o == nil {
			if err := b.insertSymbol(file, s); err != nil {
				return err
			}
			continue
		}
		o.kept = true
		if o.name != s.Name || o.parent != s.ParentID { // indexed columns: a new row
			if err := b.exec("delSymID", s.ID); err != nil {
				return err
			}
			if err := b.insertSymbol(file, s); err != nil {
				return err
			}
			continue
		}
		kind, meta := s.Kind.String(), marshalMeta(s.Metadata)
		if o.kind != kind || o.language != s.Language || o.startLine != s.StartLine || o.startCol != s.StartColumn ||
			o.endLine != s.EndLine || o.endCol != s.EndColumn || o.startByte != s.StartByte || o.endByte != s.EndByte ||
			o.signature != s.Signature || o.doc != s.DocComment || o.visibility != string(s.Visibility) || o.metadata != meta {
			if err := b.exec("updSym", kind, s.Language, s.StartLine, s.StartColumn, s.EndLine, s.EndColumn,
				s.StartByte, s.EndByte, s.Signature, s.DocComment, string(s.Visibility), meta, s.ID); err != nil {
				return err
			}
		}
		same := o.kind == kind && o.language == s.Language && o.signature == s.Signature && o.doc == s.DocComment
		if same {
			if !oldRead {
				if oldContent, err = unpackContent(oldPacked); err != nil {
					return err
				}
				oldRead = true
			}
			same = SymbolBody(o.kind, oldContent, o.startByte, o.endByte) == SymbolBody(kind, content, s.StartByte, s.EndByte)
		}
		if same {
			if b.unchanged == nil {
				b.unchanged = map[string]bool{}
			}
			b.unchanged[s.ID] = true
		} else if err := b.touch(SymbolDocID(s.ID)); err != nil {
			return err
		}
	}
	for id, o := range old {
		if o.kept {
			continue
		}
		if err := b.exec("delSymID", id); err != nil {
			return err
		}
		if err := b.touch(SymbolDocID(id)); err != nil {
			return err
		}
	}
	return nil
}

// replaceIdents makes ids the identifiers of file id: its blob, and its rows in
// identifier_names, of which only those that changed are written.
func (b *Batch) replaceIdents(id int64, ids []extract.Identifier) error {
	var oldBlob []byte
	var old map[string]identNameStats
	if !b.bulk {
		err := b.stmts["oldIdents"].QueryRowContext(b.ctx, id).Scan(&oldBlob)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("index: identifiers of file %d: %w", id, err)
		}
		old = map[string]identNameStats{}
		if err := DecodeIdents(oldBlob, nil, func(x extract.Identifier) bool { countUse(old, &x); return true }); err != nil {
			return err
		}
	}
	blob := encodeIdents(ids)
	if bytes.Equal(blob, oldBlob) {
		return nil
	}
	news := identStats(ids)
	for name := range old {
		if _, ok := news[name]; !ok {
			if err := b.exec("delIdentName", name, id); err != nil {
				return err
			}
		}
	}
	for name, st := range news {
		if o, ok := old[name]; !ok || o != st {
			if err := b.exec("identName", name, id, st.n, st.kinds); err != nil {
				return err
			}
		}
	}
	if blob == nil {
		return b.exec("delIdents", id)
	}
	return b.exec("idents", id, blob)
}

// replaceBlob makes blob the data of file id in the table of the statements old<name>,
// <lowercase name> and del<name> (nil: no row), writing nothing when it is as stored.
func (b *Batch) replaceBlob(name string, id int64, blob []byte) error {
	if !b.bulk {
		var old []byte
		err := b.stmts["old"+name].QueryRowContext(b.ctx, id).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("index: old%s of file %d: %w", name, id, err)
		}
		if bytes.Equal(old, blob) {
			return nil
		}
	}
	if blob == nil {
		if b.bulk {
			return nil
		}
		return b.exec("del"+name, id)
	}
	return b.exec(strings.ToLower(name), id, blob)
}

// oldRows runs the batch's statement name, which reads the rows the store holds for file,
// and calls fn to scan each (the caller changes the rows after: never while they are read).
// In a bulk load no path has rows yet, so nothing is read.
func (b *Batch) oldRows(name string, file int64, fn func(*sql.Rows) error) error {
	if b.bulk {
		return nil
	}
	rows, err := b.stmts[name].QueryContext(b.ctx, file)
	if err != nil {
		return fmt.Errorf("index: %s: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return fmt.Errorf("index: %s: %w", name, err)
		}
	}
	return rows.Err()
}

// Touch records a new modification time and size for a file whose content did not change.
func (b *Batch) Touch(path string, mtime, size int64) error {
	return b.exec("touch", mtime, size, path)
}

// Delete removes a file and everything extracted from it.
func (b *Batch) Delete(path string) error {
	return b.removeRows(path)
}

// ClearPending removes documents from the full-text log: bleve has them. A document this
// batch touches again is logged again by it.
func (b *Batch) ClearPending(docIDs []string) error {
	if b.bulk {
		return nil
	}
	for _, id := range docIDs {
		if err := b.exec("clear", id); err != nil {
			return err
		}
	}
	return nil
}

// SetMeta sets a meta key in the batch's transaction.
func (b *Batch) SetMeta(key, value string) error { return b.exec("setMeta", key, value) }

// Touched returns the full-text documents the batch changed.
func (b *Batch) Touched() []string { return b.touched }

// TakeTouched returns the full-text documents the batch changed since the last call.
func (b *Batch) TakeTouched() []string {
	t := b.touched
	b.touched = nil
	return t
}

// Commit makes the batch durable.
func (b *Batch) Commit() error {
	if err := b.exec("generation"); err != nil {
		b.Rollback()
		return err
	}
	b.closeStmts()
	if err := b.tx.Commit(); err != nil {
		return fmt.Errorf("index: commit: %w", err)
	}
	return nil
}

// Rollback abandons the batch; it is safe after Commit.
func (b *Batch) Rollback() {
	b.closeStmts()
	_ = b.tx.Rollback()
}

func (b *Batch) closeStmts() {
	for name, st := range b.stmts {
		st.Close()
		delete(b.stmts, name)
	}
}

// distinctIDs counts the distinct ids of syms.
func distinctIDs(syms []extract.Symbol) int {
	seen := make(map[string]bool, len(syms))
	for i := range syms {
		seen[syms[i].ID] = true
	}
	return len(seen)
}
