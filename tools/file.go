package tools

import (
	"context"
	"errors"
	"os"
	"path"
	"strings"
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
	xs, err := s.openIndexes(ctx, ws)
	if err != nil {
		return nil, AsError(err)
	}
	defer s.release(xs)
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
