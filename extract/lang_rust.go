package extract

import (
	"strings"
)

func init() { register("rust", extractRust) }

// Metadata keys the Rust extractor sets.
const (
	rustMetaImpl  = "impl"
	rustMetaTrait = "trait"
)

// rustOperatorTraits are the std::ops and std::cmp traits whose methods overload an operator.
var rustOperatorTraits = map[string]bool{
	"Add": true, "Sub": true, "Mul": true, "Div": true, "Rem": true, "Neg": true, "Not": true,
	"BitAnd": true, "BitOr": true, "BitXor": true, "Shl": true, "Shr": true,
	"AddAssign": true, "SubAssign": true, "MulAssign": true, "DivAssign": true, "RemAssign": true,
	"BitAndAssign": true, "BitOrAssign": true, "BitXorAssign": true, "ShlAssign": true, "ShrAssign": true,
	"Index": true, "IndexMut": true, "Deref": true, "DerefMut": true, "PartialEq": true, "PartialOrd": true,
}

// extractRust walks a Rust file: uses, modules, constants and statics, structs, unions, enums
// and their variants, traits, impl blocks (their methods attach to the impl'd type when it is
// defined in the same file), functions, macros and extern blocks.
func extractRust(w *walker, root *Node) {
	w.walk(root, rustNode)
	rustAttachImpls(w)
}

// rustAttachImpls makes the methods of impl blocks children of the impl'd type when the file
// defines it, and records the implements relationships of trait impls.
func rustAttachImpls(w *walker) {
	types := map[string]*Symbol{}
	for _, s := range w.syms {
		switch s.Kind {
		case Struct, Enum, Union, Type, Trait:
			if _, ok := types[s.Name]; !ok {
				types[s.Name] = s
			}
		}
	}
	done := map[[2]string]bool{}
	for _, s := range w.syms {
		t := types[s.Metadata[rustMetaImpl]]
		if t == nil || s.Metadata[rustMetaImpl] == "" {
			continue
		}
		s.ParentID = t.ID
		trait := s.Metadata[rustMetaTrait]
		if trait == "" || done[[2]string{t.ID, trait}] {
			continue
		}
		done[[2]string{t.ID, trait}] = true
		w.f.Relationships = append(w.f.Relationships, Relationship{FromID: t.ID, FromName: t.Name, To: rustBaseName(trait), Kind: Implements, Line: s.StartLine})
	}
}

// rustInBody reports whether the innermost container is a function, where items such as
// constants are locals.
func rustInBody(w *walker) bool {
	c := w.container()
	return c != nil && c.Kind.IsCallable()
}

// rustNode extracts the node n: a definition, a use of a name, or a node to walk through.
func rustNode(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "use_declaration":
		rustUse(w, n, field(n, "argument"), "")
		return
	case "extern_crate_declaration":
		sym := w.importName(n, field(n, "name"), w.text(field(n, "name")))
		rustImportVisibility(w, n, sym)
		meta(sym, "alias", w.text(field(n, "alias")))
		return
	case "mod_item":
		rustMod(w, n)
		return
	case "const_item", "static_item":
		rustValue(w, n)
		return
	case "struct_item", "union_item", "enum_item":
		rustADT(w, n)
		return
	case "type_item":
		rustTypeAlias(w, n, "", "")
		return
	case "trait_item":
		rustTrait(w, n)
		return
	case "impl_item":
		rustImpl(w, n)
		return
	case "function_item", "function_signature_item":
		rustFunc(w, n, Function, "", "")
		return
	case "macro_definition":
		rustMacro(w, n)
		return
	case "foreign_mod_item":
		w.walk(field(n, "body"), rustNode)
		return
	case "call_expression":
		fn := field(n, "function")
		if fn != nil && fn.Type() == "identifier" && rustIsLocal(w, fn) {
			// a closure or function value bound in the function: not a definition's name
		} else {
			w.call(fn)
		}
		if fn != nil && fn.Type() == "field_expression" {
			rustNode(w, field(fn, "value"))
		} else if fn != nil && fn.Type() == "generic_function" {
			rustPathSegments(w, field(field(fn, "function"), "path"))
			w.walk(field(fn, "type_arguments"), rustNode)
		} else if fn != nil && fn.Type() == "scoped_identifier" {
			rustPathSegments(w, field(fn, "path"))
		}
		w.walk(field(n, "arguments"), rustNode)
		return
	case "scoped_identifier":
		// a path used as a value or in a pattern: Op::Less, Self::EMPTY, crate::a::f
		if name := field(n, "name"); name != nil && name.Type() == "identifier" {
			w.member(name, n, VariableRef)
		}
		rustPathSegments(w, field(n, "path"))
		return
	case "identifier":
		rustValueIdent(w, n)
		return
	case "lifetime", "label":
		return
	case "macro_invocation":
		w.call(field(n, "macro"))
		rustTokenTree(w, childOfType(n, "token_tree"))
		return
	case "field_expression":
		if f := field(n, "field"); f != nil && f.Type() == "field_identifier" {
			w.member(f, n, MemberAccess)
		}
		rustNode(w, field(n, "value"))
		return
	case "type_identifier":
		w.ident(n, TypeUsage)
		return
	case "scoped_type_identifier":
		w.member(field(n, "name"), n, TypeUsage)
		rustPathSegments(w, field(n, "path"))
		return
	case "struct_expression":
		rustTypeRefs(w, field(n, "name"))
		w.walk(field(n, "body"), rustNode)
		return
	case "line_comment", "block_comment", "attribute_item", "inner_attribute_item":
		return
	}
	w.walk(n, rustNode)
}

