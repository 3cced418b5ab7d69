package resolve

// Declared types: the type of a parameter or a field, read from the signature the extractor
// stored, so that r.Peek() in func f(r *bufio.Reader) and c.bufr.Peek() (bufr *bufio.Reader
// a field of c's type) resolve to Reader's Peek.

import (
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// OnDeclaredType resolves q.name where q is a parameter of the use's function, or a chain
// of fields (c.bufr, this.count, self.form) starting from self/this, a Go receiver or a
// parameter, each with a declared type: a member of the last type (or of its bases).
func (r *Resolver) OnDeclaredType(f *File, u extract.Identifier, q string, cands []*Def) (*Def, error) {
	segs := strings.Split(q, ".")
	for _, s := range segs {
		if !IsIdent(s) {
			return nil, nil
		}
	}
	chain, err := r.Chain(u.ContainingSymbolID)
	if err != nil || len(chain) == 0 {
		return nil, err
	}
	t, err := r.baseType(f, segs[0], chain, u.StartLine, u.StartColumn)
	if err != nil || t == nil {
		return nil, err
	}
	for _, field := range segs[1:] {
		if t, err = r.fieldType(*t, field); err != nil || t == nil {
			return nil, err
		}
	}
	return r.MemberOf(f, *t, cands)
}

// baseType returns the type the first part of a qualifier names: the enclosing type for
// self and this, the declared type of a parameter of a function literal around the use
// (literal.go), a Go method's receiver type, a parameter's declared type, or the type a
// local variable is bound to before line and col.
func (r *Resolver) baseType(f *File, name string, chain []string, line, col int) (*Def, error) {
	self := name == "self" || name == "this"
	for _, id := range chain {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return nil, err
		}
		if self {
			if IsTypeKind(d.Kind) {
				return d, nil
			}
			if h := r.hooks(f.Lang).This; h != nil { // TS: f(this: T)
				if t, found, err := h(r, f, d); found || err != nil {
					return t, err
				}
			}
			continue
		}
		k, _ := extract.KindNamed(d.Kind)
		if !k.IsCallable() {
			continue
		}
		if typ, found, err := r.LiteralParam(f, d, name, line, col); found || err != nil {
			if typ == "" || err != nil {
				return nil, err
			}
			return r.TypeNamed(f, typ, d.ID) // a parameter of a function literal around the use
		}
		if f.Lang == "go" && d.Kind == extract.Method.String() {
			if recv, typ := GoReceiver(d.Signature); recv == name && typ != "" {
				return r.TypeNamed(f, typ, d.ID)
			}
		}
		if typ := ParamType(d.Signature, name, f.Lang); typ != "" {
			return r.TypeNamed(f, typ, d.ID)
		}
		return r.LocalType(f, d, name, line, col) // the innermost function decides
	}
	return nil, nil
}

// fieldType returns the declared type of t's field named field.
func (r *Resolver) fieldType(t Def, field string) (*Def, error) {
	kids, err := r.Children(t)
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		if k.Name != field || k.Kind != extract.Field.String() && k.Kind != extract.Property.String() && k.Kind != extract.Variable.String() {
			continue
		}
		typ := DeclaredType(k.Signature, field, t.Language)
		if typ == "" {
			return nil, nil
		}
		tf, err := r.FileOf(t.Path, t.Language)
		if err != nil {
			return nil, err
		}
		return r.TypeNamed(tf, typ, t.ID)
	}
	return nil, nil
}

// TypeNamed resolves the type text typ (*bufio.Reader, List<E>, a::B) as a use in f inside
// the symbol container: the type definition, nil if it is not one of the workspace's.
func (r *Resolver) TypeNamed(f *File, typ, container string) (*Def, error) {
	base := BaseTypeName(typ)
	if base == "" {
		return nil, nil
	}
	name, qual := SplitQualified(base)
	if h := r.hooks(f.Lang).TypeNamed; h != nil { // C#'s using A = N.T;: A names T
		if d, decided, err := h(r, f, name, qual); decided || err != nil {
			return d, err
		}
	}
	d, _, err := r.Resolve(f, extract.Identifier{Name: name, Qualifier: qual, Kind: extract.TypeUsage, ContainingSymbolID: container})
	if err != nil || d == nil || !IsTypeKind(d.Kind) {
		return nil, err
	}
	return d, nil
}

// MemberOf returns the one candidate that is a member of t (a Go method of t's receiver
// type in t's directory), else of t's nearest base that has one.
func (r *Resolver) MemberOf(f *File, t Def, cands []*Def) (*Def, error) {
	var hit []*Def
	for _, d := range cands {
		switch {
		case d.ParentID == t.ID:
			hit = append(hit, d)
		case d.ParentID == "" && d.Language == "go" && d.Kind == extract.Method.String() && SameDir(d.Path, t.Path):
			if _, typ := GoReceiver(d.Signature); typ == t.Name {
				hit = append(hit, d)
			}
		}
	}
	if d := One(hit); d != nil {
		return d, nil
	}
	if len(hit) > 0 {
		return nil, nil
	}
	return r.Inherited(f, t, cands, 0)
}

