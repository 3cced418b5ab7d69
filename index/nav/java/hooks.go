package java

import (
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// Java are Java's rules: javac's scopes, types, imports and overloads first, and the
// files a package's definitions are reachable from.
func Java() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"java"},
		Resolve: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			return of(r).javaResolve(f, u, cands)
		},
		Reachable: func(r *resolve.Resolver, f *resolve.File, def *resolve.Def) (bool, error) {
			pk, err := r.PkgOf(def.Path, def.Language)
			if err != nil {
				return false, err
			}
			if pk != "" && pk == f.Pkg {
				return true, nil
			}
			one := []*resolve.Def{def}
			for _, im := range f.Imports {
				p := strings.ReplaceAll(strings.TrimSuffix(im.Target, ".*"), ".", "/")
				if resolve.PickUnder(one, p, false) != nil {
					return true, nil
				}
			}
			return false, nil
		},
	}
}

// CSharp are C#'s rules: Java's reading of scopes, types and overloads with C#'s namespaces
// and usings, and a using alias naming a type.
func CSharp() resolve.Hooks {
	return resolve.Hooks{
		Languages: []string{"csharp"},
		Resolve: func(r *resolve.Resolver, f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
			return of(r).javaResolve(f, u, cands)
		},
		TypeNamed: func(r *resolve.Resolver, f *resolve.File, name, qual string) (*resolve.Def, bool, error) {
			if qual != "" {
				return nil, false, nil
			}
			for _, im := range f.Imports { // using A = N.T;: A names T
				if im.Alias == name {
					d, err := of(r).javaTypePath(f.Lang, im.Target)
					return d, true, err
				}
			}
			return nil, false, nil
		},
	}
}

// resolver is the core's resolver with Java's and C#'s state for the request.
type resolver struct {
	*resolve.Resolver
	javaBasesOf map[string]javaBaseSet // Java types' bases, by the type's id (java.go)
	csParts     map[string][]string    // the declarations of C# partial types, by a part's id (csharp.go)
}

// stateKey keys the resolver's Java's and C#'s state in the core's (Resolver.State).
type stateKey struct{}

// of returns the core's resolver r with Java's and C#'s state.
func of(r *resolve.Resolver) *resolver {
	return r.State(stateKey{}, func() any { return &resolver{Resolver: r} }).(*resolver)
}

// RefersTo reports whether a use resolved to d (why) is a use of def: in Java and C#, the
// overload it picked itself (an import names them all); else d or an overload of it.
func RefersTo(d, def *resolve.Def, why string) bool { return refersTo(d, def, why) }

// Parts returns the ids of the declarations of the type t: t's own, and in C# every part of
// a partial type.
func Parts(r *resolve.Resolver, t resolve.Def) ([]string, error) { return of(r).javaParts(t) }

// AttributeUses returns the uses of the C# attribute class def by its name without the
// Attribute suffix.
func AttributeUses(r *resolve.Resolver, def resolve.Def) ([]resolve.Use, error) {
	return of(r).csAttributeUses(def)
}

// CallArgCount returns the number of arguments of the call whose name is the use u in f, as
// Java's tokens read them; ok false when the call's argument list is not read.
func CallArgCount(r *resolve.Resolver, f *resolve.File, u extract.Identifier) (n int, ok bool, err error) {
	args, ok, err := of(r).javaCallArgs(f, u)
	return len(args), ok, err
}

// Params returns the part of a method's signature from its name on (its parameter list).
func Params(d *resolve.Def) string { return javaParams(d) }
