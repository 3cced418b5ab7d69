package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func init() { register("python", extractPython) }

// Python scope kinds: where a statement sits decides what its assignments define.
const (
	pyModuleScope = iota
	pyClassScope
	pyFuncScope
	pyInnerScope // a lambda's or a comprehension's: the names it binds are its own
)

// pyMaxValueRunes is the longest assigned value kept in a variable's signature; a longer
// or multi-line value is cut off after the "=".
const pyMaxValueRunes = 60

// pyEnumBases and pyInterfaceBases are the base classes that make a class an enum or an
// interface (protocol).
var (
	pyEnumBases      = map[string]bool{"Enum": true, "IntEnum": true, "StrEnum": true, "Flag": true, "IntFlag": true}
	pyInterfaceBases = map[string]bool{"Protocol": true}
)

// pyOperators are the dunder methods that implement an operator.
var pyOperators = map[string]bool{
	"__add__": true, "__sub__": true, "__mul__": true, "__matmul__": true, "__truediv__": true,
	"__floordiv__": true, "__mod__": true, "__divmod__": true, "__pow__": true, "__lshift__": true,
	"__rshift__": true, "__and__": true, "__xor__": true, "__or__": true, "__neg__": true,
	"__pos__": true, "__abs__": true, "__invert__": true, "__eq__": true, "__ne__": true,
	"__lt__": true, "__le__": true, "__gt__": true, "__ge__": true, "__getitem__": true,
	"__setitem__": true, "__delitem__": true, "__contains__": true, "__call__": true,
	"__radd__": true, "__rsub__": true, "__rmul__": true, "__rtruediv__": true, "__iadd__": true,
	"__isub__": true, "__imul__": true, "__itruediv__": true, "__bool__": true, "__len__": true,
	"__iter__": true, "__hash__": true,
}

// pyScope is the scope a Python statement sits in.
type pyScope struct {
	kind   int
	owner  *Symbol  // the class or function of the scope (nil at module level)
	class  *pyScope // for a method's scope: the scope of its class
	up     *pyScope // the enclosing scope (nil for the module's)
	enum   bool     // a class scope of an enum: assignments are enum members
	fields map[string]bool
	// bound (a function's, a lambda's, a comprehension's scope): the local variables, the
	// names the scope binds that are neither definitions nor imports (parameters,
	// assignment, loop, with, except and match targets, del); global: the names a
	// function declares global
	bound, global map[string]bool
}

// local reports whether name, used in scope s, is a local variable of s or of an
// enclosing function (a closure's): such a use is never one of a definition's, and is not
// recorded. A class's scope is not seen from the functions inside it.
func (s *pyScope) local(name string) bool {
	for c := s; c != nil; c = c.up {
		if c.kind == pyFuncScope || c.kind == pyInnerScope {
			if c.global[name] {
				return false
			}
			if c.bound[name] {
				return true
			}
		}
	}
	return false
}

// extractPython walks a Python file: imports, module variables and constants, type aliases,
// functions, classes (enums, protocols, nested classes) with their methods, properties,
// class attributes and the instance attributes assigned through self.
func extractPython(w *walker, root *Node) {
	top := &pyScope{kind: pyModuleScope, fields: map[string]bool{}}
	w.walk(root, func(w *walker, n *Node) { pyNode(w, n, top) })
}

