package cfamily

// C and C++ resolution: what the compiler and the preprocessor would see from the use's
// file, read from the store.
//
//	locals         a bare name that is a parameter or local of an enclosing function (the
//	               extractor keeps them as the function's metadata "locals") or a template
//	               parameter of an enclosing template means that, never a global: unresolved
//	members        C++: a member of the class the use is in (or of a base), as scope and
//	               receiver resolve it
//	visible        a bare name means a definition in the use's file, in a header the file
//	               includes (#include, followed transitively, the quoted or bracketed path
//	               found as a workspace file's path suffix), or a function or global
//	               variable with external linkage anywhere (not static); a declaration (a
//	               prototype, an extern variable) means the one such definition of its name
//	               when there is one; a struct's field is never a bare name in C
//	macros         a macro visible from the use is what the name means when no other
//	               definition is; a macro's uses also count the uses of its name where it
//	               is visible that mean a function or variable of the same name
//	               (#define f _prefix_f renames it: cMacroCovers)
//	fields         p->x, s.x: a member of the declared type of p (typed.go), else in C the
//	               one field of that name in the workspace
//	paths          C++ a::b::f, E::v: the one candidate whose enclosing namespaces and types
//	               end with a::b
//
// Anything else with several candidates is unresolved, never guessed.

import (
	"path"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/java"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// cState is what C resolution read for a request: the workspace's C and C++ files and each
// file's headers reached by #include.
type cState struct {
	files []string          // by path
	langs map[string]string // the files' languages, by path
	reach map[string]map[string]bool
}

// cLang reports whether lang is C or C++.
func cLang(lang string) bool { return lang == "c" || lang == "cpp" }

// cResolve resolves a use in a C or C++ file; decided says its answer (maybe nil) stands.
func (r *resolver) cResolve(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
	if u.Kind == extract.ImportRef {
		return nil, "", false, nil
	}
	if f.Lang == "cpp" { // a class's name means the class, not its constructors named alike
		cands = slices.DeleteFunc(slices.Clone(cands), func(d *resolve.Def) bool {
			if d.Kind != extract.Constructor.String() {
				return false
			}
			return slices.ContainsFunc(cands, func(t *resolve.Def) bool { return t.ID == d.ParentID })
		})
	}
	q, isPath := strings.CutSuffix(u.Qualifier, "::")
	member := !isPath && (u.Qualifier != "" || u.Kind == extract.MemberAccess)
	if member && f.Lang == "cpp" { // x.f(), p->f(): a member, never a free function
		cands = slices.DeleteFunc(slices.Clone(cands), func(d *resolve.Def) bool { return r.cTopLevel(f, d) && !isMacro(d) })
		if len(cands) == 0 {
			return nil, "", true, nil
		}
	}
	switch {
	case u.Qualifier == "" && u.Kind != extract.MemberAccess:
		return r.cBare(f, u, cands)
	case isPath:
		d, err := r.cPath(q, cands)
		if d != nil || err != nil {
			return d, resolve.ResolvedQualified, true, err
		}
		return nil, "", false, nil
	}
	return r.cMember(f, u, q, cands)
}

// cBare resolves a bare name.
func (r *resolver) cBare(f *resolve.File, u extract.Identifier, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, "", true, err
	}
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil {
			return nil, "", true, err
		}
		if d == nil {
			continue
		}
		m := resolve.MetaMap(d.Metadata)
		if u.Kind != extract.TypeUsage && slices.Contains(strings.Split(m["locals"], ","), u.Name) || slices.Contains(templateNames(m["template_parameters"]), u.Name) {
			return nil, "", true, nil // a parameter, local or template parameter
		}
	}
	if f.Lang == "cpp" {
		if d, err := r.InScope(f, u, cands); d != nil || err != nil {
			return d, resolve.ResolvedScope, true, err
		}
		if d, err := r.InheritedBare(f, u, cands); d != nil || err != nil {
			return d, resolve.ResolvedReceiver, true, err
		}
	}
	vis, err := r.cVisible(f, u, cands)
	if err != nil {
		return nil, "", true, err
	}
	var macros, others []*resolve.Def
	for _, d := range vis {
		if isMacro(d) {
			macros = append(macros, d)
		} else {
			others = append(others, d)
		}
	}
	if len(others) > 1 && f.Lang == "cpp" {
		if others, err = r.cNamespaceLookup(u, others); err != nil {
			return nil, "", true, err
		}
	}
	if d := resolve.One(others); d != nil {
		why := resolve.ResolvedImport
		switch {
		case d.Path == f.Path:
			why = resolve.ResolvedScope
		case !r.cReaches(f.Path, d.Path):
			why = resolve.ResolvedGlobalUnique
		}
		return d, why, true, nil
	}
	if len(others) == 0 {
		if d := resolve.One(macros); d != nil {
			if d.Path == f.Path {
				return d, resolve.ResolvedScope, true, nil
			}
			return d, resolve.ResolvedImport, true, nil
		}
	}
	if f.Lang == "cpp" {
		return nil, "", false, nil // namespaces' using directives: the general rules
	}
	return nil, "", true, nil
}

