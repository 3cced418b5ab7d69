package grams

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/RoaringBitmap/roaring/v2"
)

// The constants of the file format (see the package comment).
const (
	magic = "QGRAMS1\n"
	// version is the format's version: 2 since the 4-gram keys. A segment of another
	// version is refused on open (an error wrapping ErrCorrupt that says both versions), and
	// the caller builds the index again.
	version   = 2
	headerLen = 128
	// smallMax is the most documents a posting holds as a varint list rather than a roaring
	// bitmap (see the package comment for the measurement).
	smallMax = 32
	// blockSize is the span of postings bytes each block CRC covers.
	blockSize = 64 << 10
	// maxDocs is the most documents a segment holds.
	maxDocs = 1<<31 - 1
)

// castagnoli is the CRC-32C table (hardware-accelerated on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// FileMode is the mode of the segment files this package writes, whatever the umask; DirMode
// the mode of the directory NewWriter creates. An index holds what the files it indexed
// hold, so it is its owner's only.
const (
	FileMode os.FileMode = 0o600
	DirMode  os.FileMode = 0o700
)

// ErrCorrupt is wrapped by the errors of a segment file that is not one this version wrote
// whole: truncated, damaged, or of another format.
var ErrCorrupt = errors.New("corrupt segment file")

// header is a segment file's first headerLen bytes.
type header struct {
	docs, grams, smallMax, blockSize uint32
	docsOff, docsLen                 uint64
	postOff, postLen                 uint64
	dirOff, dirLen                   uint64
	crcOff, crcLen                   uint64
	size                             uint64
	docsCRC, dirCRC, crcCRC          uint32
}

// marshal returns the header's bytes, its CRC last.
func (h *header) marshal() (b [headerLen]byte) {
	copy(b[:], magic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], version)
	le.PutUint32(b[12:], headerLen)
	le.PutUint32(b[16:], h.docs)
	le.PutUint32(b[20:], h.grams)
	le.PutUint32(b[24:], h.smallMax)
	le.PutUint32(b[28:], h.blockSize)
	for i, v := range []uint64{h.docsOff, h.docsLen, h.postOff, h.postLen, h.dirOff, h.dirLen, h.crcOff, h.crcLen, h.size} {
		le.PutUint64(b[32+8*i:], v)
	}
	le.PutUint32(b[104:], h.docsCRC)
	le.PutUint32(b[108:], h.dirCRC)
	le.PutUint32(b[112:], h.crcCRC)
	le.PutUint32(b[124:], crc32.Checksum(b[:124], castagnoli))
	return b
}

