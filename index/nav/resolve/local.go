package resolve

// Local bindings: the type of a local variable, read from the nearest binding of it above the
// use in the same function, so that br.Peek() after br := bufio.NewReader(r), f.save() after
// f = Form(data), v.push(1) after let mut v = SmallVec::new() and list.add(x) after
// List<String> list = new ArrayList<>() resolve to the type's member. A binding whose type
// the line does not state (x := f() of a function not in the workspace, a tuple, a range)
// decides nothing: the use stays unresolved, never guessed from a binding further up. Go's
// locals are read first by gochain.go, with Go's scopes, tuples and ranges; this is what is
// left to try when it cannot tell.

import (
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// maxLocalDepth bounds the bindings followed through one another (x := y.New() where y is
// itself a local).
const maxLocalDepth = 2

// LocalType returns the type of the local variable name as bound before the use at line
// and col (0: the line is not read) in the function fn, nil when no binding says.
func (r *Resolver) LocalType(f *File, fn *Def, name string, line, col int) (*Def, error) {
	if r.localDepth >= maxLocalDepth || line < fn.Line {
		return nil, nil
	}
	r.localDepth++
	defer func() { r.localDepth-- }()
	lines, err := r.Lines(f.Path)
	if err != nil {
		return nil, err
	}
	for n := min(line, len(lines)); n >= fn.Line; n-- { // the use's line before it, the lines above in fn
		text := lines[n-1]
		if n == line {
			if col <= 1 || col > len(text) {
				continue
			}
			text = text[:col-1]
		}
		typ, rhs, ok := BindingOf(text, name, f.Lang)
		if !ok {
			continue
		}
		if typ != "" {
			return r.TypeNamed(f, typ, fn.ID)
		}
		return r.valueType(f, fn, rhs, n)
	}
	if implicitMembers(f.Lang) { // Java, C#, ...: a field of the enclosing type, without this.
		chain, err := r.Chain(fn.ID)
		if err != nil {
			return nil, err
		}
		for _, id := range chain {
			if d, err := r.Symbol(id); err != nil || d != nil && IsTypeKind(d.Kind) {
				if err != nil {
					return nil, err
				}
				return r.fieldType(*d, name)
			}
		}
	}
	return nil, nil
}

// valueType returns the type of the value an expression makes: a composite or struct
// literal (T{...}, &pkg.T{...}), a constructor (new T(...), Foo(...) of a class), new(T), a
// call of a function of the workspace whose declared result is one of its types, a
// variable or a chain of fields (t.s), each followed by fields and method calls
// (new(Scanner).Init(r), a.b().c). nil when a step's type is not known, or the expression
// goes on with anything else (an operator, an index).
func (r *Resolver) valueType(f *File, fn *Def, expr string, line int) (*Def, error) {
	e := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(expr), ";"))
	for _, p := range []string{"await ", "try ", "&mut ", "&", "*"} {
		e = strings.TrimSpace(strings.TrimPrefix(e, p))
	}
	var t *Def
	var err error
	switch {
	case strings.HasPrefix(e, "new ") && f.Lang != "go": // Java, C#, TS: the type is written
		e = strings.TrimSpace(e[4:])
		path := CalleePath(e)
		if path == "" {
			return nil, nil
		}
		if t, err = r.TypeNamed(f, path, fn.ID); t == nil || err != nil {
			return nil, err
		}
		e = SkipGroup(SkipGroup(strings.TrimSpace(e[len(path):]), '<', '>'), '(', ')')
	case strings.HasPrefix(e, "new(") && f.Lang == "go":
		typ, rest, ok := strings.Cut(e[4:], ")")
		if !ok {
			return nil, nil
		}
		if t, err = r.TypeNamed(f, typ, fn.ID); t == nil || err != nil {
			return nil, err
		}
		e = rest
	default:
		path := CalleePath(e)
		if path == "" {
			return nil, nil
		}
		rest := strings.TrimSpace(e[len(path):])
		switch {
		case strings.HasPrefix(rest, "{") && (f.Lang == "go" || f.Lang == "rust"):
			t, err = r.TypeNamed(f, path, fn.ID)
			rest = SkipGroup(rest, '{', '}')
		case strings.HasPrefix(rest, "("):
			t, err = r.callType(f, fn, path, line)
			rest = SkipGroup(rest, '(', ')')
		case strings.Contains(path, "::"):
			return nil, nil
		default: // a variable and its fields
			segs := strings.Split(path, ".")
			chain, cerr := r.Chain(fn.ID)
			if cerr != nil {
				return nil, cerr
			}
			t, err = r.baseType(f, segs[0], chain, line, 0)
			for _, field := range segs[1:] {
				if t == nil || err != nil {
					break
				}
				t, err = r.fieldType(*t, field)
			}
		}
		if t == nil || err != nil {
			return nil, err
		}
		e = rest
	}
	for { // the fields and calls that follow: .Init(r), .field, ? of Rust
		e = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(e), "?"))
		if e == "" || e[0] == ';' || e[0] == ')' || e[0] == ',' {
			return t, nil
		}
		if e[0] != '.' {
			return nil, nil
		}
		e = e[1:]
		name := CalleePath(e)
		if name == "" || strings.ContainsAny(name, ".:") {
			name, _, _ = strings.Cut(name, ".")
			name, _, _ = strings.Cut(name, ":")
		}
		if name == "" {
			return nil, nil
		}
		e = strings.TrimSpace(e[len(name):])
		if !strings.HasPrefix(e, "(") {
			if t, err = r.fieldType(*t, name); t == nil || err != nil {
				return nil, err
			}
			continue
		}
		e = SkipGroup(e, '(', ')')
		cands, err := r.Defs(name)
		if err != nil {
			return nil, err
		}
		var same []*Def
		for i := range cands {
			if SameFamily(cands[i].Language, f.Lang) {
				same = append(same, &cands[i])
			}
		}
		m, err := r.MemberOf(f, *t, same)
		if m == nil || err != nil {
			return nil, err
		}
		if t, err = r.ResultType(m); t == nil || err != nil {
			return nil, err
		}
	}
}

