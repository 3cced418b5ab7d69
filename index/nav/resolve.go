package nav

// Resolution: which definition a use of a name means. It is decided when a use is read
// (refs of a symbol), from what the store holds about the use's file (its symbols, its
// imports, its directory and package) and the definitions of the name, so it is as fresh as
// the store: editing a file changes the answers about the uses in it and about the uses of
// what it defines at once, and a deleted definition's uses simply stop resolving to it.
//
// The rules, in order; the first that leaves exactly one definition decides, with its
// reason. A use no rule decides is unresolved (never guessed):
//
//	scope          a bare name defined in the use's own file: the definition whose parent
//	               encloses the use most closely (a local, a method of the class the use is
//	               in), else the file's top-level one
//	receiver       self.x / this.x, or a Go method's receiver (s.x in func (s *Server)
//	               ...): a member of the enclosing type, or of the nearest base type that
//	               has one (the type's extends relationships, resolved in its file); also
//	               r.x for a parameter with a declared type (func f(r *bufio.Reader)), also
//	               of a function literal around the use (func(c *Context) { c.Next() };
//	               literal.go), and chains of typed fields (c.bufr.x, this.count.x; typed.go)
//	import         a name the file imports (Python from m import x, JS/TS import {x} from
//	               "./m", Java import a.b.X, Rust use a::b::x), or one looked up in an
//	               imported module or package (pkg.F in Go, m.f in Python, ns.f in JS/TS): a
//	               definition in the file or directory the import names (for Go, with
//	               the go.mod's module path, exactly that directory, the root included;
//	               gomodule.go), or for Python in the module that one re-exports it from
//	               (reexport.go)
//	package        a bare name defined once in the use's package: the same directory (Go,
//	               C#), the same package declaration (Java, Kotlin, Scala)
//	qualified      Type.member, Type::member: a member of a type of that name; in Rust
//	               a::b::f, a function of the module a/b
//	global-unique  a bare name defined once in the workspace, in the use's language, in a
//	               language whose imports resolution does not follow (C, C++, C#, PHP, Ruby,
//	               Kotlin, Scala, Swift, Lua, Bash); never for a receiver of unknown type

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// Resolution reasons (Resolved.Reason).
const (
	ResolvedScope        = "scope"
	ResolvedReceiver     = "receiver"
	ResolvedImport       = "import"
	ResolvedPackage      = "package"
	ResolvedQualified    = "qualified"
	ResolvedGlobalUnique = "global-unique"
)

// Def is a definition as resolution sees it.
type Def struct {
	ID, Name, Kind, Language, Path, ParentID string
	Line, EndLine                            int
	Signature, DocComment, Visibility        string
	Metadata                                 string
}

// defColumns are the columns of a Def, in scanDef's order (s: symbols, f: files).
const defColumns = `s.id, f.path, s.name, s.kind, s.language, s.start_line, s.end_line, s.parent_id, s.signature, s.doc_comment, s.visibility, s.metadata`

// scanDef scans the defColumns of a row into d.
func scanDef(scan func(...any) error, d *Def) error {
	return scan(&d.ID, &d.Path, &d.Name, &d.Kind, &d.Language, &d.Line, &d.EndLine, &d.ParentID, &d.Signature, &d.DocComment, &d.Visibility, &d.Metadata)
}

// navCache is what resolution read from a store (definitions by name and by id, files'
// imports and packages), kept for the store generation it was read from: a resident server
// answers the next refs or calls without reading them again.
type navCache struct {
	mu     sync.Mutex
	gen    int64
	byName map[string][]Def
	byID   map[string]*Def
	files  map[string]*fileCtx
	uses   map[fileName][]resolvedUse // the uses of a name in a file, resolved (SymbolRefs)
	nUses  int                        // uses held
}

// navCacheKey is the navCache's key among the store's extensions.
type navCacheKey struct{}

// fileName keys the uses of a name in a file.
type fileName struct {
	file int64
	name string
}

// navCacheMax is the number of definitions by id, or of identifiers in uses, beyond which
// the cache starts again.
const navCacheMax = 200_000

