package java

// Java: uses resolved as javac binds them, from what the extractor records (every name used as
// a value, a member's qualifier as written, an import's last name with its package) and the
// stored source of the use's method.
//
//	bare name      a local or parameter of the enclosing method (or of a lambda, a catch, a
//	               for, a pattern) hides everything else: unresolved; else a member of the
//	               innermost enclosing type that has one, its bases included (extends and
//	               implements), then the next enclosing type out; else a type: a nested type
//	               of an enclosing type, a single-type import, the package's own, an
//	               on-demand import; else a static import's member
//	q.name         the type of the expression q (a local's or parameter's declared type, a
//	               field's, a method's declared result, new T(), a cast, this, super,
//	               Outer.this; a type or a package path for static members and nested or
//	               fully qualified types): name is a member of that type or of its bases
//	import         import a.b.C: the type C of package a.b; import static a.b.C.m: C's m
//
// A call picks among overloads by its number of arguments; several left is unresolved. A
// type whose base is not in the workspace (extends Thread) may inherit the name from there: a
// name it does not declare is then unresolved, as is a receiver whose type is not known, or
// not the workspace's. Nothing is guessed from a name alone.

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
)

// javaMaxDepth bounds the bases followed and the expressions typed through one another.
const javaMaxDepth = 8

// javaObjectMethods are java.lang.Object's methods: a type that does not declare one has it
// from Object, never from an enclosing type.
var javaObjectMethods = map[string]bool{
	"equals": true, "hashCode": true, "toString": true, "getClass": true, "notify": true,
	"notifyAll": true, "wait": true, "clone": true, "finalize": true,
}

// javaResolve resolves a use in a Java file: decided reports that these rules decided (d nil:
// unresolved); they decide every use but a qualified one whose qualifier they cannot read.
func (r *resolver) javaResolve(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (d *resolve.Def, why string, decided bool, err error) {
	q := u.Qualifier
	switch {
	case u.Kind == extract.ImportRef: // static imports name methods too
		if cands, err = r.javaDefs(f.Lang, u.Name); err != nil {
			return nil, "", true, err
		}
		d, err = r.javaImportRef(f, u, cands)
		return d, resolve.ResolvedImport, true, err
	case q == "":
		d, why, err = r.javaBare(f, u, cands)
		return d, why, true, err
	case q == "?":
		return nil, "", true, nil
	case strings.HasSuffix(q, "::"): // a method reference: X::m, this::m
		q = strings.TrimSuffix(q, "::")
		u.Kind = extract.Call
	}
	t, static, ok, err := r.javaExprType(f, u, q, 0)
	if err != nil {
		return nil, "", true, err
	}
	if !ok { // a package: a top-level type of it (sun.net.httpserver.DefaultHttpServerProvider)
		if isJavaPackagePath(q) {
			d, err = r.javaTopType(q, u.Name, cands)
			return d, resolve.ResolvedQualified, true, err
		}
		return nil, "", true, nil
	}
	if t == nil {
		return nil, "", true, nil
	}
	sup := q == "super" || strings.HasSuffix(q, ".super") || q == "base" && f.Lang == "csharp"
	d, _, err = r.javaMember(f, u, *t, cands, static, sup, 0)
	why = resolve.ResolvedReceiver
	if static {
		why = resolve.ResolvedQualified
	}
	return d, why, true, err
}

// refersTo reports whether a use resolved to d (for the reason why) is a use of def: d or
// one of its overloads, which resolution does not tell apart; in Java, where a call picks
// its overload by its arguments (javaPick), d itself, but for an import, which names every
// overload.
func refersTo(d, def *resolve.Def, why string) bool {
	if javaLike(def.Language) && why != resolve.ResolvedImport {
		return d.ID == def.ID
	}
	return resolve.Overloads(d, def)
}

// javaImportRef resolves the name an import names: a type of the package before it, else a
// member (static import) or nested type of the type before it.
func (r *resolver) javaImportRef(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, error) {
	if u.Qualifier == "" {
		return nil, nil
	}
	if d, err := r.javaTopType(u.Qualifier, u.Name, cands); d != nil || err != nil {
		return d, err
	}
	t, err := r.javaTypePath(f.Lang, u.Qualifier)
	if t == nil || err != nil {
		return nil, err
	}
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID == t.ID && d.Kind != extract.Constructor.String() {
			hit = append(hit, d)
		}
	}
	return resolve.One(hit), nil // static imports name every overload of m
}

// javaTopType returns the candidate that is a top-level type named name of the package pkg.
func (r *resolver) javaTopType(pkg, name string, cands []*resolve.Def) (*resolve.Def, error) {
	var hit []*resolve.Def
	for _, d := range cands {
		if d.Name != name || !javaIsType(d.Kind) {
			continue
		}
		var pk string
		var err error
		if d.Language == "csharp" {
			pk, err = r.csNamespaceOf(d) // "": nested in a type
		} else if d.ParentID == "" {
			pk, err = r.PkgOf(d.Path, d.Language)
		} else {
			continue
		}
		if err != nil {
			return nil, err
		}
		if pk == pkg {
			hit = append(hit, d)
		}
	}
	if len(hit) == 1 {
		return hit[0], nil
	}
	if len(hit) > 1 && hit[0].Language == "csharp" { // a partial type's parts: one type
		ids, err := r.javaParts(*hit[0])
		if err != nil {
			return nil, err
		}
		for _, d := range hit[1:] {
			if !slices.Contains(ids, d.ID) {
				return nil, nil
			}
		}
		return hit[0], nil
	}
	return nil, nil
}

