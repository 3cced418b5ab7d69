package js

import (
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// Hooks are JavaScript's and TypeScript's rules: their own scopes, modules and this first,
// imports by module files, and this: T parameters.
func Hooks() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"javascript", "typescript", "tsx", "jsx"},
		Resolve: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			return of(r).jsResolve(f, u, cands)
		},
		ImportedAs: func(r *resolve.Resolver, f *resolve.File, name string, cands []*resolve.Def, importing bool) (*resolve.Def, error) {
			for _, im := range f.Imports {
				var where string // a module path whose file or directory must hold the definition
				if im.Default == name || jsNamesImport(im.Names, name) || importing && jsNamesImported(im.Names, name) {
					where = jsModulePath(im.Target, f.Path)
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
				if im.Alias == q || im.Default == q {
					where = jsModulePath(im.Target, f.Path)
				}
				if where == "" {
					continue
				}
				return resolve.PickUnder(cands, where, false), true, nil
			}
			return nil, false, nil
		},
		Reachable: func(r *resolve.Resolver, f *resolve.File, def *resolve.Def) (bool, error) {
			return of(r).jsReachable(f, def)
		},
		This: func(r *resolve.Resolver, f *resolve.File, fn *resolve.Def) (*resolve.Def, bool, error) {
			return of(r).jsDeclaredThis(f, fn)
		},
	}
}

// resolver is the core's resolver with JavaScript's and TypeScript's state for the request.
type resolver struct {
	*resolve.Resolver
	js *jsState // JavaScript's modules (jsmodule.go)
}

// stateKey keys the resolver's JavaScript's and TypeScript's state in the core's (Resolver.State).
type stateKey struct{}

// of returns the core's resolver r with JavaScript's and TypeScript's state.
func of(r *resolve.Resolver) *resolver {
	return r.State(stateKey{}, func() any { return &resolver{Resolver: r} }).(*resolver)
}

// Lang reports whether lang is JavaScript or TypeScript (with JSX).
func Lang(lang string) bool { return jsLang(lang) }

// AliasUses returns the uses of the top-level definition def under the names other files
// bind it to, or the module exports it as: each resolved to def.
func AliasUses(r *resolve.Resolver, def resolve.Def) ([]resolve.Use, error) {
	return of(r).jsAliasUses(def)
}
