package extract

import (
	"strings"
)

func init() {
	register("ocaml", extractOcaml)
	parseWraps["ocaml"] = ocamlWrap
}

// ocamlWrap wraps an interface file (.mli), the inside of a signature, as the grammar
// parses one: in module type … = sig … end. Its val, type, module and exception items are
// then specifications, declarations of what the .ml defines, at the top of the file.
func ocamlWrap(path string) (prefix, suffix string) {
	if strings.HasSuffix(strings.ToLower(path), ".mli") {
		return "module type Quarry_interface__ = sig\n", "\nend\n"
	}
	return "", ""
}

// Metadata keys the OCaml extractor sets.
const (
	mlMetaDeclaration = "declaration"     // a val, external, method or module specification
	mlMetaFunctor     = "functor"         // a module that takes module parameters
	mlMetaParameters  = "parameters"      // a functor's parameters: (X : S) (Y : T)
	mlMetaTypeParams  = "type_parameters" // 'a of 'a tree, ('k, 'v) of ('k, 'v) t
	mlMetaException   = "exception"
	mlMetaAlias       = "alias"     // module L = List, exception E = Not_found, module type S = T
	mlMetaRec         = "rec"       // let rec, module rec
	mlMetaPrimitive   = "primitive" // the C or compiler primitive an external names
	mlMetaMutable     = "mutable"
	mlMetaAbstract    = "abstract"   // a virtual class, method or instance variable
	mlMetaExtends     = "extends"    // the type a constructor of type t += ... extends
	mlMetaExtensible  = "extensible" // type t = ..
	mlMetaReexport    = "reexport"   // include M
)

// mlDefinitions are the node types that define something: inside a function they are
// locals, and only the uses of names in them are recorded.
var mlDefinitions = map[string]bool{
	"value_definition": true, "let_binding": true, "module_definition": true, "module_binding": true,
	"module_type_definition": true, "type_definition": true, "type_binding": true,
	"exception_definition": true, "external": true, "value_specification": true,
	"class_definition": true, "class_binding": true, "class_type_definition": true, "class_type_binding": true,
	"open_module": true, "include_module": true, "include_module_type": true,
	"method_definition": true, "method_specification": true,
	"instance_variable_definition": true, "instance_variable_specification": true,
	"inheritance_definition": true, "inheritance_specification": true,
}

// mlLiterals are the node types of a value whose binding is a constant.
var mlLiterals = map[string]bool{
	"number": true, "signed_number": true, "string": true, "quoted_string": true, "character": true, "boolean": true,
}

// extractOcaml walks an OCaml implementation (.ml). The grammar is tree-sitter-ocaml's .ml
// grammar, so signatures are read where a .ml file has them: in module types and in the
// signature a module is given. What each construct becomes:
//
//   - module M = struct ... end: module, its items as children; module M : S = ... also
//     implements S; a functor (module Make (X : S) = struct, module F = functor (X : S) ->)
//     is a module with metadata functor and parameters; module L = List has metadata alias;
//     module M : sig ... end, in a signature, is a module declaration with its
//     specifications as children;
//   - module type S = sig ... end: interface, its specifications as children;
//   - type t = { ... } (a record): struct, its fields as field children;
//   - type t = A | B of int (a variant): enum, its constructors as enum_member children, as
//     Rust's enums: a variant is a closed sum of tagged cases, which is what enum means
//     across the languages Quarry reads; an inline record's fields are children of its
//     constructor;
//   - any other type (abstract, alias, polymorphic variant, object, type t = ..): type;
//     type t += A adds enum_member constructors with metadata extends;
//   - exception E of t: type with metadata exception: it declares an error a caller raises
//     and matches by name, as an error type does elsewhere (it has no members, so not a
//     class);
//   - let bindings at module level, each binding of let rec ... and ...: function when it
//     takes parameters or binds fun or function (operator for let ( >>= )), constant when
//     it binds a literal, else variable; let () = ... and let _ = ... define nothing;
//   - val x : t in a signature: function (of a function type) or variable, with metadata
//     declaration as C prototypes have; external: function with metadata declaration and
//     primitive;
//   - class and class type: class and interface; methods: method (private ones private,
//     virtual ones abstract); instance variables (val): field, protected (visible to the
//     methods of subclasses only); inherit: an extends relationship;
//   - open M, include M: import (include, which re-exports M, has metadata reexport, and in
//     a module type it also extends M).
//
// Signatures are the binding head up to its "=", with the type annotation, on one line
// (let f (x : int) : string, module Make (X : S) : S with type t = X.t); a value
// binding that fits on one line is kept whole (let max_size = 1024). Doc comments are
// (** ... *) comments right above an item, or right after it (ocamldoc's two places). In a
// .ml file every module-level item is public; bindings inside a function are locals and
// only the uses of names in them are recorded. Uses: applications of named functions, the
// pipelines x |> f and f @@ x, obj#m and new c are calls (List.map has qualifier List);
// functor applications are calls of the functor; type constructors, module types and
// classes named in annotations are type usages; r.field is a member access.
func extractOcaml(w *walker, root *Node) {
	x := &mlExtractor{w: w}
	x.walk(root)
}

