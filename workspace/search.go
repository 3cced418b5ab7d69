package workspace

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/nav"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/languages"
)

// ErrNotIndexed is returned when a workspace to search has no usable index.
var ErrNotIndexed = errors.New("not indexed")

// SearchIndex is a workspace's index opened for searching.
type SearchIndex struct {
	Entry    Entry
	store    *store.Store
	ft       *fulltext.Index
	searcher *search.Searcher
	// Fulltext is the state of the full-text index: ready, or stale (built with other
	// tokenizer rules, still searched with them).
	Fulltext fulltext.Status
	// borrowed: the store and full-text index are a running index writer's (IndexOptions.
	// Serve); Close leaves them open.
	borrowed bool
	// shard: a cluster's copy of an index, without its source tree: its hits are what was
	// indexed, never marked stale.
	shard bool
	// states keeps the stored states of files hits came from, at one generation of the
	// store: a warm search's stale marks then need no query of their own.
	states stateCache
}

// stateCache holds stored file states read at one generation of the store. A batch an
// index run commits moves the generation, and the states read before it are dropped.
type stateCache struct {
	mu     sync.Mutex
	gen    int64
	states map[string]store.FileState
}

// maxCachedStates bounds a stateCache; past it, the cache starts again.
const maxCachedStates = 1 << 16

// lookup returns the states of paths cached at gen, and the paths it does not hold.
func (c *stateCache) lookup(gen int64, paths []string) (map[string]store.FileState, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.states == nil || c.gen != gen {
		return map[string]store.FileState{}, paths
	}
	found := make(map[string]store.FileState, len(paths))
	var missing []string
	for _, p := range paths {
		if st, ok := c.states[p]; ok {
			found[p] = st
		} else {
			missing = append(missing, p)
		}
	}
	return found, missing
}

// add keeps states, read from the store at gen (read between two reads of the generation
// that both gave gen).
func (c *stateCache) add(gen int64, states map[string]store.FileState) {
	if len(states) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.states == nil || c.gen != gen || len(c.states)+len(states) > maxCachedStates {
		c.gen, c.states = gen, make(map[string]store.FileState, len(states))
	}
	maps.Copy(c.states, states)
}

// OpenShard opens a copy of an index kept in indexDir, away from the source it was built
// from (a cluster's shard), for searching: as OpenSearch, but no hit is compared with files
// on disk.
func OpenShard(e Entry, indexDir string) (*SearchIndex, error) {
	x, err := OpenSearch(e, indexDir)
	if err != nil {
		return nil, err
	}
	x.shard = true
	if err := x.store.Freeze(context.Background()); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// OpenSearch opens the index of e, kept in indexDir, for searching. An index that is
// missing or needs rebuilding gives an error wrapping ErrNotIndexed; one being written by an
// index run gives fulltext.ErrLocked.
func OpenSearch(e Entry, indexDir string) (*SearchIndex, error) {
	if _, err := os.Stat(StorePath(indexDir)); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("workspace %s (%s): %w", e.ID, e.Root, ErrNotIndexed)
	}
	if err := tighten(indexDir); err != nil {
		return nil, fmt.Errorf("workspace %s: %w", e.ID, err)
	}
	ft, status, err := fulltext.OpenReader(FulltextPath(indexDir))
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", e.ID, err)
	}
	if ft == nil {
		return nil, fmt.Errorf("workspace %s (%s): the full-text index is %s: %w", e.ID, e.Root, status, ErrNotIndexed)
	}
	st, err := store.Open(StorePath(indexDir))
	if err != nil {
		ft.Close()
		return nil, err
	}
	s, err := search.NewSearcher(st, ft)
	if err != nil {
		ft.Close()
		st.Close()
		return nil, err
	}
	return &SearchIndex{Entry: e, store: st, ft: ft, searcher: s, Fulltext: status}, nil
}

// Close closes the index (not a borrowed one: its writer does).
func (x *SearchIndex) Close() {
	if x.borrowed {
		return // the writer closes what it lent
	}
	x.searcher.Close()
	x.ft.Close()
	x.store.Close()
}

// Borrowed reports whether the index is a running writer's (IndexOptions.Serve).
func (x *SearchIndex) Borrowed() bool { return x.borrowed }

// Searcher returns the index's searcher.
func (x *SearchIndex) Searcher() *search.Searcher { return x.searcher }

