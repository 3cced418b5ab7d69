package golang

import (
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// Hooks are Go's rules in the generic ones' places: a bare name's scopes, the member Go
// selects in a qualifier's type, imported packages by the go.mod's module path.
func Hooks() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"go"},
		Bare: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, []*resolve.Def, bool, error) {
			d, why, err := of(r).goBare(f, u, cands) // a local hides the package's
			return d, why, cands, true, err
		},
		Qualified: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, bool, error) {
			// a package's name, not hidden by a local, is left to the import rule (a type's
			// qualifier is always one)
			if strings.HasSuffix(u.Qualifier, "::") || u.Kind == extract.TypeUsage {
				return nil, false, nil
			}
			return of(r).goQualified(f, u, cands)
		},
		InImported: func(r *resolve.Resolver, f *resolve.File, q, name string, cands []*resolve.Def) (*resolve.Def, bool, error) {
			for _, im := range f.Imports {
				if (im.Alias == q || im.Alias == "" && resolve.LastSegment(im.Target, "/") == q) && im.Target != "" {
					d, err := of(r).goImported(im.Target, cands)
					return d, true, err
				}
			}
			return nil, false, nil
		},
		Reachable: func(r *resolve.Resolver, f *resolve.File, def *resolve.Def) (bool, error) {
			if f.Dir == path.Dir(def.Path) {
				return true, nil
			}
			one := []*resolve.Def{def}
			for _, im := range f.Imports {
				if d, err := of(r).goImported(im.Target, one); d != nil || err != nil {
					return d != nil, err
				}
			}
			return false, nil
		},
	}
}

// resolver is the core's resolver with Go's state for the request.
type resolver struct {
	*resolve.Resolver
	goc   *goState // Go's expressions and types (gochain.go)
	goMod *string  // the go.mod's module path (goModulePath)
}

// stateKey keys the resolver's Go's state in the core's (Resolver.State).
type stateKey struct{}

// of returns the core's resolver r with Go's state.
func of(r *resolve.Resolver) *resolver {
	return r.State(stateKey{}, func() any { return &resolver{Resolver: r} }).(*resolver)
}
