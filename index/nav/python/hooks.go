package python

import (
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// Hooks are Python's rules in the generic ones' places: imports through the modules that
// re-export a name, a class body's names, what annotations and values say of a qualifier.
func Hooks() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"python"},
		ImportRef: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, error) {
			return of(r).pyImportRef(f, u, cands)
		},
		Bare: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, []*resolve.Def, bool, error) {
			if cands = pyBefore(f, u, cands); len(cands) == 0 {
				return nil, "", nil, true, nil
			}
			if d, err := of(r).pyClassBody(u, cands); d != nil || err != nil { // a class's body sees the class's names
				return d, resolve.ResolvedScope, cands, true, err
			}
			return nil, "", cands, false, nil
		},
		Typed: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, q string, isPath bool, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			d, err := of(r).pyTyped(f, u, q, cands) // what Python's annotations and values say, or nothing
			if d == nil || err != nil {
				return nil, "", true, err
			}
			return d, resolve.ResolvedReceiver, true, nil
		},
		ImportedAs: func(r *resolve.Resolver, f *resolve.File, name string, cands []*resolve.Def, importing bool) (*resolve.Def, error) {
			for _, im := range f.Imports {
				var where string // a module path whose file or directory must hold the definition
				from := pyFrom(im)
				if im.Alias == name || im.Alias == "" && resolve.LastSegment(im.Target, ".") == name && im.Module != "" || im.Wildcard && !importing {
					where = pyModulePath(from, f.Path)
				}
				if where == "" {
					continue
				}
				orig := name
				if !im.Wildcard {
					orig = resolve.LastSegment(im.Target, ".")
				}
				if d, err := of(r).pyReexported(where, orig, cands); d != nil || err != nil {
					return d, err
				}
			}
			return nil, nil
		},
		InImported: func(r *resolve.Resolver, f *resolve.File, q, name string, cands []*resolve.Def) (*resolve.Def, bool, error) {
			for _, im := range f.Imports {
				var where string
				switch {
				case im.Alias == q:
					where = pyModulePath(im.Target, f.Path)
				case im.Alias == "" && im.Module == "" && im.Target == q && !im.Wildcard:
					where = pyModulePath(q, f.Path)
				case im.Alias == "" && im.Module != "" && resolve.LastSegment(im.Target, ".") == q:
					where = pyModulePath(im.Target, f.Path) // from pkg import module
				}
				if where == "" {
					continue
				}
				d, err := of(r).pyReexported(where, name, cands)
				return d, true, err
			}
			return nil, false, nil
		},
		Reachable: func(r *resolve.Resolver, f *resolve.File, def *resolve.Def) (bool, error) {
			one := []*resolve.Def{def}
			for _, im := range f.Imports {
				for _, m := range []string{im.Module, im.Target} {
					if m == "" {
						continue
					}
					if d, err := of(r).pyReexported(pyModulePath(m, f.Path), def.Name, one); d != nil || err != nil {
						return d != nil, err
					}
				}
			}
			return false, nil
		},
	}
}

// resolver is the core's resolver with Python's state for the request.
type resolver struct {
	*resolve.Resolver
	pyModules  map[string][]string          // Python module files, by module path (pyModuleFiles)
	pyTypes    map[string]map[string]string // Python variables' annotations, by path and id (pyDeclared)
	pyMemos    map[string]*resolve.Def      // Python types from returns and callers' arguments (pyMemo)
	pyBusy     map[string]bool              // the pyMemos being computed
	pyCuts     int                          // the times a bound cut the search for a Python type short
	pyArgDepth int                          // parameters being typed from their calls (pyArgType)
}

// stateKey keys the resolver's Python's state in the core's (Resolver.State).
type stateKey struct{}

// of returns the core's resolver r with Python's state.
func of(r *resolve.Resolver) *resolver {
	return r.State(stateKey{}, func() any { return &resolver{Resolver: r} }).(*resolver)
}
