package js

// JavaScript and TypeScript aliases: the uses of a definition under another name, which
// refs (reading the files that use the definition's own name) would not see: a module's
// value bound by another name (const validate = require('./config-validator') of
// module.exports = validate10; import build404 from './four-oh-four'), a named import
// renamed (import { a as b }, const { a: b } = require()), and a definition exported under
// another name (module.exports = { existRequest: checkRequestExistence }, exports.x = f,
// export { f as x }) and imported by that name. Each use found is resolved as any use is:
// it counts when resolution ties it to the definition.
//
// The importing files are found from the store's import symbols whose module specifier can
// name the definition's file (its file name, its directory for an index file, a package
// whose entry it is): a query per refs of a top-level JavaScript or TypeScript definition.

import (
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// jsAliasUses returns the uses of the top-level definition def under the names other files
// bind it to, or the module exports it as: each resolved to def.
func (r *resolver) jsAliasUses(def resolve.Def) ([]resolve.Use, error) {
	if def.ParentID != "" && !r.jsIsModuleValue(def) {
		return nil, nil
	}
	var out []resolve.Use
	found := false
	r.jsShared(func(c *jsCache) {
		if c != nil {
			out, found = c.aliases[def.ID]
		}
	})
	if found {
		return out, nil
	}
	out, err := r.jsReadAliasUses(def)
	if err == nil {
		r.jsShared(func(c *jsCache) {
			if c != nil && len(c.aliases) < resolve.CacheMax {
				c.aliases[def.ID] = out
			}
		})
	}
	return out, err
}

// jsReadAliasUses is jsAliasUses, read from the store.
func (r *resolver) jsReadAliasUses(def resolve.Def) ([]resolve.Use, error) {
	exported := r.jsRenamedExports(def) // names the module exports def as
	stem := strings.TrimSuffix(path.Base(def.Path), path.Ext(def.Path))
	stem = strings.TrimSuffix(stem, ".d")
	if stem == "index" {
		stem = path.Base(path.Dir(def.Path))
	}
	// The specifiers that may name def's file: its stem in a path, ".", "..", or the name
	// of a package of the workspace that holds it.
	q := `SELECT f.id, f.path, f.language, s.name, s.metadata FROM symbols s JOIN files f ON f.id = s.file
		WHERE s.kind = 'import' AND (s.name LIKE ?`
	args := []any{"%" + stem + "%"}
	pkgs, err := r.jsPackages()
	if err != nil {
		return nil, err
	}
	noExt := jsStem(def.Path)
	entry := path.Base(noExt) == "index"
	for name, p := range pkgs.byName { // a package whose entry def's file is
		for _, e := range p.entries {
			if jsStem(path.Join(p.dir, e)) == noExt {
				q += " OR s.name = ?"
				args = append(args, name)
				entry = true
				break
			}
		}
	}
	if entry { // require('.'), require('..') of its directory
		q += " OR s.name IN ('.', '..')"
	}
	q += ")"
	type site struct {
		file       int64
		path, lang string
		name       string
		qualified  bool // x.name uses count too (a name the module exports def as)
	}
	type key struct {
		file int64
		name string
	}
	seen := map[key]int{} // index in sites
	var sites []site
	err = r.Store().EachRow(r.Context(), func(rows *sql.Rows) error {
		var s site
		var spec, meta string
		if err := rows.Scan(&s.file, &s.path, &s.lang, &spec, &meta); err != nil {
			return err
		}
		if !jsLang(s.lang) {
			return nil
		}
		m := resolve.MetaMap(meta)
		add := func(n string, qualified bool) {
			if n == "" || n == def.Name || !resolve.IsIdent(n) {
				return
			}
			if i, ok := seen[key{s.file, n}]; ok {
				sites[i].qualified = sites[i].qualified || qualified
				return
			}
			s.name, s.qualified = n, qualified
			seen[key{s.file, n}] = len(sites)
			sites = append(sites, s)
		}
		add(m["alias"], false)
		add(m["default"], false)
		for _, n := range strings.Split(m["names"], ",") {
			orig, local, ok := strings.Cut(strings.TrimSpace(n), " as ")
			orig, local = strings.TrimSpace(orig), strings.TrimSpace(local)
			if !ok {
				local = orig
			}
			if orig == def.Name || exported[orig] {
				add(local, false)
			}
		}
		if m["alias"] != "" || m["default"] != "" { // ns.x of a name x the module exports def as
			for n := range exported {
				add(n, true)
			}
		}
		return nil
	}, q, args...)
	if err != nil {
		return nil, fmt.Errorf("index: aliases of %s: %w", def.Name, err)
	}
	var out []resolve.Use
	one := []*resolve.Def{&def}
	for _, s := range sites {
		fc, err := r.FileOf(s.path, s.lang)
		if err != nil {
			return nil, err
		}
		if !s.qualified { // the name must be bound to def: one lookup before reading the uses
			b, err := r.jsBound(fc, s.name)
			if err != nil {
				return nil, err
			}
			if b.def == nil || b.def.ID != def.ID {
				continue
			}
		} else if ok, err := r.jsReaches(fc, &def, map[string]bool{}, 0); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		uses, err := r.UsesNamed(s.file, s.path, s.name, func(x extract.Identifier) bool { return x.Qualifier == "" || s.qualified })
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			d, why, _, err := r.jsResolve(fc, u, one)
			if err != nil {
				return nil, err
			}
			if d != nil && d.ID == def.ID {
				out = append(out, resolve.Use{Ident: u, Path: s.path, Why: why})
			}
		}
	}
	return out, nil
}

