package extract

import (
	"strings"
)

func init() { register("ruby", extractRuby) }

// rbScope is the class or module body (or the file) a Ruby statement sits in, with the
// visibility section in force.
type rbScope struct {
	owner     *Symbol // the class or module, nil at file level
	vis       Visibility
	static    bool // inside class << self
	modFunc   bool // after module_function
	method    bool // inside a method body: assignments are locals
	members   map[string]*Symbol
	classVars map[string]bool
}

// rbOperators are the method names that define an operator.
var rbOperators = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "**": true, "==": true, "!=": true,
	"<": true, ">": true, "<=": true, ">=": true, "<=>": true, "===": true, "=~": true, "!~": true,
	"[]": true, "[]=": true, "<<": true, ">>": true, "!": true, "&": true, "|": true, "^": true,
	"~": true, "+@": true, "-@": true,
}

// rbAttrMethods are the calls that declare properties, and rbMixins the calls that mix a
// module in.
var (
	rbAttrMethods = map[string]bool{"attr_reader": true, "attr_writer": true, "attr_accessor": true, "attr": true}
	rbMixins      = map[string]bool{"include": true, "extend": true, "prepend": true}
	rbRequires    = map[string]bool{"require": true, "require_relative": true, "load": true, "autoload": true}
)

// extractRuby walks a Ruby file: requires, modules, classes (superclass, mixins), methods
// (singleton methods, class << self, operators, initialize) with the visibility of their
// private/protected/public section, attributes, constants, globals, class and instance
// variables.
func extractRuby(w *walker, root *Node) {
	rbBody(w, root, newRbScope(nil))
}

func newRbScope(owner *Symbol) *rbScope {
	return &rbScope{owner: owner, vis: Public, members: map[string]*Symbol{}, classVars: map[string]bool{}}
}

// rbBody extracts the statements of a body in order, so visibility sections apply to the
// definitions after them.
func rbBody(w *walker, body *Node, s *rbScope) {
	w.walk(body, func(w *walker, n *Node) { rbNode(w, n, s) })
}

// rbNode extracts the definitions and uses of names under n.
func rbNode(w *walker, n *Node, s *rbScope) {
	switch n.Type() {
	case "class", "module":
		rbClass(w, n, s)
		return
	case "singleton_class":
		inner := newRbScope(s.owner)
		inner.static, inner.members = true, s.members
		rbBody(w, field(n, "body"), inner)
		return
	case "method", "singleton_method":
		rbMethod(w, n, s)
		return
	case "identifier":
		if p := n.Parent(); !s.method && p != nil && (p.Type() == "body_statement" || p.Type() == "program") {
			rbSection(w, n, s)
		}
		return
	case "call":
		rbCall(w, n, s)
		return
	case "assignment", "operator_assignment":
		rbAssignment(w, n, s)
		return
	case "alias":
		rbAlias(w, n, field(n, "name"), field(n, "alias"), s)
		return
	case "constant":
		if p := n.Parent(); p != nil && (p.Type() == "argument_list" || p.Type() == "superclass" || p.Type() == "call" && field(p, "receiver") == n) {
			w.ident(n, TypeUsage)
		}
		return
	case "argument_list", "return":
		for _, c := range childrenOfType(n, "identifier") {
			w.ident(c, VariableRef)
		}
	}
	w.walk(n, func(w *walker, c *Node) { rbNode(w, c, s) })
}

// rbSection applies a bare visibility keyword (private, protected, public, module_function).
func rbSection(w *walker, n *Node, s *rbScope) {
	switch w.text(n) {
	case "private":
		s.vis = Private
	case "protected":
		s.vis = Protected
	case "public":
		s.vis = Public
	case "module_function":
		s.modFunc = true
	}
}

