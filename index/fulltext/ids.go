package fulltext

import (
	"encoding/hex"
	"strings"

	"github.com/quarrysearch/quarry/index/store"
)

// bleve keeps every document's id twice: stored, and in the _id field's dictionary. A
// symbol's document id ("s:" and 16 hex digits) is kept as the 8 bytes the digits spell,
// which took 10 MB off corpus.sh full's index (145.2 MB to 135.2 MB). The byte order of the
// encoded ids is that of the hex ids, so sorting by _id is unchanged.

// symbolIDLen is the length of a symbol's document id: the prefix and 16 hex digits.
const symbolIDLen = len(store.SymbolDocPrefix) + 16

// bleveID is the id bleve keeps for the document id id. Any other id is kept as it is,
// with a NUL added where it could be read as an encoded one (8 bytes, or ending in NUL).
func bleveID(id string) string {
	if len(id) == symbolIDLen && strings.HasPrefix(id, store.SymbolDocPrefix) && isLowerHex(id[len(store.SymbolDocPrefix):]) {
		b, _ := hex.DecodeString(id[len(store.SymbolDocPrefix):])
		return string(b)
	}
	if len(id) == 8 || strings.HasSuffix(id, "\x00") {
		return id + "\x00"
	}
	return id
}

// docID is the document id of the id bleve keeps: bleveID's inverse.
func docID(bid string) string {
	switch {
	case len(bid) == 8:
		return store.SymbolDocPrefix + hex.EncodeToString([]byte(bid))
	case strings.HasSuffix(bid, "\x00"):
		return bid[:len(bid)-1]
	}
	return bid
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