// javaTypePath returns the workspace type a dotted path names (a.b.C, a.b.C.D: a package, a
// top-level type of it, nested types), nil when it names none.
func (r *resolver) javaTypePath(lang, p string) (*resolve.Def, error) {
	segs := strings.Split(p, ".")
	for i := 1; i < len(segs); i++ {
		defs, err := r.javaDefs(lang, segs[i])
		if err != nil {
			return nil, err
		}
		t, err := r.javaTopType(strings.Join(segs[:i], "."), segs[i], defs)
		if err != nil {
			return nil, err
		}
		if t == nil {
			continue
		}
		for _, s := range segs[i+1:] {
			if t, err = r.javaNested(*t, s); t == nil || err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	return nil, nil
}

// javaDefs returns the definitions named name in lang (Java or C#).
func (r *resolver) javaDefs(lang, name string) ([]*resolve.Def, error) {
	return r.FamilyDefs(name, lang)
}

// javaLike reports whether lang's names resolve by java.go's rules: Java, and C#, whose
// types, members, overloads and locals are alike; C#'s namespaces are its packages, its
// using directives its on-demand imports (using static: static imports; using A = T: a
// single-type import under A), base its super, and a partial class one type in all its
// parts.
func javaLike(lang string) bool { return lang == "java" || lang == "csharp" }

// javaNested returns the type named name declared in t.
func (r *resolver) javaNested(t resolve.Def, name string) (*resolve.Def, error) {
	defs, err := r.javaDefs(t.Language, name)
	if err != nil {
		return nil, err
	}
	ids, err := r.javaParts(t)
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		if slices.Contains(ids, d.ParentID) && javaIsType(d.Kind) {
			return d, nil
		}
	}
	return nil, nil
}

// javaBare resolves a bare name: a local hides it; then the enclosing types' members, types,
// static imports.
func (r *resolver) javaBare(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, error) {
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, "", err
	}
	if u.Kind != extract.TypeUsage && u.Kind != extract.Call { // a local is never called
		if _, found, err := r.javaLocal(f, chain, u.Name, u.StartLine, u.StartColumn); found || err != nil {
			return nil, "", err
		}
	}
	wantType := u.Kind == extract.TypeUsage
	isNew, err := r.javaIsNew(f, u)
	if err != nil {
		return nil, "", err
	}
	stopped := false
	if !wantType && !isNew {
		for i, id := range chain {
			d, err := r.Symbol(id)
			if err != nil || d == nil {
				return nil, "", err
			}
			if !javaIsType(d.Kind) { // the members of an anonymous class in this method, from inside it
				if i > 0 {
					if m, found, err := r.javaAnonMember(u, id, cands, f); found || err != nil {
						return m, resolve.ResolvedScope, err
					}
				}
				continue
			}
			m, st, err := r.javaMember(f, u, *d, cands, false, false, 0)
			if m != nil && m.ParentID != d.ID { // inherited: an implicit this.name, as the receiver rule reads it
				if ids, err := r.javaParts(*d); err != nil || !slices.Contains(ids, m.ParentID) {
					return m, resolve.ResolvedReceiver, err
				}
			}
			if m != nil || err != nil {
				return m, resolve.ResolvedScope, err
			}
			// a base outside the workspace may declare the method (an inherited field of
			// the same name as an enclosing type's is rare enough to look further out)
			if st && u.Kind == extract.Call || u.Kind == extract.Call && javaObjectMethods[u.Name] {
				stopped = true
				break
			}
		}
	}
	t, err := r.javaTypeNamed(f, chain, u.Name)
	if err != nil {
		return nil, "", err
	}
	if t != nil {
		for _, d := range cands {
			if d.ID == t.ID {
				return d, resolve.ResolvedScope, nil
			}
		}
		return nil, "", nil
	}
	if wantType || stopped {
		return nil, "", nil
	}
	// a static import: import static a.b.C.name, import static a.b.C.*
	for _, im := range f.Imports {
		typePath := ""
		switch {
		case f.Lang == "csharp":
			if !im.Static {
				continue
			}
			typePath = im.Target // using static a.b.C;
		case strings.HasSuffix(im.Target, "."+u.Name):
			typePath = strings.TrimSuffix(im.Target, "."+u.Name)
		case strings.HasSuffix(im.Target, ".*"):
			typePath = strings.TrimSuffix(im.Target, ".*")
		default:
			continue
		}
		t, err := r.javaTypePath(f.Lang, typePath)
		if err != nil {
			return nil, "", err
		}
		if t == nil {
			continue
		}
		if m, _, err := r.javaMember(f, u, *t, cands, true, false, 0); m != nil || err != nil {
			return m, resolve.ResolvedImport, err
		}
	}
	return nil, "", nil
}

// javaIsNew reports whether the call u is new T(...): the word before its name is new.
func (r *resolver) javaIsNew(f *resolve.File, u extract.Identifier) (bool, error) {
	if u.Kind != extract.Call || u.StartLine < 1 {
		return false, nil
	}
	lines, err := r.Lines(f.Path)
	if err != nil || u.StartLine > len(lines) {
		return false, err
	}
	before := lines[u.StartLine-1]
	if u.StartColumn < 1 || u.StartColumn-1 > len(before) {
		return false, nil
	}
	before = strings.TrimRight(before[:u.StartColumn-1], " \t")
	if before == "" && u.StartLine > 1 { // new\n    T()
		before = strings.TrimRight(lines[u.StartLine-2], " \t")
	}
	return strings.HasSuffix(before, "new") && (len(before) == 3 || !resolve.IsIdentByte(before[len(before)-4])), nil
}

// javaAnonMember looks for name among the members declared in the callable or field id (an
// anonymous class's methods and fields have it as parent): found when some are.
func (r *resolver) javaAnonMember(u extract.Identifier, id string, cands []*resolve.Def, f *resolve.File) (*resolve.Def, bool, error) {
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID == id && javaKindFits(u.Kind, d) {
			hit = append(hit, d)
		}
	}
	if len(hit) == 0 {
		return nil, false, nil
	}
	d, err := r.javaPick(f, u, hit)
	return d, true, err
}

// javaKindFits reports whether the definition d can be what a use of kind uk names: a
// call a method (a type: new T(); in C# a field, property or event holding a delegate), a
// type usage a type, else a field, constant or type.
func javaKindFits(uk extract.IdentKind, d *resolve.Def) bool {
	k := d.Kind
	if k == extract.Constructor.String() {
		return false
	}
	kk, _ := extract.KindNamed(k)
	switch uk {
	case extract.Call:
		return kk.IsCallable() || d.Language == "csharp" && csDelegateHolder(k)
	case extract.TypeUsage:
		return javaIsType(k)
	}
	return !kk.IsCallable()
}