// jsIsModuleValue reports whether def is what its module exports as a whole.
func (r *resolver) jsIsModuleValue(def resolve.Def) bool {
	return strings.Contains(def.Metadata, `"export":`)
}

// jsRenamedExports returns the names the module of def exports def as, other than its own
// (module.exports = { x: def }, exports.x = def, module.exports.x = def, export { def as x }),
// read from the module's lines.
func (r *resolver) jsRenamedExports(def resolve.Def) map[string]bool {
	out := map[string]bool{}
	lines, err := r.Lines(def.Path)
	if err != nil {
		return out
	}
	for _, l := range lines {
		for _, n := range jsExportNames(l, def.Name) {
			out[n] = true
		}
	}
	return out
}

// jsRenamedExport returns the name of the top-level binding of the module file that it
// exports as name under another name ("" when it exports none so).
func (r *resolver) jsRenamedExport(file, name string) string {
	lines, err := r.Lines(file)
	if err != nil {
		return ""
	}
	for _, l := range lines {
		for _, p := range jsExportPairs(l) {
			if p[0] == name && p[1] != name {
				return p[1]
			}
		}
	}
	return ""
}

// jsExportNames returns the names the line exports local as: x of x: local (an entry of an
// object literal), exports.x = local, export { local as x }.
func jsExportNames(line, local string) []string {
	if !strings.Contains(line, local) {
		return nil
	}
	var out []string
	for _, p := range jsExportPairs(line) {
		if p[1] == local && p[0] != local {
			out = append(out, p[0])
		}
	}
	return out
}

// jsExportPairs returns the (exported name, local name) pairs the line states: key: value
// entries of an object literal whose value is an identifier, exports.x = y and
// module.exports.x = y, and x as y of an export clause (y exported as... x local).
func jsExportPairs(line string) [][2]string {
	t := strings.TrimSpace(line)
	var out [][2]string
	for _, p := range []string{"module.exports.", "exports."} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			name, val, ok := strings.Cut(rest, "=")
			val = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), ";"))
			if name = strings.TrimSpace(name); ok && resolve.IsIdent(name) && resolve.IsIdent(val) {
				out = append(out, [2]string{name, val})
			}
			return out
		}
	}
	if rest, ok := strings.CutPrefix(t, "export {"); ok {
		rest, _, _ = strings.Cut(rest, "}")
		for _, n := range strings.Split(rest, ",") {
			if local, name, ok := strings.Cut(strings.TrimSpace(n), " as "); ok && resolve.IsIdent(strings.TrimSpace(local)) && resolve.IsIdent(strings.TrimSpace(name)) {
				out = append(out, [2]string{strings.TrimSpace(name), strings.TrimSpace(local)})
			}
		}
		return out
	}
	// key: value entries (an object literal's, one or more a line)
	t = strings.Trim(t, "{},; \t")
	for _, e := range resolve.SplitTop(t, ',') {
		key, val, ok := strings.Cut(e, ":")
		key = strings.Trim(strings.TrimSpace(key), `'"`)
		val = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(val), "},;"))
		if ok && resolve.IsIdent(key) && resolve.IsIdent(val) && val != "true" && val != "false" && val != "null" && val != "undefined" && val != "this" {
			out = append(out, [2]string{key, val})
		}
	}
	return out
}

// jsStem returns p without its extension (x.d.ts: x).
func jsStem(p string) string {
	p = strings.TrimSuffix(p, path.Ext(p))
	return strings.TrimSuffix(p, ".d")
}