// cVisible returns the candidates a bare name in f can mean, declarations replaced by their
// definition, each once.
func (r *resolver) cVisible(f *resolve.File, u extract.Identifier, cands []*resolve.Def) ([]*resolve.Def, error) {
	var out []*resolve.Def
	seen := map[string]bool{}
	add := func(d *resolve.Def) {
		if !seen[d.ID] {
			seen[d.ID] = true
			out = append(out, d)
		}
	}
	for _, d := range cands {
		if !r.cTopLevel(f, d) {
			continue
		}
		m := resolve.MetaMap(d.Metadata)
		decl := m["declaration"] == "true" || m["extern"] == "true"
		switch {
		case decl:
			if def := r.cDefinitionOf(d, cands); def != nil {
				add(def)
				continue
			}
			if d.Path == f.Path || r.cReaches(f.Path, d.Path) {
				add(d)
			}
		case d.Path == f.Path || r.cReaches(f.Path, d.Path):
			add(d)
		case !isMacro(d) && m["static"] != "true" && d.Visibility != string(extract.Private) && d.Visibility != string(extract.FilePrivate) && cLinked(d):
			add(d) // external linkage: linked from wherever it is defined
		}
	}
	return out, nil
}

// cTopLevel reports whether d can be what a bare name outside its type means: not a field
// nor a member function (C++ members are found by scope first); an enumerator of a plain
// enum is.
func (r *resolver) cTopLevel(f *resolve.File, d *resolve.Def) bool {
	if d.ParentID == "" {
		return true
	}
	p, err := r.Symbol(d.ParentID)
	if err != nil || p == nil {
		return true
	}
	switch p.Kind {
	case extract.Namespace.String():
		return true
	case extract.Enum.String():
		return resolve.MetaMap(p.Metadata)["scoped"] != "true"
	}
	return !resolve.IsTypeKind(p.Kind)
}

// cLinked reports whether d's kind has linkage: a function or a variable.
func cLinked(d *resolve.Def) bool {
	switch d.Kind {
	case extract.Function.String(), extract.Variable.String(), extract.Constant.String():
		return true
	}
	return false
}

// cDefinitionOf returns the one definition with external linkage of what the declaration
// d declares (a prototype's function, an extern variable's definition), nil when there is
// none or several.
func (r *resolver) cDefinitionOf(d *resolve.Def, cands []*resolve.Def) *resolve.Def {
	var hit []*resolve.Def
	for _, c := range cands {
		m := resolve.MetaMap(c.Metadata)
		if c.ID == d.ID || m["declaration"] == "true" || m["extern"] == "true" || m["static"] == "true" || isMacro(c) {
			continue
		}
		if c.Kind == d.Kind || cLinked(c) && cLinked(d) {
			hit = append(hit, c)
		}
	}
	return resolve.One(hit)
}

