// Package languages holds Quarry's per-language configuration: which files belong to a
// language, which tree-sitter grammar parses them, and the rules the code tokenizer and the
// scorer apply to them.
//
// Each language is one embedded TOML file, languages/<name>.toml, with these keys (every key
// is required, lists may be empty; unknown keys are errors):
//
//	name         = "rust"            # must equal the file name without ".toml"
//	aliases      = ["rs"]            # other names accepted by Lookup (--lang)
//	grammar      = "rust"            # a grammar Quarry links (KnownGrammars)
//	category     = "code"            # what its files hold: code, docs (prose: Markdown) or
//	                                 # config (keys and values: TOML, YAML); a definition
//	                                 # in docs or config ranks below the same name in code
//	extensions   = [".rs"]           # lower-case, with the dot; unique across all files
//	filenames    = []                # base names without a telling extension (Rakefile); NAME.*
//	                                 # also matches NAME.x for an x no language claims
//	                                 # (Dockerfile.* matches Dockerfile.dev)
//	interpreters = []                # "#!" interpreters without version (python, bash); unique
//
//	[tokenizer]
//	preserve_patterns  = ["::", "->"]      # operators emitted as tokens of their own (2+ bytes,
//	                                       # punctuation only)
//	meaningful_affixes = ["is_", "_mut"]   # snake_case affixes: "x_" is a prefix, "_x" a suffix;
//	                                       # the remainder of a word without one is also indexed
//	[variants]
//	strip_prefixes = ["I"]                 # naming decoration; the stripped word is also indexed
//	strip_suffixes = ["Service", "_impl"]  # CamelCase ones match only at a case boundary
//
//	[scoring]
//	important_patterns = ["pub fn"]        # a result whose signature contains one is boosted
//
// All files are decoded and validated once, the first time Default is called; an invalid
// file is an error that names the file and the key.
package languages

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

//go:embed *.toml
var embedded embed.FS

// KnownGrammars lists the tree-sitter grammars Quarry links (all from
// github.com/smacker/go-tree-sitter), by the name a language file uses in its grammar key. The
// extract package proves each one resolves to a real grammar; a new language whose grammar is
// not here needs the grammar linked there first.
var KnownGrammars = []string{
	"bash", "c", "cpp", "csharp", "golang", "java", "javascript", "kotlin", "lua", "php",
	"python", "ruby", "rust", "scala", "swift", "tsx", "typescript",
	"css", "dockerfile", "hcl", "markdown", "protobuf", "sql", "toml", "yaml",
	"cue", "elixir", "elm", "groovy", "html", "ocaml", "svelte",
}

// Language is the validated configuration of one language.
type Language struct {
	Name         string   `toml:"name"`
	Aliases      []string `toml:"aliases"`
	Grammar      string   `toml:"grammar"`
	Category     Category `toml:"category"`
	Extensions   []string `toml:"extensions"`
	Filenames    []string `toml:"filenames"`
	Interpreters []string `toml:"interpreters"`
	Tokenizer    struct {
		PreservePatterns  []string `toml:"preserve_patterns"`
		MeaningfulAffixes []string `toml:"meaningful_affixes"`
	} `toml:"tokenizer"`
	Variants struct {
		StripPrefixes []string `toml:"strip_prefixes"`
		StripSuffixes []string `toml:"strip_suffixes"`
	} `toml:"variants"`
	Scoring struct {
		ImportantPatterns []string `toml:"important_patterns"`
	} `toml:"scoring"`
}

// Category is what a language's files hold, as far as ranking cares: a definition in
// documentation or configuration (a Markdown heading, a TOML key) is seldom the one a name
// asks for when code defines it too.
type Category string

// Categories.
const (
	Code   Category = "code"   // source code
	Docs   Category = "docs"   // prose: the symbols are headings
	Config Category = "config" // keys and values: the symbols are keys and tables
)

var categories = []Category{Code, Docs, Config}

func (c Category) String() string { return string(c) }

// CategoryOf returns the category of the language named name in the default registry;
// Code for a name it does not know (or none).
func CategoryOf(name string) Category {
	reg, err := Default()
	if err != nil || name == "" {
		return Code
	}
	if l, ok := reg.Lookup(name); ok {
		return l.Category
	}
	return Code
}

// Registry is the set of known languages with its lookup tables.
type Registry struct {
	langs      []*Language // sorted by name
	byName     map[string]*Language
	byExt      map[string]*Language
	byFilename map[string]*Language
	byInterp   map[string]*Language
}

