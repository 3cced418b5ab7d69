package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/languages"
)

// Batch limits of the writer: a store transaction and its full-text batch hold at most this
// many files or bytes of content. bleve analyzes a whole batch in memory before it builds
// the batch's segment: on corpus.sh full, batches of 50 files or 2 MB kept the first
// load's peak RSS at 1.42 GB where 100 files or 4 MB took 1.64 GB (400 or 8 MB: 1.85 GB),
// for about 6% more CPU (more segments to build, and to merge once at the end).
const (
	writeBatchFiles = 50
	writeBatchBytes = 2 << 20
)

// IndexOptions tune Index.
type IndexOptions struct {
	Force         bool  // drop the index and build it anew
	MaxFileSize   int64 // 0: extract.DefaultMaxFileSize
	MaxSourceSize int64 // 0: extract.DefaultMaxSourceSize
	// Scope, if not empty, limits the run to these directories and what is below them
	// (WalkOptions.Scope): files elsewhere are neither read nor deleted. A watcher's update.
	Scope []string
	// Serve, if set, is called once the index is open for writing with a SearchIndex over
	// the writer's own store and full-text index (nil over a first load), and with nil
	// before the writer closes; it must not return from that call until the searches it
	// lent the index to are done. A server answers from it while the run writes.
	Serve func(x *SearchIndex)
	// Progress, when set, is called from one goroutine as files are written.
	Progress func(Progress)
	// Embedder, when set, makes the symbol vectors (else Quarry's built-in code-search model does).
	Embedder *vectors.Embedder
	// ReplayOnly: the run reads no file; it only brings the full-text index level with the
	// store (replays the log of a run that did not finish, refills an unfinished first
	// load's). A search does this when more files changed than it indexes itself.
	ReplayOnly bool
	// Compact leaves the index in one piece at the end of the run (index.Writer.Compact):
	// what a cluster's indexer uploads.
	Compact bool
}

// Progress is how far an Index run is.
type Progress struct {
	Done, Total int   // files written of files to write
	Bytes       int64 // bytes of content read
}

// Summary is the outcome of an Index run.
type Summary struct {
	Root        string                     `json:"root"`
	ID          string                     `json:"id"`
	Added       int                        `json:"added"`
	Changed     int                        `json:"changed"`
	Deleted     int                        `json:"deleted"`
	Renamed     int                        `json:"renamed"`
	Unchanged   int                        `json:"unchanged"`
	Extracted   int                        `json:"extracted"`
	BytesRead   int64                      `json:"bytes_read"`
	Counts      store.Counts               `json:"counts"`
	Languages   []store.LanguageStats      `json:"languages"`
	Skipped     map[extract.SkipReason]int `json:"skipped"`
	Samples     []Skipped                  `json:"skipped_samples,omitempty"`
	Fulltext    string                     `json:"fulltext"` // what happened to the full-text index
	Vectors     vectors.Stats              `json:"vectors" jsonschema:"what the run did to the symbol vectors (vec: and hyde: lines search them)"`
	Reextracted bool                       `json:"reextracted,omitempty" jsonschema:"every file was extracted again, changed or not: the extractors or the languages changed since the last run (a new version of Quarry)"`
	Replayed    int                        `json:"replayed,omitempty" jsonschema:"full-text changes of an index run that did not finish (killed, crashed), re-applied at the start of this one"`
	Errors      []string                   `json:"errors,omitempty"`
	Elapsed     time.Duration              `json:"-"`
	ElapsedMS   int64                      `json:"elapsed_ms"`
}

// job is a file to read, and what it becomes.
type job struct {
	cand   Candidate
	stored *store.FileState
	rec    *store.FileRecord  // set when the file is to be (re)written
	skip   extract.SkipReason // set when the file is to be skipped after reading
	touch  bool               // content unchanged: only mtime and size are updated
	moved  bool               // the extraction was moved from a deleted file, not parsed
	err    error
}