// isMacro reports whether d is a preprocessor macro.
func isMacro(d *resolve.Def) bool { return strings.Contains(d.Metadata, `"macro":"true"`) }

// cMember resolves x.name and x->name.
func (r *resolver) cMember(f *resolve.File, u extract.Identifier, q string, cands []*resolve.Def) (*resolve.Def, string, bool, error) {
	if d, err := r.OnReceiver(f, u, cands); d != nil || err != nil {
		return d, resolve.ResolvedReceiver, true, err
	}
	typedQ := strings.ReplaceAll(q, "->", ".")
	if d, err := r.OnDeclaredType(f, extract.Identifier{Name: u.Name, Qualifier: typedQ, Kind: u.Kind, ContainingSymbolID: u.ContainingSymbolID, Span: u.Span}, typedQ, cands); d != nil || err != nil {
		return d, resolve.ResolvedReceiver, true, err
	}
	if d, err := r.cTypedMember(f, u, q, cands); d != nil || err != nil {
		return d, resolve.ResolvedReceiver, true, err
	}
	if f.Lang != "c" {
		return nil, "", false, nil
	}
	var fields []*resolve.Def
	for _, d := range cands {
		if d.Kind == extract.Field.String() {
			fields = append(fields, d)
		}
	}
	if d := resolve.One(fields); d != nil {
		return d, resolve.ResolvedGlobalUnique, true, nil
	}
	return nil, "", true, nil
}

// cPath resolves a::b::name: the one candidate whose enclosing namespaces and types, nearest
// first, start with b, a.
func (r *resolver) cPath(q string, cands []*resolve.Def) (*resolve.Def, error) {
	global := strings.HasPrefix(q, "::")
	var segs []string
	for _, s := range strings.Split(strings.TrimPrefix(q, "::"), "::") {
		if i := strings.IndexByte(s, '<'); i >= 0 {
			s = s[:i]
		}
		segs = append(segs, strings.TrimSpace(s))
	}
	var hit []*resolve.Def
	for _, d := range cands {
		chain, err := r.Chain(d.ParentID)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, id := range chain {
			p, err := r.Symbol(id)
			if err != nil {
				return nil, err
			}
			if p != nil {
				names = append(names, p.Name)
			}
		}
		if len(names) < len(segs) || global && len(names) != len(segs) {
			continue
		}
		ok := true
		for i := range segs {
			if names[i] != segs[len(segs)-1-i] {
				ok = false
				break
			}
		}
		if ok {
			hit = append(hit, d)
		}
	}
	if len(hit) == 0 && !global {
		// a namespace the parser lost around a definition (a macro inside it): the one
		// definition outside any type, when the path's first name is a namespace
		ns, err := r.FamilyDefs(segs[0], "cpp")
		if err != nil {
			return nil, err
		}
		isNS := false
		for _, n := range ns {
			isNS = isNS || n.Kind == extract.Namespace.String()
		}
		if isNS && len(segs) == 1 {
			for _, d := range cands {
				if d.ParentID == "" && !isMacro(d) {
					hit = append(hit, d)
				}
			}
		}
	}
	return resolve.One(hit), nil
}