// pyNode extracts the definitions and uses of names under n in scope s: every name read in
// an expression (a variable_ref, a call, a member access, a type usage), except the local
// variables of the functions around it (pyScope.local) and the names a statement binds.
func pyNode(w *walker, n *Node, s *pyScope) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
		if !s.local(w.text(n)) {
			w.ident(n, VariableRef)
		}
		return
	case "keyword_argument": // f(name=value): name is the parameter's
		pyNode(w, field(n, "value"), s)
		return
	case "global_statement": // the module's variables, named in a function
		pyVarRefs(w, n)
		return
	case "nonlocal_statement":
		return
	case "assignment": // the inner one of a = b = c
		pyAssignment(w, n, n, s)
		return
	case "for_statement", "for_in_clause":
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); n.FieldNameForChild(i) == "left" {
				pyTargets(w, c, s)
			} else if c.IsNamed() {
				pyNode(w, c, s)
			}
		}
		return
	case "as_pattern": // with x as y, except E as e, case P as y
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); n.FieldNameForChild(i) == "alias" {
				pyTargets(w, c, s)
			} else if c.IsNamed() {
				pyNode(w, c, s)
			}
		}
		return
	case "named_expression": // (name := value)
		pyTargets(w, field(n, "name"), s)
		pyNode(w, field(n, "value"), s)
		return
	case "lambda":
		inner := &pyScope{kind: pyInnerScope, up: s, bound: map[string]bool{}}
		pyParams(w, field(n, "parameters"), s, inner)
		pyNode(w, field(n, "body"), inner)
		return
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		inner := &pyScope{kind: pyInnerScope, up: s, bound: map[string]bool{}}
		for _, c := range childrenOfType(n, "for_in_clause") {
			pyBoundNames(w, field(c, "left"), inner.bound)
		}
		w.walk(n, func(w *walker, c *Node) { pyNode(w, c, inner) })
		return
	case "case_pattern":
		pyCasePattern(w, n, s)
		return
	case "import_statement", "import_from_statement", "future_import_statement":
		pyImport(w, n)
		return
	case "function_definition", "class_definition":
		pyDefinition(w, n, n, s)
		return
	case "decorated_definition":
		pyDecorated(w, n, s)
		return
	case "expression_statement":
		if a := childOfType(n, "assignment"); a != nil && n.NamedChildCount() == 1 {
			pyAssignment(w, n, a, s)
			return
		}
	case "type_alias_statement":
		pyTypeAlias(w, n, s)
		return
	case "call":
		pyCall(w, n, s)
		return
	case "attribute":
		w.member(field(n, "attribute"), n, MemberAccess)
		pyNode(w, field(n, "object"), s)
		return
	case "type":
		pyTypeRefs(w, n)
		return
	}
	w.walk(n, func(w *walker, c *Node) { pyNode(w, c, s) })
}

// pyCall records a call and walks its callee's object and arguments. A call of a local
// variable (a callback passed in) is not recorded; a callee that is not a name (f()(),
// handlers[k]()) is walked as an expression.
func pyCall(w *walker, n *Node, s *pyScope) {
	fn := field(n, "function")
	switch {
	case fn == nil:
	case fn.Type() == "identifier":
		if !s.local(w.text(fn)) {
			w.call(fn)
		}
	case fn.Type() == "attribute":
		w.call(fn)
		pyNode(w, field(fn, "object"), s)
	default:
		pyNode(w, fn, s)
	}
	pyNode(w, field(n, "arguments"), s)
}

// pyVarRefs records a variable_ref for each plain identifier directly under n (the names
// of a global statement).
func pyVarRefs(w *walker, n *Node) {
	for _, c := range namedChildren(n) {
		if c.Type() == "identifier" {
			w.ident(c, VariableRef)
		}
	}
}

// pyTargets walks the target of an assignment, a for loop, a with or an except (a name, a
// tuple of them, an attribute, a subscript): a name is bound, not used (a function's
// variable declared global is the module's, and recorded); the objects of attributes and
// subscripts are used.
func pyTargets(w *walker, n *Node, s *pyScope) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
		if s.kind == pyFuncScope && s.global[w.text(n)] {
			w.ident(n, VariableRef)
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression",
		"as_pattern_target", "list_splat_pattern", "list_splat":
		for _, c := range namedChildren(n) {
			pyTargets(w, c, s)
		}
	default:
		pyNode(w, n, s)
	}
}

// pyBoundNames adds the names a target binds (a, b of a, (b, c.d) = ...; not c) to bound.
func pyBoundNames(w *walker, n *Node, bound map[string]bool) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
		bound[w.text(n)] = true
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression",
		"as_pattern_target", "list_splat_pattern", "list_splat", "expression_list":
		for _, c := range namedChildren(n) {
			pyBoundNames(w, c, bound)
		}
	}
}

