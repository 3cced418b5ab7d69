package cfamily

import (
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// Hooks are C's and C++'s rules: includes, locals, macros, fields and namespaces first.
func Hooks() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"c", "cpp"},
		Resolve: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			return of(r).cResolve(f, u, cands)
		},
	}
}

// resolver is the core's resolver with C's and C++'s state for the request.
type resolver struct {
	*resolve.Resolver
	cf *cState // C's files and includes (cfamily.go)
}

// stateKey keys the resolver's C's and C++'s state in the core's (Resolver.State).
type stateKey struct{}

// of returns the core's resolver r with C's and C++'s state.
func of(r *resolve.Resolver) *resolver {
	return r.State(stateKey{}, func() any { return &resolver{Resolver: r} }).(*resolver)
}

// Lang reports whether lang is C or C++.
func Lang(lang string) bool { return cLang(lang) }

// Overloads returns the C++ overloads of the function def (the other declarations of its
// name and kind in its scope), which refs weighs a call against (Viable).
func Overloads(r *resolve.Resolver, def *resolve.Def) ([]*resolve.Def, error) {
	return of(r).cppOverloads(def)
}

// Viable reports whether the C++ call u in f can call def, one of a set of overloads whose
// others are sibs.
func Viable(r *resolve.Resolver, f *resolve.File, u extract.Identifier, def *resolve.Def, sibs []*resolve.Def) (bool, error) {
	return of(r).cppViable(f, u, def, sibs)
}

// MacroCovers reports whether a use in f resolved to d is also a use of the C macro def,
// which renames d.
func MacroCovers(r *resolve.Resolver, def, d *resolve.Def, f *resolve.File) bool {
	return of(r).cMacroCovers(def, d, f)
}

// MacroDeclUses returns the expansions of the C macro def in the declarations of the
// function it renames, as uses of it.
func MacroDeclUses(r *resolve.Resolver, def resolve.Def) ([]resolve.Use, error) {
	return of(r).cMacroDeclUses(def)
}