// templateNames returns the names a template parameter list declares (T, N of
// <typename T, int N = 3>).
func templateNames(params string) []string {
	params = strings.TrimSpace(params)
	if params == "" {
		return nil
	}
	params = strings.TrimSuffix(strings.TrimPrefix(params, "<"), ">")
	var out []string
	depth, start := 0, 0
	flush := func(p string) {
		if i := strings.IndexByte(p, '='); i >= 0 {
			p = p[:i]
		}
		p = strings.TrimRight(p, " \t\n.")
		j := len(p)
		for j > 0 && (resolve.IsIdentByte(p[j-1])) {
			j--
		}
		if name := p[j:]; name != "" && !isDigit(name[0]) {
			out = append(out, name)
		}
	}
	for i := 0; i < len(params); i++ {
		switch params[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				flush(params[start:i])
				start = i + 1
			}
		}
	}
	flush(params[start:])
	return out
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// cFiles returns the workspace's C and C++ files.
func (r *resolver) cFiles() []string {
	if r.cf == nil {
		r.cf = &cState{reach: map[string]map[string]bool{}, langs: map[string]string{}}
		rows, err := r.Store().DB().QueryContext(r.Context(), `SELECT path, language FROM files WHERE language IN ('c', 'cpp') ORDER BY path`)
		if err != nil {
			return nil // no includes followed
		}
		defer rows.Close()
		for rows.Next() {
			var p, lang string
			if rows.Scan(&p, &lang) == nil {
				r.cf.files = append(r.cf.files, p)
				r.cf.langs[p] = lang
			}
		}
	}
	return r.cf.files
}

// cIncluded returns the workspace files an #include of target in the file at from names:
// the path beside from, else every file whose path ends with the target.
func (r *resolver) cIncluded(from, target string) []string {
	files := r.cFiles()
	if target == "" {
		return nil
	}
	near := path.Clean(path.Join(path.Dir(from), target))
	if _, ok := slices.BinarySearch(files, near); ok {
		return []string{near}
	}
	var out []string
	for _, p := range files {
		if p == target || strings.HasSuffix(p, "/"+target) {
			out = append(out, p)
		}
	}
	return out
}

// cReaches reports whether the file at from includes the file at to, directly or through
// other headers.
func (r *resolver) cReaches(from, to string) bool {
	if from == to {
		return true
	}
	r.cFiles()
	set, ok := r.cf.reach[from]
	if !ok {
		set = map[string]bool{}
		todo := []string{from}
		for len(todo) > 0 && len(set) < 2000 {
			p := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			fc, err := r.FileOf(p, r.cf.langs[p])
			if err != nil {
				break
			}
			for _, im := range fc.Imports {
				for _, h := range r.cIncluded(p, im.Target) {
					if !set[h] && h != from {
						set[h] = true
						todo = append(todo, h)
					}
				}
			}
		}
		r.cf.reach[from] = set
	}
	return set[to]
}

// cMacroCovers reports whether a use in the file f that resolved to d is also a use of the
// macro def: def is a C or C++ macro of the same name visible from f (defined in f or in a
// header f includes), the one such macro, and d is no macro.
func (r *resolver) cMacroCovers(def, d *resolve.Def, f *resolve.File) bool {
	if !cLang(def.Language) || !isMacro(def) || d == nil || isMacro(d) || d.Name != def.Name {
		return false
	}
	if def.Path != f.Path && !r.cReaches(f.Path, def.Path) {
		return false
	}
	cands, err := r.FamilyDefs(def.Name, f.Lang)
	if err != nil {
		return false
	}
	for _, c := range cands {
		if c.ID != def.ID && isMacro(c) && (c.Path == f.Path || r.cReaches(f.Path, c.Path)) {
			return false
		}
	}
	return true
}

// cKeywordsBeforeName are words a declaration's type never is (return x; case x:).
var cKeywordsBeforeName = map[string]bool{"return": true, "else": true, "case": true, "goto": true, "sizeof": true,
	"do": true, "if": true, "while": true, "for": true, "switch": true, "throw": true, "delete": true, "new": true}

// cTypeWords are the words of a declared type that do not name it.
var cTypeWords = map[string]bool{"const": true, "volatile": true, "static": true, "register": true, "restrict": true,
	"extern": true, "inline": true, "struct": true, "union": true, "enum": true, "class": true, "typename": true,
	"__restrict": true, "__restrict__": true, "mutable": true, "constexpr": true, "auto": true}

