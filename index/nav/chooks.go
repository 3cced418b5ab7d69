package nav

import "github.com/quarrysearch/quarry/extract"

// cHooks are C's and C++'s rules: includes, locals, macros, fields and namespaces first.
func cHooks() Hooks {
	return Hooks{
		Languages: []string{"c", "cpp"},
		Resolve: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, bool, error) {
			return r.cResolve(f, u, cands)
		},
	}
}
