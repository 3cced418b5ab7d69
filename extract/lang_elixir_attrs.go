package extract

// Module attributes of Elixir (lang_elixir.go walks the rest): the docs, specs and
// behaviours they declare for the definitions after them, types, callbacks and constants.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// exReservedAttrs are the module attributes that Elixir, protocols, Mix tasks and ExUnit
// read: none is a constant a developer looks up.
var exReservedAttrs = map[string]bool{
	"enforce_keys": true, "compile": true, "dialyzer": true, "deprecated": true, "since": true,
	"external_resource": true, "on_load": true, "on_definition": true, "before_compile": true,
	"after_compile": true, "after_verify": true, "optional_callbacks": true, "vsn": true, "file": true,
	"nifs": true, "fallback_to_any": true, "moduletag": true, "describetag": true, "tag": true,
	"shortdoc": true, "recursive": true, "requirements": true, "preferred_envs": true,
}

// exAttribute extracts a module attribute statement: @moduledoc, @doc, @typedoc, @spec,
// @impl, @behaviour, @derive, a type, a callback or a constant.
func exAttribute(w *walker, n *Node, s *exScope) {
	op := field(n, "operand")
	if op == nil || op.Type() != "call" || field(op, "target") == nil || field(op, "target").Type() != "identifier" {
		exExpr(w, n, s)
		return
	}
	arg := exFirstArg(op)
	switch name := w.text(field(op, "target")); name {
	case "moduledoc":
		if s.module != nil && arg != nil {
			if doc, ok := exDocString(w, arg); ok {
				s.module.DocComment = doc
			}
		}
	case "doc": // @doc since: "1.2" is metadata beside a @doc string, not one
		if doc, ok := exDocString(w, arg); ok {
			s.doc, s.hasDoc = doc, true
		}
	case "typedoc":
		if doc, ok := exDocString(w, arg); ok {
			s.typedoc, s.hasTypedoc = doc, true
		}
	case "impl":
		s.impl = oneLine(w.text(arg), maxNameRunes)
	case "spec":
		if h, ok := exParseHead(w, exSpecHead(w, arg)); ok && !h.operator {
			s.specs[w.text(h.name)+"/"+strconv.Itoa(len(h.params))] = field(exSpecBody(w, arg), "right")
		}
		w.within(s.module, func() { w.typeRefs(arg, "alias") })
	case "behaviour", "derive":
		exImplements(w, arg, s)
	case "type", "typep", "opaque":
		exType(w, n, name, arg, s)
	case "callback", "macrocallback":
		exCallback(w, n, name, arg, s)
	default:
		if !exReservedAttrs[name] {
			exConstant(w, n, "@"+name, arg, s)
		}
	}
}

// exDocString returns the text of a @doc, @moduledoc or @typedoc argument: a string, a
// heredoc or a sigil (~S"""), without the indentation of a heredoc's closing quotes. @doc
// false gives "" and true: the function is documented as hidden.
func exDocString(w *walker, n *Node) (string, bool) {
	if n == nil {
		return "", false
	}
	switch n.Type() {
	case "string", "sigil", "charlist":
	case "boolean":
		return "", true
	default:
		return "", false
	}
	start, end := int(n.StartByte()), int(n.EndByte())
	indent := ""
	if q := field(n, "quoted_start"); q != nil {
		start = int(q.EndByte())
	}
	if q := field(n, "quoted_end"); q != nil && !q.IsMissing() {
		end = int(q.StartByte())
		if len(w.text(q)) == 3 { // a heredoc: its lines are indented like the closing quotes
			indent = strings.Repeat(" ", int(q.StartPoint().Column))
		}
	}
	if end < start {
		return "", false
	}
	lines := strings.Split(string(w.src[start:end]), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.TrimPrefix(l, indent), " \t\r")
	}
	doc := strings.Trim(strings.Join(lines, "\n"), "\n")
	if utf8.RuneCountInString(doc) > maxDocRunes {
		doc = oneLine(doc, maxDocRunes)
	}
	return doc, true
}