// cPrimitive are C's builtin type names: no members.
var cPrimitive = map[string]bool{"int": true, "char": true, "long": true, "short": true, "unsigned": true, "signed": true,
	"float": true, "double": true, "void": true, "bool": true, "_Bool": true, "size_t": true, "uint8_t": true,
	"uint16_t": true, "uint32_t": true, "uint64_t": true, "int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true}

// cDeclType returns the type name a C declaration text gives name (sha1_ctx of
// "const struct sha1_ctx *restrict ctx"), "" when it gives none or a builtin one.
func cDeclType(decl, name string) string {
	at := -1
	for i := 0; i+len(name) <= len(decl); i++ {
		j := strings.Index(decl[i:], name)
		if j < 0 {
			break
		}
		k := i + j
		if (k == 0 || !resolve.IsIdentByte(decl[k-1])) && (k+len(name) == len(decl) || !resolve.IsIdentByte(decl[k+len(name)])) {
			at = k
			break
		}
		i = k
	}
	if at <= 0 {
		return ""
	}
	if before := decl[:at]; strings.Contains(before, "<") && !strings.Contains(before, "_ptr<") {
		return "" // a container's element type is not the container's (std::vector<T> v)
	}
	words := strings.FieldsFunc(decl[:at], func(r rune) bool { return !(r < 128 && resolve.IsIdentByte(byte(r))) })
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		switch {
		case cTypeWords[w]:
			continue
		case cPrimitive[w] || cKeywordsBeforeName[w] || isDigit(w[0]):
			return ""
		}
		return w
	}
	return ""
}

// cParamDecl returns the text of the parameter name in the function signature sig.
func cParamDecl(sig, name string) string {
	groups := resolve.ParenGroups(sig)
	if len(groups) == 0 {
		return ""
	}
	for _, p := range resolve.SplitTop(groups[0], ',') {
		if cDeclType(p, name) != "" || strings.HasSuffix(strings.TrimSpace(p), name) {
			return p
		}
	}
	return ""
}

// cTypedMember resolves q.name and q->name from the declared type of q: a chain of names
// (a->b.c) whose first is a parameter or a local declared above the use in the enclosing
// function, or a global variable, and whose others are fields.
func (r *resolver) cTypedMember(f *resolve.File, u extract.Identifier, q string, cands []*resolve.Def) (*resolve.Def, error) {
	segs := strings.FieldsFunc(strings.ReplaceAll(q, "->", "."), func(r rune) bool { return r == '.' })
	for i, s := range segs {
		s = strings.TrimLeft(strings.TrimSpace(s), "*&(")
		if j := strings.IndexByte(s, '['); j > 0 && strings.HasSuffix(s, "]") {
			s = s[:j] // an element: a[i].x
		}
		if !resolve.IsIdent(s) {
			return nil, nil
		}
		segs[i] = s
	}
	if len(segs) == 0 {
		return nil, nil
	}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	var fn, cls *resolve.Def
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil {
			return nil, err
		}
		if d == nil {
			continue
		}
		if k, _ := extract.KindNamed(d.Kind); fn == nil && k.IsCallable() && !isMacro(d) {
			fn = d
		}
		if cls == nil && fn != nil && resolve.IsTypeKind(d.Kind) && d.Kind != extract.Namespace.String() {
			cls = d // the class whose method the use is in
		}
	}
	typ := ""
	if fn != nil {
		if p := cParamDecl(fn.Signature, segs[0]); p != "" {
			typ = cDeclType(p, segs[0])
		} else if typ, err = r.cLocalType(f, fn, segs[0], u.StartLine); err != nil {
			return nil, err
		}
	}
	if typ == "" && cls != nil && f.Lang == "cpp" && (fn == nil || !slices.Contains(strings.Split(resolve.MetaMap(fn.Metadata)["locals"], ","), segs[0])) {
		kids, err := r.Children(*cls) // a member of the method's class: formatter_->f()
		if err != nil {
			return nil, err
		}
		for _, k := range kids {
			if k.Name == segs[0] && k.Kind == extract.Field.String() {
				typ = cDeclType(k.Signature, segs[0])
				break
			}
		}
	}
	if typ == "" && (fn == nil || !slices.Contains(strings.Split(resolve.MetaMap(fn.Metadata)["locals"], ","), segs[0])) {
		vars, err := r.FamilyDefs(segs[0], f.Lang)
		if err != nil {
			return nil, err
		}
		vis, err := r.cVisible(f, u, vars)
		if err != nil {
			return nil, err
		}
		if v := resolve.One(vis); v != nil && cLinked(v) {
			typ = cDeclType(v.Signature, segs[0])
		}
	}
	t, err := r.cStruct(f, typ, 0)
	if err != nil || t == nil {
		return nil, err
	}
	for _, seg := range segs[1:] {
		kids, err := r.Children(*t)
		if err != nil {
			return nil, err
		}
		next := ""
		for _, k := range kids {
			if k.Name == seg && k.Kind == extract.Field.String() {
				next = cDeclType(k.Signature, seg)
				break
			}
		}
		if t, err = r.cStruct(f, next, 0); err != nil || t == nil {
			return nil, err
		}
	}
	var hit []*resolve.Def
	for _, d := range cands {
		if d.ParentID == t.ID {
			hit = append(hit, d)
		}
	}
	return resolve.One(hit), nil
}

