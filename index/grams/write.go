package grams

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
)

// SegmentInfo describes a segment file Write or a merge wrote.
type SegmentInfo struct {
	Name  string // the file's name in its directory
	Docs  int    // documents in the segment
	Bytes int64  // the file's size
}

// segWriter writes one segment file: createSegment, writeDocs, writePosting for each
// key in increasing order, finish. Until finish succeeds the file is a temporary
// one, which abort removes.
type segWriter struct {
	dir, name string
	f         *os.File
	bw        *bufio.Writer
	off       uint64 // the file offset of the next byte written
	h         header
	done      bool

	// Postings.
	blockCRCs []uint32 // the CRCs of the complete blocks
	blockCRC  uint32   // the CRC of the current block so far
	blockFill uint32   // bytes in the current block
	keys      column   // the directory: keys and posting offsets
	offs      column
	buf       []byte
}

// createSegment starts writing the segment dir/name in a temporary file of dir.
func createSegment(dir, name string) (*segWriter, error) {
	if name == "" || filepath.Base(name) != name {
		return nil, fmt.Errorf("grams: segment name %q is not a file name", name)
	}
	f, err := os.CreateTemp(dir, name+tempInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("grams: write segment %s: %w", name, err)
	}
	w := &segWriter{dir: dir, name: name, f: f, bw: bufio.NewWriterSize(f, 1<<20)}
	w.h.smallMax = smallMax
	w.h.blockSize = blockSize
	var zero [headerLen]byte
	w.write(zero[:]) // the header, written last
	return w, nil
}

// tempInfix is in the name of a segment file being written: segname.tmp-random.
const tempInfix = ".tmp-"

// write writes p at w.off.
func (w *segWriter) write(p []byte) {
	w.bw.Write(p) // a write error sticks in w.bw, returned by Flush in finish
	w.off += uint64(len(p))
}

// writeDocs writes the docs section: paths and priors, in the segment's order (sorted by
// (prior, path), distinct paths).
func (w *segWriter) writeDocs(paths []string, priors []uint8) error {
	if len(paths) != len(priors) || len(paths) > maxDocs {
		return fmt.Errorf("grams: write segment %s: %d documents, at most %d", w.name, len(paths), maxDocs)
	}
	w.h.docs = uint32(len(paths))
	w.h.docsOff = w.off
	crc := crc32.Update(0, castagnoli, priors)
	w.write(priors)
	var pad [4]byte
	p := pad[:(4-len(priors)%4)%4]
	crc = crc32.Update(crc, castagnoli, p)
	w.write(p)
	offs := make([]byte, 4*(len(paths)+1))
	total := uint64(0)
	for i, s := range paths {
		binary.LittleEndian.PutUint32(offs[4*i:], uint32(total))
		total += uint64(len(s))
	}
	if total > math.MaxUint32 {
		return fmt.Errorf("grams: write segment %s: %d bytes of paths, at most 4 GiB", w.name, total)
	}
	binary.LittleEndian.PutUint32(offs[4*len(paths):], uint32(total))
	crc = crc32.Update(crc, castagnoli, offs)
	w.write(offs)
	for _, s := range paths {
		b := []byte(s)
		crc = crc32.Update(crc, castagnoli, b)
		w.write(b)
	}
	w.h.docsLen = w.off - w.h.docsOff
	w.h.docsCRC = crc
	w.h.postOff = w.off
	return nil
}

// writePosting writes the posting of key: docs, increasing, each < the segment's
// documents, not empty. Keys must come in increasing order.
func (w *segWriter) writePosting(key uint32, docs []uint32) error {
	pos := w.off - w.h.postOff
	if pos > math.MaxUint32 {
		return fmt.Errorf("grams: write segment %s: more than 4 GiB of postings", w.name)
	}
	w.keys.add(key)
	w.offs.add(uint32(pos))
	buf := binary.AppendUvarint(w.buf[:0], uint64(len(docs)))
	if len(docs) <= smallMax {
		prev := uint32(0) // the previous document + 1
		for _, d := range docs {
			buf = binary.AppendUvarint(buf, uint64(d+1-prev-1)) // gaps - 1: 0 for neighbours
			prev = d + 1
		}
	} else {
		buf = appendRoaring(buf, docs)
	}
	w.buf = buf
	w.writePost(buf)
	return nil
}

