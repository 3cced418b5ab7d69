package extract

import (
	"strings"
)

// This file holds the OCaml extractor's definitions (extractOcaml in lang_ocaml.go).

// let extracts a let binding: one symbol per name its pattern binds (let x, y = ...), the
// first of which encloses the uses of names in the binding.
func (x *mlExtractor) let(it mlItem) {
	w, b := x.w, it.n
	body := field(b, "body")
	kind := mlLetKind(b, body)
	var first *Symbol
	for _, nm := range mlPatternNames(field(b, "pattern")) {
		k := kind
		if nm.Type() == "parenthesized_operator" && k == Function {
			k = Operator
		}
		sym := x.add(it, mlName(w, nm), k, mlLetEnd(b, body, kind))
		if sym == nil {
			continue
		}
		role := "declared"
		if childOfType(b, "parameter") != nil {
			role = "return"
		}
		w.typeInfo(sym, role, mlAnnotation(b))
		if first == nil {
			first = sym
		}
	}
	if first == nil { // let () = ..., let _ = ...: code run for its effect
		x.local++
		defer func() { x.local-- }()
	}
	w.within(first, func() {
		for _, c := range namedChildren(b) {
			if mlSame(c, body) {
				x.arg(c) // let compare = String.compare refers to String.compare
			} else {
				x.node(c)
			}
		}
	})
}

// mlPatternNames returns the names a let pattern binds: x of let x, x and y of let (x, y),
// the operator of let ( >>= ).
func mlPatternNames(p *Node) []*Node {
	if p == nil {
		return nil
	}
	switch p.Type() {
	case "value_name", "value_pattern", "parenthesized_operator":
		return []*Node{p}
	case "tuple_pattern", "parenthesized_pattern", "typed_pattern", "alias_pattern":
		var out []*Node
		for _, c := range namedChildren(p) {
			out = append(out, mlPatternNames(c)...)
		}
		return out
	}
	return nil
}

// mlLetKind is the kind of a let binding: function when it takes parameters or binds a
// function, constant when it binds a literal, else variable.
func mlLetKind(b, body *Node) Kind {
	if childOfType(b, "parameter") != nil {
		return Function
	}
	if body == nil {
		return Variable
	}
	switch t := body.Type(); {
	case t == "fun_expression" || t == "function_expression":
		return Function
	case mlLiterals[t]:
		return Constant
	case t == "sign_expression" && body.NamedChildCount() == 2 && mlLiterals[body.NamedChild(1).Type()]:
		return Constant
	}
	return Variable
}

// mlLetEnd returns where the signature of a let binding ends: before its body, after the
// parameters of a fun it binds; a value binding on one line is kept whole.
func mlLetEnd(b, body *Node, kind Kind) int {
	switch {
	case body == nil || kind != Function && b.StartPoint().Row == b.EndPoint().Row:
		return int(b.EndByte())
	case body.Type() == "fun_expression" && field(body, "body") != nil:
		return mlBodyStart(field(body, "body"))
	case body.Type() == "function_expression" && body.NamedChildCount() > 0:
		return mlBodyStart(body.NamedChild(0))
	}
	return mlBodyStart(body)
}

// typeBinding extracts a type: a record is a struct of fields, a variant an enum of
// constructors, anything else a type.
func (x *mlExtractor) typeBinding(it mlItem) {
	w, b := x.w, it.n
	name, body := field(b, "name"), field(b, "body")
	if name == nil {
		x.walk(b)
		return
	}
	if name.Type() == "type_constructor_path" { // type t += A: constructors of another type
		x.node(name)
		x.constructors(body, w.text(name))
		return
	}
	kind, end := Type, int(b.EndByte())
	if body != nil && body.Type() == "record_declaration" {
		kind, end = Struct, mlBodyStart(body)
	} else if body != nil && body.Type() == "variant_declaration" {
		kind, end = Enum, mlBodyStart(body)
	}
	sym := x.add(it, w.text(name), kind, end)
	if sym == nil {
		return
	}
	meta(sym, mlMetaTypeParams, strings.TrimSpace(string(w.src[b.StartByte():name.StartByte()])))
	if w.hasChild(b, "..") {
		meta(sym, mlMetaExtensible, "true")
	}
	w.typeInfo(sym, "alias", mlEquation(b, body))
	w.within(sym, func() {
		for _, c := range namedChildren(b) {
			switch {
			case mlSame(c, name):
			case c.Type() == "record_declaration":
				x.fields(c)
			case c.Type() == "variant_declaration":
				x.constructors(c, "")
			default:
				x.node(c)
			}
		}
	})
}

