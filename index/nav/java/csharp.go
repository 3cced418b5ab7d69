package java

import (
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// C#'s names resolve by java.go's rules (javaLike); what differs is here: namespaces, which
// are not files' packages but blocks (namespace A.B { } in many files), using directives,
// and partial types.

// csNamespaceOf returns the dotted name of the namespaces d is declared in (A.B for a type in
// namespace A { namespace B { } }, "" for one in no namespace), "\x00" (no namespace's
// name) when d is nested in a type or a callable.
func (r *resolver) csNamespaceOf(d *resolve.Def) (string, error) {
	var parts []string
	for id := d.ParentID; id != ""; {
		p, err := r.Symbol(id)
		if err != nil || p == nil {
			return "", err
		}
		if p.Kind != extract.Namespace.String() {
			return "\x00", nil // not a namespace's member: no top-level type
		}
		parts = append(parts, p.Name)
		id = p.ParentID
	}
	slices.Reverse(parts)
	return strings.Join(parts, "."), nil
}

// csEnclosingNamespaces returns the namespaces a use inside chain (innermost symbol first) is
// in, innermost first: A.B.C, A.B, A for a use in namespace A.B { namespace C { } }.
func (r *resolver) csEnclosingNamespaces(chain []string) ([]string, error) {
	var parts []string
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return nil, err
		}
		if d.Kind == extract.Namespace.String() {
			parts = append(parts, d.Name)
		}
	}
	slices.Reverse(parts) // outermost first
	full := strings.Split(strings.Join(parts, "."), ".")
	var out []string
	for i := len(full); i > 0; i-- {
		if full[0] != "" {
			out = append(out, strings.Join(full[:i], "."))
		}
	}
	return out, nil
}

// csTypeNamed is javaTypeNamed's part for C#, after the types nested in the enclosing ones: a
// type of an enclosing namespace (innermost first, the global namespace last), the type a
// using alias names, a type of a namespace a using directive imports; nil when none or
// several of those imports have one.
func (r *resolver) csTypeNamed(f *resolve.File, chain []string, name string, defs []*resolve.Def) (*resolve.Def, error) {
	nss, err := r.csEnclosingNamespaces(chain)
	if err != nil {
		return nil, err
	}
	for _, ns := range append(nss, "") {
		if d, err := r.javaTopType(ns, name, defs); d != nil || err != nil {
			return d, err
		}
	}
	for _, im := range f.Imports {
		if im.Alias == name {
			return r.javaTypePath(f.Lang, im.Target)
		}
	}
	var hit *resolve.Def
	for _, im := range f.Imports {
		if im.Alias != "" || im.Static {
			continue
		}
		d, err := r.csUsingType(im.Target, nss, name, defs)
		if err != nil {
			return nil, err
		}
		if d != nil {
			if hit != nil && hit.ID != d.ID {
				return nil, nil // ambiguous: the compiler says so
			}
			hit = d
		}
	}
	return hit, nil
}

// csUsingType returns the type name of the namespace a using directive names: target itself,
// else (a using inside namespace A.B { } may name A.B.target or A.target) target under one of
// the namespaces nss, innermost first.
func (r *resolver) csUsingType(target string, nss []string, name string, defs []*resolve.Def) (*resolve.Def, error) {
	if d, err := r.javaTopType(target, name, defs); d != nil || err != nil {
		return d, err
	}
	for _, ns := range nss {
		if d, err := r.javaTopType(ns+"."+target, name, defs); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// javaParts returns the ids of the declarations of the type t: t's own, and in C# every
// part of a partial type (same name, kind and enclosing declarations).
func (r *resolver) javaParts(t resolve.Def) ([]string, error) {
	if t.Language != "csharp" {
		return []string{t.ID}, nil
	}
	if ids, ok := r.csParts[t.ID]; ok {
		return ids, nil
	}
	key, err := r.csPath(&t)
	if err != nil {
		return nil, err
	}
	defs, err := r.javaDefs(t.Language, t.Name)
	if err != nil {
		return nil, err
	}
	ids := []string{t.ID}
	for _, d := range defs {
		if d.ID == t.ID || d.Kind != t.Kind {
			continue
		}
		k, err := r.csPath(d)
		if err != nil {
			return nil, err
		}
		if k == key {
			ids = append(ids, d.ID)
		}
	}
	if r.csParts == nil {
		r.csParts = map[string][]string{}
	}
	r.csParts[t.ID] = ids
	return ids, nil
}

// csPath returns the names of d's enclosing declarations and its own, dotted.
func (r *resolver) csPath(d *resolve.Def) (string, error) {
	parts := []string{d.Name}
	for id := d.ParentID; id != ""; {
		p, err := r.Symbol(id)
		if err != nil || p == nil {
			return "", err
		}
		parts = append(parts, p.Name)
		id = p.ParentID
	}
	slices.Reverse(parts)
	return strings.Join(parts, "."), nil
}

// csDelegateHolder reports whether a C# definition of kind k can be called as a delegate it
// holds: an event, a field or a property (Completed (reply), handler (x)). Java's never are.
func csDelegateHolder(k string) bool {
	switch k {
	case extract.Event.String(), extract.Field.String(), extract.Property.String():
		return true
	}
	return false
}

// csAttributeUses returns the uses of the C# attribute class def (XAttribute) written
// without its suffix, [X (...)]: a type usage X that names no type X and, read as
// XAttribute, resolves to def (C# looks both up; both found is the compiler's error).
func (r *resolver) csAttributeUses(def resolve.Def) ([]resolve.Use, error) {
	short, ok := strings.CutSuffix(def.Name, "Attribute")
	if def.Language != "csharp" || !ok || short == "" || !resolve.IsTypeKind(def.Kind) {
		return nil, nil
	}
	files, err := r.FilesUsing(short)
	if err != nil {
		return nil, err
	}
	parts, err := r.javaParts(def)
	if err != nil {
		return nil, err
	}
	var out []resolve.Use
	for _, f := range files {
		if f.Lang != "csharp" {
			continue
		}
		fc, err := r.FileOf(f.Path, f.Lang)
		if err != nil {
			return nil, err
		}
		uses, err := r.UsesNamed(f.ID, f.Path, short, func(x extract.Identifier) bool { return x.Kind == extract.TypeUsage })
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			if d, _, err := r.Resolve(fc, u); err != nil || d != nil {
				if err != nil {
					return nil, err
				}
				continue // a type X
			}
			long := u
			long.Name = def.Name
			d, why, err := r.Resolve(fc, long)
			if err != nil {
				return nil, err
			}
			if d != nil && slices.Contains(parts, d.ID) {
				out = append(out, resolve.Use{Ident: u, Path: f.Path, Why: why})
			}
		}
	}
	return out, nil
}
