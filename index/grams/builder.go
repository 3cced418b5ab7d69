package grams

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
)

// Builder builds one segment in memory: Add documents, then Write them. It keeps no text,
// and nothing per key: the keys are cut into buckets of 1<<bucketBits (512 buckets of 65,536
// keys), and Add appends each document's distinct keys, a group a bucket, to the buckets'
// streams: uint16 words in an arena of chained chunks, written in order, no allocation per
// document. Write turns each bucket's stream into the posting lists of its keys by a
// counting sort. So every write and read goes to one of a few hundred sequential streams or
// to tables that fit a core's cache. A list per key, the builder's first design, costs
// cache misses per key and per posting once there are 4-grams: with a page table or a hash
// table over the keys it built 4 to 6 times slower than with trigrams alone, this way 1.3
// times (see the package comment). A Builder is not safe for concurrent use.
//
// Its memory is the 4 MiB bitset, the arena (2 bytes per (document, key) pair, 4 or 8 per
// group of a document's keys in a bucket, plus the chunks' links and slack, in 1 MiB
// blocks), the largest document's keys (6 bytes each, at most 2 a byte of text) and the
// paths; Write adds 256 KiB, 4 bytes per document and the largest bucket's stream and
// pairs, and the segment writer 8 bytes per key. Measured on the first 64 MiB of Go's own
// sources: see the package comment.
type Builder struct {
	seen    []uint64 // 1<<keyBits bits: the keys of the document being added
	keys    []uint32 // the distinct keys of the document being added, in order of first sight
	grouped []uint16 // the same keys' low bits, grouped by bucket
	count   []uint32 // nBuckets: the document's keys in each bucket
	buckets []bucket // nBuckets
	arena   arena
	docs    []bdoc            // by insertion number
	byPath  map[string]uint32 // path -> insertion number of its live document
	live    int
	bytes   int64
}

const (
	keyBits    = 25 // every key is below 1<<keyBits: trigrams below 1<<24, 4-grams above
	bucketBits = 16 // a bucket holds the keys that share their bits above the low bucketBits
	nBuckets   = 1 << (keyBits - bucketBits)
)

// bdoc is a document the builder holds.
type bdoc struct {
	path  string
	prior uint8
	dead  bool // replaced by a later Add of its path, or removed
}

// bucket is the stream of one bucket's groups, in the order of their documents: uint16
// words (little-endian) in a chain of arena chunks. A group is a document's keys in the
// bucket: their number - 1, the document (its insertion number + 1 less that of the
// bucket's previous group, or when that is above 0xFFFF, 0 then the number + 1 in two words,
// low first), then each key's low bucketBits bits.
type bucket struct {
	head  uint32 // arena offset of the first chunk
	pos   uint32 // where the next word goes
	end   uint32 // the end of the current chunk's words, followed by the link; 0: no chunk yet
	last  uint32 // the document of the last group + 1
	pairs uint32 // keys in the groups
	level uint8  // chunkSize[level] is the size of the current chunk's words
}

// chunkSize is the bytes of words of a bucket's chunks, by level: the first chunk is small
// (a small segment touches few keys of most buckets), each next one larger, up to 8 KiB with
// its link.
var chunkSize = [...]uint32{60, 124, 252, 508, 1020, 2044, 4092, 8188}

const (
	arenaBlockBits = 20
	arenaBlock     = 1 << arenaBlockBits // bytes of an arena block; no chunk crosses one
	linkLen        = 4                   // the link to the next chunk after a chunk's words
)

// arena is memory for stream chunks in blocks of arenaBlock bytes, addressed by uint32
// offsets: no growth copies.
type arena struct {
	blocks [][]byte
	used   uint32 // the offset of the next free byte
}

// alloc returns the offset of n free bytes (n <= arenaBlock), in one block. The offsets
// are uint32: a builder holds at most 4 GiB of streams, about 5 GiB of source text (the
// Writer flushes at FlushBytes, far below).
func (a *arena) alloc(n uint32) uint32 {
	if a.used&(arenaBlock-1)+n > arenaBlock {
		a.used = (a.used>>arenaBlockBits + 1) << arenaBlockBits
	}
	if a.used > ^uint32(0)-arenaBlock {
		panic("grams: a builder holds more than 4 GiB of key streams")
	}
	for uint32(len(a.blocks)) <= a.used>>arenaBlockBits {
		a.blocks = append(a.blocks, make([]byte, arenaBlock))
	}
	off := a.used
	a.used += n
	return off
}

