package search

// The content index (index/grams) as the searcher uses it: the segments of the store's
// committed manifest, kept open while the manifest stays; a query's literals as trigram
// queries; the order files are verified in.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index/grams"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/scoring"
)

// ErrNoContentIndex is a store whose content index was never built: an index written by a
// Quarry from before the content index, until its next index run builds it.
var ErrNoContentIndex = errors.New("index: this index has no content index yet (it was built by an older Quarry): run quarry index to build it")

// ContentPrior is the order the content index keeps a file in, lower first: by the class
// of its path (source, then the classes that rank lower: scoring.PathWeight, tests at
// their default weight), then by size in powers of two from 1 KiB (a small file holding a
// word ranks above a large one by BM25's length norm, and costs less to read). A content
// search verifies candidates in this order, then by path.
func ContentPrior(path string, size int) uint8 {
	w := scoring.PathWeight(scoring.Classify(path), false)
	class := uint8(math.Round((1 - min(max(w, 0), 1)) * 10)) // 0..10
	return class<<4 | uint8(min(bits.Len(uint(size)>>10), 15))
}

// gramsHolder keeps the content index of the store's committed manifest open for the
// searches of a searcher: opened again when the manifest changes (an index run committed),
// and an index no longer current is closed when its last search lets go of it.
type gramsHolder struct {
	mu       sync.Mutex
	manifest string
	cur      *gramsRef
	closed   bool
}

// gramsRef is one open content index and the searches using it.
type gramsRef struct {
	ix      *grams.Index
	refs    int
	retired bool
}

// gramsOpenTries is how many times acquire reads the manifest again when a segment it
// lists is gone: an index run that committed a merge between the read and the open
// removes the merged segments.
const gramsOpenTries = 3

// acquire returns the content index of st's committed manifest, held until release.
func (h *gramsHolder) acquire(st *store.Store) (*gramsRef, error) {
	var lastErr error
	for try := 0; try < gramsOpenTries; try++ {
		m, err := st.Meta(store.MetaGrams)
		if err != nil {
			return nil, err
		}
		if m == "" {
			return nil, ErrNoContentIndex
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, errors.New("index: the searcher is closed")
		}
		if h.cur != nil && h.manifest == m {
			h.cur.refs++
			r := h.cur
			h.mu.Unlock()
			return r, nil
		}
		h.mu.Unlock()
		parsed, err := grams.ParseManifest(m)
		if err != nil {
			return nil, fmt.Errorf("index: the content index's manifest: %w", err)
		}
		ix, err := grams.Open(st.GramsDir(), parsed)
		if err != nil {
			lastErr = err
			continue
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			ix.Close()
			return nil, errors.New("index: the searcher is closed")
		}
		if h.cur != nil && h.manifest == m { // another search opened it meanwhile
			ix.Close()
		} else {
			h.retire(h.cur)
			h.cur, h.manifest = &gramsRef{ix: ix}, m
		}
		h.cur.refs++
		r := h.cur
		h.mu.Unlock()
		return r, nil
	}
	return nil, fmt.Errorf("index: open the content index: %w", lastErr)
}

// release lets go of r.
func (h *gramsHolder) release(r *gramsRef) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.refs--; r.refs == 0 && r.retired {
		r.ix.Close()
	}
}

// retire closes r once no search holds it; h.mu is held.
func (h *gramsHolder) retire(r *gramsRef) {
	if r == nil {
		return
	}
	r.retired = true
	if r.refs == 0 {
		r.ix.Close()
	}
}

// close closes the current index once its searches are done; acquire fails after it.
func (h *gramsHolder) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	h.retire(h.cur)
	h.cur = nil
}

// Close releases what the searcher holds open (the content index's segments) once the
// searches running are done. Searches after Close fail.
func (s *Searcher) Close() { s.grams.close() }

// needlesQuery is the content index query of a plain content search: every needle (any,
// unless all).
func needlesQuery(needles []string, all bool) *grams.Query {
	qs := make([]*grams.Query, len(needles))
	for i, n := range needles {
		qs[i] = grams.Literal(n)
	}
	if all {
		return grams.And(qs...)
	}
	return grams.Or(qs...)
}

