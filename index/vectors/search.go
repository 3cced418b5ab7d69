package vectors

// A vector search: every stored symbol vector of the current vectors_version, cached with
// the store and read again only for the files that changed, scored against the query's
// vector (a shortlist by sign bits, then the exact dot products).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/embed"
)

// vecCacheKey is the vecCache's key among the store's extensions.
type vecCacheKey struct{}

// vecs returns the store's vector cache.
func (s Set) vecs() *vecCache {
	return s.Extension(vecCacheKey{}, func() any { return new(vecCache) }).(*vecCache)
}

// vecCache holds what a vector search reads: the model and every symbol vector, for the
// vectors_version they are of.
type vecCache struct {
	mu       sync.Mutex
	loaded   bool
	version  string
	modelKey string       // what identifies the model row read (trained_on, size, start)
	model    *embed.Model // nil when an external embedder made the vectors
	ext      *Embedder    // that embedder: it embeds the queries too
	dim      int
	files    map[int64]*fileVecs // by file id: what ids, vecs and bits are made of
	ids      []string
	vecs     []int8   // len(ids) x dim
	bits     []uint64 // len(ids) x words: the signs of each vector (a 1 for each component > 0)
	words    int      // uint64s per vector in bits
}

// Hit is a symbol a vector search found, with its cosine to the query.
type Hit struct {
	ID    string
	Score float64
}

// ErrNoVectors is a vector search of a store whose vectors are not made (yet).
var ErrNoVectors = errors.New("index: the workspace has no symbol vectors yet: run quarry index")

// Search returns the limit symbols whose vectors are nearest to text's, best first
// (keep: which symbol ids may be returned; nil: all). A text none of whose words has a
// vector finds nothing.
func (s Set) Search(ctx context.Context, text string, limit int, keep func(id string) bool) ([]Hit, error) {
	c, err := s.vectors(ctx)
	if err != nil {
		return nil, err
	}
	var qv []float32
	if c.ext != nil {
		vs, err := c.ext.Embed(ctx, []string{text})
		if err != nil {
			return nil, err
		}
		if qv = vs[0]; len(qv) != c.dim {
			return nil, fmt.Errorf("%w: %s gave the query %d dimensions, the symbols %d: re-index", ErrEmbedder, c.ext.URL, len(qv), c.dim)
		}
	} else if qv = c.model.Embed(embed.Words(text), nil); qv == nil {
		return nil, nil
	}
	q := embed.Quantize(qv)
	dim := c.dim
	// Two steps: the Hamming distances of the vectors' signs to the query's pick the
	// vecShortlist nearest (a counting pass over bytes), whose exact dot products then rank
	// them; below vecExactBelow vectors every one is ranked exactly.
	var cand []int
	if len(c.ids) >= vecExactBelow && !vecAlwaysExact {
		cand = c.shortlist(q, max(vecShortlist, 20*limit))
	}
	parts := min(runtime.GOMAXPROCS(0), max(1, len(c.ids)/20000))
	tops := make([][]vecScored, parts)
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cand != nil {
				tops[p] = scanVectors(q, c.vecs, c.ids, dim, cand[p*len(cand)/parts:(p+1)*len(cand)/parts], 0, 0, limit, keep)
			} else {
				tops[p] = scanVectors(q, c.vecs, c.ids, dim, nil, p*len(c.ids)/parts, (p+1)*len(c.ids)/parts, limit, keep)
			}
		}()
	}
	wg.Wait()
	var top []vecScored
	for _, t := range tops {
		top = append(top, t...)
	}
	sortScored(top)
	if len(top) > limit {
		top = top[:limit]
	}
	out := make([]Hit, len(top))
	for i, t := range top {
		out[i] = Hit{ID: c.ids[t.i], Score: float64(t.s) / (127 * 127)}
	}
	return out, nil
}

// vecScored is a symbol vector's place and its dot product with the query.
type vecScored struct {
	i int
	s int32
}

func sortScored(t []vecScored) {
	sort.Slice(t, func(a, b int) bool { return t[a].s > t[b].s || t[a].s == t[b].s && t[a].i < t[b].i })
}

// Vector search settings.
const (
	vecShortlist  = 3000   // vectors ranked exactly after the signs' shortlist, at least
	vecExactBelow = 50_000 // fewer vectors than this are all ranked exactly
)

// vecAlwaysExact turns the shortlist off (tests compare the two).
var vecAlwaysExact = false