// parseHeader reads and checks a header: magic, version, CRC, and that its sections lie in
// order inside a file of size bytes with the lengths its counts give.
func parseHeader(b []byte, size uint64) (header, error) {
	var h header
	if len(b) < headerLen || string(b[:8]) != magic {
		return h, fmt.Errorf("%w: not a segment file", ErrCorrupt)
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != version {
		return h, fmt.Errorf("%w: format version %d, want %d (written by another Quarry: build the index again)", ErrCorrupt, v, version)
	}
	if crc32.Checksum(b[:124], castagnoli) != le.Uint32(b[124:]) || le.Uint32(b[12:]) != headerLen {
		return h, fmt.Errorf("%w: damaged header", ErrCorrupt)
	}
	h.docs, h.grams = le.Uint32(b[16:]), le.Uint32(b[20:])
	h.smallMax, h.blockSize = le.Uint32(b[24:]), le.Uint32(b[28:])
	v := make([]uint64, 9)
	for i := range v {
		v[i] = le.Uint64(b[32+8*i:])
	}
	h.docsOff, h.docsLen, h.postOff, h.postLen, h.dirOff, h.dirLen, h.crcOff, h.crcLen, h.size = v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
	h.docsCRC, h.dirCRC, h.crcCRC = le.Uint32(b[104:]), le.Uint32(b[108:]), le.Uint32(b[112:])
	switch {
	case h.size != size:
		return h, fmt.Errorf("%w: %d bytes, the header says %d (truncated?)", ErrCorrupt, size, h.size)
	case h.docs > maxDocs || h.smallMax != smallMax || h.blockSize != blockSize:
		return h, fmt.Errorf("%w: bad counts in the header", ErrCorrupt)
	case h.docsOff > size || h.docsLen > size || h.postLen > size || h.dirLen > size || h.crcLen > size:
		return h, fmt.Errorf("%w: sections out of place", ErrCorrupt) // and the sums below cannot overflow
	case h.docsOff != headerLen || h.postOff != h.docsOff+h.docsLen || h.dirOff != h.postOff+h.postLen ||
		h.crcOff != h.dirOff+h.dirLen || h.size != h.crcOff+h.crcLen || h.size < h.docsOff:
		return h, fmt.Errorf("%w: sections out of place", ErrCorrupt)
	case h.docsLen < uint64(h.docs)+uint64((4-h.docs%4)%4)+4*(uint64(h.docs)+1) || h.postLen > math.MaxUint32 ||
		h.dirLen != 4*(2*uint64(h.grams)+1) || h.crcLen != 4*((h.postLen+blockSize-1)/blockSize):
		return h, fmt.Errorf("%w: section lengths disagree with the counts", ErrCorrupt)
	}
	return h, nil
}

// Segment is one segment file, mapped read-only. Its header, documents and directory are
// checked on open; each block of postings the first time a query reads it. A Segment is
// safe for concurrent use; its methods must not be called after Close.
type Segment struct {
	path     string
	data     []byte // the whole file, mmap'ed
	docs     int
	grams    int
	priors   []byte // [docs]
	pathOffs []byte // [docs+1]uint32 into pathData
	pathData []byte
	keys     []byte // [grams]uint32, increasing
	offs     []byte // [grams+1]uint32 into post
	post     []byte
	blockCRC []byte          // a uint32 per block of post
	verified []atomic.Uint64 // a bit per block whose CRC matched

	groupsOnce sync.Once
	groups     []int // the first document of each prior, and docs at the end

	errMu sync.Mutex
	err   error // the first damaged posting found
}

// OpenSegment maps the segment file at path read-only and checks it: magic, version,
// section bounds, the CRCs of the header, documents and directory. A truncated or damaged
// file is an error wrapping ErrCorrupt; a damaged posting block is found when a query first
// reads it (see Err).
func OpenSegment(path string) (*Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grams: open segment: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("grams: open segment: %w", err)
	}
	size := st.Size()
	if size < headerLen {
		return nil, fmt.Errorf("grams: segment %s: %w: %d bytes, shorter than a header", path, ErrCorrupt, size)
	}
	if uint64(size) > math.MaxInt {
		return nil, fmt.Errorf("grams: segment %s: %w: too large", path, ErrCorrupt)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("grams: map segment %s: %w", path, err)
	}
	s := &Segment{path: path, data: data}
	if err := s.parse(); err != nil {
		syscall.Munmap(data)
		return nil, fmt.Errorf("grams: segment %s: %w", path, err)
	}
	return s, nil
}

// parse checks the mapped file and slices its sections.
func (s *Segment) parse() error {
	d := s.data
	h, err := parseHeader(d, uint64(len(d)))
	if err != nil {
		return err
	}
	docs := d[h.docsOff : h.docsOff+h.docsLen]
	dir := d[h.dirOff : h.dirOff+h.dirLen]
	crcs := d[h.crcOff : h.crcOff+h.crcLen]
	if crc32.Checksum(docs, castagnoli) != h.docsCRC {
		return fmt.Errorf("%w: damaged documents", ErrCorrupt)
	}
	if crc32.Checksum(dir, castagnoli) != h.dirCRC {
		return fmt.Errorf("%w: damaged directory", ErrCorrupt)
	}
	if crc32.Checksum(crcs, castagnoli) != h.crcCRC {
		return fmt.Errorf("%w: damaged block CRCs", ErrCorrupt)
	}
	n := int(h.docs)
	s.docs, s.grams = n, int(h.grams)
	s.priors = docs[:n]
	pad := (4 - n%4) % 4
	s.pathOffs = docs[n+pad : n+pad+4*(n+1)]
	s.pathData = docs[n+pad+4*(n+1):]
	le := binary.LittleEndian
	prev := uint32(0)
	for i := range n + 1 {
		o := le.Uint32(s.pathOffs[4*i:])
		if o < prev || i == 0 && o != 0 {
			return fmt.Errorf("%w: path offsets out of order", ErrCorrupt)
		}
		prev = o
	}
	for i := 1; i < n; i++ {
		if s.priors[i] < s.priors[i-1] {
			return fmt.Errorf("%w: documents out of order", ErrCorrupt)
		}
	}
	if uint64(prev) != uint64(len(s.pathData)) {
		return fmt.Errorf("%w: path bytes disagree with their offsets", ErrCorrupt)
	}
	s.keys = dir[:4*s.grams]
	s.offs = dir[4*s.grams:]
	s.post = d[h.postOff : h.postOff+h.postLen]
	if le.Uint32(s.offs[4*s.grams:]) != uint32(h.postLen) {
		return fmt.Errorf("%w: directory disagrees with the postings", ErrCorrupt)
	}
	s.blockCRC = crcs
	s.verified = make([]atomic.Uint64, (len(crcs)/4+63)/64)
	return nil
}

