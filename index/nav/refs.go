package nav

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/cfamily"
	"github.com/quarrysearch/quarry/index/nav/java"
	"github.com/quarrysearch/quarry/index/nav/js"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
)

// Ref is one use of a name: an identifier the extractor recorded (a call, a variable or
// type reference, a member access, an import), with the symbol that contains it.
type Ref struct {
	Path          string
	Line, Column  int
	Kind          string // call, variable_ref, type_usage, member_access, import
	Container     string // the name of the containing symbol, "" at the top level
	ContainerKind string
	ContainerID   string // its symbol id
	Text          string // the line
}

// Refs returns the uses of name, by path and line, skipping offset and at most limit of
// them, and how many there are in all. kinds, when not empty, keeps those kinds only.
//
// identifier_names says which files use name, how often and with which kinds; only the
// blobs of the files whose uses are returned, or whose count depends on kinds, are decoded.
func (s Reader) Refs(ctx context.Context, name string, kinds []string, offset, limit int) ([]Ref, int, error) {
	var want uint32 // the kinds kept, as identifier_names.kinds bits; 0: all
	for _, k := range kinds {
		var ik extract.IdentKind
		if err := ik.UnmarshalText([]byte(k)); err != nil {
			return nil, 0, fmt.Errorf("index: references to %q: %w", name, err)
		}
		want |= 1 << ik
	}
	type fileUses struct {
		id          int64
		path        string
		uses, kinds int
	}
	var files []fileUses
	err := s.EachRow(ctx, func(rows *sql.Rows) error {
		var f fileUses
		err := rows.Scan(&f.id, &f.path, &f.uses, &f.kinds)
		files = append(files, f)
		return err
	}, `SELECT f.id, f.path, n.uses, n.kinds FROM identifier_names n JOIN files f ON f.id = n.file
		WHERE n.name = ? ORDER BY f.path`, name)
	if err != nil {
		return nil, 0, fmt.Errorf("index: references to %q: %w", name, err)
	}
	var out []Ref
	var containers []string // the containing symbol's id of each of out
	total := 0
	for _, f := range files {
		kinds := uint32(f.kinds)
		if want != 0 && kinds&want == 0 {
			continue
		}
		all := want == 0 || kinds&^want == 0 // every use of the file is kept
		if all && (total+f.uses <= offset || len(out) >= limit) {
			total += f.uses // counted without decoding
			continue
		}
		var blob []byte
		if err := s.DB().QueryRowContext(ctx, `SELECT data FROM identifiers WHERE file = ?`, f.id).Scan(&blob); err != nil {
			return nil, 0, fmt.Errorf("index: references to %q in %s: %w", name, f.path, err)
		}
		type use struct {
			ref       Ref
			container string
		}
		var refs []use
		err := store.DecodeIdents(blob, func(n string) bool { return n == name }, func(x extract.Identifier) bool {
			if want == 0 || want&(1<<x.Kind) != 0 {
				refs = append(refs, use{Ref{Path: f.path, Line: x.StartLine, Column: x.StartColumn, Kind: x.Kind.String()}, x.ContainingSymbolID})
			}
			return true
		})
		if err != nil {
			return nil, 0, fmt.Errorf("index: references to %q in %s: %w", name, f.path, err)
		}
		slices.SortStableFunc(refs, func(a, b use) int {
			return cmp.Or(cmp.Compare(a.ref.Line, b.ref.Line), cmp.Compare(a.ref.Column, b.ref.Column))
		})
		for i := range refs {
			if total+i >= offset && len(out) < limit {
				out, containers = append(out, refs[i].ref), append(containers, refs[i].container)
			}
		}
		total += len(refs)
	}
	if err := s.addContainers(ctx, out, containers); err != nil {
		return nil, 0, err
	}
	return out, total, s.addRefText(ctx, out)
}