// javaMember returns the member of t (or of its bases) the use names: for a call, the overload
// its number of arguments fits. stop reports that t has a base outside the workspace that
// may declare the name.
func (r *resolver) javaMember(f *resolve.File, u extract.Identifier, t resolve.Def, cands []*resolve.Def, static, super bool, depth int) (d *resolve.Def, stop bool, err error) {
	if depth > javaMaxDepth {
		return nil, true, nil
	}
	if !super {
		ids, err := r.javaParts(t)
		if err != nil {
			return nil, false, err
		}
		var hit []*resolve.Def
		for _, d := range cands {
			if slices.Contains(ids, d.ParentID) && javaKindFits(u.Kind, d) {
				hit = append(hit, d)
			}
		}
		if len(hit) == 0 && u.Kind == extract.Call { // new Outer.Inner(): a nested type
			for _, d := range cands {
				if slices.Contains(ids, d.ParentID) && javaIsType(d.Kind) && d.Name == u.Name {
					hit = append(hit, d)
				}
			}
		}
		if len(hit) > 0 && u.Kind == extract.Call {
			// a method of t the call's arguments cannot fit leaves it to t's bases
			if args, ok, err := r.javaCallArgs(f, u); err != nil {
				return nil, false, err
			} else if ok {
				var fit []*resolve.Def
				spread := true // every fit takes the arguments as varargs
				for _, d := range hit {
					min, vararg := javaParamCount(javaParams(d))
					if k, _ := extract.KindNamed(d.Kind); !k.IsCallable() || len(args) == min || vararg && len(args) >= min-1 {
						fit = append(fit, d)
						spread = spread && len(args) != min
					}
				}
				hit = fit
				// javac prefers a method of fixed arity, which a base outside the workspace
				// may have
				if len(fit) > 0 && spread {
					if foreign, err := r.javaForeign(t, 0); err != nil || foreign {
						return nil, true, err
					}
				}
			}
		}
		if len(hit) > 0 {
			d, err := r.javaPick(f, u, hit)
			return d, d == nil, err
		}
	}
	bases, external, err := r.javaBases(t)
	if err != nil {
		return nil, false, err
	}
	for _, b := range bases {
		d, st, err := r.javaMember(f, u, *b, cands, static, false, depth+1)
		if d != nil || err != nil {
			return d, false, err
		}
		stop = stop || st
	}
	return nil, stop || external, nil
}

// javaPick picks among a type's members of the name: the one, or for a call the one overload
// whose parameters its arguments fit in number, and when several do, the one whose
// parameters' types are those of the arguments whose types are plain to see (a literal
// string, new T(), a local, parameter or field of a declared type).
func (r *resolver) javaPick(f *resolve.File, u extract.Identifier, hit []*resolve.Def) (*resolve.Def, error) {
	if len(hit) == 1 {
		return hit[0], nil
	}
	if u.Kind != extract.Call {
		return nil, nil
	}
	args, ok, err := r.javaCallArgs(f, u)
	if err != nil || !ok {
		return nil, err
	}
	var fit []*resolve.Def
	for _, d := range hit {
		k, _ := extract.KindNamed(d.Kind)
		if !k.IsCallable() {
			continue
		}
		min, vararg := javaParamCount(javaParams(d))
		if len(args) == min || vararg && len(args) >= min-1 {
			fit = append(fit, d)
		}
	}
	if len(fit) == 1 {
		return fit[0], nil
	}
	if len(fit) == 0 {
		return nil, nil
	}
	types := make([]string, len(args))
	known := false
	for i, a := range args {
		if types[i], err = r.javaArgType(f, u, a); err != nil {
			return nil, err
		}
		known = known || types[i] != ""
	}
	if !known {
		return nil, nil
	}
	var exact []*resolve.Def
	for _, d := range fit {
		params := javaParamTypes(javaParams(d))
		ok := len(params) == len(types)
		for i := 0; ok && i < len(types); i++ {
			ok = types[i] == "" || javaSimpleType(params[i]) == types[i]
		}
		if ok {
			exact = append(exact, d)
		}
	}
	if len(exact) == 1 {
		return exact[0], nil
	}
	return nil, nil
}

// javaArgType returns the simple name of the type of an argument whose type is plain to see,
// "" otherwise.
func (r *resolver) javaArgType(f *resolve.File, u extract.Identifier, a []javaToken) (string, error) {
	switch {
	case len(a) == 1 && a[0].s == `""`:
		if f.Lang == "csharp" {
			return "string", nil
		}
		return "String", nil
	case len(a) >= 4 && a[0].s == "(" && javaCastEnd(a, javaMatchParen(a, 0)+1) == len(a) && javaIsTypeTokens(a[1:javaMatchParen(a, 0)]):
		return javaSimpleType(javaJoin(a[1:javaMatchParen(a, 0)])), nil // (T) x
	case len(a) >= 2 && a[0].s == "new" && resolve.IsIdent(a[1].s) && !javaKeywords[a[1].s]:
		path := a[1].s
		for i := 2; i+1 < len(a) && a[i].s == "." && resolve.IsIdent(a[i+1].s); i += 2 {
			path = a[i+1].s
		}
		return path, nil
	case len(a) == 1 && resolve.IsIdent(a[0].s) && !javaKeywords[a[0].s]:
		chain, err := r.Chain(u.ContainingSymbolID)
		if err != nil {
			return "", err
		}
		typ, found, err := r.javaLocal(f, chain, a[0].s, u.StartLine, u.StartColumn)
		if err != nil || found {
			return javaSimpleType(typ), err
		}
		fd, _, err := r.javaFieldIn(f, extract.Identifier{Name: a[0].s, Kind: extract.VariableRef, ContainingSymbolID: u.ContainingSymbolID, Span: u.Span}, chain)
		if err != nil || fd == nil || javaIsType(fd.Kind) {
			return "", err
		}
		return javaSimpleType(resolve.DeclaredType(fd.Signature, fd.Name, fd.Language)), nil
	}
	return "", nil
}

// javaParams returns the part of a method's signature from its name on (its annotations'
// arguments, @SuppressWarnings("x"), before it left out).
func javaParams(d *resolve.Def) string {
	sig := d.Signature
	for from := 0; ; {
		i := strings.Index(sig[from:], d.Name)
		if i < 0 {
			return sig
		}
		i += from
		from = i + len(d.Name)
		if (i == 0 || !resolve.IsIdentByte(sig[i-1])) && strings.HasPrefix(strings.TrimLeft(sig[from:], " \t"), "(") {
			return sig[i:]
		}
	}
}

// javaParamTypes returns the declared types of a method signature's parameters.
func javaParamTypes(sig string) []string {
	groups := resolve.ParenGroups(sig)
	if len(groups) == 0 || strings.TrimSpace(groups[0]) == "" {
		return nil
	}
	var out []string
	for _, p := range resolve.SplitTop(groups[0], ',') {
		f := strings.Fields(p)
		for len(f) > 1 && (resolve.DeclModifiers[f[0]] || strings.HasPrefix(f[0], "@")) {
			f = f[1:]
		}
		if len(f) < 2 {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Join(f[:len(f)-1], " "))
	}
	return out
}

// javaSimpleType returns a type's simple name: Entry of java.util.Map.Entry<K, V>; "" when
// it is not a named type (an array, a type's varargs).
func javaSimpleType(typ string) string {
	if strings.Contains(typ, "[") || strings.Contains(typ, "...") {
		return ""
	}
	b := resolve.BaseTypeName(typ)
	if i := strings.LastIndexByte(b, '.'); i >= 0 {
		b = b[i+1:]
	}
	return b
}