// callType returns the type of the value a call of path makes: the type itself when path
// names one (Foo(...) of a Python class, T(x) of a Go conversion), else the declared result
// of the function it resolves to.
func (r *Resolver) callType(f *File, fn *Def, path string, line int) (*Def, error) {
	name, qual := SplitQualified(path)
	d, _, err := r.Resolve(f, extract.Identifier{Name: name, Qualifier: qual, Kind: extract.Call, ContainingSymbolID: fn.ID, Span: extract.Span{StartLine: line}})
	if err != nil || d == nil {
		return nil, err
	}
	if IsTypeKind(d.Kind) {
		return d, nil
	}
	return r.ResultType(d)
}

// ResultType returns the workspace type a callable's declared result is (Self and this: the
// type it is a member of), nil when it declares none or another.
func (r *Resolver) ResultType(d *Def) (*Def, error) {
	ret, err := r.ReturnType(*d)
	if err != nil || ret == "" {
		return nil, err
	}
	if ret == "Self" || ret == "this" || ret == "self" {
		p, err := r.Symbol(d.ParentID)
		if err != nil || p == nil || !IsTypeKind(p.Kind) {
			return nil, err
		}
		return p, nil
	}
	df, err := r.FileOf(d.Path, d.Language)
	if err != nil {
		return nil, err
	}
	return r.TypeNamed(df, ret, d.ID)
}

// SkipGroup returns s after the bracketed group it starts with (open ... close, nested), s
// itself when it does not start with open, "" when the group does not close.
func SkipGroup(s string, open, close byte) string {
	if s == "" || s[0] != open {
		return s
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return s[i+1:]
			}
		case '"', '\'', '`':
			if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
				i += j + 1
			}
		}
	}
	return ""
}

// TypesOf returns the types of role ("return", "declared") the file at p states, by symbol
// id, read once per request into *cache.
func (r *Resolver) TypesOf(cache *map[string]map[string]string, p, role string) (map[string]string, error) {
	if *cache == nil {
		*cache = map[string]map[string]string{}
	}
	if byID, ok := (*cache)[p]; ok {
		return byID, nil
	}
	blob, err := r.s.FileBlob(r.ctx, "types", p)
	if err != nil {
		return nil, err
	}
	types, err := store.DecodeTypes(blob)
	if err != nil {
		return nil, err
	}
	byID := map[string]string{}
	for _, t := range types {
		if t.Role == role {
			byID[t.SymbolID] = t.Type
		}
	}
	(*cache)[p] = byID
	return byID, nil
}