// Reader answers navigation questions from one store's rows: definitions, references
// resolved to them, callees, children, implementations.
type Reader struct{ *store.Store }

// NewReader returns the Reader of the store s.
func NewReader(s *store.Store) Reader { return Reader{s} }

// resolver resolves uses against the store, caching what it reads for one request (and in
// the store's navCache, for the generation gen; -1: none).
type resolver struct {
	s       Reader
	ctx     context.Context
	gen     int64
	byName  map[string][]Def    // definitions by exact name
	byID    map[string]*Def     // definitions and containers by id
	files   map[string]*fileCtx // by path
	basesOf map[string][]*Def   // a type's bases, by the type's id (bases)

	content    map[string][]string          // files' lines, by path (localType)
	pyModules  map[string][]string          // Python module files, by module path (pyModuleFiles)
	goMod      *string                      // the go.mod's module path (goModulePath)
	returns    map[string]map[string]string // callables' declared results, by path and id
	localDepth int                          // local bindings being followed (localType)
}

// fileCtx is what resolution needs of the file a use is in.
type fileCtx struct {
	path, lang, dir, pkg string
	imports              []importDef
}

// importDef is one import of a file.
type importDef struct {
	target string // the import symbol's name: a module path, "a.b.C", "./m", "a::b::C"
	alias  string // the name it is bound to, when the source gives one
	names  string // JS/TS named imports ("a, b as c")
	deflt  string // JS/TS default import
	module string // Python from-import's module
	// wildcard: a Python from-import of every name (from m import *; target is the module)
	wildcard bool
}

func newResolver(ctx context.Context, s Reader) *resolver {
	gen, err := s.Generation(ctx)
	if err != nil {
		gen = -1
	}
	return &resolver{s: s, ctx: ctx, gen: gen, byName: map[string][]Def{}, byID: map[string]*Def{}, files: map[string]*fileCtx{}}
}

