package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/workspace"
)

// Size limits when a request sets none: DefaultMaxFileSize is the largest file indexed
// (1 MiB), DefaultMaxSourceSize the largest source file indexed or outlined (16 MiB).
const (
	DefaultMaxFileSize   = extract.DefaultMaxFileSize
	DefaultMaxSourceSize = extract.DefaultMaxSourceSize
)

// OutlineSymbol is a symbol of an outline with all the fields extraction gives it.
type OutlineSymbol struct {
	extract.Symbol
	Depth int `json:"depth" jsonschema:"1 for top level"`
}

// OutlineResult is the outline of any file (quarry outline FILE --json): every symbol, each
// parent before its children in source order, with all its fields. Unlike get_symbols it
// works on files outside the workspace and reads every field; it is never paged.
type OutlineResult struct {
	File               string          `json:"file" jsonschema:"the file as given, with / separators"`
	Language           string          `json:"language"`
	Results            []OutlineSymbol `json:"results"`
	ParseErrors        int             `json:"parse_errors,omitempty" jsonschema:"regions the parser could not read; symbols outside them are listed"`
	Truncated          bool            `json:"truncated" jsonschema:"always false: an outline lists every symbol"`
	TotalFilesSearched int             `json:"total_files_searched" jsonschema:"always 1: the file outlined"`
	ElapsedMS          float64         `json:"elapsed_ms"`
	Errors             []ErrorInfo     `json:"errors"`
}

// Outline extracts the symbols of any file, indexed or not, and orders them as a tree
// within req.Depth and of req.Kind.
func (s *Service) Outline(ctx context.Context, req OutlineRequest) (*OutlineResult, error) {
	start := time.Now()
	if req.Depth < 0 {
		return nil, Errorf(CodeBadValue, "depth", "depth %d: want 0 (all) or a positive depth", req.Depth)
	}
	kinds, err := parseKinds(req.Kind)
	if err != nil {
		return nil, err
	}
	src, lang, maxSize, err := s.readSource(req)
	if err != nil {
		return nil, err
	}
	path := filepath.ToSlash(req.File)
	f, err := extract.New(s.langs, extract.Options{MaxFileSize: maxSize, MaxSourceSize: maxSize}).Extract(ctx, path, src, lang)
	if err != nil {
		return nil, AsError(err)
	}
	if f.Skipped != "" {
		return nil, Errorf(CodeUnreadable, "file", "%s: not extracted: %s", req.File, skipReason(f.Skipped, len(src), maxSize))
	}
	out := &OutlineResult{File: path, Language: f.Language, Results: []OutlineSymbol{}, ParseErrors: f.ParseErrors,
		TotalFilesSearched: 1, Errors: []ErrorInfo{}}
	for _, e := range outline(f.Symbols, req.Depth, "") {
		if kinds == nil || kinds[e.sym.Kind] {
			out.Results = append(out.Results, OutlineSymbol{Symbol: e.sym, Depth: e.depth})
		}
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// SyntaxTree returns the tree-sitter syntax tree of the file of req, for debugging an
// extractor (quarry outline --tree); it is no operation of the contract.
func (s *Service) SyntaxTree(ctx context.Context, req OutlineRequest) (string, error) {
	src, lang, maxSize, err := s.readSource(req)
	if err != nil {
		return "", err
	}
	tree, err := extract.New(s.langs, extract.Options{MaxFileSize: maxSize, MaxSourceSize: maxSize}).SyntaxTree(ctx, req.File, src, lang)
	if err != nil {
		return "", AsError(fmt.Errorf("%s: %w", req.File, err))
	}
	return tree, nil
}

// readSource reads the file of req and finds its language, with errors that say what was
// wrong; it returns the size limit that applies too.
func (s *Service) readSource(req OutlineRequest) ([]byte, *languages.Language, int, error) {
	maxSize := req.MaxSize
	switch {
	case req.MaxSize < 0:
		return nil, nil, 0, Errorf(CodeBadValue, "max_size", "max_size %d: want a positive number of bytes", req.MaxSize)
	case req.MaxSize == 0:
		maxSize = DefaultMaxSourceSize
	}
	var lang *languages.Language
	if req.Language != "" {
		l, err := s.langs.Resolve(req.Language)
		if err != nil {
			return nil, nil, 0, &Error{Code: CodeBadValue, Path: "language", Message: "language: " + err.Error(), err: err}
		}
		lang = l
	}
	src, err := readFile(req.File, maxSize)
	if err != nil {
		return nil, nil, 0, err
	}
	if extract.IsBinary(src) { // said before its language, which a binary file has none of
		return nil, nil, 0, Errorf(CodeUnreadable, "file", "%s: not extracted: %s", req.File, skipReason(extract.SkipBinary, len(src), maxSize))
	}
	if lang == nil {
		lang = s.langs.Detect(req.File, src)
	}
	if lang == nil {
		return nil, nil, 0, Errorf(CodeBadValue, "language", "%s: unknown language (not from its name, nor from a #! line); give a language (--lang), one of: %s",
			req.File, strings.Join(s.langs.Names(), ", "))
	}
	return src, lang, maxSize, nil
}

// readFile reads a file for extraction.
func readFile(path string, maxSize int) ([]byte, error) {
	if strings.TrimSpace(path) == "" {
		return nil, Errorf(CodeBadValue, "file", "file is required: the file to outline")
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &Error{Code: CodeNotFound, Path: "file", Message: path + ": no such file", err: err}
	case err != nil:
		return nil, &Error{Code: CodeUnreadable, Path: "file", Message: err.Error(), err: err}
	case st.IsDir():
		return nil, Errorf(CodeBadValue, "file", "%s is a directory; give a source file (quarry index covers a whole directory)", path)
	case !st.Mode().IsRegular():
		return nil, Errorf(CodeBadValue, "file", "%s is not a regular file", path)
	case st.Size() > int64(maxSize):
		return nil, Errorf(CodeUnreadable, "file", "%s: not extracted: %s", path, skipReason(extract.SkipTooLarge, int(st.Size()), maxSize))
	}
	src, err := workspace.ReadRegularFile(path)
	if err != nil {
		return nil, &Error{Code: CodeUnreadable, Path: "file", Message: fmt.Sprintf("%s: cannot read: %v", path, err), err: err}
	}
	return src, nil
}

func skipReason(reason extract.SkipReason, size, maxSize int) string {
	switch reason {
	case extract.SkipTooLarge:
		return fmt.Sprintf("the file is %d bytes, over the %d-byte limit (raise max_size, --max-size)", size, maxSize)
	case extract.SkipBinary:
		return "it is a binary file (it has NUL bytes)"
	case extract.SkipUnknownLanguage:
		return "unknown language"
	case extract.SkipNoExtractor:
		return "no extractor for its language"
	}
	return string(reason)
}

// parseKinds reads symbol kinds (nil for none: every kind), with a did-you-mean for a
// mistyped one.
func parseKinds(names []string) (map[extract.Kind]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	kinds := map[extract.Kind]bool{}
	for _, n := range names {
		k, err := parseKind(n)
		if err != nil {
			return nil, err
		}
		kinds[k] = true
	}
	return kinds, nil
}

// parseKind reads one symbol kind name, with a did-you-mean for a mistyped one.
func parseKind(name string) (extract.Kind, error) {
	k, err := extract.ParseKind(strings.TrimSpace(name))
	if err != nil {
		return k, Errorf(CodeBadValue, "kind", "%v%s; valid kinds: %s", err, DidYouMean(name, extract.Kinds()), strings.Join(extract.Kinds(), ", "))
	}
	return k, nil
}
