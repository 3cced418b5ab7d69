package extract

import (
	"strconv"
	"strings"
)

func init() { register("elixir", extractElixir) }

// extractElixir walks an Elixir file. The grammar has no definition nodes: defmodule, def
// and alias are calls of macros, told apart by the name they call. Each construct becomes:
//
//   - defmodule: module, public, named by the last segment of its full name (User for
//     MyApp.Accounts.User, as a Ruby A::B is B), the rest in the metadata namespace and the
//     full name in its signature; a nested one's full name is prefixed by the enclosing
//     module's (defmodule Inner inside A.B is A.B.Inner, as the compiler names it), and it
//     is a child of the enclosing module. Its doc comment is its @moduledoc (or the #
//     comments above it). Its defstruct is a struct named as the module.
//   - def, defp: function, public or private, a child of its module; in a defprotocol or a
//     defimpl, a method. Elixir identifies a function by name and arity, and a developer looks
//     for fetch/2, not for each of its clauses: the clauses of one name/arity make one symbol,
//     at the first clause, whose span grows over the clauses right after it. The arity is in
//     metadata (arity, and clauses when more than one); the signature is the first head with
//     its guard (def fetch(conn, opts \\ [])). A definition whose operator is the name
//     (def a <~> b) is an operator.
//   - defmacro, defmacrop: function with metadata macro: it is called like one, so callers
//     and callees find it; defguard, defguardp: function with metadata guard; defdelegate:
//     function with metadata delegate_to, calling the function it delegates to.
//   - defstruct, defexception: struct named after its module, a child of it, with the keys
//     as field children; an exception also implements the Exception behaviour.
//   - defprotocol: interface, its function heads methods. defimpl P, for: T: class named
//     P.T (the module it defines), implementing P.
//   - @type, @typep, @opaque: type (public, private, public with metadata opaque), with the
//     type as an alias TypeInfo; @callback, @macrocallback: method of the behaviour module.
//   - @name value: constant "@name", private to its module (the first definition of a
//     name). @moduledoc, @doc and @typedoc are the doc comments of the module and of the
//     next function or type; @spec gives the return type of the function of its name/arity;
//     @impl is metadata of the next function; @behaviour and @derive are implements
//     relationships; the other attributes Elixir reserves (@enforce_keys, @compile, ...)
//     declare nothing to look up.
//   - alias, import, require, use: import of each module named (alias A.{B, C} names two),
//     with the directive as metadata kind and the name an alias binds as metadata alias;
//     use is also a uses relationship of the enclosing module.
//
// Calls (local, remote Mod.fun with qualifier Mod, piped, captured &fun/1) are recorded
// inside the enclosing function; reads of @name are variable references. Definitions inside
// a module-level block (if, for, unless) are still the module's; inside a function (quote)
// they are code that is generated, not defined, and only their calls are recorded.
func extractElixir(w *walker, root *Node) {
	exStatements(w, namedChildren(root), newExScope(nil, ""))
}

// exScope is a module body (or the file) being walked: its module and what its attributes
// say of the definitions after them.
type exScope struct {
	module     *Symbol // the defmodule, defprotocol or defimpl; nil at file level
	name       string  // the module's full name, for nested modules and __MODULE__
	methods    bool    // in a defprotocol or defimpl: functions are methods
	doc        string  // the pending @doc (with hasDoc), for the next function
	hasDoc     bool
	typedoc    string // the pending @typedoc, for the next type
	hasTypedoc bool
	impl       string             // the pending @impl
	specs      map[string]*Node   // @spec return types by name/arity
	defs       map[string]*Symbol // functions by name/arity
	last       *Symbol            // the function last defined, which a next clause extends
	attrs      map[string]bool    // attributes defined
}

func newExScope(module *Symbol, name string) *exScope {
	return &exScope{module: module, name: name, specs: map[string]*Node{}, defs: map[string]*Symbol{}, attrs: map[string]bool{}}
}

// exDefKind describes one of the def macros.
type exDefKind struct {
	vis  Visibility
	meta string // the metadata key set to "true": macro or guard
}

var exDefKinds = map[string]exDefKind{
	"def": {Public, ""}, "defp": {Private, ""}, "defmacro": {Public, "macro"}, "defmacrop": {Private, "macro"},
	"defguard": {Public, "guard"}, "defguardp": {Private, "guard"}, "defdelegate": {Public, ""},
}

