package js

// JavaScript and TypeScript modules: the files a module specifier names and what a module
// exports, as Node and the TypeScript compiler find them, so that a name an import binds
// (ES import, CommonJS require, TypeScript import = require) means the definition the module
// exports under that name, through the barrels that re-export it.
//
// A specifier names files of the workspace: a relative one (./x, ../y/z, ., ..) the file
// with or without its extension (x.ts, x.tsx, x.d.ts, x.js, x.jsx, x.mjs, x.cjs; ./x.js also
// x.ts, as TypeScript reads it), or the directory's index file, or the entry of the
// directory's package.json; a bare one (fastify, @scope/pkg/sub) a package whose
// package.json is in the workspace: its exports (".", "./sub"), module, main or types entry,
// or the file under its directory.
//
// A module exports a name when one of its top-level definitions is exported under it
// (export, export default, exports.x =, module.exports = {x}), when it is a member of the
// module's value (module.exports = X: X's members, statics and prototype methods), or
// when the module re-exports it (export {x} from, export {y as x} from, export * from, an
// import of the name it exports again); re-exports are followed maxJSReexports modules deep,
// each module once.
//
// What is read is cached for the store's generation (jsCache: the files a specifier names
// from a directory, the workspace's packages), beside the navCache: an edit drops it whole,
// and the next request reads again only the specifiers and package.json files it meets,
// one query per specifier.

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// maxJSReexports bounds the modules a name is followed through after the one imported.
const maxJSReexports = 6

// jsLang reports whether lang is JavaScript's or TypeScript's.
func jsLang(lang string) bool {
	switch lang {
	case "javascript", "typescript", "tsx", "jsx":
		return true
	}
	return false
}

// jsLangOf returns the language of a JavaScript or TypeScript file by its extension.
func jsLangOf(p string) string {
	switch path.Ext(p) {
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "tsx"
	}
	return "javascript"
}

// jsExts are the extensions a specifier without one may stand for, in TypeScript's order.
var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsState is what JavaScript resolution read for one request.
type jsState struct {
	mods    map[string][]string       // module files by importing directory and specifier
	exports map[string]*jsWholeExport // by file: what it exports as a whole
	locals  map[string]bool           // by function id and name: the function binds the name
	reach   map[string]bool           // by importing file and definition path (jsReachable)
	// returned are the objects factory functions return, by the function's id (jsReturned)
	returned map[string]*resolve.Def
	// blockEnd is where the block around an indented top-level definition closes, by file
	// and line (jsVisible)
	blockEnd map[string]int
	depths   map[string][]int // blocks open at each line's start, by file (jsDepths)
}

// jsWholeExport is what a module exports as a whole: its value (module.exports = X, export
// = X; module the one a bare use means of merged declarations, modules all of them) and its
// default export (export default X).
type jsWholeExport struct {
	module, deflt *resolve.Def
	modules       []*resolve.Def
}

// jsCacheKey is the jsCache's key among the store's extensions.
type jsCacheKey struct{}

// jsCache is what JavaScript module resolution read from a store, for the generation gen.
type jsCache struct {
	mu      sync.Mutex
	gen     int64
	mods    map[string][]string      // module files by importing directory and specifier
	pkgs    *jsPackages              // nil: not read
	aliases map[string][]resolve.Use // the uses of a definition under other names, by its id
}

// jsPackages are the workspace's package.json files.
type jsPackages struct {
	byName map[string]*jsPackage
	byDir  map[string]*jsPackage
}

// jsPackage is one package.json: its directory, the entries of the package itself (exports
// ".", module, main, types: paths relative to dir) and its subpath exports ("./sub").
type jsPackage struct {
	dir     string
	entries []string
	subpath map[string]string
}

func (r *resolver) jsState() *jsState {
	if r.js == nil {
		r.js = &jsState{mods: map[string][]string{}, exports: map[string]*jsWholeExport{}, locals: map[string]bool{}, reach: map[string]bool{}}
	}
	return r.js
}

