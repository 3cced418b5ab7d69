package python

// Python re-exports: a package's __init__.py (or a module) that imports a name makes it a
// name of the package, so that from flask import jsonify, and flask.jsonify after import
// flask, mean def jsonify of flask/json/__init__.py through flask/__init__.py's from .json
// import jsonify as jsonify. The chain is followed through relative (.json, ..x) and
// absolute from-imports, as aliases and wildcards, maxReexports modules deep, each module
// file once.

import (
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// maxReexports bounds the modules a name is followed through after the one imported.
const maxReexports = 4

// pyReexported returns the one candidate defined in the Python module where (a path: a/b
// for the module a.b, its file a/b.py or a/b/__init__.py, or the package directory a/b),
// else the one that a module file of where imports name from, followed on.
func (r *resolver) pyReexported(where, name string, cands []*resolve.Def) (*resolve.Def, error) {
	return r.pyReexport(where, name, cands, map[string]bool{}, 0)
}

func (r *resolver) pyReexport(where, name string, cands []*resolve.Def, seen map[string]bool, depth int) (*resolve.Def, error) {
	if d := pyPick(cands, where); d != nil {
		return d, nil
	}
	if depth >= maxReexports || len(cands) == 0 {
		return nil, nil
	}
	files, err := r.pyModuleFiles(where)
	if err != nil {
		return nil, err
	}
	var hit []*resolve.Def
	for _, p := range files {
		if seen[p] {
			continue // an import cycle
		}
		seen[p] = true
		mf, err := r.FileOf(p, "python")
		if err != nil {
			return nil, err
		}
		for _, im := range mf.Imports {
			from := pyFrom(im)
			orig := resolve.LastSegment(im.Target, ".")
			switch {
			case from == "":
				continue // import a.b binds a module, not a name
			case im.Wildcard:
				orig = name
			case im.Alias != name && (im.Alias != "" || orig != name):
				continue
			}
			next := cands
			if orig != name { // from .x import helper as name: the definition is named helper
				if next, err = r.pyDefs(orig); err != nil {
					return nil, err
				}
			}
			d, err := r.pyReexport(pyModulePath(from, p), orig, next, seen, depth+1)
			if err != nil {
				return nil, err
			}
			if d != nil {
				hit = append(hit, d)
				break
			}
		}
	}
	return resolve.One(hit), nil
}

// pyFrom returns the module a Python import takes names from: m of from m import x and of
// from m import *, "" for import m.
func pyFrom(im resolve.Import) string {
	if im.Wildcard {
		return im.Target
	}
	return im.Module
}

// pyDefs returns the Python definitions named name.
func (r *resolver) pyDefs(name string) ([]*resolve.Def, error) {
	defs, err := r.Defs(name)
	if err != nil {
		return nil, err
	}
	var out []*resolve.Def
	for i := range defs {
		if defs[i].Language == "python" {
			out = append(out, &defs[i])
		}
	}
	return out, nil
}

// pyModuleFiles returns the paths of the Python files that are the module where (a path
// without extension, maybe a suffix of the workspace path, as pickUnder takes it): where.py
// and where/__init__.py.
func (r *resolver) pyModuleFiles(where string) ([]string, error) {
	where = strings.Trim(where, "/")
	if where == "" || where == "." {
		return nil, nil
	}
	if files, ok := r.pyModules[where]; ok {
		return files, nil
	}
	st, err := r.Store().Stmt(r.Context(), `SELECT path FROM files WHERE language = 'python' AND (path = ?1 OR path = ?2 OR path LIKE ?3 OR path LIKE ?4)`)
	if err != nil {
		return nil, fmt.Errorf("index: files of the Python module %s: %w", where, err)
	}
	pkg, mod := where+"/__init__.py", where+".py"
	var files []string
	err = resolve.EachStmtRow(r.Context(), st, func(rows *sql.Rows) error {
		var p string
		if err := rows.Scan(&p); err != nil {
			return err
		}
		// LIKE's _ matches any character: keep the exact suffixes.
		if p == pkg || p == mod || strings.HasSuffix(p, "/"+pkg) || strings.HasSuffix(p, "/"+mod) {
			files = append(files, p)
		}
		return nil
	}, pkg, mod, "%/"+pkg, "%/"+mod)
	if err != nil {
		return nil, fmt.Errorf("index: files of the Python module %s: %w", where, err)
	}
	if r.pyModules == nil {
		r.pyModules = map[string][]string{}
	}
	r.pyModules[where] = files
	return files, nil
}

// pyModulePath turns a Python module (a.b, .b, ..b) into a path (a/b), relative imports
// against the directory of the importing file.
func pyModulePath(module, from string) string {
	if module == "" {
		return ""
	}
	dots := len(module) - len(strings.TrimLeft(module, "."))
	rest := strings.ReplaceAll(module[dots:], ".", "/")
	if dots == 0 {
		return rest
	}
	dir := path.Dir(from)
	for range dots - 1 {
		dir = path.Dir(dir)
	}
	return path.Join(dir, rest)
}
