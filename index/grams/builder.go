package grams

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// Builder builds one segment in memory: Add documents, then Write them. It keeps no text:
// per trigram, the list of documents holding it, as delta varints in an arena of chained
// chunks (no allocation per document or per posting). A Builder is not safe for concurrent
// use.
//
// Its memory is the 2 MiB bitset, a 256 KiB page table, 1 KiB per page of 256 trigram keys
// in use, 24 bytes per distinct trigram, the arena (about a byte per (document, trigram)
// pair plus the chunks' links and slack, in 1 MiB blocks) and the paths. Measured on the
// first 64 MiB of Go's own sources (TestBuilderMemory): 26 MiB after the last Add, at most
// 35 MiB during Write.
type Builder struct {
	seen   []uint64 // 1<<24 bits: the trigrams of the document being added
	keys   []uint32 // the distinct trigrams of the document being added, in order of first sight
	pageOf []uint32 // 1<<16: by a key's upper 16 bits, the number of its page + 1, or 0
	pages  []uint32 // 256 entries a page: by a key's low 8 bits, its slot number + 1, or 0
	slots  []slot
	arena  arena
	docs   []bdoc            // by insertion number
	byPath map[string]uint32 // path -> insertion number of its live document
	live   int
	bytes  int64
}

// bdoc is a document the builder holds.
type bdoc struct {
	path  string
	prior uint8
	dead  bool // replaced by a later Add of its path, or removed
}

// slot is one trigram's posting list: delta varints in a chain of arena chunks. The first
// value is the first document + 1, each next the difference with the previous document
// (>= 1), so no value starts with a zero byte and zero bytes (the arena's fill) mark where a
// chunk's values end.
type slot struct {
	head  uint32 // arena offset of the first chunk
	pos   uint32 // where the next value goes
	end   uint32 // the end of the current chunk's values; the link to the next chunk follows
	last  uint32 // the last document added + 1
	n     uint32 // values in the list
	level uint8  // chunkSize[level] is the size of the current chunk's values
}

// chunkSize is the size of the values of a slot's chunks, by level: the first chunk is small
// (most trigrams are in few documents), each next one larger, up to 512 bytes.
var chunkSize = [...]uint32{4, 8, 16, 32, 64, 128, 256, 512}

const (
	arenaBlockBits = 20
	arenaBlock     = 1 << arenaBlockBits // bytes of an arena block; no chunk crosses one
	linkLen        = 4                   // the link to the next chunk after a chunk's values
)

// arena is memory for slot chunks in blocks of arenaBlock bytes, addressed by uint32 offsets:
// no growth copies, and zero-filled (a block is cleared before reuse).
type arena struct {
	blocks [][]byte
	used   uint32 // the offset of the next free byte
}

