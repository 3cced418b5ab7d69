package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watching keeps an index as fresh as the files: a watch per directory (inotify and its
// kin, through fsnotify) reports changes; after a quiet spell (the debounce; but no more
// than maxDelay after the first change, or maxBurstDelay for a burst of thousands) one
// incremental index run applies everything that changed, so an editor's atomic save (write
// a temporary file, rename it over the old one), a new or removed directory, a
// .gitignore edit or a branch switch touching thousands of files is one batch, never one
// run per event. The run itself decides what changed (size and modification time, then
// content), so a missed or merged event costs nothing but a walk. Where watches run out
// (the inotify limit), the watcher falls back to a periodic scan: an index run every
// PollInterval.

// Watch defaults.
const (
	// DefaultDebounce is how long the watcher waits after the last event before it runs.
	DefaultDebounce = 150 * time.Millisecond
	// DefaultPollInterval is how often the fallback scan runs.
	DefaultPollInterval = 5 * time.Second
	// maxScope is the most directories a batch updates by themselves; a batch touching
	// more (a branch switch) walks the whole workspace.
	maxScope = 64
	// maxDelay is the longest a change waits for the file system to be quiet: a file
	// written more often than the debounce (a log, a build's output) must not hold back
	// the batch of an edit beside it. burstEvents pending events are a bulk change (a
	// branch switch, an archive unpacked), which waits up to maxBurstDelay to be one batch.
	maxDelay      = 500 * time.Millisecond
	burstEvents   = 500
	maxBurstDelay = 10 * time.Second
	// retryAfter is how long after a failed run (the index busy, a disk error) the watcher
	// runs again: the changes it was to apply must not wait for the next event.
	retryAfter = time.Second
)

// WatchOptions configure Watch.
type WatchOptions struct {
	// Run brings the index up to date (an incremental index run) in the directories of
	// scope and below (IndexOptions.Scope; nil: everywhere). Required.
	Run func(ctx context.Context, scope []string) (*Summary, error)
	// OnBatch, if set, is called after each run with what it did.
	OnBatch func(WatchBatch)
	// Debounce (default DefaultDebounce) and PollInterval (default DefaultPollInterval).
	Debounce, PollInterval time.Duration
	// MaxWatches caps the directories watched (0: no cap but the system's); beyond it the
	// watcher scans instead. Tests use it to force the fallback.
	MaxWatches int
}

// WatchBatch is one run of the watcher.
type WatchBatch struct {
	Events  int           // file system events the run answers (0: a scan)
	Summary *Summary      // what the run did (nil if it failed)
	Err     error         // why it failed
	Lag     time.Duration // from the first event of the batch to the end of the run
}

// WatchStatus is what a watcher reports (health).
type WatchStatus struct {
	Running     bool          `json:"running"`
	Directories int           `json:"directories" jsonschema:"directories watched"`
	Scanning    bool          `json:"scanning" jsonschema:"watches ran out (the system's limit): changes are found by a scan every poll interval"`
	Events      int           `json:"events" jsonschema:"file system events seen"`
	Batches     int           `json:"batches" jsonschema:"index runs applied"`
	LastLagMS   float64       `json:"last_lag_ms" jsonschema:"from the first event of the last batch to the end of its run"`
	LastError   string        `json:"last_error,omitempty"`
	Repair      string        `json:"repair,omitempty" jsonschema:"what the first run, when watching started, repaired: a run that did not finish replayed, a full-text index rebuilt"`
	Since       time.Time     `json:"since"`
	lastLag     time.Duration // LastLagMS is its JSON form
}

// Watcher watches a workspace; its Status is safe to read while it runs.
type Watcher struct {
	root string
	opts WatchOptions

	mu     sync.Mutex
	status WatchStatus
	// applied counts the changes other index runs of the workspace applied since the last
	// batch (Applied): the next batch's summary includes them.
	applied Summary
}

// NewWatcher returns a watcher of the workspace at root.
func NewWatcher(root string, opts WatchOptions) (*Watcher, error) {
	if opts.Run == nil {
		return nil, errors.New("workspace: watch: no run function")
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	return &Watcher{root: root, opts: opts}, nil
}

// Status returns what the watcher has done so far.
func (w *Watcher) Status() WatchStatus {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.status
	s.LastLagMS = float64(s.lastLag.Microseconds()) / 1000
	return s
}

func (w *Watcher) update(f func(s *WatchStatus)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(&w.status)
}

// Applied tells the watcher of an index run of its workspace that another caller made (a
// search bringing the files it answers from up to date): the changes it applied are the
// ones the watcher's pending events announce, which the watcher's own run then finds done.
// The next batch's summary counts them, so that the batch says what its events changed.
func (w *Watcher) Applied(sum *Summary) {
	if sum == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.applied.Added += sum.Added
	w.applied.Changed += sum.Changed
	w.applied.Renamed += sum.Renamed
	w.applied.Deleted += sum.Deleted
}

// withApplied returns sum (a copy) with the changes other runs applied since the last
// batch, which it takes; nil stays nil (a failed run: they count in the next batch).
func (w *Watcher) withApplied(sum *Summary) *Summary {
	if sum == nil {
		return nil
	}
	w.mu.Lock()
	a := w.applied
	w.applied = Summary{}
	w.mu.Unlock()
	out := *sum
	out.Added += a.Added
	out.Changed += a.Changed
	out.Renamed += a.Renamed
	out.Deleted += a.Deleted
	return &out
}

// Run watches until ctx is done. It returns nil then, or an error if the watch could not
// start at all.
func (w *Watcher) Run(ctx context.Context) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("workspace: watch %s: %w", w.root, err)
	}
	defer fw.Close()
	w.update(func(s *WatchStatus) { s.Running, s.Since = true, time.Now() })
	defer w.update(func(s *WatchStatus) { s.Running = false })
	scanning := w.addTree(fw, w.root) != nil
	w.update(func(s *WatchStatus) { s.Scanning = scanning })

	var (
		timer   *time.Timer
		fire    <-chan time.Time
		retry   <-chan time.Time // after a failed run (the index busy): run again
		pending int
		first   time.Time
		poll    = time.NewTicker(w.opts.PollInterval)
	)
	defer poll.Stop()
	scope := map[string]bool{} // the directories the pending events touched
	retryFull := false         // the failed run to retry covered everything
	// run applies a batch of events (0: a scan of everything).
	run := func(events int) {
		start := first
		if events == 0 {
			start = time.Now()
		}
		var dirs []string
		if events > 0 && len(scope) <= maxScope {
			for d := range scope {
				dirs = append(dirs, d)
			}
		}
		clear(scope)
		sum, err := w.opts.Run(ctx, dirs)
		sum = w.withApplied(sum)
		if err != nil && ctx.Err() == nil {
			// Retried in a second, over the same directories.
			for _, d := range dirs {
				scope[d] = true
			}
			retryFull = dirs == nil
			retry = time.After(retryAfter)
		}
		b := WatchBatch{Events: events, Summary: sum, Err: err, Lag: time.Since(start)}
		w.update(func(s *WatchStatus) {
			if s.Batches == 0 && sum != nil {
				s.Repair = repairOf(sum)
			}
			s.Batches++
			s.lastLag = b.Lag
			s.LastError = ""
			if err != nil {
				s.LastError = err.Error()
			}
		})
		if w.opts.OnBatch != nil && ctx.Err() == nil {
			w.opts.OnBatch(b)
		}
	}
	run(0) // what changed while nobody watched
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if w.ignored(ev.Name) {
				continue
			}
			// A new directory is watched, and so are the directories an ignore file's edit
			// re-included (watching one twice is harmless).
			newTree := ""
			if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() && ev.Has(fsnotify.Create) {
				newTree = ev.Name
			} else if base := filepath.Base(ev.Name); base == ".gitignore" || base == ".quarryignore" {
				newTree = filepath.Dir(ev.Name)
			}
			if newTree != "" {
				if err := w.addTree(fw, newTree); err != nil && !scanning {
					scanning = true
					w.update(func(s *WatchStatus) { s.Scanning = true })
				}
			}
			scope[w.scopeOf(ev)] = true
			w.update(func(s *WatchStatus) { s.Events++ })
			if pending == 0 {
				first = time.Now()
			}
			pending++
			// Quiet for Debounce, but no later than the batch's deadline.
			wait, limit := w.opts.Debounce, maxDelay
			if pending >= burstEvents {
				limit = maxBurstDelay
			}
			wait = max(min(wait, time.Until(first.Add(limit))), 0)
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			fire = timer.C
		case <-fire:
			fire = nil
			n := pending
			pending = 0
			run(n)
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
			}
			// An overflowed event queue lost events: a scan finds what they said.
			w.update(func(s *WatchStatus) { s.LastError = err.Error() })
			run(0)
		case <-retry:
			retry = nil
			if retryFull || len(scope) == 0 {
				run(0)
			} else {
				first = time.Now()
				run(len(scope))
			}
		case <-poll.C:
			if scanning {
				run(0)
			}
		}
	}
}

