package rust

// Rust's resolution: modules are files (src/lib.rs the crate's root, src/a.rs or
// src/a/mod.rs the module a, src/a/b.rs its child b), a path is followed from where it
// starts (crate::, self::, super::, a name the module declares or imports: use, pub use,
// use m::*), and a type's items are those of its impl blocks wherever they are (an impl in
// another file than its type: the extractor marks its items with the impl'd type's name):
//
//	Version::new, Self::EMPTY, Op::Less     an item or variant of the type the path names
//	crate::error::ErrorKind, super::x       a definition of the module the path names
//	use crate::{a::B, c}                    each name in the module its path names
//	self.major, self.pre.is_empty()        a field or method of the impl's type (through
//	                                        the declared types of fields)
//	cmp.op, ver.pre.is_empty()              of a parameter's or local's declared type
//	Name                                    the module's own definition, else what its
//	                                        use declarations bring (globs included)
//
// What it cannot place (a path into another crate, a method of a type it does not know)
// is left to the common rules, which leave most of it unresolved.

import (
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// rustState is what Rust's resolution read for one request.
type rustState struct {
	exists map[string]bool // whether the workspace has a file at a path
}

// rustMaxDepth bounds the imports and re-exports followed for one name.
const rustMaxDepth = 6

// rustResolve resolves a Rust use; decided is false when the common rules should try.
func (r *resolver) rustResolve(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (d *resolve.Def, why string, decided bool, err error) {
	q, isPath := strings.CutSuffix(u.Qualifier, "::")
	switch {
	case u.Kind == extract.ImportRef:
		for _, im := range f.Imports {
			if u.StartLine < im.Line || u.StartLine > im.EndLine || resolve.LastSegment(im.Target, "::") != u.Name {
				continue
			}
			segs := strings.Split(im.Target, "::")
			d, err = r.rustInPath(f, segs[:len(segs)-1], u.Name, u.Kind, u.ContainingSymbolID, cands, 0)
			if d != nil || err != nil {
				return d, resolve.ResolvedImport, true, err
			}
		}
		return nil, "", false, nil
	case q == "":
		if u.Kind == extract.MemberAccess {
			return nil, "", false, nil
		}
		mod, root := rustModuleOf(f.Path)
		d, why, bound, err := r.rustInModule(root, mod, f.Path, u.Name, u.Kind, cands, 0)
		return d, why, bound, err
	case isPath:
		segs := strings.Split(q, "::")
		for _, s := range segs {
			if !resolve.IsIdent(s) {
				return nil, "", false, nil
			}
		}
		// a path Rust's rules cannot follow leads out of the workspace (std::, a crate, a
		// trait of the prelude: Ord::cmp): never guessed by name
		d, err = r.rustInPath(f, segs, u.Name, u.Kind, u.ContainingSymbolID, cands, 0)
		return d, resolve.ResolvedQualified, true, err
	}
	// a value's member: self.x, self.a.b(), p.x of a parameter or local
	segs := strings.Split(q, ".")
	for _, s := range segs {
		if !resolve.IsIdent(s) {
			return nil, "", false, nil
		}
	}
	t, err := r.rustBaseType(f, segs[0], u)
	if err != nil || t == nil {
		return nil, "", segs[0] == "self", err // self of no known type: not another type's member
	}
	for _, field := range segs[1:] {
		if t, err = r.rustFieldType(*t, field); err != nil || t == nil {
			return nil, "", true, err
		}
	}
	d = r.rustMember(*t, u.Kind, cands)
	return d, resolve.ResolvedReceiver, true, nil
}

// rustBaseType returns the type of the name a receiver starts with: self's impl type, a
// parameter's declared type (Self: the impl's), or the type a local is bound to.
func (r *resolver) rustBaseType(f *resolve.File, name string, u extract.Identifier) (*resolve.Def, error) {
	if name == "self" {
		return r.rustSelfType(f, u.ContainingSymbolID)
	}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return nil, err
		}
		if k, _ := extract.KindNamed(d.Kind); !k.IsCallable() {
			continue
		}
		if typ := rustParamType(d.Signature, d.Name, name); typ != "" {
			if rustTypeBase(strings.TrimLeft(typ, "&' mut")) == "Self" || strings.Contains(typ, "&Self") || strings.HasSuffix(typ, " Self") {
				return r.rustSelfType(f, id)
			}
			return r.rustType(f, typ)
		}
		return r.LocalType(f, d, name, u.StartLine, u.StartColumn)
	}
	return nil, nil
}

