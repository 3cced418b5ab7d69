package tools

import "github.com/quarrysearch/quarry/suggest"

// Suggest returns the known names close to typed, nearest first: the "did you mean" of the
// contract's messages, for a caller (the command line) that words its own.
func Suggest(typed string, known []string) []string {
	return suggest.Candidates(typed, known)
}