// Index brings the index of the workspace at root, kept in indexDir, up to date with the
// files on disk, re-reading only files whose size or modification time changed and
// re-extracting only files whose content changed.
func Index(ctx context.Context, root, indexDir string, reg *languages.Registry, opts IndexOptions) (*Summary, error) {
	start := time.Now()
	root, err := CanonicalDir(root)
	if err != nil {
		return nil, err
	}
	unlock, err := lock(indexDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := tighten(indexDir); err != nil {
		return nil, err
	}
	if err := rollForward(indexDir); err != nil {
		return nil, err
	}
	// A first index is built like a forced one, beside where it will live, and moved in
	// place when complete: its store keeps no journal (each page written once), and a
	// first index that did not finish leaves nothing to repair; the next run starts it
	// again.
	if _, err := os.Stat(StorePath(indexDir)); opts.Force || errors.Is(err, os.ErrNotExist) && !opts.ReplayOnly {
		return rebuild(ctx, root, indexDir, reg, opts, start)
	}
	if opts.ReplayOnly {
		return replay(ctx, root, indexDir, start)
	}
	return update(ctx, root, indexDir, reg, opts, start)
}

// rebuildDir is where a forced run builds the new index, beside the old one (which serves
// searches meanwhile); completeFile in it marks a build finished, to be moved in place.
const (
	rebuildDir   = "rebuild"
	completeFile = "complete"
)

// rebuild builds a new index of root in indexDir/rebuild and then moves it in place of the
// old one, which answers the searches of opts.Serve until then: readers see the old index
// or the new one, never a half-built one.
func rebuild(ctx context.Context, root, indexDir string, reg *languages.Registry, opts IndexOptions, start time.Time) (*Summary, error) {
	opts.Scope = nil // a new index holds everything
	next := filepath.Join(indexDir, rebuildDir)
	if err := os.RemoveAll(next); err != nil {
		return nil, fmt.Errorf("workspace: remove %s: %w", next, err)
	}
	serve := opts.Serve
	opts.Serve = nil // a first load has nothing committed to answer from
	var old *SearchIndex
	if serve != nil {
		e := Entry{ID: ID(root), Root: root, Name: filepath.Base(root)}
		if x, err := OpenSearch(e, indexDir); err == nil {
			old = x
			serve(old)
		}
	}
	sum, err := updateIn(ctx, root, next, reg, opts, start, true)
	if old != nil {
		serve(nil) // waits for the searches using it
		old.Close()
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(next, completeFile), nil, store.FileMode)
	}
	if err == nil {
		err = rollForward(indexDir)
	}
	if err != nil {
		_ = os.RemoveAll(next)
		return nil, err
	}
	return sum, nil
}

// rollForward moves a finished rebuild (indexDir/rebuild/complete) in place of the index,
// or removes an unfinished one. A move cut short (a crash) is completed by the next call:
// every step can be taken again.
func rollForward(indexDir string) error {
	next := filepath.Join(indexDir, rebuildDir)
	if _, err := os.Stat(filepath.Join(next, completeFile)); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			err = os.RemoveAll(next)
		}
		if err != nil {
			return fmt.Errorf("workspace: remove the unfinished rebuild %s: %w", next, err)
		}
		return nil
	}
	for _, p := range []string{filepath.Dir(StorePath(indexDir)), FulltextPath(indexDir)} {
		from := filepath.Join(next, filepath.Base(p))
		if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
			continue // moved before
		}
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("workspace: replace %s: %w", p, err)
		}
		if err := os.Rename(from, p); err != nil {
			return fmt.Errorf("workspace: move the rebuilt index in place: %w", err)
		}
	}
	if err := os.RemoveAll(next); err != nil {
		return fmt.Errorf("workspace: remove %s: %w", next, err)
	}
	return nil
}

// update brings the index in indexDir up to date with the files of root.
func update(ctx context.Context, root, indexDir string, reg *languages.Registry, opts IndexOptions, start time.Time) (*Summary, error) {
	return updateIn(ctx, root, indexDir, reg, opts, start, false)
}

