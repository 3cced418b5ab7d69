package grams

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
)

// ManifestVersion is the version of the manifest and of the segments it lists.
const ManifestVersion = 1

// Manifest lists an index's segments and their deleted documents: the state a caller
// commits (in its own store, atomically with what the index describes). It is
// JSON-serialisable; the zero Manifest is an empty index.
type Manifest struct {
	Version  int            `json:"version"` // ManifestVersion
	Segments []SegmentEntry `json:"segments"`
}

// SegmentEntry is one segment of a manifest.
type SegmentEntry struct {
	Name    string `json:"name"`              // the file's name in the index directory
	Docs    int    `json:"docs"`              // its documents, deleted ones included
	Bytes   int64  `json:"bytes"`             // the file's size
	Deleted []byte `json:"deleted,omitempty"` // a serialized roaring bitmap of deleted doc numbers
}

// ErrNoManifest is returned by ParseManifest for an empty string: no index was committed
// (build one from scratch).
var ErrNoManifest = errors.New("grams: no manifest")

// ParseManifest parses a manifest String returned. The empty string, what a caller reads
// before its first commit, is ErrNoManifest, so "no index yet" is not mistaken for an empty
// index. Versions other than ManifestVersion are errors (rebuild).
func ParseManifest(s string) (Manifest, error) {
	if s == "" {
		return Manifest{}, ErrNoManifest
	}
	var m Manifest
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("grams: parse manifest: %w", err)
	}
	if err := m.check(); err != nil {
		return Manifest{}, err
	}
	return m, nil
}

// check reports a manifest this version cannot open.
func (m Manifest) check() error {
	if m.Version != ManifestVersion && !(m.Version == 0 && len(m.Segments) == 0) {
		return fmt.Errorf("grams: manifest version %d, want %d", m.Version, ManifestVersion)
	}
	seen := map[string]bool{}
	for _, e := range m.Segments {
		if e.Name == "" || filepath.Base(e.Name) != e.Name || !isSegmentName(e.Name) {
			return fmt.Errorf("grams: manifest: bad segment name %q", e.Name)
		}
		if seen[e.Name] {
			return fmt.Errorf("grams: manifest: segment %s listed twice", e.Name)
		}
		seen[e.Name] = true
	}
	return nil
}

// String returns the manifest as compact JSON, what ParseManifest reads.
func (m Manifest) String() string {
	if m.Version == 0 {
		m.Version = ManifestVersion
	}
	if m.Segments == nil {
		m.Segments = []SegmentEntry{}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // a Manifest always marshals
	}
	return string(b)
}

// Doc is a document Candidates returns.
type Doc struct {
	Path  string
	Prior uint8
}

// Index is the segments a manifest lists, with their deleted documents: what a search
// reads. An Index is immutable and safe for concurrent use.
type Index struct {
	segs []iseg
	docs int
}

// iseg is one segment of an index.
type iseg struct {
	seg     *Segment
	deleted *roaring.Bitmap // nil when none
}

// Open opens every segment m lists in dir. A segment missing, damaged, or not the file the
// manifest describes (documents, size) is an error naming it. After a Clean of a newer
// manifest the segments of an older one may be gone: read the committed manifest again.
func Open(dir string, m Manifest) (*Index, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	ix := &Index{}
	for _, e := range m.Segments {
		s, del, err := openEntry(dir, e)
		if err != nil {
			ix.Close()
			return nil, err
		}
		ix.segs = append(ix.segs, iseg{seg: s, deleted: del})
		ix.docs += s.Docs() - int(cardinality(del))
	}
	return ix, nil
}

// openEntry opens a manifest's segment and reads its deleted documents.
func openEntry(dir string, e SegmentEntry) (*Segment, *roaring.Bitmap, error) {
	s, err := OpenSegment(filepath.Join(dir, e.Name))
	if err != nil {
		return nil, nil, err
	}
	if s.Docs() != e.Docs || s.Size() != e.Bytes {
		s.Close()
		return nil, nil, fmt.Errorf("grams: segment %s: %w: %d documents and %d bytes, the manifest says %d and %d",
			e.Name, ErrCorrupt, s.Docs(), s.Size(), e.Docs, e.Bytes)
	}
	var del *roaring.Bitmap
	if len(e.Deleted) > 0 {
		del = roaring.New()
		if err := del.UnmarshalBinary(e.Deleted); err != nil || del.Validate() != nil ||
			!del.IsEmpty() && del.Maximum() >= uint32(s.Docs()) {
			s.Close()
			return nil, nil, fmt.Errorf("grams: segment %s: bad deleted documents in the manifest", e.Name)
		}
		if del.IsEmpty() {
			del = nil
		}
	}
	return s, del, nil
}