// ErrUnknownLanguage is wrapped by the error Resolve returns for a name that matches no
// language.
var ErrUnknownLanguage = errors.New("unknown language")

var loadDefault = sync.OnceValues(func() (*Registry, error) { return Parse(embedded) })

// Default returns the registry built from the embedded language files. The files are decoded
// and validated once per process.
func Default() (*Registry, error) { return loadDefault() }

// Parse decodes and validates every *.toml file at the root of fsys.
func Parse(fsys fs.FS) (*Registry, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("languages: list files: %w", err)
	}
	if len(names) == 0 {
		return nil, errors.New("languages: no language files")
	}
	sort.Strings(names)
	r := &Registry{
		byName:     map[string]*Language{},
		byExt:      map[string]*Language{},
		byFilename: map[string]*Language{},
		byInterp:   map[string]*Language{},
	}
	var errs []error
	for _, name := range names {
		lang, err := parseFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := r.add(name, lang); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

func parseFile(fsys fs.FS, file string) (*Language, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("languages: read %s: %w", file, err)
	}
	var lang Language
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&lang)
	if err != nil {
		return nil, fmt.Errorf("languages/%s: %w", file, err)
	}
	if undec := md.Undecoded(); len(undec) > 0 {
		keys := make([]string, len(undec))
		for i, k := range undec {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("languages/%s: unknown key %q (known keys: %s)", file, keys[0], strings.Join(knownKeys, ", "))
	}
	for _, k := range knownKeys {
		if !md.IsDefined(strings.Split(k, ".")...) {
			return nil, fmt.Errorf("languages/%s: missing key %q", file, k)
		}
	}
	if err := validate(file, &lang); err != nil {
		return nil, err
	}
	return &lang, nil
}

var knownKeys = []string{
	"name", "aliases", "grammar", "category", "extensions", "filenames", "interpreters",
	"tokenizer.preserve_patterns", "tokenizer.meaningful_affixes",
	"variants.strip_prefixes", "variants.strip_suffixes",
	"scoring.important_patterns",
}

// validate checks one language on its own; cross-file checks live in Registry.add.
func validate(file string, l *Language) error {
	bad := func(key, format string, args ...any) error {
		return fmt.Errorf("languages/%s: %s: %s", file, key, fmt.Sprintf(format, args...))
	}
	if want := strings.TrimSuffix(file, ".toml"); l.Name != want {
		return bad("name", "%q must equal the file name %q", l.Name, want)
	}
	if !slices.Contains(KnownGrammars, l.Grammar) {
		return bad("grammar", "unknown grammar %q (known: %s)", l.Grammar, strings.Join(KnownGrammars, ", "))
	}
	if !slices.Contains(categories, l.Category) {
		return bad("category", "unknown category %q (known: %s, %s, %s)", l.Category, Code, Docs, Config)
	}
	if len(l.Extensions)+len(l.Filenames)+len(l.Interpreters) == 0 {
		return bad("extensions", "a language needs at least one extension, file name or interpreter")
	}
	for i, ext := range l.Extensions {
		if len(ext) < 2 || ext[0] != '.' || ext != strings.ToLower(ext) || strings.ContainsAny(ext[1:], "./\\ ") {
			return bad(fmt.Sprintf("extensions[%d]", i), "%q is not a lower-case extension such as \".rs\"", ext)
		}
	}
	for i, f := range l.Filenames {
		if f == "" || strings.ContainsAny(f, "/\\") || strings.Contains(strings.TrimSuffix(f, ".*"), "*") || f == ".*" {
			return bad(fmt.Sprintf("filenames[%d]", i), "%q is not a base file name, or one followed by .* (Dockerfile.*)", f)
		}
	}
	for i, in := range l.Interpreters {
		if in == "" || in != Interpreter([]byte("#!"+in)) {
			return bad(fmt.Sprintf("interpreters[%d]", i), "%q must be a program name without directory or version, such as \"python\"", in)
		}
	}
	for i, p := range l.Tokenizer.PreservePatterns {
		if utf8.RuneCountInString(p) < 2 || strings.IndexFunc(p, IsWordRune) >= 0 {
			return bad(fmt.Sprintf("tokenizer.preserve_patterns[%d]", i), "%q must be two or more punctuation characters, such as \"::\"", p)
		}
	}
	for i, a := range l.Tokenizer.MeaningfulAffixes {
		if len(a) < 2 || (a[0] == '_') == (a[len(a)-1] == '_') || strings.IndexFunc(a, isNotWordRune) >= 0 {
			return bad(fmt.Sprintf("tokenizer.meaningful_affixes[%d]", i), "%q must be a snake_case prefix such as \"is_\" or suffix such as \"_mut\"; put CamelCase affixes in [variants]", a)
		}
	}
	for key, list := range map[string][]string{"variants.strip_prefixes": l.Variants.StripPrefixes, "variants.strip_suffixes": l.Variants.StripSuffixes} {
		for i, a := range list {
			if a == "" || strings.IndexFunc(a, isNotWordRune) >= 0 {
				return bad(fmt.Sprintf("%s[%d]", key, i), "%q must be a non-empty identifier fragment", a)
			}
		}
	}
	for i, p := range l.Scoring.ImportantPatterns {
		if strings.TrimSpace(p) == "" {
			return bad(fmt.Sprintf("scoring.important_patterns[%d]", i), "empty pattern")
		}
	}
	return nil
}