// updateIn is update; disposable: the index in indexDir is thrown away unless the run
// finishes (a rebuild), so its store keeps no journal (index.WithDisposable) and is synced
// at the end.
func updateIn(ctx context.Context, root, indexDir string, reg *languages.Registry, opts IndexOptions, start time.Time, disposable bool) (*Summary, error) {
	wctx := ctx
	if disposable {
		wctx = index.WithDisposable(ctx)
	}
	ix, err := index.OpenWriter(wctx, StorePath(indexDir), FulltextPath(indexDir))
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	ix.Embedder, ix.Compact = opts.Embedder, opts.Compact
	if opts.Serve != nil {
		if srch, err := ix.Searcher(); err == nil && srch != nil {
			e := Entry{ID: ID(root), Root: root, Name: filepath.Base(root)}
			opts.Serve(&SearchIndex{Entry: e, store: ix.Store(), searcher: srch, Fulltext: fulltext.Ready, borrowed: true})
			defer opts.Serve(nil) // runs before ix.Close
		}
	}
	st := ix.Store()
	sum := &Summary{Root: root, ID: ID(root), Fulltext: string(ix.Status()), Replayed: ix.Replayed()}
	// The stored states are read while the tree is walked: each is a tenth of a second of
	// a no-change run on corpus.sh full. Out of scope, files are not walked, so they must
	// not be planned as deleted.
	var (
		stored    map[string]store.FileState
		storedErr error
		read      = make(chan struct{})
	)
	go func() {
		defer close(read)
		if len(opts.Scope) > 0 {
			stored, storedErr = st.FilesUnder(ctx, opts.Scope)
		} else {
			stored, storedErr = st.Files(ctx)
		}
	}()
	// The walk lists directories on several goroutines, and through fresh.cache: one whose
	// time has not moved since the last walk is not listed again (its files are stat'ed).
	cache := loadFreshCache(filepath.Dir(st.Path()))
	walk, err := Walk(ctx, root, WalkOptions{MaxFileSize: opts.MaxFileSize, MaxSourceSize: opts.MaxSourceSize, Languages: reg, Scope: opts.Scope, Parallel: true, cache: cache})
	<-read
	if err == nil {
		cache.save()
	}
	if err != nil {
		return nil, err
	}
	sum.Skipped, sum.Samples = walk.Skipped, walk.Samples
	if storedErr != nil {
		return nil, fmt.Errorf("workspace: read the store: %w", storedErr)
	}
	// Files extracted by other extractors or language settings are extracted again, changed
	// or not: a language added since the last run gives its files symbols.
	fingerprint := extractionFingerprint(reg)
	if prev, _ := st.Meta(extractionKey); len(opts.Scope) == 0 && prev != fingerprint && len(stored) > 0 {
		for p, st := range stored {
			st.MTime, st.Hash = -1, ""
			stored[p] = st
		}
		sum.Reextracted = true
	}
	todo, deleted := plan(walk.Files, stored, sum)
	w := &writer{ctx: ctx, ix: ix, progress: opts.Progress, total: len(todo) + len(deleted), sum: sum, deletedHashes: map[string]int{}}
	// A new file with the content of a deleted one is a rename: its extraction is moved from
	// the deleted path (read from the store, which still has it: deletions are written
	// last) instead of parsed again.
	movable := map[string]string{} // content hash -> a deleted path with that content
	for _, p := range deleted {
		if st := stored[p]; st.Skipped == "" && st.Hash != "" {
			w.deletedHashes[st.Hash]++
			movable[st.Hash] = p
		}
	}
	ex := extract.New(reg, extract.Options{MaxFileSize: int(opts.MaxFileSize), MaxSourceSize: int(opts.MaxSourceSize)})
	rd := &reader{ctx: ctx, ex: ex, reg: reg, store: st, movable: movable}
	if err := w.run(todo, rd.read); err != nil {
		return nil, err
	}
	if err := w.deleteAll(deleted); err != nil {
		return nil, err
	}
	sum.Deleted -= sum.Renamed
	if err := ix.Finish(ctx); err != nil {
		return nil, err
	}
	if ix.Status() != fulltext.Ready {
		sum.Fulltext = fmt.Sprintf("%s, rebuilt from the store", ix.Status())
	}
	sum.Vectors = ix.Vectors
	if sum.Counts, err = st.Counts(ctx); err != nil {
		return nil, err
	}
	if sum.Languages, err = st.Languages(ctx); err != nil {
		return nil, err
	}
	sum.Elapsed = time.Since(start)
	sum.ElapsedMS = sum.Elapsed.Milliseconds()
	if err := recordLastIndex(ctx, st, sum, time.Now()); err != nil {
		return nil, err
	}
	if len(opts.Scope) == 0 {
		if err := st.SetMeta(extractionKey, fingerprint); err != nil {
			return nil, err
		}
	}
	if disposable {
		if err := ix.Sync(); err != nil { // before the rebuild is marked complete
			return nil, err
		}
	}
	return sum, nil
}

