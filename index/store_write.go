package index

import (
	"context"
	"database/sql"
	"fmt"

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
}

var batchStatements = map[string]string{
	"file":      `INSERT OR REPLACE INTO files(path, language, hash, size, mtime, parse_errors, symbol_count, identifier_count, relationship_count, type_count, skipped, content) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"symbol":    `INSERT OR IGNORE INTO symbols(id, path, name, kind, language, start_line, start_column, end_line, end_column, start_byte, end_byte, signature, doc_comment, visibility, parent_id, metadata) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"ident":     `INSERT INTO identifiers(path, name, kind, line, column, start_byte, containing_symbol_id) VALUES(?, ?, ?, ?, ?, ?, ?)`,
	"rel":       `INSERT INTO relationships(path, from_id, from_name, to_name, kind, line) VALUES(?, ?, ?, ?, ?, ?)`,
	"type":      `INSERT INTO types(path, symbol_id, role, type) VALUES(?, ?, ?, ?)`,
	"pending":   `INSERT OR IGNORE INTO fulltext_pending(doc_id) VALUES(?)`,
	"clear":     `DELETE FROM fulltext_pending WHERE doc_id = ?`,
	"symbolIDs": `SELECT id FROM symbols WHERE path = ?`,
	"touch":     `UPDATE files SET mtime = ?, size = ? WHERE path = ?`,
	"delFile":   `DELETE FROM files WHERE path = ?`,
	"delSym":    `DELETE FROM symbols WHERE path = ?`,
	"delIdent":  `DELETE FROM identifiers WHERE path = ?`,
	"delRel":    `DELETE FROM relationships WHERE path = ?`,
	"delType":   `DELETE FROM types WHERE path = ?`,
}

// Begin starts a batch.
func (s *Store) Begin(ctx context.Context) (*Batch, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("index: begin: %w", err)
	}
	b := &Batch{ctx: ctx, tx: tx, stmts: map[string]*sql.Stmt{}, bulk: s.bulk}
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
	return b.exec("pending", docID)
}

// removeRows deletes every row of path, recording its documents as pending.
func (b *Batch) removeRows(path string) error {
	rows, err := b.stmts["symbolIDs"].QueryContext(b.ctx, path)
	if err != nil {
		return fmt.Errorf("index: symbols of %s: %w", path, err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		if err := b.touch(symbolDocID(id)); err != nil {
			return err
		}
	}
	if err := b.touch(fileDocID(path)); err != nil {
		return err
	}
	for _, q := range []string{"delFile", "delSym", "delIdent", "delRel", "delType"} {
		if err := b.exec(q, path); err != nil {
			return err
		}
	}
	return nil
}

// Put stores a file and what was extracted from it, replacing what the store had for its path.
func (b *Batch) Put(rec *FileRecord) error {
	if !b.bulk {
		if err := b.removeRows(rec.Path); err != nil {
			return err
		}
	}
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
	if err := b.exec("file", rec.Path, rec.Language, rec.Hash, rec.Size, rec.MTime, parseErrors, nsyms, nidents, nrels, ntypes, rec.Skipped, content); err != nil {
		return err
	}
	if rec.Skipped == "" {
		if err := b.touch(fileDocID(rec.Path)); err != nil {
			return err
		}
	}
	if f == nil {
		return nil
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if err := b.exec("symbol", s.ID, rec.Path, s.Name, s.Kind.String(), s.Language, s.StartLine, s.StartColumn,
			s.EndLine, s.EndColumn, s.StartByte, s.EndByte, s.Signature, s.DocComment, string(s.Visibility),
			s.ParentID, marshalMeta(s.Metadata)); err != nil {
			return err
		}
		if err := b.touch(symbolDocID(s.ID)); err != nil {
			return err
		}
	}
	for _, id := range f.Identifiers {
		if err := b.exec("ident", rec.Path, id.Name, id.Kind.String(), id.StartLine, id.StartColumn, id.StartByte, id.ContainingSymbolID); err != nil {
			return err
		}
	}
	for _, r := range f.Relationships {
		if err := b.exec("rel", rec.Path, r.FromID, r.FromName, r.To, r.Kind.String(), r.Line); err != nil {
			return err
		}
	}
	for _, t := range f.Types {
		if err := b.exec("type", rec.Path, t.SymbolID, t.Role, t.Type); err != nil {
			return err
		}
	}
	return nil
}

// Touch records a new modification time and size for a file whose content did not change.
func (b *Batch) Touch(path string, mtime, size int64) error {
	return b.exec("touch", mtime, size, path)
}

// Delete removes a file and everything extracted from it.
func (b *Batch) Delete(path string) error {
	return b.removeRows(path)
}

// clearPending removes documents from the full-text log: bleve has them. A document this
// batch touches again is logged again by it.
func (b *Batch) clearPending(docIDs []string) error {
	for _, id := range docIDs {
		if err := b.exec("clear", id); err != nil {
			return err
		}
	}
	return nil
}

// Touched returns the full-text documents the batch changed.
func (b *Batch) Touched() []string { return b.touched }

// Commit makes the batch durable.
func (b *Batch) Commit() error {
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
