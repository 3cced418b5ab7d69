package extract

import (
	"context"
	"strings"

	"github.com/quarrysearch/quarry/languages"
)

// Syntax is what a stretch of source is, for the colours of the file view: read from the
// syntax tree the extractor parses, by rules every grammar's node names follow (a node
// whose type says comment, string, number, type; a keyword is a word the grammar spells
// out; a definition's name is the name field of a declaration).
type Syntax uint8

const (
	SyntaxNone Syntax = iota
	SyntaxComment
	SyntaxString
	SyntaxNumber
	SyntaxConstant // true, false, nil, null, None
	SyntaxKeyword
	SyntaxType
	SyntaxDefinition // the name a function, method, type or class declaration defines
	SyntaxProperty   // a key of a mapping (YAML, TOML, JSON, CSS, HTML attributes)
	SyntaxHeading    // a Markdown heading
)

// syntaxClasses are the CSS classes of the file view, one per Syntax.
var syntaxClasses = [...]string{"", "c", "s", "m", "kc", "k", "kt", "nf", "py", "gh"}

// CSSClass is the class of the file view's span around text of class c ("" for none).
func (c Syntax) CSSClass() string {
	if int(c) < len(syntaxClasses) {
		return syntaxClasses[c]
	}
	return ""
}

// SyntaxSpan is a stretch of a file, in bytes, of one Syntax.
type SyntaxSpan struct {
	Start, End uint32
	Syntax     Syntax
}

// Highlight returns the classified stretches of src, the file at path in lang, in order
// and apart: the text between them has no class. A file the grammar cannot parse in time
// gets an error (shown without colours).
func (e *Extractor) Highlight(ctx context.Context, path string, src []byte, lang *languages.Language) ([]SyntaxSpan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if lang == nil || grammars[lang.Grammar] == nil {
		return nil, nil
	}
	text, wrapped, _ := parseInput(lang.Name, path, src)
	tree, err := e.parse(lang, text)
	if err != nil {
		return nil, err
	}
	root := flatten(tree, text)
	tree.Close()
	defer root.t.release()
	h := highlighter{classes: make([]Syntax, len(text))}
	h.visit(root)
	// back into the file: a wrap's prefix and a repair's tail are not the file's
	from := wrapped.bytes
	to := min(from+len(src), len(h.classes))
	return runs(h.classes[from:to]), nil
}

// highlighter classifies the bytes of one parsed text.
type highlighter struct {
	classes []Syntax
}

func (h *highlighter) fill(n *Node, c Syntax) {
	end := min(int(n.end), len(h.classes))
	for i := int(n.start); i < end; i++ {
		h.classes[i] = c
	}
}

// visit classifies n and what is under it, in pre-order: a child's class overrides its
// parent's. Comments, numbers, keys and strings are classified whole; inside a string only
// an interpolation (${x}, {x}, #{x}) is code again.
func (h *highlighter) visit(n *Node) {
	c := h.classify(n)
	switch c {
	case SyntaxComment, SyntaxNumber, SyntaxProperty, SyntaxHeading:
		h.fill(n, c)
		return
	case SyntaxString:
		h.fill(n, c)
		h.interpolations(n)
		return
	case SyntaxNone:
	default:
		h.fill(n, c)
	}
	for i := range int(n.nkids) {
		h.visit(n.Child(i))
	}
}

// interpolations finds the code inside a string n and classifies it as code.
func (h *highlighter) interpolations(n *Node) {
	for i := range int(n.nkids) {
		k := n.Child(i)
		t := k.Type()
		if strings.Contains(t, "interpolation") || strings.Contains(t, "substitution") {
			h.fill(k, SyntaxNone)
			for j := range int(k.nkids) {
				h.visit(k.Child(j))
			}
			continue
		}
		h.interpolations(k)
	}
}

