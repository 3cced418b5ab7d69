package rust

import (
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// Hooks are Rust's rules: modules, paths and impl blocks first, use declarations, and a
// path to a module's function.
func Hooks() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"rust"},
		Resolve: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			return of(r).rustResolve(f, u, cands)
		},
		ImportedAs: func(r *resolve.Resolver, f *resolve.File, name string, cands []*resolve.Def, importing bool) (*resolve.Def, error) {
			for _, im := range f.Imports {
				var where string // a module path whose file or directory must hold the definition
				if im.Alias == name || im.Alias == "" && resolve.LastSegment(im.Target, "::") == name {
					where = rustModulePath(strings.TrimSuffix(im.Target, "::"+name))
				}
				if where == "" {
					continue
				}
				if d := resolve.PickUnder(cands, where, false); d != nil {
					return d, nil
				}
			}
			return nil, nil
		},
		InImported: func(r *resolve.Resolver, f *resolve.File, q, name string, cands []*resolve.Def) (*resolve.Def, bool, error) {
			for _, im := range f.Imports {
				var where string
				if im.Alias == q || im.Alias == "" && resolve.LastSegment(im.Target, "::") == q {
					where = rustModulePath(im.Target)
				}
				if where == "" {
					continue
				}
				return resolve.PickUnder(cands, where, false), true, nil
			}
			return nil, false, nil
		},
		Typed: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, q string, isPath bool, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			if isPath && !resolve.IsUpper(resolve.LastSegment(q, "::")) { // toml::parse, crate::a::b::f
				if d := resolve.PickUnder(cands, rustModulePath(q), false); d != nil {
					return d, resolve.ResolvedQualified, true, nil
				}
			}
			return nil, "", false, nil
		},
	}
}

// resolver is the core's resolver with Rust's state for the request.
type resolver struct {
	*resolve.Resolver
	rs *rustState // Rust's modules (rust.go)
}

// stateKey keys the resolver's Rust's state in the core's (Resolver.State).
type stateKey struct{}

// of returns the core's resolver r with Rust's state.
func of(r *resolve.Resolver) *resolver {
	return r.State(stateKey{}, func() any { return &resolver{Resolver: r} }).(*resolver)
}