// writePost writes postings bytes, keeping the CRC of each block of blockSize bytes.
func (w *segWriter) writePost(p []byte) {
	w.write(p)
	for len(p) > 0 {
		n := min(uint32(len(p)), blockSize-w.blockFill)
		w.blockCRC = crc32.Update(w.blockCRC, castagnoli, p[:n])
		w.blockFill += n
		p = p[n:]
		if w.blockFill == blockSize {
			w.blockCRCs = append(w.blockCRCs, w.blockCRC)
			w.blockCRC, w.blockFill = 0, 0
		}
	}
}

// finish writes the directory, the block CRCs and the header, syncs the file, renames it to
// its name and syncs the directory.
func (w *segWriter) finish() (SegmentInfo, error) {
	h := &w.h
	h.postLen = w.off - h.postOff
	if h.postLen > math.MaxUint32 {
		return SegmentInfo{}, fmt.Errorf("grams: write segment %s: more than 4 GiB of postings", w.name)
	}
	if w.blockFill > 0 {
		w.blockCRCs = append(w.blockCRCs, w.blockCRC)
	}
	h.grams = uint32(w.keys.n)
	h.dirOff = w.off
	w.offs.add(uint32(h.postLen))
	h.dirCRC = w.keys.write(w, 0)
	h.dirCRC = w.offs.write(w, h.dirCRC)
	h.dirLen = w.off - h.dirOff
	h.crcOff = w.off
	crcs := make([]byte, 4*len(w.blockCRCs))
	for i, c := range w.blockCRCs {
		binary.LittleEndian.PutUint32(crcs[4*i:], c)
	}
	h.crcLen = uint64(len(crcs))
	h.crcCRC = crc32.Checksum(crcs, castagnoli)
	w.write(crcs)
	h.size = w.off
	if err := w.bw.Flush(); err != nil {
		return SegmentInfo{}, w.fail(err)
	}
	hb := h.marshal()
	if _, err := w.f.WriteAt(hb[:], 0); err != nil {
		return SegmentInfo{}, w.fail(err)
	}
	if err := w.f.Chmod(FileMode); err != nil {
		return SegmentInfo{}, w.fail(err)
	}
	if err := w.f.Sync(); err != nil {
		return SegmentInfo{}, w.fail(err)
	}
	if err := w.f.Close(); err != nil {
		return SegmentInfo{}, w.fail(err)
	}
	if err := os.Rename(w.f.Name(), filepath.Join(w.dir, w.name)); err != nil {
		return SegmentInfo{}, w.fail(err)
	}
	w.done = true
	if err := syncDir(w.dir); err != nil {
		return SegmentInfo{}, fmt.Errorf("grams: write segment %s: %w", w.name, err)
	}
	return SegmentInfo{Name: w.name, Docs: int(h.docs), Bytes: int64(h.size)}, nil
}

// column is a list of uint32 in blocks of columnBlock: no copy as it grows, what the
// directory of a segment of a million keys costs in allocations when it is a slice.
type column struct {
	blocks [][]uint32
	n      int
}

const columnBlock = 1 << 14

// add appends v.
func (c *column) add(v uint32) {
	if c.n%columnBlock == 0 {
		c.blocks = append(c.blocks, make([]uint32, 0, columnBlock))
	}
	b := &c.blocks[len(c.blocks)-1]
	*b = append(*b, v)
	c.n++
}

// write writes the values to w, little-endian, and returns crc updated with their bytes.
func (c *column) write(w *segWriter, crc uint32) uint32 {
	buf := make([]byte, 4*columnBlock)
	for _, b := range c.blocks {
		p := buf[:4*len(b)]
		for i, v := range b {
			binary.LittleEndian.PutUint32(p[4*i:], v)
		}
		crc = crc32.Update(crc, castagnoli, p)
		w.write(p)
	}
	return crc
}

// fail wraps an error of finish.
func (w *segWriter) fail(err error) error {
	return fmt.Errorf("grams: write segment %s: %w", w.name, err)
}

// abort removes the temporary file unless finish renamed it.
func (w *segWriter) abort() {
	if w.done {
		return
	}
	w.done = true
	w.f.Close()
	os.Remove(w.f.Name())
}

// syncDir fsyncs a directory, so the renames and creations in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, os.ErrInvalid) {
		return nil // a file system that cannot sync directories
	}
	return err
}