// pyLocals collects the local variables of a function whose body is n into inner: the
// names its statements bind (pyBoundNames) but not those it defines (def, class: also when
// assigned, convert = partial(...) in one branch and def convert in another) or imports, nor
// those it declares global; a nonlocal name is the enclosing function's. Nested
// functions, classes and lambdas are not entered (their names are their own), comprehensions
// only for the names := binds.
func pyLocals(w *walker, n *Node, inner *pyScope) {
	assigned, imported, nonlocal := map[string]bool{}, map[string]bool{}, map[string]bool{}
	defined := map[string]bool{}
	var visit func(n *Node, comp bool)
	visit = func(n *Node, comp bool) {
		if n == nil {
			return
		}
		switch n.Type() {
		case "decorated_definition":
			visit(field(n, "definition"), comp)
			return
		case "function_definition", "class_definition":
			defined[w.text(field(n, "name"))] = true
			return
		case "lambda":
			return
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			comp = true
		case "named_expression":
			pyBoundNames(w, field(n, "name"), assigned)
		case "global_statement":
			for _, c := range childrenOfType(n, "identifier") {
				inner.global[w.text(c)] = true
			}
			return
		case "nonlocal_statement":
			for _, c := range childrenOfType(n, "identifier") {
				nonlocal[w.text(c)] = true
			}
			return
		case "import_statement", "import_from_statement", "future_import_statement":
			for _, c := range namedChildren(n) {
				switch {
				case c.Type() == "aliased_import":
					imported[w.text(field(c, "alias"))] = true
				case c.Type() == "dotted_name" && c.NamedChildCount() > 0:
					imported[w.text(c.NamedChild(0))] = true
				}
			}
			return
		case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
			if !comp {
				pyBoundNames(w, field(n, "left"), assigned)
			}
		case "as_pattern":
			if !comp {
				pyBoundNames(w, field(n, "alias"), assigned)
			}
		case "delete_statement":
			for _, c := range namedChildren(n) {
				pyBoundNames(w, c, assigned)
			}
		case "case_pattern":
			pyCaptures(w, n, assigned)
		}
		for _, c := range namedChildren(n) {
			visit(c, comp)
		}
	}
	visit(n, false)
	for name := range assigned {
		if !imported[name] && !defined[name] && !inner.global[name] && !nonlocal[name] {
			inner.bound[name] = true
		}
	}
}

// pyCaptures adds the names a match statement's case pattern n binds (case Point(x=px), case
// [a, *rest], case _ as y; not Color.RED, which is a value) to bound.
func pyCaptures(w *walker, n *Node, bound map[string]bool) {
	for i, c := range namedChildren(n) {
		switch c.Type() {
		case "dotted_name":
			if c.NamedChildCount() == 1 && !(n.Type() == "class_pattern" && i == 0) {
				bound[w.text(c)] = true
			}
		case "identifier":
			if n.Type() != "keyword_pattern" || i > 0 {
				bound[w.text(c)] = true
			}
		default:
			pyCaptures(w, c, bound)
		}
	}
}

// pyCasePattern records the uses in a case pattern: the class of a class pattern and the
// values of value patterns (Color.RED), not the names the pattern binds.
func pyCasePattern(w *walker, n *Node, s *pyScope) {
	for i, c := range namedChildren(n) {
		switch c.Type() {
		case "dotted_name":
			ids := childrenOfType(c, "identifier")
			class := n.Type() == "class_pattern" && i == 0
			if len(ids) < 2 && !class {
				continue // a capture
			}
			if len(ids) > 0 && !s.local(w.text(ids[0])) {
				kind := VariableRef
				if class && len(ids) == 1 {
					kind = TypeUsage
				}
				w.ident(ids[0], kind)
			}
			for j, id := range ids[1:] {
				kind := MemberAccess
				if class && j == len(ids)-2 {
					kind = TypeUsage
				}
				w.member(id, c, kind)
			}
		case "identifier": // a keyword pattern's keyword, or a capture
		case "string", "integer", "float", "true", "false", "none", "concatenated_string":
		default:
			if strings.HasSuffix(c.Type(), "_pattern") {
				pyCasePattern(w, c, s)
			} else {
				pyNode(w, c, s)
			}
		}
	}
}

