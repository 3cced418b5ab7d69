package extract

import (
	"slices"
	"strings"
	"unicode/utf8"
)

func init() { register("elm", extractElm) }

// extractElm walks an Elm file (0.19). What each construct becomes:
//
//   - module A.B exposing (..): module, named A.B, with the {-| -} comment after the header
//     as its doc; a port or effect module says so in metadata "modifier";
//   - import A.B as C exposing (x): import of A.B, with the alias in metadata "alias";
//   - type alias X = { f : T }: type, with the aliased type as its "alias" type and, for a
//     record, its fields as field children (their types "declared");
//   - type Msg = A | B Int: enum, with its constructors as enum_member children. Elm's
//     custom types are tagged unions, like the enums of Rust and Swift with associated
//     values, which Quarry records as enums too; union is left to untagged unions (C,
//     protobuf oneof);
//   - a top-level value: function when it takes parameters, is annotated with a function
//     type or is defined as a lambda (f = \x -> ...); constant otherwise, since every Elm
//     value is immutable (none is a variable). Its type annotation (update : Msg -> Model
//     -> ( Model, Cmd Msg )) is its signature, and the symbol spans the annotation and the
//     definition; the type after the last arrow is its "return" type, a constant's whole
//     type its "declared" one. A function defined in a let is a function child of the
//     function around it, without visibility (a local);
//   - port f : T: function with metadata "port" ("outgoing" when it returns a Cmd,
//     "incoming" when it returns a Sub): a port is called like any function, to send a
//     command or to subscribe, and has no body of its own;
//   - infix left 0 (|>) = apR: operator named |>, with metadata "associativity" and
//     "precedence", calling the function that implements it.
//
// The comment right above a declaration is its doc comment, {-| -} doc comments cleaned
// of their markers. What the module header exposes decides visibility: a top-level
// declaration is public when exposed (everything is with exposing (..) or without a
// header), private otherwise; constructors are public when their type is exposed with
// (..), record fields share their alias's visibility.
//
// Inside definitions, applications (f x, Html.div [] [], Toggled id) and the operands a
// pipeline or composition applies (x |> List.length, f >> g) are calls, qualified by their
// module (Html); other values are variable refs, record fields read, updated or accessed
// (model.items, { m | draft = d }, .done) member accesses, and the constructors a case
// matches variable refs. Every type named in an annotation, alias, constructor or port is a
// type usage, qualified by its module (Encode.Value gives Value in Encode). The
// declarations inside ERROR nodes of a half-written file are extracted too.
func extractElm(w *walker, root *Node) {
	e := &elmExtractor{w: w, exposed: elmExposing{all: true}}
	e.declarations(root, true, nil)
	// elm-format puts the commas of a multi-line record or list first on their lines, which
	// one-lining leaves as "{ id : Int , title : String }".
	for _, s := range w.syms {
		s.Signature = elmTidy(s.Signature)
	}
	for i := range w.f.Types {
		w.f.Types[i].Type = elmTidy(w.f.Types[i].Type)
	}
}

// elmTidy removes the space before each comma of one-lined source.
func elmTidy(s string) string { return strings.ReplaceAll(s, " ,", ",") }

// elmExtractor walks one Elm file.
type elmExtractor struct {
	w       *walker
	exposed elmExposing
}

// elmExposing is what a module header exposes.
type elmExposing struct {
	all    bool            // exposing (..), or no header
	values map[string]bool // functions, values, ports and operators
	types  map[string]bool // types and type aliases
	open   map[string]bool // custom types exposed with their constructors: Msg(..)
}

// visibility returns Public when name is in set (or everything is exposed), else Private.
func (x elmExposing) visibility(set map[string]bool, name string) Visibility {
	if x.all || set[name] {
		return Public
	}
	return Private
}