// signBits sets a bit of out for each component of v above 0.
func signBits(v []int8, out []uint64) {
	for k, x := range v {
		if x > 0 {
			out[k/64] |= 1 << (k % 64)
		}
	}
}

// shortlist returns the places of the n vectors (or a few more, at equal distance) whose
// signs differ least from q's.
func (c *vecCache) shortlist(q []int8, n int) []int {
	qb := make([]uint64, c.words)
	signBits(q, qb)
	dist := make([]uint8, len(c.ids))
	var hist [257]int
	for i := range c.ids {
		d := 0
		for w, x := range c.bits[i*c.words : (i+1)*c.words] {
			d += bits.OnesCount64(x ^ qb[w])
		}
		dist[i] = uint8(min(d, 255))
		hist[dist[i]]++
	}
	cut, sum := 0, 0
	for ; cut < len(hist) && sum+hist[cut] < n; cut++ {
		sum += hist[cut]
	}
	out := make([]int, 0, sum+hist[min(cut, 256)])
	for i, d := range dist {
		if int(d) <= cut {
			out = append(out, i)
		}
	}
	return out
}

// scanVectors returns the limit vectors nearest to q, best first, among those at places
// (or, places nil, in [lo, hi)).
func scanVectors(q, vecs []int8, ids []string, dim int, places []int, lo, hi, limit int, keep func(string) bool) []vecScored {
	var top []vecScored
	minTop := int32(math.MinInt32)
	n := hi - lo
	if places != nil {
		n = len(places)
	}
	for j := 0; j < n; j++ {
		i := lo + j
		if places != nil {
			i = places[j]
		}
		d := embed.DotInt8(q, vecs[i*dim:(i+1)*dim])
		if len(top) >= limit && d <= minTop {
			continue
		}
		if keep != nil && !keep(ids[i]) {
			continue
		}
		top = append(top, vecScored{i, d})
		if len(top) > 4*limit {
			sortScored(top)
			top = top[:limit]
			minTop = top[limit-1].s
		}
	}
	sortScored(top)
	return top[:min(limit, len(top))]
}