// javaParamCount returns the number of parameters a method's signature declares, and whether
// the last is a varargs one.
func javaParamCount(sig string) (int, bool) {
	groups := resolve.ParenGroups(sig)
	if len(groups) == 0 || strings.TrimSpace(groups[0]) == "" {
		return 0, false
	}
	parts := resolve.SplitTop(groups[0], ',')
	return len(parts), strings.Contains(parts[len(parts)-1], "...")
}

// javaCallArgs returns the arguments (each its tokens) of the call whose name is the use,
// read from the stored source after the name.
func (r *resolver) javaCallArgs(f *resolve.File, u extract.Identifier) ([][]javaToken, bool, error) {
	lines, err := r.Lines(f.Path)
	if err != nil || u.StartLine < 1 || u.StartLine > len(lines) {
		return nil, false, err
	}
	end := min(len(lines), u.StartLine+40)
	text := strings.Join(lines[u.StartLine-1:end], "\n")
	i := u.StartColumn - 1 + len(u.Name)
	if u.StartColumn < 1 || i > len(text) || !strings.HasPrefix(text[u.StartColumn-1:], u.Name) {
		return nil, false, nil
	}
	toks := javaTokens(text[i:], 4000)
	if len(toks) > 0 && toks[0].s == "<" { // new Foo<>(...), new Foo<T>(...)
		j := javaMatchAngle(toks, 0)
		if j < 0 {
			return nil, false, nil
		}
		toks = toks[j+1:]
	}
	if len(toks) == 0 || toks[0].s != "(" {
		return nil, false, nil
	}
	j := javaMatchParen(toks, 0)
	if j < 0 {
		return nil, false, nil
	}
	return javaSplitArgs(toks[:j+1]), true, nil
}

// javaSplitArgs splits a parenthesized argument list's tokens into its arguments.
func javaSplitArgs(toks []javaToken) [][]javaToken {
	if len(toks) <= 2 {
		return nil
	}
	var out [][]javaToken
	depth, start := 0, 1
	for i, t := range toks {
		switch t.s {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				out = append(out, toks[start:i])
			}
		case ",":
			if depth == 1 {
				out = append(out, toks[start:i])
				start = i + 1
			}
		}
	}
	return out
}

// javaBases returns the types t extends and implements that are the workspace's, and whether
// it extends a class outside it.
func (r *resolver) javaBases(t resolve.Def) ([]*resolve.Def, bool, error) {
	if b, ok := r.javaBasesOf[t.ID]; ok {
		return b.bases, b.external, nil
	}
	if r.javaBasesOf == nil {
		r.javaBasesOf = map[string]javaBaseSet{}
	}
	r.javaBasesOf[t.ID] = javaBaseSet{} // a cycle of extends ends here
	ids, err := r.javaParts(t)
	if err != nil {
		return nil, false, err
	}
	var b []*resolve.Def
	ext, foreign := false, false
	for _, id := range ids { // a C# partial type's bases may be declared in any part
		part := t
		if id != t.ID {
			p, err := r.Symbol(id)
			if err != nil || p == nil {
				return nil, false, err
			}
			part = *p
		}
		pb, pext, pforeign, perr := r.readJavaBases(part)
		if perr != nil {
			err = perr
			break
		}
		for _, d := range pb {
			if !slices.ContainsFunc(b, func(x *resolve.Def) bool { return x.ID == d.ID }) {
				b = append(b, d)
			}
		}
		ext, foreign = ext || pext, foreign || pforeign
	}
	if err == nil {
		r.javaBasesOf[t.ID] = javaBaseSet{b, ext, foreign}
	}
	return b, ext, err
}

// javaBaseSet is what javaBases found of a type.
type javaBaseSet struct {
	bases    []*resolve.Def
	external bool // it extends a class outside the workspace
	foreign  bool // it extends or implements a type outside the workspace
}

func (r *resolver) readJavaBases(t resolve.Def) ([]*resolve.Def, bool, bool, error) {
	var blob []byte
	err := r.Store().DB().QueryRowContext(r.Context(), `SELECT coalesce(r.data, x'') FROM files f LEFT JOIN relationships r ON r.file = f.id WHERE f.path = ?`, t.Path).Scan(&blob)
	if err == sql.ErrNoRows || err == nil && len(blob) == 0 {
		return nil, false, false, nil
	}
	if err != nil {
		return nil, false, false, fmt.Errorf("index: relationships of %s: %w", t.Path, err)
	}
	rels, err := store.DecodeRels(blob)
	if err != nil {
		return nil, false, false, err
	}
	tf, err := r.FileOf(t.Path, t.Language)
	if err != nil {
		return nil, false, false, err
	}
	var out []*resolve.Def
	external, foreign := false, false
	for _, rel := range rels {
		if rel.FromID != t.ID || rel.Kind != extract.Extends && rel.Kind != extract.Implements {
			continue
		}
		d, err := r.TypeNamed(tf, rel.To, t.ParentID)
		if err != nil {
			return nil, false, false, err
		}
		switch {
		case d != nil && d.ID != t.ID:
			out = append(out, d)
		case d == nil && rel.Kind == extract.Extends && t.Kind == extract.Class.String():
			external = true
			foreign = true
		case d == nil || d.ID == t.ID: // not the workspace's (Logger extends System.Logger:
			// the relationship names Logger, and Logger here is t itself)
			foreign = true
		}
	}
	return out, external, foreign, nil
}

// javaForeign reports whether t or one of its bases extends or implements a type outside
// the workspace.
func (r *resolver) javaForeign(t resolve.Def, depth int) (bool, error) {
	bases, _, err := r.javaBases(t)
	if err != nil || depth > javaMaxDepth {
		return false, err
	}
	if r.javaBasesOf[t.ID].foreign {
		return true, nil
	}
	for _, b := range bases {
		if f, err := r.javaForeign(*b, depth+1); f || err != nil {
			return f, err
		}
	}
	return false, nil
}