// pyParams walks the parameters of a function or lambda: their names are inner's local
// variables, their annotations types used, their defaults values used in the scope s
// around the function.
func pyParams(w *walker, params *Node, s, inner *pyScope) {
	for _, p := range namedChildren(params) {
		switch p.Type() {
		case "identifier":
			inner.bound[w.text(p)] = true
		case "list_splat_pattern", "dictionary_splat_pattern":
			if id := childOfType(p, "identifier"); id != nil {
				inner.bound[w.text(id)] = true
			}
		case "typed_parameter", "default_parameter", "typed_default_parameter":
			name := field(p, "name")
			if name == nil {
				name = childOfType(p, "identifier", "list_splat_pattern", "dictionary_splat_pattern")
			}
			if name != nil && name.Type() != "identifier" {
				name = childOfType(name, "identifier")
			}
			if name != nil {
				inner.bound[w.text(name)] = true
			}
			pyTypeRefs(w, field(p, "type"))
			pyNode(w, field(p, "value"), s)
		}
	}
}

// pyTypeRefs records the type names of an annotation, including the simple names spelled as
// strings (forward references such as "Shape").
func pyTypeRefs(w *walker, n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
		w.ident(n, TypeUsage)
		return
	case "attribute": // m.Type: Type in the module m
		w.member(field(n, "attribute"), n, TypeUsage)
		pyObjectRefs(w, field(n, "object"))
		return
	case "string":
		if c := childOfType(n, "string_content"); c != nil && pyIsName(w.text(c)) {
			w.ident(c, TypeUsage)
		}
		return
	}
	for _, c := range namedChildren(n) {
		pyTypeRefs(w, c)
	}
}

// pyObjectRefs records the uses in the object of a type's attribute (m of m.Type, a and b of
// a.b.Type).
func pyObjectRefs(w *walker, n *Node) {
	switch {
	case n == nil:
	case n.Type() == "identifier":
		w.ident(n, VariableRef)
	case n.Type() == "attribute":
		w.member(field(n, "attribute"), n, MemberAccess)
		pyObjectRefs(w, field(n, "object"))
	}
}

// pyIsName reports whether s is a Python identifier.
func pyIsName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// pyVisibility is Python's naming convention: a leading underscore is private, a dunder name
// (__init__) is public.
func pyVisibility(name string) Visibility {
	if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") && len(name) > 4 {
		return Public
	}
	if strings.HasPrefix(name, "_") {
		return Private
	}
	return Public
}

// pyIsConstant reports whether name is spelled as a constant (UPPER_CASE).
func pyIsConstant(name string) bool {
	hasUpper := false
	for _, r := range name {
		switch {
		case unicode.IsUpper(r):
			hasUpper = true
		case r == '_' || unicode.IsDigit(r):
		default:
			return false
		}
	}
	return hasUpper
}

// pyImport records the modules and names an import statement brings in. A from-import gives
// one import per name, spelled module.name (the module alone for a wildcard).
func pyImport(w *walker, n *Node) {
	module := ""
	if n.Type() == "future_import_statement" {
		module = "__future__"
	}
	if m := field(n, "module_name"); m != nil {
		module = w.text(m)
	}
	if childOfType(n, "wildcard_import") != nil {
		meta(w.importName(n, field(n, "module_name"), module), "wildcard", "true")
		return
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if n.FieldNameForChild(i) != "name" {
			continue
		}
		nameNode, alias := c, (*Node)(nil)
		if c.Type() == "aliased_import" {
			nameNode, alias = field(c, "name"), field(c, "alias")
		}
		name := w.text(nameNode)
		if module != "" {
			sep := "."
			if strings.HasSuffix(module, ".") {
				sep = ""
			}
			name = module + sep + name
		}
		sym := w.importName(n, nameNode, name)
		if alias != nil && w.text(alias) != w.text(nameNode) {
			// The name the import binds: a use of what it imports, or of the definition
			// standing in for it when the import fails (except ImportError: alias = None).
			w.ident(alias, ImportRef)
		}
		meta(sym, "alias", w.text(alias))
		meta(sym, "module", module)
	}
}

// pyDecorated extracts a decorated function or class: its symbol spans the decorators, which
// its signature keeps, and its line is the def or class line (pyDefLine).
func pyDecorated(w *walker, n *Node, s *pyScope) {
	def := field(n, "definition")
	if def == nil {
		w.walk(n, func(w *walker, c *Node) { pyNode(w, c, s) })
		return
	}
	pyDefinition(w, n, def, s)
}

