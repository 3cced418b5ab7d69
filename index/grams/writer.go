package grams

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
)

// FlushBytes is the text a Writer's builder holds before Put writes it as a segment: the
// size of a full build's segments and the bound of a writer's memory (see Builder). Tests
// set it lower.
var FlushBytes int64 = 64 << 20

// The merge policy of Finish (see the package comment).
const (
	// mergeCount: more than this many small segments are merged into one.
	mergeCount = 8
	// smallRatio: a segment is small when smaller than 1/smallRatio of the largest.
	smallRatio = 8
)

// Writer changes an index: Put and Delete documents, then Finish returns the manifest to
// commit. One writer at a time may change an index directory; a Writer is not safe for
// concurrent use. Nothing it does changes what a committed manifest lists: new segments
// get new names, and the files a new manifest no longer lists are left for Clean.
type Writer struct {
	dir      string
	segs     []*wseg
	fresh    map[string]*wseg // path -> the segment this writer wrote it in
	b        *Builder
	changed  bool
	finished bool
	compact  bool
	last     uint64 // the number of the newest segment name in dir or the manifest
}

// wseg is a segment a Writer holds, with its deleted documents so far.
type wseg struct {
	name    string
	seg     *Segment
	deleted *roaring.Bitmap
	fresh   bool // written by this writer: its paths are in Writer.fresh
}

// live returns the number of documents of s not deleted.
func (s *wseg) live() int { return s.seg.Docs() - int(s.deleted.GetCardinality()) }

// errFinished is returned by a Writer's changes after Finish.
var errFinished = errors.New("grams: writer already finished")

// NewWriter starts changing the index of the committed manifest m in dir, creating dir
// (mode DirMode, whatever the umask) if needed. It opens m's segments to know which paths
// they hold.
func NewWriter(dir string, m Manifest) (*Writer, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if err := makeDir(dir); err != nil {
		return nil, err
	}
	w := &Writer{dir: dir, fresh: map[string]*wseg{}, b: NewBuilder()}
	for _, e := range m.Segments {
		s, del, err := openEntry(dir, e)
		if err != nil {
			w.Close()
			return nil, err
		}
		if del == nil {
			del = roaring.New()
		}
		w.segs = append(w.segs, &wseg{name: e.Name, seg: s, deleted: del})
		if n, ok := segmentNumber(e.Name); ok {
			w.last = max(w.last, n)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("grams: %w", err)
	}
	for _, e := range entries { // a crashed run's segments: never reuse their names
		if n, ok := segmentNumber(strings.SplitN(e.Name(), tempInfix, 2)[0]); ok {
			w.last = max(w.last, n)
		}
	}
	return w, nil
}

// makeDir creates dir with mode DirMode if it does not exist.
func makeDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("grams: %w", err)
	}
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return fmt.Errorf("grams: %w", err)
	}
	if err := os.Chmod(dir, DirMode); err != nil {
		return fmt.Errorf("grams: %w", err)
	}
	return nil
}

// segmentName returns the name of segment number n: seg-<16 hex digits>.qg.
func segmentName(n uint64) string { return fmt.Sprintf("seg-%016x.qg", n) }

// segmentNumber returns the number of a segment name segmentName made.
func segmentNumber(name string) (uint64, bool) {
	hex, ok := strings.CutPrefix(name, "seg-")
	if !ok {
		return 0, false
	}
	hex, ok = strings.CutSuffix(hex, ".qg")
	if !ok || len(hex) != 16 {
		return 0, false
	}
	n, err := strconv.ParseUint(hex, 16, 64)
	return n, err == nil
}

// nextName returns a segment name never used in dir: the clock in nanoseconds, or one more
// than the newest name if the clock is behind it, so names only grow and a reader holding an
// old manifest never opens another file under a name it lists.
func (w *Writer) nextName() string {
	w.last = max(uint64(time.Now().UnixNano()), w.last+1)
	return segmentName(w.last)
}

// Put sets the document of path: its older documents become deleted and its text goes into
// the writer's builder, which is written as a new segment as soon as it holds more than
// FlushBytes of text.
func (w *Writer) Put(path string, prior uint8, content []byte) error {
	if w.finished {
		return errFinished
	}
	w.deleteOld(path)
	w.b.Add(path, prior, content)
	w.changed = true
	if w.b.Bytes() > FlushBytes {
		return w.flush()
	}
	return nil
}

// Delete deletes the document of path, if any.
func (w *Writer) Delete(path string) error {
	if w.finished {
		return errFinished
	}
	found := w.deleteOld(path)
	if w.b.remove(path) {
		found = true
	}
	w.changed = w.changed || found
	return nil
}

// deleteOld marks the live documents of path in the segments deleted and reports whether
// there was one. The segments of the manifest are searched (a binary search each), those
// this writer wrote by their paths in memory.
func (w *Writer) deleteOld(path string) bool {
	found := false
	for _, s := range w.segs {
		if s.fresh {
			continue
		}
		if d, ok := s.seg.Find(path); ok && s.deleted.CheckedAdd(d) {
			found = true
		}
	}
	if s, ok := w.fresh[path]; ok {
		if d, ok := s.seg.Find(path); ok && s.deleted.CheckedAdd(d) {
			found = true
		}
		delete(w.fresh, path)
	}
	return found
}

