package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/workspace"
)

// FreshenLimit is the most changed files a search brings into the index before it answers,
// when no watcher does (quarry search, quarry mcp --no-watch, quarry serve --no-watch):
// a few files are indexed in a few milliseconds; more are left to quarry index, and the
// answer says how many it misses.
const FreshenLimit = 16

// freshness checks the primary workspace's index among xs before a search answers from it
// (workspace.SearchIndex.Freshness): nil when there is nothing to check, because a watcher
// of this process keeps the index up to date, or an index run of this process is writing
// it (and lends it), or xs does not hold the primary workspace.
func (s *Service) freshness(ctx context.Context, xs []*workspace.SearchIndex) *workspace.Freshness {
	if s.shard != nil {
		return nil // a shard is a snapshot: fresh as its version
	}
	s.mu.Lock()
	watching := s.watcher != nil
	s.mu.Unlock()
	if watching || !s.indexMu.TryLock() {
		return nil
	}
	s.indexMu.Unlock()
	reg, err := s.registry()
	if err != nil {
		return nil
	}
	for _, x := range xs {
		if x.Entry.ID != reg.Primary.ID || x.Borrowed() {
			continue
		}
		f, err := x.Freshness(ctx)
		if err != nil {
			return nil // the search answers; the stale marks of its hits still hold
		}
		return f
	}
	return nil
}

// checkFreshness runs freshness in the background, at once with a search of xs: the
// returned function waits for it (before xs is released).
func (s *Service) checkFreshness(ctx context.Context, xs []*workspace.SearchIndex) func() *workspace.Freshness {
	done := make(chan *workspace.Freshness, 1)
	go func() { done <- s.freshness(ctx, xs) }()
	return func() *workspace.Freshness { return <-done }
}

// freshenFirst checks the primary workspace's index before a search of several lines (a
// query document) and brings it up to date when it needs it (needsFreshening); it returns
// the state the answer is given from, for its notice.
func (s *Service) FreshenFirst(ctx context.Context, id string) *workspace.Freshness {
	xs, err := s.OpenIndexes(ctx, id)
	if err != nil {
		return nil // the search reports it
	}
	f := s.freshness(ctx, xs)
	s.Release(xs)
	if !needsFreshening(f) {
		return f
	}
	s.freshen(ctx, f, nil)
	if xs, err = s.OpenIndexes(ctx, id); err != nil {
		return nil
	}
	defer s.Release(xs)
	return s.freshness(ctx, xs)
}

// needsFreshening reports whether a search should bring the index up to date before it
// answers: a few files changed, or a run that did not finish left changes in the full-text
// log. Not after an unfinished first load: refilling the whole full-text index is quarry
// index's work, which a search's budget would cut short again and again (the notice says
// so instead).
func needsFreshening(f *workspace.Freshness) bool {
	if f == nil || f.PartialLoad {
		return false
	}
	return f.Pending > 0 || f.NoContent || f.Total() > 0 && f.Total() <= FreshenLimit
}

// freshen brings the primary workspace's index up to date within StaleRefreshBudget: the
// changed files' directories when they are few, else those of the stale hits an answer
// came from (staleDirs), in an incremental run, which also replays what a run that did not
// finish left in the full-text log; with neither, only the log. It fails quietly (another
// process writing the index, a read-only index): the answer's notice then says what is
// missing. The caller holds no index open (a reader keeps a writer out).
func (s *Service) freshen(ctx context.Context, f *workspace.Freshness, staleDirs []string) {
	reg, err := s.registry()
	if err != nil {
		return
	}
	rctx, cancel := context.WithTimeout(index.WithLockWait(ctx, staleLockWait), StaleRefreshBudget)
	defer cancel()
	opts := workspace.IndexOptions{ReplayOnly: true}
	switch {
	case f.Total() > 0 && f.Total() <= FreshenLimit:
		opts = workspace.IndexOptions{Scope: f.Dirs}
	case len(staleDirs) > 0:
		opts = workspace.IndexOptions{Scope: staleDirs}
	}
	_, _ = s.update(rctx, reg, reg.Primary, opts, true)
}

// freshNotice says what an answer misses because the index is not up to date (f after any
// freshening): "" when nothing.
func freshNotice(f *workspace.Freshness) string {
	if f == nil {
		return ""
	}
	var notes []string
	switch {
	case f.PartialLoad:
		notes = append(notes, "the first index run did not finish: the full-text index lacks files the store holds, so results may be missing; run quarry index")
	case f.Pending > 0:
		notes = append(notes, fmt.Sprintf("an index run did not finish: %d full-text changes are not applied, so results may be missing or old; run quarry index", f.Pending))
	case f.NoContent:
		notes = append(notes, "the index was built by an older Quarry and has no content index yet, so content is not searched; run quarry index")
	}
	if n := f.Total(); n > 0 {
		what := fmt.Sprintf("%d files changed since the last index (%d modified, %d added, %d deleted)", n, f.Modified, f.Added, f.Deleted)
		if n == 1 && len(f.Samples) == 1 {
			what = f.Samples[0] + " changed since the last index"
		} else if n <= 3 && len(f.Samples) == n {
			what += ": " + strings.Join(f.Samples, ", ")
		}
		missing := ": results do not include these changes"
		if n == 1 {
			missing = ": results do not include that change"
		}
		notes = append(notes, what+missing+"; run quarry index (or keep quarry watch running)")
	}
	if n := f.Unreadable; n > 0 { // said as what it is: an index run cannot read them either
		what := fmt.Sprintf("%d changed files cannot be read (permission denied)", n)
		if n == 1 && len(f.UnreadablePaths) == 1 {
			what = f.UnreadablePaths[0] + " changed and cannot be read (permission denied)"
		}
		notes = append(notes, what+": results hold what the index last read of them; quarry health lists them")
	}
	return strings.Join(notes, "; ")
}

// joinNotices joins the notices of an answer that are not empty.
func JoinNotices(notices ...string) string {
	var out []string
	for _, n := range notices {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}