// addContainers fills in the name and kind of each reference's containing symbol, given
// by id (ids[i] for refs[i]; "": none).
func (s Reader) addContainers(ctx context.Context, refs []Ref, ids []string) error {
	type sym struct{ name, kind string }
	known := map[string]sym{}
	for i := range refs {
		r, id := &refs[i], ids[i]
		if id == "" {
			continue
		}
		c, ok := known[id]
		if !ok {
			err := s.DB().QueryRowContext(ctx, `SELECT name, kind FROM symbols WHERE id = ?`, id).Scan(&c.name, &c.kind)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("index: symbol %s: %w", id, err)
			}
			known[id] = c
		}
		r.Container, r.ContainerKind = c.name, c.kind
		if c.name != "" {
			r.ContainerID = id
		}
	}
	return nil
}

// addRefText fills in the line of each reference, reading each file once.
func (s Reader) addRefText(ctx context.Context, refs []Ref) error {
	var lines [][]byte
	path := ""
	for i := range refs {
		r := &refs[i]
		if r.Path != path {
			content, err := s.Content(ctx, r.Path)
			if err != nil {
				return err
			}
			lines, path = bytes.Split(content, []byte("\n")), r.Path
		}
		if r.Line >= 1 && r.Line <= len(lines) {
			r.Text = store.LineText(bytes.TrimSpace(lines[r.Line-1]))
		}
	}
	return nil
}

// SymbolRef is a use of a name with what resolution says of it: Resolution is the rule that
// decided it means the definition asked about (resolve.go), "" for a use no rule decided.
type SymbolRef struct {
	Ref
	Resolution string
}

// RefsQuery is what SymbolRefs lists: uses of these kinds (none: all), with the unresolved
// ones too, the page (Offset, Limit), and whether each use gets its line's text.
type RefsQuery struct {
	Kinds      []string
	Unresolved bool
	Offset     int
	Limit      int
	NoText     bool
}

