package extract

import "strings"

// The uses of names in JavaScript and TypeScript that resolution follows across modules
// (index/nav/jsmodule.go): the bindings of require, what a module exports as a whole
// (module.exports = X, export default X), re-exports, and every identifier read in an
// expression, computed keys (o[k], { [k]: v }) and string keys (o['name']) included.

// jsMetaExport is the metadata key of a top-level definition that is a module's value as a
// whole: "module" for module.exports = X (or TypeScript's export = X), what require gives;
// "default" for export default X.
const jsMetaExport = "export"

// exportAs records that the top-level definition name is exported as a whole, as how
// ("module" or "default"); markExports sets it on the symbol.
func (x *jsExtractor) exportAs(name, how string) {
	if name == "" {
		return
	}
	if x.exportsAs == nil {
		x.exportsAs = map[string]string{}
	}
	x.exportsAs[name] = how
}

// markExports sets the metadata of the top-level definitions the module exports as a whole.
func (x *jsExtractor) markExports() {
	if len(x.exportsAs) == 0 {
		return
	}
	for _, s := range x.w.syms {
		if how := x.exportsAs[s.Name]; how != "" && s.ParentID == "" && s.Kind != Import {
			meta(s, jsMetaExport, how)
		}
	}
}

// defaultExport records what export default n exports: the declaration's name (default for
// a nameless function or class), or the identifier exported.
func (x *jsExtractor) defaultExport(n *Node) {
	w := x.w
	if d := field(n, "declaration"); d != nil {
		x.exportAs(jsName(w, field(d, "name"), true), "default")
		return
	}
	switch v := field(n, "value"); {
	case v == nil:
	case v.Type() == "identifier":
		x.exportAs(w.text(v), "default")
	case jsFunctionValues[v.Type()] || v.Type() == "class":
		x.exportAs(jsName(w, field(v, "name"), true), "default")
	}
}

// exportEquals extracts TypeScript's export = X (the module's value, as module.exports = X):
// it reports whether n was one.
func (x *jsExtractor) exportEquals(n *Node) bool {
	w := x.w
	if !w.hasChild(n, "=") {
		return false
	}
	for _, c := range namedChildren(n) {
		if c.Type() == "identifier" {
			x.exportAs(w.text(c), "module")
			x.exported[w.text(c)] = true
		}
		x.node(c)
	}
	return true
}

// reexport sets what the re-export n (export ... from "m") binds on its import symbol:
// names for export { a, b as c } from "m" (each a use of the name imported), alias for
// export * as ns from "m", wildcard for export * from "m".
func (x *jsExtractor) reexport(sym *Symbol, n *Node) {
	w := x.w
	meta(sym, "reexport", "true")
	if ns := childOfType(n, "namespace_export"); ns != nil {
		if id := childOfType(ns, "identifier", "string"); id != nil {
			meta(sym, jsMetaAlias, strings.Trim(w.text(id), "\"'"))
		}
		return
	}
	clause := childOfType(n, "export_clause")
	if clause == nil {
		if w.hasChild(n, "*") {
			meta(sym, "wildcard", "true")
		}
		return
	}
	var names []string
	for _, spec := range childrenOfType(clause, "export_specifier") {
		name := field(spec, "name")
		if name == nil {
			continue
		}
		w.ident(name, ImportRef)
		s := w.text(name)
		if alias := field(spec, "alias"); alias != nil {
			s += " as " + w.text(alias)
		}
		names = append(names, s)
	}
	meta(sym, "names", strings.Join(names, ", "))
}

// requireBinding extracts name = require("m") as an import of m spanning def that binds
// name (alias: the module's value, what module.exports holds), { a, b: c } = require("m")
// as one that binds names ("a, b as c", as an ES import's), each name imported a use of its
// definition, and y = require("m").x as one that binds x as y. It reports whether value was
// such a require.
func (x *jsExtractor) requireBinding(def, name, value *Node) bool {
	w := x.w
	var member *Node // x of require("m").x
	if value != nil && value.Type() == "member_expression" && jsIsRequire(w, field(value, "object")) {
		if member = field(value, "property"); member == nil || member.Type() != "property_identifier" {
			return false
		}
		w.member(member, value, MemberAccess)
		value = field(value, "object")
	}
	if name == nil || !jsIsRequire(w, value) {
		return false
	}
	s := childOfType(field(value, "arguments"), "string")
	if s == nil {
		return false
	}
	sym := w.importName(def, s, w.text(s))
	switch {
	case member != nil && name.Type() == "identifier": // y = require("m").x, as import { x as y }
		n := w.text(member)
		if l := w.text(name); l != n {
			n += " as " + l
		} else {
			w.ident(name, ImportRef)
		}
		meta(sym, "names", n)
	case member != nil: // { a } = require("m").x: names of a member of m, not of m
	case name.Type() == "identifier":
		meta(sym, jsMetaAlias, w.text(name))
		w.ident(name, ImportRef)
	case name.Type() == "object_pattern":
		var names []string
		for _, c := range namedChildren(name) {
			var key, local *Node
			switch c.Type() {
			case "shorthand_property_identifier_pattern":
				key, local = c, c
			case "object_assignment_pattern": // { a = 1 }
				if l := field(c, "left"); l != nil && l.Type() == "shorthand_property_identifier_pattern" {
					key, local = l, l
				}
				x.node(field(c, "right"))
			case "pair_pattern": // { a: b }, { a: b = 1 }
				key, local = field(c, "key"), field(c, "value")
				if local != nil && local.Type() == "assignment_pattern" {
					x.node(field(local, "right"))
					local = field(local, "left")
				}
				if key == nil || key.Type() != "property_identifier" || local == nil || local.Type() != "identifier" {
					key, local = nil, nil
				}
			}
			if key == nil {
				continue
			}
			w.ident(key, ImportRef)
			n := w.text(key)
			if l := w.text(local); l != n {
				n += " as " + l
			}
			names = append(names, n)
		}
		meta(sym, "names", strings.Join(names, ", "))
	}
	return true
}