// rbClass extracts a class or module and its body.
func rbClass(w *walker, n *Node, s *rbScope) {
	kind := Class
	if n.Type() == "module" {
		kind = Module
	}
	nameNode := field(n, "name")
	scope := ""
	if nameNode != nil && nameNode.Type() == "scope_resolution" {
		scope = w.text(field(nameNode, "scope"))
		nameNode = field(nameNode, "name")
	}
	sym := w.add(n, nameNode, kind)
	if sym == nil {
		rbBody(w, field(n, "body"), newRbScope(s.owner))
		return
	}
	sym.Visibility = Public
	meta(sym, "namespace", scope)
	end := nameNode.EndByte()
	if sup := field(n, "superclass"); sup != nil {
		end = sup.EndByte()
		base := sup.NamedChild(0)
		if base != nil && base.Type() == "call" { // Struct.new(:a, :b)
			base = field(base, "receiver")
		}
		if name := lastName(base); name != nil {
			w.relate(sym, w.text(name), Extends, sup)
		}
	}
	sym.Signature = w.signatureRange(int(n.StartByte()), int(end))
	inner := newRbScope(sym)
	w.within(sym, func() {
		if sup := field(n, "superclass"); sup != nil {
			rbNode(w, sup, inner)
		}
		rbBody(w, field(n, "body"), inner)
	})
}

// rbMethod extracts a method (a function at file level).
func rbMethod(w *walker, n *Node, s *rbScope) {
	nameNode := field(n, "name")
	name := w.text(nameNode)
	kind := Method
	switch {
	case s.owner == nil && n.Type() == "method":
		kind = Function
	case name == "initialize":
		kind = Constructor
	case rbOperators[name] || nameNode != nil && nameNode.Type() == "operator":
		kind = Operator
	}
	sym := w.add(n, nameNode, kind)
	if sym == nil {
		return
	}
	end := nameNode.EndByte()
	if p := field(n, "parameters"); p != nil {
		end = p.EndByte()
	}
	sym.Signature = w.signatureRange(int(n.StartByte()), int(end))
	sym.Visibility = s.vis
	if n.Type() == "singleton_method" || s.static || s.modFunc {
		meta(sym, "static", "true")
		if n.Type() == "singleton_method" || s.static {
			sym.Visibility = Public
		}
	}
	if s.modFunc {
		meta(sym, "module_function", "true")
	}
	if s.owner != nil {
		s.members[name] = sym
	}
	inner := &rbScope{owner: s.owner, vis: Public, method: true, members: s.members, classVars: s.classVars}
	w.within(sym, func() {
		w.walk(field(n, "parameters"), func(w *walker, c *Node) { rbNode(w, c, inner) })
		w.walk(field(n, "body"), func(w *walker, c *Node) { rbNode(w, c, inner) })
	})
}

// rbCall handles a call: requires, mixins, attribute declarations and visibility calls
// (private :name, private def ...) at class level, and otherwise records the call.
func rbCall(w *walker, n *Node, s *rbScope) {
	method := w.text(field(n, "method"))
	args := field(n, "arguments")
	if field(n, "receiver") == nil {
		switch {
		case rbRequires[method]:
			if str := childOfType(args, "string"); str != nil {
				content := childOfType(str, "string_content")
				sym := w.importName(n, content, w.text(content))
				meta(sym, "kind", method)
				return
			}
		case rbMixins[method] && !s.method && s.owner != nil:
			for _, a := range namedChildren(args) {
				if name := lastName(a); name != nil {
					w.ident(a, TypeUsage)
					w.relate(s.owner, w.text(name), Implements, a)
				}
			}
			return
		case rbAttrMethods[method] && !s.method && s.owner != nil:
			rbAttributes(w, n, method, s)
			return
		case (method == "private" || method == "protected" || method == "public") && !s.method && args != nil:
			rbVisibilityCall(w, n, method, s)
			return
		case method == "alias_method" && !s.method:
			syms := childrenOfType(args, "simple_symbol", "string")
			if len(syms) == 2 {
				rbAlias(w, n, syms[0], syms[1], s)
				return
			}
		}
	}
	w.call(n)
	w.walk(n, func(w *walker, c *Node) {
		if c != field(n, "method") {
			rbNode(w, c, s)
		}
	})
}