// pyDecoratorNames returns the names of the decorators of a decorated_definition outer
// ("property", "area.setter", "staticmethod", "dataclass").
func pyDecoratorNames(w *walker, outer *Node) []string {
	var names []string
	for _, d := range childrenOfType(outer, "decorator") {
		e := d.NamedChild(0)
		if e != nil && e.Type() == "call" {
			e = field(e, "function")
		}
		if e != nil {
			names = append(names, w.text(e))
		}
	}
	return names
}

// pyHeaderEnd returns the byte offset of the ":" ending a def or class header (before any
// comment that precedes the body).
func pyHeaderEnd(n *Node) int {
	body := field(n, "body")
	end := int(n.EndByte())
	if body != nil {
		end = int(body.StartByte())
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if int(c.StartByte()) >= end {
			break
		}
		if c.Type() == ":" {
			return int(c.StartByte())
		}
	}
	return end
}

// pyDefinition extracts a function or class definition def, whose symbol spans outer (def
// itself or its decorated_definition).
func pyDefinition(w *walker, outer, def *Node, s *pyScope) {
	if def.Type() == "class_definition" {
		pyClass(w, outer, def, s)
		return
	}
	if def.Type() == "function_definition" {
		pyFunction(w, outer, def, s)
	}
}

// pyDefLine puts a decorated definition's line and column on its def or class keyword, as
// ctags and editors do, while its bytes (StartByte to EndByte: its body, its id) keep
// spanning the decorators above.
func pyDefLine(w *walker, sym *Symbol, def *Node) {
	sp := def.StartPoint()
	sym.StartLine, sym.StartColumn = int(sp.Row)+1, w.column(int(def.StartByte()), int(sp.Column))
}

// pyFunctionKind returns the symbol kind of a function named name with decorators decos in
// scope s.
func pyFunctionKind(name string, decos []string, s *pyScope) Kind {
	if s.kind != pyClassScope {
		return Function
	}
	for _, d := range decos {
		if d == "property" || d == "cached_property" || d == "functools.cached_property" ||
			strings.HasSuffix(d, ".setter") || strings.HasSuffix(d, ".getter") || strings.HasSuffix(d, ".deleter") {
			return Property
		}
	}
	switch {
	case name == "__init__" || name == "__new__":
		return Constructor
	case name == "__del__":
		return Destructor
	case pyOperators[name]:
		return Operator
	}
	return Method
}

// pyFunction extracts a function or method and walks its body.
func pyFunction(w *walker, outer, def *Node, s *pyScope) {
	decos := pyDecoratorNames(w, outer)
	name := w.text(field(def, "name"))
	sym := w.addNamed(outer, name, pyFunctionKind(name, decos, s))
	if sym == nil {
		return
	}
	pyDefLine(w, sym, def)
	sym.Signature = w.signatureRange(int(outer.StartByte()), pyHeaderEnd(def))
	if doc := pyDocstring(w, field(def, "body")); doc != "" {
		sym.DocComment = doc
	}
	if s.kind != pyFuncScope {
		sym.Visibility = pyVisibility(name)
	}
	if w.hasChild(def, "async") {
		meta(sym, "async", "true")
	}
	for _, d := range decos {
		if d == "staticmethod" || d == "classmethod" {
			meta(sym, "static", "true")
		}
		if d == "abstractmethod" || d == "abc.abstractmethod" {
			meta(sym, "abstract", "true")
		}
	}
	if len(decos) > 0 {
		meta(sym, "decorators", strings.Join(decos, ","))
	}
	if tp := field(def, "type_parameters"); tp != nil {
		meta(sym, "type_parameters", w.text(tp))
	}
	ret := field(def, "return_type")
	w.typeInfo(sym, "return", ret)
	inner := &pyScope{kind: pyFuncScope, owner: sym, up: s, bound: map[string]bool{}, global: map[string]bool{}}
	if s.kind == pyClassScope {
		inner.class = s
	}
	pyLocals(w, field(def, "body"), inner)
	w.within(sym, func() {
		pyWalkDecorators(w, outer, s)
		pyParams(w, field(def, "parameters"), s, inner)
		pyTypeRefs(w, ret)
		w.walk(field(def, "body"), func(w *walker, c *Node) { pyNode(w, c, inner) })
	})
}

