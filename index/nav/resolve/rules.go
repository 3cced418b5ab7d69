package resolve

// The rules of resolution, in the order resolve tries them (see resolve.go): scope,
// receiver, import, package, qualified, global-unique; the first that leaves exactly one
// definition decides.

import (
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// Resolve returns the definition a use in file f means, and why; nil when no rule decides.
func (r *Resolver) Resolve(f *File, u extract.Identifier) (*Def, string, error) {
	sameLang, err := r.FamilyDefs(u.Name, f.Lang)
	if err != nil {
		return nil, "", err
	}
	if len(sameLang) == 0 {
		return nil, "", nil
	}
	h := r.hooks(f.Lang)
	if h.Resolve != nil { // the language's own scopes, modules and types, first (Java's and C#'s, JavaScript's and TypeScript's, Rust's, C's and C++'s)
		if d, why, decided, err := h.Resolve(r, f, u, sameLang); decided || err != nil {
			if d == nil || err != nil {
				return nil, "", err
			}
			return d, why, nil
		}
	}
	if f.Lang == "java" && !strings.HasSuffix(u.Qualifier, "::") {
		// A Java name called is a method or a type's constructor, never a field; a name not
		// called is never a method (a method reference is written X::m).
		var fit []*Def
		for _, d := range sameLang {
			k, _ := extract.KindNamed(d.Kind)
			if u.Kind == extract.Call && (k.IsCallable() || IsTypeKind(d.Kind)) || u.Kind != extract.Call && !k.IsCallable() {
				fit = append(fit, d)
			}
		}
		if sameLang = fit; len(sameLang) == 0 {
			return nil, "", nil
		}
	}
	q, isPath := strings.CutSuffix(u.Qualifier, "::")
	if u.Kind == extract.ImportRef {
		// An import names what it imports: never a definition of the importing file.
		var d *Def
		switch {
		case h.ImportRef != nil:
			d, err = h.ImportRef(r, f, u, sameLang)
		case q == "":
			d, err = r.importedAs(f, u.Name, sameLang, true)
		default:
			d, _, err = r.InImported(f, q, u.Name, sameLang)
		}
		if d == nil || err != nil {
			return nil, "", err
		}
		return d, ResolvedImport, nil
	}
	if q == "" && h.Bare != nil { // the language's own scopes (Go's locals hide the package's, a Python class's body sees the class's names)
		d, why, rest, decided, err := h.Bare(r, f, u, sameLang)
		if decided || err != nil {
			return d, why, err
		}
		sameLang = rest
	}
	if q == "" {
		if d, err := r.InScope(f, u, sameLang); d != nil || err != nil {
			return d, ResolvedScope, err
		}
		if d, err := r.imported(f, u.Name, sameLang); d != nil || err != nil {
			return d, ResolvedImport, err
		}
		if d, err := r.InPackage(f, sameLang); d != nil || err != nil {
			return d, ResolvedPackage, err
		}
		if implicitMembers(f.Lang) { // an inherited member, called without this
			if d, err := r.InheritedBare(f, u, sameLang); d != nil || err != nil {
				return d, ResolvedReceiver, err
			}
		}
		return r.unique(f, sameLang)
	}
	if h.Qualified != nil { // the language's own reading of the qualifier (Go: the member Go
		// selects in the qualifier's type)
		if d, decided, err := h.Qualified(r, f, u, sameLang); decided || err != nil {
			if d == nil || err != nil {
				return nil, "", err
			}
			return d, ResolvedReceiver, nil
		}
	}
	// A type's name: Bytes::from_static, Form.from_data, Integer.bitCount are its members
	// (or its bases'), the type found as its name is where the use is.
	if IsUpper(q) && IsIdent(q) {
		t, err := r.TypeNamed(f, q, u.ContainingSymbolID)
		if err != nil {
			return nil, "", err
		}
		if t != nil {
			d, err := r.MemberOf(f, *t, sameLang)
			if d == nil || err != nil {
				return nil, "", err
			}
			return d, ResolvedQualified, nil
		}
	}
	// A name an import binds first: checking it reads nothing, and a receiver named like an
	// imported package is not worth the shadowing rules.
	if d, bound, err := r.InImported(f, q, u.Name, sameLang); bound || err != nil {
		if d != nil || err != nil {
			return d, ResolvedImport, err
		}
		return nil, "", nil // an import names where it is, and it is not in the workspace
	}
	if d, err := r.OnReceiver(f, u, sameLang); d != nil || err != nil {
		return d, ResolvedReceiver, err
	}
	if h.Typed != nil { // the language's own typing of q, or paths (Python's annotations and
		// values; Rust's a::b::f, a function of the module a/b)
		if d, why, decided, err := h.Typed(r, f, u, q, isPath, sameLang); decided || err != nil {
			if d == nil || err != nil {
				return nil, "", err
			}
			return d, why, nil
		}
	}
	if !isPath {
		if d, err := r.OnDeclaredType(f, u, q, sameLang); d != nil || err != nil {
			return d, ResolvedReceiver, err
		}
	}
	if d := r.onType(q, sameLang); d != nil {
		return d, ResolvedQualified, nil
	}
	// A receiver of unknown type is never resolved by a unique name: keys.reduce() is the
	// array method, not the workspace's one function named reduce.
	return nil, "", nil
}

// FamilyDefs returns the definitions named name in lang's family (sameFamily), kept for
// the request: a name used thousands of times in a workspace that defines it as often
// (fastify's tests: fastify) filters its definitions once.
func (r *Resolver) FamilyDefs(name, lang string) ([]*Def, error) {
	key := name + "\x00" + lang
	if d, ok := r.family[key]; ok {
		return d, nil
	}
	cands, err := r.Defs(name)
	if err != nil {
		return nil, err
	}
	var out []*Def
	for i := range cands {
		if SameFamily(cands[i].Language, lang) {
			out = append(out, &cands[i])
		}
	}
	out = out[:len(out):len(out)] // no append writes into the kept array
	if r.family == nil {
		r.family = map[string][]*Def{}
	}
	r.family[key] = out
	return out, nil
}

// InheritedBare resolves a bare name inside a type's method (Java, C#, ...) to a member of
// the nearest base type that has one.
func (r *Resolver) InheritedBare(f *File, u extract.Identifier, cands []*Def) (*Def, error) {
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	for _, id := range chain {
		if d, err := r.Symbol(id); err != nil {
			return nil, err
		} else if d != nil && IsTypeKind(d.Kind) {
			return r.Inherited(f, *d, cands, 0)
		}
	}
	return nil, nil
}

// unique returns the one candidate when there is one.
//
// Not in the languages whose imports and packages resolution follows (Go, Python, JS/TS,
// Java, Rust): there a bare name that none of them reaches is a builtin (len, print, a
// global) or comes from a library, not the workspace's one definition of it.
func (r *Resolver) unique(f *File, cands []*Def) (*Def, string, error) {
	switch f.Lang {
	case "go", "python", "javascript", "typescript", "tsx", "jsx", "java", "rust":
		return nil, "", nil
	}
	if d := One(cands); d != nil {
		return d, ResolvedGlobalUnique, nil
	}
	return nil, "", nil
}

// One returns the definition hits hold: the only one, or the first of overloads (several
// declarations of one name and kind in one scope of one file: TypeScript overload
// signatures, Java and C# overloaded methods, which resolution does not tell apart); nil
// when hits name several definitions, or none.
func One(hits []*Def) *Def {
	if len(hits) == 0 {
		return nil
	}
	for _, d := range hits[1:] {
		if !Overloads(d, hits[0]) {
			return nil
		}
	}
	return hits[0]
}

// OneDefinition returns the definition defs hold when they are one definition or the
// overloads of one (see one), else nil.
func OneDefinition(defs []Def) *Def {
	hits := make([]*Def, len(defs))
	for i := range defs {
		hits[i] = &defs[i]
	}
	return One(hits)
}

// Overloads reports whether a and b declare the same name and kind in the same scope of the
// same file; in Python, of any kinds: one name of a module or class bound in several places
// (try: from ssl import SSLError as BaseSSLError / except ImportError: class BaseSSLError).
func Overloads(a, b *Def) bool {
	if a.ID != b.ID && a.Language == "rust" && rustImplsDiffer(a, b) { // items of two Rust impl blocks
		return false
	}
	return a.ID == b.ID || a.Path == b.Path && a.Name == b.Name && (a.Kind == b.Kind || a.Language == "python") && a.ParentID == b.ParentID
}

// InScope picks among the candidates defined in the use's own file.
func (r *Resolver) InScope(f *File, u extract.Identifier, cands []*Def) (*Def, error) {
	var local []*Def
	for _, d := range cands {
		if d.Path != f.Path {
			continue
		}
		if !implicitMembers(f.Lang) { // a member is reached through self, this or a receiver
			if p, err := r.Symbol(d.ParentID); err != nil {
				return nil, err
			} else if p != nil && (IsTypeKind(p.Kind) || memberOnly(d.Kind)) {
				continue // a member of a type, an object literal or a prototype
			}
		}
		local = append(local, d)
	}
	if len(local) == 0 {
		return nil, nil
	}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	// The definition whose parent is the innermost enclosing symbol of the use.
	for _, c := range chain {
		var hit []*Def
		for _, d := range local {
			if d.ParentID == c || d.ID == c {
				hit = append(hit, d)
			}
		}
		if d := One(hit); d != nil {
			return d, nil
		}
		if len(hit) > 1 {
			return nil, nil
		}
	}
	var top []*Def
	for _, d := range local {
		if d.ParentID == "" {
			top = append(top, d)
		}
	}
	if d := One(top); d != nil {
		return d, nil
	}
	return nil, nil
}

// implicitMembers reports whether a bare name inside a type's method can name a member of
// the type (Java, C#, C++, Kotlin, Scala, Swift, Ruby), rather than only through self, this
// or a receiver (Python, JavaScript, TypeScript, Rust, Go, PHP).
func implicitMembers(lang string) bool {
	switch lang {
	case "java", "csharp", "cpp", "kotlin", "scala", "swift", "ruby":
		return true
	}
	return false
}

// InPackage picks the one candidate in the use's package: the same directory for Go and C#,
// the same package declaration for Java, Kotlin and Scala.
func (r *Resolver) InPackage(f *File, cands []*Def) (*Def, error) {
	// A bare name names a package-level definition: never a member of a type (another
	// class's method in Java) nor a Go method.
	var top []*Def
	for _, d := range cands {
		if d.ParentID != "" || d.Language == "go" && d.Kind == extract.Method.String() {
			if p, err := r.Symbol(d.ParentID); err != nil {
				return nil, err
			} else if d.ParentID == "" || p != nil && IsTypeKind(p.Kind) {
				continue
			}
		}
		top = append(top, d)
	}
	cands = top
	var hit []*Def
	switch f.Lang {
	case "go", "csharp", "c", "cpp":
		for _, d := range cands {
			if path.Dir(d.Path) == f.Dir {
				hit = append(hit, d)
			}
		}
	case "java", "kotlin", "scala":
		if f.Pkg == "" {
			return nil, nil
		}
		for _, d := range cands {
			pk, err := r.PkgOf(d.Path, d.Language)
			if err != nil {
				return nil, err
			}
			if pk == f.Pkg {
				hit = append(hit, d)
			}
		}
	default:
		return nil, nil
	}
	if d := One(hit); d != nil {
		return d, nil
	}
	return nil, nil
}

// imported picks the candidate a bare name's import names: from m import name, import
// {name} from "./m", import a.b.Name, use a::b::name.
func (r *Resolver) imported(f *File, name string, cands []*Def) (*Def, error) {
	return r.importedAs(f, name, cands, false)
}

// importedAs is imported; importing says the use is the import statement's own name
// (import {zip as zipStatic}: zip names the definition, zipStatic the binding). A language's
// ImportedAs hook reads its imports; Java's, Kotlin's and Scala's import a.b.Name are read here.
func (r *Resolver) importedAs(f *File, name string, cands []*Def, importing bool) (*Def, error) {
	if h := r.hooks(f.Lang).ImportedAs; h != nil {
		return h(r, f, name, cands, importing)
	}
	switch f.Lang {
	case "java", "kotlin", "scala":
	default:
		return nil, nil
	}
	for _, im := range f.Imports {
		if LastSegment(im.Target, ".") != name {
			continue
		}
		where := strings.ReplaceAll(strings.TrimSuffix(im.Target, "."+name), ".", "/") + "/" + name
		if d := PickUnder(cands, where, false); d != nil {
			return d, nil
		}
	}
	return nil, nil
}

// InImported resolves q.name where q is bound by an import of the file (a Go package, a
// Python module, a JS/TS namespace or default import, a Rust module or type), as the
// language's InImported hook reads its imports: bound reports that q is such a name; d is
// the definition in the imported place (for Python, or in a module it re-exports name
// from), nil when the workspace does not hold it (a standard library or third-party
// package). A language without the hook binds no such names.
func (r *Resolver) InImported(f *File, q, name string, cands []*Def) (d *Def, bound bool, err error) {
	if h := r.hooks(f.Lang).InImported; h != nil {
		return h(r, f, q, name, cands)
	}
	return nil, false, nil
}

// OnReceiver resolves self.x, this.x, super.x and a Go method's receiver: a member of the
// type the use is inside.
func (r *Resolver) OnReceiver(f *File, u extract.Identifier, cands []*Def) (*Def, error) {
	q := u.Qualifier
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil || len(chain) == 0 {
		return nil, err
	}
	typeName := ""
	var typeDef *Def
	switch {
	case q == "self" || q == "this" || q == "cls" || q == "Self" || q == "$this" || q == "static":
		for _, id := range chain {
			if d, _ := r.Symbol(id); d != nil && IsTypeKind(d.Kind) {
				typeName, typeDef = d.Name, d
				break
			}
		}
	case q == "super" || q == "super()" || q == "parent":
		for _, id := range chain { // a member of a base of the enclosing type, not of the type
			if d, _ := r.Symbol(id); d != nil && IsTypeKind(d.Kind) {
				return r.Inherited(f, *d, cands, 0)
			}
		}
		return nil, nil
	case f.Lang == "go":
		for _, id := range chain {
			d, _ := r.Symbol(id)
			if d != nil && d.Kind == extract.Method.String() {
				if recv, typ := GoReceiver(d.Signature); recv == q {
					typeName = typ
				}
				break
			}
		}
	}
	if typeName == "" {
		return nil, nil
	}
	var hit []*Def
	for _, d := range cands {
		p, err := r.Symbol(d.ParentID)
		if err != nil {
			return nil, err
		}
		if p != nil && p.Name == typeName && (f.Lang != "go" || path.Dir(d.Path) == f.Dir) &&
			(f.Lang != "python" || typeDef == nil || p.ID == typeDef.ID) { // a Python class is never reopened elsewhere
			hit = append(hit, d)
		} else if p == nil && f.Lang == "go" && path.Dir(d.Path) == f.Dir && d.Kind == extract.Method.String() {
			if _, typ := GoReceiver(d.Signature); typ == typeName {
				hit = append(hit, d)
			}
		}
	}
	if d := One(hit); d != nil {
		return d, nil
	}
	if len(hit) == 0 && typeDef != nil {
		return r.Inherited(f, *typeDef, cands, 0)
	}
	return nil, nil
}

// Inherited looks for the one candidate that is a member of a base of the type t (its
// extends relationships, resolved in t's file), nearest base first.
func (r *Resolver) Inherited(f *File, t Def, cands []*Def, depth int) (*Def, error) {
	if depth > 8 {
		return nil, nil
	}
	bases, err := r.Bases(t)
	if err != nil {
		return nil, err
	}
	for _, b := range bases {
		var hit []*Def
		for _, d := range cands {
			if d.ParentID == b.ID {
				hit = append(hit, d)
			}
		}
		if d := One(hit); d != nil {
			return d, nil
		}
		if d, err := r.Inherited(f, *b, cands, depth+1); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// Bases returns the types t extends, as resolution finds them from t's file.
func (r *Resolver) Bases(t Def) ([]*Def, error) {
	if b, ok := r.basesOf[t.ID]; ok {
		return b, nil
	}
	if r.basesOf == nil {
		r.basesOf = map[string][]*Def{}
	}
	r.basesOf[t.ID] = nil // a cycle of extends ends here
	b, err := r.readBases(t)
	if err == nil {
		r.basesOf[t.ID] = b
	}
	return b, err
}

func (r *Resolver) readBases(t Def) ([]*Def, error) {
	var blob []byte
	err := r.s.DB().QueryRowContext(r.ctx, `SELECT coalesce(r.data, x'') FROM files f LEFT JOIN relationships r ON r.file = f.id WHERE f.path = ?`, t.Path).Scan(&blob)
	if err == sql.ErrNoRows || err == nil && len(blob) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: relationships of %s: %w", t.Path, err)
	}
	rels, err := store.DecodeRels(blob)
	if err != nil {
		return nil, err
	}
	tf, err := r.FileOf(t.Path, t.Language)
	if err != nil {
		return nil, err
	}
	var out []*Def
	for _, rel := range rels {
		if rel.FromID != t.ID || rel.Kind != extract.Extends {
			continue
		}
		d, err := r.TypeNamed(tf, rel.To, t.ParentID)
		if err != nil {
			return nil, err
		}
		if d != nil && d.ID != t.ID {
			out = append(out, d)
		}
	}
	return out, nil
}

// onType resolves Type.member and Type::member: the one candidate whose parent is a type
// named like the qualifier's last part.
func (r *Resolver) onType(q string, cands []*Def) *Def {
	// Only a type's own name: in x.Reader.Peek(), Reader is a field named like a type.
	name := q
	if name == "" || !IsUpper(name) || strings.ContainsAny(name, ".:()[]<> ") {
		return nil
	}
	var hit []*Def
	for _, d := range cands {
		if p, _ := r.Symbol(d.ParentID); p != nil && p.Name == name {
			hit = append(hit, d)
		}
	}
	if d := One(hit); d != nil {
		return d
	}
	return nil
}

// PickUnder returns the one candidate whose file is where (a path without extension: a
// module file) or inside the directory where; where may be a suffix of the workspace path
// (a Java package directory, a Go import path in GOPATH layout), and with goModule the
// directory may be a suffix of where (a Go import path of a module: example.com/app/store
// for store/).
func PickUnder(cands []*Def, where string, goModule bool) *Def {
	where = strings.Trim(path.Clean(where), "/")
	if where == "" || where == "." {
		return nil
	}
	var hit []*Def
	for _, d := range cands {
		noExt := strings.TrimSuffix(strings.TrimSuffix(d.Path, ".d.ts"), path.Ext(d.Path))
		dir := path.Dir(d.Path)
		places := []string{noExt, dir, strings.TrimSuffix(noExt, "/index"), strings.TrimSuffix(noExt, "/__init__"), strings.TrimSuffix(noExt, "/mod")}
		if goModule { // a Go import path names a directory, never a file
			places = places[1:2]
		}
		for _, p := range places {
			if p == where || strings.HasSuffix(p, "/"+where) || goModule && p == dir && p != "." && strings.HasSuffix(where, "/"+p) {
				hit = append(hit, d)
				break
			}
		}
	}
	if len(hit) > 1 { // a module's TypeScript (x.ts, x.d.ts) before its JavaScript (x.js)
		var ts []*Def
		for _, d := range hit {
			if strings.HasSuffix(d.Path, ".ts") || strings.HasSuffix(d.Path, ".tsx") {
				ts = append(ts, d)
			}
		}
		if len(ts) > 0 {
			hit = ts
		}
	}
	if len(hit) > 1 { // a module's own function before a method of the same name in it
		var top []*Def
		for _, d := range hit {
			if d.ParentID == "" {
				top = append(top, d)
			}
		}
		hit = top
	}
	if d := One(hit); d != nil {
		return d
	}
	return nil
}

// rustImplsDiffer reports whether a and b are items of different impl blocks (another type,
// or another trait for the same type: Display's fmt and Debug's), which are never overloads
// of one another; Rust has no overloading.
func rustImplsDiffer(a, b *Def) bool {
	ma, mb := MetaMap(a.Metadata), MetaMap(b.Metadata)
	return ma["impl"] != mb["impl"] || ma["trait"] != mb["trait"]
}

// SameFamily reports whether a definition in language a can be what a use in language b
// names (JavaScript and TypeScript share modules; C and C++ headers).
func SameFamily(a, b string) bool {
	fam := func(l string) string {
		switch l {
		case "typescript", "tsx", "javascript", "jsx":
			return "js"
		case "c", "cpp":
			return "c"
		}
		return l
	}
	return fam(a) == fam(b)
}

func IsTypeKind(kind string) bool {
	k, ok := extract.KindNamed(kind)
	return ok && (k.IsType() || k.IsContainer())
}

// memberOnly reports whether a definition of kind k with a parent is reached only through
// a qualifier, a receiver or this (a method or property of an object literal or of a
// constructor function's prototype), never as a bare name.
func memberOnly(k string) bool {
	switch k {
	case "method", "property", "field":
		return true
	}
	return false
}