// SymbolRefs returns the uses of the definition def: the ones resolution says mean it
// (Resolution set), and, with q.Unresolved, the uses of its name that resolve to nothing,
// after them. Uses that resolve to another definition are left out. Within each part they are
// ordered by path, line and column; q's offset and limit page the whole list, total counts it.
func (s Reader) SymbolRefs(ctx context.Context, def Def, q RefsQuery) ([]SymbolRef, int, error) {
	kinds, unresolved, offset, limit := q.Kinds, q.Unresolved, q.Offset, q.Limit
	var want uint32
	for _, k := range kinds {
		var ik extract.IdentKind
		if err := ik.UnmarshalText([]byte(k)); err != nil {
			return nil, 0, fmt.Errorf("index: references to %s: %w", def.Name, err)
		}
		want |= 1 << ik
	}
	files, err := resolve.FilesUsing(ctx, s.Store, def.Name)
	if err != nil {
		return nil, 0, fmt.Errorf("index: references to %s: %w", def.Name, err)
	}
	r := newResolver(ctx, s)
	// With other definitions of the name in def's language family, no use resolves to def as
	// the only one: a file that cannot reach def (reachable) is skipped unread, unless the
	// caller wants the unresolved uses too.
	cands, err := r.Defs(def.Name)
	if err != nil {
		return nil, 0, err
	}
	family := familyOf(cands, def.Language)
	prune := len(family) > 1 && !unresolved && resolve.One(family) == nil
	blobStmt, err := s.Stmt(ctx, `SELECT data FROM identifiers WHERE file = ?`)
	if err != nil {
		return nil, 0, fmt.Errorf("index: references to %s: %w", def.Name, err)
	}
	sibs, err := cfamily.Overloads(r, &def) // a C++ call weighs only the overloads it can call
	if err != nil {
		return nil, 0, err
	}
	parts := []string{def.ID} // a C# partial type is one type in all its parts
	if def.Language == "csharp" && resolve.IsTypeKind(def.Kind) {
		if parts, err = java.Parts(r, def); err != nil {
			return nil, 0, err
		}
	}
	type use struct {
		ref       SymbolRef
		container string
	}
	var resolved, open []use
	for _, f := range files {
		if !resolve.SameFamily(f.Lang, def.Language) {
			continue
		}
		fc, err := r.FileOf(f.Path, f.Lang)
		if err != nil {
			return nil, 0, err
		}
		if prune {
			if ok, err := r.Reachable(fc, &def); err != nil {
				return nil, 0, err
			} else if !ok {
				continue
			}
		}
		named, cached := r.CachedUses(f.ID, def.Name) // every use of the name in the file, resolved
		if !cached {
			var blob []byte
			if err := blobStmt.QueryRowContext(ctx, f.ID).Scan(&blob); err != nil {
				return nil, 0, fmt.Errorf("index: references to %s in %s: %w", def.Name, f.Path, err)
			}
			err := store.DecodeIdents(blob, func(n string) bool { return n == def.Name }, func(x extract.Identifier) bool {
				named = append(named, resolve.ResolvedUse{Ident: x})
				return true
			})
			if err != nil {
				return nil, 0, fmt.Errorf("index: references to %s in %s: %w", def.Name, f.Path, err)
			}
			slices.SortStableFunc(named, func(a, b resolve.ResolvedUse) int {
				return cmp.Or(cmp.Compare(a.Ident.StartLine, b.Ident.StartLine), cmp.Compare(a.Ident.StartColumn, b.Ident.StartColumn))
			})
			// One use per place: an extractor may record a name twice (a call and the
			// member access it is).
			named = slices.CompactFunc(named, func(a, b resolve.ResolvedUse) bool { return a.Ident.StartByte == b.Ident.StartByte })
			for i := range named {
				d, why, err := r.Resolve(fc, named[i].Ident)
				if err != nil {
					return nil, 0, err
				}
				named[i].Def, named[i].Why = d, why
			}
			r.CacheUses(f.ID, def.Name, named)
		}
		for _, u := range named {
			x, d, why := u.Ident, u.Def, u.Why
			if want != 0 && want&(1<<x.Kind) == 0 {
				continue
			}
			ref := Ref{Path: f.Path, Line: x.StartLine, Column: x.StartColumn, Kind: x.Kind.String()}
			viable := true
			if d != nil && len(sibs) > 0 {
				if viable, err = cfamily.Viable(r, fc, x, &def, sibs); err != nil {
					return nil, 0, err
				}
			}
			switch {
			case d != nil && (java.RefersTo(d, &def, why) || slices.Contains(parts, d.ID)) && viable:
				resolved = append(resolved, use{SymbolRef{ref, why}, x.ContainingSymbolID})
			case d != nil && cfamily.MacroCovers(r, &def, d, fc): // a macro renaming a function (cfamily.go)
				resolved = append(resolved, use{SymbolRef{ref, resolve.ResolvedImport}, x.ContainingSymbolID})
			case d == nil && unresolved:
				open = append(open, use{SymbolRef{Ref: ref}, x.ContainingSymbolID})
			}
		}
	}
	// uses resolution finds apart from the files using the name: JavaScript's under an
	// importer's other name (jsalias.go), a C macro's expansions in the declarations of the
	// name it renames (cfamily.go), a C# attribute class's name without its suffix (csharp.go)
	var more []resolve.Use
	switch {
	case js.Lang(def.Language):
		more, err = js.AliasUses(r, def)
	case cfamily.Lang(def.Language):
		more, err = cfamily.MacroDeclUses(r, def)
	case def.Language == "csharp":
		more, err = java.AttributeUses(r, def)
	}
	if err != nil {
		return nil, 0, err
	}
	for _, a := range more {
		if want == 0 || want&(1<<a.Ident.Kind) != 0 {
			ref := Ref{Path: a.Path, Line: a.Ident.StartLine, Column: a.Ident.StartColumn, Kind: a.Ident.Kind.String()}
			resolved = append(resolved, use{SymbolRef{ref, a.Why}, a.Ident.ContainingSymbolID})
		}
	}
	if len(more) > 0 {
		slices.SortStableFunc(resolved, func(a, b use) int {
			return cmp.Or(cmp.Compare(a.ref.Path, b.ref.Path), cmp.Compare(a.ref.Line, b.ref.Line), cmp.Compare(a.ref.Column, b.ref.Column))
		})
	}
	all := append(resolved, open...)
	total := len(all)
	if offset > total {
		offset = total
	}
	page := all[offset:min(total, offset+limit)]
	refs := make([]Ref, len(page))
	for i, u := range page {
		refs[i] = u.ref.Ref
		c, err := r.Symbol(u.container)
		if err != nil {
			return nil, 0, err
		}
		if c != nil {
			refs[i].Container, refs[i].ContainerKind, refs[i].ContainerID = c.Name, c.Kind, c.ID
		}
	}
	if !q.NoText {
		if err := s.addRefText(ctx, refs); err != nil {
			return nil, 0, err
		}
	}
	out := make([]SymbolRef, len(page))
	for i, u := range page {
		out[i] = SymbolRef{Ref: refs[i], Resolution: u.ref.Resolution}
	}
	return out, total, nil
}