// ignored reports whether a changed path is one the index never holds: the index's own
// directory, VCS metadata, dependency and build directories.
func (w *Watcher) ignored(p string) bool {
	rel, err := filepath.Rel(w.root, p)
	if err != nil || rel == "." {
		return false
	}
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if neverIndexedDirs[c] || builtinSkipDirs[c] {
			return true
		}
	}
	return false
}

// scopeOf returns the directory (workspace-relative) an event asks to update: the one
// holding a changed file; for a directory, an ignore file or a removed or renamed path
// (which may have been a directory), the directory itself or the one holding it, walked
// with everything below.
func (w *Watcher) scopeOf(ev fsnotify.Event) string {
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == "." {
		return ""
	}
	rel = filepath.ToSlash(rel)
	dir := filepath.ToSlash(filepath.Dir(rel))
	if dir == "." {
		dir = ""
	}
	if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
		return rel
	}
	return dir
}

// errWatchLimit says the watches ran out.
var errWatchLimit = errors.New("workspace: watch: the system's limit of watches is reached")

// addTree watches dir and the directories below it that the index walks (Walk: ignored,
// dependency and build directories are not, so they cost no watch). It returns
// errWatchLimit when watches ran out (the caller scans instead).
func (w *Watcher) addTree(fw *fsnotify.Watcher, dir string) error {
	rel, err := filepath.Rel(w.root, dir)
	if err != nil {
		return nil
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	walk, err := Walk(context.Background(), w.root, WalkOptions{Scope: []string{rel}})
	if err != nil {
		return nil // the root vanished: nothing to watch
	}
	var limit error
	for _, d := range walk.Dirs {
		if w.opts.MaxWatches > 0 && len(fw.WatchList()) >= w.opts.MaxWatches {
			limit = errWatchLimit
			break
		}
		if err := fw.Add(filepath.Join(w.root, filepath.FromSlash(d))); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				limit = errWatchLimit
				break
			}
		}
	}
	n := len(fw.WatchList())
	w.update(func(s *WatchStatus) { s.Directories = n })
	return limit
}

// repairOf says what an index run repaired ("" nothing): the full-text changes of a run that
// did not finish, replayed; a full-text index rebuilt from the store.
func repairOf(sum *Summary) string {
	var parts []string
	if sum.Replayed > 0 {
		parts = append(parts, fmt.Sprintf("%d full-text changes of an unfinished run replayed", sum.Replayed))
	}
	if strings.Contains(sum.Fulltext, "rebuilt") {
		parts = append(parts, "full-text index "+sum.Fulltext)
	}
	return strings.Join(parts, "; ")
}