// SplitQualified splits a written name into its last part and the qualifier before it, as
// the extractor records a use's qualifier: bufio, Reader of bufio.Reader; a::b::, C of
// a::b::C (a path keeps its ::); "", X of X.
func SplitQualified(s string) (name, qual string) {
	for _, sep := range []string{"::", "."} {
		if i := strings.LastIndex(s, sep); i > 0 {
			qual = s[:i]
			if sep == "::" {
				qual += "::"
			}
			return s[i+len(sep):], qual
		}
	}
	return s, ""
}

func SameDir(a, b string) bool {
	i, j := strings.LastIndexByte(a, '/'), strings.LastIndexByte(b, '/')
	return a[:max(i, 0)] == b[:max(j, 0)]
}

func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ParamType returns the declared type of the parameter name in a function's signature
// ("" when it has none or is not there).
func ParamType(sig, name, lang string) string {
	groups := ParenGroups(sig)
	if len(groups) == 0 {
		return ""
	}
	params := groups[0]
	if lang == "go" && strings.HasPrefix(sig, "func (") && len(groups) > 1 {
		params = groups[1] // after the receiver
	}
	parts := SplitTop(params, ',')
	if lang == "go" { // a, b *T: a name without a type takes the next one's
		typ := ""
		for i := len(parts) - 1; i >= 0; i-- {
			f := strings.Fields(parts[i])
			switch {
			case len(f) >= 2:
				typ = strings.Join(f[1:], " ")
				if f[0] == name {
					return typ
				}
			case len(f) == 1 && f[0] == name:
				return typ
			}
		}
		return ""
	}
	for _, p := range parts {
		if t := DeclaredType(p, name, lang); t != "" {
			return t
		}
	}
	return ""
}

// DeclaredType returns the type a declaration text gives name: "name: T" (Python, TS,
// Kotlin, Rust, Swift, Scala), "name T" (Go), "[modifiers] T name [= ...]" (Java, C#, C++).
func DeclaredType(decl, name, lang string) string {
	decl = strings.TrimSpace(decl)
	if i := strings.Index(decl, "="); i >= 0 && !strings.Contains(decl[:i], "(") {
		decl = strings.TrimSpace(decl[:i])
	}
	if i := ColonAt(decl); i >= 0 {
		left := strings.Fields(decl[:i])
		if len(left) == 0 || strings.TrimSuffix(strings.TrimPrefix(left[len(left)-1], "*"), "?") != name {
			return ""
		}
		return strings.TrimSpace(decl[i+1:])
	}
	f := strings.Fields(decl)
	if len(f) < 2 {
		return ""
	}
	if lang == "go" {
		if f[0] == name {
			return strings.Join(f[1:], " ")
		}
		return ""
	}
	if f[len(f)-1] != name {
		return ""
	}
	for len(f) > 1 && (DeclModifiers[f[0]] || strings.HasPrefix(f[0], "@")) {
		f = f[1:]
	}
	return strings.Join(f[:len(f)-1], " ")
}

// DeclModifiers are the words before a declared type that are not part of it.
var DeclModifiers = map[string]bool{"final": true, "private": true, "public": true, "protected": true, "static": true,
	"transient": true, "volatile": true, "readonly": true, "const": true, "internal": true, "override": true}

// ColonAt returns the index of decl's first ':' that is not part of '::', or -1.
func ColonAt(decl string) int {
	for i := 0; i < len(decl); i++ {
		if decl[i] != ':' {
			continue
		}
		if i+1 < len(decl) && decl[i+1] == ':' {
			i++
			continue
		}
		return i
	}
	return -1
}

// BaseTypeName returns the named type of a type text: bufio.Reader of *bufio.Reader, List
// of List<E>, a::B of &mut a::B<T>, "" for a slice, map, function or tuple type.
func BaseTypeName(typ string) string {
	t := strings.TrimSpace(typ)
	for {
		switch {
		case strings.HasPrefix(t, "*"), strings.HasPrefix(t, "&"):
			t = strings.TrimSpace(t[1:])
		case strings.HasPrefix(t, "mut "):
			t = strings.TrimSpace(t[4:])
		case strings.HasPrefix(t, "final "), strings.HasPrefix(t, "const "):
			t = strings.TrimSpace(t[strings.IndexByte(t, ' ')+1:])
		default:
			goto done
		}
	}
done:
	if strings.HasPrefix(t, "map[") || strings.HasPrefix(t, "chan ") || strings.HasPrefix(t, "func(") {
		return ""
	}
	if i := strings.IndexAny(t, "<[({ ?|"); i >= 0 {
		t = t[:i]
	}
	for _, s := range strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == ':' }) {
		if !IsIdent(s) {
			return ""
		}
	}
	return t
}

// ParenGroups returns the contents of sig's top-level parenthesized groups, in order.
func ParenGroups(sig string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range sig {
		switch c {
		case '(':
			if depth == 0 {
				start = i + 1
			}
			depth++
		case ')':
			if depth == 0 {
				return out
			}
			depth--
			if depth == 0 {
				out = append(out, sig[start:i])
			}
		}
	}
	return out
}

// SplitTop splits s at sep outside brackets (<>, [], (), {}).
func SplitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '[', '(', '{':
			depth++
		case '>', ']', ')', '}':
			if depth > 0 {
				depth--
			}
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
