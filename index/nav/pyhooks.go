package nav

import "github.com/quarrysearch/quarry/extract"

// pyHooks are Python's rules in the generic ones' places: imports through the modules that
// re-export a name, a class body's names, what annotations and values say of a qualifier.
func pyHooks() Hooks {
	return Hooks{
		Languages: []string{"python"},
		ImportRef: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, error) {
			return r.pyImportRef(f, u, cands)
		},
		Bare: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, []*Def, bool, error) {
			if cands = pyBefore(f, u, cands); len(cands) == 0 {
				return nil, "", nil, true, nil
			}
			if d, err := r.pyClassBody(u, cands); d != nil || err != nil { // a class's body sees the class's names
				return d, ResolvedScope, cands, true, err
			}
			return nil, "", cands, false, nil
		},
		Typed: func(r *Resolver, f *File, u extract.Identifier, q string, isPath bool, cands []*Def) (*Def, string, bool, error) {
			d, err := r.pyTyped(f, u, q, cands) // what Python's annotations and values say, or nothing
			if d == nil || err != nil {
				return nil, "", true, err
			}
			return d, ResolvedReceiver, true, nil
		},
		ImportedAs: func(r *Resolver, f *File, name string, cands []*Def, importing bool) (*Def, error) {
			for _, im := range f.Imports {
				var where string // a module path whose file or directory must hold the definition
				from := pyFrom(im)
				if im.Alias == name || im.Alias == "" && LastSegment(im.Target, ".") == name && im.Module != "" || im.Wildcard && !importing {
					where = pyModulePath(from, f.Path)
				}
				if where == "" {
					continue
				}
				orig := name
				if !im.Wildcard {
					orig = LastSegment(im.Target, ".")
				}
				if d, err := r.pyReexported(where, orig, cands); d != nil || err != nil {
					return d, err
				}
			}
			return nil, nil
		},
		InImported: func(r *Resolver, f *File, q, name string, cands []*Def) (*Def, bool, error) {
			for _, im := range f.Imports {
				var where string
				switch {
				case im.Alias == q:
					where = pyModulePath(im.Target, f.Path)
				case im.Alias == "" && im.Module == "" && im.Target == q && !im.Wildcard:
					where = pyModulePath(q, f.Path)
				case im.Alias == "" && im.Module != "" && LastSegment(im.Target, ".") == q:
					where = pyModulePath(im.Target, f.Path) // from pkg import module
				}
				if where == "" {
					continue
				}
				d, err := r.pyReexported(where, name, cands)
				return d, true, err
			}
			return nil, false, nil
		},
		Reachable: func(r *Resolver, f *File, def *Def) (bool, error) {
			one := []*Def{def}
			for _, im := range f.Imports {
				for _, m := range []string{im.Module, im.Target} {
					if m == "" {
						continue
					}
					if d, err := r.pyReexported(pyModulePath(m, f.Path), def.Name, one); d != nil || err != nil {
						return d != nil, err
					}
				}
			}
			return false, nil
		},
	}
}
