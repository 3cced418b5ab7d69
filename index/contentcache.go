package index

import (
	"container/list"
	"context"
	"sync"
)

// contentCache keeps the text of recently read files for a searcher, up to a number of
// bytes, least recently used out first. A resident searcher (the MCP server keeps an index
// open while an agent works) reads the same candidate files query after query; from SQLite
// each costs a cgo call and a copy (about 12 ms for the 549 candidates of one content regex
// on corpus.sh full).
type contentCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *cachedContent, most recent first
	byKey map[string]*list.Element
}

type cachedContent struct {
	path, lang string
	content    []byte
}

// contentCacheBytes is how much file text a searcher keeps.
const contentCacheBytes = 64 << 20

func newContentCache(max int) *contentCache {
	return &contentCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// fileContent returns the language and content of the stored file at path, from the cache
// when it holds it.
func (c *contentCache) fileContent(ctx context.Context, store *Store, path string) (string, []byte, error) {
	c.mu.Lock()
	if e, ok := c.byKey[path]; ok {
		c.order.MoveToFront(e)
		cc := e.Value.(*cachedContent)
		c.mu.Unlock()
		return cc.lang, cc.content, nil
	}
	c.mu.Unlock()
	lang, content, err := store.fileContent(ctx, path)
	if err != nil || content == nil || len(content) > c.max/4 { // a 9 MB amalgamation fits
		return lang, content, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[path]; !ok {
		c.byKey[path] = c.order.PushFront(&cachedContent{path: path, lang: lang, content: content})
		c.size += len(content)
		for c.size > c.max {
			last := c.order.Back()
			cc := last.Value.(*cachedContent)
			c.order.Remove(last)
			delete(c.byKey, cc.path)
			c.size -= len(cc.content)
		}
	}
	return lang, content, nil
}