// exprGrams is the content index query of an expression: what a file's text must hold for
// the expression to match it, a superset (the matcher decides). bare: bare terms are
// content (the content target), else only content: leaves are (files, where bare words
// are path fragments).
func exprGrams(n query.Node, cs query.Case, bare bool) *grams.Query {
	switch x := n.(type) {
	case *query.Bool:
		qs := make([]*grams.Query, len(x.Clauses))
		for i, c := range x.Clauses {
			qs[i] = exprGrams(c, cs, bare)
		}
		if x.Op == query.Or {
			return grams.Or(qs...)
		}
		return grams.And(qs...)
	case *query.Leaf:
		if x.Field != "content" && (x.Field != "" || !bare) {
			return grams.Everything()
		}
		switch x.Kind {
		case query.Word, query.Phrase, query.PhrasePrefix, query.Prefix:
			if x.Kind == query.Phrase && x.Slop > 0 {
				var qs []*grams.Query
				for _, w := range strings.Fields(x.Text) {
					qs = append(qs, grams.Literal(w))
				}
				return grams.And(qs...)
			}
			return grams.Literal(x.Text)
		case query.Wildcard:
			var qs []*grams.Query
			for _, part := range strings.FieldsFunc(x.Text, func(r rune) bool { return r == '*' || r == '?' }) {
				qs = append(qs, grams.Literal(part))
			}
			return grams.And(qs...)
		case query.Regex:
			return needGrams(query.RegexNeed(x.Text, !cs.Sensitive(x.Kind, x.Text)))
		}
	}
	// NOT, a range, a fuzzy word, a field that is not the text: any file may match.
	return grams.Everything()
}

// needGrams is the content index query of what a regex's matches must hold.
func needGrams(n query.Need) *grams.Query {
	switch n.Op {
	case query.NeedLit:
		return grams.Literal(n.Lit)
	case query.NeedAll, query.NeedAny:
		qs := make([]*grams.Query, len(n.Subs))
		for i, s := range n.Subs {
			qs[i] = needGrams(s)
		}
		if n.Op == query.NeedAll {
			return grams.And(qs...)
		}
		return grams.Or(qs...)
	}
	return grams.Everything()
}

// withGrams runs fn with the content index of the store's committed manifest.
func (s *Searcher) withGrams(fn func(ix *grams.Index)) error {
	r, err := s.grams.acquire(s.store.Store)
	if err != nil {
		return err
	}
	defer s.grams.release(r)
	fn(r.ix)
	return nil
}

// contentCandidates returns the files the content index finds for q that pass req's
// language, file pattern and test policy, in the index's order (ContentPrior, then path).
func (s *Searcher) contentCandidates(ctx context.Context, req *Request, q *grams.Query) ([]grams.Doc, error) {
	var docs []grams.Doc
	if err := s.withGrams(func(ix *grams.Index) { docs = ix.Candidates(q) }); err != nil {
		return nil, err
	}
	return s.admitDocs(ctx, req, docs), ctx.Err()
}

// SetUnindexed tells the searcher which files the store holds newer than its content index
// (an index run's, Writer.Searcher): fn's paths are candidates of every content search,
// after the content index's, so a search during the run finds a changed file by its new
// text. Deleted ones are read and dropped like any other.
func (s *Searcher) SetUnindexed(fn func() []string) { s.unindexed = fn }

// admitDocs keeps the documents of docs that pass req's language, file pattern and test
// policy, in their order, and adds the files not yet in the content index (SetUnindexed).
func (s *Searcher) admitDocs(ctx context.Context, req *Request, docs []grams.Doc) []grams.Doc {
	if s.unindexed != nil {
		if extra := s.unindexed(); len(extra) > 0 {
			listed := make(map[string]bool, len(docs))
			for _, d := range docs {
				listed[d.Path] = true
			}
			for _, p := range extra {
				if !listed[p] {
					listed[p] = true
					docs = append(docs, grams.Doc{Path: p, Prior: ContentPrior(p, 0)})
				}
			}
		}
	}
	out := docs[:0]
	for _, d := range docs {
		if req.Language != "" && s.storedLanguage(ctx, d.Path) != req.Language {
			continue
		}
		if !s.admitsTests(*req, d.Path) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// storedLanguage returns the language the store gave the file at path ("" when unknown):
// the one its content was detected as, which its name alone may not tell (a script's #!
// line).
func (s *Searcher) storedLanguage(ctx context.Context, path string) string {
	s.langsOnce.Do(func() {
		paths, err := s.loadPaths(ctx)
		if err != nil {
			return
		}
		s.langs = make(map[string]string, len(paths))
		for _, e := range paths {
			s.langs[e.path] = e.lang
		}
	})
	if l, ok := s.langs[path]; ok {
		return l
	}
	return s.LanguageOf(path)
}