// Definitions returns the definitions named name (imports excluded), by path and line.
func (s Reader) Definitions(ctx context.Context, name string) ([]Def, error) {
	return newResolver(ctx, s).Defs(name)
}

// Definition returns the symbol with the id id, nil if there is none.
func (s Reader) Definition(ctx context.Context, id string) (*Def, error) {
	return newResolver(ctx, s).Symbol(id)
}

// DefinitionAt returns the innermost definition of the file at path whose lines hold line
// (imports excluded), nil if none does.
func (s Reader) DefinitionAt(ctx context.Context, path string, line int) (*Def, error) {
	var id string
	err := s.DB().QueryRowContext(ctx, `SELECT s.id FROM symbols s JOIN files f ON f.id = s.file
		WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? AND s.kind != 'import'
		ORDER BY s.start_line DESC, s.end_line ASC LIMIT 1`, path, line, line).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: definition at %s:%d: %w", path, line, err)
	}
	return s.Definition(ctx, id)
}

// Call is a call found by Callees: the call's position in the caller and the definition it
// resolves to (nil: no rule decided, Name says what was called).
type Call struct {
	Name         string
	Line, Column int
	Target       *Def
	Resolution   string
}

// Callees returns the calls made directly inside the body of def (not inside a nested
// symbol), in order, each resolved as refs resolves a use.
func (s Reader) Callees(ctx context.Context, def Def) ([]Call, error) {
	var blob []byte
	var lang string
	err := s.DB().QueryRowContext(ctx, `SELECT coalesce(i.data, x''), f.language FROM files f LEFT JOIN identifiers i ON i.file = f.id WHERE f.path = ?`, def.Path).Scan(&blob, &lang)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: calls of %s: %w", def.Name, err)
	}
	var uses []extract.Identifier
	err = store.DecodeIdents(blob, nil, func(x extract.Identifier) bool {
		if x.Kind == extract.Call && x.ContainingSymbolID == def.ID {
			uses = append(uses, x)
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("index: calls of %s: %w", def.Name, err)
	}
	r := newResolver(ctx, s)
	fc, err := r.FileOf(def.Path, lang)
	if err != nil {
		return nil, err
	}
	out := make([]Call, 0, len(uses))
	for _, x := range uses {
		d, why, err := r.Resolve(fc, x)
		if err != nil {
			return nil, err
		}
		out = append(out, Call{Name: x.Name, Line: x.StartLine, Column: x.StartColumn, Target: d, Resolution: why})
	}
	return out, nil
}

// familyOf returns the definitions among defs in lang's family.
func familyOf(defs []Def, lang string) []*Def {
	var out []*Def
	for i := range defs {
		if resolve.SameFamily(defs[i].Language, lang) {
			out = append(out, &defs[i])
		}
	}
	return out
}
