package search

import (
	"container/list"
	"context"
	"sync"

	"github.com/quarrysearch/quarry/index/store"
)

// contentCache keeps the text of recently read files for a searcher, up to a number of
// bytes, least recently used out first. A resident searcher (the MCP server keeps an index
// open while an agent works) reads the same candidate files query after query; from SQLite
// each costs a cgo call and a copy (about 12 ms for the 549 candidates of one content regex
// on corpus.sh full).
//
// The text is kept for the store generation it was read at: a search reads the generation
// once, when it starts (Searcher.Search puts it in its context), and a cache of an older
// generation is emptied before it serves anything. An index run lends its searcher to the
// searches of its process while it commits batches (workspace.IndexOptions.Serve): without
// the generation, a file read before a batch that moved its lines answered with its old
// text at its old line numbers, while its stored size and time already matched the disk
// (so nothing marked it stale).
type contentCache struct {
	mu    sync.Mutex
	max   int
	size  int
	gen   int64      // the store generation the cached text is of
	order *list.List // of *cachedContent, most recent first
	byKey map[string]*list.Element
}

// genKey is the context key of the store generation a search started at.
type genKey struct{}

// atGeneration returns ctx for a search that started at the store's generation gen: the
// content cache serves it text read at gen, or reads anew.
func atGeneration(ctx context.Context, gen int64) context.Context {
	return context.WithValue(ctx, genKey{}, gen)
}

// AtGeneration returns ctx for Searcher.Search by a caller that read the store's generation
// gen just before: the search reads it no second time.
func AtGeneration(ctx context.Context, gen int64) context.Context { return atGeneration(ctx, gen) }

type cachedContent struct {
	path, lang string
	content    []byte
	// lower is content with ASCII letters lower-cased (asciiLower): a literal's
	// occurrences, but for the case of ASCII letters, are found in it by bytes.Index,
	// several times faster than a case-folding scan of content (useState's 80 candidates
	// that do not hold it took 8 of a warm search's 12 ms on corpus.sh full).
	lower []byte
	// chunks is lower's chunk filter (chunkfilter.go).
	chunks chunkFilter
}

// contentCacheBytes is how much file text a searcher keeps, the lower-cased copies and
// chunk filters counted (a file a literal search read takes 2.25 times its size).
const contentCacheBytes = 96 << 20

func newContentCache(max int) *contentCache {
	return &contentCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// fileContent returns the language and content of the stored file at path, from the cache
// when it holds it for the generation the search started at (atGeneration). Without one,
// or for a search that started before the cache's generation, the store is read and
// nothing is kept.
func (c *contentCache) fileContent(ctx context.Context, store *store.Store, path string) (string, []byte, error) {
	t, err := c.text(ctx, store, path, false)
	return t.lang, t.content, err
}

// cachedText is a file's text as fileText returns it: its lower-cased copy and chunk
// filter only when the cache keeps the file.
type cachedText struct {
	lang           string
	content, lower []byte
	chunks         chunkFilter
}

// fileText is fileContent with the content's lower-cased copy and chunk filter when the
// cache keeps the file: made the first time a literal search asks (a regex search, which
// does not use them, does not pay for them).
func (c *contentCache) fileText(ctx context.Context, store *store.Store, path string) (cachedText, error) {
	return c.text(ctx, store, path, true)
}

func (c *contentCache) text(ctx context.Context, store *store.Store, path string, folded bool) (cachedText, error) {
	gen, ok := ctx.Value(genKey{}).(int64)
	if !ok {
		lang, content, err := store.FileContent(ctx, path)
		return cachedText{lang: lang, content: content}, err
	}
	c.mu.Lock()
	if gen > c.gen {
		// A batch committed since the cached text was read: any of it may be old.
		c.gen, c.size = gen, 0
		c.order.Init()
		clear(c.byKey)
	}
	if gen < c.gen {
		c.mu.Unlock()
		lang, content, err := store.FileContent(ctx, path)
		return cachedText{lang: lang, content: content}, err
	}
	if e, ok := c.byKey[path]; ok {
		c.order.MoveToFront(e)
		cc := e.Value.(*cachedContent)
		t := cachedText{cc.lang, cc.content, cc.lower, cc.chunks}
		c.mu.Unlock()
		if folded && t.lower == nil {
			t.lower, t.chunks = foldedCopy(t.content)
			c.mu.Lock()
			if c.byKey[path] == e && cc.lower == nil { // still cached, and not folded meanwhile
				cc.lower, cc.chunks = t.lower, t.chunks
				c.size += cachedBytes(nil, t.lower, t.chunks)
				c.evict()
			}
			c.mu.Unlock()
		}
		return t, nil
	}
	c.mu.Unlock()
	lang, content, err := store.FileContent(ctx, path)
	if err != nil || content == nil || len(content) > c.max/4 { // a 9 MB amalgamation fits
		return cachedText{lang: lang, content: content}, err
	}
	t := cachedText{lang: lang, content: content}
	if folded {
		t.lower, t.chunks = foldedCopy(content)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Read after the search's generation was: text of gen or later. Kept only while the
	// cache is still of gen (a later search may have moved it on meanwhile).
	if _, ok := c.byKey[path]; !ok && c.gen == gen {
		c.byKey[path] = c.order.PushFront(&cachedContent{path: path, lang: lang, content: content, lower: t.lower, chunks: t.chunks})
		c.size += cachedBytes(content, t.lower, t.chunks)
		c.evict()
	}
	return t, nil
}

// evict drops the least recently used files while the cache holds more than its bytes.
// The caller holds mu.
func (c *contentCache) evict() {
	for c.size > c.max && c.order.Len() > 1 {
		last := c.order.Back()
		cc := last.Value.(*cachedContent)
		c.order.Remove(last)
		delete(c.byKey, cc.path)
		c.size -= cachedBytes(cc.content, cc.lower, cc.chunks)
	}
}

// foldedCopy returns content's lower-cased copy and, for a file of minChunkedBytes or
// more, its chunk filter.
func foldedCopy(content []byte) ([]byte, chunkFilter) {
	lower := asciiLower(make([]byte, 0, len(content)), content)
	if len(lower) < minChunkedBytes {
		return lower, nil
	}
	return lower, newChunkFilter(lower)
}

// cachedBytes is what the cache counts for a file it keeps.
func cachedBytes(content, lower []byte, chunks chunkFilter) int {
	return len(content) + len(lower) + 8*len(chunks)
}