// rustParamType returns the declared type of the parameter name in the signature of the
// function fn ("" none).
func rustParamType(sig, fn, name string) string {
	i := strings.Index(sig, "fn "+fn)
	if i < 0 {
		return ""
	}
	rest := sig[i+3+len(fn):]
	if j := strings.IndexByte(rest, '('); j >= 0 {
		rest = rest[j+1:]
	} else {
		return ""
	}
	depth, start := 0, 0
	var params []string
	for k := 0; k < len(rest); k++ {
		switch rest[k] {
		case '(', '<', '[':
			depth++
		case ']':
			depth--
		case '>':
			if k == 0 || rest[k-1] != '-' { // not the arrow of Fn(u8) -> u8
				depth--
			}
		case ')':
			if depth == 0 {
				params = append(params, rest[start:k])
				k = len(rest)
				continue
			}
			depth--
		case ',':
			if depth == 0 {
				params = append(params, rest[start:k])
				start = k + 1
			}
		}
	}
	for _, p := range params {
		pat, typ, ok := strings.Cut(p, ":")
		if !ok {
			continue
		}
		pat = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(pat), "mut "))
		if pat == name {
			return strings.TrimSpace(typ)
		}
	}
	return ""
}

// rustModuleOf returns the module path of the file p (src/a/b.rs: [a b]) and the directory
// of its crate's root (src).
func rustModuleOf(p string) ([]string, string) {
	root := path.Dir(p)
	if p == "src" || strings.HasPrefix(p, "src/") {
		root = "src"
	} else if i := strings.LastIndex(p, "/src/"); i >= 0 {
		root = p[:i+4]
	}
	rel := strings.TrimPrefix(strings.TrimSuffix(p, ".rs"), root+"/")
	if rel == "lib" || rel == "main" {
		return nil, root
	}
	rel = strings.TrimSuffix(rel, "/mod")
	if rel == "" || rel == "mod" {
		return nil, root
	}
	return strings.Split(rel, "/"), root
}

// rustModuleFile returns the file of the module mod of the crate rooted at root, "" when
// the workspace has none.
func (r *resolver) rustModuleFile(root string, mod []string) (string, error) {
	var tries []string
	if len(mod) == 0 {
		tries = []string{root + "/lib.rs", root + "/main.rs"}
	} else {
		m := root + "/" + strings.Join(mod, "/")
		tries = []string{m + ".rs", m + "/mod.rs"}
	}
	for _, p := range tries {
		ok, err := r.rustExists(p)
		if err != nil || ok {
			return p, err
		}
	}
	return "", nil
}

// rustExists reports whether the workspace has a file at p.
func (r *resolver) rustExists(p string) (bool, error) {
	if r.rs == nil {
		r.rs = &rustState{exists: map[string]bool{}}
	}
	if ok, seen := r.rs.exists[p]; seen {
		return ok, nil
	}
	var one int
	err := r.Store().DB().QueryRowContext(r.Context(), `SELECT 1 FROM files WHERE path = ?`, p).Scan(&one)
	if err == sql.ErrNoRows {
		err = nil
	}
	if err != nil {
		return false, fmt.Errorf("index: file %s: %w", p, err)
	}
	r.rs.exists[p] = one == 1
	return one == 1, nil
}

// rustPlace is where a path leads: a module (mod, in the crate rooted at root) or a type.
type rustPlace struct {
	root string
	mod  []string
	typ  *resolve.Def
	ok   bool
}