// mlExtractor extracts one OCaml file.
type mlExtractor struct {
	w *walker
	// local counts the enclosing code run for its effect (let () = ..., a top-level
	// expression, an initializer), where bindings are locals though no symbol encloses them.
	local int
}

// mlItem is one definition: n is the binding (or the whole item: a val, an external), start
// the node it starts at, which holds its doc comment: the definition for its first binding
// (so that let, type or module is included), the "and" before each other one.
type mlItem struct {
	n, start *Node
	after    bool // a doc comment may follow the item (it is not one of several and-bindings)
	rec      bool // let rec, module rec
}

// mlSingle is the item of a definition that is its own binding (a val, a field).
func mlSingle(n *Node) mlItem { return mlItem{n: n, start: n, after: true} }

// walk extracts the named children of n.
func (x *mlExtractor) walk(n *Node) {
	for _, c := range namedChildren(n) {
		x.node(c)
	}
}

// inBody reports whether the walk is inside code, where definitions are locals.
func (x *mlExtractor) inBody() bool {
	if x.local > 0 {
		return true
	}
	c := x.w.container()
	return c != nil && !c.Kind.IsContainer()
}

// node extracts the node n: a definition, a use of a name, or a node to walk through.
func (x *mlExtractor) node(n *Node) {
	if n == nil {
		return
	}
	t := n.Type()
	if mlDefinitions[t] && x.inBody() {
		x.walk(n)
		return
	}
	switch t {
	case "value_definition", "type_definition", "module_definition", "class_definition", "class_type_definition":
		x.bindings(n)
	case "let_binding", "type_binding", "module_binding", "class_binding", "class_type_binding":
		x.binding(mlSingle(n)) // a binding whose definition did not parse
	case "module_type_definition":
		x.moduleType(n)
	case "exception_definition":
		x.exception(n)
	case "value_specification", "external":
		x.valueSpec(n)
	case "open_module", "include_module", "include_module_type":
		x.open(n)
	case "method_definition", "method_specification":
		x.method(n)
	case "instance_variable_definition", "instance_variable_specification":
		x.instanceVariable(n)
	case "inheritance_definition", "inheritance_specification":
		x.inherit(n)
	case "expression_item", "class_initializer":
		x.local++
		x.walk(n)
		x.local--
	case "application_expression":
		x.application(n)
	case "infix_expression":
		x.infix(n)
	case "method_invocation":
		x.methodCall(n)
	case "new_expression":
		if path := childOfType(n, "class_path"); path != nil {
			x.call(mlLastNamed(path), path)
		}
	case "field_get_expression":
		x.fieldGet(n)
	case "type_constructor_path", "module_type_path", "class_type_path":
		x.w.member(mlLastNamed(n), n, TypeUsage)
	case "module_application":
		x.functorCall(n)
	case "comment", "string", "quoted_string", "character", "attribute", "item_attribute",
		"floating_attribute", "toplevel_directive", "line_number_directive", "shebang":
	default:
		x.walk(n) // ERROR nodes too: a half-written file keeps what parsed inside them
	}
}

// bindings extracts each binding of a let, type, module or class definition.
func (x *mlExtractor) bindings(def *Node) {
	var binds []*Node
	for _, c := range namedChildren(def) {
		if strings.HasSuffix(c.Type(), "_binding") {
			binds = append(binds, c)
		} else {
			x.node(c)
		}
	}
	for i, b := range binds {
		it := mlItem{n: b, start: def, after: len(binds) == 1}
		if i > 0 {
			it.start = mlAndBefore(b)
		}
		it.rec = x.w.hasChild(def, "rec")
		x.binding(it)
	}
}

// mlAndBefore returns the "and" keyword before the binding b (b itself when there is none).
func mlAndBefore(b *Node) *Node {
	for p := b.PrevSibling(); p != nil; p = p.PrevSibling() {
		if p.Type() == "and" {
			return p
		}
		if p.IsNamed() && p.Type() != "comment" {
			break
		}
	}
	return b
}

// binding extracts one binding of a let, type, module or class definition.
func (x *mlExtractor) binding(it mlItem) {
	switch it.n.Type() {
	case "let_binding":
		x.let(it)
	case "type_binding":
		x.typeBinding(it)
	case "module_binding":
		x.module(it)
	case "class_binding", "class_type_binding":
		x.class(it)
	}
}