// HasVectors reports whether the store has a vector model.
func (s Set) HasVectors(ctx context.Context) (bool, error) {
	var n int
	err := s.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM vec_model`).Scan(&n)
	return n > 0, err
}

// Expansion's settings: a query word's nearest workspace terms taken as its lex variants.
const (
	ExpandPerWord  = 1   // the nearest terms kept for each query word
	ExpandMinScore = 0.5 // their least similarity to it (cosine of the terms' vectors)
	// ExpandMinFreq: a term kept is at least this share as frequent as the word it is near:
	// a rare token (an encoded blob, a one-off name) is often near a word by chance.
	ExpandMinFreq = 0.1
	// ExpandMedian: and at least this share as frequent as the model's median word.
	ExpandMedian = 0.5
)

// ExpandWords returns lex variants of text's words from the workspace's model: for each
// word the model knows, its ExpandPerWord nearest terms at ExpandMinScore or more that are
// not one of text's own words. None without a model, or when no word has a near term.
func (s Set) ExpandWords(ctx context.Context, text string) ([]string, error) {
	c, err := s.vectors(ctx)
	if errors.Is(err, ErrNoVectors) {
		return nil, nil
	}
	if err != nil || c.model == nil {
		return nil, err
	}
	words := embed.Words(text)
	own := map[string]bool{}
	for _, w := range words {
		own[w] = true
	}
	median := c.model.MedianFreq()
	var out []string
	for _, w := range words {
		n := 0
		for _, sw := range c.model.NearestScored(w, 8) {
			if n == ExpandPerWord || sw.Score < ExpandMinScore {
				break
			}
			if own[sw.Word] || len(sw.Word) < 3 || c.model.Freq(sw.Word) < max(ExpandMinFreq*c.model.Freq(w), ExpandMedian*median) {
				continue
			}
			own[sw.Word] = true
			out = append(out, sw.Word)
			n++
		}
	}
	return out, nil
}

// vectors returns the vectors of the store's current vectors_version. After a change it
// reads again only the model, if it changed, and the files whose vectors changed: an edit
// under a watcher costs the next vector search the changed files, not every vector.
func (s Set) vectors(ctx context.Context) (*vecCache, error) {
	version, err := s.Meta("vectors_version")
	if err != nil {
		return nil, err
	}
	c := s.vecs()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded && c.version == version {
		return c, nil
	}
	var modelKey string
	var trainedOn, size int
	err = s.DB().QueryRowContext(ctx, `SELECT trained_on, length(data), hex(substr(data, 1, 96)) FROM vec_model WHERE id = 1`).Scan(&trainedOn, &size, &modelKey)
	if errors.Is(err, sql.ErrNoRows) || err != nil && strings.Contains(err.Error(), "no such table") {
		return nil, ErrNoVectors
	}
	if err != nil {
		return nil, err
	}
	modelKey = fmt.Sprint(trainedOn, size, modelKey)
	if !c.loaded || modelKey != c.modelKey {
		c.model, c.ext, c.files = nil, nil, map[int64]*fileVecs{}
		if desc, err := s.storedExternal(ctx); err != nil {
			return nil, err
		} else if desc != nil {
			c.ext, c.dim = &Embedder{URL: desc.URL, Model: desc.Model, APIKeyEnv: desc.APIKeyEnv}, desc.Dim
		} else {
			m, _, err := s.vecModel(ctx)
			if err != nil {
				return nil, err
			}
			if m == nil {
				return nil, ErrNoVectors
			}
			c.model, c.dim = m, m.Dim
		}
		c.modelKey = modelKey
	}
	if err := s.readVectorFiles(ctx, c); err != nil {
		return nil, err
	}
	// The flat arrays the scan reads, from the files' vectors in file order.
	order := make([]int64, 0, len(c.files))
	n := 0
	for id, f := range c.files {
		order = append(order, id)
		n += len(f.ids)
	}
	sort.Slice(order, func(a, b int) bool { return order[a] < order[b] })
	c.words = (c.dim + 63) / 64
	c.ids, c.vecs, c.bits = make([]string, 0, n), make([]int8, 0, n*c.dim), make([]uint64, n*c.words)
	for _, id := range order {
		f := c.files[id]
		c.ids = append(c.ids, f.ids...)
		c.vecs = append(c.vecs, f.vecs...)
	}
	for i := range c.ids {
		signBits(c.vecs[i*c.dim:(i+1)*c.dim], c.bits[i*c.words:(i+1)*c.words])
	}
	c.version, c.loaded = version, true
	return c, nil
}

// fileVecs are the vectors of one file's definitions, as the cache holds them.
type fileVecs struct {
	hash string
	ids  []string
	vecs []int8
}

// readVectorFiles brings c.files in step with the store: the files whose hash changed are
// read again, those gone dropped.
func (s Set) readVectorFiles(ctx context.Context, c *vecCache) error {
	rows, err := s.DB().QueryContext(ctx, `SELECT file, hash FROM symbol_vectors`)
	if err != nil {
		return err
	}
	stored := map[int64]string{}
	for rows.Next() {
		var id int64
		var hash string
		if err := rows.Scan(&id, &hash); err != nil {
			rows.Close()
			return err
		}
		stored[id] = hash
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var changed []int64
	for id, hash := range stored {
		if f, ok := c.files[id]; !ok || f.hash != hash {
			changed = append(changed, id)
		}
	}
	for id := range c.files {
		if _, ok := stored[id]; !ok {
			delete(c.files, id)
		}
	}
	read := func(id int64, hash string, data []byte) error {
		f := &fileVecs{hash: hash}
		for len(data) > 0 {
			n := int(data[0])
			if len(data) < 1+n+c.dim {
				return fmt.Errorf("index: a symbol vector is damaged: re-index with --force")
			}
			f.ids = append(f.ids, string(data[1:1+n]))
			for _, x := range data[1+n : 1+n+c.dim] {
				f.vecs = append(f.vecs, int8(x))
			}
			data = data[1+n+c.dim:]
		}
		c.files[id] = f
		return nil
	}
	if len(changed) > len(stored)/4 { // most of them: one scan
		rows, err := s.DB().QueryContext(ctx, `SELECT file, hash, data FROM symbol_vectors`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var hash string
			var data []byte
			if err := rows.Scan(&id, &hash, &data); err != nil {
				return err
			}
			if f, ok := c.files[id]; ok && f.hash == hash {
				continue
			}
			if err := read(id, hash, data); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	for _, id := range changed {
		var hash string
		var data []byte
		if err := s.DB().QueryRowContext(ctx, `SELECT hash, data FROM symbol_vectors WHERE file = ?`, id).Scan(&hash, &data); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				continue // gone since the list was read
			}
			return err
		}
		if err := read(id, hash, data); err != nil {
			return err
		}
	}
	return nil
}

// vectorsVersion is for tests: the version of the vectors (a count of their changes).
func (s Set) vectorsVersion() int {
	v, _ := s.Meta("vectors_version")
	n, _ := strconv.Atoi(v)
	return n
}
