package nav

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
)

// Children returns the symbols whose parent is def, in source order (imports excluded).
func (s Reader) Children(ctx context.Context, def Def) ([]Def, error) {
	return resolve.Children(ctx, s.Store, def)
}

// Implementations returns the types that extend or implement the type def (their extends
// and implements relationships name it and resolve to it), and for a method of a type, the
// methods of the same name in the types that extend or implement its type: overrides.
func (s Reader) Implementations(ctx context.Context, def Def) ([]Def, error) {
	r := newResolver(ctx, s)
	target, method := &def, ""
	if !resolve.IsTypeKind(def.Kind) {
		p, err := r.Symbol(def.ParentID)
		if err != nil || p == nil || !resolve.IsTypeKind(p.Kind) {
			return nil, err
		}
		target, method = p, def.Name
	}
	subs, err := s.subtypes(ctx, r, *target)
	if err != nil || method == "" {
		return subs, err
	}
	var out []Def
	for _, t := range subs {
		kids, err := s.Children(ctx, t)
		if err != nil {
			return nil, err
		}
		for _, k := range kids {
			if k.Name == method {
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// subtypes returns the types whose extends or implements relationships resolve to t.
func (s Reader) subtypes(ctx context.Context, r *resolve.Resolver, t Def) ([]Def, error) {
	files, err := resolve.FilesUsing(ctx, s.Store, t.Name)
	if err != nil {
		return nil, fmt.Errorf("index: subtypes of %s: %w", t.Name, err)
	}
	var out []Def
	seen := map[string]bool{}
	for _, f := range files {
		if !resolve.SameFamily(f.Lang, t.Language) {
			continue
		}
		var blob []byte
		err := s.DB().QueryRowContext(ctx, `SELECT data FROM relationships WHERE file = ?`, f.ID).Scan(&blob)
		if err == sql.ErrNoRows || len(blob) == 0 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("index: relationships of %s: %w", f.Path, err)
		}
		rels, err := store.DecodeRels(blob)
		if err != nil {
			return nil, fmt.Errorf("index: relationships of %s: %w", f.Path, err)
		}
		fc, err := r.FileOf(f.Path, f.Lang)
		if err != nil {
			return nil, err
		}
		for _, rel := range rels {
			if rel.Kind != extract.Extends && rel.Kind != extract.Implements || seen[rel.FromID] {
				continue
			}
			if name, _ := resolve.SplitQualified(resolve.BaseTypeName(rel.To)); name != t.Name {
				continue
			}
			from, err := r.Symbol(rel.FromID)
			if err != nil {
				return nil, err
			}
			if from == nil {
				continue
			}
			d, err := r.TypeNamed(fc, rel.To, from.ParentID)
			if err != nil {
				return nil, err
			}
			if d != nil && d.ID == t.ID {
				seen[rel.FromID] = true
				out = append(out, *from)
			}
		}
	}
	return out, nil
}

// NamesWithPrefix returns up to limit distinct names of definitions (imports excluded)
// whose lower case starts with prefix (lower case), by the lower(name) index.
func (s Reader) NamesWithPrefix(ctx context.Context, prefix string, limit int) ([]string, error) {
	hi := prefix + "\U0010FFFF"
	names, err := s.Strings(ctx, `SELECT DISTINCT name FROM symbols WHERE lower(name) >= ? AND lower(name) < ? AND kind != 'import' LIMIT ?`, prefix, hi, limit)
	if err != nil {
		return nil, fmt.Errorf("index: names starting %q: %w", prefix, err)
	}
	return names, nil
}