// Explain returns how req would be searched in the index, without running it.
func (x *SearchIndex) Explain(req search.Request) (*search.Plan, error) {
	return x.searcher.Explain(req)
}

// markStale marks the hits whose file changed on disk since it was indexed (its size or
// modification time differ from the store's, or it is gone): their lines are the indexed
// ones, which may now point at other text. One stat per file hit. The stored states come
// from the index's cache when it holds them at gen, the generation read before the search;
// those it read from the store are returned, for search to keep once the generation after
// the search proves them of gen.
func (x *SearchIndex) markStale(ctx context.Context, gen int64, hits []search.Hit) (map[string]store.FileState, error) {
	if x.shard {
		return nil, nil
	}
	var paths []string
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.Path] {
			seen[h.Path] = true
			paths = append(paths, h.Path)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	// the files on disk are looked at while the store is read
	infos := make([]os.FileInfo, len(paths))
	statted := make(chan struct{})
	go func() {
		defer close(statted)
		for i, p := range paths {
			infos[i], _ = os.Stat(filepath.Join(x.Entry.Root, filepath.FromSlash(p)))
		}
	}()
	states, missing := x.states.lookup(gen, paths)
	var read map[string]store.FileState
	var err error
	if len(missing) > 0 {
		read, err = x.store.FileStates(ctx, missing)
	}
	<-statted
	if err != nil {
		return nil, err
	}
	maps.Copy(states, read)
	changed := map[string]bool{}
	for i, p := range paths {
		st, ok := states[p]
		if !ok {
			continue // not a stored file (cannot happen for a hit; nothing to compare)
		}
		info := infos[i]
		changed[p] = info == nil || info.Size() != st.Size || info.ModTime().UnixNano() != st.MTime
	}
	for i := range hits {
		hits[i].Stale = changed[hits[i].Path]
	}
	return read, nil
}

// consistentTries is how many times search runs a request that an index run's commits keep
// overtaking before it marks every hit stale.
const consistentTries = 3

// search runs req and marks its stale hits. A hit's line is read from the store while the
// search runs, and the file's indexed size and time when the search is done: a batch an
// index run commits in between (a file moved its lines) would pair an old line with a new
// state that matches the disk. The store's generation, the same before and after, proves
// there was none; else the search runs again, and when commits keep coming, every hit is
// marked stale.
func (x *SearchIndex) search(ctx context.Context, req search.Request) (*search.Result, error) {
	// The generation and the stored states are read even when the search ran out of
	// time: its results so far are answered, marked. (A cluster's shard is frozen: the
	// generation costs nothing and never moves.)
	quick := context.WithoutCancel(ctx)
	for try := 1; ; try++ {
		before, err := x.store.Generation(quick)
		if err != nil {
			return nil, err
		}
		res, err := x.searcher.Search(search.AtGeneration(ctx, before), req)
		if err != nil {
			return nil, err
		}
		read, err := x.markStale(quick, before, res.Hits)
		if err != nil {
			return nil, err
		}
		after, err := x.store.Generation(quick)
		if err != nil {
			return nil, err
		}
		if before == after {
			x.states.add(before, read)
		}
		if before == after || res.TimedOut {
			return res, nil
		}
		if try == consistentTries {
			for i := range res.Hits {
				res.Hits[i].Stale = true
			}
			return res, nil
		}
	}
}

