package extract

import "sync"

// Rust's uses of names as values and in paths: every name a function's body reads (a
// constant, a static, a function passed as a value) except the function's own locals and
// parameters, and every segment of a path (Error of Error::new, Op of Op::Less, the modules
// of crate::error::ErrorKind), each with the path before it as its qualifier.

// rustLocals holds, for each function being walked, the names its parameters and patterns
// bind (let, match arms, closures, for, if let), each with the byte offsets where a binding
// of it comes into scope (the end of a let statement, the start of a match arm, a closure
// or a loop's body); a bare name read after one of them is a local, not a use of a
// definition (let comparator = comparator(text) calls the function). Keyed by the
// function's symbol, removed when its walk ends.
var rustLocals sync.Map // *Symbol -> map[string][]uint32

// rustWithLocals walks a function's body with the names it binds known (see rustLocals).
func rustWithLocals(w *walker, sym *Symbol, fn *Node, walk func()) {
	if sym == nil {
		walk()
		return
	}
	bound := map[string][]uint32{}
	rustBindings(w, field(fn, "parameters"), bound, true, fn.StartByte())
	rustBindings(w, field(fn, "body"), bound, false, 0)
	rustLocals.Store(sym, bound)
	defer rustLocals.Delete(sym)
	walk()
}

// rustIsLocal reports whether the name n spells is bound, where n is, by a parameter or
// pattern of the innermost function around the walk.
func rustIsLocal(w *walker, n *Node) bool {
	name, at := w.text(n), n.StartByte()
	for i := len(w.stack) - 1; i >= 0; i-- {
		s := w.stack[i]
		if !s.Kind.IsCallable() {
			continue
		}
		m, ok := rustLocals.Load(s)
		if !ok {
			return false
		}
		for _, from := range m.(map[string][]uint32)[name] {
			if from <= at {
				return true
			}
		}
		return false
	}
	return false
}

// rustBindings adds to bound the names the patterns under n bind, in scope from the byte
// offset from; pattern says n is itself a pattern (or a parameter list).
func rustBindings(w *walker, n *Node, bound map[string][]uint32, pattern bool, from uint32) {
	if n == nil {
		return
	}
	t := n.Type()
	if pattern {
		switch t {
		case "identifier":
			if name := w.text(n); !isUpperStart(name) { // an upper-case name is a constant or a unit variant
				bound[name] = append(bound[name], from)
			}
		case "shorthand_field_identifier":
			bound[w.text(n)] = append(bound[w.text(n)], from)
		case "parameter":
			rustBindings(w, field(n, "pattern"), bound, true, from)
		case "scoped_identifier", "type_identifier", "scoped_type_identifier", "generic_type", "reference_type",
			"primitive_type", "string_literal", "integer_literal", "char_literal", "field_identifier":
		case "tuple_struct_pattern", "struct_pattern":
			typ := field(n, "type")
			for _, c := range namedChildren(n) {
				if typ == nil || !c.Equal(typ) {
					rustBindings(w, c, bound, true, from)
				}
			}
		default:
			for _, c := range namedChildren(n) {
				rustBindings(w, c, bound, true, from)
			}
		}
		return
	}
	var pat *Node
	scope := n.StartByte()
	switch t {
	case "function_item":
		return // a nested function binds its own
	case "let_declaration", "let_condition":
		pat, scope = field(n, "pattern"), n.EndByte()
	case "for_expression":
		pat = field(n, "pattern")
		if b := field(n, "body"); b != nil {
			scope = b.StartByte()
		}
	case "match_arm":
		pat = field(n, "pattern")
	case "closure_expression":
		pat = field(n, "parameters")
	}
	if pat != nil {
		rustBindings(w, pat, bound, true, scope)
	}
	for _, c := range namedChildren(n) {
		if pat == nil || !c.Equal(pat) {
			rustBindings(w, c, bound, false, from)
		}
	}
}

// rustValueIdent records a bare name read as a value (an argument, an operand, a returned
// value): a use unless a parameter or pattern of the function binds it; the name a pattern
// binds is not recorded.
func rustValueIdent(w *walker, n *Node) {
	name := w.text(n)
	if name == "" || name == "_" || rustIsLocal(w, n) || rustInPattern(n) && !isUpperStart(name) {
		return
	}
	w.ident(n, VariableRef)
}

// rustInPattern reports whether n is in a pattern (let x, Some(x) =>, |x|, for x in).
func rustInPattern(n *Node) bool {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		switch p.Type() {
		case "let_declaration", "let_condition", "for_expression", "match_arm", "parameter":
			pat := field(p, "pattern")
			return pat != nil && pat.Equal(child)
		case "closure_parameters":
			return true
		case "tuple_pattern", "tuple_struct_pattern", "struct_pattern", "slice_pattern", "ref_pattern", "mut_pattern",
			"captured_pattern", "or_pattern", "match_pattern", "field_pattern", "reference_pattern", "remaining_field_pattern":
			continue
		}
		return false
	}
	return false
}

// rustPathSegments records the segments of the path n (the part before a path's last name):
// Error of Error::new, crate::error of crate::error::ErrorKind; crate, self, super and Self
// are not names.
func rustPathSegments(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier", "type_identifier":
		if !rustIsLocal(w, n) {
			rustIdentQualified(w, n, rustSegmentKind(w.text(n)), "")
		}
	case "scoped_identifier", "scoped_type_identifier":
		if name := field(n, "name"); name != nil && (name.Type() == "identifier" || name.Type() == "type_identifier") {
			w.member(name, n, rustSegmentKind(w.text(name)))
		}
		rustPathSegments(w, field(n, "path"))
	case "generic_type":
		rustPathSegments(w, field(n, "type"))
		w.walk(field(n, "type_arguments"), rustNode)
	}
}

// rustSegmentKind is the kind of use of a path segment: a type's name (upper case) or a
// module's.
func rustSegmentKind(name string) IdentKind {
	if isUpperStart(name) {
		return TypeUsage
	}
	return VariableRef
}

// rustIdentQualified records a use of the name n spells with the qualifier q (a path ends
// with ::), inside the current container.
func rustIdentQualified(w *walker, n *Node, kind IdentKind, q string) {
	name := w.text(n)
	if name == "" || len(name) > maxNameRunes {
		return
	}
	id := Identifier{Name: name, Kind: kind, Span: w.span(n), Qualifier: q}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}

// rustTypeRefs records the type names under n as type usages: a path's last name with the
// path as its qualifier (fmt::Result, crate::Version) and the path's segments; an array
// type's length is a value (TAIL_BYTES of [u8; TAIL_BYTES]).
func rustTypeRefs(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "type_identifier":
		w.ident(n, TypeUsage)
	case "scoped_type_identifier", "scoped_identifier":
		if name := field(n, "name"); name != nil && (name.Type() == "type_identifier" || name.Type() == "identifier") {
			w.member(name, n, TypeUsage)
		}
		rustPathSegments(w, field(n, "path"))
	case "array_type":
		rustTypeRefs(w, field(n, "element"))
		rustNode(w, field(n, "length"))
	default:
		for _, c := range namedChildren(n) {
			rustTypeRefs(w, c)
		}
	}
}
