package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/grams"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/vectors"
)

// Health statuses of a whole index.
const (
	Healthy    = "healthy"
	Unhealthy  = "unhealthy"
	NotIndexed = "not_indexed"
)

// Full-text statuses reported by health.
const (
	FulltextReady        = "ready"
	FulltextBuilding     = "building"
	FulltextStale        = "stale"
	FulltextMissing      = "missing"
	FulltextInconsistent = "inconsistent"
	FulltextCorrupt      = "corrupt"
)

// maxChangedSamples caps the changed paths a health report lists.
const maxChangedSamples = 20

// Health is the state of one workspace's index.
type Health struct {
	Workspace Entry                 `json:"workspace"`
	Status    string                `json:"status"`
	Store     StoreHealth           `json:"store"`
	Languages []store.LanguageStats `json:"languages"`
	// WithoutExtractor are the files searched by content only, with no symbols: by
	// language for a language without an extractor, else by extension or file name.
	WithoutExtractor []store.NameCount `json:"without_extractor"`
	Fulltext         FulltextHealth    `json:"fulltext"`
	Content          ContentHealth     `json:"content"`
	LastIndex        *LastIndex        `json:"last_index,omitempty"`
	Changed          Changes           `json:"changed_since_index"`
	Problems         []Problem         `json:"problems"`
	// Notices are facts about the indexed code, not problems of the index (syntax errors).
	Notices []string `json:"notices,omitempty"`
	// Watch is the watcher of the process answering (quarry mcp), when one runs.
	Watch *WatchStatus `json:"watch,omitempty"`

	reindex string // the command that brings this workspace's index up to date
	// partialLoad: the first index run into the store did not finish, so the full-text
	// index may lack some of what the store holds.
	partialLoad bool
}

// StoreHealth describes the SQLite store.
type StoreHealth struct {
	Path          string       `json:"path"`
	SizeBytes     int64        `json:"size_bytes"`
	SchemaVersion int          `json:"schema_version"`
	Counts        store.Counts `json:"counts"`
}

// FulltextHealth describes the bleve index against the store.
type FulltextHealth struct {
	Status       string `json:"status"`
	Path         string `json:"path"`
	SizeBytes    int64  `json:"size_bytes"`
	SymbolDocs   uint64 `json:"symbol_docs"`
	StoreSymbols int    `json:"store_symbols"`
}

// ContentHealth describes the content index (the text of files, index/grams) against the
// store.
type ContentHealth struct {
	Status     string `json:"status" jsonschema:"ready, building, missing, corrupt or inconsistent"`
	Path       string `json:"path"`
	SizeBytes  int64  `json:"size_bytes"`
	Segments   int    `json:"segments"`
	FileDocs   int    `json:"file_docs"`
	StoreFiles int    `json:"store_files"`
}

// LastIndex is what the last Index run recorded.
type LastIndex struct {
	At        time.Time                  `json:"at"`
	ElapsedMS int64                      `json:"elapsed_ms"`
	Skipped   map[extract.SkipReason]int `json:"skipped"`
	Errors    int                        `json:"errors"`
	// Vectors is what the run did to the symbol vectors.
	Vectors *vectors.Stats `json:"vectors,omitempty"`
}

// Changes are the files that differ on disk from the index (by size and modification time).
type Changes struct {
	Modified int      `json:"modified"`
	Added    int      `json:"added"`
	Deleted  int      `json:"deleted"`
	Samples  []string `json:"samples,omitempty"`
	// Unreadable are the files that differ from the index but cannot be read (permission
	// denied): an index run cannot bring them up to date, so they are no problem of the
	// index, and not counted as modified or added.
	Unreadable      int      `json:"unreadable,omitempty"`
	UnreadablePaths []string `json:"unreadable_paths,omitempty"`
}

// Problem is something wrong with an index and the action that fixes it.
type Problem struct {
	What   string `json:"what"`
	Action string `json:"action"`
}

// lastIndexKey is the store meta key of the last Index run's LastIndex record.
const lastIndexKey = "last_index"