// ReturnType returns the type a callable's result is declared as, the first of several
// (Go's (*T, error)), "" when it declares none.
func (r *Resolver) ReturnType(d Def) (string, error) {
	byID, err := r.TypesOf(&r.returns, d.Path, "return")
	if err != nil {
		return "", err
	}
	t := strings.TrimSpace(byID[d.ID])
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") { // (*T, error), (r *T, err error)
		parts := SplitTop(t[1:len(t)-1], ',')
		if len(parts) == 0 {
			return "", nil
		}
		f := strings.Fields(parts[0])
		if len(f) == 2 && IsIdent(f[0]) {
			return f[1], nil
		}
		t = strings.TrimSpace(parts[0])
	}
	return strings.Trim(t, `"'`), nil // Python's "Form" forward reference
}

// Lines returns the stored content of the file at p, by line (read once per request).
func (r *Resolver) Lines(p string) ([]string, error) {
	if l, ok := r.content[p]; ok {
		return l, nil
	}
	c, err := r.s.Content(r.ctx, p)
	if err != nil {
		return nil, err
	}
	if r.content == nil {
		r.content = map[string][]string{}
	}
	l := strings.Split(string(c), "\n")
	r.content[p] = l
	return l, nil
}

// CalleePath returns the dotted or ::-separated name s starts with: pkg.NewReader of
// pkg.NewReader(r), Vec::new of Vec::new(), "" when s starts otherwise.
func CalleePath(s string) string {
	end := 0
	for end < len(s) {
		c := s[end]
		switch {
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			end++
		case c == '.' && end > 0:
			end++
		case c == ':' && end+1 < len(s) && s[end+1] == ':' && end > 0:
			end += 2
		default:
			return strings.TrimRight(s[:end], ".:")
		}
	}
	return strings.TrimRight(s[:end], ".:")
}

// BindingOf reports whether line binds the local variable name, with the type it declares
// or else the expression it is bound to (both "" when the line binds it to something whose
// type it does not say: a tuple, a loop variable).
func BindingOf(line, name, lang string) (typ, rhs string, ok bool) {
	if !strings.Contains(line, name) {
		return "", "", false
	}
	t := strings.TrimSpace(line)
	switch lang {
	case "go":
		if rest, found := strings.CutPrefix(t, "var "); found {
			return declRest(rest, name, true)
		}
		for _, p := range []string{"if ", "for ", "switch "} {
			t = strings.TrimPrefix(t, p)
		}
		i := strings.Index(t, ":=")
		if i < 0 {
			return "", "", false
		}
		return fromList(t[:i], t[i+2:], name, true)
	case "python":
		if strings.HasPrefix(t, "for ") || strings.HasPrefix(t, "with ") || strings.HasPrefix(t, "async ") {
			return "", "", WordIn(t, name) // a loop's or a with's variable: its type is not said
		}
		i := AssignAt(t)
		if i < 0 {
			return "", "", false
		}
		lhs := t[:i]
		if c := ColonAt(lhs); c >= 0 { // x: Form = ...
			if strings.TrimSpace(lhs[:c]) != name {
				return "", "", false
			}
			return strings.TrimSpace(lhs[c+1:]), "", true
		}
		return fromList(lhs, t[i+1:], name, false)
	case "rust":
		rest, found := strings.CutPrefix(t, "let ")
		if !found {
			return "", "", false
		}
		return declRest(strings.TrimPrefix(rest, "mut "), name, false)
	case "typescript", "tsx", "javascript", "jsx":
		t = strings.TrimPrefix(t, "export ")
		for _, kw := range []string{"const ", "let ", "var "} {
			if rest, found := strings.CutPrefix(t, kw); found {
				return declRest(rest, name, false)
			}
		}
		return "", "", false
	case "java", "csharp", "kotlin", "scala":
		return javaDecl(t, name)
	}
	return "", "", false
}