// exNotCalls are the special forms and control-flow macros, which are syntax to a reader
// rather than calls: they are not recorded as calls.
var exNotCalls = map[string]bool{
	"if": true, "unless": true, "case": true, "cond": true, "with": true, "for": true, "try": true,
	"receive": true, "quote": true, "unquote": true, "unquote_splicing": true, "super": true,
	"defmodule": true, "defprotocol": true, "defimpl": true, "defstruct": true, "defexception": true,
	"alias": true, "import": true, "require": true, "use": true,
}

// exStatements extracts the statements of a module body or file, in order, so attributes
// apply to the definitions after them.
func exStatements(w *walker, stmts []*Node, s *exScope) {
	for _, n := range stmts {
		exStatement(w, n, s)
	}
}

// exStatement extracts one statement of a module body or file.
func exStatement(w *walker, n *Node, s *exScope) {
	switch n.Type() {
	case "call":
		exCallStatement(w, n, s)
	case "unary_operator":
		if w.text(field(n, "operator")) == "@" {
			exAttribute(w, n, s)
			return
		}
		exExpr(w, n, s)
	case "ERROR", "block", "else_block":
		exStatements(w, namedChildren(n), s) // an ERROR: a half-written file, keep what parsed
	case "comment":
	default:
		exExpr(w, n, s)
	}
}

// exCallStatement extracts a call at module or file level: a definition, a directive, or
// a macro whose do block may hold definitions (if, for, a library's DSL).
func exCallStatement(w *walker, n *Node, s *exScope) {
	target := field(n, "target")
	if target == nil || target.Type() != "identifier" {
		exExpr(w, n, s)
		return
	}
	switch name := w.text(target); name {
	case "defmodule", "defprotocol":
		exModule(w, n, s, name == "defprotocol")
	case "defimpl":
		exImpl(w, n, s)
	case "defstruct", "defexception":
		exStruct(w, n, s, name == "defexception")
	case "alias", "import", "require", "use":
		exImport(w, n, name, s)
	default:
		if k, ok := exDefKinds[name]; ok {
			exDef(w, n, name, k, s)
			return
		}
		if !exNotCalls[name] {
			w.call(target)
		}
		exExpr(w, exArgs(n), s)
		for _, c := range childrenOfType(n, "do_block") {
			exStatements(w, namedChildren(c), s)
		}
	}
}

// exDoBody returns the statements of the do block of the call n: do ... end, or do: expr.
func exDoBody(w *walker, n *Node) []*Node {
	if b := childOfType(n, "do_block"); b != nil {
		return namedChildren(b)
	}
	if v := exKeyword(w, exArgs(n), "do"); v != nil {
		if v.Type() == "block" {
			return namedChildren(v)
		}
		return []*Node{v}
	}
	return nil
}

// exKeyword returns the value of the keyword key: in the arguments args, or nil.
func exKeyword(w *walker, args *Node, key string) *Node {
	for _, kw := range childrenOfType(args, "keywords") {
		for _, p := range childrenOfType(kw, "pair") {
			k := strings.TrimSuffix(strings.TrimSpace(w.text(field(p, "key"))), ":")
			if k == key {
				return field(p, "value")
			}
		}
	}
	return nil
}

// exFirstArg returns the first argument of the call n, or nil.
func exFirstArg(n *Node) *Node {
	args := namedChildren(exArgs(n))
	if len(args) == 0 {
		return nil
	}
	return args[0]
}

// exModuleName returns the module an argument names: an alias (A.B), __MODULE__ and
// __MODULE__.B in the module s, an Erlang module (:ets gives ets); "" for anything else.
func exModuleName(w *walker, n *Node, s *exScope) string {
	if n == nil {
		return ""
	}
	switch n.Type() {
	case "alias":
		return strings.Join(strings.Fields(w.text(n)), "")
	case "atom":
		return strings.TrimPrefix(w.text(n), ":")
	case "identifier":
		if w.text(n) == "__MODULE__" {
			return s.name
		}
	case "dot":
		left, right := field(n, "left"), field(n, "right")
		if base := exModuleName(w, left, s); base != "" && right != nil && right.Type() == "alias" {
			return base + "." + w.text(right)
		}
	}
	return ""
}

