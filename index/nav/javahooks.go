package nav

import (
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// javaHooks are Java's rules: javac's scopes, types, imports and overloads first, and the
// files a package's definitions are reachable from.
func javaHooks() Hooks {
	return Hooks{
		Languages: []string{"java"},
		Resolve: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, bool, error) {
			return r.javaResolve(f, u, cands)
		},
		Reachable: func(r *Resolver, f *File, def *Def) (bool, error) {
			pk, err := r.PkgOf(def.Path, def.Language)
			if err != nil {
				return false, err
			}
			if pk != "" && pk == f.Pkg {
				return true, nil
			}
			one := []*Def{def}
			for _, im := range f.Imports {
				p := strings.ReplaceAll(strings.TrimSuffix(im.Target, ".*"), ".", "/")
				if PickUnder(one, p, false) != nil {
					return true, nil
				}
			}
			return false, nil
		},
	}
}

// csHooks are C#'s rules: Java's reading of scopes, types and overloads with C#'s namespaces
// and usings, and a using alias naming a type.
func csHooks() Hooks {
	return Hooks{
		Languages: []string{"csharp"},
		Resolve: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, bool, error) {
			return r.javaResolve(f, u, cands)
		},
		TypeNamed: func(r *Resolver, f *File, name, qual string) (*Def, bool, error) {
			if qual != "" {
				return nil, false, nil
			}
			for _, im := range f.Imports { // using A = N.T;: A names T
				if im.Alias == name {
					d, err := r.javaTypePath(f.Lang, im.Target)
					return d, true, err
				}
			}
			return nil, false, nil
		},
	}
}