// recordLastIndex stores the summary of an Index run for health reports.
func recordLastIndex(ctx context.Context, st *store.Store, sum *Summary, at time.Time) error {
	li := LastIndex{At: at.UTC().Truncate(time.Second), ElapsedMS: sum.ElapsedMS, Skipped: sum.Skipped, Errors: len(sum.Errors), Vectors: &sum.Vectors}
	data, err := json.Marshal(li)
	if err != nil {
		return err
	}
	return st.SetMeta(lastIndexKey, string(data))
}

// CheckHealth inspects the index of the workspace e (kept in indexDir) without changing it.
func CheckHealth(ctx context.Context, e Entry, indexDir string, reference bool) (*Health, error) {
	h := &Health{Workspace: e, Problems: []Problem{}, Languages: []store.LanguageStats{}, reindex: "quarry index " + e.Root}
	if reference {
		h.reindex = "quarry workspace refresh " + e.ID
	}
	storePath := StorePath(indexDir)
	h.Store.Path = storePath
	h.Fulltext.Path = FulltextPath(indexDir)
	if _, err := os.Stat(storePath); errors.Is(err, os.ErrNotExist) {
		h.Status = NotIndexed
		h.Fulltext.Status = FulltextMissing
		h.Problems = append(h.Problems, Problem{What: "the workspace has no index", Action: "run: " + h.reindex})
		return h, nil
	}
	st, err := store.Open(storePath)
	if err != nil {
		h.Status = Unhealthy
		h.Problems = append(h.Problems, Problem{What: fmt.Sprintf("the store cannot be opened: %v", err), Action: "run: " + h.reindex + " --force"})
		return h, nil
	}
	defer st.Close()
	if err := h.inspectStore(ctx, st); err != nil {
		return nil, err
	}
	h.inspectFulltext(indexDir)
	h.inspectContent(indexDir, st)
	if err := h.inspectChanges(ctx, e.Root, st); err != nil {
		h.Problems = append(h.Problems, Problem{What: fmt.Sprintf("cannot compare with the files on disk: %v", err), Action: "check that " + e.Root + " exists and is readable"})
	}
	h.Status = Healthy
	if len(h.Problems) > 0 {
		h.Status = Unhealthy
	}
	return h, nil
}

func (h *Health) inspectStore(ctx context.Context, st *store.Store) error {
	var err error
	if h.Store.Counts, err = st.Counts(ctx); err != nil {
		return err
	}
	if h.Languages, err = st.Languages(ctx); err != nil {
		return err
	}
	if h.WithoutExtractor, err = st.WithoutExtractor(ctx); err != nil {
		return err
	}
	h.Store.SizeBytes = st.DiskSize()
	v, _ := st.Meta("schema_version")
	h.Store.SchemaVersion, _ = strconv.Atoi(v)
	if h.partialLoad, err = st.FirstLoadUnfinished(); err != nil {
		return err
	}
	if raw, _ := st.Meta(lastIndexKey); raw != "" {
		var li LastIndex
		if json.Unmarshal([]byte(raw), &li) == nil {
			h.LastIndex = &li
			if v := li.Vectors; v != nil && v.Error != "" {
				h.Problems = append(h.Problems, Problem{
					What:   fmt.Sprintf("the external embedder failed in the last index run: the %d symbols of the files it did not embed have no vectors, so vec: and hyde: lines miss them (%s)", v.Missing, v.Error),
					Action: "start the embedder, or mend [embedder] in .quarry/config.toml, then run " + h.reindex,
				})
			}
		}
	}
	for _, l := range h.Languages {
		if l.FilesParseErrors > 0 && l.Language != "" {
			h.Notices = append(h.Notices, fmt.Sprintf("%d %s files have syntax errors: symbols inside the broken regions are missing (quarry symbols FILE shows what was recovered)", l.FilesParseErrors, l.Language))
		}
	}
	return nil
}

// Content index states (ContentHealth.Status).
const (
	ContentReady        = "ready"
	ContentMissing      = "missing"
	ContentCorrupt      = "corrupt"
	ContentInconsistent = "inconsistent"
)

