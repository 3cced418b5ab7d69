package workspace

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/index/store"
)

// Freshness is how an open index stands against the files on disk and against itself: what
// a search checks before it answers when no watcher keeps the index up to date.
type Freshness struct {
	Changes
	// Dirs are the directories of the changed files (workspace-relative, POSIX, "" the
	// root): the scope of an index run that applies them.
	Dirs []string
	// Pending counts the full-text changes an index run logged and did not apply (it was
	// killed or crashed): until a writer replays them, the full-text index is behind the
	// store.
	Pending int
	// PartialLoad: the first index run did not finish, so the full-text index may lack
	// files the store holds.
	PartialLoad bool
	// NoContent: the index has no content index (an index written by a Quarry from before
	// it): an index run builds it from the store.
	NoContent bool
}

// Total returns how many files changed: modified, added and deleted.
func (c Changes) Total() int { return c.Modified + c.Added + c.Deleted }

// Consistent reports whether the full-text index holds what the store does.
func (f *Freshness) Consistent() bool { return f.Pending == 0 && !f.PartialLoad && !f.NoContent }

// Freshness compares the index with the files on disk (by size and modification time, as
// health does) and checks that its full-text index is not behind its store: a stat walk of
// the workspace, one read of the stored file states and two small queries; no file is read
// but a changed one, opened to tell an unreadable one apart.
func (x *SearchIndex) Freshness(ctx context.Context) (*Freshness, error) {
	f := &Freshness{}
	var err error
	if f.Pending, err = x.store.PendingCount(ctx); err != nil {
		return nil, err
	}
	if f.PartialLoad, err = x.store.FirstLoadUnfinished(); err != nil {
		return nil, err
	}
	manifest, err := x.store.Meta(store.MetaGrams)
	if err != nil {
		return nil, err
	}
	f.NoContent = manifest == ""
	// a changed file that cannot be read is not a change an index run can apply: counted
	// apart (Unreadable), never as modified or added (issue 41 a)
	if f.Changes, f.Dirs, err = compareDisk(ctx, x.Entry.Root, x.store, true); err != nil {
		return nil, err
	}
	return f, nil
}

// compareDisk compares the files under root with the store's states by size and
// modification time: the changes, with samples, and the directories that hold them. The
// walk and the read of the stored states run at once, both through fresh.cache beside the
// store (freshcache.go): directories whose time has not moved are not listed again, and the
// states are read from the store only after it changed. With splitUnreadable (health), a
// changed file that cannot be opened counts as unreadable instead of modified or added.
func compareDisk(ctx context.Context, root string, st *store.Store, splitUnreadable bool) (Changes, []string, error) {
	cache := loadFreshCache(filepath.Dir(st.Path()))
	var (
		stored    map[string]storedState
		storedErr error
		read      = make(chan struct{})
	)
	go func() {
		defer close(read)
		stored, storedErr = cache.storedStates(ctx, st)
	}()
	walk, err := Walk(ctx, root, WalkOptions{Parallel: true, cache: cache})
	<-read
	if err != nil {
		return Changes{}, nil, err
	}
	if storedErr != nil {
		return Changes{}, nil, storedErr
	}
	cache.save()
	var c Changes
	var dirs []string
	note := func(p string) {
		if len(c.Samples) < maxChangedSamples {
			c.Samples = append(c.Samples, p)
		}
		d := path.Dir(p)
		if d == "." {
			d = ""
		}
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	seen := make(map[string]bool, len(walk.Files))
	for _, f := range walk.Files {
		seen[f.Path] = true
		st, ok := stored[f.Path]
		modified := ok && (st.size != f.Size || st.mtime != f.ModTime.UnixNano())
		switch {
		case splitUnreadable && (!ok || modified) && !readable(f.AbsPath):
			c.Unreadable++
			if len(c.UnreadablePaths) < maxChangedSamples {
				c.UnreadablePaths = append(c.UnreadablePaths, f.Path)
			}
		case !ok:
			c.Added++
			note(f.Path)
		case modified:
			c.Modified++
			note(f.Path)
		}
	}
	for p := range stored {
		if !seen[p] {
			c.Deleted++
			note(p)
		}
	}
	sort.Strings(c.Samples)
	sort.Strings(c.UnreadablePaths)
	sort.Strings(dirs)
	return c, dirs, nil
}

// replay brings the full-text index in indexDir level with its store (IndexOptions.
// ReplayOnly): opening a writer replays the log of a run that did not finish, and Finish
// clears it (and refills the full-text index of an unfinished first load). No file is read.
func replay(ctx context.Context, root, indexDir string, start time.Time) (*Summary, error) {
	ix, err := index.OpenWriter(ctx, StorePath(indexDir), FulltextPath(indexDir))
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	sum := &Summary{Root: root, ID: ID(root), Fulltext: string(ix.Status()), Replayed: ix.Replayed()}
	if err := ix.Finish(ctx); err != nil {
		return nil, err
	}
	if sum.Counts, err = ix.Store().Counts(ctx); err != nil {
		return nil, err
	}
	sum.Elapsed = time.Since(start)
	sum.ElapsedMS = sum.Elapsed.Milliseconds()
	return sum, nil
}
