package nav

import "github.com/quarrysearch/quarry/extract"

// jsHooks are JavaScript's and TypeScript's rules: their own scopes, modules and this first,
// imports by module files, and this: T parameters.
func jsHooks() Hooks {
	return Hooks{
		Languages: []string{"javascript", "typescript", "tsx", "jsx"},
		Resolve: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, bool, error) {
			return r.jsResolve(f, u, cands)
		},
		ImportedAs: func(r *Resolver, f *File, name string, cands []*Def, importing bool) (*Def, error) {
			for _, im := range f.Imports {
				var where string // a module path whose file or directory must hold the definition
				if im.Default == name || jsNamesImport(im.Names, name) || importing && jsNamesImported(im.Names, name) {
					where = jsModulePath(im.Target, f.Path)
				}
				if where == "" {
					continue
				}
				if d := PickUnder(cands, where, false); d != nil {
					return d, nil
				}
			}
			return nil, nil
		},
		InImported: func(r *Resolver, f *File, q, name string, cands []*Def) (*Def, bool, error) {
			for _, im := range f.Imports {
				var where string
				if im.Alias == q || im.Default == q {
					where = jsModulePath(im.Target, f.Path)
				}
				if where == "" {
					continue
				}
				return PickUnder(cands, where, false), true, nil
			}
			return nil, false, nil
		},
		Reachable: func(r *Resolver, f *File, def *Def) (bool, error) {
			return r.jsReachable(f, def)
		},
		This: func(r *Resolver, f *File, fn *Def) (*Def, bool, error) {
			return r.jsDeclaredThis(f, fn)
		},
	}
}