// javaTypeNamed returns the workspace type a bare type name means inside the symbols chain
// (innermost first) of the file f: a type nested in an enclosing type (or its bases), the
// enclosing type itself, a top-level type of the file, a single-type import, the package's
// own, an on-demand import.
func (r *resolver) javaTypeNamed(f *resolve.File, chain []string, name string) (*resolve.Def, error) {
	defs, err := r.javaDefs(f.Lang, name)
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	isType := func(d *resolve.Def) bool { return javaIsType(d.Kind) && d.Name == name }
	for _, id := range chain {
		t, err := r.Symbol(id)
		if err != nil || t == nil {
			return nil, err
		}
		if !javaIsType(t.Kind) {
			for _, d := range defs { // a local class
				if d.ParentID == id && isType(d) {
					return d, nil
				}
			}
			continue
		}
		if t.Name == name {
			return t, nil
		}
		if d, err := r.javaNestedIn(*t, name, defs, 0); d != nil || err != nil {
			return d, err
		}
	}
	if f.Lang == "csharp" {
		return r.csTypeNamed(f, chain, name, defs)
	}
	for _, d := range defs {
		if d.Path == f.Path && d.ParentID == "" && isType(d) {
			return d, nil
		}
	}
	for _, im := range f.Imports { // import a.b.C; import a.b.Outer.C
		if resolve.LastSegment(im.Target, ".") == name && !strings.HasSuffix(im.Target, ".*") {
			return r.javaTypePath(f.Lang, im.Target)
		}
	}
	if f.Pkg != "" {
		if d, err := r.javaTopType(f.Pkg, name, defs); d != nil || err != nil {
			return d, err
		}
	}
	for _, im := range f.Imports { // import a.b.*; import a.b.Outer.*
		if p, ok := strings.CutSuffix(im.Target, ".*"); ok {
			if d, err := r.javaTopType(p, name, defs); d != nil || err != nil {
				return d, err
			}
			if t, err := r.javaTypePath(f.Lang, p); err != nil {
				return nil, err
			} else if t != nil {
				if d, err := r.javaNested(*t, name); d != nil || err != nil {
					return d, err
				}
			}
		}
	}
	return nil, nil
}

// javaNestedIn returns the type named name nested in t or in one of its bases.
func (r *resolver) javaNestedIn(t resolve.Def, name string, defs []*resolve.Def, depth int) (*resolve.Def, error) {
	ids, err := r.javaParts(t)
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		if slices.Contains(ids, d.ParentID) && javaIsType(d.Kind) {
			return d, nil
		}
	}
	if depth > javaMaxDepth {
		return nil, nil
	}
	bases, _, err := r.javaBases(t)
	if err != nil {
		return nil, err
	}
	for _, b := range bases {
		if d, err := r.javaNestedIn(*b, name, defs, depth+1); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// isJavaPackagePath reports whether q looks like a package's dotted name (lower-case parts).
func isJavaPackagePath(q string) bool {
	for _, s := range strings.Split(q, ".") {
		if !resolve.IsIdent(s) || resolve.IsUpper(s) {
			return false
		}
	}
	return true
}

// javaExprType returns the type of the Java expression q (a use's qualifier) as a use inside
// u's symbol: static when q names the type itself (Type.member). ok is false when q is not
// an expression these rules read (or a package's name); t is nil when its type is not one
// of the workspace's.
func (r *resolver) javaExprType(f *resolve.File, u extract.Identifier, q string, depth int) (t *resolve.Def, static, ok bool, err error) {
	if depth > javaMaxDepth {
		return nil, false, true, nil
	}
	toks := javaTokens(q, 400)
	if len(toks) == 0 {
		return nil, false, false, nil
	}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, false, false, err
	}
	i := 0
	// the primary
	switch s := toks[0].s; {
	case s == "this":
		t, err = r.javaEnclosingType(chain)
		i = 1
	case s == "super" || s == "base" && f.Lang == "csharp":
		t, err = r.javaEnclosingType(chain) // the member is looked up in its bases
		i = 1
	case s == "new":
		j := 1
		var path []string
		for j < len(toks) && resolve.IsIdent(toks[j].s) {
			path = append(path, toks[j].s)
			if j+1 < len(toks) && toks[j+1].s == "." {
				j += 2
				continue
			}
			j++
			break
		}
		if len(path) == 0 {
			return nil, false, false, nil
		}
		if j < len(toks) && toks[j].s == "<" {
			if j = javaMatchAngle(toks, j); j < 0 {
				return nil, false, false, nil
			}
			j++
		}
		if j >= len(toks) || toks[j].s != "(" { // new T[n]: an array
			return nil, false, true, nil
		}
		if j = javaMatchParen(toks, j); j < 0 {
			return nil, false, false, nil
		}
		i = j + 1
		if i < len(toks) && toks[i].s == "{" { // an anonymous class: its members are not T's
			return nil, false, true, nil
		}
		t, err = r.TypeNamed(f, strings.Join(path, "."), u.ContainingSymbolID)
	case s == "(":
		j := javaMatchParen(toks, 0)
		if j < 0 {
			return nil, false, false, nil
		}
		inner := toks[1:j]
		if j+1 < len(toks) && javaIsTypeTokens(inner) && (resolve.IsIdent(toks[j+1].s) || toks[j+1].s == "(" || toks[j+1].s == "this") {
			// a cast: (T) x, ((T) x).m()
			if javaCastEnd(toks, j+1) != len(toks) {
				return nil, false, true, nil
			}
			t, err = r.TypeNamed(f, javaJoin(inner), u.ContainingSymbolID)
			i = len(toks)
		} else {
			t, static, ok, err = r.javaExprType(f, u, javaJoin(inner), depth+1)
			if !ok || err != nil {
				return nil, false, ok, err
			}
			i = j + 1
		}
	case resolve.IsIdent(s):
		i = 1
		if len(toks) > 1 && toks[1].s == "(" { // m(...): a method of an enclosing type
			j := javaMatchParen(toks, 1)
			if j < 0 {
				return nil, false, false, nil
			}
			t, err = r.javaCallResult(f, u, chain, nil, s, toks[1:j+1])
			i = j + 1
			break
		}
		typ, found, lerr := r.javaLocal(f, chain, s, u.StartLine, u.StartColumn)
		if lerr != nil {
			return nil, false, false, lerr
		}
		if found {
			if typ == "" {
				return nil, false, true, nil
			}
			t, err = r.TypeNamed(f, typ, u.ContainingSymbolID)
			break
		}
		fu := extract.Identifier{Name: s, Kind: extract.VariableRef, ContainingSymbolID: u.ContainingSymbolID, Span: u.Span}
		fd, _, ferr := r.javaFieldIn(f, fu, chain)
		if ferr != nil {
			return nil, false, false, ferr
		}
		if fd != nil && javaIsType(fd.Kind) {
			t, static = fd, true
			break
		}
		if fd != nil {
			t, err = r.javaDeclaredType(*fd)
			break
		}
		if tt, terr := r.javaTypeNamed(f, chain, s); terr != nil || tt != nil {
			t, static, err = tt, true, terr
			break
		}
		// a package's name: a.b.C is the type C of the package a.b
		j := 0
		var pkg []string
		for j+2 < len(toks) && resolve.IsIdent(toks[j].s) && toks[j+1].s == "." && resolve.IsIdent(toks[j+2].s) {
			pkg = append(pkg, toks[j].s)
			if tt, terr := r.javaTopTypeNamed(f.Lang, strings.Join(pkg, "."), toks[j+2].s); terr != nil || tt != nil {
				t, static, err = tt, true, terr
				i = j + 3
				break
			}
			j += 2
		}
		if t == nil && err == nil {
			return nil, false, false, nil
		}
	default: // a literal ("x".length()), an array
		return nil, false, true, nil
	}
	if err != nil || t == nil {
		return nil, false, true, err
	}
	// the selections that follow
	for i < len(toks) {
		if toks[i].s == "!" && f.Lang == "csharp" { // x!.y: C#'s null-forgiving operator
			i++
			continue
		}
		if toks[i].s != "." && toks[i].s != "?." || i+1 >= len(toks) {
			return nil, false, true, nil
		}
		name := toks[i+1].s
		i += 2
		switch {
		case name == "this" && static: // Outer.this
			static = false
			continue
		case name == "super" && static:
			continue
		case name == "class":
			return nil, false, true, nil
		case !resolve.IsIdent(name):
			return nil, false, true, nil
		}
		if i < len(toks) && toks[i].s == "(" {
			j := javaMatchParen(toks, i)
			if j < 0 {
				return nil, false, true, nil
			}
			if t, err = r.javaCallResult(f, u, nil, t, name, toks[i:j+1]); t == nil || err != nil {
				return nil, false, true, err
			}
			static = false
			i = j + 1
			continue
		}
		fu := extract.Identifier{Name: name, Kind: extract.MemberAccess}
		defs, err := r.javaDefs(f.Lang, name)
		if err != nil {
			return nil, false, true, err
		}
		m, _, err := r.javaMember(f, fu, *t, defs, static, false, 0)
		if m == nil || err != nil {
			return nil, false, true, err
		}
		if javaIsType(m.Kind) {
			t, static = m, true
			continue
		}
		if t, err = r.javaDeclaredType(*m); t == nil || err != nil {
			return nil, false, true, err
		}
		static = false
	}
	return t, static, true, nil
}