// Close unmaps the file. Bitmaps Match returned stay valid.
func (s *Segment) Close() error {
	if s.data == nil {
		return nil
	}
	err := syscall.Munmap(s.data)
	s.data = nil
	return err
}

// File returns the path of the file the segment was opened from.
func (s *Segment) File() string { return s.path }

// Size returns the file's size in bytes.
func (s *Segment) Size() int64 { return int64(len(s.data)) }

// Docs returns the number of documents in the segment, numbered 0 to Docs()-1 in (prior,
// path) order.
func (s *Segment) Docs() int { return s.docs }

// Grams returns the number of distinct keys (trigrams and hashed 4-grams) in the segment.
func (s *Segment) Grams() int { return s.grams }

// Path returns the path of document doc (< Docs()).
func (s *Segment) Path(doc uint32) string { return string(s.pathBytes(doc)) }

// pathBytes returns the path of doc in the mapped file.
func (s *Segment) pathBytes(doc uint32) []byte {
	le := binary.LittleEndian
	return s.pathData[le.Uint32(s.pathOffs[4*doc:]):le.Uint32(s.pathOffs[4*doc+4:])]
}

// Prior returns the prior of document doc (< Docs()).
func (s *Segment) Prior(doc uint32) uint8 { return s.priors[doc] }

