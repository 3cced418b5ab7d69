package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/workspace"
)

// Workspace operations of manage_workspace.
var workspaceOps = []string{"index", "add", "remove", "list", "refresh", "stats", "clean", "health"}

// WorkspaceRequest is one workspace operation.
type WorkspaceRequest struct {
	Operation string `json:"operation" jsonschema:"index (the primary workspace), add (path), remove (id; deletes its index), list, refresh (id, or all), stats (id), clean (unused indexes), health (id)"`
	Path      string `json:"path,omitempty" jsonschema:"add: the directory of the reference workspace"`
	Name      string `json:"name,omitempty" jsonschema:"add: a name for it (default: its directory name)"`
	ID        string `json:"id,omitempty" jsonschema:"remove, refresh, stats, health: the workspace id (from list); refresh without one refreshes all"`
	Force     bool   `json:"force,omitempty" jsonschema:"index, refresh: drop the index and build it anew"`
	KeepIndex bool   `json:"keep_index,omitempty" jsonschema:"remove: unregister the workspace but keep its index (clean deletes it later)"`
}

// WorkspaceInfo describes one workspace.
type WorkspaceInfo struct {
	ID          string `json:"id"`
	Root        string `json:"root"`
	Name        string `json:"name"`
	Primary     bool   `json:"primary"`
	Indexed     bool   `json:"indexed"`
	LastIndexed string `json:"last_indexed,omitempty" jsonschema:"UTC, RFC 3339 with Z"`
	Files       int    `json:"files"`
	Symbols     int    `json:"symbols"`
}

// WorkspaceResult is the outcome of a workspace operation.
type WorkspaceResult struct {
	Operation  string          `json:"operation"`
	Workspaces []WorkspaceInfo `json:"workspaces" jsonschema:"list, add, remove, stats: the workspaces concerned"`
	Indexed    []IndexReport   `json:"indexed,omitempty" jsonschema:"index, add, refresh: what each index run did"`
	Removed    []string        `json:"removed,omitempty" jsonschema:"clean, remove: the index directories deleted"`
	Health     *HealthReport   `json:"health,omitempty" jsonschema:"health, stats: the health of the workspace's index"`
	ElapsedMS  float64         `json:"elapsed_ms"`
	Errors     []ErrorInfo     `json:"errors"`
}

// Workspace runs a workspace operation.
func (s *Service) Workspace(ctx context.Context, req WorkspaceRequest) (*WorkspaceResult, error) {
	if s.forward.Load() && req.Path != "" && !filepath.IsAbs(req.Path) {
		if abs, err := filepath.Abs(req.Path); err == nil {
			req.Path = abs // relative to this process's directory, not the server's
		}
	}
	if res, ok, err := forward[WorkspaceResult](ctx, s, "workspace", req); ok {
		return res, err
	}
	start := time.Now()
	if req.Operation != "list" && req.Operation != "stats" && req.Operation != "health" {
		s.dropCache() // an index run or a removal needs the indexes closed
	}
	reg, err := s.registry()
	if err != nil {
		return nil, AsError(err)
	}
	out := newWorkspaceResult(req.Operation)
	need := func(field, value string) error {
		if strings.TrimSpace(value) == "" {
			return Errorf(CodeBadValue, field, "operation %s needs %s", req.Operation, field)
		}
		return nil
	}
	switch req.Operation {
	case "list":
		for _, e := range reg.All() {
			out.Workspaces = append(out.Workspaces, s.info(ctx, reg, e))
		}
	case "index":
		if err := s.runIndex(ctx, reg, reg.Primary, req.Force, out); err != nil {
			return nil, err
		}
	case "add":
		if err := need("path", req.Path); err != nil {
			return nil, err
		}
		e, err := reg.Add(req.Path, req.Name)
		if err != nil {
			ae := AsError(err)
			if ae.Path == "" {
				ae.Path = "path"
			}
			return nil, ae
		}
		if err := reg.Save(); err != nil {
			return nil, AsError(err)
		}
		if err := s.runIndex(ctx, reg, e, false, out); err != nil {
			return nil, err
		}
		out.Workspaces = append(out.Workspaces, s.info(ctx, reg, e))
	case "remove":
		if err := need("id", req.ID); err != nil {
			return nil, err
		}
		e, err := reg.Remove(req.ID)
		if err != nil {
			return nil, AsError(err)
		}
		if err := reg.Save(); err != nil {
			return nil, AsError(err)
		}
		out.Workspaces = append(out.Workspaces, WorkspaceInfo{ID: e.ID, Root: e.Root, Name: e.Name})
		if !req.KeepIndex {
			if err := os.RemoveAll(workspace.IndexDir(s.root, e.ID)); err != nil {
				return nil, AsError(err)
			}
			out.Removed = append(out.Removed, e.ID)
		}
	case "refresh":
		entries := reg.All()
		if req.ID != "" && req.ID != "all" {
			e, err := reg.Lookup(req.ID)
			if err != nil {
				return nil, AsError(err)
			}
			entries = []workspace.Entry{e}
		}
		for _, e := range entries {
			if err := s.runIndex(ctx, reg, e, req.Force, out); err != nil {
				return nil, err
			}
		}
	case "stats", "health":
		e := reg.Primary
		if req.ID != "" {
			if e, err = reg.Lookup(req.ID); err != nil {
				return nil, AsError(err)
			}
		}
		if req.Operation == "stats" {
			out.Workspaces = append(out.Workspaces, s.info(ctx, reg, e))
		}
		if out.Health, err = s.health(ctx, reg, e); err != nil {
			return nil, err
		}
	case "clean":
		removed, err := workspace.Clean(s.root, reg)
		if err != nil {
			return nil, AsError(err)
		}
		out.Removed = removed
	default:
		return nil, Errorf(CodeBadValue, "operation", "operation %q: want one of %s%s", req.Operation, strings.Join(workspaceOps, ", "), DidYouMean(req.Operation, workspaceOps))
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// newWorkspaceResult is the answer of the workspace operation op before it runs, its lists
// empty rather than null.
func newWorkspaceResult(op string) *WorkspaceResult {
	return &WorkspaceResult{Operation: op, Workspaces: []WorkspaceInfo{}, Errors: []ErrorInfo{}}
}

func (s *Service) runIndex(ctx context.Context, reg *workspace.Registry, e workspace.Entry, force bool, out *WorkspaceResult) error {
	sum, err := s.index(ctx, reg, e, workspace.IndexOptions{Force: force}, true)
	if err != nil {
		return AsError(err)
	}
	out.Indexed = append(out.Indexed, *newIndexReport(sum))
	return nil
}

// info describes e, with its counts when it is indexed.
func (s *Service) info(ctx context.Context, reg *workspace.Registry, e workspace.Entry) WorkspaceInfo {
	w := WorkspaceInfo{ID: e.ID, Root: e.Root, Name: e.Name, Primary: e.ID == reg.Primary.ID}
	if !e.LastIndexed.IsZero() {
		w.LastIndexed = e.LastIndexed.UTC().Format(time.RFC3339)
	}
	if c, err := workspace.StoreCounts(ctx, workspace.IndexDir(s.root, e.ID)); err == nil {
		w.Indexed, w.Files, w.Symbols = true, c.Files, c.Symbols
	}
	return w
}