// declarations walks the declarations under parent (the file, an ERROR node, a let),
// pairing each type annotation with the value declaration that follows it; ann is an
// annotation before parent that waits for its definition. top is false inside a let, where
// declarations are locals. The declarations inside an ERROR node (a half-written file) are
// walked the same way.
func (e *elmExtractor) declarations(parent *Node, top bool, ann *Node) {
	var open *Symbol // a definition whose body did not parse: the nodes after it are its body
	for _, n := range namedChildren(parent) {
		switch n.Type() {
		case "line_comment", "block_comment":
			continue
		case "ERROR":
			e.declarations(n, top, ann)
			ann, open = nil, nil
			continue
		case "type_annotation":
			e.annotationOnly(ann, top)
			ann, open = n, nil
			continue
		case "value_declaration", "function_declaration_left":
			left := n
			if n.Type() == "value_declaration" {
				left = field(n, "functionDeclarationLeft")
			}
			if ann != nil && e.w.text(field(ann, "name")) != e.w.text(elmDeclName(left)) {
				e.annotationOnly(ann, top)
				ann = nil
			}
			open = e.value(n, left, ann, top)
			ann = nil
			continue
		}
		e.annotationOnly(ann, top)
		ann = nil
		switch {
		case open != nil && !elmIsDeclaration(n.Type()):
			e.w.within(open, func() { e.expr(n) })
		case top:
			open = nil
			e.topLevel(n)
		default:
			open = nil
			e.expr(n)
		}
	}
	e.annotationOnly(ann, top)
}

// elmIsDeclaration reports whether a node of type t is a top-level declaration.
func elmIsDeclaration(t string) bool {
	switch t {
	case "module_declaration", "import_clause", "type_alias_declaration", "type_declaration", "port_annotation", "infix_declaration", "ERROR":
		return true
	}
	return false
}

// topLevel extracts a top-level declaration other than a value and its annotation.
func (e *elmExtractor) topLevel(n *Node) {
	switch n.Type() {
	case "module_declaration":
		e.module(n)
	case "import_clause":
		e.importClause(n)
	case "type_alias_declaration":
		e.typeAlias(n)
	case "type_declaration":
		e.customType(n)
	case "port_annotation":
		e.port(n)
	case "infix_declaration":
		e.infix(n)
	default:
		e.expr(n)
	}
}

// module extracts the module header and reads what it exposes.
func (e *elmExtractor) module(n *Node) {
	w := e.w
	// Session for Server.Session; the whole name is in its signature.
	namespace, last := splitDotted(strings.Join(strings.Fields(w.text(field(n, "name"))), ""))
	sym := w.addNamed(n, last, Module)
	if sym != nil {
		sym.Signature = elmSignatureTo(w, n, nil)
		meta(sym, "namespace", namespace)
		sym.Visibility = Public
		sym.DocComment = e.moduleDoc(n)
		for _, mod := range []string{"port", "effect"} {
			if childOfType(n, mod) != nil {
				meta(sym, "modifier", mod)
			}
		}
	}
	if list := field(n, "exposing"); list != nil {
		e.exposed = elmReadExposing(w, list)
		if sym != nil {
			sym.Signature = elmExposingSignature(w, n, list)
		}
	}
}

// elmExposingSignature returns the source of n up to its exposing list, followed by the
// list on one line in the usual spacing: "module Main exposing (Model, Msg(..), main)".
func elmExposingSignature(w *walker, n, list *Node) string {
	var items []string
	for _, c := range namedChildren(list) {
		if c.Type() == "double_dot" || strings.HasPrefix(c.Type(), "exposed_") {
			items = append(items, oneLine(w.text(c), maxNameRunes))
		}
	}
	head := w.signatureRange(int(n.StartByte()), int(list.StartByte()))
	return oneLine(head+" exposing ("+strings.Join(items, ", ")+")", maxSignatureRunes)
}

// elmReadExposing reads an exposing list: (..), or the values, operators and types it names.
func elmReadExposing(w *walker, list *Node) elmExposing {
	x := elmExposing{values: map[string]bool{}, types: map[string]bool{}, open: map[string]bool{}}
	for _, c := range namedChildren(list) {
		switch c.Type() {
		case "double_dot":
			x.all = true
		case "exposed_value":
			x.values[w.text(c)] = true
		case "exposed_operator":
			x.values[w.text(field(c, "operator"))] = true
		case "exposed_type":
			name := w.text(childOfType(c, "upper_case_identifier"))
			x.types[name] = true
			if childOfType(c, "exposed_union_constructors") != nil {
				x.open[name] = true
			}
		}
	}
	return x
}