// assignedObject records the object a member assignment assigns to (X of X.y = v and of
// X.prototype.y = v) as a use of its name: the statement may define y, and is not walked.
func (x *jsExtractor) assignedObject(a *Node) {
	obj := field(a, "left")
	for obj != nil && obj.Type() == "member_expression" {
		obj = field(obj, "object")
	}
	if obj == nil || obj == field(a, "left") || obj.Type() != "identifier" {
		return
	}
	if name := x.w.text(obj); name != "exports" && name != "module" {
		x.w.ident(obj, VariableRef)
	}
}

// stringKey records o['name'] (index the string) as an access of the member name on o.
func (x *jsExtractor) stringKey(index, object *Node) {
	w := x.w
	name := jsMemberName(w, index)
	if name == "" || !jsIsIdentName(name) || index.EndByte()-index.StartByte() != uint32(len(name)+2) {
		return
	}
	q := w.text(object)
	if len(q) > maxQualifierBytes || strings.ContainsAny(q, "\n") {
		q = ""
	}
	id := Identifier{Name: name, Kind: MemberAccess, Span: w.span(index), Qualifier: q}
	id.StartByte++ // the name inside the quotes
	id.StartColumn++
	id.EndByte--
	id.EndColumn--
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}

// jsIsIdentName reports whether s is an identifier name (a member named by a string key).
func jsIsIdentName(s string) bool {
	for i, r := range s {
		if r != '_' && r != '$' && !isLetterRune(r) && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

func isLetterRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f
}

// jsIdentUse reports whether the identifier n, met by the walk of an expression, reads a
// name: not the name a declaration, a parameter or a pattern binds, nor a label or an
// import's or export's own name (recorded where they are met).
func jsIdentUse(n *Node) bool {
	p := n.Parent()
	if p == nil {
		return true
	}
	switch p.Type() {
	case "formal_parameters", "rest_pattern", "object_pattern", "array_pattern", "pair_pattern",
		"import_specifier", "import_clause", "namespace_import", "export_specifier", "namespace_export",
		"import_require_clause", "jsx_closing_element", "jsx_opening_element", "jsx_self_closing_element",
		"jsx_namespace_name", "jsx_attribute", "nested_identifier", "index_signature", "type_predicate",
		"mapped_type_clause", "infer_type", "import_alias":
		return false
	case "required_parameter", "optional_parameter":
		return jsFieldOf(p, n) != "pattern"
	case "assignment_pattern", "object_assignment_pattern":
		return jsFieldOf(p, n) != "left"
	case "variable_declarator", "function_declaration", "function_expression", "function",
		"generator_function", "generator_function_declaration", "function_signature",
		"class_declaration", "class", "abstract_class_declaration", "enum_declaration",
		"internal_module", "module", "method_definition", "method_signature", "abstract_method_signature":
		return jsFieldOf(p, n) != "name"
	case "arrow_function", "catch_clause":
		return jsFieldOf(p, n) != "parameter"
	case "for_in_statement":
		return jsFieldOf(p, n) != "left" || field(p, "kind") == nil && !jsDeclares(p)
	}
	return true
}

// jsDeclares reports whether a for-in or for-of statement declares its variable.
func jsDeclares(p *Node) bool {
	for i := 0; i < int(p.ChildCount()); i++ {
		switch p.Child(i).Type() {
		case "const", "let", "var":
			return true
		}
	}
	return false
}

// jsFieldOf returns the name of the field of p that holds n ("" none).
func jsFieldOf(p, n *Node) string {
	for i := 0; i < int(p.ChildCount()); i++ {
		if p.Child(i) == n {
			return p.FieldNameForChild(i)
		}
	}
	return ""
}

// dedupeUses drops the second record of a use at one place with one kind (an identifier
// recorded where it is met and again by the walk of the expression around it).
func (x *jsExtractor) dedupeUses() {
	ids := x.w.f.Identifiers
	type at struct {
		start int
		kind  IdentKind
	}
	seen := make(map[at]bool, len(ids))
	out := ids[:0]
	for _, id := range ids {
		k := at{id.StartByte, id.Kind}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, id)
	}
	x.w.f.Identifiers = out
}