// rustInPath resolves name in the place the path segs leads to from the file f: a
// definition of that module, or an item of that type.
func (r *resolver) rustInPath(f *resolve.File, segs []string, name string, kind extract.IdentKind, container string, cands []*resolve.Def, depth int) (*resolve.Def, error) {
	pl, err := r.rustWalkPath(f, segs, container, depth)
	if err != nil || !pl.ok {
		return nil, err
	}
	if pl.typ != nil {
		return r.rustMember(*pl.typ, kind, cands), nil
	}
	file, err := r.rustModuleFile(pl.root, pl.mod)
	if err != nil || file == "" {
		return nil, err
	}
	d, _, _, err := r.rustInModule(pl.root, pl.mod, file, name, kind, cands, depth+1)
	return d, err
}

// rustWalkPath follows the path segs from the file f.
func (r *resolver) rustWalkPath(f *resolve.File, segs []string, container string, depth int) (rustPlace, error) {
	mod, root := rustModuleOf(f.Path)
	pl := rustPlace{root: root, mod: mod, ok: true}
	if len(segs) == 0 {
		return pl, nil
	}
	i := 0
	switch segs[0] {
	case "crate":
		pl.mod, i = nil, 1
	case "self":
		i = 1
	case "Self":
		t, err := r.rustSelfType(f, container)
		if err != nil || t == nil {
			return rustPlace{}, err
		}
		return rustPlace{typ: t, ok: len(segs) == 1}, nil
	case "super":
		for i < len(segs) && segs[i] == "super" {
			if len(pl.mod) == 0 {
				return rustPlace{}, nil
			}
			pl.mod = pl.mod[:len(pl.mod)-1]
			i++
		}
	default:
		// a name the module declares or imports: a child module, a type, an imported path
		t, err := r.rustSegment(pl, f.Path, segs[0], depth)
		if err != nil || !t.ok {
			return rustPlace{}, err
		}
		pl, i = t, 1
	}
	for ; i < len(segs); i++ {
		if pl.typ != nil {
			return rustPlace{}, nil // an item of an item (Enum::Variant::x): not followed
		}
		file, err := r.rustModuleFile(pl.root, pl.mod)
		if err != nil || file == "" {
			return rustPlace{}, err
		}
		if pl, err = r.rustSegment(pl, file, segs[i], depth); err != nil || !pl.ok {
			return rustPlace{}, err
		}
	}
	return pl, nil
}

// rustSegment is the place the name seg leads to inside the module at (in the file file):
// its child module, a type it defines or imports, or a module it imports.
func (r *resolver) rustSegment(at rustPlace, file, seg string, depth int) (rustPlace, error) {
	child := append(append([]string{}, at.mod...), seg)
	if p, err := r.rustModuleFile(at.root, child); err != nil || p != "" {
		return rustPlace{root: at.root, mod: child, ok: p != ""}, err
	}
	types, err := r.FamilyDefs(seg, "rust")
	if err != nil {
		return rustPlace{}, err
	}
	if t, _, _, err := r.rustInModule(at.root, at.mod, file, seg, extract.TypeUsage, types, depth+1); err != nil || t != nil && resolve.IsTypeKind(t.Kind) {
		return rustPlace{typ: t, ok: t != nil}, err
	}
	// a module an import names: use crate::a::b; b::f
	if depth > rustMaxDepth {
		return rustPlace{}, nil
	}
	fc, err := r.FileOf(file, "rust")
	if err != nil {
		return rustPlace{}, err
	}
	for _, im := range fc.Imports {
		if rustImportBinds(im) != seg {
			continue
		}
		segs := strings.Split(im.Target, "::")
		return r.rustWalkPath(fc, segs, "", depth+1)
	}
	return rustPlace{}, nil
}

// rustImportBinds returns the name a use declaration binds ("" for a glob).
func rustImportBinds(im resolve.Import) string {
	if strings.HasSuffix(im.Target, "*") {
		return ""
	}
	if im.Alias != "" {
		return im.Alias
	}
	return resolve.LastSegment(im.Target, "::")
}