// cLocalType returns the type a declaration of the local name states on the nearest line
// above line in fn that declares it ("" none).
func (r *resolver) cLocalType(f *resolve.File, fn *resolve.Def, name string, line int) (string, error) {
	lines, err := r.Lines(f.Path)
	if err != nil {
		return "", err
	}
	for n := min(line, len(lines)); n >= fn.Line && n >= 1; n-- {
		text := lines[n-1]
		if !strings.Contains(text, name) {
			continue
		}
		for _, stmt := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '{' || r == '}' || r == '(' }) {
			decl := stmt
			if i := strings.IndexByte(decl, '='); i >= 0 {
				decl = decl[:i]
			}
			if i := resolve.ColonAt(decl); i >= 0 && f.Lang == "cpp" { // for (const T &x : xs)
				decl = decl[:i]
			}
			decl = strings.TrimSpace(decl)
			if !strings.HasSuffix(strings.TrimRight(decl, " []0123456789"), name) {
				continue
			}
			if t := cDeclType(decl, name); t != "" && !strings.ContainsAny(decl, "+-/<>!|^?.") {
				return t, nil
			}
		}
	}
	return "", nil
}

// cStruct returns the struct, union or class the type name typ means from f (through a
// typedef of one), nil if none is one.
func (r *resolver) cStruct(f *resolve.File, typ string, depth int) (*resolve.Def, error) {
	if typ == "" || depth > 3 {
		return nil, nil
	}
	defs, err := r.FamilyDefs(typ, f.Lang)
	if err != nil {
		return nil, err
	}
	var types []*resolve.Def
	for _, d := range defs {
		if resolve.IsTypeKind(d.Kind) && d.Kind != extract.Namespace.String() && d.Kind != extract.Enum.String() {
			types = append(types, d)
		}
	}
	d := resolve.One(types)
	if d == nil {
		var vis []*resolve.Def
		for _, t := range types {
			if t.Path == f.Path || r.cReaches(f.Path, t.Path) {
				vis = append(vis, t)
			}
		}
		if d = resolve.One(vis); d == nil {
			return nil, nil
		}
	}
	switch d.Kind {
	case extract.Struct.String(), extract.Union.String(), extract.Class.String():
		return d, nil
	}
	// a typedef: typedef struct foo foo_t; using P = std::unique_ptr<T>
	sig := strings.TrimSuffix(strings.TrimSpace(d.Signature), ";")
	if i := strings.Index(sig, "="); i >= 0 && strings.HasPrefix(sig, "using ") {
		rhs := strings.TrimSpace(sig[i+1:])
		for _, p := range []string{"std::unique_ptr<", "std::shared_ptr<", "std::weak_ptr<"} {
			if rest, ok := strings.CutPrefix(rhs, p); ok {
				rhs = strings.TrimSuffix(rest, ">")
			}
		}
		if t := cDeclType(rhs+" x", "x"); t != "" && t != typ {
			return r.cStruct(f, t, depth+1)
		}
		return nil, nil
	}
	for _, kw := range []string{"struct ", "union ", "class "} {
		if i := strings.Index(sig, kw); i >= 0 {
			rest := strings.Fields(sig[i+len(kw):])
			if len(rest) > 0 && resolve.IsIdent(rest[0]) && rest[0] != typ {
				return r.cStruct(f, rest[0], depth+1)
			}
		}
	}
	return nil, nil
}