// Find returns the document of path, by a binary search within each prior's documents.
func (s *Segment) Find(path string) (uint32, bool) {
	s.groupsOnce.Do(func() {
		for i := range s.docs {
			if i == 0 || s.priors[i] != s.priors[i-1] {
				s.groups = append(s.groups, i)
			}
		}
		s.groups = append(s.groups, s.docs)
	})
	for g := 0; g+1 < len(s.groups); g++ {
		lo, hi := s.groups[g], s.groups[g+1]
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if string(s.pathBytes(uint32(m))) < path {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < s.groups[g+1] && string(s.pathBytes(uint32(lo))) == path {
			return uint32(lo), true
		}
	}
	return 0, false
}

// Err returns the first damage a query found in the postings (nil if none). A damaged
// posting constrains nothing, so answers stay supersets; the caller should rebuild.
func (s *Segment) Err() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// fail records the first damage found in the postings.
func (s *Segment) fail(err error) {
	s.errMu.Lock()
	if s.err == nil {
		s.err = fmt.Errorf("grams: segment %s: %w", s.path, err)
	}
	s.errMu.Unlock()
}

// Verify checks the CRC of every block of postings and decodes every posting: the whole
// file, for a health check. Queries check what they read on their own.
func (s *Segment) Verify() error {
	for i := range s.grams {
		p, err := s.posting(i)
		if err == nil {
			_, err = s.decode(p)
		}
		if err != nil {
			return fmt.Errorf("grams: segment %s: %w", s.path, err)
		}
	}
	return s.Err()
}

// key returns the key of directory entry i.
func (s *Segment) key(i int) uint32 { return binary.LittleEndian.Uint32(s.keys[4*i:]) }

// find returns the directory entry of key k.
func (s *Segment) find(k uint32) (int, bool) {
	lo, hi := 0, s.grams
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.key(m) < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < s.grams && s.key(lo) == k
}

// posting is one key's posting as stored: its cardinality and the encoded documents.
type posting struct {
	card uint32
	body []byte
}

// offsets returns where directory entry i's posting starts in the postings.
func (s *Segment) offsets(i int) uint32 { return binary.LittleEndian.Uint32(s.offs[4*i:]) }

// posting returns directory entry i's posting, its blocks' CRCs checked.
func (s *Segment) posting(i int) (posting, error) {
	lo, hi := s.offsets(i), s.offsets(i+1)
	if lo >= hi || int(hi) > len(s.post) {
		return posting{}, fmt.Errorf("%w: directory entry %d out of place", ErrCorrupt, i)
	}
	if !s.verify(lo, hi) {
		return posting{}, fmt.Errorf("%w: damaged postings near byte %d", ErrCorrupt, lo)
	}
	b := s.post[lo:hi]
	card, n := binary.Uvarint(b)
	if n <= 0 || card == 0 || card > uint64(s.docs) {
		return posting{}, fmt.Errorf("%w: bad posting of key %07x", ErrCorrupt, s.key(i))
	}
	return posting{card: uint32(card), body: b[n:]}, nil
}

// verify checks the CRCs of the blocks holding post[lo:hi], each once.
func (s *Segment) verify(lo, hi uint32) bool {
	le := binary.LittleEndian
	for b := lo / blockSize; b <= (hi-1)/blockSize; b++ {
		w, bit := &s.verified[b/64], uint64(1)<<(b%64)
		if w.Load()&bit != 0 {
			continue
		}
		end := min(int(b+1)*blockSize, len(s.post))
		if crc32.Checksum(s.post[int(b)*blockSize:end], castagnoli) != le.Uint32(s.blockCRC[4*b:]) {
			return false
		}
		w.Or(bit)
	}
	return true
}

// decode returns a posting's documents as a bitmap, which may share the mapped file's
// memory (a list small enough is copied).
func (s *Segment) decode(p posting) (*roaring.Bitmap, error) {
	if p.card <= smallMax {
		var buf [smallMax]uint32
		docs, err := s.list(p, buf[:0])
		if err != nil {
			return nil, err
		}
		bm := roaring.New()
		bm.AddMany(docs)
		return bm, nil
	}
	bm := roaring.New()
	n, err := bm.FromBuffer(p.body)
	if err != nil || n != int64(len(p.body)) || bm.GetCardinality() != uint64(p.card) || bm.Maximum() >= uint32(s.docs) {
		return nil, fmt.Errorf("%w: bad bitmap", ErrCorrupt)
	}
	return bm, nil
}

// Match returns the documents of the segment that may satisfy q: a superset of those that
// do, as a bitmap of document numbers the caller owns. Deleted documents are the caller's
// (Index) concern.
func (s *Segment) Match(q *Query) *roaring.Bitmap {
	bm, all := s.eval(q)
	if all {
		bm = roaring.New()
		bm.AddRange(0, uint64(s.docs))
		return bm
	}
	bm.CloneCopyOnWriteContainers() // own the memory: the file may be unmapped
	return bm
}

// eval evaluates q: its documents, or all = true for every document (bm is then nil). bm
// may share the mapped file's memory.
func (s *Segment) eval(q *Query) (bm *roaring.Bitmap, all bool) {
	switch q.op {
	case opAll:
		return nil, true
	case opLit:
		return s.evalAnd(q.grams, nil)
	case opAnd:
		var grams []uint32
		var subs []*Query
		for _, sub := range q.subs {
			if sub.op == opLit {
				grams = append(grams, sub.grams...)
			} else {
				subs = append(subs, sub)
			}
		}
		slices.Sort(grams)
		return s.evalAnd(slices.Compact(grams), subs)
	case opOr:
		acc := roaring.New()
		for _, sub := range q.subs {
			bm, all := s.eval(sub)
			if all {
				return nil, true
			}
			acc.Or(bm)
		}
		return acc, false
	}
	return roaring.New(), false // opNone
}

// evalAnd returns the documents holding every key of grams and satisfying every one of
// subs: the postings intersected rarest first, then the sub-queries.
func (s *Segment) evalAnd(grams []uint32, subs []*Query) (*roaring.Bitmap, bool) {
	ps := make([]posting, 0, len(grams))
	for _, k := range grams {
		i, ok := s.find(k)
		if !ok {
			return roaring.New(), false
		}
		p, err := s.posting(i)
		if err != nil {
			s.fail(err) // a damaged posting constrains nothing
			continue
		}
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b posting) int { return int(a.card) - int(b.card) })
	var acc *roaring.Bitmap
	// and intersects bm into acc and reports whether acc is empty.
	and := func(bm *roaring.Bitmap) bool {
		if acc == nil {
			acc = bm
		} else {
			acc.And(bm)
		}
		return acc.IsEmpty()
	}
	for _, p := range ps {
		bm, err := s.decode(p)
		if err != nil {
			s.fail(err)
			continue
		}
		if and(bm) {
			return acc, false
		}
	}
	for _, sub := range subs {
		if bm, all := s.eval(sub); !all && and(bm) {
			return acc, false
		}
	}
	if acc == nil {
		return nil, true
	}
	return acc, false
}
