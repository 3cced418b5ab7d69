package nav

import (
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// goHooks are Go's rules in the generic ones' places: a bare name's scopes, the member Go
// selects in a qualifier's type, imported packages by the go.mod's module path.
func goHooks() Hooks {
	return Hooks{
		Languages: []string{"go"},
		Bare: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, []*Def, bool, error) {
			d, why, err := r.goBare(f, u, cands) // a local hides the package's
			return d, why, cands, true, err
		},
		Qualified: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, bool, error) {
			// a package's name, not hidden by a local, is left to the import rule (a type's
			// qualifier is always one)
			if strings.HasSuffix(u.Qualifier, "::") || u.Kind == extract.TypeUsage {
				return nil, false, nil
			}
			return r.goQualified(f, u, cands)
		},
		InImported: func(r *Resolver, f *File, q, name string, cands []*Def) (*Def, bool, error) {
			for _, im := range f.Imports {
				if (im.Alias == q || im.Alias == "" && LastSegment(im.Target, "/") == q) && im.Target != "" {
					d, err := r.goImported(im.Target, cands)
					return d, true, err
				}
			}
			return nil, false, nil
		},
		Reachable: func(r *Resolver, f *File, def *Def) (bool, error) {
			if f.Dir == path.Dir(def.Path) {
				return true, nil
			}
			one := []*Def{def}
			for _, im := range f.Imports {
				if d, err := r.goImported(im.Target, one); d != nil || err != nil {
					return d != nil, err
				}
			}
			return false, nil
		},
	}
}