// cNamespaceLookup keeps, of C++ candidates for a bare name, those of the innermost
// namespace enclosing the use that has any (namespace app { ... trim() } means app::trim,
// not app::detail::trim), the global namespace last.
func (r *resolver) cNamespaceLookup(u extract.Identifier, cands []*resolve.Def) ([]*resolve.Def, error) {
	nsPath := func(id string) ([]string, error) {
		chain, err := r.Chain(id)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, c := range chain {
			d, err := r.Symbol(c)
			if err != nil {
				return nil, err
			}
			if d != nil && d.Kind == extract.Namespace.String() {
				out = append([]string{d.Name}, out...)
			}
		}
		return out, nil
	}
	at, err := nsPath(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	paths := make([][]string, len(cands))
	for i, d := range cands {
		if paths[i], err = nsPath(d.ParentID); err != nil {
			return nil, err
		}
	}
	for n := len(at); n >= 0; n-- {
		var hit []*resolve.Def
		for i, d := range cands {
			if slices.Equal(paths[i], at[:n]) {
				hit = append(hit, d)
			}
		}
		if len(hit) > 0 {
			return hit, nil
		}
	}
	return cands, nil
}

// cMacroDeclUses returns the uses of the C or C++ macro def that are declarations of its
// name (#define f _prefix_f expands in extern int f(void); and in int f(void) {...} too):
// the lines naming each other definition of the name in a file the macro is visible from.
func (r *resolver) cMacroDeclUses(def resolve.Def) ([]resolve.Use, error) {
	if !isMacro(&def) {
		return nil, nil
	}
	cands, err := r.FamilyDefs(def.Name, def.Language)
	if err != nil {
		return nil, err
	}
	var out []resolve.Use
	for _, d := range cands {
		if d.ID == def.ID || isMacro(d) || d.Path != def.Path && !r.cReaches(d.Path, def.Path) {
			continue
		}
		if d.Path == def.Path && d.Line < def.Line {
			continue // above the #define
		}
		lines, err := r.Lines(d.Path)
		if err != nil {
			return nil, err
		}
		for n := d.Line; n <= min(d.Line+3, d.EndLine, len(lines)); n++ {
			col := cWordAt(lines[n-1], d.Name)
			if col < 0 {
				continue
			}
			out = append(out, resolve.Use{Path: d.Path, Why: resolve.ResolvedImport, Ident: extract.Identifier{Name: d.Name, Kind: extract.VariableRef,
				Span: extract.Span{StartLine: n, StartColumn: col + 1, EndLine: n, EndColumn: col + 1 + len(d.Name)}, ContainingSymbolID: d.ID}})
			break
		}
	}
	return out, nil
}

// cWordAt returns the byte index of name as a whole word in line, -1 if it is not there.
func cWordAt(line, name string) int {
	for i := 0; i+len(name) <= len(line); {
		j := strings.Index(line[i:], name)
		if j < 0 {
			return -1
		}
		k := i + j
		if (k == 0 || !resolve.IsIdentByte(line[k-1])) && (k+len(name) == len(line) || !resolve.IsIdentByte(line[k+len(name)])) {
			return k
		}
		i = k + 1
	}
	return -1
}

// cppOverloads returns the other overloads of the C++ function def (overloads), nil when def
// is not a C++ function or has none.
func (r *resolver) cppOverloads(def *resolve.Def) ([]*resolve.Def, error) {
	if def.Language != "cpp" {
		return nil, nil
	}
	if k, _ := extract.KindNamed(def.Kind); !k.IsCallable() {
		return nil, nil
	}
	all, err := r.FamilyDefs(def.Name, "cpp")
	if err != nil {
		return nil, err
	}
	var out []*resolve.Def
	for _, d := range all {
		if d.ID != def.ID && resolve.Overloads(d, def) {
			out = append(out, d)
		}
	}
	return out, nil
}

// cppViable reports whether the C++ call u can call def, one of a set of overloads whose
// others are sibs. The compiler weighs only the overloads whose parameters take the call's
// arguments and, outside a class, those declared before the call (a call in a template
// whose arguments depend on its parameters weighs every such overload: so do refs). A call
// no overload fits as read here is kept for every one.
func (r *resolver) cppViable(f *resolve.File, u extract.Identifier, def *resolve.Def, sibs []*resolve.Def) (bool, error) {
	if len(sibs) == 0 || u.Kind != extract.Call {
		return true, nil
	}
	nargs, ok, err := java.CallArgCount(r.Resolver, f, u) // read as Java reads a call's arguments
	if err != nil || !ok {
		return true, err
	}
	fits := func(d *resolve.Def) (bool, error) {
		if !cppTakes(d, nargs) {
			return false, nil
		}
		return r.cppDeclaredBefore(f, u, d, sibs)
	}
	if ok, err := fits(def); ok || err != nil {
		return true, err
	}
	for _, s := range sibs {
		if ok, err := fits(s); ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// cppParams returns how many arguments the C++ function d requires and takes at most
// (-1: any number, a C variadic or a parameter pack), and false when its signature holds no
// parameter list.
func cppParams(d *resolve.Def) (required, most int, ok bool) {
	sig := java.Params(d)
	groups := resolve.ParenGroups(sig)
	if !strings.HasPrefix(sig, d.Name) || len(groups) == 0 {
		return 0, 0, false // a signature cut short before its parameters
	}
	if p := strings.TrimSpace(groups[0]); p == "" || p == "void" {
		return 0, 0, true
	}
	variadic := false
	for _, p := range resolve.SplitTop(groups[0], ',') {
		switch {
		case strings.Contains(p, "..."):
			variadic = true
		case len(resolve.SplitTop(p, '=')) > 1:
			most++
		default:
			required++
			most++
		}
	}
	if variadic {
		most = -1
	}
	return required, most, true
}

// cppTakes reports whether the C++ function d takes n arguments.
func cppTakes(d *resolve.Def, n int) bool {
	required, most, ok := cppParams(d)
	return !ok || n >= required && (most < 0 || n <= most)
}

// cppDeclaredBefore reports whether the function d is declared before the use u, as an
// unqualified or namespace-qualified call outside a class needs it to be: d is a member of a
// type, in another file (an earlier header, or a later one the compiler reads first), above
// the use, or declared above it by a prototype of the same parameters (sibs).
func (r *resolver) cppDeclaredBefore(f *resolve.File, u extract.Identifier, d *resolve.Def, sibs []*resolve.Def) (bool, error) {
	if d.Path != f.Path || d.Line <= u.StartLine {
		return true, nil
	}
	if p, err := r.Symbol(d.ParentID); err != nil || p != nil && p.Kind != extract.Namespace.String() && resolve.IsTypeKind(p.Kind) {
		return true, err
	}
	dReq, dMost, _ := cppParams(d)
	for _, s := range sibs {
		if s.Path == f.Path && s.Line < u.StartLine && resolve.MetaMap(s.Metadata)["declaration"] == "true" {
			if req, most, _ := cppParams(s); req == dReq && most == dMost {
				return true, nil
			}
		}
	}
	return false, nil
}