// jsShared runs fn on the store's jsCache when it is of r's generation (after emptying it
// for a new one), under its lock; fn gets nil when r does not cache.
func (r *resolver) jsShared(fn func(c *jsCache)) {
	if r.Generation() < 0 {
		fn(nil)
		return
	}
	c := r.Store().Extension(jsCacheKey{}, func() any { return new(jsCache) }).(*jsCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != r.Generation() || c.mods == nil || len(c.mods) > resolve.CacheMax {
		c.gen, c.mods, c.pkgs, c.aliases = r.Generation(), map[string][]string{}, nil, map[string][]resolve.Use{}
	}
	fn(c)
}

// jsModuleFiles returns the files of the workspace the specifier spec names when the file
// at from imports it, best first (none: a package outside the workspace, a builtin).
func (r *resolver) jsModuleFiles(spec, from string) ([]string, error) {
	st := r.jsState()
	dir := path.Dir(from)
	key := dir + "\x00" + spec
	if files, ok := st.mods[key]; ok {
		return files, nil
	}
	var files []string
	found := false
	r.jsShared(func(c *jsCache) {
		if c != nil {
			files, found = c.mods[key]
		}
	})
	if found {
		st.mods[key] = files
		return files, nil
	}
	bases, err := r.jsBases(spec, dir)
	if err != nil {
		return nil, err
	}
	var want []string
	for _, b := range bases {
		want = append(want, jsCandidates(b)...)
	}
	if files, err = r.existingFiles(want); err != nil {
		return nil, err
	}
	st.mods[key] = files
	r.jsShared(func(c *jsCache) {
		if c != nil {
			c.mods[key] = files
		}
	})
	return files, nil
}

// jsBases returns the paths (files, or directories) spec names from the directory dir.
func (r *resolver) jsBases(spec, dir string) ([]string, error) {
	spec = strings.TrimSpace(spec)
	var bases []string
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		bases = []string{path.Join(dir, spec)}
	case spec == "" || strings.HasPrefix(spec, "/") || strings.Contains(spec, ":"): // node:fs, an absolute path
		return nil, nil
	default:
		pkgs, err := r.jsPackages()
		if err != nil {
			return nil, err
		}
		name, sub := spec, ""
		for {
			if p := pkgs.byName[name]; p != nil {
				if sub == "" {
					for _, e := range p.entries {
						bases = append(bases, path.Join(p.dir, e))
					}
					bases = append(bases, p.dir)
				} else if t, ok := p.subpath["./"+sub]; ok {
					bases = append(bases, path.Join(p.dir, t))
				} else {
					bases = append(bases, path.Join(p.dir, sub))
				}
				return bases, nil
			}
			i := strings.LastIndexByte(name, '/')
			if i <= 0 {
				return nil, nil
			}
			name, sub = name[:i], strings.TrimPrefix(name[i:]+"/"+sub, "/")
			sub = strings.TrimSuffix(sub, "/")
		}
	}
	// A directory's package.json names its entry.
	pkgs, err := r.jsPackages()
	if err != nil {
		return nil, err
	}
	if p := pkgs.byDir[bases[0]]; p != nil {
		var entries []string
		for _, e := range p.entries {
			entries = append(entries, path.Join(p.dir, e))
		}
		bases = append(entries, bases...)
	}
	return bases, nil
}

// jsCandidates returns the files base may be, in TypeScript's order: itself with its
// extension (for x.js, x.ts, x.tsx and x.d.ts first, as TypeScript reads ./x.js), else with
// each extension, then the index files of the directory base.
func jsCandidates(base string) []string {
	var out []string
	if base != "." && base != "" {
		switch ext := path.Ext(base); ext {
		case ".js", ".jsx", ".mjs", ".cjs": // TypeScript reads ./x.js as x.ts first
			stem := strings.TrimSuffix(base, ext)
			switch ext {
			case ".mjs":
				out = append(out, stem+".mts", stem+".d.mts")
			case ".cjs":
				out = append(out, stem+".cts", stem+".d.cts")
			default:
				out = append(out, stem+".ts", stem+".tsx", stem+".d.ts")
			}
			out = append(out, base)
		case ".ts", ".tsx", ".mts", ".cts":
			out = append(out, base)
		default:
			for _, e := range jsExts {
				out = append(out, base+e)
			}
		}
	}
	idx := path.Join(base, "index")
	for _, e := range jsExts {
		out = append(out, idx+e)
	}
	return out
}

