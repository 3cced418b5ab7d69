// Package codemodel is Quarry's code-search model at inference time: a neural bag of words
// with a query encoder and a code encoder over one vocabulary, trained by `go run ./train`
// from documented definitions (a doc comment against its definition's name, signature and
// body words). Words in, vectors out: the encoders look each word up, pool the rows by a
// learned weight per word, and return an L2-normalised vector, so that the dot product of
// a query vector and a code vector is their cosine. Nothing here reads files: Decode takes
// the model file's bytes (format.go).
//
// Words are the atoms of Quarry's tokenizer over the text (tokenizer.Tokenizer.Atoms:
// CamelCase, snake_case and digit parts, lower-cased); the encoders pass each through
// Normalize themselves, so callers hand them the atoms as they come.
package codemodel

import "strings"

// Word limits of Normalize.
const (
	minWordLen = 2
	maxWordLen = 30
)

// Normalize returns the vocabulary form of an atom (lower case, the commonest English
// inflections stripped: increments, incremented, incrementing meet increment) and whether it
// is kept: single letters, numbers, words over 30 bytes and English function words are not.
// The rules are part of the model file's version: a model is trained with the words they
// give, so changing them needs a new format version and a retrained model.
func Normalize(atom string) (string, bool) {
	if len(atom) < minWordLen || len(atom) > maxWordLen || atom[0] >= '0' && atom[0] <= '9' {
		return "", false
	}
	w := stem(strings.ToLower(atom))
	if len(w) < minWordLen || stopWords[w] {
		return "", false
	}
	return w, true
}

// stem strips the commonest English inflections.
func stem(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return undouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return undouble(w[:len(w)-2])
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// undouble turns stopp (of stopping) into stop.
func undouble(w string) string {
	if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("lsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords are English function words: they say nothing of what code does.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`an the and or of to in on at by for from with into onto as is are was were be been being it its
	this that these those there here if then than so such when whether while do doe does did can could should would may might must will shall
	has have had we you he she they them their our your my me us which what who whom whose where why how also very just eg ie etc`) {
		m[w] = true
	}
	return m
}()

// Limits of the words a definition gives the model: the same when the model is trained
// (train/pairs.go) and when it embeds a workspace (index/vectors).
const (
	// MaxTextWords is the most words kept of a name, a signature or a doc comment.
	MaxTextWords = 128
	// MaxBodyWords is the most distinct words kept of the identifiers a body uses.
	MaxBodyWords = 64
)

// Words returns the vocabulary forms (Normalize) of atoms that are kept, at most limit.
func Words(atoms []string, limit int) []string {
	var out []string
	for _, a := range atoms {
		if w, ok := Normalize(a); ok {
			out = append(out, w)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// BodyWords returns the distinct words of the identifiers a body uses (names, in order of
// use; atoms splits one into tokenizer atoms), in order of first use, at most MaxBodyWords.
func BodyWords(names []string, atoms func(string) []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		for _, w := range Words(atoms(n), MaxBodyWords) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
				if len(out) == MaxBodyWords {
					return out
				}
			}
		}
	}
	return out
}
