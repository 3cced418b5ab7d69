package tools

import (
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/index/query"
)

// NotAFieldNotice is in the notice of a search whose query writes a word as a field that
// does not exist (colour:red).
const NotAFieldNotice = "is not a field"

// notFieldNotice says which words of the query text are written as fields but name none
// (colour:red), and so were searched as text, naming the nearest field; "" when none are.
func NotFieldNotice(text string) string {
	n, err := query.ParseExpr(text, query.Options{})
	if err != nil {
		return ""
	}
	names := query.NotFields(n)
	if len(names) == 0 {
		return ""
	}
	var parts []string
	for _, name := range names {
		parts = append(parts, name+":")
	}
	return fmt.Sprintf("%s %s, so it was searched as text (fields: %s; quote the word to search for the text without this notice)",
		strings.Join(parts, ", "), NotAFieldNotice, strings.Join(query.FieldNames(), ", "))
}