// moduleDoc returns the {-| -} comment that follows the module header, before any import
// or declaration.
func (e *elmExtractor) moduleDoc(n *Node) string {
	for p := n.NextSibling(); p != nil; p = p.NextSibling() {
		switch {
		case p.Type() == "line_comment":
		case p.Type() == "block_comment" && strings.HasPrefix(e.w.text(p), "{-|"):
			return elmDocLimit(elmCleanComment(e.w.text(p)))
		case p.Type() != "block_comment":
			return ""
		}
	}
	return ""
}

// importClause extracts import A.B as C exposing (...).
func (e *elmExtractor) importClause(n *Node) {
	name := field(n, "moduleName")
	if name == nil {
		return
	}
	sym := e.w.importName(n, name, e.w.text(name))
	meta(sym, "alias", e.w.text(field(field(n, "asClause"), "name")))
	if sym != nil {
		sym.Signature = elmSignatureTo(e.w, n, nil)
	}
	if list := field(n, "exposing"); sym != nil && list != nil {
		sym.Signature = elmExposingSignature(e.w, n, list)
	}
}

// typeAlias extracts type alias X = T: a record's fields are its children.
func (e *elmExtractor) typeAlias(n *Node) {
	w := e.w
	name := field(n, "name")
	sym := e.addTop(n, name, Type, e.exposed.visibility(e.exposed.types, w.text(name)))
	if sym == nil {
		return
	}
	typ := field(n, "typeExpression")
	e.typeInfo(sym, "alias", typ)
	record := elmRecordType(typ)
	if record == nil {
		w.within(sym, func() { e.typeRefs(typ) })
		return
	}
	sym.Signature = elmSignatureTo(w, n, childOfType(n, "eq"))
	w.within(sym, func() {
		e.typeRefs(field(record, "baseRecord"))
		for _, f := range childrenOfType(record, "field_type") {
			fsym := e.add(f, field(f, "name"), Field)
			if fsym == nil {
				continue
			}
			fsym.Visibility = sym.Visibility
			e.typeInfo(fsym, "declared", field(f, "typeExpression"))
			w.within(fsym, func() { e.typeRefs(field(f, "typeExpression")) })
		}
	})
}

// elmRecordType returns the record type a type expression is made of alone, or nil.
func elmRecordType(typ *Node) *Node {
	if typ == nil || typ.NamedChildCount() != 1 {
		return nil
	}
	if c := typ.NamedChild(0); c.Type() == "record_type" {
		return c
	}
	return nil
}

// customType extracts type T = A | B x: an enum of its constructors.
func (e *elmExtractor) customType(n *Node) {
	w := e.w
	name := field(n, "name")
	sym := e.addTop(n, name, Enum, e.exposed.visibility(e.exposed.types, w.text(name)))
	if sym == nil {
		return
	}
	sym.Signature = elmSignatureTo(w, n, childOfType(n, "eq"))
	memberVis := e.exposed.visibility(e.exposed.open, sym.Name)
	w.within(sym, func() {
		for _, v := range childrenOfType(n, "union_variant") {
			m := e.add(v, field(v, "name"), EnumMember)
			if m == nil {
				continue
			}
			m.Visibility = memberVis
			w.within(m, func() { e.typeRefs(v) })
		}
	})
}

// port extracts port f : T as a function whose direction is its metadata "port".
func (e *elmExtractor) port(n *Node) {
	w := e.w
	name := field(n, "name")
	sym := e.addTop(n, name, Function, e.exposed.visibility(e.exposed.values, w.text(name)))
	if sym == nil {
		return
	}
	typ := field(n, "typeExpression")
	ret := elmReturnType(typ)
	e.typeInfo(sym, "return", ret)
	switch w.text(elmLastChild(childOfType(ret, "upper_case_qid"))) {
	case "Cmd":
		meta(sym, "port", "outgoing")
	case "Sub":
		meta(sym, "port", "incoming")
	}
	w.within(sym, func() { e.typeRefs(typ) })
}

// infix extracts infix left 0 (|>) = apR as the operator |>, which calls apR.
func (e *elmExtractor) infix(n *Node) {
	w := e.w
	op := field(n, "operator")
	sym := e.addTop(n, op, Operator, e.exposed.visibility(e.exposed.values, w.text(op)))
	if sym == nil {
		return
	}
	meta(sym, "associativity", w.text(field(n, "associativity")))
	meta(sym, "precedence", w.text(field(n, "precedence")))
	w.within(sym, func() {
		if impl := childOfType(n, "value_expr"); impl != nil {
			e.callee(impl)
		}
	})
}