// Changed reports whether a Put or Delete changed the index.
func (w *Writer) Changed() bool { return w.changed }

// Compact makes Finish merge every segment into one.
func (w *Writer) Compact() { w.compact = true }

// flush writes the builder's documents as a new segment.
func (w *Writer) flush() error {
	paths := make([]string, 0, w.b.Docs())
	for p := range w.b.byPath {
		paths = append(paths, p)
	}
	name := w.nextName()
	if _, err := w.b.Write(w.dir, name); err != nil {
		return err
	}
	s, err := OpenSegment(filepath.Join(w.dir, name))
	if err != nil {
		return err
	}
	ws := &wseg{name: name, seg: s, deleted: roaring.New(), fresh: true}
	w.segs = append(w.segs, ws)
	for _, p := range paths {
		w.fresh[p] = ws
	}
	return nil
}

// Finish writes what the builder holds as a new segment, applies the merge policy, and
// returns the manifest to commit. Nothing is committed here: the caller stores the manifest
// (atomically with its own state) and then calls Clean. The Writer takes no changes after
// Finish; Close it.
func (w *Writer) Finish() (Manifest, error) {
	if w.finished {
		return Manifest{}, errFinished
	}
	w.finished = true
	if w.b.Docs() > 0 {
		if err := w.flush(); err != nil {
			return Manifest{}, err
		}
	}
	if err := w.merge(); err != nil {
		return Manifest{}, err
	}
	m := Manifest{Version: ManifestVersion, Segments: []SegmentEntry{}}
	for _, s := range w.segs {
		if s.live() == 0 {
			continue // every document deleted: the segment is dropped
		}
		e := SegmentEntry{Name: s.name, Docs: s.seg.Docs(), Bytes: s.seg.Size()}
		if !s.deleted.IsEmpty() {
			s.deleted.RunOptimize()
			b, err := s.deleted.ToBytes()
			if err != nil {
				return Manifest{}, err
			}
			e.Deleted = b
		}
		m.Segments = append(m.Segments, e)
	}
	return m, nil
}

// merge applies the merge policy: more than mergeCount segments smaller than 1/smallRatio
// of the largest are merged into one, and a segment more than half deleted is rewritten
// (Compact: everything into one).
func (w *Writer) merge() error {
	segs := slices.DeleteFunc(w.segs, func(s *wseg) bool {
		if s.live() == 0 {
			s.seg.Close()
			return true
		}
		return false
	})
	w.segs = segs
	var groups [][]*wseg
	if w.compact {
		if len(segs) > 1 || len(segs) == 1 && !segs[0].deleted.IsEmpty() {
			groups = append(groups, segs)
		}
	} else {
		largest := int64(0)
		for _, s := range segs {
			largest = max(largest, s.seg.Size())
		}
		var small []*wseg
		for _, s := range segs {
			if s.seg.Size()*smallRatio < largest {
				small = append(small, s)
			}
		}
		if len(small) <= mergeCount {
			small = nil
		} else {
			groups = append(groups, small)
		}
		for _, s := range segs {
			if 2*s.deleted.GetCardinality() > uint64(s.seg.Docs()) && !slices.Contains(small, s) {
				groups = append(groups, []*wseg{s})
			}
		}
	}
	for _, g := range groups {
		name := w.nextName()
		if _, err := mergeSegments(w.dir, name, g); err != nil {
			return err
		}
		s, err := OpenSegment(filepath.Join(w.dir, name))
		if err != nil {
			return err
		}
		for _, old := range g {
			old.seg.Close()
		}
		w.segs = slices.DeleteFunc(w.segs, func(s *wseg) bool { return slices.Contains(g, s) })
		w.segs = append(w.segs, &wseg{name: name, seg: s, deleted: roaring.New()})
	}
	return nil
}

// Close closes the segments the writer opened. The segments it wrote stay: the manifest
// Finish returned lists them; without a commit of it, Clean removes them.
func (w *Writer) Close() error {
	var err error
	for _, s := range w.segs {
		err = cmp.Or(err, s.seg.Close())
	}
	w.segs = nil
	w.finished = true
	return err
}

// Clean removes the files of dir that the committed manifest m does not list and that this
// package wrote: segments of a run that crashed or was not committed, segments merged away,
// temporary files. Call it after committing m, and when opening after a crash; never while
// a Writer whose manifest is not committed yet works in dir. A reader that opened an older
// manifest's segments keeps reading them (they are mapped); one that opens an older
// manifest after a Clean fails and should read the committed manifest again.
func Clean(dir string, m Manifest) error {
	keep := map[string]bool{}
	for _, e := range m.Segments {
		keep[e.Name] = true
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("grams: clean: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		base, _, _ := strings.Cut(name, tempInfix)
		if keep[name] || e.IsDir() {
			continue
		}
		if _, ok := segmentNumber(base); !ok {
			continue // not a file of this package
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("grams: clean: %w", err)
		}
	}
	return nil
}

// isSegmentName reports whether name is a plain file name a manifest may list.
func isSegmentName(name string) bool {
	return name != "" && name != "." && name != ".." && filepath.Base(name) == name && !strings.Contains(name, tempInfix)
}
