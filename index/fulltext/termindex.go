package fulltext

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
)

// A regex's literal whose start is open (TODO in /TODO|FIXME/ may end "MYTODO") is a word
// inside a term, which bleve finds with a wildcard query (*todo*): an automaton walked over
// the whole term dictionary of the field, about 0.3 s per word on corpus.sh full. A
// Index that searches more than once (the MCP server, which keeps an index open)
// instead keeps a field's terms in memory, one string "\x00term\x00term...\x00", and finds
// the terms holding a word with bytes.Index in milliseconds. It is built in the background
// on the second such search, so a one-shot search never pays for it.

// termIndex is the terms of one field.
type termIndex struct {
	field string
	ft    *Index
	uses  atomic.Int32
	ready atomic.Bool
	once  sync.Once
	blob  []byte
	err   error

	mu   sync.Mutex
	seen map[string][]string // word (with a trailing "*" when open on the right) -> its terms
}

// maxSeenWords caps the words whose terms a term index remembers.
const maxSeenWords = 1024

// termsHolding returns the terms of field holding word (a lower-case word): ending with it
// when !openRight. ok is false when the field's terms are not in memory (yet): the caller
// then asks bleve with a wildcard.
func (f *Index) termsHolding(field, word string, openRight bool) (terms []string, ok bool) {
	ti := f.termIndex(field)
	if !ti.use() {
		return nil, false
	}
	key := word
	if openRight {
		key += "*"
	}
	ti.mu.Lock()
	terms, seen := ti.seen[key]
	ti.mu.Unlock()
	if seen {
		return terms, true
	}
	defer func() {
		ti.mu.Lock()
		if ti.seen == nil || len(ti.seen) >= maxSeenWords {
			ti.seen = map[string][]string{}
		}
		ti.seen[key] = terms
		ti.mu.Unlock()
	}()
	blob, w := ti.blob, []byte(word)
	for i := 0; i < len(blob); {
		j := bytes.Index(blob[i:], w)
		if j < 0 {
			break
		}
		at := i + j
		start := bytes.LastIndexByte(blob[:at], 0) + 1
		end := at + bytes.IndexByte(blob[at:], 0)
		if openRight || at+len(w) == end {
			terms = append(terms, string(blob[start:end]))
		}
		i = end + 1
	}
	return terms, true
}

// termIndex returns the term index of field, built or not.
func (f *Index) termIndex(field string) *termIndex {
	f.termsMu.Lock()
	defer f.termsMu.Unlock()
	if f.terms == nil {
		f.terms = map[string]*termIndex{}
	}
	ti := f.terms[field]
	if ti == nil {
		ti = &termIndex{field: field, ft: f}
		f.terms[field] = ti
	}
	return ti
}

// termsReady reports whether the terms of every field are in memory (and counts the ask
// as a use, which starts building them on the second).
func (f *Index) termsReady(fields ...string) bool {
	ok := true
	for _, field := range fields {
		ok = f.termIndex(field).use() && ok
	}
	return ok
}

// use reports whether the terms are in memory; the second use starts reading them in the
// background.
func (ti *termIndex) use() bool {
	if ti.ready.Load() {
		return ti.err == nil
	}
	if ti.uses.Add(1) == 2 {
		go ti.once.Do(func() { ti.build(ti.ft, ti.field) })
	}
	return false
}

// build reads the terms of field.
func (ti *termIndex) build(f *Index, field string) {
	defer ti.ready.Store(true)
	dict, err := f.idx.FieldDict(field)
	if err != nil {
		ti.err = fmt.Errorf("index: terms of %s: %w", field, err)
		return
	}
	defer dict.Close()
	var b bytes.Buffer
	b.WriteByte(0)
	for {
		e, err := dict.Next()
		if err != nil {
			ti.err = err
			return
		}
		if e == nil {
			break
		}
		b.WriteString(e.Term)
		b.WriteByte(0)
	}
	ti.blob = b.Bytes()
}