// add records a symbol for the item it, spanning from its start to the end of its binding,
// public, with the source from its start to sigEnd as signature and its doc comment.
func (x *mlExtractor) add(it mlItem, name string, kind Kind, sigEnd int) *Symbol {
	w := x.w
	sym := w.addNamed(it.n, name, kind)
	if sym == nil {
		return nil
	}
	if it.start != it.n && it.start.StartByte() < it.n.StartByte() {
		sp := w.span(it.start)
		sym.StartLine, sym.StartColumn, sym.StartByte = sp.StartLine, sp.StartColumn, sp.StartByte
		sym.ID = SymbolID(w.f.Path, kind, sym.Name, sym.StartByte)
	}
	if sigEnd <= sym.StartByte || sigEnd > sym.EndByte {
		sigEnd = sym.EndByte
	}
	sym.Signature = mlSignature(w, it.n, sym.StartByte, sigEnd)
	sym.DocComment = mlDoc(w, it.start, it.after)
	sym.Visibility = Public
	if it.rec {
		meta(sym, mlMetaRec, "true")
	}
	return sym
}

// mlName returns the name a value_name or parenthesized_operator spells: the operator
// without its parentheses (>>= of ( >>= )).
func mlName(w *walker, n *Node) string {
	s := strings.TrimSpace(w.text(n))
	if n != nil && n.Type() == "parenthesized_operator" {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "("), ")"))
	}
	return s
}

// mlLastNamed returns the last named child of n that is not a comment (the name of a path:
// map of List.map, t of M.t), or nil.
func mlLastNamed(n *Node) *Node {
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		if c := n.NamedChild(i); c.Type() != "comment" {
			return c
		}
	}
	return nil
}

// mlAnnotation returns the type n states after its ":" (let x : t, val x : t, M : S), or nil.
func mlAnnotation(n *Node) *Node {
	colon := false
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch {
		case !c.IsNamed() && c.Type() == ":":
			colon = true
		case !c.IsNamed() && c.Type() == "=":
			return nil
		case colon && c.IsNamed() && c.Type() != "comment":
			return c
		}
	}
	return nil
}

// mlSame reports whether a and b are the same node.
func mlSame(a, b *Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Type() == b.Type()
}

// walkExcept walks the named children of n but skip.
func (x *mlExtractor) walkExcept(n, skip *Node) {
	for _, c := range namedChildren(n) {
		if !mlSame(c, skip) {
			x.node(c)
		}
	}
}

// --- uses of names ---

// application records a call of a named function (f x, List.map f l) and walks the
// arguments, recording the plain names passed.
func (x *mlExtractor) application(n *Node) {
	fn := field(n, "function")
	x.callee(fn)
	for _, a := range namedChildren(n) {
		if !mlSame(a, fn) {
			x.arg(a)
		}
	}
}

// callee records a call of n when it names a function, and walks it otherwise.
func (x *mlExtractor) callee(n *Node) {
	if n != nil && n.Type() == "value_path" {
		if name := childOfType(n, "value_name"); name != nil {
			x.call(name, n)
		}
		return
	}
	x.node(n)
}

// arg records a name passed or piped as a variable reference, and walks anything else.
func (x *mlExtractor) arg(n *Node) {
	if n != nil && n.Type() == "value_path" {
		x.w.member(childOfType(n, "value_name"), n, VariableRef)
		return
	}
	x.node(n)
}

// call records a call of the function name (in the path whole, which gives its qualifier)
// and a calls relationship from the container, once per name.
func (x *mlExtractor) call(name, whole *Node) {
	w := x.w
	if name == nil {
		return
	}
	w.member(name, whole, Call)
	w.relateCall(name)
}

// infix records the function applied by a pipeline: f of x |> f and of f @@ x.
func (x *mlExtractor) infix(n *Node) {
	left, right := field(n, "left"), field(n, "right")
	switch x.w.text(field(n, "operator")) {
	case "|>":
		x.arg(left)
		x.callee(right)
	case "@@":
		x.callee(left)
		x.arg(right)
	default:
		x.walk(n)
	}
}

// methodCall records obj#m as a call of m qualified by obj.
func (x *mlExtractor) methodCall(n *Node) {
	name := childOfType(n, "method_name")
	if obj := n.NamedChild(0); obj != nil && !mlSame(obj, name) {
		x.arg(obj)
	}
	count := len(x.w.f.Identifiers)
	x.call(name, n)
	if ids := x.w.f.Identifiers; len(ids) > count {
		id := &ids[count]
		id.Qualifier = strings.TrimSpace(strings.TrimSuffix(id.Qualifier, "#"))
	}
}

// fieldGet records r.f as a member access of f qualified by r.
func (x *mlExtractor) fieldGet(n *Node) {
	path := childOfType(n, "field_path")
	if rec := n.NamedChild(0); rec != nil && !mlSame(rec, path) {
		x.arg(rec)
	}
	if path != nil {
		x.w.member(mlLastNamed(path), n, MemberAccess)
	}
}