// extractionKey is the store's meta key of the extraction fingerprint of its files.
const extractionKey = "extraction"

// extractionFingerprint identifies what extraction gives for a file: the extractors'
// version and the languages' settings.
func extractionFingerprint(reg *languages.Registry) string {
	return fmt.Sprintf("%d/%s", extract.Version, reg.Fingerprint())
}

// plan sorts the walked files into those to read and the stored paths that are gone.
func plan(files []Candidate, stored map[string]store.FileState, sum *Summary) (todo []*job, deleted []string) {
	seen := make(map[string]bool, len(files))
	for _, c := range files {
		seen[c.Path] = true
		st, ok := stored[c.Path]
		if ok && st.Size == c.Size && st.MTime == c.ModTime.UnixNano() {
			if st.Skipped != "" {
				sum.Skipped[st.Skipped]++
			} else {
				sum.Unchanged++
			}
			continue
		}
		j := &job{cand: c}
		if ok {
			j.stored = &st
		}
		todo = append(todo, j)
	}
	for p := range stored {
		if !seen[p] {
			deleted = append(deleted, p)
		}
	}
	return todo, deleted
}

// reader reads a job's file and extracts it, or moves the extraction of the deleted file
// it was renamed from. It is safe for concurrent use.
type reader struct {
	ctx     context.Context
	ex      *extract.Extractor
	reg     *languages.Registry
	store   *store.Store
	movable map[string]string // content hash -> a deleted path with that content; read-only
}

// ErrNotRegular is returned for a path that is not a regular file (a named pipe, a device,
// a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// openForRead opens a file to read it without waiting (a named pipe); a variable so that
// tests can make a file unreadable to root, whom no mode keeps out.
var openForRead = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// ReadRegularFile reads the file at path if it is a regular file: a named pipe or a device
// (one put in place of a file since it was listed, say) is not read, since opening a pipe
// for reading waits for a writer forever; it gives an error wrapping ErrNotRegular.
func ReadRegularFile(path string) ([]byte, error) {
	f, err := openForRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, st.Mode().Type())
	}
	return io.ReadAll(f)
}

// readRegular reads a file to index: its content, or why it is skipped.
func readRegular(path string) ([]byte, extract.SkipReason) {
	content, err := ReadRegularFile(path)
	switch {
	case errors.Is(err, ErrNotRegular):
		return nil, extract.SkipNotRegular
	case err != nil:
		return nil, extract.SkipUnreadable
	}
	return content, ""
}

// read reads a job's file and extracts it when its content changed.
func (rd *reader) read(j *job) {
	content, reason := readRegular(j.cand.AbsPath)
	if reason != "" {
		j.skip = reason
		return
	}
	if reason := Classify(j.cand.Path, content); reason != "" {
		j.skip = reason
		return
	}
	hash := strconv.FormatUint(xxhash.Sum64(content), 16)
	if j.stored != nil && j.stored.Hash == hash {
		j.touch = true
		return
	}
	rec := &store.FileRecord{Path: j.cand.Path, Hash: hash, Size: int64(len(content)), MTime: j.cand.ModTime.UnixNano(), Content: content}
	j.rec = rec
	lang := rd.reg.Detect(j.cand.Path, content)
	if lang == nil {
		return
	}
	rec.Language = lang.Name
	if !extract.Supported(lang.Name) {
		return
	}
	if from, ok := rd.movable[hash]; ok && j.stored == nil {
		f, err := rd.store.LoadExtract(rd.ctx, from)
		if err == nil && f != nil && f.Language == lang.Name {
			f.Rebase(j.cand.Path)
			rec.Extract, j.moved = f, true
			return
		}
		// Another language at the new path, or the store failed: extract anew.
	}
	// Labelled by language, so that a profile of an index run (quarry index --cpuprofile F;
	// go tool pprof -tags F) tells what each language's extraction costs.
	var f *extract.File
	var err error
	pprof.Do(rd.ctx, pprof.Labels("language", lang.Name), func(ctx context.Context) {
		f, err = rd.ex.Extract(ctx, j.cand.Path, content, lang)
	})
	if err != nil {
		j.err = err // indexed for its content, without symbols
		return
	}
	rec.Extract = f
}