// exModule extracts a defmodule (module) or defprotocol (interface) and its body.
func exModule(w *walker, n *Node, s *exScope, protocol bool) {
	arg := exFirstArg(n)
	name := exModuleName(w, arg, s)
	if name != "" && s.module != nil && arg.Type() == "alias" {
		name = s.name + "." + name
	}
	kind := Module
	if protocol {
		kind = Interface
	}
	// A lookup of User finds MyApp.Accounts.User (its full name is in its signature).
	namespace, last := splitDotted(name)
	sym := w.addNamed(n, last, kind)
	if sym == nil { // defmodule unquote(name): its definitions are still not the outer module's
		exStatements(w, exDoBody(w, n), newExScope(s.module, s.name))
		return
	}
	sym.Visibility = Public
	meta(sym, "namespace", namespace)
	sym.Signature = w.signatureRange(int(n.StartByte()), int(arg.EndByte()))
	inner := newExScope(sym, name)
	inner.methods = protocol
	w.within(sym, func() { exStatements(w, exDoBody(w, n), inner) })
}

// exImpl extracts defimpl P, for: T as the class P.T implementing P.
func exImpl(w *walker, n *Node, s *exScope) {
	protoNode := exFirstArg(n)
	proto := exModuleName(w, protoNode, s)
	if proto == "" {
		exStatements(w, exDoBody(w, n), newExScope(s.module, s.name))
		return
	}
	forNode := exKeyword(w, exArgs(n), "for")
	forName := s.name
	if forNode != nil {
		forName = exModuleName(w, forNode, s)
	}
	name := proto
	if forName != "" {
		name += "." + forName
	}
	sym := w.addNamed(n, name, Class)
	if sym == nil { // defmodule unquote(name): its definitions are still not the outer module's
		exStatements(w, exDoBody(w, n), newExScope(s.module, s.name))
		return
	}
	sym.Visibility = Public
	end := protoNode.EndByte()
	if forNode != nil {
		end = forNode.EndByte()
		if forName == "" {
			meta(sym, "for", oneLine(w.text(forNode), maxNameRunes))
		}
	}
	sym.Signature = w.signatureRange(int(n.StartByte()), int(end))
	w.relate(sym, proto, Implements, protoNode)
	inner := newExScope(sym, name)
	inner.methods = true
	w.within(sym, func() {
		w.ident(protoNode, TypeUsage)
		w.typeRefs(forNode, "alias")
		exStatements(w, exDoBody(w, n), inner)
	})
}

// exStruct extracts defstruct and defexception: a struct named after the module, with
// its keys as fields.
func exStruct(w *walker, n *Node, s *exScope, exception bool) {
	if s.module == nil {
		exExpr(w, exArgs(n), s)
		return
	}
	_, name := splitDotted(s.name) // named as its module
	sym := w.addNamed(n, name, Struct)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	if exception {
		meta(sym, "exception", "true")
		w.relate(s.module, "Exception", Implements, n)
	}
	w.within(sym, func() {
		for _, a := range namedChildren(exArgs(n)) {
			exFields(w, a, s)
		}
	})
}

// exFields adds a field for each atom (:name) and keyword (age: 0) under n.
func exFields(w *walker, n *Node, s *exScope) {
	switch n.Type() {
	case "atom":
		if f := w.addNamed(n, strings.TrimPrefix(w.text(n), ":"), Field); f != nil {
			f.Visibility = Public
		}
	case "pair":
		key := field(n, "key")
		name := strings.TrimSuffix(strings.TrimSpace(w.text(key)), ":")
		if f := w.addNamed(n, strings.Trim(name, `"`), Field); f != nil {
			f.Visibility = Public
		}
		exExpr(w, field(n, "value"), s)
	case "list", "keywords":
		for _, c := range namedChildren(n) {
			exFields(w, c, s)
		}
	}
}

// exHead is what the head of a def says: the name, the parameters, and the node the
// signature ends with (the head with its guard).
type exHead struct {
	name     *Node
	params   []*Node
	end      *Node
	operator bool
}