// cardinality returns the size of a bitmap that may be nil.
func cardinality(bm *roaring.Bitmap) uint64 {
	if bm == nil {
		return 0
	}
	return bm.GetCardinality()
}

// Close closes the segments.
func (ix *Index) Close() error {
	var err error
	for _, s := range ix.segs {
		err = cmp.Or(err, s.seg.Close())
	}
	ix.segs = nil
	return err
}

// Docs returns the number of live documents.
func (ix *Index) Docs() int { return ix.docs }

// Segments returns the number of segments.
func (ix *Index) Segments() int { return len(ix.segs) }

// Err returns the first damage queries found in a segment's postings, or nil. Answers stay
// supersets (a damaged posting constrains nothing); the caller should rebuild the index.
func (ix *Index) Err() error {
	for _, s := range ix.segs {
		if err := s.seg.Err(); err != nil {
			return err
		}
	}
	return nil
}

// Verify checks every segment whole (see Segment.Verify).
func (ix *Index) Verify() error {
	for _, s := range ix.segs {
		if err := s.seg.Verify(); err != nil {
			return err
		}
	}
	return nil
}

// Candidates returns the live documents that may satisfy q, a superset of those that do,
// ordered by (prior, path), each path at most once (a path live in several segments, which
// a Writer never leaves, is returned from the last of them).
func (ix *Index) Candidates(q *Query) []Doc {
	if q.MatchesNone() {
		return nil
	}
	lists := make([][]Doc, 0, len(ix.segs))
	total := 0
	for _, s := range ix.segs {
		bm := s.seg.Match(q)
		if s.deleted != nil {
			bm.AndNot(s.deleted)
		}
		if bm.IsEmpty() {
			continue
		}
		docs := s.seg.docsOf(bm)
		lists = append(lists, docs)
		total += len(docs)
	}
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return lists[0]
	}
	// Keep the last segment's document of a path, then merge the lists.
	seen := make(map[string]struct{}, total)
	for i := len(lists) - 1; i >= 0; i-- {
		out := lists[i][:0]
		for _, d := range lists[i] {
			if _, dup := seen[d.Path]; !dup {
				seen[d.Path] = struct{}{}
				out = append(out, d)
			}
		}
		lists[i] = out
	}
	return mergeDocs(lists, total)
}

// Count returns how many live documents may satisfy q: the number Candidates would list,
// without making the list (for a manifest the Writer did not write, where a path may be
// live in two segments, an upper bound).
func (ix *Index) Count(q *Query) int {
	if q.MatchesNone() {
		return 0
	}
	n := uint64(0)
	for _, s := range ix.segs {
		bm := s.seg.Match(q)
		if s.deleted != nil {
			bm.AndNot(s.deleted)
		}
		n += bm.GetCardinality()
	}
	return int(n)
}

// compareDocs orders documents by (prior, path).
func compareDocs(a, b Doc) int {
	if c := cmp.Compare(a.Prior, b.Prior); c != 0 {
		return c
	}
	return strings.Compare(a.Path, b.Path)
}

// mergeDocs merges lists sorted by (prior, path) into one.
func mergeDocs(lists [][]Doc, n int) []Doc {
	out := make([]Doc, 0, n)
	for {
		best := -1
		for i, l := range lists {
			if len(l) > 0 && (best < 0 || compareDocs(l[0], lists[best][0]) < 0) {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, lists[best][0])
		lists[best] = lists[best][1:]
	}
}

// docsOf returns the documents of bm, their paths copied in one allocation.
func (s *Segment) docsOf(bm *roaring.Bitmap) []Doc {
	n := int(bm.GetCardinality())
	docs := make([]Doc, n)
	var b strings.Builder
	size := 0
	it := bm.Iterator()
	for i := 0; it.HasNext(); i++ {
		d := it.Next()
		p := s.pathBytes(d)
		docs[i] = Doc{Prior: s.Prior(d), Path: unsafeString(p)} // for now: the mapped bytes
		size += len(p)
	}
	b.Grow(size)
	for i := range docs {
		b.WriteString(docs[i].Path)
	}
	all := b.String()
	off := 0
	for i := range docs {
		l := len(docs[i].Path)
		docs[i].Path = all[off : off+l]
		off += l
	}
	return docs
}

// Paths yields every live document, segment by segment (not in one order). Use it as an
// iterator: for d := range ix.Paths { ... }.
func (ix *Index) Paths(yield func(Doc) bool) {
	for _, s := range ix.segs {
		for d := range uint32(s.seg.Docs()) {
			if s.deleted != nil && s.deleted.Contains(d) {
				continue
			}
			if !yield(Doc{Path: s.seg.Path(d), Prior: s.seg.Prior(d)}) {
				return
			}
		}
	}
}

// unsafeString returns b as a string without a copy: only while b lives and does not
// change (docsOf copies what it makes this way before returning).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
