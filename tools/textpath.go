package tools

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextPath returns a path as a line of text shows it: unchanged, or quoted as Go quotes a
// string ("we\nird.go") when it holds a control character (a newline, a tab, ...) or
// bytes that are not UTF-8, or starts with a double quote, so that one result stays one
// line and a quoted path is told from a plain one.
func TextPath(p string) string {
	if strings.HasPrefix(p, `"`) || !utf8.ValidString(p) || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return strconv.Quote(p)
	}
	return p
}