// javaTopTypeNamed returns the top-level type name of the package pkg.
func (r *resolver) javaTopTypeNamed(lang, pkg, name string) (*resolve.Def, error) {
	defs, err := r.javaDefs(lang, name)
	if err != nil {
		return nil, err
	}
	return r.javaTopType(pkg, name, defs)
}

// javaEnclosingType returns the innermost type of chain.
func (r *resolver) javaEnclosingType(chain []string) (*resolve.Def, error) {
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return nil, err
		}
		if javaIsType(d.Kind) {
			return d, nil
		}
	}
	return nil, nil
}

// javaFieldIn returns the field a bare name means in the enclosing types of chain.
func (r *resolver) javaFieldIn(f *resolve.File, u extract.Identifier, chain []string) (*resolve.Def, bool, error) {
	defs, err := r.javaDefs(f.Lang, u.Name)
	if err != nil {
		return nil, false, err
	}
	for i, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return nil, false, err
		}
		if !javaIsType(d.Kind) {
			if i > 0 {
				if m, found, err := r.javaAnonMember(u, id, defs, f); found || err != nil {
					return m, found, err
				}
			}
			continue
		}
		m, _, err := r.javaMember(f, u, *d, defs, false, false, 0)
		if m != nil || err != nil {
			return m, m != nil, err
		}
	}
	return nil, false, nil
}

// javaCallResult returns the declared result type of the call name(args) on the type t (nil:
// a method of the enclosing types of chain).
func (r *resolver) javaCallResult(f *resolve.File, u extract.Identifier, chain []string, t *resolve.Def, name string, args []javaToken) (*resolve.Def, error) {
	defs, err := r.javaDefs(f.Lang, name)
	if err != nil {
		return nil, err
	}
	var hit []*resolve.Def
	collect := func(ty resolve.Def) (bool, error) {
		ids, err := r.javaParts(ty)
		if err != nil {
			return false, err
		}
		var h []*resolve.Def
		for _, d := range defs {
			if slices.Contains(ids, d.ParentID) && javaKindFits(extract.Call, d) {
				h = append(h, d)
			}
		}
		if len(h) > 0 {
			hit = h
			return true, nil
		}
		return false, nil
	}
	var find func(ty resolve.Def, depth int) (bool, error)
	find = func(ty resolve.Def, depth int) (bool, error) {
		if ok, err := collect(ty); ok || err != nil {
			return ok, err
		}
		if depth > javaMaxDepth {
			return false, nil
		}
		bases, _, err := r.javaBases(ty)
		if err != nil {
			return false, err
		}
		for _, b := range bases {
			if ok, err := find(*b, depth+1); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	if t != nil {
		if _, err := find(*t, 0); err != nil {
			return nil, err
		}
	} else {
		for _, id := range chain {
			d, err := r.Symbol(id)
			if err != nil || d == nil {
				return nil, err
			}
			if javaIsType(d.Kind) {
				if ok, err := find(*d, 0); ok || err != nil {
					break
				}
			}
		}
	}
	if len(hit) == 0 {
		return nil, nil
	}
	n := len(javaSplitArgs(args))
	var fit []*resolve.Def
	for _, d := range hit {
		min, vararg := javaParamCount(javaParams(d))
		if n == min || vararg && n >= min-1 {
			fit = append(fit, d)
		}
	}
	if len(fit) == 0 {
		return nil, nil
	}
	// overloads of one arity with one declared result type are as good as one
	var res *resolve.Def
	for i, d := range fit {
		rt, err := r.ResultType(d)
		if err != nil {
			return nil, err
		}
		if rt == nil || i > 0 && (res == nil || rt.ID != res.ID) {
			return nil, nil
		}
		res = rt
	}
	return res, nil
}

// javaDeclaredType returns the workspace type a field (or constant) is declared with.
func (r *resolver) javaDeclaredType(d resolve.Def) (*resolve.Def, error) {
	typ := resolve.DeclaredType(d.Signature, d.Name, d.Language)
	if typ == "" {
		return nil, nil
	}
	df, err := r.FileOf(d.Path, d.Language)
	if err != nil {
		return nil, err
	}
	return r.TypeNamed(df, typ, d.ParentID)
}

// javaLocal reports whether name is a local variable or parameter in scope at line and col
// of the outermost callable of chain (below its innermost type), with the type it is
// declared with ("" when not said: var, a lambda's parameter).
func (r *resolver) javaLocal(f *resolve.File, chain []string, name string, line, col int) (typ string, found bool, err error) {
	var fn *resolve.Def
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return "", false, err
		}
		if javaIsType(d.Kind) {
			break
		}
		if k, _ := extract.KindNamed(d.Kind); k.IsCallable() {
			fn = d
		}
	}
	skip := 0
	if fn == nil { // an initializer block, a field's initializer: from the type's start, its
		// fields (declared in its body) left out
		t, err := r.javaEnclosingType(chain)
		if err != nil || t == nil {
			return "", false, err
		}
		fn, skip = t, 1
	}
	if line < fn.Line {
		return "", false, nil
	}
	lines, err := r.Lines(f.Path)
	if err != nil {
		return "", false, err
	}
	if line > len(lines) {
		return "", false, nil
	}
	var b strings.Builder
	for n := fn.Line; n < line; n++ {
		b.WriteString(lines[n-1])
		b.WriteByte('\n')
	}
	last := lines[line-1]
	if col >= 1 && col-1 <= len(last) {
		last = last[:col-1]
	}
	b.WriteString(last)
	typ, found = javaLocalsIn(b.String(), name, skip)
	return typ, found, nil
}