// existingFiles returns the paths among want that are files of the store, in want's order.
func (r *resolver) existingFiles(want []string) ([]string, error) {
	if len(want) == 0 {
		return nil, nil
	}
	var q strings.Builder
	args := make([]any, len(want))
	q.WriteString(`SELECT path FROM files WHERE path IN (`)
	for i, w := range want {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteByte('?')
		args[i] = strings.TrimPrefix(w, "./")
	}
	q.WriteByte(')')
	have := map[string]bool{}
	err := r.Store().EachRow(r.Context(), func(rows *sql.Rows) error {
		var p string
		err := rows.Scan(&p)
		have[p] = true
		return err
	}, q.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("index: module files: %w", err)
	}
	var out []string
	for _, a := range args {
		if p := a.(string); have[p] {
			out = append(out, p)
			delete(have, p)
		}
	}
	return out, nil
}

// jsPackages returns the workspace's package.json files (node_modules left out).
func (r *resolver) jsPackages() (*jsPackages, error) {
	var pkgs *jsPackages
	r.jsShared(func(c *jsCache) {
		if c != nil {
			pkgs = c.pkgs
		}
	})
	if pkgs != nil {
		return pkgs, nil
	}
	pkgs = &jsPackages{byName: map[string]*jsPackage{}, byDir: map[string]*jsPackage{}}
	var paths []string
	err := r.Store().EachRow(r.Context(), func(rows *sql.Rows) error {
		var p string
		err := rows.Scan(&p)
		if !strings.Contains(p, "node_modules/") {
			paths = append(paths, p)
		}
		return err
	}, `SELECT path FROM files WHERE path = 'package.json' OR path LIKE '%/package.json'`)
	if err != nil {
		return nil, fmt.Errorf("index: packages: %w", err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if path.Base(p) != "package.json" {
			continue
		}
		content, err := r.Store().Content(r.Context(), p)
		if err != nil || len(content) == 0 {
			continue // a package.json the store holds no text of names nothing
		}
		pkg, name := parsePackageJSON(content)
		if pkg == nil {
			continue
		}
		pkg.dir = path.Dir(p)
		pkgs.byDir[pkg.dir] = pkg
		if name != "" && pkgs.byName[name] == nil {
			pkgs.byName[name] = pkg
		}
	}
	r.jsShared(func(c *jsCache) {
		if c != nil {
			c.pkgs = pkgs
		}
	})
	return pkgs, nil
}

// parsePackageJSON reads a package.json: the package and its name; nil when it is not JSON.
func parsePackageJSON(content []byte) (*jsPackage, string) {
	var m struct {
		Name    string          `json:"name"`
		Main    string          `json:"main"`
		Module  string          `json:"module"`
		Types   string          `json:"types"`
		Typings string          `json:"typings"`
		Exports json.RawMessage `json:"exports"`
	}
	if json.Unmarshal(content, &m) != nil {
		return nil, ""
	}
	p := &jsPackage{subpath: map[string]string{}}
	if len(m.Exports) > 0 {
		var exports any
		if json.Unmarshal(m.Exports, &exports) == nil {
			if obj, ok := exports.(map[string]any); ok && jsSubpaths(obj) {
				for k, v := range obj {
					if t := jsExportTarget(v); t != "" {
						if k == "." {
							p.entries = append(p.entries, t)
						} else {
							p.subpath[k] = t
						}
					}
				}
			} else if t := jsExportTarget(exports); t != "" {
				p.entries = append(p.entries, t)
			}
		}
	}
	for _, e := range []string{m.Types, m.Typings, m.Main, m.Module} { // TypeScript's order
		if e != "" {
			p.entries = append(p.entries, e)
		}
	}
	return p, m.Name
}

// jsSubpaths reports whether an exports object maps subpaths (".", "./x") rather than
// conditions (import, require, default).
func jsSubpaths(obj map[string]any) bool {
	for k := range obj {
		return strings.HasPrefix(k, ".")
	}
	return false
}

// jsExportTarget returns the file an exports entry names: a string, or the first of the
// conditions types, import, require, node, default that names one.
func jsExportTarget(v any) string {
	switch t := v.(type) {
	case string:
		if strings.Contains(t, "*") {
			return ""
		}
		return t
	case []any:
		for _, e := range t {
			if s := jsExportTarget(e); s != "" {
				return s
			}
		}
	case map[string]any:
		for _, c := range []string{"types", "import", "require", "node", "default"} {
			if s := jsExportTarget(t[c]); s != "" {
				return s
			}
		}
	}
	return ""
}

// jsDefs returns the JavaScript and TypeScript definitions named name.
func (r *resolver) jsDefs(name string) ([]*resolve.Def, error) {
	defs, err := r.Defs(name)
	if err != nil {
		return nil, err
	}
	var out []*resolve.Def
	for i := range defs {
		if jsLang(defs[i].Language) {
			out = append(out, &defs[i])
		}
	}
	return out, nil
}

// jsWhole returns what the module file exports as a whole (module.exports = X, export
// default X).
func (r *resolver) jsWhole(file string) (*jsWholeExport, error) {
	st := r.jsState()
	if w, ok := st.exports[file]; ok {
		return w, nil
	}
	w := &jsWholeExport{}
	stmt, err := r.Store().Stmt(r.Context(), `SELECT `+resolve.DefColumns+` FROM symbols s JOIN files f ON f.id = s.file
		WHERE f.path = ? AND s.parent_id = '' AND s.kind != 'import' AND s.metadata LIKE '%"export":%'`)
	if err != nil {
		return nil, fmt.Errorf("index: exports of %s: %w", file, err)
	}
	err = resolve.EachStmtRow(r.Context(), stmt, func(rows *sql.Rows) error {
		var d resolve.Def
		if err := resolve.ScanDef(rows.Scan, &d); err != nil {
			return err
		}
		switch resolve.MetaMap(d.Metadata)["export"] {
		case "module":
			w.modules = append(w.modules, &d)
		case "default":
			if w.deflt == nil {
				w.deflt = &d
			}
		}
		return nil
	}, file)
	if err != nil {
		return nil, fmt.Errorf("index: exports of %s: %w", file, err)
	}
	w.module = jsPick(w.modules)
	st.exports[file] = w
	return w, nil
}

// jsDefault returns the default export of the module file: its export default, else its
// value (module.exports = X, what a default import of CommonJS gives), else what it
// re-exports as default.
func (r *resolver) jsDefault(file string, seen map[string]bool, depth int) (*resolve.Def, error) {
	w, err := r.jsWhole(file)
	if err != nil {
		return nil, err
	}
	if w.deflt != nil {
		return w.deflt, nil
	}
	if w.module != nil {
		return w.module, nil
	}
	return r.jsReexported(file, "default", nil, seen, depth)
}

// jsExport returns the definition among cands (definitions named name) that the module
// file exports as name, nil when it exports none of them.
func (r *resolver) jsExport(file, name string, cands []*resolve.Def, seen map[string]bool, depth int) (*resolve.Def, error) {
	if name == "default" {
		d, err := r.jsDefault(file, seen, depth)
		if d == nil || err != nil || cands == nil {
			return d, err
		}
		for _, c := range cands {
			if c.ID == d.ID {
				return d, nil
			}
		}
		return nil, nil
	}
	var top []*resolve.Def
	for _, d := range cands {
		if d.Path == file && d.ParentID == "" && d.Name == name && (d.Visibility == string(extract.Public) || strings.HasSuffix(file, ".d.ts")) &&
			!strings.Contains(d.Metadata, `"export":"default"`) { // export default f exports default, not f
			top = append(top, d)
		}
	}
	if d := jsPick(top); d != nil && !jsObjectEntry(d) {
		return d, nil
	}
	if v := r.jsRenamedExport(file, name); v != "" { // module.exports = { name: v }: v's definition
		vs, err := r.jsDefs(v)
		if err != nil {
			return nil, err
		}
		var local []*resolve.Def
		for _, d := range vs {
			if d.Path == file && d.ParentID == "" && jsBareName(d) {
				local = append(local, d)
			}
		}
		if d := jsPick(local); d != nil {
			return d, nil
		}
	}
	if d := jsPick(top); d != nil {
		return d, nil
	}
	w, err := r.jsWhole(file)
	if err != nil {
		return nil, err
	}
	for _, m := range w.modules { // module.exports = X: X's members
		if d, err := r.jsMember(*m, cands); d != nil || err != nil {
			return d, err
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	return r.jsReexported(file, name, cands, seen, depth)
}

// jsReexported returns the definition among cands that the module file exports as name by
// re-exporting it: export {x} from, export {y as x} from, export * from, or an import of
// the name (import {x} from, const {x} = require(), import x from) that it exports again.
// cands nil: any definition (for default).
func (r *resolver) jsReexported(file, name string, cands []*resolve.Def, seen map[string]bool, depth int) (*resolve.Def, error) {
	if depth >= maxJSReexports || seen[file] {
		return nil, nil
	}
	seen[file] = true
	fc, err := r.FileOf(file, jsLangOf(file))
	if err != nil {
		return nil, err
	}
	for _, im := range fc.Imports {
		orig := ""
		switch {
		case jsNamesImport(im.Names, name):
			orig = jsOriginal(im.Names, name)
		case im.Default == name:
			orig = "default"
		case im.Wildcard && name != "default":
			orig = name
		default:
			continue
		}
		next := cands
		if orig != name && orig != "default" {
			if next, err = r.jsDefs(orig); err != nil {
				return nil, err
			}
		}
		if orig == "default" {
			next = nil
		}
		files, err := r.jsModuleFiles(im.Target, file)
		if err != nil {
			return nil, err
		}
		for _, mf := range files {
			d, err := r.jsExport(mf, orig, next, seen, depth+1)
			if err != nil {
				return nil, err
			}
			if d != nil && (cands == nil || orig == "default" && jsAmong(d, cands) || orig != "default") {
				if orig != name && cands != nil && !jsAmong(d, cands) {
					return nil, nil // exported under another name than the definition's
				}
				return d, nil
			}
		}
	}
	return nil, nil
}

// jsPick returns the definition a use means among defs: the only one (or the first of
// overloads), or of the declarations TypeScript merges (a function or class and a
// namespace or interface of one name in one file), the function or class.
func jsPick(defs []*resolve.Def) *resolve.Def {
	if d := resolve.One(defs); d != nil || len(defs) == 0 {
		return d
	}
	var pick *resolve.Def
	for _, d := range defs {
		if d.Path != defs[0].Path || d.ParentID != defs[0].ParentID {
			return nil
		}
		if k, _ := extract.KindNamed(d.Kind); k.IsCallable() || k == extract.Class {
			if pick != nil && !resolve.Overloads(pick, d) {
				return nil
			}
			if pick == nil {
				pick = d
			}
		}
	}
	return pick
}

// jsAmong reports whether d is one of cands (or an overload of one).
func jsAmong(d *resolve.Def, cands []*resolve.Def) bool {
	for _, c := range cands {
		if resolve.Overloads(c, d) {
			return true
		}
	}
	return false
}

// jsOriginal returns the name the named imports "a, b as c" import as name: b for c.
func jsOriginal(names, name string) string {
	for _, n := range strings.Split(names, ",") {
		orig, alias, ok := strings.Cut(strings.TrimSpace(n), " as ")
		if ok && strings.TrimSpace(alias) == name || !ok && orig == name {
			return strings.TrimSpace(orig)
		}
	}
	return name
}

// jsMember returns the one candidate that t.x means, for x a candidate: a class's or a
// function's static member (a class's bases' too), not its instances' (a prototype method,
// a member of the object a function returns); an object literal's key, a namespace's or an
// enum's member.
func (r *resolver) jsMember(t resolve.Def, cands []*resolve.Def) (*resolve.Def, error) {
	class := t.Kind == extract.Class.String()
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID != t.ID {
			continue
		}
		if (class || t.Kind == extract.Function.String()) && !strings.Contains(d.Metadata, `"static":"true"`) {
			continue // an instance's member (a prototype method, the object a function returns), or a local
		}
		hit = append(hit, d)
	}
	if d := resolve.One(hit); d != nil || len(hit) > 0 {
		return d, nil
	}
	if d, err := r.jsAssignedMember(t, cands); d != nil || err != nil {
		return d, err
	}
	if !class {
		return nil, nil
	}
	tf, err := r.FileOf(t.Path, t.Language)
	if err != nil {
		return nil, err
	}
	return r.Inherited(tf, t, cands, 0)
}

// jsBinding is what an import of a file binds a name to: a definition (a named import, a
// default import, a require of a module whose value is a definition) or a module (a
// namespace import, a require of a module that exports names).
type jsBinding struct {
	def    *resolve.Def
	merged []*resolve.Def // the declarations TypeScript merges with def (a module's value)
	module []string       // the module's files
	bound  bool           // an import binds the name
}

// jsBound returns what the imports of f bind the name to.
func (r *resolver) jsBound(f *resolve.File, name string) (jsBinding, error) {
	for _, im := range f.Imports {
		var orig string
		switch {
		case jsNamesImport(im.Names, name):
			orig = jsOriginal(im.Names, name)
		case im.Default == name:
			orig = "default"
		case im.Alias == name:
			orig = "*"
		default:
			continue
		}
		files, err := r.jsModuleFiles(im.Target, f.Path)
		if err != nil || len(files) == 0 {
			return jsBinding{bound: true}, err
		}
		for _, mf := range files {
			var d *resolve.Def
			switch orig {
			case "*": // the module: its value when it is a definition
				w, err := r.jsWhole(mf)
				if err != nil {
					return jsBinding{}, err
				}
				if w.module == nil {
					return jsBinding{module: files, bound: true}, nil
				}
				return jsBinding{def: w.module, merged: w.modules, bound: true}, nil
			case "default":
				if d, err = r.jsDefault(mf, map[string]bool{}, 0); err != nil {
					return jsBinding{}, err
				}
			default:
				cands, err := r.jsDefs(orig)
				if err != nil {
					return jsBinding{}, err
				}
				if d, err = r.jsExport(mf, orig, cands, map[string]bool{}, 0); err != nil {
					return jsBinding{}, err
				}
				if d == nil { // export * as orig from "m": a module
					if ns, err := r.jsNamespace(mf, orig, map[string]bool{}, 0); ns != nil || err != nil {
						return jsBinding{module: ns, bound: true}, err
					}
				}
			}
			if d != nil {
				return jsBinding{def: d, bound: true}, nil
			}
		}
		return jsBinding{bound: true}, nil
	}
	return jsBinding{}, nil
}

// jsReachable reports whether a use in f can mean the top-level definition def: def is in
// f, or in a module f imports, or in one that such a module re-exports def's name from
// (maxJSReexports deep). It answers true for what it cannot tell.
func (r *resolver) jsReachable(f *resolve.File, def *resolve.Def) (bool, error) {
	if f.Path == def.Path {
		return true, nil
	}
	st := r.jsState()
	key := f.Path + "\x00" + def.ID
	if ok, known := st.reach[key]; known {
		return ok, nil
	}
	ok, err := r.jsReaches(f, def, map[string]bool{}, 0)
	if err == nil {
		st.reach[key] = ok
	}
	return ok, err
}

func (r *resolver) jsReaches(f *resolve.File, def *resolve.Def, seen map[string]bool, depth int) (bool, error) {
	if seen[f.Path] || depth > maxJSReexports {
		return false, nil
	}
	seen[f.Path] = true
	for _, im := range f.Imports {
		// Past the importing file, only what re-exports the name leads on.
		if depth > 0 && !im.Wildcard && !jsNamesImport(im.Names, def.Name) && !jsNamesImported(im.Names, def.Name) && im.Default == "" {
			continue
		}
		files, err := r.jsModuleFiles(im.Target, f.Path)
		if err != nil {
			return false, err
		}
		for _, mf := range files {
			if mf == def.Path {
				return true, nil
			}
			mc, err := r.FileOf(mf, jsLangOf(mf))
			if err != nil {
				return false, err
			}
			if ok, err := r.jsReaches(mc, def, seen, depth+1); err != nil || ok {
				return ok, err
			}
		}
	}
	return false, nil
}

// jsAssignedMember returns the top-level definition of t's file among cands that a
// statement T.x = x of the file makes a member of t (the name assigned to itself defines no
// member: module.exports = Request; Request.buildRequest = buildRequest).
func (r *resolver) jsAssignedMember(t resolve.Def, cands []*resolve.Def) (*resolve.Def, error) {
	var top []*resolve.Def
	for _, d := range cands {
		if d.Path == t.Path && d.ParentID == "" {
			top = append(top, d)
		}
	}
	d := resolve.One(top)
	if d == nil {
		return nil, nil
	}
	lines, err := r.Lines(t.Path)
	if err != nil {
		return nil, err
	}
	want := t.Name + "." + d.Name
	for _, l := range lines {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, want)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if v, ok := strings.CutPrefix(rest, "="); ok && !strings.HasPrefix(v, "=") && strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), ";")) == d.Name {
			return d, nil
		}
	}
	return nil, nil
}