// rustInModule finds name in the module mod (its file file): a definition of the file at
// its top level, else what its use declarations bring, explicit ones before globs.
//
// bound says the module binds the name (a definition, or a use declaration of it, which may
// lead out of the workspace: use std::fmt).
func (r *resolver) rustInModule(root string, mod []string, file, name string, kind extract.IdentKind, cands []*resolve.Def, depth int) (d *resolve.Def, why string, bound bool, err error) {
	var own []*resolve.Def
	for _, d := range cands {
		if d.Path != file || d.Kind == extract.Import.String() || !rustFits(d, kind) {
			continue
		}
		top, err := r.rustTopLevel(d)
		if err != nil {
			return nil, "", false, err
		}
		if top {
			own = append(own, d)
		}
	}
	if d := resolve.One(own); d != nil {
		return d, resolve.ResolvedScope, true, nil
	}
	if len(own) > 1 || depth > rustMaxDepth {
		return nil, "", len(own) > 1, nil
	}
	fc, err := r.FileOf(file, "rust")
	if err != nil {
		return nil, "", false, err
	}
	for _, glob := range []bool{false, true} {
		for _, im := range fc.Imports {
			if strings.HasSuffix(im.Target, "*") != glob || !glob && rustImportBinds(im) != name {
				continue
			}
			segs := strings.Split(im.Target, "::")
			orig := segs[len(segs)-1]
			if glob {
				orig = name
			}
			d, err := r.rustInPath(fc, segs[:len(segs)-1], orig, kind, "", cands, depth+1)
			if glob && d == nil && err == nil {
				continue
			}
			return d, resolve.ResolvedImport, true, err
		}
	}
	return nil, "", false, nil
}

// rustTopLevel reports whether d is a module-level definition of its file: not a member of
// a type or an impl, not inside a function.
func (r *resolver) rustTopLevel(d *resolve.Def) (bool, error) {
	if resolve.MetaMap(d.Metadata)["impl"] != "" {
		return false, nil
	}
	if d.ParentID == "" {
		return true, nil
	}
	p, err := r.Symbol(d.ParentID)
	if err != nil || p == nil {
		return false, err
	}
	return p.Kind == extract.Module.String(), nil
}

// rustFits reports whether a definition of d's kind can be what a use of kind names: a
// type's name for a type usage, a callable (or a tuple struct or variant) for a call.
func rustFits(d *resolve.Def, kind extract.IdentKind) bool {
	k, _ := extract.KindNamed(d.Kind)
	switch kind {
	case extract.TypeUsage:
		return resolve.IsTypeKind(d.Kind) || k == extract.Module
	case extract.Call:
		return k.IsCallable() || k == extract.Struct || k == extract.EnumMember
	}
	return true
}

// rustSelfType returns the type the use's impl block or type is for.
func (r *resolver) rustSelfType(f *resolve.File, container string) (*resolve.Def, error) {
	chain, err := r.Chain(container)
	if err != nil {
		return nil, err
	}
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return nil, err
		}
		if resolve.IsTypeKind(d.Kind) && d.Kind != extract.Module.String() {
			return d, nil
		}
		if impl := resolve.MetaMap(d.Metadata)["impl"]; impl != "" {
			df, err := r.FileOf(d.Path, d.Language)
			if err != nil {
				return nil, err
			}
			return r.rustType(df, impl)
		}
	}
	return nil, nil
}

// rustType resolves a type's text (&'a Version, crate::Version, Option<T>'s Option) as
// written in the file f.
func (r *resolver) rustType(f *resolve.File, typ string) (*resolve.Def, error) {
	t := strings.TrimSpace(typ)
	for {
		switch {
		case strings.HasPrefix(t, "&"):
			t = strings.TrimSpace(t[1:])
		case strings.HasPrefix(t, "'"):
			if i := strings.IndexByte(t, ' '); i > 0 {
				t = strings.TrimSpace(t[i:])
			} else {
				return nil, nil
			}
		case strings.HasPrefix(t, "mut "), strings.HasPrefix(t, "dyn "):
			t = strings.TrimSpace(t[4:])
		default:
			goto done
		}
	}
done:
	if i := strings.IndexAny(t, "<[( "); i >= 0 {
		t = t[:i]
	}
	segs := strings.Split(t, "::")
	for _, s := range segs {
		if !resolve.IsIdent(s) {
			return nil, nil
		}
	}
	name := segs[len(segs)-1]
	cands, err := r.FamilyDefs(name, "rust")
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	var d *resolve.Def
	if len(segs) == 1 {
		mod, root := rustModuleOf(f.Path)
		d, _, _, err = r.rustInModule(root, mod, f.Path, name, extract.TypeUsage, cands, 0)
	} else {
		d, err = r.rustInPath(f, segs[:len(segs)-1], name, extract.TypeUsage, "", cands, 0)
	}
	if err != nil || d == nil || !resolve.IsTypeKind(d.Kind) {
		return nil, err
	}
	return d, nil
}

