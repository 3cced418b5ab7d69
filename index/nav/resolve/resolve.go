package resolve

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
//	               golang/gomodule.go), or for Python in the module that one re-exports it from
//	               (python/reexport.go)
//	package        a bare name defined once in the use's package: the same directory (Go,
//	               C#), the same package declaration (Java, Kotlin, Scala)
//	qualified      Type.member, Type::member: a member of a type of that name; in Rust
//	               a::b::f, a function of the module a/b
//	global-unique  a bare name defined once in the workspace, in the use's language, in a
//	               language whose imports resolution does not follow (C, C++, C#, PHP, Ruby,
//	               Kotlin, Scala, Swift, Lua, Bash); never for a receiver of unknown type
//
// JavaScript and TypeScript have their own forms of these rules (js/jsresolve.go): a parameter
// or local hides what a bare name means outside; modules are files found as Node and
// TypeScript find them, through re-exports, CommonJS require and package.json entries, and
// what a module exports is read from its definitions (js/jsmodule.go); this.x is a member of
// what this is there (a class, a prototype's function, an object literal), a local bound
// to new X() an instance of X; and refs of a definition also read its uses under the names
// importers bind it to (js/jsalias.go).
//
// Go has its own too (golang/gochain.go): a bare name is hidden by a local or parameter of the
// function, and a package's definitions are those of its directory's files that declare
// the same package (an x_test file's are another's; a dot import brings its package's in);
// a use looked up in an expression (w.Header().Set, s.conns[0].Close(), x.(*T).M, the key
// Use of &Command{Use: "x"}) is the member Go selects in the type of the expression, read
// from locals' bindings, declared types and callables' declared results, through embedded
// fields and interfaces.
//
// Rust has its own (rust/rust.go): modules are files (src/lib.rs, src/a.rs or src/a/mod.rs), a
// path is followed from crate::, self::, super:: or what the module declares and imports
// (use, pub use, globs), an impl block's items are its type's wherever the impl is (the
// inherent one before a trait's), and self, parameters and fields have their declared
// types; what leads out of the workspace is left unresolved.
//
// C and C++ have theirs (cfamily/cfamily.go): a function's parameters and locals hide a global; a
// bare name means what the file or the headers it includes define, or a function or global
// with external linkage (a prototype is its definition); a macro's uses are also the uses of
// a function it renames, and its expansions in the function's declarations; p->x is a field
// of p's declared struct; C++ a::b::f by its enclosing namespaces and types.
//
// Java has its own (java/java.go), as javac binds names: a local or parameter in scope (read from
// the method's source) hides a field; a bare name is a member of the innermost enclosing type
// that has one, bases included; a type is a nested, the file's, a single-type import's, the
// package's or an on-demand import's; q.name is a member of the type of the expression q
// (locals', fields' and methods' declared types, casts, new, this, super, Outer.this, a
// package path); a call picks its overload by its arguments, refs list the overload it
// picked; a name a base outside the workspace may declare is left unresolved.

