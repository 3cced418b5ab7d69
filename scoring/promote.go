package scoring

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/languages"
)

// Promotions: how far an exact name match of a definition kind lifts a result. In the
// definitions target they sort first; in auto they add to a score normalized to at most 1.
const (
	// PromoteExact promotes a definition named exactly as asked for, and one named like
	// the last part of a qualified name whose parent is named like the qualifier.
	PromoteExact = 2
	// PromoteExactFold promotes a definition named as asked for but for case and the
	// separators of names (get_user_data for getUserData).
	PromoteExactFold = 1.5
	// PromoteQualifiedPath, PromoteQualifiedSignature and PromoteQualifiedName are the
	// promotions of the last part of a qualified name (Marshal of json.Marshal) by where
	// the qualifier points (see QualifiedBonus): the path, the signature, nowhere.
	PromoteQualifiedPath      = 1.9
	PromoteQualifiedSignature = 1.6
	PromoteQualifiedName      = 1
)

// Definition is what the promotion of a definition depends on.
type Definition struct {
	Name, Kind string
	Parent     string // the name of the enclosing symbol, if any
	Path       string // workspace-relative, POSIX
	Signature  string
}

// Promotion returns the promotion of the definition d for a query: name is the query's
// words (an identifier, or words naming one), qual and last its qualifier and last part
// when it is a qualified name (json and Marshal of json.Marshal; qual is empty
// otherwise), pathWeight the PathWeight of d's path. Only definition kinds are promoted,
// and only from paths not weighed down below docs (tests are, unless asked for).
func Promotion(name, qual, last string, d Definition, pathWeight float64) float64 {
	if !IsDefinitionKind(d.Kind) || pathWeight < DocsWeight {
		return 0
	}
	switch MatchName(name, d.Name) {
	case NameExact:
		return PromoteExact
	case NameExactFold:
		return PromoteExactFold
	}
	// json.Marshal, Vec::new: the name is the last part, the qualifier a hint.
	if qual != "" && MatchName(last, d.Name) == NameExact {
		return QualifiedBonus(d.Parent, d.Path, d.Signature, qual)
	}
	return 0
}

// QualifiedBonus returns the promotion of a definition named like the last part of a
// qualified query, by how well the qualifier qual points at it: its parent is named so
// (TokenStream for TokenStream::new), a directory of its path or its file is (json for
// encoding/json/encode.go), its signature names it (a receiver or return type: Bytes for
// Bytes::new), or nothing does.
func QualifiedBonus(parent, p, signature, qual string) float64 {
	if parent == qual {
		return PromoteExact
	}
	lq := strings.ToLower(qual)
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		if seg == lq || strings.TrimSuffix(seg, path.Ext(seg)) == lq {
			return PromoteQualifiedPath
		}
	}
	if containsWord(signature, qual) {
		return PromoteQualifiedSignature
	}
	return PromoteQualifiedName
}

// containsWord reports whether w occurs in s as a whole word (Bytes in "-> Bytes", not in
// "CowBytes").
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !languages.IsWordRune(before)) && (end == len(s) || !languages.IsWordRune(after)) {
			return true
		}
		i = start + 1
	}
}
