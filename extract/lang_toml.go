package extract

import (
	"slices"
	"strings"
)

func init() { register("toml", extractTOML) }

// tomlMaxValueLen is the longest value (on one line) kept in a key's signature.
const tomlMaxValueLen = 60

// tomlFile is the state of one TOML extraction: the tables defined so far by their full
// name; an array table's name maps to its latest element, the one [[a.b]] belongs to.
type tomlFile struct {
	tables map[string]*Symbol
}

// extractTOML walks a TOML document. A table ([a.b]) or an element of an array of tables
// ([[bin]]) is a namespace named by its full dotted key, a child of the table named by the
// longest prefix of it defined above; its key/value pairs are its fields. The pairs before
// the first table are variables. A dotted key (a.b = 1) is one symbol named a.b, and the
// keys of inline tables ({ version = "1" }) are part of their key's value, not symbols.
func extractTOML(w *walker, root *Node) {
	tf := &tomlFile{tables: map[string]*Symbol{}}
	for _, c := range namedChildren(root) {
		switch c.Type() {
		case "pair":
			tomlPair(w, c, Variable)
		case "table", "table_array_element":
			tomlTable(w, c, tf)
		}
	}
}

// tomlTable adds a table or an array table element and the pairs in it.
func tomlTable(w *walker, n *Node, tf *tomlFile) {
	key := childOfType(n, "bare_key", "quoted_key", "dotted_key")
	name := tomlKeyName(w, key)
	var sym *Symbol
	w.within(tf.parent(name), func() { sym = w.addNamed(n, name, Namespace) })
	if sym != nil {
		tf.tables[name] = sym
		sym.Signature = w.signatureRange(int(n.StartByte()), tomlHeaderEnd(n))
		sym.DocComment = tomlDocComment(w, n)
		if n.Type() == "table_array_element" {
			meta(sym, "table", "array")
		}
		tomlTrimEnd(w, sym, n)
	}
	w.within(sym, func() {
		for _, p := range childrenOfType(n, "pair") {
			tomlPair(w, p, Field)
		}
	})
}

// parent returns the table named by the longest proper prefix of the dotted name, or nil.
func (tf *tomlFile) parent(name string) *Symbol {
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if sym := tf.tables[name[:i]]; sym != nil {
			return sym
		}
	}
	return nil
}

// tomlHeaderEnd returns the offset just past the closing ] or ]] of a table's header.
func tomlHeaderEnd(n *Node) int {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.Type() == "]" || c.Type() == "]]" {
			return int(c.EndByte())
		}
	}
	return int(n.EndByte())
}

// tomlTrimEnd ends the table sym, of node n, with its last pair (or its header): the
// comments the grammar puts at the end of a table are above the next one.
func tomlTrimEnd(w *walker, sym *Symbol, n *Node) {
	for i := int(n.ChildCount()) - 1; i >= 0; i-- {
		if c := n.Child(i); c.Type() != "comment" {
			trimSpanEnd(w, sym, int(c.EndByte()), int(c.EndPoint().Row))
			return
		}
	}
}

// tomlPair adds a key/value pair as a symbol of kind, its signature the pair when the value
// is short, else the key.
func tomlPair(w *walker, n *Node, kind Kind) {
	key := childOfType(n, "bare_key", "quoted_key", "dotted_key")
	sym := w.addNamed(n, tomlKeyName(w, key), kind)
	if sym == nil {
		return
	}
	if v := n.NamedChild(int(n.NamedChildCount()) - 1); v != nil && v != key && len(oneLine(w.text(v), tomlMaxValueLen+1)) > tomlMaxValueLen {
		sym.Signature = w.signatureRange(int(n.StartByte()), int(v.StartByte()))
	}
}

// tomlKeyName returns a key's name: its parts joined by dots, a quoted part without its
// quotes unless it holds a dot ("quoted key", target.cfg(unix).dependencies,
// site."example.com").
func tomlKeyName(w *walker, key *Node) string {
	if key == nil {
		return ""
	}
	if key.Type() != "dotted_key" {
		return tomlKeyPart(w.text(key))
	}
	parts := make([]string, 0, key.NamedChildCount())
	for _, c := range namedChildren(key) {
		parts = append(parts, tomlKeyName(w, c))
	}
	return strings.Join(parts, ".")
}

// tomlKeyPart returns one part of a key without its quotes, unless it holds a dot.
func tomlKeyPart(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] && !strings.Contains(s, ".") {
		return s[1 : len(s)-1]
	}
	return s
}

// tomlDocComment returns the comment block right above the table n. The grammar puts the
// comments between two tables at the end of the first one, so they are looked for there
// too; a comment at the end of a pair's line belongs to the pair.
func tomlDocComment(w *walker, n *Node) string {
	if doc := w.docComment(n); doc != "" {
		return doc
	}
	prev := n.PrevNamedSibling()
	if prev == nil || (prev.Type() != "table" && prev.Type() != "table_array_element") {
		return ""
	}
	var parts []string
	line := int(n.StartPoint().Row)
	for c := prev.NamedChild(int(prev.NamedChildCount()) - 1); c != nil && c.Type() == "comment" && int(c.EndPoint().Row) == line-1; c = c.PrevNamedSibling() {
		if q := c.PrevSibling(); q != nil && q.Type() != "comment" && q.EndPoint().Row == c.StartPoint().Row {
			break
		}
		parts = append(parts, w.text(c))
		line = int(c.StartPoint().Row)
	}
	slices.Reverse(parts)
	return cleanComment(strings.Join(parts, "\n"))
}