// constants are the node types of the literal constants of the grammars.
var constants = map[string]bool{
	"true": true, "false": true, "nil": true, "null": true, "none": true, "undefined": true,
	"boolean_literal": true, "null_literal": true, "nil_literal": true, "boolean": true,
	"iota": true, "unit": true,
}

// typeNodes are the node types of built-in types besides the *type_identifier ones.
var typeNodes = map[string]bool{
	"primitive_type": true, "predefined_type": true, "builtin_type": true, "integral_type": true,
	"floating_point_type": true, "boolean_type": true, "void_type": true,
	"sized_type_specifier": true, "type_identifier": true,
}

// declarations are the words whose presence in a node's type makes its name field a
// definition's name.
var declarations = []string{"function", "method", "class", "struct", "interface", "enum", "trait",
	"type_spec", "type_alias", "constructor", "module", "record", "object", "protocol", "union", "macro"}

func (h *highlighter) classify(n *Node) Syntax {
	if n.IsError() || n.IsMissing() {
		return SyntaxNone
	}
	t := n.Type()
	if !n.IsNamed() {
		if isKeywordToken(t) && n.end > n.start {
			return SyntaxKeyword
		}
		return SyntaxNone
	}
	switch {
	case strings.Contains(t, "comment"):
		return SyntaxComment
	case strings.Contains(t, "heading"):
		return SyntaxHeading
	case isStringNode(t):
		return SyntaxString
	case isNumberNode(t):
		return SyntaxNumber
	case constants[t]:
		return SyntaxConstant
	case typeNodes[t] || strings.HasSuffix(t, "type_identifier"):
		return SyntaxType
	case strings.HasSuffix(t, "attribute_name") || t == "property_name" || t == "bare_key" ||
		t == "quoted_key" || t == "dotted_key":
		return SyntaxProperty
	}
	if n.parent >= 0 && int(n.field) < len(n.t.names.fields) {
		switch n.t.names.fields[n.field] {
		case "name":
			if p := n.Parent().Type(); strings.Contains(t, "identifier") && isDeclaration(p) {
				return SyntaxDefinition
			}
		case "key":
			if strings.Contains(n.Parent().Type(), "pair") {
				return SyntaxProperty
			}
		}
	}
	return SyntaxNone
}

// isKeywordToken: an anonymous token spelled as a word (func, return, #include, @interface).
func isKeywordToken(t string) bool {
	letters := 0
	for i := 0; i < len(t); i++ {
		switch b := t[i]; {
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z':
			letters++
		case b == '_' || (b == '#' || b == '@') && i == 0:
		default:
			return false
		}
	}
	return letters >= 2
}

func isStringNode(t string) bool {
	if strings.Contains(t, "type") {
		return false
	}
	for _, w := range []string{"string", "char_literal", "character_literal", "rune_literal", "heredoc", "regex", "code_span", "fenced_code_block", "attribute_value", "link_destination"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

func isNumberNode(t string) bool {
	if strings.Contains(t, "type") {
		return false
	}
	switch {
	case strings.Contains(t, "number"), strings.HasPrefix(t, "integer"), strings.HasPrefix(t, "float"),
		strings.Contains(t, "int_literal"), strings.Contains(t, "integer_literal"),
		strings.Contains(t, "floating_point_literal"), t == "real_literal", t == "imaginary_literal",
		t == "decimal", t == "hex", t == "octal":
		return true
	}
	return false
}

func isDeclaration(t string) bool {
	for _, w := range declarations {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// runs turns one class a byte into the spans of the classified runs.
func runs(classes []Syntax) []SyntaxSpan {
	var out []SyntaxSpan
	for i := 0; i < len(classes); {
		j := i + 1
		for j < len(classes) && classes[j] == classes[i] {
			j++
		}
		if classes[i] != SyntaxNone {
			out = append(out, SyntaxSpan{Start: uint32(i), End: uint32(j), Syntax: classes[i]})
		}
		i = j
	}
	return out
}
