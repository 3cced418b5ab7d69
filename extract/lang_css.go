package extract

import (
	"strings"
)

func init() { register("css", extractCSS) }

// CSS symbols, and the kinds chosen for them from the closed set of kinds:
//
//   - Each selector of a rule is a symbol named by its text (html, body gives two). A
//     selector with a class in it (.btn, .nav > a, li.result::before) is a class: a class
//     names a reusable style that many elements take on, as objects take a type. A selector
//     with an id and no class (#main) is a constant: it names one element of the page, fixed
//     and unique. Any other selector (html, :root, input[type="search"]) is a type: it selects
//     elements by their element type. The signature is the rule's whole selector list.
//   - A custom property (--main-color: ...) is a variable, a child of the rule's first
//     selector: it holds a value that cascades and is read with var(--main-color), which is
//     recorded as a variable_ref. Other declarations are not symbols.
//   - @keyframes spin is a function named spin: a named, reusable definition run by name
//     (animation: spin 1s) with arguments (duration, easing, repetitions).
//   - @media and @supports blocks are namespaces named by their query ((max-width: 600px),
//     print): they group rules under a condition without changing the rules' names; the
//     rules inside are their children. Other blocks (@layer, @container, @font-face) add no
//     symbol, but the rules inside them are extracted.
//   - @import is an import of the stylesheet it names.

// cssMaxValueLen is the longest custom property value kept in its signature.
const cssMaxValueLen = 60

// cssVar is the function that reads a custom property.
const cssVar = "var"

// extractCSS walks a stylesheet.
func extractCSS(w *walker, root *Node) {
	w.walk(root, cssNode)
}

// cssNode extracts the statement n.
func cssNode(w *walker, n *Node) {
	switch n.Type() {
	case "rule_set":
		cssRule(w, n)
	case "import_statement":
		cssImport(w, n)
	case "keyframes_statement":
		if sym := w.add(n, childOfType(n, "keyframes_name"), Function); sym != nil {
			sym.Signature = w.signature(n, childOfType(n, "keyframe_block_list"))
		}
	case "media_statement", "supports_statement":
		cssConditional(w, n)
	case "at_rule":
		w.walk(childOfType(n, "block"), cssNode)
	}
}

// cssConditional extracts an @media or @supports block as a namespace named by its query,
// with the rules inside as children.
func cssConditional(w *walker, n *Node) {
	block := childOfType(n, "block")
	if block == nil || n.ChildCount() < 2 {
		return
	}
	start, end := int(n.Child(0).EndByte()), int(block.StartByte()) // after the @keyword
	query := ""
	if start < end {
		query = w.signatureRange(start, end)
	}
	sym := w.addNamed(n, query, Namespace)
	meta(sym, "at_rule", strings.TrimPrefix(w.text(n.Child(0)), "@"))
	w.within(sym, func() { w.walk(block, cssNode) })
}

// cssImport extracts @import url("a.css") or @import "a.css" with its media query.
func cssImport(w *walker, n *Node) {
	src := childOfType(n, "string_value")
	if call := childOfType(n, "call_expression"); call != nil && (src == nil || call.StartByte() < src.StartByte()) {
		args := childOfType(call, "arguments")
		src = childOfType(args, "string_value", "plain_value")
		if src == nil && args != nil { // url(reset.css) unquoted
			src = args
		}
	}
	if src == nil {
		return
	}
	text := w.text(src)
	name := strings.Trim(strings.TrimSpace(text), "()\"'")
	sym := w.importName(n, nil, name)
	if sym == nil {
		return
	}
	sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	// The import_ref spans the name inside the quotes (w.ident would keep them).
	if i := strings.Index(text, name); i >= 0 && src.StartPoint().Row == src.EndPoint().Row {
		sp := w.span(src)
		sp.StartByte += i
		sp.EndByte = sp.StartByte + len(name)
		sp.StartColumn = w.column(sp.StartByte, int(src.StartPoint().Column)+i)
		sp.EndColumn = w.column(sp.EndByte, int(src.StartPoint().Column)+i+len(name))
		w.f.Identifiers = append(w.f.Identifiers, Identifier{Name: name, Kind: ImportRef, Span: sp})
	}
}

// cssRule extracts the selectors of a rule and the custom properties it declares.
func cssRule(w *walker, n *Node) {
	selectors := childOfType(n, "selectors")
	block := childOfType(n, "block")
	var first *Symbol
	for _, sel := range namedChildren(selectors) {
		if commentTypes[sel.Type()] {
			continue
		}
		sym := w.addNamed(n, w.text(sel), cssSelectorKind(sel))
		if sym == nil {
			continue
		}
		if sel.StartByte() != n.StartByte() { // the second selector of a, b starts later
			sp := w.span(sel)
			sym.StartLine, sym.StartColumn, sym.StartByte = sp.StartLine, sp.StartColumn, sp.StartByte
		}
		if first == nil {
			first = sym
		}
	}
	w.within(first, func() {
		for _, d := range childrenOfType(block, "declaration") {
			cssDeclaration(w, d)
		}
		w.walk(block, func(w *walker, c *Node) {
			if c.Type() != "declaration" {
				cssNode(w, c) // nested rules and at-rules
			}
		})
	})
}

// cssSelectorKind returns the kind of the symbol of the selector sel: class when it has a
// class selector, constant when it has an id and no class, type otherwise.
func cssSelectorKind(sel *Node) Kind {
	hasID := false
	var visit func(n *Node) bool
	visit = func(n *Node) bool {
		switch n.Type() {
		case "class_selector":
			return true
		case "id_selector":
			hasID = true
		case "arguments": // :not(.hidden) does not style .hidden
			return false
		}
		for _, c := range namedChildren(n) {
			if visit(c) {
				return true
			}
		}
		return false
	}
	switch {
	case visit(sel):
		return Class
	case hasID:
		return Constant
	}
	return Type
}

// cssDeclaration extracts a custom property declaration as a variable, and records the
// custom properties any declaration reads with var().
func cssDeclaration(w *walker, d *Node) {
	prop := childOfType(d, "property_name")
	if name := w.text(prop); strings.HasPrefix(name, "--") {
		if sym := w.addNamed(d, name, Variable); sym != nil {
			end := int(d.EndByte())
			if values := namedChildren(d); len(values) > 1 {
				v := int(values[1].StartByte())
				if val := string(w.src[v:end]); strings.Contains(val, "\n") || len(val) > cssMaxValueLen {
					end = v
				}
			}
			sym.Signature = strings.TrimSuffix(w.signatureRange(int(d.StartByte()), end), ";")
		}
	}
	cssVarRefs(w, d)
}

// cssVarRefs records a variable_ref for each custom property read with var(--name) under n.
func cssVarRefs(w *walker, n *Node) {
	for _, c := range namedChildren(n) {
		if c.Type() == "call_expression" && w.text(childOfType(c, "function_name")) == cssVar {
			if arg := childOfType(childOfType(c, "arguments"), "plain_value"); arg != nil && strings.HasPrefix(w.text(arg), "--") {
				w.ident(arg, VariableRef)
			}
		}
		cssVarRefs(w, c)
	}
}
