package scoring

import (
	"path"
	"strings"
)

// TargetWeights are the weights of definition, content and file hits when the auto target
// ranks them together; each target's scores are normalized to at most 1 first.
type TargetWeights struct {
	Definition, Content, File float64
}

// Target weights by what a query looks like.
var (
	// IdentifierWeights are for one word: a name, so its definition first.
	IdentifierWeights = TargetWeights{Definition: 1, Content: 0.4, File: 0.5}
	// FileNameWeights are for one word with a / or a file extension: a file.
	FileNameWeights = TargetWeights{Definition: 0.4, Content: 0.3, File: 1}
	// WordsWeights are for several bare words: natural phrasing, definitions and lines.
	WordsWeights = TargetWeights{Definition: 1, Content: 0.9, File: 0.3}
	// PhraseWeights are for quoted text: the lines that hold it.
	PhraseWeights = TargetWeights{Definition: 0.6, Content: 1, File: 0.2}
)

// Promotions of file hits in auto: a file named exactly as asked for, and a file whose name
// is the identifier asked for (UserService finds UserService.java, below the class).
const (
	PromoteFileExact = 2
	PromoteFileStem  = 1
)

// FileNamePromotion returns the promotion of the file at p for a query that names a file:
// PromoteFileExact when needle (lower-case, without a leading ./) is its name, its path,
// or the tail of its path on a / boundary, else 0.
func FileNamePromotion(needle, p string) float64 {
	lp := strings.ToLower(p)
	if path.Base(lp) == needle || lp == needle || strings.HasSuffix(lp, "/"+needle) {
		return PromoteFileExact
	}
	return 0
}

// FileStemPromotion returns the promotion of the file at p for a query that is an
// identifier: PromoteFileStem when the file's name without its extension is the
// identifier but for case and the separators of names, else 0.
func FileStemPromotion(ident, p string) float64 {
	name := path.Base(strings.ToLower(p))
	if Fold(strings.TrimSuffix(name, path.Ext(name))) == Fold(ident) {
		return PromoteFileStem
	}
	return 0
}

// PhraseLineBoost rewards a line holding the query's words as written, side by side.
const PhraseLineBoost = 1.5

// LineScore returns the score of a line of a file that scored fileScore, holding covered
// of the query's needles: the square of the share covered, so lines holding all of them
// come first, times PhraseLineBoost when together says the line holds them side by side.
func LineScore(fileScore float64, covered, needles int, together bool) float64 {
	frac := float64(covered) / float64(needles)
	score := fileScore * frac * frac
	if together {
		score *= PhraseLineBoost
	}
	return score
}

// Scores of a path match, best first: how a file name or path fragment matches a path.
const (
	PathExactName    = 100 // the file name itself: index.ts
	PathExactPath    = 95  // the whole path, or its tail on a / boundary: search/mod.rs
	PathNamePrefix   = 70  // the start of the file name: serv for server.go
	PathStemMatch    = 65  // the file name without extension, but for case and _ -: user_service for UserService.java
	PathNameContains = 50  // inside the file name
	PathContains     = 40  // inside the path
	PathFragments    = 25  // every fragment (split at / . _ - and spaces), in order
	// PathLengthCost prefers, among equal matches, the shorter path.
	PathLengthCost = 0.01
)

// PathScore returns the score of a path p that matched as match (one of the path match
// scores), from a path of class c: shorter paths first among equal matches, weighed by
// PathWeight.
func PathScore(match float64, p string, c PathClass, keepTests bool) float64 {
	return (match - PathLengthCost*float64(len(p))) * PathWeight(c, keepTests)
}