// writer applies jobs to the store and the full-text index in batches.
type writer struct {
	ctx      context.Context
	ix       *index.Writer
	progress func(Progress)
	total    int
	done     int
	bytes    int64
	sum      *Summary
	// deletedHashes counts the content hashes of deleted files: a new file with one of them
	// is a rename.
	deletedHashes map[string]int
}

// deleteAll removes the given paths in batches.
func (w *writer) deleteAll(paths []string) error {
	for len(paths) > 0 {
		n := min(len(paths), writeBatchFiles)
		b, err := w.ix.Begin(w.ctx)
		if err != nil {
			return err
		}
		for _, p := range paths[:n] {
			if err := b.Delete(p); err != nil {
				b.Rollback()
				return err
			}
		}
		if err := b.Commit(w.ctx); err != nil {
			return err
		}
		w.sum.Deleted += n
		w.advance(n, 0)
		paths = paths[n:]
	}
	return nil
}

// run reads and extracts the jobs on every core and writes them in order of completion.
func (w *writer) run(jobs []*job, work func(*job)) error {
	in := make(chan *job)
	out := make(chan *job, runtime.GOMAXPROCS(0)*4)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range in {
				work(j)
				out <- j
			}
		})
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-w.ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	err := w.consume(out)
	for range out { // drain so the workers finish
	}
	if err == nil {
		err = w.ctx.Err()
	}
	return err
}

// consume writes finished jobs in batches.
func (w *writer) consume(out <-chan *job) error {
	var b *index.WriteBatch
	files, bytes := 0, int64(0)
	flush := func() error {
		if b == nil {
			return nil
		}
		err := b.Commit(w.ctx)
		w.advance(files, bytes)
		b, files, bytes = nil, 0, 0
		return err
	}
	for j := range out {
		if b == nil {
			var err error
			if b, err = w.ix.Begin(w.ctx); err != nil {
				return err
			}
		}
		if j.rec != nil {
			bytes += j.rec.Size
		}
		err := w.apply(b, j)
		// The batches now hold what they need of the record; the job, kept in the plan
		// until the run ends, must not keep the content and the extraction alive.
		j.rec = nil
		if err != nil {
			b.Rollback()
			return err
		}
		files++
		if files >= writeBatchFiles || bytes >= writeBatchBytes {
			if err := flush(); err != nil {
				return err
			}
		}
		if w.ctx.Err() != nil {
			b.Rollback()
			return w.ctx.Err()
		}
	}
	return flush()
}

// apply adds one finished job to a batch and counts it.
func (w *writer) apply(b *index.WriteBatch, j *job) error {
	if j.err != nil {
		w.sum.Errors = append(w.sum.Errors, j.err.Error())
	}
	switch {
	case j.skip == extract.SkipUnreadable:
		w.sum.Skipped[j.skip]++
		return nil // keep what the store has; the next run tries again
	case j.skip != "":
		// Remember the file as skipped, so it is not read again until it changes.
		w.sum.Skipped[j.skip]++
		return b.Put(&store.FileRecord{Path: j.cand.Path, Size: j.cand.Size, MTime: j.cand.ModTime.UnixNano(), Skipped: j.skip})
	case j.touch:
		w.sum.Unchanged++
		return b.Touch(j.cand.Path, j.cand.ModTime.UnixNano(), j.cand.Size)
	}
	switch {
	case j.stored != nil:
		w.sum.Changed++
	case w.deletedHashes[j.rec.Hash] > 0:
		w.deletedHashes[j.rec.Hash]--
		w.sum.Renamed++
	default:
		w.sum.Added++
	}
	if j.rec.Extract != nil && !j.moved {
		w.sum.Extracted++
	}
	w.sum.BytesRead += j.rec.Size
	return b.Put(j.rec)
}

func (w *writer) advance(files int, bytes int64) {
	w.done += files
	w.bytes += bytes
	if w.progress != nil {
		w.progress(Progress{Done: w.done, Total: w.total, Bytes: w.bytes})
	}
}