// rustTokenTree records the identifiers a macro receives as plain arguments (format!("{}", x)
// gives x) and the calls written inside it.
func rustTokenTree(w *walker, tt *Node) {
	for _, c := range namedChildren(tt) {
		switch c.Type() {
		case "identifier":
			next, prev := c.NextSibling(), c.PrevSibling()
			switch {
			case prev != nil && prev.Type() == "::":
				// a path inside the macro's arguments: ErrorKind::Overflow
				if pp := prev.PrevSibling(); pp != nil && (pp.Type() == "identifier" || pp.Type() == "self" || pp.Type() == "crate" || pp.Type() == "super") {
					kind := VariableRef
					if next != nil && next.Type() == "token_tree" {
						kind = Call
					}
					rustIdentQualified(w, c, kind, w.text(pp)+"::")
					if kind == Call {
						w.relateCall(c)
					}
				}
			case prev != nil && prev.Type() == ".":
				// a field or method of a receiver: self.len, self.capacity()
				kind := MemberAccess
				if next != nil && next.Type() == "token_tree" {
					kind = Call
				}
				if pp := prev.PrevSibling(); pp != nil && (pp.Type() == "identifier" || pp.Type() == "self") {
					rustIdentQualified(w, c, kind, w.text(pp))
				} else {
					rustIdentQualified(w, c, kind, "")
				}
				if kind == Call {
					w.relateCall(c)
				}
			case next != nil && next.Type() == "token_tree":
				if !rustIsLocal(w, c) {
					w.call(c)
				}
			case next != nil && next.Type() == "::":
				if isUpperStart(w.text(c)) {
					w.ident(c, TypeUsage)
				}
			default:
				rustValueIdent(w, c)
			}
		case "token_tree":
			rustTokenTree(w, c)
		}
	}
}

// rustVisibility reads a declaration's visibility modifier: pub is public, pub(crate),
// pub(super) and pub(in path) are internal, pub(self) and none are private.
func rustVisibility(w *walker, n *Node) Visibility {
	v := childOfType(n, "visibility_modifier")
	if v == nil {
		return Private
	}
	switch t := strings.Join(strings.Fields(w.text(v)), ""); {
	case t == "pub":
		return Public
	case t == "pub(self)":
		return Private
	case strings.HasPrefix(t, "pub("):
		return Internal
	}
	return Private
}

// rustDoc returns the outer doc comments (/// and /** */) right above n, skipping attributes.
func rustDoc(w *walker, n *Node) string {
	var parts []string
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 {
			break
		}
		if p.Type() == "attribute_item" {
			line = int(p.StartPoint().Row)
			continue
		}
		t := w.text(p)
		if !rustIsOuterDoc(p.Type(), t) {
			break
		}
		parts = append(parts, t)
		line = int(p.StartPoint().Row)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return cleanComment(strings.Join(parts, "\n"))
}