// exParseHead reads the head of a def: f(a, b), f, f(a) when g(a), a + b.
func exParseHead(w *walker, head *Node) (exHead, bool) {
	h := exHead{end: head}
	if head == nil {
		return h, false
	}
	if head.Type() == "binary_operator" && w.text(field(head, "operator")) == "when" {
		head = field(head, "left")
	}
	if head == nil {
		return h, false
	}
	switch head.Type() {
	case "identifier":
		h.name = head
	case "call":
		target := field(head, "target")
		if target == nil || target.Type() != "identifier" {
			return h, false // def unquote(name)(...): a name made at compile time
		}
		h.name, h.params = target, namedChildren(exArgs(head))
	case "binary_operator":
		h.name, h.operator = field(head, "operator"), true
		h.params = []*Node{field(head, "left"), field(head, "right")}
	case "unary_operator":
		h.name, h.operator = field(head, "operator"), true
		h.params = []*Node{field(head, "operand")}
	}
	return h, h.name != nil
}

// exDef extracts a def, defp, defmacro, defmacrop, defguard, defguardp or defdelegate
// clause: a new function, or one more clause of the function of its name and arity.
func exDef(w *walker, n *Node, defName string, k exDefKind, s *exScope) {
	h, ok := exParseHead(w, exFirstArg(n))
	if !ok {
		w.within(s.module, func() { exDefBody(w, n, s) })
		return
	}
	name := w.text(h.name)
	key := name + "/" + strconv.Itoa(len(h.params))
	if sym := s.defs[key]; sym != nil {
		exClause(w, n, sym, s)
		return
	}
	kind := Function
	switch {
	case h.operator:
		kind = Operator
	case s.methods:
		kind = Method
	}
	sym := w.addNamed(n, name, kind)
	if sym == nil {
		return
	}
	s.defs[key], s.last = sym, sym
	sym.Visibility = k.vis
	// The head from the def's name on, so def(f(x), do: x) reads def f(x).
	sym.Signature = w.text(field(n, "target")) + " " + w.signatureRange(int(h.end.StartByte()), int(h.end.EndByte()))
	meta(sym, "arity", strconv.Itoa(len(h.params)))
	if k.meta != "" {
		meta(sym, k.meta, "true")
	}
	exTakeAttributes(w, sym, key, s)
	if defName == "defdelegate" {
		exDelegate(w, n, sym, name, s)
		return
	}
	w.within(sym, func() {
		if g := h.end; g != nil && g.Type() == "binary_operator" && w.text(field(g, "operator")) == "when" {
			exExpr(w, field(g, "right"), s)
		}
		exDefBody(w, n, s)
	})
}

// exTakeAttributes gives the function sym the pending @doc and @impl, and the return type
// of the @spec of its name/arity.
func exTakeAttributes(w *walker, sym *Symbol, key string, s *exScope) {
	if s.hasDoc {
		sym.DocComment = s.doc
	}
	meta(sym, "impl", s.impl)
	if ret := s.specs[key]; ret != nil {
		w.typeInfo(sym, "return", ret)
	}
	s.doc, s.hasDoc, s.impl = "", false, ""
}

// exClause adds one more clause to the function sym: its calls are sym's, and its span
// grows over the clause when no other function came between.
func exClause(w *walker, n *Node, sym *Symbol, s *exScope) {
	clauses, _ := strconv.Atoi(sym.Metadata["clauses"])
	meta(sym, "clauses", strconv.Itoa(max(clauses, 1)+1))
	if s.last == sym && int(n.EndByte()) > sym.EndByte {
		sp := w.span(n)
		sym.EndLine, sym.EndColumn, sym.EndByte = sp.EndLine, sp.EndColumn, sp.EndByte
	}
	s.doc, s.hasDoc, s.impl = "", false, ""
	w.within(sym, func() {
		if g := exFirstArg(n); g != nil && g.Type() == "binary_operator" && w.text(field(g, "operator")) == "when" {
			exExpr(w, field(g, "right"), s)
		}
		exDefBody(w, n, s)
	})
}

// exDefBody walks the body of a def (do ... end with its rescue and after blocks, or the
// do:, rescue: ... keywords) for calls.
func exDefBody(w *walker, n *Node, s *exScope) {
	exExpr(w, childOfType(n, "do_block"), s)
	for _, kw := range childrenOfType(exArgs(n), "keywords") {
		for _, p := range childrenOfType(kw, "pair") {
			exExpr(w, field(p, "value"), s)
		}
	}
}