// declRest reads "name T = v", "name: T = v", "name = v" (space: a Go var's type follows the
// name without a colon).
func declRest(rest, name string, space bool) (typ, rhs string, ok bool) {
	rest = strings.TrimSpace(rest)
	after, found := strings.CutPrefix(rest, name)
	if !found {
		if WordIn(rest[:max(0, strings.IndexByte(rest, '='))], name) { // let (a, name) = ..., var a, name = ...
			return "", "", true
		}
		return "", "", false
	}
	if after != "" && (IsIdentByte(after[0])) {
		return "", "", false // a longer name
	}
	after = strings.TrimSpace(after)
	if i := AssignAt(after); i >= 0 {
		typ, rhs = strings.TrimSpace(after[:i]), strings.TrimSpace(after[i+1:])
	} else {
		typ = after
	}
	typ = strings.TrimSpace(strings.TrimPrefix(typ, ":"))
	if !space && typ != "" && !strings.HasPrefix(strings.TrimSpace(after), ":") {
		return "", "", true // let x y: not a declaration this reads
	}
	return strings.TrimSuffix(typ, ";"), strings.TrimSuffix(rhs, ";"), true
}

// fromList reads the left side of an assignment (a, name, c) and its right side: the right
// side is name's when name is alone on the left, or first of several bound to one call of
// Go (name, err := f(): f's first result); else the binding's type is not said (a tuple,
// a range).
func fromList(lhs, rhs, name string, goResults bool) (typ, value string, ok bool) {
	vars := strings.Split(lhs, ",")
	for i, v := range vars {
		if strings.TrimSpace(v) != name {
			continue
		}
		rhs = strings.TrimSpace(rhs)
		if goResults && strings.HasPrefix(rhs, "range ") {
			return "", "", true
		}
		if i == 0 && (len(vars) == 1 || goResults && len(SplitTop(rhs, ',')) == 1) {
			return "", rhs, true
		}
		return "", "", true
	}
	return "", "", false
}

// javaDecl reads a typed local of Java, C#, Kotlin or Scala: T name = v; T name; var name =
// v; for (T name : xs).
func javaDecl(t, name string) (typ, rhs string, ok bool) {
	for from := 0; ; {
		i := strings.Index(t[from:], name)
		if i < 0 {
			return "", "", false
		}
		i += from
		from = i + len(name)
		if i > 0 && IsIdentByte(t[i-1]) || from < len(t) && IsIdentByte(t[from]) {
			continue
		}
		after := strings.TrimSpace(t[from:])
		if !(strings.HasPrefix(after, ";") || strings.HasPrefix(after, ":") && !strings.HasPrefix(after, "::") || AssignAt(after) == 0) {
			continue
		}
		before := t[:i]
		if j := strings.LastIndexAny(before, "(;{"); j >= 0 {
			before = before[j+1:]
		}
		f := strings.Fields(before)
		for len(f) > 0 && (DeclModifiers[f[0]] || strings.HasPrefix(f[0], "@")) {
			f = f[1:]
		}
		if len(f) == 0 {
			return "", "", false // name = v: an assignment, the type stays
		}
		decl := strings.Join(f, " ")
		if strings.ContainsAny(decl, "=+-/!?&|") && !strings.Contains(decl, "<") || decl == "return" {
			return "", "", false
		}
		if AssignAt(after) == 0 {
			rhs = strings.TrimSuffix(strings.TrimSpace(after[1:]), ";")
		}
		if decl == "var" || decl == "val" {
			return "", rhs, true
		}
		return decl, "", true
	}
}

// AssignAt returns the index of s's first '=' that is an assignment (not ==, <=, >=, !=, =>,
// :=, +=), or -1.
func AssignAt(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] != '=' {
			continue
		}
		if i+1 < len(s) && (s[i+1] == '=' || s[i+1] == '>') {
			i++
			continue
		}
		if i > 0 && strings.IndexByte("=<>!:+-*/%&|^", s[i-1]) >= 0 {
			continue
		}
		return i
	}
	return -1
}

// WordIn reports whether name is a whole word of s.
func WordIn(s, name string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return false
		}
		i += from
		from = i + len(name)
		if (i == 0 || !IsIdentByte(s[i-1])) && (from == len(s) || !IsIdentByte(s[from])) {
			return true
		}
	}
}

func IsIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