// IsWordRune reports whether r belongs to an identifier: a letter, a digit, a combining mark or
// an underscore. Every other rune separates words.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

func isNotWordRune(r rune) bool { return !IsWordRune(r) }

// add registers lang, rejecting names, aliases, extensions, file names and interpreters that
// another file already claims.
func (r *Registry) add(file string, l *Language) error {
	claim := func(table map[string]*Language, key, what string) error {
		if other, ok := table[key]; ok && other != l {
			return fmt.Errorf("languages/%s: %s: %q is already claimed by languages/%s.toml", file, what, key, other.Name)
		}
		table[key] = l
		return nil
	}
	var errs []error
	for _, n := range append([]string{l.Name}, l.Aliases...) {
		errs = append(errs, claim(r.byName, strings.ToLower(n), "aliases"))
	}
	for _, e := range l.Extensions {
		errs = append(errs, claim(r.byExt, e, "extensions"))
	}
	for _, f := range l.Filenames {
		errs = append(errs, claim(r.byFilename, f, "filenames"))
	}
	for _, i := range l.Interpreters {
		errs = append(errs, claim(r.byInterp, i, "interpreters"))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	r.langs = append(r.langs, l)
	return nil
}

// All returns every language, sorted by name.
func (r *Registry) All() []*Language { return slices.Clone(r.langs) }

// Fingerprint identifies the configuration of every language: it changes when a language
// is added or removed, or a file's settings change (what an index built with them holds).
func (r *Registry) Fingerprint() string {
	h := fnv.New64a()
	for _, l := range r.langs {
		fmt.Fprintf(h, "%+v\n", *l)
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// Names returns the canonical language names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, len(r.langs))
	for i, l := range r.langs {
		names[i] = l.Name
	}
	return names
}

// Lookup finds a language by its name or an alias, ignoring case.
func (r *Registry) Lookup(name string) (*Language, bool) {
	l, ok := r.byName[strings.ToLower(strings.TrimSpace(name))]
	return l, ok
}

// Resolve is Lookup with an error that lists the known languages.
func (r *Registry) Resolve(name string) (*Language, error) {
	if l, ok := r.Lookup(name); ok {
		return l, nil
	}
	return nil, fmt.Errorf("%w %q; known languages: %s", ErrUnknownLanguage, name, strings.Join(r.Names(), ", "))
}

// ForPath finds the language of a file from its name alone: a well-known file name first,
// then the extension (ignoring case). It returns nil when neither is known.
func (r *Registry) ForPath(p string) *Language {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := r.byFilename[base]; ok {
		return l
	}
	if ext := path.Ext(base); ext != "" && ext != base {
		if l := r.byExt[strings.ToLower(ext)]; l != nil {
			return l
		}
		// Dockerfile.dev, Containerfile.prod: a file name with a suffix no language claims.
		if name, _, _ := strings.Cut(base, "."); name != "" {
			return r.byFilename[name+".*"]
		}
	}
	return nil
}

// Detect finds the language of a file from its name and, when the name says nothing, from a
// "#!" line at the start of head (the first bytes of the file). It returns nil when unknown.
func (r *Registry) Detect(p string, head []byte) *Language {
	if l := r.ForPath(p); l != nil {
		return l
	}
	if interp := Interpreter(head); interp != "" {
		return r.byInterp[interp]
	}
	return nil
}

// Interpreter returns the interpreter named by a "#!" line at the start of head, without
// directory and version ("#!/usr/bin/env -S python3.12 -u" gives "python"), or "".
func Interpreter(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				prog = path.Base(f)
				break
			}
		}
	}
	// python3.12 -> python, lua5.4 -> lua, but keep names such as ts-node.
	return strings.TrimRight(prog, "0123456789.")
}