// exDelegate records what defdelegate f(a), to: M, as: g delegates to: a call of M.g
// (M.f without as:).
func exDelegate(w *walker, n *Node, sym *Symbol, name string, s *exScope) {
	args := exArgs(n)
	to := exKeyword(w, args, "to")
	mod := exModuleName(w, to, s)
	if to == nil || mod == "" {
		return
	}
	meta(sym, "delegate_to", mod)
	// The call is recorded where its name is written: the atom of as: (without its
	// colon); without as:, the name is the delegate's own, and only the relationship says it.
	if as := exKeyword(w, args, "as"); as != nil && as.Type() == "atom" && strings.HasPrefix(w.text(as), ":") {
		name = strings.TrimPrefix(w.text(as), ":")
		sp := w.span(as)
		sp.StartByte++
		sp.StartColumn++
		w.f.Identifiers = append(w.f.Identifiers, Identifier{Name: name, Kind: Call, Span: sp, Qualifier: mod, ContainingSymbolID: sym.ID})
	}
	w.relate(sym, name, Calls, to)
}

// exImport extracts alias, import, require and use: an import of each module named.
func exImport(w *walker, n *Node, directive string, s *exScope) {
	arg := exFirstArg(n)
	if arg == nil {
		return
	}
	var mods []*Node
	prefix := ""
	if right := field(arg, "right"); arg.Type() == "dot" && right != nil && right.Type() == "tuple" {
		prefix = exModuleName(w, field(arg, "left"), s) // alias A.{B, C}
		mods = namedChildren(right)
	} else {
		mods = []*Node{arg}
	}
	as := exKeyword(w, exArgs(n), "as")
	for _, m := range mods {
		name := exModuleName(w, m, s)
		if name == "" {
			continue
		}
		if prefix != "" {
			name = prefix + "." + name
		}
		sym := w.importName(n, m, name)
		meta(sym, "kind", directive)
		if directive == "alias" {
			bound := name[strings.LastIndexByte(name, '.')+1:]
			if as != nil {
				bound = w.text(as)
			}
			meta(sym, "alias", bound)
		}
		if directive == "use" {
			from := w.container()
			if from == nil {
				from = sym
			}
			w.relate(from, name, Uses, n)
		}
	}
}

// exExpr records the calls, captures and attribute reads under n. Definitions under it are
// not the module's (a quote block makes code for another module).
func exExpr(w *walker, n *Node, s *exScope) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "call":
		exCall(w, n, s)
		return
	case "unary_operator":
		op, operand := w.text(field(n, "operator")), field(n, "operand")
		switch {
		case op == "@" && operand != nil && operand.Type() == "identifier":
			w.ident(n, VariableRef)
			return
		case op == "@" && operand != nil && operand.Type() == "call": // @doc false in a quote
			exExpr(w, exArgs(operand), s)
			return
		case op == "&" && operand != nil && operand.Type() == "binary_operator" && w.text(field(operand, "operator")) == "/":
			if f := field(operand, "left"); f != nil && f.Type() == "identifier" {
				w.call(f) // &helper/1 (&Mod.fun/2 is a call node)
				return
			}
		}
	case "comment", "atom", "integer", "float", "alias", "identifier":
		return
	}
	for _, c := range namedChildren(n) {
		exExpr(w, c, s)
	}
}

// exCall records a call: a local f(x) or a remote Mod.f(x) (qualified by Mod), but not
// control flow (if, case, quote) or an anonymous function's call f.(x). A directive (alias,
// import) inside a function is an import of the function.
func exCall(w *walker, n *Node, s *exScope) {
	target := field(n, "target")
	switch {
	case target == nil:
	case target.Type() == "identifier":
		name := w.text(target)
		if name == "alias" || name == "import" || name == "require" {
			exImport(w, n, name, s)
			return
		}
		if _, def := exDefKinds[name]; def {
			exDefBody(w, n, s) // in a quote: its head is no call
			return
		}
		if !exNotCalls[name] {
			w.call(target)
		}
	case target.Type() == "dot":
		left, right := field(target, "left"), field(target, "right")
		switch {
		case right == nil || right.Type() != "identifier": // f.(x), Mod.{A, B}
		case exArgs(n) == nil && left != nil && left.Type() != "alias" && left.Type() != "atom":
			w.member(right, target, MemberAccess) // map.key: a field, not a call
		default:
			w.call(target)
		}
		exExpr(w, left, s)
	default:
		exExpr(w, target, s)
	}
	for _, c := range namedChildren(n) {
		if c != target {
			exExpr(w, c, s)
		}
	}
}

// exArgs returns the arguments of the call n (a child, not a field), or nil.
func exArgs(n *Node) *Node { return childOfType(n, "arguments") }
