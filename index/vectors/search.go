package vectors

// A vector search: every stored vector of the current vectors_version, cached with the
// store and read again only for the files that changed, scored against the query's vector
// (a shortlist by sign bits, then the exact dot products). A symbol may have two vectors
// (its code's and its doc comment's): it scores the better of the two.

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/codemodel"
)

// vecCacheKey is the vecCache's key among the store's extensions.
type vecCacheKey struct{}

// vecs returns the store's vector cache.
func (s Set) vecs() *vecCache {
	return s.Extension(vecCacheKey{}, func() any { return new(vecCache) }).(*vecCache)
}

// vecCache holds what a vector search reads: the model and every vector, for the
// vectors_version they are of.
type vecCache struct {
	mu      sync.Mutex
	loaded  bool
	version string
	row     string           // the vec_model row the vectors were made by
	model   *codemodel.Model // nil when an external embedder made the vectors
	ext     *Embedder        // that embedder: it embeds the queries too
	dim     int
	files   map[int64]*fileVecs // by file id: what the flat arrays are made of
	ids     []string            // symbols
	owner   []int32             // per vector: its symbol's place in ids
	doc     []bool              // per vector: a doc comment's (else a code vector)
	scales  []float32           // per vector: its values are q * scale
	vecs    []int8              // len(owner) x dim
	bits    []uint64            // len(owner) x words: the signs of each vector (a 1 for each component > 0)
	words   int                 // uint64s per vector in bits
}

// Hit is a symbol a vector search found, with its cosine to the query.
type Hit struct {
	ID    string
	Score float64
	// Doc says the score is its doc comment's vector's (else its code vector's).
	Doc bool
}

// ErrNoVectors is a vector search of a store whose vectors are not made (yet).
var ErrNoVectors = errors.New("index: the workspace has no symbol vectors yet: run quarry index")

