package extract

import (
	"fmt"
	"strconv"

	"github.com/cespare/xxhash/v2"
)

// SymbolID returns the id of the symbol of kind named name that starts at startByte of the
// file at path: a hash of all four, the same for the same content at the same path. The
// parent is left out: several extractors attach a symbol to its parent only after the whole
// file is walked (Go methods to their receiver's type, Rust impl items, Swift extensions),
// and a symbol's kind, name and start are unique in its file without it.
func SymbolID(path string, kind Kind, name string, startByte int) string {
	h := xxhash.New()
	for _, part := range []string{path, kind.String(), name, strconv.Itoa(startByte)} {
		h.WriteString(part)
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// Rebase turns f, extracted from a file, into what extracting the same content at newPath
// gives: the paths and every symbol id (ids hash the path), with the parents, containing
// symbols, relationships and types that refer to them. A renamed file is moved this way
// without being parsed again.
func (f *File) Rebase(newPath string) {
	newIDs := make(map[string]string, len(f.Symbols))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		newIDs[s.ID] = SymbolID(newPath, s.Kind, s.Name, s.StartByte)
	}
	mapID := func(id string) string {
		if n, ok := newIDs[id]; ok {
			return n
		}
		return id
	}
	f.Path = newPath
	for i := range f.Symbols {
		s := &f.Symbols[i]
		s.Path = newPath
		s.ParentID = mapID(s.ParentID)
		s.ID = newIDs[s.ID]
	}
	for i := range f.Identifiers {
		f.Identifiers[i].ContainingSymbolID = mapID(f.Identifiers[i].ContainingSymbolID)
	}
	for i := range f.Relationships {
		f.Relationships[i].FromID = mapID(f.Relationships[i].FromID)
	}
	for i := range f.Types {
		f.Types[i].SymbolID = mapID(f.Types[i].SymbolID)
	}
}
