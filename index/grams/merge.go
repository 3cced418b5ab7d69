package grams

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// mergeSegments writes the segment dir/name of the live documents of in, without the text:
// the documents renumbered in (prior, path) order, each key's postings the union of the
// inputs' remapped ones. A path live in several inputs (which a Writer never leaves) keeps
// the document of the last. A damaged input posting fails the merge.
func mergeSegments(dir, name string, in []*wseg) (SegmentInfo, error) {
	type ref struct {
		path  string
		prior uint8
		seg   int
		doc   uint32
	}
	var refs []ref
	for i, s := range in {
		for d := range uint32(s.seg.Docs()) {
			if !s.deleted.Contains(d) {
				refs = append(refs, ref{path: s.seg.Path(d), prior: s.seg.Prior(d), seg: i, doc: d})
			}
		}
	}
	if len(in) > 1 {
		// A path twice: keep the last input's document.
		slices.SortFunc(refs, func(a, b ref) int {
			return cmp.Or(strings.Compare(a.path, b.path), b.seg-a.seg)
		})
		refs = slices.CompactFunc(refs, func(a, b ref) bool { return a.path == b.path })
	}
	slices.SortFunc(refs, func(a, b ref) int {
		return cmp.Or(cmp.Compare(a.prior, b.prior), strings.Compare(a.path, b.path))
	})
	remap := make([][]uint32, len(in))
	for i, s := range in {
		remap[i] = make([]uint32, s.seg.Docs())
		for d := range remap[i] {
			remap[i][d] = noDoc
		}
	}
	paths := make([]string, len(refs))
	priors := make([]uint8, len(refs))
	for n, r := range refs {
		remap[r.seg][r.doc] = uint32(n)
		paths[n], priors[n] = r.path, r.prior
	}
	w, err := createSegment(dir, name)
	if err != nil {
		return SegmentInfo{}, err
	}
	defer w.abort()
	if err := w.writeDocs(paths, priors); err != nil {
		return SegmentInfo{}, err
	}
	cur := make([]int, len(in)) // each input's next directory entry
	scratch := make([]uint64, (len(refs)+63)/64)
	var list, docs []uint32
	for {
		k, any := uint32(0), false
		for i, s := range in {
			if cur[i] < s.seg.grams {
				if sk := s.seg.key(cur[i]); !any || sk < k {
					k, any = sk, true
				}
			}
		}
		if !any {
			break
		}
		list = list[:0]
		for i, s := range in {
			if cur[i] >= s.seg.grams || s.seg.key(cur[i]) != k {
				continue
			}
			p, err := s.seg.posting(cur[i])
			if err == nil {
				docs, err = s.seg.list(p, docs[:0])
			}
			if err != nil {
				return SegmentInfo{}, fmt.Errorf("grams: merge segment %s: %w", s.seg.path, err)
			}
			for _, d := range docs {
				if r := remap[i][d]; r != noDoc {
					list = append(list, r)
				}
			}
			cur[i]++
		}
		if len(list) == 0 {
			continue
		}
		if len(in) > 1 {
			sortDocs(list, scratch) // each input's part is increasing already
		}
		if err := w.writePosting(k, list); err != nil {
			return SegmentInfo{}, err
		}
	}
	return w.finish()
}

// list appends a posting's documents, increasing, to dst.
func (s *Segment) list(p posting, dst []uint32) ([]uint32, error) {
	if p.card <= smallMax {
		b := p.body
		next := uint64(0)
		for range p.card {
			v, n := binary.Uvarint(b)
			if n <= 0 || v >= uint64(s.docs)-next {
				return dst, fmt.Errorf("%w: bad document list", ErrCorrupt)
			}
			dst = append(dst, uint32(next+v))
			next += v + 1
			b = b[n:]
		}
		if len(b) != 0 {
			return dst, fmt.Errorf("%w: bad document list", ErrCorrupt)
		}
		return dst, nil
	}
	bm, err := s.decode(p)
	if err != nil {
		return dst, err
	}
	n := len(dst)
	dst = slices.Grow(dst, int(p.card))[:n+int(p.card)]
	out := dst[n:]
	bm.ToExistingArray(&out)
	return dst, nil
}
