package index

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
)

// A regex's literal whose start is open (TODO in /TODO|FIXME/ may end "MYTODO") is a word
// inside a term, which bleve finds with a wildcard query (*todo*): an automaton walked over
// the whole term dictionary of the field, about 0.3 s per word on corpus.sh full. A
// Fulltext that searches more than once (the MCP server, which keeps an index open)
// instead keeps a field's terms in memory, one string "\x00term\x00term...\x00", and finds
// the terms holding a word with bytes.Index in milliseconds. It is built in the background
// on the second such search, so a one-shot search never pays for it.

// termIndex is the terms of one field.
type termIndex struct {
	uses  atomic.Int32
	ready atomic.Bool
	once  sync.Once
	blob  []byte
	err   error
}

// termsHolding returns the terms of field holding word (a lower-case word): ending with it
// when !openRight. ok is false when the field's terms are not in memory (yet): the caller
// then asks bleve with a wildcard.
func (f *Fulltext) termsHolding(field, word string, openRight bool) (terms []string, ok bool) {
	f.termsMu.Lock()
	if f.terms == nil {
		f.terms = map[string]*termIndex{}
	}
	ti := f.terms[field]
	if ti == nil {
		ti = &termIndex{}
		f.terms[field] = ti
	}
	f.termsMu.Unlock()
	if !ti.ready.Load() {
		if ti.uses.Add(1) == 2 {
			go ti.once.Do(func() { ti.build(f, field) })
		}
		return nil, false
	}
	if ti.err != nil {
		return nil, false
	}
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

// build reads the terms of field.
func (ti *termIndex) build(f *Fulltext, field string) {
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