// alloc returns the offset of n free zero bytes (n <= arenaBlock), in one block. The
// offsets are uint32: a builder holds at most 4 GiB of postings, about 8 GiB of source text
// (the Writer flushes at FlushBytes, far below).
func (a *arena) alloc(n uint32) uint32 {
	if a.used&(arenaBlock-1)+n > arenaBlock {
		a.used = (a.used>>arenaBlockBits + 1) << arenaBlockBits
	}
	if a.used > ^uint32(0)-arenaBlock {
		panic("grams: a builder holds more than 4 GiB of postings")
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

// reset empties the arena, keeping and clearing its blocks.
func (a *arena) reset() {
	last := int((a.used + arenaBlock - 1) >> arenaBlockBits)
	for _, b := range a.blocks[:min(last, len(a.blocks))] {
		clear(b)
	}
	a.used = 0
}

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
		b.seen = make([]uint64, 1<<24/64)
		b.pageOf = make([]uint32, 1<<16)
	}
	seen := b.seen[:1<<24/64]
	keys := b.keys[:0]
	k := uint32(fold[content[0]])<<8 | uint32(fold[content[1]])
	for _, c := range content[2:] {
		k = (k<<8 | uint32(fold[c])) & 0xFFFFFF
		w, bit := k>>6, uint64(1)<<(k&63)
		if seen[w]&bit == 0 {
			seen[w] |= bit
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		seen[k>>6] = 0 // every bit set is one of this document's
	}
	for _, k := range keys {
		b.post(k, doc)
	}
	b.keys = keys
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

// post appends doc to the posting list of trigram k.
func (b *Builder) post(k uint32, doc uint32) {
	pg := b.pageOf[k>>8]
	if pg == 0 {
		b.pages = append(b.pages, make([]uint32, 256)...)
		pg = uint32(len(b.pages) / 256)
		b.pageOf[k>>8] = pg
	}
	sp := &b.pages[(pg-1)*256+k&255]
	if *sp == 0 {
		off := b.arena.alloc(chunkSize[0] + linkLen)
		b.slots = append(b.slots, slot{head: off, pos: off, end: off + chunkSize[0]})
		*sp = uint32(len(b.slots))
	}
	s := &b.slots[*sp-1]
	v := doc + 1 - s.last
	s.last = doc + 1
	s.n++
	n := uint32(1)
	for x := v >> 7; x != 0; x >>= 7 {
		n++
	}
	if s.pos+n > s.end {
		lvl := min(int(s.level)+1, len(chunkSize)-1)
		off := b.arena.alloc(chunkSize[lvl] + linkLen)
		binary.LittleEndian.PutUint32(b.arena.at(s.end), off)
		s.pos, s.end, s.level = off, off+chunkSize[lvl], uint8(lvl)
	}
	if v < 0x80 {
		b.arena.at(s.pos)[0] = byte(v)
	} else {
		binary.PutUvarint(b.arena.at(s.pos), uint64(v))
	}
	s.pos += n
}

// list appends the documents of s (insertion numbers, increasing) to dst.
func (b *Builder) list(s *slot, dst []uint32) []uint32 {
	off, end, lvl := s.head, s.head+chunkSize[0], 0
	doc := uint32(0) // the last document + 1
	for range s.n {
		if off >= end || b.arena.at(off)[0] == 0 {
			next := binary.LittleEndian.Uint32(b.arena.at(end))
			lvl = min(lvl+1, len(chunkSize)-1)
			off, end = next, next+chunkSize[lvl]
		}
		buf := b.arena.at(off)
		if buf[0] < 0x80 {
			doc += uint32(buf[0])
			off++
		} else {
			v, n := binary.Uvarint(buf)
			doc += uint32(v)
			off += uint32(n)
		}
		dst = append(dst, doc-1)
	}
	return dst
}

// Write writes the segment of the builder's documents to dir/name: to a temporary file in
// dir, fsync'ed, mode 0600, renamed to name, then the directory fsync'ed. It returns the
// segment's description. The builder is empty afterwards, ready for reuse; after an error
// it still holds its documents.
func (b *Builder) Write(dir, name string) (SegmentInfo, error) {
	// The segment's order: live documents by (prior, path); remap from insertion numbers.
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
	remap := make([]uint32, len(b.docs))
	for i := range remap {
		remap[i] = noDoc
	}
	sorted := true // remap is increasing over the live documents: no list needs sorting
	for n, i := range order {
		remap[i] = uint32(n)
		if n > 0 && order[n-1] > i {
			sorted = false
		}
	}
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
	var list []uint32
	scratch := make([]uint64, (len(order)+63)/64)
	for hi, pg := range b.pageOf {
		if pg == 0 {
			continue
		}
		for lo, sn := range b.pages[(pg-1)*256 : pg*256] {
			if sn == 0 {
				continue
			}
			list = b.list(&b.slots[sn-1], list[:0])
			out := list[:0]
			for _, d := range list {
				if r := remap[d]; r != noDoc {
					out = append(out, r)
				}
			}
			if len(out) == 0 {
				continue
			}
			if !sorted {
				sortDocs(out, scratch)
			}
			if err := w.writePosting(uint32(hi)<<8|uint32(lo), out); err != nil {
				return SegmentInfo{}, err
			}
		}
	}
	info, err := w.finish()
	if err != nil {
		return SegmentInfo{}, err
	}
	b.reset()
	return info, nil
}

// sortDocs sorts a posting list of distinct documents of a segment, scratch a zeroed bitset
// of its documents: by comparisons when short, else by the bitset (see sortByBits).
// Measured on 64 MiB of Go sources, whose priors (tests 1, the rest 0) interleave so that
// most lists need sorting: Write takes 150 ms, against 260 ms with slices.Sort alone.
func sortDocs(docs []uint32, scratch []uint64) {
	if len(docs) <= 16 {
		slices.Sort(docs)
	} else {
		sortByBits(docs, scratch)
	}
}

// reset empties the builder, keeping its memory.
func (b *Builder) reset() {
	for hi, pg := range b.pageOf {
		if pg != 0 {
			b.pageOf[hi] = 0
		}
	}
	b.pages = b.pages[:0]
	b.slots = b.slots[:0]
	b.arena.reset()
	b.docs = b.docs[:0]
	clear(b.byPath)
	b.live = 0
	b.bytes = 0
}

// noDoc marks a document that is not in a segment being written (replaced, deleted).
const noDoc = ^uint32(0)