// Search runs req on every index and merges the rankings. With more than one index, each
// hit names its workspace. The indexes are searched at once, as many at a time as there
// are cores; the merge takes them in the order given, so the answer does not depend on
// which finished first.
func Search(ctx context.Context, indexes []*SearchIndex, req search.Request) (*search.Result, error) {
	if len(indexes) == 0 {
		return nil, errors.New("workspace: no workspace to search")
	}
	results := make([]*search.Result, len(indexes))
	errs := make([]error, len(indexes))
	page := req
	if len(indexes) > 1 && req.Offset > 0 {
		// A page of the merged list: each index's first Offset+Limit, merged, then cut
		// (an index cutting its own first Offset would drop hits the merge never showed).
		page.Offset, page.Limit = 0, req.Offset+req.Limit
	}
	if len(indexes) == 1 {
		results[0], errs[0] = indexes[0].search(ctx, req)
	} else {
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for i, x := range indexes {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				results[i], errs[i] = x.search(ctx, page)
			})
		}
		wg.Wait()
	}
	merged := &search.Result{Hits: []search.Hit{}}
	var relaxed Relaxation
	for i, x := range indexes {
		res, err := results[i], errs[i]
		if err != nil {
			return nil, err
		}
		relaxed.Add(res.Relaxed, len(res.Hits))
		for _, h := range res.Hits {
			if len(indexes) > 1 {
				h.Workspace = x.Entry.ID
			}
			merged.Hits = append(merged.Hits, h)
		}
		merged.Truncated = merged.Truncated || res.Truncated
		merged.TimedOut = merged.TimedOut || res.TimedOut
	}
	merged.Relaxed = relaxed.Relaxed()
	if len(indexes) > 1 {
		sort.SliceStable(merged.Hits, func(i, j int) bool { return merged.Hits[i].Score > merged.Hits[j].Score })
		if page.Offset != req.Offset {
			merged.Hits = merged.Hits[min(req.Offset, len(merged.Hits)):]
		}
		if len(merged.Hits) > req.Limit {
			merged.Hits, merged.Truncated = merged.Hits[:req.Limit], true
		}
	}
	return merged, nil
}

// Relaxation merges the Relaxed of several answers: relaxed only when no answer that found
// something held every word (one that did makes "no result held every word" untrue).
type Relaxation struct{ relaxed, strict bool }

// Add counts an answer: whether it relaxed its query, and how many hits it has.
func (r *Relaxation) Add(relaxed bool, hits int) {
	r.relaxed = r.relaxed || relaxed
	r.strict = r.strict || !relaxed && hits > 0
}

// Relaxed is the merged answer's Relaxed.
func (r Relaxation) Relaxed() bool { return r.relaxed && !r.strict }

// Goto returns the definitions named by req's query (a definitions search), best first:
// exact names of definition kinds only. With contextFile (workspace-relative or absolute
// within root), those in code before those in docs and config, the name as written before
// it but for case, then those in contextFile first, then in its directory, then in its
// language, then by search rank.
func Goto(ctx context.Context, indexes []*SearchIndex, req search.Request, contextFile string) ([]search.Hit, error) {
	res, err := Search(ctx, indexes, req)
	if err != nil {
		return nil, err
	}
	var out []search.Hit
	for _, h := range res.Hits {
		if h.Defines(req.Query) {
			out = append(out, h)
		}
	}
	if contextFile == "" || len(indexes) == 0 {
		return out, nil
	}
	rel := contextFile
	if filepath.IsAbs(rel) {
		if r, err := filepath.Rel(indexes[0].Entry.Root, rel); err == nil {
			rel = r
		}
	}
	rel = filepath.ToSlash(rel)
	lang := indexes[0].searcher.LanguageOf(rel)
	near := func(h search.Hit) int {
		switch {
		case h.Path == rel:
			return 3
		case path.Dir(h.Path) == path.Dir(rel):
			return 2
		case lang != "" && h.Language == lang:
			return 1
		}
		return 0
	}
	// Code before docs and config, the name as written before it but for case, then the
	// nearest.
	symbol := req.Query.String()
	name := search.SymbolName(symbol)
	rank := func(h search.Hit) [3]int {
		code, exact := 0, 0
		if languages.CategoryOf(h.Language) == languages.Code {
			code = 1
		}
		if h.Name == symbol || h.Name == name {
			exact = 1
		}
		return [3]int{code, exact, near(h)}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := rank(out[i]), rank(out[j])
		return slices.Compare(a[:], b[:]) > 0
	})
	return out, nil
}

// ExpandMax is the most variants an expand: line gets.
const ExpandMax = 3

// ExpandWords returns lex variants of text's words: the words most common in the names of
// the definitions the built-in code-search model finds nearest to text (index/vectors), that
// this workspace's definitions hold, at most ExpandMax.
func (x *SearchIndex) ExpandWords(ctx context.Context, text string) ([]string, error) {
	cands, err := vectors.Of(x.store).ExpandWords(ctx, text)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	dfs := x.ft.DocFreqs(ctx, cands, fulltext.FieldName, fulltext.FieldSignature, fulltext.FieldDocComment, fulltext.FieldCodeBody)
	var out []string
	for i, w := range cands {
		if dfs[i] > 0 && len(out) < ExpandMax {
			out = append(out, w)
		}
	}
	return out, nil
}