// at returns the arena's bytes from off to the end of off's block.
func (a *arena) at(off uint32) []byte {
	return a.blocks[off>>arenaBlockBits][off&(arenaBlock-1):]
}

// reset empties the arena, keeping its blocks.
func (a *arena) reset() { a.used = 0 }

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{byPath: map[string]uint32{}}
}

// Docs returns the number of documents the builder holds (a path added twice counts once).
func (b *Builder) Docs() int { return b.live }

// Bytes returns the bytes of text added since the builder was last empty, replaced documents
// included: the measure of its memory for the caller's flush policy.
func (b *Builder) Bytes() int64 { return b.bytes }

// Add adds a document: its path, its prior and its text. prior orders documents, lower
// first (the caller's ranking prior, e.g. source before tests); a segment holds its
// documents sorted by (prior, path). A path added twice to one builder: the last one wins.
// content is not kept.
func (b *Builder) Add(path string, prior uint8, content []byte) {
	b.remove(path)
	doc := uint32(len(b.docs))
	b.docs = append(b.docs, bdoc{path: path, prior: prior})
	b.byPath[path] = doc
	b.live++
	b.bytes += int64(len(content))
	if len(content) < 3 {
		return
	}
	if b.seen == nil {
		b.seen = make([]uint64, 1<<keyBits/64)
		b.count = make([]uint32, nBuckets)
		b.buckets = make([]bucket, nBuckets)
	}
	b.gather(content)
	b.group(doc)
}

// gather sets b.keys to the distinct keys of content (at least 3 bytes long): its
// trigrams' and its identifier 4-grams' (wordByte).
func (b *Builder) gather(content []byte) {
	seen := b.seen[:1<<keyBits/64]
	keys := b.keys[:0]
	k := uint32(fold[content[0]])<<16 | uint32(fold[content[1]])<<8 | uint32(fold[content[2]])
	seen[k>>6] |= 1 << (k & 63)
	keys = append(keys, k)
	run := 0 // identifier bytes ending the trigram k
	for _, c := range content[:3] {
		if run++; !wordByte[fold[c]] {
			run = 0
		}
	}
	for _, c := range content[3:] {
		f := fold[c]
		g := k<<8 | uint32(f) // the 4-gram ending at c
		k = g & 0xFFFFFF      // the trigram ending at c
		if w, bit := k>>6, uint64(1)<<(k&63); seen[w]&bit == 0 {
			seen[w] |= bit
			keys = append(keys, k)
		}
		if run++; !wordByte[f] {
			run = 0
		}
		if run < 4 {
			continue // a 4-gram of identifier bytes only (wordByte)
		}
		k4 := gram4Key(g)
		if w, bit := k4>>6&(1<<keyBits/64-1), uint64(1)<<(k4&63); seen[w]&bit == 0 {
			seen[w] |= bit
			keys = append(keys, k4)
		}
	}
	for _, k := range keys {
		seen[k>>6] = 0 // every bit set is one of this document's
	}
	b.keys = keys
}

// group appends the keys of document doc, b.keys, to their buckets' streams: a counting
// sort by bucket, then a group a bucket.
func (b *Builder) group(doc uint32) {
	keys, count := b.keys, b.count[:nBuckets]
	for _, k := range keys {
		count[k>>bucketBits]++
	}
	sum := uint32(0)
	for j, n := range count {
		count[j] = sum // the start of bucket j's keys in grouped
		sum += n
	}
	grouped := slices.Grow(b.grouped[:0], len(keys))[:len(keys)]
	for _, k := range keys {
		j := k >> bucketBits
		grouped[count[j]] = uint16(k)
		count[j]++ // at last, the end of bucket j's keys
	}
	start := uint32(0)
	for j, end := range count {
		if end > start {
			b.putGroup(&b.buckets[j], doc, grouped[start:end])
		}
		start = end
		count[j] = 0
	}
	b.grouped = grouped
}

// putGroup appends the group of doc's keys (their low bits) to bk's stream.
func (b *Builder) putGroup(bk *bucket, doc uint32, keys []uint16) {
	hdr := [4]uint16{uint16(len(keys) - 1)}
	n := 2
	if d := doc + 1 - bk.last; d <= 0xFFFF {
		hdr[1] = uint16(d)
	} else {
		hdr[1], hdr[2], hdr[3] = 0, uint16(doc+1), uint16((doc+1)>>16)
		n = 4
	}
	bk.last = doc + 1
	bk.pairs += uint32(len(keys))
	b.put(bk, hdr[:n])
	b.put(bk, keys)
}