// pyClass extracts a class (an enum when it derives from Enum, an interface when it derives
// from Protocol), its bases and its body.
func pyClass(w *walker, outer, def *Node, s *pyScope) {
	kind := Class
	supers := field(def, "superclasses")
	for _, b := range namedChildren(supers) {
		base := w.text(pyBaseName(b))
		switch {
		case pyEnumBases[base]:
			kind = Enum
		case pyInterfaceBases[base]:
			kind = Interface
		}
	}
	sym := w.add(outer, field(def, "name"), kind)
	if sym == nil {
		return
	}
	pyDefLine(w, sym, def)
	sym.Signature = w.signatureRange(int(outer.StartByte()), pyHeaderEnd(def))
	if doc := pyDocstring(w, field(def, "body")); doc != "" {
		sym.DocComment = doc
	}
	if s.kind != pyFuncScope {
		sym.Visibility = pyVisibility(sym.Name)
	}
	if decos := pyDecoratorNames(w, outer); len(decos) > 0 {
		meta(sym, "decorators", strings.Join(decos, ","))
	}
	for _, b := range namedChildren(supers) {
		if b.Type() == "keyword_argument" {
			meta(sym, w.text(field(b, "name")), w.text(field(b, "value")))
			pyNode(w, field(b, "value"), s)
			continue
		}
		if name := pyBaseName(b); name != nil {
			pyTypeRefs(w, b)
			w.relate(sym, w.text(name), Extends, b)
		}
	}
	inner := &pyScope{kind: pyClassScope, owner: sym, enum: kind == Enum, fields: map[string]bool{}}
	w.within(sym, func() {
		pyWalkDecorators(w, outer, s)
		w.walk(field(def, "body"), func(w *walker, c *Node) { pyNode(w, c, inner) })
	})
}

// pyWalkDecorators records the uses of names in the decorators of outer (a
// decorated_definition), inside the decorated symbol.
func pyWalkDecorators(w *walker, outer *Node, s *pyScope) {
	for _, d := range childrenOfType(outer, "decorator") {
		e := d.NamedChild(0)
		if e != nil && e.Type() != "call" {
			w.call(e)
			if e.Type() == "attribute" {
				pyNode(w, field(e, "object"), s)
			}
			continue
		}
		pyNode(w, e, s)
	}
}

// pyBaseName returns the name node of a base class expression (B in m.B, Generic in
// Generic[T]), or nil for a keyword argument or an unusual expression.
func pyBaseName(n *Node) *Node {
	switch n.Type() {
	case "identifier":
		return n
	case "attribute":
		return field(n, "attribute")
	case "subscript":
		return pyBaseName(field(n, "value"))
	}
	return nil
}

// pyDocstring returns the docstring of a body: its first statement when that is a string.
func pyDocstring(w *walker, body *Node) string {
	first := body
	if body != nil && body.NamedChildCount() > 0 {
		first = body.NamedChild(0)
	}
	if first == nil || first == body || first.Type() != "expression_statement" || first.NamedChildCount() != 1 {
		return ""
	}
	str := first.NamedChild(0)
	if str.Type() != "string" {
		return ""
	}
	var b strings.Builder
	for _, c := range namedChildren(str) {
		if c.Type() == "string_content" || c.Type() == "escape_sequence" {
			b.WriteString(w.text(c))
		}
	}
	return pyCleanDoc(b.String())
}

// pyCleanDoc trims each line of a docstring and the blank lines around it.
func pyCleanDoc(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	s = strings.Join(lines, "\n")
	if utf8.RuneCountInString(s) > maxDocRunes {
		s = oneLine(s, maxDocRunes)
	}
	return s
}