// FileCount returns the number of indexed files.
func (x *SearchIndex) FileCount(ctx context.Context) (int, error) { return x.store.FileCount(ctx) }

// nav returns the navigation reader of the index's store.
func (x *SearchIndex) nav() nav.Reader { return nav.NewReader(x.store) }

// Refs returns the uses of name in the index (see nav.Reader.Refs).
func (x *SearchIndex) Refs(ctx context.Context, name string, kinds []string, offset, limit int) ([]nav.Ref, int, error) {
	return x.nav().Refs(ctx, name, kinds, offset, limit)
}

// SymbolRefs lists the uses of def that resolve to it (nav.Reader.SymbolRefs).
func (x *SearchIndex) SymbolRefs(ctx context.Context, def nav.Def, q nav.RefsQuery) ([]nav.SymbolRef, int, error) {
	return x.nav().SymbolRefs(ctx, def, q)
}

// Callees returns the calls made in the body of def, resolved (nav.Reader.Callees).
func (x *SearchIndex) Callees(ctx context.Context, def nav.Def) ([]nav.Call, error) {
	return x.nav().Callees(ctx, def)
}

// ResolveName resolves symbol as if written in the file p at line (nav.Reader.ResolveName).
func (x *SearchIndex) ResolveName(ctx context.Context, p string, line int, symbol string) (*nav.Def, string, error) {
	return x.nav().ResolveName(ctx, p, line, symbol)
}

// Children returns the symbols whose parent is def (nav.Reader.Children).
func (x *SearchIndex) Children(ctx context.Context, def nav.Def) ([]nav.Def, error) {
	return x.nav().Children(ctx, def)
}

// Implementations returns what extends, implements or overrides def (nav.Reader.Implementations).
func (x *SearchIndex) Implementations(ctx context.Context, def nav.Def) ([]nav.Def, error) {
	return x.nav().Implementations(ctx, def)
}

// Content returns the stored content of the file at path.
func (x *SearchIndex) Content(ctx context.Context, path string) ([]byte, error) {
	return x.store.Content(ctx, path)
}

// NamesWithPrefix returns names of definitions starting with prefix (lower case).
func (x *SearchIndex) NamesWithPrefix(ctx context.Context, prefix string, limit int) ([]string, error) {
	return x.nav().NamesWithPrefix(ctx, prefix, limit)
}

// Definitions returns the definitions named name.
func (x *SearchIndex) Definitions(ctx context.Context, name string) ([]nav.Def, error) {
	return x.nav().Definitions(ctx, name)
}

// Definition returns the symbol with the id id (nil if none).
func (x *SearchIndex) Definition(ctx context.Context, id string) (*nav.Def, error) {
	return x.nav().Definition(ctx, id)
}

// DefinitionAt returns the innermost definition holding path:line (nil if none).
func (x *SearchIndex) DefinitionAt(ctx context.Context, path string, line int) (*nav.Def, error) {
	return x.nav().DefinitionAt(ctx, path, line)
}

// ExportFiles writes each file the index in indexDir holds, as it was indexed, under dest
// at its workspace-relative path (mode 0600): what a cluster's node builds one index of a
// compound shard's repositories from, each in a directory of its own.
func ExportFiles(ctx context.Context, indexDir, dest string) error {
	st, err := store.Open(StorePath(indexDir))
	if err != nil {
		return err
	}
	defer st.Close()
	return st.FileDocs(ctx, func(p, _ string, content []byte) error {
		if !filepath.IsLocal(filepath.FromSlash(p)) {
			return fmt.Errorf("index %s holds a path outside its workspace: %q", indexDir, p)
		}
		to := filepath.Join(dest, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
			return err
		}
		return os.WriteFile(to, content, 0o600)
	})
}

// MovedSymbolID returns the id the symbol id of the file at path has when the same content
// is at newPath (ids hash the path: extract.SymbolID), or "" when the file has no such
// symbol.
func (x *SearchIndex) MovedSymbolID(ctx context.Context, id, path, newPath string) (string, error) {
	syms, err := x.store.FileSymbols(ctx, path)
	if err != nil {
		return "", err
	}
	for _, s := range syms {
		if s.ID == id {
			k, _ := extract.KindNamed(s.Kind)
			return extract.SymbolID(newPath, k, s.Name, s.StartByte), nil
		}
	}
	return "", nil
}