// mlEquation returns the type a type binding equals (t of type u = t, and of type u = t = A),
// or nil.
func mlEquation(b, body *Node) *Node {
	eq := false
	for i := 0; i < int(b.ChildCount()); i++ {
		c := b.Child(i)
		switch {
		case !c.IsNamed() && c.Type() == "=":
			eq = true
		case eq && c.IsNamed() && !mlSame(c, body) && c.Type() != "comment" && c.Type() != "item_attribute":
			return c
		}
	}
	return nil
}

// fields extracts the fields of a record declaration.
func (x *mlExtractor) fields(rec *Node) {
	w := x.w
	for _, f := range childrenOfType(rec, "field_declaration") {
		sym := x.add(mlSingle(f), w.text(childOfType(f, "field_name")), Field, int(f.EndByte()))
		if sym == nil {
			continue
		}
		if w.hasChild(f, "mutable") {
			meta(sym, mlMetaMutable, "true")
		}
		typ := mlAnnotation(f)
		w.typeInfo(sym, "declared", typ)
		w.within(sym, func() { x.node(typ) })
	}
}

// constructors extracts the constructors of a variant declaration (of the type extends, for
// type t += ...).
func (x *mlExtractor) constructors(v *Node, extends string) {
	for _, c := range childrenOfType(v, "constructor_declaration") {
		sym := x.add(mlSingle(c), mlConstructorName(x.w, c), EnumMember, int(c.EndByte()))
		meta(sym, mlMetaExtends, extends)
		x.w.within(sym, func() { x.constructorArgs(c, sym != nil) })
	}
}

// mlConstructorName returns the name of a constructor declaration ([] and :: too).
func mlConstructorName(w *walker, c *Node) string {
	var b strings.Builder
	for _, n := range childrenOfType(c, "constructor_name") {
		b.WriteString(w.text(n))
	}
	return b.String()
}

// constructorArgs records what a constructor carries: the fields of an inline record (as
// symbols when withFields), the types of its arguments.
func (x *mlExtractor) constructorArgs(c *Node, withFields bool) {
	for _, a := range namedChildren(c) {
		switch a.Type() {
		case "constructor_name", "constructor_path":
		case "record_declaration":
			if withFields {
				x.fields(a)
			} else {
				x.walk(a)
			}
		default:
			x.node(a)
		}
	}
}

// exception extracts exception E of t as a type.
func (x *mlExtractor) exception(n *Node) {
	c := childOfType(n, "constructor_declaration")
	if c == nil {
		x.walk(n)
		return
	}
	sym := x.add(mlSingle(n), mlConstructorName(x.w, c), Type, int(c.EndByte()))
	meta(sym, mlMetaException, "true")
	if alias := childOfType(c, "constructor_path"); alias != nil {
		meta(sym, mlMetaAlias, x.w.text(alias))
	}
	x.w.within(sym, func() { x.constructorArgs(c, sym != nil) })
}

// module extracts a module binding: a structure, a functor, an alias, a functor application,
// or in a signature a module specification.
func (x *mlExtractor) module(it mlItem) {
	w, b := x.w, it.n
	name, body := field(b, "name"), field(b, "body")
	params, inner := mlFunctor(b, body)
	mt := mlAnnotation(b)
	end := mlModuleEnd(b, body, inner, mt)
	sym := x.add(it, w.text(name), Module, end)
	if sym == nil {
		x.walkExcept(b, name)
		return
	}
	if len(params) > 0 {
		texts := make([]string, len(params))
		for i, p := range params {
			texts[i] = oneLine(w.text(p), maxSignatureRunes)
		}
		meta(sym, mlMetaFunctor, "true")
		meta(sym, mlMetaParameters, strings.Join(texts, " "))
	}
	if body == nil {
		meta(sym, mlMetaDeclaration, "true")
	} else if body.Type() == "module_path" {
		meta(sym, mlMetaAlias, w.text(body))
	}
	if s := mlModuleTypeName(mt); s != nil {
		w.relate(sym, w.text(s), Implements, s)
	}
	w.within(sym, func() {
		for _, c := range namedChildren(b) {
			switch {
			case mlSame(c, name):
			case mlSame(c, mt) && body != nil:
				x.typeRefs(c) // the signature a defined module is given declares nothing new
			default:
				x.node(c)
			}
		}
	})
}

// mlFunctor returns the parameters of the module binding b, its own and those of the
// functor its body is (module F = functor (X : S) -> ...), and the body inside the functors.
func mlFunctor(b, body *Node) (params []*Node, inner *Node) {
	params, inner = childrenOfType(b, "module_parameter"), body
	for inner != nil && inner.Type() == "functor" {
		params = append(params, childrenOfType(inner, "module_parameter")...)
		inner = field(inner, "body")
	}
	return params, inner
}