// jsNamespace returns the files of the module that the module file exports as name (export
// * as name from "m", or a namespace import or require of m it exports again, or a name it
// re-exports from a module that does so), nil when it exports no module as name.
func (r *resolver) jsNamespace(file, name string, seen map[string]bool, depth int) ([]string, error) {
	if depth >= maxJSReexports || seen[file] {
		return nil, nil
	}
	seen[file] = true
	fc, err := r.FileOf(file, jsLangOf(file))
	if err != nil {
		return nil, err
	}
	for _, im := range fc.Imports {
		switch {
		case im.Alias == name && (im.Reexport || r.jsExportsName(file, name)):
			return r.jsModuleFiles(im.Target, file)
		case im.Reexport && (jsNamesImport(im.Names, name) || im.Wildcard && name != "default"):
			files, err := r.jsModuleFiles(im.Target, file)
			if err != nil {
				return nil, err
			}
			for _, mf := range files {
				if ns, err := r.jsNamespace(mf, jsOriginal(im.Names, name), seen, depth+1); ns != nil || err != nil {
					return ns, err
				}
			}
		}
	}
	return nil, nil
}

// jsExportsName reports whether the file exports its binding name again (export { name },
// module.exports = { name }): its text has name exported by an export clause or an object
// literal of module.exports; read from the identifiers of the file is not needed, the
// lines say it.
func (r *resolver) jsExportsName(file, name string) bool {
	lines, err := r.Lines(file)
	if err != nil {
		return false
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if (strings.HasPrefix(t, "export {") || strings.HasPrefix(t, "module.exports")) && resolve.WordIn(t, name) {
			return true
		}
	}
	return false
}

// jsModulePath turns a relative JS/TS import source ("./x", "../y/z") into a workspace path
// without extension; a package import ("react") gives "" (not in the workspace).
func jsModulePath(src, from string) string {
	if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		return ""
	}
	p := path.Join(path.Dir(from), src)
	return strings.TrimSuffix(p, path.Ext(p))
}

// jsNamesImport reports whether the named imports "a, b as c" bind name.
func jsNamesImport(names, name string) bool {
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		orig, alias, ok := strings.Cut(n, " as ")
		if ok && strings.TrimSpace(alias) == name || !ok && orig == name {
			return true
		}
	}
	return false
}

// jsNamesImported reports whether the named imports "a, b as c" import the name (a or b).
func jsNamesImported(names, name string) bool {
	for _, n := range strings.Split(names, ",") {
		orig, _, _ := strings.Cut(strings.TrimSpace(n), " as ")
		if strings.TrimSpace(orig) == name {
			return true
		}
	}
	return false
}