// rustIsOuterDoc reports whether a comment of type typ and text t is an outer doc comment.
func rustIsOuterDoc(typ, t string) bool {
	switch typ {
	case "line_comment":
		return strings.HasPrefix(t, "///") && !strings.HasPrefix(t, "////")
	case "block_comment":
		return strings.HasPrefix(t, "/**") && !strings.HasPrefix(t, "/***") && t != "/**/"
	}
	return false
}

// rustInnerDoc returns the inner doc comments (//! and /*! */) at the start of body.
func rustInnerDoc(w *walker, body *Node) string {
	var parts []string
	for _, c := range namedChildren(body) {
		t := w.text(c)
		if (c.Type() != "line_comment" || !strings.HasPrefix(t, "//!")) && (c.Type() != "block_comment" || !strings.HasPrefix(t, "/*!")) {
			break
		}
		parts = append(parts, t)
	}
	return cleanComment(strings.Join(parts, "\n"))
}

// rustAdd records a symbol for the item n with Rust's doc comments, its attributes kept in
// the signature and its visibility.
func rustAdd(w *walker, n, nameNode *Node, kind Kind) *Symbol {
	sym := w.add(n, nameNode, kind)
	if sym == nil {
		return nil
	}
	sym.DocComment = rustDoc(w, n)
	sym.Visibility = rustVisibility(w, n)
	end := int(n.EndByte())
	if b := bodyOf(n); b != nil && b.Type() != "ordered_field_declaration_list" && b.StartByte() > n.StartByte() {
		end = int(b.StartByte())
	}
	sym.Signature = strings.TrimRight(w.signatureRange(rustAttrStart(n), end), ";")
	return sym
}

// rustAttrStart returns the start byte of the attributes right above n (n's own start when it
// has none).
func rustAttrStart(n *Node) int {
	start := int(n.StartByte())
	for p := n.PrevSibling(); p != nil && p.Type() == "attribute_item"; p = p.PrevSibling() {
		start = int(p.StartByte())
	}
	return start
}

// rustUse records the imports of a use tree under the path prefix.
func rustUse(w *walker, stmt, n *Node, prefix string) {
	if n == nil {
		return
	}
	join := func(s string) string {
		if prefix == "" {
			return s
		}
		if s == "self" {
			return prefix
		}
		return prefix + "::" + s
	}
	switch n.Type() {
	case "use_as_clause":
		path := field(n, "path")
		sym := w.importName(stmt, lastName(path), join(w.text(path)))
		meta(sym, "alias", w.text(field(n, "alias")))
		rustImportVisibility(w, stmt, sym)
	case "scoped_use_list":
		p := join(w.text(field(n, "path")))
		for _, c := range namedChildren(field(n, "list")) {
			rustUse(w, stmt, c, p)
		}
	case "use_list":
		for _, c := range namedChildren(n) {
			rustUse(w, stmt, c, prefix)
		}
	case "use_wildcard":
		sym := w.importName(stmt, nil, join(w.text(n)))
		rustImportVisibility(w, stmt, sym)
	default:
		sym := w.importName(stmt, lastName(n), join(w.text(n)))
		rustImportVisibility(w, stmt, sym)
	}
}

// rustImportVisibility gives an import its outer doc comment and marks a pub use as a
// public re-export.
func rustImportVisibility(w *walker, stmt *Node, sym *Symbol) {
	if sym != nil {
		sym.DocComment = rustDoc(w, stmt)
	}
	if sym != nil && childOfType(stmt, "visibility_modifier") != nil {
		sym.Visibility = rustVisibility(w, stmt)
		meta(sym, "reexport", "true")
	}
}

func rustMod(w *walker, n *Node) {
	sym := rustAdd(w, n, field(n, "name"), Module)
	body := field(n, "body")
	if sym != nil && sym.DocComment == "" {
		sym.DocComment = rustInnerDoc(w, body)
	}
	w.within(sym, func() { w.walk(body, rustNode) })
}

