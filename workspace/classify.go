package workspace

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/quarrysearch/quarry/extract"
)

// Thresholds of Classify's minified-text test, over the head of a file.
//
// Minified code and packed data put most of their bytes in a few very long lines; hand-written
// code and prose do not, even when a few of their lines are long (a Markdown paragraph on one
// line, an embedded data URI). So the test is about where the bytes are, not about the single
// longest line: one 6 KB line in a 60 KB source file leaves it indexed.
//
// Web assets (minifiedWebExts) are what minifiers and bundlers write, so for them that is the
// whole test. Other text must also look packed in two more ways, so that source and prose are
// never lost. It has little in lines of ordinary length: a Go test file with 60 lines of code
// and one 28 KB JSON literal is source, and so is a README with an inline image, while base64,
// digits of pi and fuzz corpora are one or two lines. And it has few spaces: prose can be
// mostly long lines, one paragraph a line, but some 15% of its bytes are spaces, against 1-3%
// in minified JavaScript and CSS and none in base64 (measured on the minified assets of the
// Rust documentation, GOROOT/src and the Go module cache). Web assets skip those checks: a
// bundle can start with a long licence comment, and a JavaScript search index or minified
// HTML page can embed enough prose to pass the space check and still be unsearchable by line.
const (
	// classifyHeadLen is how much of a file the minified test looks at.
	classifyHeadLen = 64 << 10
	// minifiedLongLineLen: a line longer than this is long.
	minifiedLongLineLen = 1000
	// minifiedAvgLineLen: text whose lines are longer than this on average is dense.
	minifiedAvgLineLen = 500
	// minifiedLongShare: text with at least this share of its bytes in long lines is dense.
	minifiedLongShare = 0.5
	// minifiedMaxShortBytes: text other than web assets with this many bytes in lines that are
	// not long holds hand-written content, and is never minified.
	minifiedMaxShortBytes = 1024
	// minifiedMaxSpaceShare: text other than web assets with at least this share of spaces
	// and tabs is prose or spaced-out code, never minified.
	minifiedMaxSpaceShare = 0.10
)

// minifiedWebExts are the extensions of web assets and data formats that minifiers and
// bundlers write. Long lines in these are minified whatever their spacing.
var minifiedWebExts = map[string]bool{
	".js": true, ".mjs": true, ".cjs": true, ".css": true, ".map": true, ".json": true,
	".html": true, ".htm": true, ".xhtml": true, ".xml": true, ".svg": true,
}

// minifiedNameSuffixes name files that are minified or bundled by convention; one long line
// in such a file is enough.
var minifiedNameSuffixes = []string{
	".min.js", ".min.mjs", ".min.cjs", ".min.css", "-min.js", "-min.css",
	".bundle.js", "-bundle.js", ".chunk.js",
}

// Classify checks a file's content after reading it: extract.SkipBinary if it has a NUL byte near the
// start (extract.IsBinary), extract.SkipMinified if it is minified or machine-packed text, or "" to
// index it. Only path's base name counts, for its extension and minified-by-name suffixes.
//
// Judged on its first 64 KiB, text is dense if its lines average over 500 bytes or half its
// bytes are in lines over 1000 bytes. A dense web asset (.js, .css, .json, .html, .svg, ...) is
// minified; other dense text is minified if it also has under 1 KiB in lines up to 1000 bytes
// and under a tenth of it is spaces and tabs, so that source with one huge literal and prose
// with one paragraph a line are kept. A *.min.js, *.min.css, *-bundle.js or similar file is
// minified if any line is over 1000 bytes. See the constants above.
func Classify(path string, content []byte) extract.SkipReason {
	if extract.IsBinary(content) {
		return extract.SkipBinary
	}
	if isMinified(path, content) {
		return extract.SkipMinified
	}
	return ""
}

// isMinified reports whether content, the content of the file path, is minified text.
func isMinified(path string, content []byte) bool {
	head := content[:min(len(content), classifyHeadLen)]
	if len(head) == 0 {
		return false
	}
	st := measureMinifiedLines(head)
	name := strings.ToLower(filepath.Base(path))
	if hasMinifiedSuffix(name) && st.longest > minifiedLongLineLen {
		return true
	}
	dense := len(head) > minifiedAvgLineLen*st.lines ||
		float64(st.longBytes) >= minifiedLongShare*float64(len(head))
	if !dense || minifiedWebExts[filepath.Ext(name)] {
		return dense
	}
	if len(head)-st.longBytes >= minifiedMaxShortBytes {
		return false
	}
	spaces := bytes.Count(head, []byte{' '}) + bytes.Count(head, []byte{'\t'})
	return float64(spaces) < minifiedMaxSpaceShare*float64(len(head))
}

// minifiedLineStats describes the lines of a text. Line lengths leave out the newline.
type minifiedLineStats struct {
	lines     int // lines, the last one counted even without a newline
	longBytes int // bytes in lines longer than minifiedLongLineLen
	longest   int // length of the longest line
}

// measureMinifiedLines measures the lines of text.
func measureMinifiedLines(text []byte) minifiedLineStats {
	var st minifiedLineStats
	for len(text) > 0 {
		n := bytes.IndexByte(text, '\n')
		next := n + 1
		if n < 0 {
			n, next = len(text), len(text)
		}
		st.lines++
		st.longest = max(st.longest, n)
		if n > minifiedLongLineLen {
			st.longBytes += n
		}
		text = text[next:]
	}
	return st
}

// hasMinifiedSuffix reports whether the lower-case base name ends in one of
// minifiedNameSuffixes.
func hasMinifiedSuffix(name string) bool {
	for _, s := range minifiedNameSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}