// mlModuleEnd returns where the signature of the module binding b ends: before its
// structure, before the signature it is given when that spans lines, before a functor
// application that spans lines; at its end for an alias or a one-line application.
func mlModuleEnd(b, body, inner, mt *Node) int {
	switch {
	case mt != nil && mt.Type() == "signature" && (body == nil || mt.StartPoint().Row != mt.EndPoint().Row):
		return mlBodyStart(mt)
	case inner != nil && (inner.Type() == "structure" || inner.Type() == "signature"):
		return mlBodyStart(inner)
	case body != nil && b.StartPoint().Row != b.EndPoint().Row:
		return mlBodyStart(body)
	}
	return int(b.EndByte())
}

// mlModuleTypeName returns the name of the module type mt names (S of S, of M.S, of S with
// type t = u), or nil.
func mlModuleTypeName(mt *Node) *Node {
	for mt != nil {
		switch mt.Type() {
		case "module_type_path":
			return mlLastNamed(mt)
		case "module_type_constraint", "parenthesized_module_type":
			mt = mt.NamedChild(0)
		default:
			return nil
		}
	}
	return nil
}

// typeRefs records the types named under n, and nothing else.
func (x *mlExtractor) typeRefs(n *Node) {
	switch n.Type() {
	case "type_constructor_path", "module_type_path", "class_type_path":
		x.node(n)
		return
	}
	for _, c := range namedChildren(n) {
		x.typeRefs(c)
	}
}

// moduleType extracts module type S = sig ... end as an interface of its specifications.
func (x *mlExtractor) moduleType(n *Node) {
	w := x.w
	name, body := field(n, "name"), field(n, "body")
	end := int(n.EndByte())
	if body != nil && body.Type() == "signature" {
		end = mlBodyStart(body)
	}
	sym := x.add(mlSingle(n), w.text(name), Interface, end)
	if sym == nil {
		x.walkExcept(n, name)
		return
	}
	if body != nil && body.Type() == "module_type_path" {
		meta(sym, mlMetaAlias, w.text(body))
	}
	w.within(sym, func() { x.walkExcept(n, name) })
}

// valueSpec extracts val x : t and external x : t = "prim": a function (of a function type)
// or a variable, declared.
func (x *mlExtractor) valueSpec(n *Node) {
	w := x.w
	name := childOfType(n, "value_name", "parenthesized_operator")
	typ := mlAnnotation(n)
	kind, end := Variable, int(n.EndByte())
	if typ != nil {
		end = int(typ.EndByte())
	}
	if mlIsFunctionType(typ) {
		kind = Function
		if name != nil && name.Type() == "parenthesized_operator" {
			kind = Operator
		}
	}
	sym := x.add(mlSingle(n), mlName(w, name), kind, end)
	if sym == nil {
		x.walk(n)
		return
	}
	meta(sym, mlMetaDeclaration, "true")
	if n.Type() == "external" {
		var prims []string
		for _, s := range childrenOfType(n, "string") {
			prims = append(prims, w.text(childOfType(s, "string_content")))
		}
		meta(sym, mlMetaPrimitive, strings.Join(prims, " "))
	}
	if kind == Variable {
		w.typeInfo(sym, "declared", typ)
	} else {
		w.typeInfo(sym, "return", mlReturnType(typ))
	}
	w.within(sym, func() { x.node(typ) })
}

// mlIsFunctionType reports whether the type t is a function's ('a. 'a -> 'a included).
func mlIsFunctionType(t *Node) bool {
	if t != nil && t.Type() == "polymorphic_type" {
		t = mlLastNamed(t)
	}
	return t != nil && t.Type() == "function_type"
}

// mlReturnType returns the result of the function type t (the last type of a -> b -> c).
func mlReturnType(t *Node) *Node {
	if t != nil && t.Type() == "polymorphic_type" {
		t = mlLastNamed(t)
	}
	for t != nil && t.Type() == "function_type" {
		t = mlLastNamed(t)
	}
	return t
}

// class extracts a class (or, in a signature, a class specification) or a class type
// (an interface); its methods and instance variables are children.
func (x *mlExtractor) class(it mlItem) {
	w, b := x.w, it.n
	name, body := field(b, "name"), field(b, "body")
	kind := Class
	if b.Type() == "class_type_binding" {
		kind = Interface
	}
	end := int(b.EndByte())
	if body != nil {
		end = mlBodyStart(body)
	} else if obj := mlFind(b, "class_body_type"); obj != nil {
		end = mlBodyStart(obj)
	}
	sym := x.add(it, w.text(name), kind, end)
	if sym == nil {
		x.walkExcept(b, name)
		return
	}
	if w.hasChild(b, "virtual") {
		meta(sym, mlMetaAbstract, "true")
	}
	var params []string
	for _, p := range childrenOfType(b, "type_variable") {
		params = append(params, w.text(p))
	}
	meta(sym, mlMetaTypeParams, strings.Join(params, ", "))
	if kind == Class && body == nil {
		meta(sym, mlMetaDeclaration, "true")
	}
	w.within(sym, func() { x.walkExcept(b, name) })
}

