package extract

import (
	"slices"
	"strings"
)

// Some files are a fragment of what their grammar parses: an OCaml interface (.mli) is the
// inside of a signature, sig … end, which the grammar only accepts after module type X =.
// A language whose grammar needs that registers a wrap: for a file's path, the text to
// parse before and after it (the prefix ends with a newline, so columns stay the file's).
// The wrapped text is parsed and walked; then what the prefix itself defined is dropped,
// its children become top level, and every position is moved back into the file.
var parseWraps = map[string]func(path string) (prefix, suffix string){}

// wrapping is where a wrap put the file inside the text parsed.
type wrapping struct {
	bytes, lines int // the prefix's length and newlines
	size         int // the file's length
}

// wrap returns src wrapped as lang's wrap says for path, and where src sits in it (zero
// when nothing wraps it).
func wrap(lang, path string, src []byte) ([]byte, wrapping) {
	fn := parseWraps[lang]
	if fn == nil {
		return src, wrapping{}
	}
	prefix, suffix := fn(path)
	if prefix == "" {
		return src, wrapping{}
	}
	out := make([]byte, 0, len(prefix)+len(src)+len(suffix))
	out = append(append(append(out, prefix...), src...), suffix...)
	return out, wrapping{bytes: len(prefix), lines: strings.Count(prefix, "\n"), size: len(src)}
}

// unwrap moves what w extracted from wrapped text back into the file: symbols the prefix
// defined are dropped (their children, and the uses inside them, lose them as parent),
// spans are moved back by the prefix and cut at the file's end, and relationships' lines
// moved back. It runs before finish, which computes the final ids from the moved starts.
func (wr wrapping) unwrap(w *walker, src []byte) {
	if wr.bytes == 0 {
		return
	}
	dropped := map[string]bool{}
	w.syms = slices.DeleteFunc(w.syms, func(s *Symbol) bool {
		if s.StartByte < wr.bytes || s.StartByte >= wr.bytes+wr.size {
			dropped[s.ID] = true
			return true
		}
		return false
	})
	end := endOf(src)
	move := func(sp *Span) {
		sp.StartByte, sp.EndByte = max(sp.StartByte-wr.bytes, 0), max(sp.EndByte-wr.bytes, 0)
		sp.StartLine, sp.EndLine = max(sp.StartLine-wr.lines, 1), max(sp.EndLine-wr.lines, 1)
		clampSpan(sp, end)
	}
	for _, s := range w.syms {
		move(&s.Span)
		if dropped[s.ParentID] {
			s.ParentID = ""
		}
	}
	ids := w.f.Identifiers[:0]
	for _, id := range w.f.Identifiers {
		if id.StartByte < wr.bytes || id.StartByte >= wr.bytes+wr.size {
			continue // a name the prefix or suffix wrote
		}
		move(&id.Span)
		if dropped[id.ContainingSymbolID] {
			id.ContainingSymbolID = ""
		}
		ids = append(ids, id)
	}
	w.f.Identifiers = ids
	w.f.Relationships = slices.DeleteFunc(w.f.Relationships, func(r Relationship) bool { return dropped[r.FromID] })
	for i := range w.f.Relationships {
		w.f.Relationships[i].Line = max(w.f.Relationships[i].Line-wr.lines, 1)
	}
	w.f.Types = slices.DeleteFunc(w.f.Types, func(t TypeInfo) bool { return dropped[t.SymbolID] })
}