// javaToken is a token of Java source: a name, a keyword, an operator or a bracket (literals
// are "0" and "\"\"").
type javaToken struct{ s string }

// javaTokens splits Java source into tokens, at most max.
func javaTokens(src string, max int) []javaToken {
	var out []javaToken
	for i := 0; i < len(src) && len(out) < max; {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(src)
			}
		case c == '"' || c == '\'':
			if strings.HasPrefix(src[i:], `"""`) {
				if j := strings.Index(src[i+3:], `"""`); j >= 0 {
					i += j + 6
				} else {
					i = len(src)
				}
			} else {
				j := i + 1
				for j < len(src) && src[j] != c && src[j] != '\n' {
					if src[j] == '\\' {
						j++
					}
					j++
				}
				i = j + 1
			}
			out = append(out, javaToken{`""`})
		case resolve.IsIdentByte(c) || c >= 0x80:
			j := i
			for j < len(src) && (resolve.IsIdentByte(src[j]) || src[j] >= 0x80) {
				j++
			}
			if c >= '0' && c <= '9' {
				for j < len(src) && (resolve.IsIdentByte(src[j]) || src[j] == '.') {
					j++
				}
				out = append(out, javaToken{"0"})
			} else {
				out = append(out, javaToken{src[i:j]})
			}
			i = j
		default:
			op := string(c)
			for _, o := range []string{"...", "->", "=>", "?.", "??", "::", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="} {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			out = append(out, javaToken{op})
			i += len(op)
		}
	}
	return out
}

// javaKeywords are Java's reserved words (and the contextual var, yield, record).
var javaKeywords = map[string]bool{
	"abstract": true, "assert": true, "boolean": true, "break": true, "byte": true, "case": true,
	"catch": true, "char": true, "class": true, "const": true, "continue": true, "default": true,
	"do": true, "double": true, "else": true, "enum": true, "extends": true, "final": true,
	"finally": true, "float": true, "for": true, "goto": true, "if": true, "implements": true,
	"import": true, "instanceof": true, "int": true, "interface": true, "long": true, "native": true,
	"new": true, "package": true, "private": true, "protected": true, "public": true, "return": true,
	"short": true, "static": true, "strictfp": true, "super": true, "switch": true, "synchronized": true,
	"this": true, "throw": true, "throws": true, "transient": true, "try": true, "void": true,
	"volatile": true, "while": true, "true": true, "false": true, "null": true, "var": true, "yield": true,
}

// javaPrimitive are the names a declaration's type may be besides a type name.
var javaPrimitive = map[string]bool{
	"boolean": true, "byte": true, "char": true, "double": true, "float": true, "int": true,
	"long": true, "short": true, "var": true,
	// C#'s predefined types besides those (no Java name: a Java cast never names them)
	"bool": true, "sbyte": true, "ushort": true, "uint": true, "ulong": true, "decimal": true,
	"string": true, "object": true, "nint": true, "nuint": true,
}

// javaLocalsIn reports whether src (a callable's source from its declaration up to a use)
// declares name as a parameter or local still in scope at its end, with its declared type
// (skip > 0: the declarations directly inside that many brackets are not locals: a type's
// fields). A local lives to the end of its block; a variable declared in parentheses (for, catch,
// try, a pattern of if, a lambda's parameters) to the end of the block or statement that
// follows, a lambda's with an expression body to the end of that expression; a method's
// parameters to the end of the method.
func javaLocalsIn(src, name string, skip int) (typ string, found bool) {
	toks := javaTokens(src, 1<<20)
	const (
		inBlock   = iota // dies when the bracket level falls below level
		inParens         // declared in parentheses: decided when they close
		untilSemi        // dies at the next ; at level
		inExpr           // a lambda's with an expression body: dies at , ; or ) at level
	)
	type decl struct {
		typ          string
		scope, level int
	}
	var live []decl
	var stack []byte
	next := func(i int) string {
		if i+1 < len(toks) {
			return toks[i+1].s
		}
		return ""
	}
	kill := func(dead func(d decl) bool) {
		kept := live[:0]
		for _, d := range live {
			if !dead(d) {
				kept = append(kept, d)
			}
		}
		live = kept
	}
	// lambda gives the parameters declared from index from on (or the one d) the scope of a
	// lambda whose -> is at toks[i]
	lambda := func(i int, from int) {
		body := inExpr
		level := len(stack)
		if next(i) == "{" {
			body, level = inBlock, len(stack)+1
		}
		for k := from; k < len(live); k++ {
			live[k].scope, live[k].level = body, level
		}
	}
	for i, t := range toks {
		switch t.s {
		case "{", "(":
			stack = append(stack, t.s[0])
			continue
		case "}", ")":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			n := len(stack)
			kill(func(d decl) bool {
				return d.scope == inBlock && d.level > n || d.scope == inExpr && d.level > n || d.scope == untilSemi && d.level > n
			})
			if t.s == ")" {
				nx := next(i)
				for k := range live {
					d := &live[k]
					if d.scope != inParens || d.level != n+1 {
						continue
					}
					switch {
					case nx == "{":
						d.scope, d.level = inBlock, n+1
					case nx == "->" || nx == "=>":
						// left for the -> to place
					case n == 0: // a method's parameters (throws ... { follows)
						d.scope, d.level = inBlock, 0
					default:
						d.scope, d.level = untilSemi, n
					}
				}
			}
			continue
		case ";", ",":
			n := len(stack)
			kill(func(d decl) bool {
				return d.scope == inExpr && d.level == n || t.s == ";" && d.scope == untilSemi && d.level == n
			})
			continue
		case "->", "=>": // a Java or C# lambda (=> is C#'s, and also its expression-bodied member's)
			if i > 0 && toks[i-1].s == ")" {
				if j := javaMatchParenBack(toks, i-1); j >= 0 {
					first := len(live)
					for k := range live { // typed parameters, declared in the parentheses
						if live[k].scope == inParens && live[k].level == len(stack)+1 {
							first = min(first, k)
						}
					}
					for k := j + 1; k < i-1; k++ { // untyped ones: (a, b) ->
						if toks[k].s == name && (toks[k-1].s == "(" || toks[k-1].s == ",") && (toks[k+1].s == "," || toks[k+1].s == ")") {
							live = append(live, decl{"", inParens, len(stack) + 1})
						}
					}
					lambda(i, first)
				}
			} else if i > 0 && toks[i-1].s == name && (i < 2 || toks[i-2].s != ".") {
				live = append(live, decl{"", inParens, 0})
				lambda(i, len(live)-1)
			}
			continue
		}
		if t.s != name || i == 0 {
			continue
		}
		nx := next(i)
		if nx != "=" && nx != ";" && nx != "," && nx != ":" && nx != ")" && nx != "[" && nx != "in" {
			continue
		}
		ty, ok := javaTypeBefore(toks, i)
		if !ok {
			continue
		}
		if ty == "var" {
			ty = ""
			if nx == "=" && i+3 < len(toks) && toks[i+2].s == "new" && resolve.IsIdent(toks[i+3].s) {
				ty = toks[i+3].s
			}
		}
		if skip > 0 && len(stack) == skip {
			continue
		}
		d := decl{ty, inBlock, len(stack)}
		if len(stack) > 0 && stack[len(stack)-1] == '(' {
			d.scope = inParens
		}
		live = append(live, d)
	}
	if len(live) == 0 {
		return "", false
	}
	return live[len(live)-1].typ, true
}

