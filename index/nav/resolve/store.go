package resolve

// The store access resolution shares: definitions' rows, the symbols of a parent, the files
// using a name and its uses in a file, and the resolver's store, context and cached uses.

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// DefColumns are the columns of a Def, in scanDef's order (s: symbols, f: files).
const DefColumns = `s.id, f.path, s.name, s.kind, s.language, s.start_line, s.end_line, s.parent_id, s.signature, s.doc_comment, s.visibility, s.metadata`

// ScanDef scans the defColumns of a row into d.
func ScanDef(scan func(...any) error, d *Def) error {
	return scan(&d.ID, &d.Path, &d.Name, &d.Kind, &d.Language, &d.Line, &d.EndLine, &d.ParentID, &d.Signature, &d.DocComment, &d.Visibility, &d.Metadata)
}

// EachStmtRow runs the prepared statement st with args and calls scan for each row.
func EachStmtRow(ctx context.Context, st *sql.Stmt, scan func(*sql.Rows) error, args ...any) error {
	rows, err := st.QueryContext(ctx, args...)
	return store.ScanEach(rows, err, scan)
}

// Children returns the symbols whose parent is def, in source order (imports excluded).
func Children(ctx context.Context, s *store.Store, def Def) ([]Def, error) {
	var out []Def
	err := s.EachRow(ctx, func(rows *sql.Rows) error {
		var d Def
		if err := ScanDef(rows.Scan, &d); err != nil {
			return err
		}
		out = append(out, d)
		return nil
	}, `SELECT `+DefColumns+` FROM symbols s JOIN files f ON f.id = s.file
		WHERE f.path = ? AND s.parent_id = ? AND s.kind != 'import' ORDER BY s.start_line`, def.Path, def.ID)
	if err != nil {
		return nil, fmt.Errorf("index: children of %s: %w", def.Name, err)
	}
	return out, nil
}

// FileUsing is a file that uses a name (identifier_names).
type FileUsing struct {
	ID         int64
	Path, Lang string
}

// FilesUsing returns the files that use name, by path.
func FilesUsing(ctx context.Context, s *store.Store, name string) ([]FileUsing, error) {
	var files []FileUsing
	err := s.EachRow(ctx, func(rows *sql.Rows) error {
		var f FileUsing
		err := rows.Scan(&f.ID, &f.Path, &f.Lang)
		files = append(files, f)
		return err
	}, `SELECT f.id, f.path, f.language FROM identifier_names n JOIN files f ON f.id = n.file
		WHERE n.name = ? ORDER BY f.path`, name)
	return files, err
}

// Use is a use of a definition that refs finds apart from the files using its name (under
// another name, in a macro's expansion), resolved to it, with why.
type Use struct {
	Ident extract.Identifier
	Path  string
	Why   string
}

// UsesNamed returns the uses of name in the file id (at path) that keep takes, read from
// its identifiers: none when the file has none.
func (r *Resolver) UsesNamed(id int64, path, name string, keep func(extract.Identifier) bool) ([]extract.Identifier, error) {
	var blob []byte
	err := r.s.DB().QueryRowContext(r.ctx, `SELECT data FROM identifiers WHERE file = ?`, id).Scan(&blob)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: uses of %s in %s: %w", name, path, err)
	}
	var uses []extract.Identifier
	err = store.DecodeIdents(blob, func(n string) bool { return n == name }, func(x extract.Identifier) bool {
		if keep(x) {
			uses = append(uses, x)
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("index: uses of %s in %s: %w", name, path, err)
	}
	return uses, nil
}

// ResolvedUse is a use of a name and the definition it resolves to (nil: none), with why.
type ResolvedUse struct {
	Ident extract.Identifier
	Def   *Def
	Why   string
}

// Store returns the store r reads.
func (r *Resolver) Store() *store.Store { return r.s }

// Context returns the request's context.
func (r *Resolver) Context() context.Context { return r.ctx }

// Generation returns the store generation r caches for (-1: none).
func (r *Resolver) Generation() int64 { return r.gen }

// Children returns the symbols whose parent is t, in source order (imports excluded).
func (r *Resolver) Children(t Def) ([]Def, error) { return Children(r.ctx, r.s, t) }

// FilesUsing returns the files that use name, by path.
func (r *Resolver) FilesUsing(name string) ([]FileUsing, error) { return FilesUsing(r.ctx, r.s, name) }

// CachedUses returns the uses of name in the file id, resolved, as the store's cache holds
// them for r's generation (ok false: not held).
func (r *Resolver) CachedUses(id int64, name string) (uses []ResolvedUse, ok bool) {
	r.shared(func(c *navCache) {
		if c != nil {
			uses, ok = c.uses[fileName{id, name}]
		}
	})
	return uses, ok
}

// CacheUses keeps the uses of name in the file id, resolved, in the store's cache for r's
// generation.
func (r *Resolver) CacheUses(id int64, name string, uses []ResolvedUse) {
	r.shared(func(c *navCache) {
		if c != nil {
			c.uses[fileName{id, name}] = uses
			c.nUses += len(uses) + 1
		}
	})
}