// Search returns the limit symbols whose vectors are nearest to text's, best first
// (keep: which symbol ids may be returned; nil: all). A text none of whose words the model
// knows finds nothing.
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
	} else if qv = c.model.EncodeQuery(atoms(text)); qv == nil {
		return nil, nil
	}
	q, qs := codemodel.Quantize(qv)
	if qs == 0 || limit <= 0 {
		return nil, nil
	}
	// Two steps: the Hamming distances of the vectors' signs to the query's pick the
	// vecShortlist nearest (a counting pass over bytes), whose exact dot products then rank
	// them; below vecExactBelow vectors every one is ranked exactly. A symbol with two
	// vectors may come twice: twice the limit is ranked, then each symbol kept once.
	want := 2 * limit
	var cand []int
	if len(c.owner) >= vecExactBelow && !vecAlwaysExact {
		cand = c.shortlist(q, max(vecShortlist, 20*want))
	}
	keepVec := func(i int) bool { return keep == nil || keep(c.ids[c.owner[i]]) }
	parts := min(runtime.GOMAXPROCS(0), max(1, len(c.owner)/20000))
	tops := make([][]vecScored, parts)
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cand != nil {
				tops[p] = c.scan(q, cand[p*len(cand)/parts:(p+1)*len(cand)/parts], 0, 0, want, keepVec)
			} else {
				tops[p] = c.scan(q, nil, p*len(c.owner)/parts, (p+1)*len(c.owner)/parts, want, keepVec)
			}
		}()
	}
	wg.Wait()
	var top []vecScored
	for _, t := range tops {
		top = append(top, t...)
	}
	sortScored(top)
	out := make([]Hit, 0, limit)
	seen := make(map[int32]bool, len(top))
	for _, t := range top {
		o := c.owner[t.i]
		if seen[o] {
			continue
		}
		seen[o] = true
		out = append(out, Hit{ID: c.ids[o], Score: float64(t.s * qs), Doc: c.doc[t.i]})
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

// vecScored is a vector's place and its dot product with the query (over the query's scale).
type vecScored struct {
	i int
	s float32
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
	dist := make([]uint8, len(c.owner))
	var hist [257]int
	for i := range c.owner {
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

// scan returns the limit vectors nearest to q, best first, among those at places (or,
// places nil, in [lo, hi)) that keep admits.
func (c *vecCache) scan(q []int8, places []int, lo, hi, limit int, keep func(int) bool) []vecScored {
	var top []vecScored
	minTop := float32(math.Inf(-1))
	n := hi - lo
	if places != nil {
		n = len(places)
	}
	dim := c.dim
	for j := 0; j < n; j++ {
		i := lo + j
		if places != nil {
			i = places[j]
		}
		d := float32(codemodel.DotInt8(q, c.vecs[i*dim:(i+1)*dim])) * c.scales[i]
		if len(top) >= limit && d <= minTop {
			continue
		}
		if !keep(i) {
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

// Expansion settings: an expand: line's variants are the words most common in the names of
// the definitions nearest to the question.
const (
	expandNearest = 10 // the nearest definitions read
	expandMinUses = 2  // the fewest of their names a variant is in
)

// ExpandWords returns the candidates of an expand: line's variants, most common first: the
// words (codemodel.Words) of the names of the expandNearest definitions nearest to text that
// at least expandMinUses of them hold and text does not. None when there are no vectors yet.
func (s Set) ExpandWords(ctx context.Context, text string) ([]string, error) {
	found, err := s.Search(ctx, text, expandNearest, nil)
	if errors.Is(err, ErrNoVectors) {
		return nil, nil
	}
	if err != nil || len(found) == 0 {
		return nil, err
	}
	own := map[string]bool{}
	for _, w := range codemodel.Words(atoms(text), codemodel.MaxTextWords) {
		own[w] = true
	}
	args := make([]any, len(found))
	for i, f := range found {
		args[i] = f.ID
	}
	rows, err := s.DB().QueryContext(ctx, `SELECT id, name FROM symbols WHERE id IN (?`+strings.Repeat(",?", len(args)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return nil, err
		}
		names[id] = name
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	uses := map[string]int{}
	var order []string
	for _, f := range found { // nearest first: ties keep that order
		seen := map[string]bool{}
		for _, w := range codemodel.Words(atoms(names[f.ID]), codemodel.MaxTextWords) {
			if own[w] || seen[w] || len(w) < 3 {
				continue
			}
			seen[w] = true
			if uses[w] == 0 {
				order = append(order, w)
			}
			uses[w]++
		}
	}
	var out []string
	for _, w := range order {
		if uses[w] >= expandMinUses {
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return uses[out[a]] > uses[out[b]] })
	return out, nil
}

// vectors returns the vectors of the store's current vectors_version. After a change it
// reads again only the files whose vectors changed (and every one when the model row
// changed): an edit under a watcher costs the next vector search the changed files, not
// every vector.
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
	row, err := s.storedModel(ctx)
	if err != nil {
		return nil, err
	}
	if row == nil {
		return nil, ErrNoVectors
	}
	if !c.loaded || string(row) != c.row {
		c.model, c.ext, c.files = nil, nil, map[int64]*fileVecs{}
		ext, err := external(row)
		switch {
		case err != nil:
			return nil, err
		case ext != nil:
			c.ext, c.dim = &Embedder{URL: ext.URL, Model: ext.Model, APIKeyEnv: ext.APIKeyEnv}, ext.Dim
		default:
			m, err := codemodel.Shipped()
			if err != nil {
				return nil, fmt.Errorf("index: the code-search model built into quarry: %w", err)
			}
			if string(row) != modelRow(m) {
				// Made by another model (an index of another build): not comparable.
				return nil, fmt.Errorf("%w (its vectors are another model's)", ErrNoVectors)
			}
			c.model, c.dim = m, m.Dim()
		}
		c.row = string(row)
	}
	if err := s.readVectorFiles(ctx, c); err != nil {
		return nil, err
	}
	c.flatten()
	c.version, c.loaded = version, true
	return c, nil
}

// flatten lays the files' vectors out in the flat arrays the scan reads, in file order.
func (c *vecCache) flatten() {
	order := make([]int64, 0, len(c.files))
	syms, n := 0, 0
	for id, f := range c.files {
		order = append(order, id)
		syms += len(f.ids)
		n += len(f.owner)
	}
	sort.Slice(order, func(a, b int) bool { return order[a] < order[b] })
	c.words = (c.dim + 63) / 64
	c.ids, c.owner, c.doc = make([]string, 0, syms), make([]int32, 0, n), make([]bool, 0, n)
	c.scales, c.vecs, c.bits = make([]float32, 0, n), make([]int8, 0, n*c.dim), make([]uint64, n*c.words)
	for _, id := range order {
		f := c.files[id]
		base := int32(len(c.ids))
		c.ids = append(c.ids, f.ids...)
		for _, o := range f.owner {
			c.owner = append(c.owner, base+o)
		}
		c.doc = append(c.doc, f.doc...)
		c.scales = append(c.scales, f.scales...)
		c.vecs = append(c.vecs, f.vecs...)
	}
	for i := range c.owner {
		signBits(c.vecs[i*c.dim:(i+1)*c.dim], c.bits[i*c.words:(i+1)*c.words])
	}
}

// fileVecs are the vectors of one file's definitions, as the cache holds them.
type fileVecs struct {
	hash   string
	ids    []string
	owner  []int32 // per vector: its symbol's place in ids
	doc    []bool
	scales []float32
	vecs   []int8
}

// errDamaged is a symbol_vectors blob that cannot be read.
var errDamaged = errors.New("index: a symbol vector is damaged: re-index with --force")

// decodeFileVecs reads a file's blob of entries (appendEntry) of dim-long vectors.
func decodeFileVecs(hash string, data []byte, dim int) (*fileVecs, error) {
	f := &fileVecs{hash: hash}
	for len(data) > 0 {
		n := int(data[0])
		if len(data) < 2+n {
			return nil, errDamaged
		}
		id, flags := string(data[1:1+n]), data[1+n]
		data = data[2+n:]
		if flags == 0 || flags&^(entryCode|entryDoc) != 0 {
			return nil, errDamaged
		}
		f.ids = append(f.ids, id)
		for _, kind := range []byte{entryCode, entryDoc} {
			if flags&kind == 0 {
				continue
			}
			if len(data) < 4+dim {
				return nil, errDamaged
			}
			f.owner = append(f.owner, int32(len(f.ids)-1))
			f.doc = append(f.doc, kind == entryDoc)
			f.scales = append(f.scales, math.Float32frombits(binary.LittleEndian.Uint32(data)))
			for _, x := range data[4 : 4+dim] {
				f.vecs = append(f.vecs, int8(x))
			}
			data = data[4+dim:]
		}
	}
	return f, nil
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
		f, err := decodeFileVecs(hash, data, c.dim)
		if err != nil {
			return err
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
