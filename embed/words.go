// Package embed learns word and symbol vectors from a workspace's own code, with no model
// to download: which words occur near which in identifiers, signatures, doc comments and
// bodies (positive pointwise mutual information), reduced by a truncated SVD to a few
// hundred dimensions. A symbol's vector is the weighted mean of its words' vectors; a
// question's vector is made the same way, so a question in words finds code whose words
// keep company with its words. Everything here is pure: words in, vectors out.
package embed

import (
	"strings"
	"unicode"
)

// Words returns the words of text for learning and embedding: identifiers split at case
// changes, underscores and digits, lower-cased, lightly stemmed; stop words, numbers and
// single letters dropped.
func Words(text string) []string {
	var out []string
	flush := func(w string) {
		if len(w) < 2 || len(w) > 30 {
			return
		}
		w = stem(strings.ToLower(w))
		if len(w) < 2 || stopWords[w] {
			return
		}
		out = append(out, w)
	}
	rs := []rune(text)
	start := -1
	for i := 0; i <= len(rs); i++ {
		boundary := i == len(rs) || !unicode.IsLetter(rs[i])
		if !boundary && start >= 0 && i > start {
			prev := rs[i-1]
			// fooBar: a lower-to-upper change; HTTPServer: the last upper before a lower.
			if unicode.IsLower(prev) && unicode.IsUpper(rs[i]) ||
				unicode.IsUpper(prev) && unicode.IsUpper(rs[i]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
				flush(string(rs[start:i]))
				start = i
			}
		}
		if boundary {
			if start >= 0 {
				flush(string(rs[start:i]))
			}
			start = -1
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// stem strips the commonest English inflections, so that increments and incremented meet
// increment.
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

// stopWords are English function words and the keywords of the languages indexed: they
// say little about what code does.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or not of to in on at by for from with without into onto as is are was were be been being it its this that these those there here
	if else then than so such when while do doe does did done can could should would may might must will shall has have had having
	we you he she they them their our your my me us i
	which what who whom whose where why how all any each every some no none other another more most less least same own only just also very
	func fn def function return returns var let const val mut pub public private protected static final void int bool boolean string str self this new nil null none true false
	import package use using include class struct enum interface trait impl type typedef extends implements override abstract async await yield
	try catch throw throws except raise finally lambda goto break continue case switch default match loop for while
	eg ie etc see note todo fixme xxx param arg args kwargs`) {
		m[w] = true
	}
	return m
}()