// put appends words to bk's stream.
func (b *Builder) put(bk *bucket, words []uint16) {
	for len(words) > 0 {
		if bk.pos == bk.end {
			b.nextChunk(bk)
		}
		dst := b.arena.at(bk.pos)[:bk.end-bk.pos]
		n := min(len(words), len(dst)/2)
		for i, w := range words[:n] {
			binary.LittleEndian.PutUint16(dst[2*i:], w)
		}
		bk.pos += uint32(2 * n)
		words = words[n:]
	}
}

// nextChunk gives bk a new chunk, its first or the next after its full one.
func (b *Builder) nextChunk(bk *bucket) {
	lvl := 0
	if bk.end != 0 {
		lvl = min(int(bk.level)+1, len(chunkSize)-1)
	}
	off := b.arena.alloc(chunkSize[lvl] + linkLen)
	if bk.end == 0 {
		bk.head = off
	} else {
		binary.LittleEndian.PutUint32(b.arena.at(bk.end), off)
	}
	bk.pos, bk.end, bk.level = off, off+chunkSize[lvl], uint8(lvl)
}

// stream appends the bytes of bk's stream to dst.
func (b *Builder) stream(bk *bucket, dst []byte) []byte {
	if bk.end == 0 {
		return dst
	}
	off, lvl := bk.head, 0
	for {
		end := off + chunkSize[lvl]
		if end == bk.end { // the current chunk
			return append(dst, b.arena.at(off)[:bk.pos-off]...)
		}
		dst = append(dst, b.arena.at(off)[:end-off]...)
		off = binary.LittleEndian.Uint32(b.arena.at(end))
		lvl = min(lvl+1, len(chunkSize)-1)
	}
}

// groups reads a bucket's stream: each group's document (insertion number) and keys.
type groups struct {
	words []byte
	doc   uint32 // the last group's document + 1
}

// next returns the next group's document and its keys' low bits (uint16 little-endian),
// or ok false at the end of the stream.
func (g *groups) next() (doc uint32, keys []byte, ok bool) {
	w := g.words
	if len(w) < 4 {
		return 0, nil, false
	}
	n := 2 * (int(binary.LittleEndian.Uint16(w)) + 1)
	if d := binary.LittleEndian.Uint16(w[2:]); d != 0 {
		g.doc += uint32(d)
		w = w[4:]
	} else {
		g.doc = binary.LittleEndian.Uint32(w[4:])
		w = w[8:]
	}
	keys, g.words = w[:n], w[n:]
	return g.doc - 1, keys, true
}

// remove marks the live document of path, if any, dead and reports whether there was one.
func (b *Builder) remove(path string) bool {
	old, ok := b.byPath[path]
	if !ok {
		return false
	}
	b.docs[old].dead = true
	delete(b.byPath, path)
	b.live--
	return true
}

// Write writes the segment of the builder's documents to dir/name: to a temporary file in
// dir, fsync'ed, mode 0600, renamed to name, then the directory fsync'ed. It returns the
// segment's description. The builder is empty afterwards, ready for reuse; after an error
// it still holds its documents.
func (b *Builder) Write(dir, name string) (SegmentInfo, error) {
	// The segment's order: live documents by (prior, path).
	order := make([]uint32, 0, b.live)
	for i, d := range b.docs {
		if !d.dead {
			order = append(order, uint32(i))
		}
	}
	slices.SortFunc(order, func(x, y uint32) int {
		dx, dy := &b.docs[x], &b.docs[y]
		if c := cmp.Compare(dx.prior, dy.prior); c != 0 {
			return c
		}
		return cmp.Compare(dx.path, dy.path)
	})
	w, err := createSegment(dir, name)
	if err != nil {
		return SegmentInfo{}, err
	}
	defer w.abort()
	paths := make([]string, len(order))
	priors := make([]uint8, len(order))
	for n, i := range order {
		paths[n], priors[n] = b.docs[i].path, b.docs[i].prior
	}
	if err := w.writeDocs(paths, priors); err != nil {
		return SegmentInfo{}, err
	}
	if err := b.writePostings(w, order); err != nil {
		return SegmentInfo{}, err
	}
	info, err := w.finish()
	if err != nil {
		return SegmentInfo{}, err
	}
	b.reset()
	return info, nil
}