// exSpecBody returns the name :: type part of a spec, type or callback argument (the
// left of a when clause).
func exSpecBody(w *walker, n *Node) *Node {
	if n != nil && n.Type() == "binary_operator" && w.text(field(n, "operator")) == "when" {
		n = field(n, "left")
	}
	return n
}

// exSpecHead returns the head of a spec, type or callback: the left of its ::.
func exSpecHead(w *walker, n *Node) *Node {
	n = exSpecBody(w, n)
	if n != nil && n.Type() == "binary_operator" && w.text(field(n, "operator")) == "::" {
		return field(n, "left")
	}
	return n
}

// exImplements records @behaviour M and @derive [P, Q] as implements relationships of the
// module.
func exImplements(w *walker, arg *Node, s *exScope) {
	if s.module == nil || arg == nil {
		return
	}
	nodes := []*Node{arg}
	if arg.Type() == "list" {
		nodes = namedChildren(arg)
	}
	w.within(s.module, func() {
		for _, a := range nodes {
			if a.Type() == "tuple" { // @derive {Jason.Encoder, only: [:name]}
				a = a.NamedChild(0)
			}
			if name := exModuleName(w, a, s); name != "" {
				w.ident(a, TypeUsage)
				w.relate(s.module, name, Implements, a)
			}
		}
	})
}

// exType extracts @type, @typep and @opaque.
func exType(w *walker, n *Node, attr string, arg *Node, s *exScope) {
	h, ok := exParseHead(w, exSpecHead(w, arg))
	if !ok || h.operator {
		return
	}
	sym := w.addNamed(n, w.text(h.name), Type)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	if attr == "typep" {
		sym.Visibility = Private
	}
	if attr == "opaque" {
		meta(sym, "opaque", "true")
	}
	if s.hasTypedoc {
		sym.DocComment = s.typedoc
	}
	s.typedoc, s.hasTypedoc = "", false
	if len(h.params) > 0 {
		meta(sym, "arity", strconv.Itoa(len(h.params)))
	}
	sym.Signature = w.signatureRange(int(n.StartByte()), int(n.EndByte()))
	w.typeInfo(sym, "alias", field(exSpecBody(w, arg), "right"))
	w.within(sym, func() { w.typeRefs(field(exSpecBody(w, arg), "right"), "alias") })
}

// exCallback extracts @callback and @macrocallback as methods of the behaviour module.
func exCallback(w *walker, n *Node, attr string, arg *Node, s *exScope) {
	h, ok := exParseHead(w, exSpecHead(w, arg))
	if !ok {
		return
	}
	sym := w.addNamed(n, w.text(h.name), Method)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	meta(sym, "callback", "true")
	if attr == "macrocallback" {
		meta(sym, "macro", "true")
	}
	meta(sym, "arity", strconv.Itoa(len(h.params)))
	if s.hasDoc {
		sym.DocComment = s.doc
	}
	s.doc, s.hasDoc = "", false
	sym.Signature = w.signatureRange(int(n.StartByte()), int(n.EndByte()))
	w.typeInfo(sym, "return", field(exSpecBody(w, arg), "right"))
	w.within(sym, func() { w.typeRefs(arg, "alias") })
}

// exMaxValueBytes is the longest attribute value kept in a constant's signature.
const exMaxValueBytes = 80

// exConstant extracts @name value as a constant of the module (its first definition: an
// accumulating attribute is set many times).
func exConstant(w *walker, n *Node, name string, value *Node, s *exScope) {
	if s.attrs[name] {
		exExpr(w, value, s)
		return
	}
	sym := w.addNamed(n, name, Constant)
	if sym == nil {
		return
	}
	s.attrs[name] = true
	sym.Visibility = Private
	if s.hasDoc { // @doc above an attribute documents nothing, but it is meant for it
		sym.DocComment = s.doc
		s.doc, s.hasDoc = "", false
	}
	if t := w.text(value); strings.Contains(t, "\n") || len(t) > exMaxValueBytes {
		sym.Signature = name
	} else {
		sym.Signature = w.signatureRange(int(n.StartByte()), int(n.EndByte()))
	}
	w.within(sym, func() { exExpr(w, value, s) })
}
