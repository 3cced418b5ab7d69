package query

import "strings"

// NotFields returns the names of the bare words of n written as a field and its value
// (colour:red: a lower-case name, a colon, a value) whose name is no field. The parser
// reads them as text, as it must (TODO:, key:value in a config file), which a caller may
// want to say; a near miss of a field's name (knd:) is an error of the parser instead.
func NotFields(n Node) []string {
	var out []string
	if n == nil {
		return nil
	}
	Walk(n, func(x Node, _ bool) {
		l, ok := x.(*Leaf)
		if !ok || l.Field != "" || l.Kind != Word && l.Kind != Prefix && l.Kind != Wildcard {
			return
		}
		name, value, found := strings.Cut(l.Text, ":")
		if !found || value == "" || value[0] == ':' || value[0] == '/' || !fieldLike(name) {
			return
		}
		if _, ok := LookupField(name); !ok {
			out = append(out, name)
		}
	})
	return out
}

// fieldLike reports whether name is written as a field's name is: two or more lower-case
// letters or underscores.
func fieldLike(name string) bool {
	if len(name) < 2 {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}