func (h *Health) inspectContent(indexDir string, st *store.Store) {
	c := &h.Content
	c.Path, c.StoreFiles = st.GramsDir(), h.Store.Counts.Files
	c.SizeBytes = dirSize(c.Path)
	raw, err := st.Meta(store.MetaGrams)
	var m grams.Manifest
	if err == nil && raw != "" {
		m, err = grams.ParseManifest(raw)
	}
	var ix *grams.Index
	if err == nil && raw != "" {
		if ix, err = grams.Open(c.Path, m); err == nil {
			c.Segments, c.FileDocs = len(m.Segments), ix.Docs()
			ix.Close()
		}
	}
	switch {
	case isLocked(indexDir):
		c.Status = FulltextBuilding
	case err != nil:
		c.Status = ContentCorrupt
		h.Problems = append(h.Problems, Problem{What: fmt.Sprintf("the content index cannot be read: %v", err), Action: "run: " + h.reindex + " (it rebuilds the content index from the store)"})
	case raw == "":
		c.Status = ContentMissing
		h.Problems = append(h.Problems, Problem{What: "the index has no content index (it was built by an older Quarry)", Action: "run: " + h.reindex})
	case c.FileDocs != c.StoreFiles:
		c.Status = ContentInconsistent
		h.Problems = append(h.Problems, Problem{What: fmt.Sprintf("the content index has %d files, the store %d", c.FileDocs, c.StoreFiles), Action: "run: " + h.reindex})
	default:
		c.Status = ContentReady
	}
}

func (h *Health) inspectFulltext(indexDir string) {
	f := &h.Fulltext
	f.StoreSymbols = h.Store.Counts.Symbols
	f.SizeBytes = dirSize(f.Path)
	status, symbols, err := fulltext.Inspect(f.Path)
	f.SymbolDocs = symbols
	switch {
	case isLocked(indexDir):
		f.Status = FulltextBuilding
	case status == fulltext.Created:
		f.Status = FulltextMissing
	case status == fulltext.Stale:
		f.Status = FulltextStale
	case status == fulltext.Corrupt || err != nil:
		f.Status = FulltextCorrupt
	case h.Store.Counts.Pending > 0 || int(symbols) != f.StoreSymbols || h.partialLoad:
		f.Status = FulltextInconsistent
	default:
		f.Status = FulltextReady
	}
	action := "run: " + h.reindex + " (it rebuilds the full-text index from the store)"
	switch f.Status {
	case FulltextStale:
		h.Problems = append(h.Problems, Problem{
			What:   "the full-text index was built with other tokenizer rules (an older Quarry or edited language files); searches still use the rules it was built with",
			Action: action,
		})
	case FulltextMissing, FulltextCorrupt:
		h.Problems = append(h.Problems, Problem{What: "the full-text index is " + f.Status, Action: action})
	case FulltextInconsistent:
		what := ""
		if h.partialLoad {
			what = "the first index run did not finish; "
		}
		h.Problems = append(h.Problems, Problem{
			What:   what + fmt.Sprintf("the full-text index has %d symbols, the store %d (%d changes not yet applied)", symbols, f.StoreSymbols, h.Store.Counts.Pending),
			Action: action,
		})
	case FulltextBuilding:
		h.Problems = append(h.Problems, Problem{What: "an index run is in progress", Action: "wait for it to finish"})
	}
}

// inspectChanges compares the files on disk with the store by size and modification time
// (compareDisk), a changed file that cannot be read counted apart.
func (h *Health) inspectChanges(ctx context.Context, root string, st *store.Store) error {
	changed, _, err := compareDisk(ctx, root, st, true)
	if err != nil {
		return err
	}
	h.Changed = changed
	c := &h.Changed
	if c.Unreadable > 0 {
		h.Notices = append(h.Notices, fmt.Sprintf("%d files changed on disk cannot be read (permission denied): the index keeps what it last read of them; make them readable, then run %s: %s",
			c.Unreadable, h.reindex, strings.Join(c.UnreadablePaths, ", ")))
	}
	if n := c.Modified + c.Added + c.Deleted; n > 0 {
		h.Problems = append(h.Problems, Problem{
			What:   fmt.Sprintf("%d files changed on disk since the last index (%d modified, %d added, %d deleted)", n, c.Modified, c.Added, c.Deleted),
			Action: "run: " + h.reindex,
		})
	}
	return nil
}

// readable reports whether the file at path can be opened for reading (one that vanished
// meanwhile counts as readable: it is deleted, not unreadable).
func readable(path string) bool {
	f, err := openForRead(path)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	f.Close()
	return true
}

// dirSize sums the sizes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
