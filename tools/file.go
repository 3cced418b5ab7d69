package tools

import (
	"context"
	"errors"
	"os"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// IndexedFile is a file as the index holds it (the web page's file view).
type IndexedFile struct {
	Workspace string
	Path      string
	Content   []byte
}

// File returns the indexed content of the file at path (workspace-relative, POSIX) in the
// workspace ws (default: the primary). Only what the index holds is served: a path that
// leaves the workspace is PATH_OUTSIDE_WORKSPACE, one the index lacks NOT_FOUND; nothing is
// read from the disk, so no link leads out of the workspace.
func (s *Service) File(ctx context.Context, ws, p string) (*IndexedFile, error) {
	if p == "" {
		return nil, Errorf(CodeBadValue, "path", "no path: give a workspace-relative path, like src/main.go")
	}
	if strings.ContainsRune(p, 0) || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return nil, Errorf(CodePathOutsideWorkspace, "path", "%q is not a clean workspace-relative path: give one like src/main.go, without .., a leading / or \\", p)
	}
	xs, err := s.OpenIndexes(ctx, ws)
	if err != nil {
		return nil, AsError(err)
	}
	defer s.Release(xs)
	if len(xs) != 1 {
		return nil, Errorf(CodeBadValue, "workspace", "a file is in one workspace: give its id")
	}
	content, err := xs[0].Content(ctx, p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, Errorf(CodeNotFound, "path", "%s is not an indexed file of workspace %s", p, xs[0].Entry.ID)
	}
	if err != nil {
		return nil, AsError(err)
	}
	return &IndexedFile{Workspace: xs[0].Entry.ID, Path: p, Content: content}, nil
}

// SyntaxSpan is a classified stretch of a file for the file view's colours.
type SyntaxSpan = extract.SyntaxSpan

// maxHighlightBytes: a larger file is shown without syntax colours (lines and marks only).
const maxHighlightBytes = 2 << 20

// Highlight classifies the text of content, the file at p, for the file view's colours
// (extract.Extractor.Highlight: the syntax tree the index parses): its language's name
// ("" when none is known) and the classified spans, none for a file too large, in a
// language without a grammar, or one its grammar cannot parse in time.
func (s *Service) Highlight(ctx context.Context, p string, content []byte) (string, []SyntaxSpan) {
	lang := s.langs.Detect(p, content)
	if lang == nil {
		return "", nil
	}
	if len(content) > maxHighlightBytes || extract.IsBinary(content) {
		return lang.Name, nil
	}
	spans, err := extract.New(s.langs, extract.Options{}).Highlight(ctx, p, content, lang)
	if err != nil {
		return lang.Name, nil
	}
	return lang.Name, spans
}