// rustFieldType returns the declared type of t's field named field.
func (r *resolver) rustFieldType(t resolve.Def, field string) (*resolve.Def, error) {
	kids, err := r.Children(t)
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		if k.Name != field || k.Kind != extract.Field.String() {
			continue
		}
		typ := resolve.DeclaredType(strings.TrimPrefix(strings.TrimSpace(k.Signature), "pub"), field, "rust")
		if i := strings.Index(k.Signature, field+":"); typ == "" && i >= 0 {
			typ = strings.TrimSpace(k.Signature[i+len(field)+1:])
		}
		if typ == "" {
			return nil, nil
		}
		tf, err := r.FileOf(t.Path, t.Language)
		if err != nil {
			return nil, err
		}
		return r.rustType(tf, typ)
	}
	return nil, nil
}

// rustMember returns the one candidate that is an item of the type t: a field or variant
// (its children), a method or constant of one of its impl blocks (in any file of its
// crate), or a method a trait declares when t is that trait.
func (r *resolver) rustMember(t resolve.Def, kind extract.IdentKind, cands []*resolve.Def) *resolve.Def {
	_, root := rustModuleOf(t.Path)
	var hit []*resolve.Def
	for _, d := range cands {
		if !rustFits(d, kind) && !(kind == extract.Call && d.Kind == extract.Field.String()) {
			continue
		}
		switch {
		case d.ParentID == t.ID:
		case d.ParentID == "" && rustImplOf(d) == t.Name:
			if _, r2 := rustModuleOf(d.Path); r2 != root {
				continue
			}
		default:
			continue
		}
		if kind == extract.Call && d.Kind == extract.Field.String() {
			continue // a field is not called (a field holding a closure: (self.f)())
		}
		hit = append(hit, d)
	}
	if len(hit) > 1 && kind != extract.Call { // x.len is the field, x.len() the method
		hit = rustPrefer(hit, func(d *resolve.Def) bool { return d.Kind == extract.Field.String() })
	}
	if len(hit) > 1 { // an inherent method before a trait's of the same name, as Rust picks
		hit = rustPrefer(hit, func(d *resolve.Def) bool { return resolve.MetaMap(d.Metadata)["trait"] == "" })
	}
	return resolve.One(hit)
}

// rustPrefer returns the hits keep accepts, or all of them when it accepts none.
func rustPrefer(hits []*resolve.Def, keep func(*resolve.Def) bool) []*resolve.Def {
	var out []*resolve.Def
	for _, d := range hits {
		if keep(d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return hits
	}
	return out
}

// rustImplOf returns the base name of the type d's impl block is for ("" none).
func rustImplOf(d *resolve.Def) string {
	impl := resolve.MetaMap(d.Metadata)["impl"]
	if impl == "" {
		return ""
	}
	return rustTypeBase(impl)
}

// rustTypeBase returns a type's last path segment without generics (Version of
// crate::Version<T>).
func rustTypeBase(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(resolve.LastSegment(s, "::"))
}

// rustModulePath turns a Rust path (crate::a::b, super::x, a::b) into a path suffix a/b.
func rustModulePath(p string) string {
	var parts []string
	for _, s := range strings.Split(p, "::") {
		switch s {
		case "crate", "self", "super", "":
			continue
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "/")
}