// javaTypeBefore reads the type that ends right before toks[i] (a declaration's: T x,
// List<T> x, a.B x, byte[] x, final T x), ok false when what precedes is not one.
func javaTypeBefore(toks []javaToken, i int) (string, bool) {
	j := i - 1
	for j >= 1 && toks[j].s == "]" && toks[j-1].s == "[" {
		j -= 2
	}
	end := j
	if j >= 0 && toks[j].s == ">" {
		k := javaMatchAngleBack(toks, j)
		if k < 1 {
			return "", false
		}
		j = k - 1
	}
	if j < 0 || !resolve.IsIdent(toks[j].s) || javaKeywords[toks[j].s] && !javaPrimitive[toks[j].s] {
		return "", false
	}
	start := j
	for start >= 2 && toks[start-1].s == "." && resolve.IsIdent(toks[start-2].s) {
		start -= 2
	}
	if start >= 1 {
		switch toks[start-1].s {
		case ".", "new", "::":
			return "", false
		}
	}
	return javaJoin(toks[start : end+1]), true
}

// javaMatchAngle returns the index of the > closing the < at toks[i], -1 when the tokens
// between are not a type's arguments.
func javaMatchAngle(toks []javaToken, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch s := toks[j].s; {
		case s == "<":
			depth++
		case s == ">":
			depth--
			if depth == 0 {
				return j
			}
		case s == ">>":
			depth -= 2
			if depth <= 0 {
				return j
			}
		case resolve.IsIdent(s) || s == "." || s == "," || s == "?" || s == "&" || s == "[" || s == "]" || s == "@":
		default:
			return -1
		}
	}
	return -1
}

// javaMatchAngleBack returns the index of the < that the > at toks[i] closes, -1 when the
// tokens between are not a type's arguments (a comparison: a < b && c > d).
func javaMatchAngleBack(toks []javaToken, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch s := toks[j].s; {
		case s == ">":
			depth++
		case s == "<":
			depth--
			if depth == 0 {
				if j > 0 && resolve.IsIdent(toks[j-1].s) {
					return j
				}
				return -1
			}
		case resolve.IsIdent(s) && !javaKeywords[s] || s == "extends" || s == "super" || s == "." || s == "," || s == "?" || s == "&" || s == "[" || s == "]":
		default:
			return -1
		}
	}
	return -1
}

// javaMatchParen returns the index of the ) closing the ( at toks[i], -1 if none.
func javaMatchParen(toks []javaToken, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].s {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// javaMatchParenBack returns the index of the ( that the ) at toks[i] closes, -1 if none.
func javaMatchParenBack(toks []javaToken, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch toks[j].s {
		case ")":
			depth++
		case "(":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// javaIsTypeTokens reports whether toks spell a type (a cast's): a.B, List<T>, T[].
func javaIsTypeTokens(toks []javaToken) bool {
	if len(toks) == 0 || !resolve.IsIdent(toks[0].s) || javaKeywords[toks[0].s] && !javaPrimitive[toks[0].s] {
		return false
	}
	if len(toks) == 1 {
		return resolve.IsUpper(toks[0].s) || javaPrimitive[toks[0].s]
	}
	for i, t := range toks {
		switch {
		case resolve.IsIdent(t.s):
			if i > 0 && resolve.IsIdent(toks[i-1].s) {
				return false
			}
		case t.s == "." || t.s == "<" || t.s == ">" || t.s == "," || t.s == "?" || t.s == "[" || t.s == "]":
		default:
			return false
		}
	}
	return true
}

// javaCastEnd returns the index after the operand of a cast starting at toks[i] (a name with
// its selections and calls), which is len(toks) when the cast's operand is the whole rest.
func javaCastEnd(toks []javaToken, i int) int {
	for i < len(toks) {
		switch s := toks[i].s; {
		case s == "(":
			j := javaMatchParen(toks, i)
			if j < 0 {
				return -1
			}
			i = j + 1
		case resolve.IsIdent(s) || s == ".":
			i++
		default:
			return i
		}
	}
	return i
}

// javaJoin joins tokens back into text, a space between two names.
func javaJoin(toks []javaToken) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && resolve.IsIdent(t.s) && resolve.IsIdent(toks[i-1].s) {
			b.WriteByte(' ')
		}
		b.WriteString(t.s)
	}
	return b.String()
}

// javaIsType reports whether a definition of kind k is a type (a class, an interface, an
// enum, a record): not a package's namespace.
func javaIsType(k string) bool {
	kk, ok := extract.KindNamed(k)
	return ok && kk.IsType()
}