// rustValue records a const or static item (a local one inside a function only has its value
// walked).
func rustValue(w *walker, n *Node) {
	if rustInBody(w) {
		rustNode(w, field(n, "value"))
		return
	}
	kind := Constant
	if n.Type() == "static_item" && childOfType(n, "mutable_specifier") != nil {
		kind = Variable
	}
	sym := rustAdd(w, n, field(n, "name"), kind)
	rustInheritVisibility(w, sym)
	if n.Type() == "static_item" {
		meta(sym, "static", "true")
	}
	typ := field(n, "type")
	w.typeInfo(sym, "declared", typ)
	w.within(sym, func() {
		rustTypeRefs(w, typ)
		rustNode(w, field(n, "value"))
	})
}

// rustInheritVisibility gives a trait item the visibility of its trait.
func rustInheritVisibility(w *walker, sym *Symbol) {
	if c := w.container(); sym != nil && c != nil && c.Kind == Trait {
		sym.Visibility = c.Visibility
	}
}

// rustADT records a struct, union or enum with its fields or variants.
func rustADT(w *walker, n *Node) {
	kind := Struct
	switch n.Type() {
	case "union_item":
		kind = Union
	case "enum_item":
		kind = Enum
	}
	sym := rustAdd(w, n, field(n, "name"), kind)
	if sym == nil {
		return
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	w.within(sym, func() {
		rustTypeRefs(w, field(n, "type_parameters"))
		if kind == Enum {
			rustVariants(w, sym, field(n, "body"))
			return
		}
		rustFields(w, bodyOf(n))
	})
}

// rustFields records the named fields of a field list; tuple fields only give type usages.
func rustFields(w *walker, body *Node) {
	if body != nil && body.Type() == "ordered_field_declaration_list" {
		rustTypeRefs(w, body)
		return
	}
	for _, f := range childrenOfType(body, "field_declaration") {
		sym := rustAdd(w, f, field(f, "name"), Field)
		typ := field(f, "type")
		w.typeInfo(sym, "declared", typ)
		rustTypeRefs(w, typ)
	}
}

// rustVariants records the variants of an enum (with the enum's visibility) and their fields.
func rustVariants(w *walker, enum *Symbol, body *Node) {
	for _, v := range childrenOfType(body, "enum_variant") {
		sym := rustAdd(w, v, field(v, "name"), EnumMember)
		if sym == nil {
			continue
		}
		sym.Visibility = enum.Visibility
		w.within(sym, func() { rustFields(w, field(v, "body")) })
	}
}

// rustTypeAlias records a type alias or an associated type (impl is the impl'd type inside an
// impl block).
func rustTypeAlias(w *walker, n *Node, impl, trait string) {
	sym := rustAdd(w, n, field(n, "name"), Type)
	rustInheritVisibility(w, sym)
	rustImplMember(sym, impl, trait)
	typ := field(n, "type")
	w.typeInfo(sym, "alias", typ)
	rustTypeRefs(w, typ)
}

func rustTrait(w *walker, n *Node) {
	sym := rustAdd(w, n, field(n, "name"), Trait)
	if sym == nil {
		return
	}
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	for _, b := range namedChildren(field(n, "bounds")) {
		if b.Type() != "lifetime" {
			w.relate(sym, rustTypeName(w, b), Extends, b)
		}
	}
	rustTypeRefs(w, field(n, "bounds"))
	w.within(sym, func() {
		for _, m := range namedChildren(field(n, "body")) {
			switch m.Type() {
			case "function_item", "function_signature_item":
				rustFunc(w, m, Method, "", "")
			case "associated_type":
				rustTypeAlias(w, m, "", "")
				rustTypeRefs(w, field(m, "bounds"))
			case "const_item":
				rustValue(w, m)
			case "macro_invocation":
				rustNode(w, m)
			}
		}
	})
}

// rustImpl records the items of an impl block, marked with the impl'd type (and trait) for
// rustAttachImpls.
func rustImpl(w *walker, n *Node) {
	typ := rustTypeName(w, field(n, "type"))
	trait := ""
	if t := field(n, "trait"); t != nil {
		trait = oneLine(w.text(t), maxNameRunes)
	}
	rustTypeRefs(w, field(n, "trait"))
	rustTypeRefs(w, field(n, "type"))
	for _, m := range namedChildren(field(n, "body")) {
		switch m.Type() {
		case "function_item", "function_signature_item":
			kind := Method
			if rustOperatorTraits[rustBaseName(trait)] {
				kind = Operator
			}
			rustFunc(w, m, kind, typ, trait)
		case "type_item":
			rustTypeAlias(w, m, typ, trait)
		case "const_item":
			rustImplMember(rustAddValue(w, m), typ, trait)
		case "macro_invocation":
			rustNode(w, m)
		}
	}
}

// rustAddValue records an associated constant of an impl block.
func rustAddValue(w *walker, n *Node) *Symbol {
	sym := rustAdd(w, n, field(n, "name"), Constant)
	typ := field(n, "type")
	w.typeInfo(sym, "declared", typ)
	w.within(sym, func() {
		rustTypeRefs(w, typ)
		rustNode(w, field(n, "value"))
	})
	return sym
}

// rustTypeName returns the base name of a type (Foo of Foo<T>, a::Foo, &Foo).
func rustTypeName(w *walker, n *Node) string {
	for n != nil {
		switch n.Type() {
		case "generic_type", "reference_type", "pointer_type":
			n = field(n, "type")
		case "scoped_type_identifier":
			n = field(n, "name")
		default:
			return w.text(n)
		}
	}
	return ""
}

// rustBaseName returns the last path segment of a type path without generics (Add of
// std::ops::Add<Rhs>).
func rustBaseName(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

// rustFunc records a function or method (impl and trait name the impl block it sits in) and
// walks its body.
func rustFunc(w *walker, n *Node, kind Kind, impl, trait string) {
	if kind == Function && w.container() != nil && w.container().Kind == Trait {
		kind = Method
	}
	sym := rustAdd(w, n, field(n, "name"), kind)
	if sym == nil {
		return
	}
	rustInheritVisibility(w, sym)
	rustImplMember(sym, impl, trait)
	if tp := field(n, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	if mods := childOfType(n, "function_modifiers"); mods != nil {
		meta(sym, "modifiers", w.text(mods))
	}
	if n.Parent() != nil && n.Parent().Type() == "declaration_list" && n.Parent().Parent() != nil && n.Parent().Parent().Type() == "foreign_mod_item" {
		meta(sym, "extern", "true")
	}
	w.typeInfo(sym, "return", field(n, "return_type"))
	w.within(sym, func() {
		for _, f := range []string{"type_parameters", "parameters", "return_type"} {
			rustTypeRefs(w, field(n, f))
		}
		rustTypeRefs(w, childOfType(n, "where_clause"))
		rustWithLocals(w, sym, n, func() { rustNode(w, field(n, "body")) })
	})
}

// rustImplMember marks sym as an item of the impl block of type impl (for trait, when it
// implements one: such items are as visible as the trait, so public here).
func rustImplMember(sym *Symbol, impl, trait string) {
	if sym == nil {
		return
	}
	meta(sym, rustMetaImpl, impl)
	meta(sym, rustMetaTrait, trait)
	if trait != "" {
		sym.Visibility = Public
	}
}

// rustMacro records a macro_rules! definition as a function with metadata macro; it is public
// when exported with #[macro_export].
func rustMacro(w *walker, n *Node) {
	sym := rustAdd(w, n, field(n, "name"), Function)
	if sym == nil {
		return
	}
	meta(sym, "macro", "true")
	if i := strings.Index(sym.Signature, "macro_rules!"); i >= 0 {
		if j := strings.IndexAny(sym.Signature[i:], "{(["); j >= 0 {
			sym.Signature = strings.TrimSpace(sym.Signature[:i+j])
		}
	}
	for p := n.PrevSibling(); p != nil && p.Type() == "attribute_item"; p = p.PrevSibling() {
		if strings.Contains(w.text(p), "macro_export") {
			sym.Visibility = Public
		}
	}
}
