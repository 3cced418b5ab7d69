// Package extract turns a source file into the facts Quarry's searches stand on: symbols
// (definitions with their signature, doc comment, visibility and parent), identifiers (calls,
// variable and type references, member accesses, imports, each with its containing symbol),
// relationships (extends, implements, calls, imports, ...) and the types the source states.
//
// Parsing is tree-sitter's (github.com/smacker/go-tree-sitter); no other package imports it.
// Each language has one extractor, a function over the syntax tree in lang_<name>.go, built
// on the shared toolkit in walker.go. Extraction is best effort: a file with syntax errors
// gives the symbols tree-sitter could recover, and it never panics.
package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/quarrysearch/quarry/languages"
)

// Limits of one extraction.
const (
	// DefaultMaxFileSize is the largest file extracted unless Options say otherwise.
	DefaultMaxFileSize = 1 << 20
	// DefaultTimeout bounds the parse of one file.
	DefaultTimeout = 5 * time.Second
	// binarySniffLen is how much of a file is checked for NUL bytes.
	binarySniffLen = 8000
)

// ErrNotAFile is returned by ExtractPath for a directory or another non-regular file.
var ErrNotAFile = errors.New("not a regular file")

// Options tune an Extractor. The zero value uses the defaults.
type Options struct {
	MaxFileSize int           // bytes; 0 means DefaultMaxFileSize
	Timeout     time.Duration // per file parse; 0 means DefaultTimeout
}

// Extractor extracts files of every known language. It is safe for concurrent use: each
// goroutine gets its own tree-sitter parser from a pool.
type Extractor struct {
	reg     *languages.Registry
	opts    Options
	parsers sync.Map // grammar name -> *sync.Pool of *sitter.Parser
}

// New returns an Extractor over the languages of reg.
func New(reg *languages.Registry, opts Options) *Extractor {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Extractor{reg: reg, opts: opts}
}

// Supported reports whether lang has an extractor.
func Supported(lang string) bool { return extractors[lang] != nil }

// ExtractPath reads the file at path and extracts it, detecting its language from the name and
// the first line. rel is the path recorded in the result (workspace-relative, POSIX).
func (e *Extractor) ExtractPath(ctx context.Context, path, rel string) (*File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotAFile)
	}
	if st.Size() > int64(e.opts.MaxFileSize) {
		return &File{Path: rel, Skipped: SkipTooLarge}, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return e.Extract(ctx, rel, src, nil)
}

// Extract extracts src, the content of the file at path. lang may be nil, in which case the
// language is detected from path and src. A file that is not extracted has no symbols and
// says why in Skipped.
func (e *Extractor) Extract(ctx context.Context, path string, src []byte, lang *languages.Language) (f *File, err error) {
	if lang == nil {
		lang = e.reg.Detect(path, src)
	}
	f = &File{Path: path}
	switch {
	case len(src) > e.opts.MaxFileSize:
		f.Skipped = SkipTooLarge
	case IsBinary(src):
		f.Skipped = SkipBinary
	case lang == nil:
		f.Skipped = SkipUnknownLanguage
	case extractors[lang.Name] == nil:
		f.Language, f.Skipped = lang.Name, SkipNoExtractor
	}
	if f.Skipped != "" {
		return f, nil
	}
	f.Language = lang.Name
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tree, err := e.parse(lang, src)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", path, err)
	}
	defer tree.Close()
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("extract %s: %s extractor failed: %v\n%s", path, lang.Name, r, debug.Stack())
		}
	}()
	w := newWalker(f, src, lang)
	extractors[lang.Name](w, tree.RootNode())
	w.finish()
	if root := tree.RootNode(); root.HasError() {
		f.ParseErrors = countErrors(root)
	}
	return f, nil
}

// countErrors counts the ERROR and MISSING nodes under n, descending only where errors are.
func countErrors(n *sitter.Node) int {
	if n.IsError() || n.IsMissing() {
		return 1
	}
	count := 0
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.HasError() || c.IsMissing() {
			count += countErrors(c)
		}
	}
	return count
}

// IsBinary reports whether src looks like a binary file: a NUL byte near its start.
func IsBinary(src []byte) bool {
	return bytes.IndexByte(src[:min(len(src), binarySniffLen)], 0) >= 0
}

func (e *Extractor) parser(grammar string) *sitter.Parser {
	pool, _ := e.parsers.LoadOrStore(grammar, &sync.Pool{})
	if p, ok := pool.(*sync.Pool).Get().(*sitter.Parser); ok {
		return p
	}
	p := sitter.NewParser()
	p.SetLanguage(grammars[grammar]())
	p.SetOperationLimit(int(e.opts.Timeout.Microseconds()))
	return p
}

func (e *Extractor) putParser(grammar string, p *sitter.Parser) {
	pool, _ := e.parsers.Load(grammar)
	pool.(*sync.Pool).Put(p)
}

// extractors maps a language name to the function that walks its syntax tree.
var extractors = map[string]func(w *walker, root *sitter.Node){}

// register adds a language's extractor; it is called from the init of each lang_*.go file.
func register(lang string, fn func(w *walker, root *sitter.Node)) {
	if extractors[lang] != nil {
		panic("extract: two extractors for " + lang)
	}
	extractors[lang] = fn
}

// SyntaxTree returns the tree-sitter syntax tree of src in lang as an S-expression, for
// debugging an extractor (`quarry symbols --tree`).
func (e *Extractor) SyntaxTree(ctx context.Context, src []byte, lang *languages.Language) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	tree, err := e.parse(lang, src)
	if err != nil {
		return "", err
	}
	defer tree.Close()
	return tree.RootNode().String(), nil
}

// ErrTimeout is returned when parsing a file takes longer than Options.Timeout.
var ErrTimeout = errors.New("parse timed out")

// parse parses src with a pooled parser. The time limit is tree-sitter's own (a cancellable
// context would make go-tree-sitter set the cancellation flag from another goroutine, which
// can land after the parse and cancel the parser's next one).
func (e *Extractor) parse(lang *languages.Language, src []byte) (*sitter.Tree, error) {
	parser := e.parser(lang.Grammar)
	tree, err := parser.ParseCtx(context.Background(), nil, src)
	if err != nil {
		parser.Reset() // a halted parse would otherwise resume on the next document
		e.putParser(lang.Grammar, parser)
		if errors.Is(err, sitter.ErrOperationLimit) {
			return nil, fmt.Errorf("%w after %v", ErrTimeout, e.opts.Timeout)
		}
		return nil, fmt.Errorf("parse: %w", err)
	}
	e.putParser(lang.Grammar, parser)
	return tree, nil
}