// addTop adds a top-level declaration with visibility vis and its doc comment.
func (e *elmExtractor) addTop(n, name *Node, kind Kind, vis Visibility) *Symbol {
	sym := e.add(n, name, kind)
	if sym != nil {
		sym.Visibility = vis
		sym.DocComment = e.doc(n)
	}
	return sym
}

// value extracts a value declaration n, top-level or in a let, whose left side (name and
// parameters) is left, with the type annotation ann before it (nil when it has none). In
// an ERROR node, n may be a left side alone, without its body: value returns the symbol
// when n is such a function or constant, for what follows to be its body.
func (e *elmExtractor) value(n, left, ann *Node, top bool) *Symbol {
	var typ *Node
	if ann != nil {
		typ = field(ann, "typeExpression")
	}
	body := field(n, "body")
	kind := Constant
	if left != nil && left.NamedChildCount() > 1 || elmIsFunctionType(typ) || body != nil && body.Type() == "anonymous_function_expr" {
		kind = Function
	}
	var sym *Symbol
	if name := elmDeclName(left); name != nil && (top || kind == Function) {
		sym = e.declare(n, ann, name, kind, top)
	}
	e.w.within(sym, func() {
		e.typeRefs(typ)
		e.expr(body)
	})
	if n == left {
		return sym
	}
	return nil
}

// declare adds the symbol of a value declaration n named by name, spanning its annotation
// ann (if any) and n; the annotation is its signature.
func (e *elmExtractor) declare(n, ann, name *Node, kind Kind, top bool) *Symbol {
	w := e.w
	start := n
	if ann != nil {
		start = ann
	}
	sym := w.addNamed(start, w.text(name), kind)
	if sym == nil {
		return nil
	}
	sym.Signature = elmSignatureTo(w, start, childOfType(start, "eq"))
	end := w.span(n)
	sym.EndLine, sym.EndColumn, sym.EndByte = end.EndLine, end.EndColumn, end.EndByte
	sym.DocComment = e.doc(start)
	if top {
		sym.Visibility = e.exposed.visibility(e.exposed.values, sym.Name)
	}
	if ann != nil {
		e.annotatedType(sym, field(ann, "typeExpression"))
	}
	return sym
}

// annotationOnly extracts a type annotation that no definition follows (a half-written
// file): at top level, a symbol of its own.
func (e *elmExtractor) annotationOnly(ann *Node, top bool) {
	if ann == nil {
		return
	}
	typ := field(ann, "typeExpression")
	var sym *Symbol
	if top {
		kind := Constant
		if elmIsFunctionType(typ) {
			kind = Function
		}
		sym = e.addTop(ann, field(ann, "name"), kind, e.exposed.visibility(e.exposed.values, e.w.text(field(ann, "name"))))
		e.annotatedType(sym, typ)
	}
	e.w.within(sym, func() { e.typeRefs(typ) })
}

// annotatedType records the type an annotation states: a function's return type, a
// constant's whole type.
func (e *elmExtractor) annotatedType(sym *Symbol, typ *Node) {
	if sym != nil && sym.Kind == Function && elmIsFunctionType(typ) {
		e.typeInfo(sym, "return", elmReturnType(typ))
		return
	}
	e.typeInfo(sym, "declared", typ)
}

// typeInfo records the type typ as the type of sym in role, without the comments after it.
func (e *elmExtractor) typeInfo(sym *Symbol, role string, typ *Node) {
	if sym == nil || typ == nil {
		return
	}
	if t := elmSignatureTo(e.w, typ, nil); t != "" {
		e.w.f.Types = append(e.w.f.Types, TypeInfo{SymbolID: sym.ID, Role: role, Type: t})
	}
}

// add is walker.add with the signature all of n but the comments at its end.
func (e *elmExtractor) add(n, name *Node, kind Kind) *Symbol {
	sym := e.w.add(n, name, kind)
	if sym != nil {
		sym.Signature = elmSignatureTo(e.w, n, nil)
	}
	return sym
}