// writePostings writes the posting of every key, in key order, the segment's documents
// being the live ones in order (insertion numbers). A bucket at a time: a counting sort of
// its stream's keys, its groups taken in the segment's order so that each key's documents
// come out in order.
func (b *Builder) writePostings(w *segWriter, order []uint32) error {
	v := &inverter{ends: make([]uint32, 1<<bucketBits), at: make([]uint32, len(b.docs))}
	for j := range b.buckets {
		bk := &b.buckets[j]
		if bk.pairs == 0 {
			continue
		}
		v.words = b.stream(bk, v.words[:0])
		v.count(b.docs)
		v.scatter(order)
		if err := v.emit(w, uint32(j)<<bucketBits); err != nil {
			return err
		}
	}
	return nil
}

// inverter turns a bucket's stream into its keys' posting lists: Write's scratch.
type inverter struct {
	words   []byte                       // the bucket's stream
	byKey   []uint32                     // the bucket's documents (segment numbers), by key
	ends    []uint32                     // 1<<bucketBits: where each key's documents end in byKey
	touched [1 << bucketBits / 64]uint64 // the keys of the bucket's groups
	at      []uint32                     // by insertion number: its group's offset in words + 1, or 0
}

// count reads the groups of the live documents: each key's documents in ends, the keys in
// touched, where each group is in at. ends and touched are zero before.
func (v *inverter) count(docs []bdoc) {
	g := groups{words: v.words}
	for {
		off := len(v.words) - len(g.words)
		doc, keys, ok := g.next()
		if !ok {
			break
		}
		if docs[doc].dead {
			continue
		}
		v.at[doc] = uint32(off) + 1
		for i := 0; i < len(keys); i += 2 {
			k := binary.LittleEndian.Uint16(keys[i:])
			v.ends[k]++
			v.touched[k>>6] |= 1 << (k & 63)
		}
	}
}

// scatter puts the documents of the counted groups in byKey, a key's in the segment's order
// (order lists the insertion numbers): ends becomes each key's end in byKey, at zero again.
func (v *inverter) scatter(order []uint32) {
	sum := uint32(0)
	for w, x := range v.touched {
		for ; x != 0; x &= x - 1 {
			k := w<<6 | bits.TrailingZeros64(x)
			n := v.ends[k]
			v.ends[k] = sum // the start of key k's documents
			sum += n
		}
	}
	v.byKey = slices.Grow(v.byKey[:0], int(sum))[:sum]
	for n, i := range order {
		if v.at[i] == 0 {
			continue
		}
		g := groups{words: v.words[v.at[i]-1:]}
		_, keys, _ := g.next()
		v.at[i] = 0
		for i := 0; i < len(keys); i += 2 {
			k := binary.LittleEndian.Uint16(keys[i:])
			v.byKey[v.ends[k]] = uint32(n)
			v.ends[k]++
		}
	}
}

// emit writes the posting of each key of the bucket whose keys start at base, in key order,
// and zeroes ends and touched.
func (v *inverter) emit(w *segWriter, base uint32) error {
	start := uint32(0)
	for i, x := range v.touched {
		v.touched[i] = 0
		for ; x != 0; x &= x - 1 {
			k := i<<6 | bits.TrailingZeros64(x)
			end := v.ends[k]
			v.ends[k] = 0
			if err := w.writePosting(base|uint32(k), v.byKey[start:end]); err != nil {
				return err
			}
			start = end
		}
	}
	return nil
}

// sortDocs sorts a posting list of distinct documents of a segment, scratch a zeroed bitset
// of its documents: by comparisons when short, else by the bitset (see sortByBits). A merge
// sorts with it the union of its inputs' lists. Measured when Write sorted its lists too,
// on 64 MiB of Go sources, whose priors (tests 1, the rest 0) interleave so that most lists
// needed sorting: Write took 150 ms, against 260 ms with slices.Sort alone.
func sortDocs(docs []uint32, scratch []uint64) {
	if len(docs) <= 16 {
		slices.Sort(docs)
	} else {
		sortByBits(docs, scratch)
	}
}

// reset empties the builder, keeping its memory.
func (b *Builder) reset() {
	clear(b.buckets)
	b.arena.reset()
	b.docs = b.docs[:0]
	clear(b.byPath)
	b.live = 0
	b.bytes = 0
}

// noDoc marks a document that is not in a segment being written (replaced, deleted).
const noDoc = ^uint32(0)