// shared runs fn on the store's cache when it is of r's generation (after emptying it for
// a new one), under its lock; fn gets nil when r does not cache.
func (r *resolver) shared(fn func(c *navCache)) {
	if r.gen < 0 {
		fn(nil)
		return
	}
	c := r.s.Extension(navCacheKey{}, func() any { return new(navCache) }).(*navCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != r.gen || c.byID == nil || len(c.byID) > navCacheMax || c.nUses > navCacheMax {
		c.gen, c.byName, c.byID, c.files = r.gen, map[string][]Def{}, map[string]*Def{}, map[string]*fileCtx{}
		c.uses, c.nUses = map[fileName][]resolvedUse{}, 0
	}
	fn(c)
}

// defs returns the definitions named name (imports excluded).
func (r *resolver) defs(name string) ([]Def, error) {
	if d, ok := r.byName[name]; ok {
		return d, nil
	}
	var out []Def
	found := false
	r.shared(func(c *navCache) {
		if c != nil {
			out, found = c.byName[name]
		}
	})
	if found {
		r.byName[name] = out
		for i := range out {
			r.byID[out[i].ID] = &out[i]
		}
		return out, nil
	}
	st, err := r.s.Stmt(r.ctx, `SELECT `+defColumns+` FROM symbols s JOIN files f ON f.id = s.file WHERE lower(s.name) = lower(?) ORDER BY f.path, s.start_line`)
	if err != nil {
		return nil, fmt.Errorf("index: definitions of %q: %w", name, err)
	}
	err = eachStmtRow(r.ctx, st, func(rows *sql.Rows) error {
		var d Def
		if err := scanDef(rows.Scan, &d); err != nil {
			return err
		}
		if d.Name == name && d.Kind != extract.Import.String() {
			out = append(out, d)
		}
		return nil
	}, name)
	if err != nil {
		return nil, fmt.Errorf("index: definitions of %q: %w", name, err)
	}
	r.shared(func(c *navCache) {
		if c != nil {
			c.byName[name] = out
		}
	})
	r.byName[name] = out
	for i := range out {
		r.byID[out[i].ID] = &out[i]
	}
	return out, nil
}

// symbol returns the symbol with id (nil if there is none).
func (r *resolver) symbol(id string) (*Def, error) {
	if id == "" {
		return nil, nil
	}
	if d, ok := r.byID[id]; ok {
		return d, nil
	}
	var cached *Def
	found := false
	r.shared(func(c *navCache) {
		if c != nil {
			cached, found = c.byID[id]
		}
	})
	if found {
		r.byID[id] = cached
		return cached, nil
	}
	st, err := r.s.Stmt(r.ctx, `SELECT `+defColumns+` FROM symbols s JOIN files f ON f.id = s.file WHERE s.id = ?`)
	if err != nil {
		return nil, fmt.Errorf("index: symbol %s: %w", id, err)
	}
	d := &Def{}
	err = scanDef(st.QueryRowContext(r.ctx, id).Scan, d)
	if err == sql.ErrNoRows {
		d, err = nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: symbol %s: %w", id, err)
	}
	r.shared(func(c *navCache) {
		if c != nil {
			c.byID[id] = d
		}
	})
	r.byID[id] = d
	return d, nil
}

// chain returns the ids of the symbol id and its ancestors, innermost first.
func (r *resolver) chain(id string) ([]string, error) {
	var out []string
	for id != "" && len(out) < 64 {
		d, err := r.symbol(id)
		if err != nil || d == nil {
			return out, err
		}
		out = append(out, id)
		id = d.ParentID
	}
	return out, nil
}

// file returns the resolution context of the file at p.
func (r *resolver) file(p, lang string) (*fileCtx, error) {
	if f, ok := r.files[p]; ok {
		return f, nil
	}
	var f *fileCtx
	r.shared(func(c *navCache) {
		if c != nil {
			f = c.files[p]
		}
	})
	if f != nil {
		r.files[p] = f
		return f, nil
	}
	f = &fileCtx{path: p, lang: lang, dir: path.Dir(p)}
	st, err := r.s.Stmt(r.ctx, `SELECT s.name, s.kind, s.metadata, s.parent_id FROM symbols s JOIN files f ON f.id = s.file
		WHERE f.path = ? AND s.kind IN ('import', 'namespace', 'module') ORDER BY s.start_line`)
	if err != nil {
		return nil, fmt.Errorf("index: imports of %s: %w", p, err)
	}
	err = eachStmtRow(r.ctx, st, func(rows *sql.Rows) error {
		var name, kind, meta, parent string
		if err := rows.Scan(&name, &kind, &meta, &parent); err != nil {
			return err
		}
		switch {
		case kind == extract.Import.String():
			m := metaMap(meta)
			f.imports = append(f.imports, importDef{target: name, alias: m["alias"], names: m["names"], deflt: m["default"], module: m["module"], wildcard: m["wildcard"] == "true"})
		case parent == "" && (kind == extract.Namespace.String() || kind == extract.Module.String()) && f.pkg == "":
			f.pkg = name
		}
		return nil
	}, p)
	if err != nil {
		return nil, fmt.Errorf("index: imports of %s: %w", p, err)
	}
	r.shared(func(c *navCache) {
		if c != nil {
			c.files[p] = f
		}
	})
	r.files[p] = f
	return f, nil
}

// pkgOf returns the package declaration of the file at p ("" none).
func (r *resolver) pkgOf(p, lang string) (string, error) {
	f, err := r.file(p, lang)
	if err != nil {
		return "", err
	}
	return f.pkg, nil
}

// resolve returns the definition a use in file f means, and why; nil when no rule decides.
func (r *resolver) resolve(f *fileCtx, u extract.Identifier) (*Def, string, error) {
	cands, err := r.defs(u.Name)
	if err != nil || len(cands) == 0 {
		return nil, "", err
	}
	var sameLang []*Def
	for i := range cands {
		if sameFamily(cands[i].Language, f.lang) {
			sameLang = append(sameLang, &cands[i])
		}
	}
	if len(sameLang) == 0 {
		return nil, "", nil
	}
	if f.lang == "java" && !strings.HasSuffix(u.Qualifier, "::") {
		// A Java name called is a method or a type's constructor, never a field; a name not
		// called is never a method (a method reference is written X::m).
		var fit []*Def
		for _, d := range sameLang {
			k, _ := extract.KindNamed(d.Kind)
			if u.Kind == extract.Call && (k.IsCallable() || isTypeKind(d.Kind)) || u.Kind != extract.Call && !k.IsCallable() {
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
		if q == "" {
			d, err = r.importedAs(f, u.Name, sameLang, true)
		} else {
			d, _, err = r.inImported(f, q, u.Name, sameLang)
		}
		if d == nil || err != nil {
			return nil, "", err
		}
		return d, ResolvedImport, nil
	}
	if q == "" {
		if d, err := r.inScope(f, u, sameLang); d != nil || err != nil {
			return d, ResolvedScope, err
		}
		if d, err := r.imported(f, u.Name, sameLang); d != nil || err != nil {
			return d, ResolvedImport, err
		}
		if d, err := r.inPackage(f, sameLang); d != nil || err != nil {
			return d, ResolvedPackage, err
		}
		if implicitMembers(f.lang) { // an inherited member, called without this
			if d, err := r.inheritedBare(f, u, sameLang); d != nil || err != nil {
				return d, ResolvedReceiver, err
			}
		}
		return r.unique(f, sameLang)
	}
	// A type's name: Bytes::from_static, Form.from_data, Integer.bitCount are its members
	// (or its bases'), the type found as its name is where the use is.
	if isUpper(q) && isIdent(q) {
		t, err := r.typeNamed(f, q, u.ContainingSymbolID)
		if err != nil {
			return nil, "", err
		}
		if t != nil {
			d, err := r.memberOf(f, *t, sameLang)
			if d == nil || err != nil {
				return nil, "", err
			}
			return d, ResolvedQualified, nil
		}
	}
	// A name an import binds first: checking it reads nothing, and a receiver named like an
	// imported package is not worth the shadowing rules.
	if d, bound, err := r.inImported(f, q, u.Name, sameLang); bound || err != nil {
		if d != nil || err != nil {
			return d, ResolvedImport, err
		}
		return nil, "", nil // an import names where it is, and it is not in the workspace
	}
	if d, err := r.onReceiver(f, u, sameLang); d != nil || err != nil {
		return d, ResolvedReceiver, err
	}
	if !isPath {
		if d, err := r.onDeclaredType(f, u, q, sameLang); d != nil || err != nil {
			return d, ResolvedReceiver, err
		}
	}
	if d := r.onType(q, sameLang); d != nil {
		return d, ResolvedQualified, nil
	}
	if isPath && f.lang == "rust" && !isUpper(lastSegment(q, "::")) { // toml::parse, crate::a::b::f
		if d := pickUnder(sameLang, rustModulePath(q), false); d != nil {
			return d, ResolvedQualified, nil
		}
	}
	// A receiver of unknown type is never resolved by a unique name: keys.reduce() is the
	// array method, not the workspace's one function named reduce.
	return nil, "", nil
}

// inheritedBare resolves a bare name inside a type's method (Java, C#, ...) to a member of
// the nearest base type that has one.
func (r *resolver) inheritedBare(f *fileCtx, u extract.Identifier, cands []*Def) (*Def, error) {
	chain, err := r.chain(u.ContainingSymbolID)
	if err != nil {
		return nil, err
	}
	for _, id := range chain {
		if d, err := r.symbol(id); err != nil {
			return nil, err
		} else if d != nil && isTypeKind(d.Kind) {
			return r.inherited(f, *d, cands, 0)
		}
	}
	return nil, nil
}

// unique returns the one candidate when there is one.
//
// Not in the languages whose imports and packages resolution follows (Go, Python, JS/TS,
// Java, Rust): there a bare name that none of them reaches is a builtin (len, print, a
// global) or comes from a library, not the workspace's one definition of it.
func (r *resolver) unique(f *fileCtx, cands []*Def) (*Def, string, error) {
	switch f.lang {
	case "go", "python", "javascript", "typescript", "tsx", "jsx", "java", "rust":
		return nil, "", nil
	}
	if d := one(cands); d != nil {
		return d, ResolvedGlobalUnique, nil
	}
	return nil, "", nil
}

// one returns the definition hits hold: the only one, or the first of overloads (several
// declarations of one name and kind in one scope of one file: TypeScript overload
// signatures, Java and C# overloaded methods, which resolution does not tell apart); nil
// when hits name several definitions, or none.
func one(hits []*Def) *Def {
	if len(hits) == 0 {
		return nil
	}
	for _, d := range hits[1:] {
		if !overloads(d, hits[0]) {
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
	return one(hits)
}

// overloads reports whether a and b declare the same name and kind in the same scope of the
// same file.
func overloads(a, b *Def) bool {
	return a.ID == b.ID || a.Path == b.Path && a.Name == b.Name && a.Kind == b.Kind && a.ParentID == b.ParentID
}

// inScope picks among the candidates defined in the use's own file.
func (r *resolver) inScope(f *fileCtx, u extract.Identifier, cands []*Def) (*Def, error) {
	var local []*Def
	for _, d := range cands {
		if d.Path != f.path {
			continue
		}
		if !implicitMembers(f.lang) { // a member is reached through self, this or a receiver
			if p, err := r.symbol(d.ParentID); err != nil {
				return nil, err
			} else if p != nil && isTypeKind(p.Kind) {
				continue
			}
		}
		local = append(local, d)
	}
	if len(local) == 0 {
		return nil, nil
	}
	chain, err := r.chain(u.ContainingSymbolID)
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
		if d := one(hit); d != nil {
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
	if d := one(top); d != nil {
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

// inPackage picks the one candidate in the use's package: the same directory for Go and C#,
// the same package declaration for Java, Kotlin and Scala.
func (r *resolver) inPackage(f *fileCtx, cands []*Def) (*Def, error) {
	// A bare name names a package-level definition: never a member of a type (another
	// class's method in Java) nor a Go method.
	var top []*Def
	for _, d := range cands {
		if d.ParentID != "" || d.Language == "go" && d.Kind == extract.Method.String() {
			if p, err := r.symbol(d.ParentID); err != nil {
				return nil, err
			} else if d.ParentID == "" || p != nil && isTypeKind(p.Kind) {
				continue
			}
		}
		top = append(top, d)
	}
	cands = top
	var hit []*Def
	switch f.lang {
	case "go", "csharp", "c", "cpp":
		for _, d := range cands {
			if path.Dir(d.Path) == f.dir {
				hit = append(hit, d)
			}
		}
	case "java", "kotlin", "scala":
		if f.pkg == "" {
			return nil, nil
		}
		for _, d := range cands {
			pk, err := r.pkgOf(d.Path, d.Language)
			if err != nil {
				return nil, err
			}
			if pk == f.pkg {
				hit = append(hit, d)
			}
		}
	default:
		return nil, nil
	}
	if d := one(hit); d != nil {
		return d, nil
	}
	return nil, nil
}

// imported picks the candidate a bare name's import names: from m import name, import
// {name} from "./m", import a.b.Name, use a::b::name.
func (r *resolver) imported(f *fileCtx, name string, cands []*Def) (*Def, error) {
	return r.importedAs(f, name, cands, false)
}

// importedAs is imported; importing says the use is the import statement's own name
// (import {zip as zipStatic}: zip names the definition, zipStatic the binding).
func (r *resolver) importedAs(f *fileCtx, name string, cands []*Def, importing bool) (*Def, error) {
	for _, im := range f.imports {
		var where string // a module path whose file or directory must hold the definition
		switch f.lang {
		case "python":
			from := pyFrom(im)
			if im.alias == name || im.alias == "" && lastSegment(im.target, ".") == name && im.module != "" || im.wildcard && !importing {
				where = pyModulePath(from, f.path)
			}
			if where == "" {
				continue
			}
			orig := name
			if !im.wildcard {
				orig = lastSegment(im.target, ".")
			}
			if d, err := r.pyReexported(where, orig, cands); d != nil || err != nil {
				return d, err
			}
			continue
		case "javascript", "typescript", "tsx", "jsx":
			if im.deflt == name || jsNamesImport(im.names, name) || importing && jsNamesImported(im.names, name) {
				where = jsModulePath(im.target, f.path)
			}
		case "java", "kotlin", "scala":
			if lastSegment(im.target, ".") == name {
				where = strings.ReplaceAll(strings.TrimSuffix(im.target, "."+name), ".", "/") + "/" + name
			}
		case "rust":
			if im.alias == name || im.alias == "" && lastSegment(im.target, "::") == name {
				where = rustModulePath(strings.TrimSuffix(im.target, "::"+name))
			}
		}
		if where == "" {
			continue
		}
		if d := pickUnder(cands, where, false); d != nil {
			return d, nil
		}
	}
	return nil, nil
}

// inImported resolves q.name where q is bound by an import of the file (a Go package, a
// Python module, a JS/TS namespace or default import, a Rust module or type): bound reports
// that q is such a name; d is the definition in the imported place (for Python, or in a
// module it re-exports name from), nil when the workspace does not hold it (a standard
// library or third-party package).
func (r *resolver) inImported(f *fileCtx, q, name string, cands []*Def) (d *Def, bound bool, err error) {
	for _, im := range f.imports {
		var where string
		switch f.lang {
		case "go":
			if im.alias == q || im.alias == "" && lastSegment(im.target, "/") == q {
				where = im.target
			}
		case "python":
			switch {
			case im.alias == q:
				where = pyModulePath(im.target, f.path)
			case im.alias == "" && im.module == "" && im.target == q && !im.wildcard:
				where = pyModulePath(q, f.path)
			case im.alias == "" && im.module != "" && lastSegment(im.target, ".") == q:
				where = pyModulePath(im.target, f.path) // from pkg import module
			}
		case "javascript", "typescript", "tsx", "jsx":
			if im.alias == q || im.deflt == q {
				where = jsModulePath(im.target, f.path)
			}
		case "rust":
			if im.alias == q || im.alias == "" && lastSegment(im.target, "::") == q {
				where = rustModulePath(im.target)
			}
		}
		if where == "" {
			continue
		}
		switch f.lang {
		case "python":
			d, err := r.pyReexported(where, name, cands)
			return d, true, err
		case "go":
			d, err := r.goImported(where, cands)
			return d, true, err
		}
		return pickUnder(cands, where, false), true, nil
	}
	return nil, false, nil
}

// onReceiver resolves self.x, this.x, super.x and a Go method's receiver: a member of the
// type the use is inside.
func (r *resolver) onReceiver(f *fileCtx, u extract.Identifier, cands []*Def) (*Def, error) {
	q := u.Qualifier
	chain, err := r.chain(u.ContainingSymbolID)
	if err != nil || len(chain) == 0 {
		return nil, err
	}
	typeName := ""
	var typeDef *Def
	switch {
	case q == "self" || q == "this" || q == "cls" || q == "Self" || q == "$this" || q == "static":
		for _, id := range chain {
			if d, _ := r.symbol(id); d != nil && isTypeKind(d.Kind) {
				typeName, typeDef = d.Name, d
				break
			}
		}
	case q == "super" || q == "super()" || q == "parent":
		for _, id := range chain { // a member of a base of the enclosing type, not of the type
			if d, _ := r.symbol(id); d != nil && isTypeKind(d.Kind) {
				return r.inherited(f, *d, cands, 0)
			}
		}
		return nil, nil
	case f.lang == "go":
		for _, id := range chain {
			d, _ := r.symbol(id)
			if d != nil && d.Kind == extract.Method.String() {
				if recv, typ := goReceiver(d.Signature); recv == q {
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
		p, err := r.symbol(d.ParentID)
		if err != nil {
			return nil, err
		}
		if p != nil && p.Name == typeName && (f.lang != "go" || path.Dir(d.Path) == f.dir) {
			hit = append(hit, d)
		} else if p == nil && f.lang == "go" && path.Dir(d.Path) == f.dir && d.Kind == extract.Method.String() {
			if _, typ := goReceiver(d.Signature); typ == typeName {
				hit = append(hit, d)
			}
		}
	}
	if d := one(hit); d != nil {
		return d, nil
	}
	if len(hit) == 0 && typeDef != nil {
		return r.inherited(f, *typeDef, cands, 0)
	}
	return nil, nil
}

// inherited looks for the one candidate that is a member of a base of the type t (its
// extends relationships, resolved in t's file), nearest base first.
func (r *resolver) inherited(f *fileCtx, t Def, cands []*Def, depth int) (*Def, error) {
	if depth > 8 {
		return nil, nil
	}
	bases, err := r.bases(t)
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
		if d := one(hit); d != nil {
			return d, nil
		}
		if d, err := r.inherited(f, *b, cands, depth+1); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// bases returns the types t extends, as resolution finds them from t's file.
func (r *resolver) bases(t Def) ([]*Def, error) {
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

func (r *resolver) readBases(t Def) ([]*Def, error) {
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
	tf, err := r.file(t.Path, t.Language)
	if err != nil {
		return nil, err
	}
	var out []*Def
	for _, rel := range rels {
		if rel.FromID != t.ID || rel.Kind != extract.Extends {
			continue
		}
		d, err := r.typeNamed(tf, rel.To, t.ParentID)
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
func (r *resolver) onType(q string, cands []*Def) *Def {
	// Only a type's own name: in x.Reader.Peek(), Reader is a field named like a type.
	name := q
	if name == "" || !isUpper(name) || strings.ContainsAny(name, ".:()[]<> ") {
		return nil
	}
	var hit []*Def
	for _, d := range cands {
		if p, _ := r.symbol(d.ParentID); p != nil && p.Name == name {
			hit = append(hit, d)
		}
	}
	if d := one(hit); d != nil {
		return d
	}
	return nil
}

// pickUnder returns the one candidate whose file is where (a path without extension: a
// module file) or inside the directory where; where may be a suffix of the workspace path
// (a Java package directory, a Go import path in GOPATH layout), and with goModule the
// directory may be a suffix of where (a Go import path of a module: example.com/app/store
// for store/).
func pickUnder(cands []*Def, where string, goModule bool) *Def {
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
	if d := one(hit); d != nil {
		return d
	}
	return nil
}

// sameFamily reports whether a definition in language a can be what a use in language b
// names (JavaScript and TypeScript share modules; C and C++ headers).
func sameFamily(a, b string) bool {
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

func isTypeKind(kind string) bool {
	k, ok := extract.KindNamed(kind)
	return ok && (k.IsType() || k.IsContainer())
}

func isUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func lastSegment(s, sep string) string {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[i+len(sep):]
	}
	return s
}

// goReceiver returns the receiver name and type (without * and type parameters) of a Go
// method's signature: s, Server for func (s *Server[T]) Name(...).
func goReceiver(sig string) (name, typ string) {
	rest, ok := strings.CutPrefix(sig, "func (")
	if !ok {
		return "", ""
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return "", ""
	}
	f := strings.Fields(rest[:end])
	switch len(f) {
	case 1:
		typ = f[0]
	case 2:
		name, typ = f[0], f[1]
	default:
		return "", ""
	}
	typ = strings.TrimPrefix(typ, "*")
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	return name, typ
}

// pyModulePath turns a Python module (a.b, .b, ..b) into a path (a/b), relative imports
// against the directory of the importing file.
func pyModulePath(module, from string) string {
	if module == "" {
		return ""
	}
	dots := len(module) - len(strings.TrimLeft(module, "."))
	rest := strings.ReplaceAll(module[dots:], ".", "/")
	if dots == 0 {
		return rest
	}
	dir := path.Dir(from)
	for range dots - 1 {
		dir = path.Dir(dir)
	}
	return path.Join(dir, rest)
}

// jsModulePath turns a relative JS/TS import source ("./x", "../y/z") into a workspace path
// without extension; a package import ("react") gives "" (not in the workspace).
func jsModulePath(src, from string) string {
	if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		return ""
	}
	p := path.Join(path.Dir(from), src)
	return strings.TrimSuffix(p, path.Ext(p))
}

// jsNamesImport reports whether the named imports "a, b as c" bind name.
func jsNamesImport(names, name string) bool {
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		orig, alias, ok := strings.Cut(n, " as ")
		if ok && strings.TrimSpace(alias) == name || !ok && orig == name {
			return true
		}
	}
	return false
}

// jsNamesImported reports whether the named imports "a, b as c" import the name (a or b).
func jsNamesImported(names, name string) bool {
	for _, n := range strings.Split(names, ",") {
		orig, _, _ := strings.Cut(strings.TrimSpace(n), " as ")
		if strings.TrimSpace(orig) == name {
			return true
		}
	}
	return false
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

// metaMap decodes a symbol's metadata JSON object ("" is none).
func metaMap(s string) map[string]string {
	m := map[string]string{}
	if s == "" {
		return m
	}
	_ = json.Unmarshal([]byte(s), &m)
	return m
}

// ResolveName resolves symbol (a name, maybe qualified: pkg.F, a::b::C) as if it were
// written in the file at p on line (0: at the file's top level): the definition it means
// and why, nil when no rule decides.
func (s Reader) ResolveName(ctx context.Context, p string, line int, symbol string) (*Def, string, error) {
	name, qualifier := splitQualified(symbol)
	var lang string
	err := s.DB().QueryRowContext(ctx, `SELECT language FROM files WHERE path = ?`, p).Scan(&lang)
	if err == sql.ErrNoRows {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("index: resolve %s in %s: %w", name, p, err)
	}
	use := extract.Identifier{Name: name, Qualifier: qualifier, Kind: extract.VariableRef}
	if line > 0 {
		err := s.DB().QueryRowContext(ctx, `SELECT s.id FROM symbols s JOIN files f ON f.id = s.file
			WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? AND s.kind != 'import'
			ORDER BY s.start_line DESC, s.end_line ASC LIMIT 1`, p, line, line).Scan(&use.ContainingSymbolID)
		if err != nil && err != sql.ErrNoRows {
			return nil, "", fmt.Errorf("index: resolve %s in %s: %w", name, p, err)
		}
	}
	r := newResolver(ctx, s)
	f, err := r.file(p, lang)
	if err != nil {
		return nil, "", err
	}
	return r.resolve(f, use)
}

// eachStmtRow runs the prepared statement st with args and calls scan for each row.
func eachStmtRow(ctx context.Context, st *sql.Stmt, scan func(*sql.Rows) error, args ...any) error {
	rows, err := st.QueryContext(ctx, args...)
	return store.ScanEach(rows, err, scan)
}

// reachable reports whether a use in the file f can resolve to the top-level definition
// def when resolution cannot fall back on a unique name (the name has other definitions in
// def's language family): only from def's own file, its package (the same Go directory, the
// same Java package) or a file whose imports point at def's file or directory. It lets refs
// skip the files that cannot hold a use of def without reading them. It answers true for
// what it cannot tell (members of types, other languages).
func (r *resolver) reachable(f *fileCtx, def *Def) (bool, error) {
	if def.ParentID != "" || f.path == def.Path {
		return true, nil
	}
	one := []*Def{def}
	switch f.lang {
	case "go":
		if f.dir == path.Dir(def.Path) {
			return true, nil
		}
		for _, im := range f.imports {
			if d, err := r.goImported(im.target, one); d != nil || err != nil {
				return d != nil, err
			}
		}
		return false, nil
	case "python":
		for _, im := range f.imports {
			for _, m := range []string{im.module, im.target} {
				if m == "" {
					continue
				}
				if d, err := r.pyReexported(pyModulePath(m, f.path), def.Name, one); d != nil || err != nil {
					return d != nil, err
				}
			}
		}
		return false, nil
	case "javascript", "typescript", "tsx", "jsx":
		for _, im := range f.imports {
			if where := jsModulePath(im.target, f.path); where != "" && pickUnder(one, where, false) != nil {
				return true, nil
			}
		}
		return false, nil
	case "java":
		pk, err := r.pkgOf(def.Path, def.Language)
		if err != nil {
			return false, err
		}
		if pk != "" && pk == f.pkg {
			return true, nil
		}
		for _, im := range f.imports {
			p := strings.ReplaceAll(strings.TrimSuffix(im.target, ".*"), ".", "/")
			if pickUnder(one, p, false) != nil {
				return true, nil
			}
		}
		return false, nil
	}
	return true, nil
}