// elmDeclName returns the name the left side of a value declaration defines, or nil (for
// a destructuring one, ( a, b ) = ..., left is nil).
func elmDeclName(left *Node) *Node {
	return childOfType(left, "lower_case_identifier")
}

// elmIsFunctionType reports whether the type expression typ is a function type: it has an
// arrow at its top.
func elmIsFunctionType(typ *Node) bool {
	return childOfType(typ, "arrow") != nil
}

// elmReturnType returns the type after the last top-level arrow of typ (typ itself when it
// has none).
func elmReturnType(typ *Node) *Node {
	if !elmIsFunctionType(typ) {
		return typ
	}
	return elmLastChild(typ)
}

// elmLastChild returns the last named child of n, or nil.
func elmLastChild(n *Node) *Node {
	if n == nil || n.NamedChildCount() == 0 {
		return nil
	}
	return n.NamedChild(int(n.NamedChildCount()) - 1)
}

// elmSignatureTo returns the source of n up to the token end, or when end is nil, all of n
// but the comments at its end: the layout rules end a declaration only at the next one, so
// the comment after type Int = Int -- builtin is inside it.
func elmSignatureTo(w *walker, n, end *Node) string {
	if end == nil {
		return w.signatureRange(int(n.StartByte()), elmEnd(n))
	}
	return w.signatureRange(int(n.StartByte()), int(end.StartByte()))
}

// elmEnd returns the end of n without the comments (and empty layout tokens) at its end.
func elmEnd(n *Node) int {
	for i := int(n.ChildCount()) - 1; i >= 0; i-- {
		c := n.Child(i)
		if c.Type() != "line_comment" && c.Type() != "block_comment" && c.EndByte() > c.StartByte() {
			return elmEnd(c)
		}
	}
	return int(n.EndByte())
}

// --- uses of names ---

// expr records the calls and references in the expression n.
func (e *elmExtractor) expr(n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "function_call_expr":
		target := field(n, "target")
		e.callee(target)
		for _, arg := range namedChildren(n) {
			if target == nil || !arg.Equal(target) {
				e.expr(arg)
			}
		}
	case "bin_op_expr":
		e.binOp(n)
	case "value_expr":
		e.nameRef(field(n, "name"), VariableRef)
	case "union_pattern":
		e.nameRef(field(n, "constructor"), VariableRef)
		e.walkExpr(n)
	case "field_access_expr":
		e.expr(field(n, "target"))
		for _, id := range childrenOfType(n, "lower_case_identifier") {
			e.use(id, n, MemberAccess)
		}
	case "field_accessor_function_expr":
		e.use(childOfType(n, "lower_case_identifier"), nil, MemberAccess)
	case "record_expr":
		if base := field(n, "baseRecord"); base != nil {
			e.use(childOfType(base, "lower_case_identifier"), nil, VariableRef)
			for _, f := range childrenOfType(n, "field") {
				e.use(field(f, "name"), nil, MemberAccess)
			}
		}
		e.walkExpr(n)
	case "let_in_expr":
		e.declarations(n, false, nil)
	case "type_annotation", "type_expression":
		e.typeRefs(n)
	case "value_declaration":
		e.value(n, field(n, "functionDeclarationLeft"), nil, false)
	case "glsl_code_expr", "lower_pattern", "string_constant_expr", "number_constant_expr", "char_constant_expr":
	default:
		e.walkExpr(n)
	}
}

// walkExpr calls expr on each named child of n.
func (e *elmExtractor) walkExpr(n *Node) {
	for _, c := range namedChildren(n) {
		e.expr(c)
	}
}

// callee records a call of the function target names: a value (f, Html.div), a
// constructor (Toggled) or a record's field (config.toMsg). Another target (a lambda, a
// parenthesized expression) is walked.
func (e *elmExtractor) callee(target *Node) {
	if target == nil {
		return
	}
	switch target.Type() {
	case "value_expr":
		e.nameRef(field(target, "name"), Call)
	case "field_access_expr":
		e.expr(field(target, "target"))
		ids := childrenOfType(target, "lower_case_identifier")
		for i, id := range ids {
			kind := MemberAccess
			if i == len(ids)-1 {
				kind = Call
			}
			e.use(id, target, kind)
		}
	default:
		e.expr(target)
	}
}

