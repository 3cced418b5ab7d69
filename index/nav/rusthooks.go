package nav

import (
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// rustHooks are Rust's rules: modules, paths and impl blocks first, use declarations, and a
// path to a module's function.
func rustHooks() Hooks {
	return Hooks{
		Languages: []string{"rust"},
		Resolve: func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, string, bool, error) {
			return r.rustResolve(f, u, cands)
		},
		ImportedAs: func(r *Resolver, f *File, name string, cands []*Def, importing bool) (*Def, error) {
			for _, im := range f.Imports {
				var where string // a module path whose file or directory must hold the definition
				if im.Alias == name || im.Alias == "" && LastSegment(im.Target, "::") == name {
					where = rustModulePath(strings.TrimSuffix(im.Target, "::"+name))
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
				if im.Alias == q || im.Alias == "" && LastSegment(im.Target, "::") == q {
					where = rustModulePath(im.Target)
				}
				if where == "" {
					continue
				}
				return PickUnder(cands, where, false), true, nil
			}
			return nil, false, nil
		},
		Typed: func(r *Resolver, f *File, u extract.Identifier, q string, isPath bool, cands []*Def) (*Def, string, bool, error) {
			if isPath && !IsUpper(LastSegment(q, "::")) { // toml::parse, crate::a::b::f
				if d := PickUnder(cands, rustModulePath(q), false); d != nil {
					return d, ResolvedQualified, true, nil
				}
			}
			return nil, "", false, nil
		},
	}
}
