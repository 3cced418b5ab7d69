package clusterops

// A compound shard's one index (issue 44). A node serving a compound of hundreds of small
// repositories searched each member's index in turn: 0.4 ms of CPU and 1.1 MB of memory a
// member (pprof of 300 open members: bleve's per-search allocations and SQLite calls), so
// 10,000 repositories cost seconds a query. A node therefore builds, from the members'
// indexes it downloaded, one index of them all, each member's files in a directory named
// after it, and answers a compound's searches from it: one search per compound. The
// members' own indexes stay on disk, opened only when an operation needs them: the
// navigation operations (refs, callers, explain, goto), whose resolution rules read one
// repository's tree as its root, and a search scoped to one member or to paths.
//
// The one index is built incrementally: the members' files are written out once per
// version (src/NAME/...), and the index is built by workspace.Index in two directories in
// turn (a/, b/), the one the version being replaced does not answer from, so a changed
// member costs the extraction of its files only. Its hits are mapped back: the member is
// the path's first element, and symbol ids are those of the member's own index.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// mergedDir is the directory, in a compound shard's, of its one index: never a repository's
// name (CheckName: those start with a letter or digit).
const mergedDir = "_merged"

// badMember is a member whose downloaded index could not be read: the shard fails to load
// (and the member is downloaded again), as one whose index does not open.
type badMember struct {
	repo, dir string
	err       error
}

func (e *badMember) Error() string { return e.repo + ": " + e.err.Error() }
func (e *badMember) Unwrap() error { return e.err }

// buildMerged builds l's one index of its members and opens it; old is the version it
// replaces (answering from one of the two build directories meanwhile), or nil.
func (n *node) buildMerged(ctx context.Context, l *loadedShard, old *loadedShard) error {
	base := filepath.Join(n.o.Data, "shards", l.name, mergedDir)
	src := filepath.Join(base, "src")
	if err := os.MkdirAll(src, 0o700); err != nil {
		return err
	}
	// The members' files, written out once per version; the record is kept after each
	// member, so a stop mid-way writes out only what it had not.
	record := filepath.Join(base, "members.json")
	have := map[string]string{}
	if b, err := os.ReadFile(record); err == nil {
		_ = json.Unmarshal(b, &have)
	}
	want := map[string]string{}
	for _, m := range l.members {
		want[m.repo] = m.version
	}
	save := func() error {
		b, _ := json.Marshal(have)
		return os.WriteFile(record, b, 0o600)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if v, ok := have[e.Name()]; !ok || want[e.Name()] != v {
			delete(have, e.Name())
			if err := save(); err != nil {
				return err
			}
			if err := os.RemoveAll(filepath.Join(src, e.Name())); err != nil {
				return err
			}
		}
	}
	for _, m := range l.members {
		if have[m.repo] == m.version {
			continue
		}
		dest := filepath.Join(src, m.repo)
		if err := os.RemoveAll(dest); err != nil {
			return err
		}
		if err := workspace.ExportFiles(ctx, m.dir, dest); err != nil {
			if ctx.Err() != nil {
				return err
			}
			return &badMember{m.repo, m.dir, err}
		}
		have[m.repo] = m.version
		if err := save(); err != nil {
			return err
		}
	}
	build := filepath.Join(base, "a")
	if old != nil && old.mergedDir == build {
		build = filepath.Join(base, "b")
	}
	if err := os.MkdirAll(build, 0o700); err != nil {
		return err
	}
	if _, err := workspace.Index(ctx, src, build, n.s.Languages(), workspace.IndexOptions{}); err != nil {
		if ctx.Err() == nil {
			_ = os.RemoveAll(build) // built again from scratch next time
		}
		return err
	}
	x, err := workspace.OpenShard(workspace.Entry{ID: l.name, Root: build}, build)
	if err != nil {
		_ = os.RemoveAll(build)
		return err
	}
	l.merged, l.mergedDir, l.mergedSvc = x, build, n.s.ShardService([]*workspace.SearchIndex{x})
	return nil
}

// mergedLine returns the search line call asks when a compound's one index answers it as
// its members' indexes would: a search of every member (no workspace named), not scoped to
// paths (no file pattern, no path:, file:, workspace: or repo: in its text: paths there are
// a member's, not the one index's).
func mergedLine(call ShardCall) (lineCall, bool) {
	var c lineCall
	if call.Op != opSearchLine || json.Unmarshal(call.Args, &c) != nil {
		return c, false
	}
	r := c.Request
	if r.Workspace != "" && r.Workspace != "all" || r.FilePattern != "" || len(r.Searches) > 0 || r.Cursor != "" {
		return c, false
	}
	q := strings.ToLower(r.Query)
	for _, f := range []string{"path:", "file:", "workspace:", "repo:"} {
		if strings.Contains(q, f) {
			return c, false
		}
	}
	c.Request.Workspace = ""
	return c, true
}

// searchMerged runs c on l's one index and names each hit by its member, with the path and
// symbol id the member's own index gives it.
func (l *loadedShard) searchMerged(ctx context.Context, c lineCall) (*lineResult, error) {
	res, err := searchLine(ctx, l.mergedSvc, c)
	if err != nil {
		return nil, err
	}
	hits := res.Hits[:0]
	for _, h := range res.Hits {
		repo, rest, ok := strings.Cut(h.Path, "/")
		if !ok {
			continue // not a member's file: none is written there
		}
		if h.SymbolID != "" {
			id, err := l.merged.MovedSymbolID(ctx, h.SymbolID, h.Path, rest)
			if err != nil {
				return nil, tools.AsError(err)
			}
			if id == "" {
				return nil, tools.AsError(errors.New("compound " + l.name + ": no symbol " + h.SymbolID + " in " + h.Path))
			}
			h.SymbolID = id
		}
		h.Workspace, h.Path = repo, rest
		hits = append(hits, h)
	}
	res.Hits = hits
	return res, nil
}