// binOp records the operands of a chain of operators: a value a pipeline applies (the
// right of |>, the left of <|) or composes (>>, <<) is called.
func (e *elmExtractor) binOp(n *Node) {
	w := e.w
	kids := namedChildren(n)
	op := func(i int) string {
		if i < 0 || i >= len(kids) || kids[i].Type() != "operator" {
			return ""
		}
		return w.text(kids[i])
	}
	for i, c := range kids {
		if c.Type() == "operator" {
			continue
		}
		before, after := op(i-1), op(i+1)
		applied := before == "|>" || after == "<|" || before == ">>" || after == ">>" || before == "<<" || after == "<<"
		if applied && c.Type() == "value_expr" {
			e.callee(c)
			continue
		}
		e.expr(c)
	}
}

// nameRef records a use of the name a value_qid or upper_case_qid spells, qualified by its
// module.
func (e *elmExtractor) nameRef(qid *Node, kind IdentKind) {
	if name := elmLastChild(qid); name != nil {
		e.use(name, qid, kind)
	}
}

// elmKeywords are the reserved words of Elm, which no name spells: in an ERROR node
// tree-sitter may take one for a name.
var elmKeywords = map[string]bool{
	"module": true, "import": true, "exposing": true, "as": true, "port": true, "type": true, "alias": true,
	"infix": true, "case": true, "of": true, "let": true, "in": true, "if": true, "then": true, "else": true,
	"where": true, "effect": true,
}

// use records a use of name inside whole (nil: name alone); a call also relates the
// container to the name, once per pair. A keyword, or a name that starts inside a word
// (what error recovery leaves of "Circle" after taking its "C" for junk), is no use.
func (e *elmExtractor) use(name, whole *Node, kind IdentKind) {
	w := e.w
	if name == nil || elmKeywords[w.text(name)] {
		return
	}
	if e.midWord(name) {
		return
	}
	if whole != nil && e.midWord(whole) {
		whole = nil
	}
	w.member(name, whole, kind)
	if kind == Call {
		w.relateCall(name)
	}
}

// typeRefs records a type usage of each type named under n, qualified by its module.
func (e *elmExtractor) typeRefs(n *Node) {
	if n == nil {
		return
	}
	if n.Type() == "upper_case_qid" {
		e.nameRef(n, TypeUsage)
		return
	}
	for _, c := range namedChildren(n) {
		e.typeRefs(c)
	}
}

// --- doc comments ---

// doc returns the comments right above n (adjacent lines, no blank line between), cleaned
// of their markers.
func (e *elmExtractor) doc(n *Node) string {
	var parts []string
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 || (p.Type() != "block_comment" && p.Type() != "line_comment") {
			break
		}
		parts = append(parts, elmCleanComment(e.w.text(p)))
		line = int(p.StartPoint().Row)
	}
	slices.Reverse(parts)
	return elmDocLimit(strings.Join(parts, "\n"))
}

// elmDocLimit trims a doc comment and cuts one over maxDocRunes to one line of that many.
func elmDocLimit(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxDocRunes {
		s = oneLine(s, maxDocRunes)
	}
	return s
}

// elmCleanComment strips the markers of one Elm comment: {-| -} or {- -} around a block,
// whose lines lose only their common indentation (the text is Markdown, with indented
// code examples), or the -- of a line.
func elmCleanComment(s string) string {
	if !strings.HasPrefix(s, "{-") {
		return strings.TrimSpace(strings.TrimPrefix(s, "--"))
	}
	s = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(s, "-}"), "{-"), "|")
	lines := strings.Split(s, "\n")
	indent := -1
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
		if i > 0 && strings.TrimSpace(l) != "" {
			n := len(l) - len(strings.TrimLeft(l, " \t"))
			if indent < 0 || n < indent {
				indent = n
			}
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if len(lines[i]) >= indent && indent > 0 {
			lines[i] = lines[i][indent:]
		}
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// midWord reports whether n starts inside a word.
func (e *elmExtractor) midWord(n *Node) bool {
	start := int(n.StartByte())
	return start > 0 && start <= len(e.w.src) && elmWordByte(e.w.src[start-1])
}

// elmWordByte reports whether c can be part of an Elm name (ASCII letters, digits, '_';
// any byte of a multi-byte character).
func elmWordByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