// functorCall records the application of a functor (Map.Make (String)) as a call of it.
func (x *mlExtractor) functorCall(n *Node) {
	f := field(n, "functor")
	if f != nil && f.Type() == "module_path" {
		x.call(mlLastNamed(f), f)
	} else {
		x.node(f)
	}
	x.walkExcept(n, f)
}

// --- doc comments ---

// mlDoc returns the doc comment of the item starting at n: the (** ... *) comment right
// above it, or when after is set the one right after it: on its last line, or on the next
// one when that comment is not itself right above another item.
func mlDoc(w *walker, n *Node, after bool) string {
	if p := mlPrev(n); p != nil && mlIsDoc(w, p) && p.EndPoint().Row+1 >= n.StartPoint().Row {
		// A comment after code on its line documents that code (x : int; (** doc *)).
		if q := mlPrev(p); q == nil || !q.IsNamed() || q.Type() == "comment" || q.EndPoint().Row < p.StartPoint().Row {
			return mlCleanDoc(w.text(p))
		}
	}
	if !after {
		return ""
	}
	p := mlNext(n)
	if p == nil || !mlIsDoc(w, p) {
		return ""
	}
	switch end := n.EndPoint().Row; p.StartPoint().Row {
	case end:
	case end + 1:
		if q := mlNext(p); q != nil && q.IsNamed() && q.Type() != "comment" && q.StartPoint().Row <= p.EndPoint().Row+1 {
			return ""
		}
	default:
		return ""
	}
	return mlCleanDoc(w.text(p))
}

// mlSeparator reports whether n is a separator between items: ; between fields, | between
// constructors, ;; between top-level items.
func mlSeparator(n *Node) bool {
	t := n.Type()
	return !n.IsNamed() && (t == ";" || t == "|" || t == ";;")
}

// mlPrev returns the sibling before n, separators skipped, or nil.
func mlPrev(n *Node) *Node {
	p := n.PrevSibling()
	for p != nil && mlSeparator(p) {
		p = p.PrevSibling()
	}
	return p
}

// mlNext returns the sibling after n, separators skipped, or nil.
func mlNext(n *Node) *Node {
	p := n.NextSibling()
	for p != nil && mlSeparator(p) {
		p = p.NextSibling()
	}
	return p
}

// mlIsDoc reports whether n is a doc comment: (** ... *), but not a (*** banner *) or (**).
func mlIsDoc(w *walker, n *Node) bool {
	if n.Type() != "comment" {
		return false
	}
	t := w.text(n)
	return strings.HasPrefix(t, "(**") && !strings.HasPrefix(t, "(***") && t != "(**)"
}

// mlCleanDoc returns the text of a doc comment without its markers and indentation.
func mlCleanDoc(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "(**"), "*)")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	s = strings.TrimSpace(strings.Join(lines, "\n"))
	if len([]rune(s)) > maxDocRunes {
		s = oneLine(s, maxDocRunes)
	}
	return s
}

// mlBodyStart returns where the body n starts, before the comments right above it, so that
// a signature ending there does not take them in.
func mlBodyStart(n *Node) int {
	start := int(n.StartByte())
	for p := n.PrevSibling(); p != nil && p.Type() == "comment"; p = p.PrevSibling() {
		start = int(p.StartByte())
	}
	return start
}

// mlSignature returns the source from start to end on one line, without the comments in n
// that it spans (Char_ty : (* %c *) ...) and without a trailing "=", "->" (fun x ->,
// functor (X : S) ->) or "|" (function |).
func mlSignature(w *walker, n *Node, start, end int) string {
	var b strings.Builder
	at := start
	for _, c := range mlCommentsIn(n, start, end, nil) {
		b.Write(w.src[at:c.StartByte()])
		b.WriteByte(' ')
		at = int(c.EndByte())
	}
	b.Write(w.src[at:end])
	s := oneLine(b.String(), maxSignatureRunes)
	s = strings.TrimSpace(strings.TrimRight(s, "{:= \t"))
	for _, suffix := range []string{"|", "->"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, suffix))
	}
	return s
}

// mlCommentsIn appends to out the comments under n that lie within start and end, in
// source order, looking only into the children that overlap that range.
func mlCommentsIn(n *Node, start, end int, out []*Node) []*Node {
	for _, c := range namedChildren(n) {
		switch {
		case int(c.EndByte()) <= start:
		case int(c.StartByte()) >= end:
			return out
		case c.Type() == "comment":
			if int(c.StartByte()) >= start && int(c.EndByte()) <= end {
				out = append(out, c)
			}
		default:
			out = mlCommentsIn(c, start, end, out)
		}
	}
	return out
}
