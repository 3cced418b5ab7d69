package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quarrysearch/quarry/extract"
)

// LoadExtract returns what the store holds for the file at path as an extraction, rows in the
// order they were stored: the inverse of Put, so that a renamed file can be moved (see
// extract.File.Rebase) instead of parsed again. It returns nil when the store has no such
// file or holds it without an extraction (skipped, or of a language without an extractor).
func (s *Store) LoadExtract(ctx context.Context, path string) (*extract.File, error) {
	f := &extract.File{Path: path}
	var skipped string
	err := s.db.QueryRowContext(ctx, `SELECT language, parse_errors, skipped FROM files WHERE path = ?`, path).
		Scan(&f.Language, &f.ParseErrors, &skipped)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: load %s: %w", path, err)
	}
	if skipped != "" || !extract.Supported(f.Language) {
		return nil, nil
	}
	if err := s.loadSymbols(ctx, f); err != nil {
		return nil, fmt.Errorf("index: load the symbols of %s: %w", path, err)
	}
	if err := s.loadIdentifiers(ctx, f); err != nil {
		return nil, fmt.Errorf("index: load the identifiers of %s: %w", path, err)
	}
	if err := s.loadRelationships(ctx, f); err != nil {
		return nil, fmt.Errorf("index: load the relationships of %s: %w", path, err)
	}
	if err := s.loadTypes(ctx, f); err != nil {
		return nil, fmt.Errorf("index: load the types of %s: %w", path, err)
	}
	return f, nil
}

// EachRow runs query and calls scan for each row.
func (s *Store) EachRow(ctx context.Context, scan func(*sql.Rows) error, query string, args ...any) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	return ScanEach(rows, err, scan)
}

// ScanEach calls scan for each of rows (the result of a query that failed with err, if
// err is set) and closes them.
func ScanEach(rows *sql.Rows, err error, scan func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (s *Store) loadSymbols(ctx context.Context, f *extract.File) error {
	f.Symbols = []extract.Symbol{}
	return s.EachRow(ctx, func(rows *sql.Rows) error {
		var x extract.Symbol
		var kind, vis, meta string
		if err := rows.Scan(&x.ID, &x.Name, &kind, &x.Language, &x.StartLine, &x.StartColumn, &x.EndLine, &x.EndColumn,
			&x.StartByte, &x.EndByte, &x.Signature, &x.DocComment, &vis, &x.ParentID, &meta); err != nil {
			return err
		}
		k, err := extract.ParseKind(kind)
		if err != nil {
			return err
		}
		x.Kind, x.Path, x.Visibility, x.Metadata = k, f.Path, extract.Visibility(vis), unmarshalMeta(meta)
		f.Symbols = append(f.Symbols, x)
		return nil
	}, `SELECT id, name, kind, language, start_line, start_column, end_line, end_column, start_byte, end_byte,
		signature, doc_comment, visibility, parent_id, metadata FROM symbols WHERE file = (SELECT id FROM files WHERE path = ?) ORDER BY rowid`, f.Path)
}

func (s *Store) loadIdentifiers(ctx context.Context, f *extract.File) error {
	f.Identifiers = []extract.Identifier{}
	blob, err := s.FileBlob(ctx, "identifiers", f.Path)
	if err != nil {
		return err
	}
	return DecodeIdents(blob, nil, func(x extract.Identifier) bool {
		f.Identifiers = append(f.Identifiers, x)
		return true
	})
}

// FileBlob returns the data of the file at path in table (nil: none).
func (s *Store) FileBlob(ctx context.Context, table, path string) ([]byte, error) {
	var blob []byte
	err := s.db.QueryRowContext(ctx, `SELECT t.data FROM `+table+` t JOIN files f ON f.id = t.file WHERE f.path = ?`, path).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return blob, err
}

func (s *Store) loadRelationships(ctx context.Context, f *extract.File) error {
	blob, err := s.FileBlob(ctx, "relationships", f.Path)
	if err != nil {
		return err
	}
	f.Relationships, err = DecodeRels(blob)
	return err
}

func (s *Store) loadTypes(ctx context.Context, f *extract.File) error {
	blob, err := s.FileBlob(ctx, "types", f.Path)
	if err != nil {
		return err
	}
	f.Types, err = DecodeTypes(blob)
	return err
}