import (
	"context"
	"database/sql"
	"fmt"
	"path"
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

// navCache is what resolution read from a store (definitions by name and by id, files'
// imports and packages), kept for the store generation it was read from: a resident server
// answers the next refs or calls without reading them again.
type navCache struct {
	mu     sync.Mutex
	gen    int64
	byName map[string][]Def
	byID   map[string]*Def
	files  map[string]*File
	uses   map[fileName][]ResolvedUse // the uses of a name in a file, resolved (SymbolRefs)
	nUses  int                        // uses held
}

// navCacheKey is the navCache's key among the store's extensions.
type navCacheKey struct{}

// fileName keys the uses of a name in a file.
type fileName struct {
	file int64
	name string
}

// CacheMax is the number of definitions by id, or of identifiers in uses, beyond which
// the cache starts again.
const CacheMax = 200_000

// Resolver resolves uses against the store, caching what it reads for one request (and in
// the store's navCache, for the generation gen; -1: none).
type Resolver struct {
	s       *store.Store
	ctx     context.Context
	gen     int64
	byName  map[string][]Def  // definitions by exact name
	byID    map[string]*Def   // definitions and containers by id
	files   map[string]*File  // by path
	basesOf map[string][]*Def // a type's bases, by the type's id (bases)

	content    map[string][]string          // files' lines, by path (LocalType)
	returns    map[string]map[string]string // callables' declared results, by path and id
	localDepth int                          // local bindings being followed (LocalType)
	family     map[string][]*Def            // definitions by name and language (FamilyDefs)
	langs      Languages                    // the languages' hooks
	state      map[any]any                  // the languages' own state, by their key (State)
}

// Hooks are what one language's package adds to the generic rules (rules.go): each is
// called for a use in a file of one of its Languages, at its place among the rules, and a nil
// hook leaves the use to the generic rules. decided reports that the hook decides the use
// (with d nil: unresolved, no later rule tried).
type Hooks struct {
	Languages []string // the languages (File.Lang) the hooks serve

	// Resolve runs first, before the generic rules (the language's own scopes, modules and
	// types).
	Resolve func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (d *Def, why string, decided bool, err error)
	// ImportRef resolves the name an import statement names (the generic: the import rules).
	ImportRef func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (*Def, error)
	// Bare runs before the scope rule for a bare name: it decides, or leaves rest, the
	// candidates the generic rules go on with.
	Bare func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (d *Def, why string, rest []*Def, decided bool, err error)
	// Qualified runs before the generic rules for q.name (reason receiver).
	Qualified func(r *Resolver, f *File, u extract.Identifier, cands []*Def) (d *Def, decided bool, err error)
	// Typed runs after the receiver rule for q.name (q without its ::, isPath: it had one).
	Typed func(r *Resolver, f *File, u extract.Identifier, q string, isPath bool, cands []*Def) (d *Def, why string, decided bool, err error)
	// ImportedAs picks the candidate a bare name's import names (importing: the use is the
	// import statement's own name).
	ImportedAs func(r *Resolver, f *File, name string, cands []*Def, importing bool) (*Def, error)
	// InImported resolves q.name where q is bound by an import (Resolver.InImported).
	InImported func(r *Resolver, f *File, q, name string, cands []*Def) (d *Def, bound bool, err error)
	// Reachable tells whether a use in f can resolve to the top-level def of another file
	// (Resolver.Reachable).
	Reachable func(r *Resolver, f *File, def *Def) (bool, error)
	// TypeNamed reads a type's name before it is resolved as a use (C#'s using A = N.T).
	TypeNamed func(r *Resolver, f *File, name, qual string) (d *Def, decided bool, err error)
	// This returns the type this has in the callable fn where fn declares it (TypeScript's
	// this: T parameter); found reports the declaration.
	This func(r *Resolver, f *File, fn *Def) (t *Def, found bool, err error)
}

// Languages are the languages' hooks, by language.
type Languages map[string]*Hooks

// NewLanguages returns the table of the hooks, by each of their languages.
func NewLanguages(hooks ...Hooks) Languages {
	out := Languages{}
	for i := range hooks {
		for _, l := range hooks[i].Languages {
			out[l] = &hooks[i]
		}
	}
	return out
}

// noHooks are the hooks of a language without any.
var noHooks = &Hooks{}

// hooks returns the hooks of lang (none: all nil).
func (r *Resolver) hooks(lang string) *Hooks {
	if h := r.langs[lang]; h != nil {
		return h
	}
	return noHooks
}

// State returns the value kept for key in r for the request, made by mk the first time: a
// language's own state (its caches), kept with the resolver.
func (r *Resolver) State(key any, mk func() any) any {
	if v, ok := r.state[key]; ok {
		return v
	}
	if r.state == nil {
		r.state = map[any]any{}
	}
	v := mk()
	r.state[key] = v
	return v
}

// New returns a resolver of uses against the store s, with the languages' hooks langs, for
// one request.
func New(ctx context.Context, s *store.Store, langs Languages) *Resolver {
	gen, err := s.Generation(ctx)
	if err != nil {
		gen = -1
	}
	return &Resolver{s: s, ctx: ctx, gen: gen, langs: langs, byName: map[string][]Def{}, byID: map[string]*Def{}, files: map[string]*File{}}
}

// File is what resolution needs of the file a use is in.
type File struct {
	Path, Lang, Dir, Pkg string
	Imports              []Import
}

// Import is one import of a file.
type Import struct {
	Target  string // the import symbol's name: a module path, "a.b.C", "./m", "a::b::C"
	Alias   string // the name it is bound to, when the source gives one
	Names   string // JS/TS named imports ("a, b as c")
	Default string // JS/TS default import
	Module  string // Python from-import's module
	// wildcard: a Python from-import of every name (from m import *; target is the module),
	// a JS/TS export * from "m"
	Wildcard bool
	Reexport bool // a JS/TS export ... from "m"
	Static   bool // a C# using static
	// line, endLine: the import statement's lines (a use of kind import is its own
	// statement's, pyImportRef)
	Line, EndLine int
}

// shared runs fn on the store's cache when it is of r's generation (after emptying it for
// a new one), under its lock; fn gets nil when r does not cache.
func (r *Resolver) shared(fn func(c *navCache)) {
	if r.gen < 0 {
		fn(nil)
		return
	}
	c := r.s.Extension(navCacheKey{}, func() any { return new(navCache) }).(*navCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != r.gen || c.byID == nil || len(c.byID) > CacheMax || c.nUses > CacheMax {
		c.gen, c.byName, c.byID, c.files = r.gen, map[string][]Def{}, map[string]*Def{}, map[string]*File{}
		c.uses, c.nUses = map[fileName][]ResolvedUse{}, 0
	}
	fn(c)
}

// Defs returns the definitions named name (imports excluded).
func (r *Resolver) Defs(name string) ([]Def, error) {
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
	st, err := r.s.Stmt(r.ctx, `SELECT `+DefColumns+` FROM symbols s JOIN files f ON f.id = s.file WHERE lower(s.name) = lower(?) ORDER BY f.path, s.start_line`)
	if err != nil {
		return nil, fmt.Errorf("index: definitions of %q: %w", name, err)
	}
	err = EachStmtRow(r.ctx, st, func(rows *sql.Rows) error {
		var d Def
		if err := ScanDef(rows.Scan, &d); err != nil {
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

// Symbol returns the symbol with id (nil if there is none).
func (r *Resolver) Symbol(id string) (*Def, error) {
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
	st, err := r.s.Stmt(r.ctx, `SELECT `+DefColumns+` FROM symbols s JOIN files f ON f.id = s.file WHERE s.id = ?`)
	if err != nil {
		return nil, fmt.Errorf("index: symbol %s: %w", id, err)
	}
	d := &Def{}
	err = ScanDef(st.QueryRowContext(r.ctx, id).Scan, d)
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

// Chain returns the ids of the symbol id and its ancestors, innermost first.
func (r *Resolver) Chain(id string) ([]string, error) {
	var out []string
	for id != "" && len(out) < 64 {
		d, err := r.Symbol(id)
		if err != nil || d == nil {
			return out, err
		}
		out = append(out, id)
		id = d.ParentID
	}
	return out, nil
}

// FileOf returns the resolution context of the file at p.
func (r *Resolver) FileOf(p, lang string) (*File, error) {
	if f, ok := r.files[p]; ok {
		return f, nil
	}
	var f *File
	r.shared(func(c *navCache) {
		if c != nil {
			f = c.files[p]
		}
	})
	if f != nil {
		r.files[p] = f
		return f, nil
	}
	f = &File{Path: p, Lang: lang, Dir: path.Dir(p)}
	st, err := r.s.Stmt(r.ctx, `SELECT s.name, s.kind, s.metadata, s.parent_id, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file
		WHERE f.path = ? AND s.kind IN ('import', 'namespace', 'module') ORDER BY s.start_line`)
	if err != nil {
		return nil, fmt.Errorf("index: imports of %s: %w", p, err)
	}
	err = EachStmtRow(r.ctx, st, func(rows *sql.Rows) error {
		var name, kind, meta, parent string
		var line, endLine int
		if err := rows.Scan(&name, &kind, &meta, &parent, &line, &endLine); err != nil {
			return err
		}
		switch {
		case kind == extract.Import.String():
			m := MetaMap(meta)
			f.Imports = append(f.Imports, Import{Target: name, Alias: m["alias"], Names: m["names"], Default: m["default"], Module: m["module"], Wildcard: m["wildcard"] == "true", Reexport: m["reexport"] == "true", Static: m["static"] == "true", Line: line, EndLine: endLine})
		case parent == "" && (kind == extract.Namespace.String() || kind == extract.Module.String()) && f.Pkg == "":
			f.Pkg = name
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

// PkgOf returns the package declaration of the file at p ("" none).
func (r *Resolver) PkgOf(p, lang string) (string, error) {
	f, err := r.FileOf(p, lang)
	if err != nil {
		return "", err
	}
	return f.Pkg, nil
}

// Reachable reports whether a use in the file f can resolve to the top-level definition
// def when resolution cannot fall back on a unique name (the name has other definitions in
// def's language family): only from def's own file, its package (the same Go directory, the
// same Java package) or a file whose imports point at def's file or directory, as the
// language's Reachable hook tells. It lets refs skip the files that cannot hold a use of def
// without reading them. It answers true for what it cannot tell (members of types, languages
// without the hook).
func (r *Resolver) Reachable(f *File, def *Def) (bool, error) {
	if def.ParentID != "" || f.Path == def.Path {
		return true, nil
	}
	if h := r.hooks(f.Lang).Reachable; h != nil {
		return h(r, f, def)
	}
	return true, nil
}