// mlFind returns the first node of type typ under n (n included, in source order), or nil.
func mlFind(n *Node, typ string) *Node {
	if n.Type() == typ {
		return n
	}
	for _, c := range namedChildren(n) {
		if f := mlFind(c, typ); f != nil {
			return f
		}
	}
	return nil
}

// inClass reports whether the innermost container is a class or class type, whose methods
// and instance variables are members (an immediate object's are not).
func (x *mlExtractor) inClass() bool {
	c := x.w.container()
	return c != nil && (c.Kind == Class || c.Kind == Interface)
}

// method extracts a method definition or specification.
func (x *mlExtractor) method(n *Node) {
	if !x.inClass() {
		x.walk(n)
		return
	}
	w := x.w
	name, body := childOfType(n, "method_name"), field(n, "body")
	end := int(n.EndByte())
	if body != nil {
		end = mlBodyStart(body)
	}
	sym := x.add(mlSingle(n), w.text(name), Method, end)
	if sym == nil {
		x.walk(n)
		return
	}
	if w.hasChild(n, "private") {
		sym.Visibility = Private
	}
	if w.hasChild(n, "virtual") {
		meta(sym, mlMetaAbstract, "true")
	}
	typ := mlAnnotation(n)
	if n.Type() == "method_specification" {
		meta(sym, mlMetaDeclaration, "true")
	}
	if body == nil { // the annotation is the method's type, not its result's
		typ = mlReturnType(typ)
	}
	w.typeInfo(sym, "return", typ)
	w.within(sym, func() { x.walkExcept(n, name) })
}

// instanceVariable extracts an instance variable (val [mutable] x = ...) as a protected field.
func (x *mlExtractor) instanceVariable(n *Node) {
	if !x.inClass() {
		x.walk(n)
		return
	}
	w := x.w
	name, body := childOfType(n, "instance_variable_name"), field(n, "body")
	end := int(n.EndByte())
	if body != nil && n.StartPoint().Row != n.EndPoint().Row {
		end = mlBodyStart(body)
	}
	sym := x.add(mlSingle(n), w.text(name), Field, end)
	if sym == nil {
		x.walk(n)
		return
	}
	sym.Visibility = Protected
	if w.hasChild(n, "mutable") {
		meta(sym, mlMetaMutable, "true")
	}
	if w.hasChild(n, "virtual") {
		meta(sym, mlMetaAbstract, "true")
	}
	w.typeInfo(sym, "declared", mlAnnotation(n))
	w.within(sym, func() { x.walkExcept(n, name) })
}

// inherit records inherit c: a type usage of c and an extends relationship from the class.
func (x *mlExtractor) inherit(n *Node) {
	path := mlFind(n, "class_path")
	if path == nil {
		path = mlFind(n, "class_type_path")
	}
	if path == nil {
		return
	}
	name := mlLastNamed(path)
	x.w.member(name, path, TypeUsage)
	x.w.relate(x.w.container(), x.w.text(name), Extends, n)
}

// open extracts open M, include M and include S (in a signature) as imports.
func (x *mlExtractor) open(n *Node) {
	w := x.w
	var target *Node
	for _, c := range namedChildren(n) {
		if c.Type() != "comment" && !strings.HasSuffix(c.Type(), "attribute") {
			target = c
			break
		}
	}
	path := target
	for path != nil && (path.Type() == "module_type_constraint" || path.Type() == "parenthesized_module_type") {
		path = path.NamedChild(0)
	}
	if path != nil && path.Type() == "module_application" {
		path = field(path, "functor")
	}
	if path == nil || !strings.HasSuffix(path.Type(), "_path") {
		x.walk(n) // include struct ... end: its items are the container's
		return
	}
	sym := w.importName(n, mlLastNamed(path), oneLine(w.text(path), maxNameRunes))
	if sym != nil && n.StartPoint().Row != n.EndPoint().Row { // include F(struct ... end)
		sym.Signature = mlSignature(w, n, int(n.StartByte()), int(path.EndByte()))
	}
	if n.Type() == "open_module" {
		return
	}
	meta(sym, mlMetaReexport, "true")
	if c := w.container(); c != nil && c.Kind == Interface {
		w.relate(c, w.text(mlLastNamed(path)), Extends, n)
	}
	if !mlSame(path, target) {
		for _, c := range namedChildren(target)[1:] {
			x.typeRefs(c)
		}
	}
}