// pyAssignment extracts an assignment statement stmt: module variables and constants, class
// attributes and enum members, instance attributes assigned through self in a method.
// Assignments to locals define nothing; their values are walked for uses either way.
func pyAssignment(w *walker, stmt, a *Node, s *pyScope) {
	left, typ, right := field(a, "left"), field(a, "type"), field(a, "right")
	var targets []*Node
	switch {
	case s.kind == pyFuncScope:
		if s.class != nil && left != nil {
			targets := []*Node{left} // self.x = ..., self.a, self.b = ...
			if left.Type() == "pattern_list" || left.Type() == "tuple_pattern" {
				targets = namedChildren(left)
			}
			for _, t := range targets {
				if t.Type() == "attribute" && w.text(field(t, "object")) == "self" {
					pyInstanceAttribute(w, stmt, a, t, s.class)
				}
			}
		}
	case s.kind == pyInnerScope:
	case left != nil && left.Type() == "identifier":
		targets = []*Node{left}
	case left != nil && (left.Type() == "pattern_list" || left.Type() == "tuple_pattern"):
		targets = childrenOfType(left, "identifier")
	}
	for _, t := range targets {
		pyAssignTarget(w, stmt, a, t, s)
	}
	pyTargets(w, left, s)
	pyTypeRefs(w, typ)
	if right != nil && right.Type() == "assignment" { // a = b = value
		pyAssignment(w, stmt, right, s)
	} else {
		pyNode(w, right, s)
	}
}

// pyAssignTarget adds the symbol a module- or class-level assignment defines for name.
func pyAssignTarget(w *walker, stmt, a, name *Node, s *pyScope) {
	text, typ := w.text(name), field(a, "type")
	kind := Variable
	switch {
	case s.enum:
		kind = EnumMember
	case typ != nil && strings.HasSuffix(w.text(typ), "TypeAlias"):
		kind = Type
	case pyIsConstant(text):
		kind = Constant
	case s.kind == pyClassScope:
		kind = Field
	}
	if s.fields[text] { // assigned again: a use of what the first assignment defined
		w.ident(name, VariableRef)
		if s.kind == pyClassScope {
			return
		}
	}
	sym := w.add(stmt, name, kind)
	if sym == nil {
		return
	}
	s.fields[text] = true
	if s.kind == pyClassScope {
		if kind == Field || kind == Constant {
			meta(sym, "static", "true")
		}
	}
	sym.Signature = pyAssignSignature(w, stmt, a)
	sym.Visibility = pyVisibility(text)
	if kind == Type {
		w.typeInfo(sym, "alias", field(a, "right"))
		return
	}
	w.typeInfo(sym, "declared", typ)
}

// pyInstanceAttribute adds a field of class for an assignment to self.name (target, maybe one
// of several: self.a, self.b = ...) in a method, the first time the class assigns it.
func pyInstanceAttribute(w *walker, stmt, a, target *Node, class *pyScope) {
	name := w.text(field(target, "attribute"))
	if name == "" || class.fields[name] {
		return
	}
	class.fields[name] = true
	w.within(class.owner, func() {
		sym := w.addNamed(stmt, name, Field)
		if sym == nil {
			return
		}
		sym.Signature = pyAssignSignature(w, stmt, a)
		sym.Visibility = pyVisibility(name)
		if target == field(a, "left") {
			w.typeInfo(sym, "declared", field(a, "type"))
		}
	})
}

// pyAssignSignature is an assignment on one line, its value left out when it is long.
func pyAssignSignature(w *walker, stmt, a *Node) string {
	right := field(a, "right")
	if right == nil {
		return w.signatureRange(int(stmt.StartByte()), int(a.EndByte()))
	}
	v := w.text(right)
	if strings.Contains(v, "\n") || utf8.RuneCountInString(v) > pyMaxValueRunes {
		return w.signatureRange(int(stmt.StartByte()), int(right.StartByte()))
	}
	return w.signatureRange(int(stmt.StartByte()), int(a.EndByte()))
}

// pyTypeAlias extracts a type statement (type Vector = list[float]).
func pyTypeAlias(w *walker, n *Node, s *pyScope) {
	types := childrenOfType(n, "type")
	if len(types) == 0 {
		return
	}
	nameNode := types[0]
	if id := childOfType(nameNode, "identifier"); id != nil {
		nameNode = id
	} else if g := childOfType(nameNode, "generic_type"); g != nil {
		nameNode = childOfType(g, "identifier")
	}
	sym := w.add(n, nameNode, Type)
	if sym == nil {
		return
	}
	if s.kind != pyFuncScope {
		sym.Visibility = pyVisibility(sym.Name)
	}
	if len(types) > 1 {
		w.typeInfo(sym, "alias", types[len(types)-1])
		w.within(sym, func() { pyTypeRefs(w, types[len(types)-1]) })
	}
}