// rbAttributes adds a property per symbol of attr_reader :a, :b.
func rbAttributes(w *walker, n *Node, method string, s *rbScope) {
	for _, a := range childrenOfType(field(n, "arguments"), "simple_symbol", "string") {
		name := strings.Trim(strings.TrimPrefix(w.text(a), ":"), `"'`)
		sym := w.addNamed(n, name, Property)
		if sym == nil {
			continue
		}
		sym.Visibility = s.vis
		meta(sym, "accessor", method)
		s.members[name] = sym
	}
}

// rbVisibilityCall applies private :a, :b (to methods defined before) and private def x
// (to the method it wraps).
func rbVisibilityCall(w *walker, n *Node, method string, s *rbScope) {
	vis := Visibility(method)
	for _, a := range namedChildren(field(n, "arguments")) {
		switch a.Type() {
		case "simple_symbol", "string":
			if sym := s.members[strings.Trim(strings.TrimPrefix(w.text(a), ":"), `"'`)]; sym != nil {
				sym.Visibility = vis
			}
		case "method", "singleton_method":
			saved := s.vis
			s.vis = vis
			rbMethod(w, a, s)
			s.vis = saved
		default:
			rbNode(w, a, s)
		}
	}
}

// rbAlias adds a method named alias for alias/alias_method (new name, old name).
func rbAlias(w *walker, n, newName, oldName *Node, s *rbScope) {
	trim := func(t string) string { return strings.Trim(strings.TrimPrefix(t, ":"), `"'`) }
	kind := Method
	if s.owner == nil {
		kind = Function
	}
	sym := w.addNamed(n, trim(w.text(newName)), kind)
	if sym == nil {
		return
	}
	sym.Visibility = s.vis
	meta(sym, "alias_of", trim(w.text(oldName)))
	w.relate(sym, trim(w.text(oldName)), Uses, n)
}

// rbAssignment extracts constants, globals, class variables, file-level variables and the
// instance variables a method assigns (fields of its class).
func rbAssignment(w *walker, n *Node, s *rbScope) {
	left, right := field(n, "left"), field(n, "right")
	if left != nil && n.Type() == "assignment" || left != nil && left.Type() == "instance_variable" {
		rbAssignTarget(w, n, left, s)
	}
	if right != nil {
		if right.Type() == "identifier" {
			w.ident(right, VariableRef)
		}
		rbNode(w, right, s)
	}
}

// rbAssignTarget adds the symbol an assignment to left defines, if any.
func rbAssignTarget(w *walker, n, left *Node, s *rbScope) {
	name := w.text(left)
	var kind Kind
	vis := Visibility("")
	switch left.Type() {
	case "constant":
		if s.method {
			return
		}
		kind, vis = Constant, Public
	case "global_variable":
		kind, vis = Variable, Public
	case "class_variable":
		kind, vis = Field, Private
	case "instance_variable":
		kind, vis = Field, Private
		if !s.method || s.owner == nil {
			return
		}
	case "identifier":
		if s.method || s.owner != nil {
			return
		}
		kind = Variable
	default:
		return
	}
	if (kind == Field) && s.classVars[name] {
		return
	}
	add := func() {
		sym := w.addNamed(n, name, kind)
		if sym == nil {
			return
		}
		sym.Visibility = vis
		if kind == Field {
			s.classVars[name] = true
			if left.Type() == "class_variable" {
				meta(sym, "static", "true")
			}
		}
		if v := field(n, "right"); v != nil && (strings.Contains(w.text(v), "\n") || len(w.text(v)) > pyMaxValueRunes) {
			sym.Signature = w.signatureRange(int(n.StartByte()), int(v.StartByte()))
		}
	}
	if kind == Field && s.method {
		w.within(s.owner, add)
		return
	}
	add()
}
