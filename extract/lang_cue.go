package extract

import (
	"path"
	"strings"
)

func init() { register("cue", extractCue) }

// cueMaxDepth is how deep the tree of regular fields goes: the fields at the top of a file
// or of a definition are at depth 1. Definitions are recorded at any depth and start the
// count again, so a schema nested in a schema keeps its fields.
const cueMaxDepth = 3

// cueMaxSignatureRunes is the longest signature kept whole: a longer value is cut with "…".
const cueMaxSignatureRunes = 100

// cueFile is the state of one CUE extraction: the names the imports bind (json of
// "encoding/json", k8s of k8s "k8s.io/api/apps/v1"), so that a selector on a package
// (json.Marshal, k8s.#Deployment) records no variable reference to the package itself.
type cueFile struct {
	w    *walker
	pkgs map[string]bool
}

// extractCue walks a CUE file. In CUE every declaration is a field of a struct, so the
// symbols are the fields, named as the source spells their label (# and _ are part of a
// CUE identifier: #Config, _cache, _#Base):
//
//   - package clause: module (package app);
//   - import: import of the quoted path, with its alias in metadata (alias);
//   - definition (#Name, hidden _#Name): struct when its value is or unifies with a struct
//     literal (#Config: {...}, #DB: close({...}), #App: #Base & {...}): a closed schema
//     whose fields are its children, which is what a struct is in the other languages;
//     constant when its value is a concrete scalar (#Registry: "docker.io", the constants
//     cue get go writes for Go's); type otherwise (#Port: int & >0, #Kind: "a" | "b",
//     #Ref: #Other), a named constraint used as a type. A definition is public, a hidden
//     one private;
//   - regular field: field, public, a child of the field whose struct holds it, down to
//     cueMaxDepth levels below the file or the nearest definition (data files would
//     otherwise give every key of every object). A label chain (a: b: c: 1) gives one field
//     per label. Optional (x?) and required (x!) fields say so in metadata (constraint);
//   - hidden field (_x): field, private;
//   - let binding: variable, private (it is visible only in its scope).
//
// Field attributes (@go(Name), @tag(env)) are kept in metadata (attributes).
//
// Signatures are the declaration on one line (port: int & >0 | *8080), cut before a struct
// literal that spans lines (#Config, dep: k8s.#Deployment) and at cueMaxSignatureRunes.
// Pattern constraints ([string]: {...}) and computed labels ((k), "\(k)") are no symbols:
// the fields they constrain or generate are children of the enclosing field, and say so in
// metadata (pattern: "[string]"). Comprehensions (if, for) contribute their fields to the
// enclosing struct. References to definitions (#Foo, k8s.#Deployment) are type usages,
// other names variable references, a.b member accesses and f(x) calls. A definition that
// unifies with or embeds another (#App: #Base & {...}, #App: {#Base}) extends it; a field
// whose value unifies with definitions (db: #DB) has them as its declared type.
func extractCue(w *walker, root *Node) {
	c := &cueFile{w: w, pkgs: map[string]bool{}}
	c.decls(root, 1, "")
}

// decls extracts the declarations of a struct literal (or of the file, or of an error
// node), whose fields sit at depth; pattern is the label of the pattern constraint or
// computed label they are under, or "".
func (c *cueFile) decls(n *Node, depth int, pattern string) {
	c.declList(n, namedChildren(n), depth, pattern)
}

// declList extracts kids, declarations of n, as decls does.
func (c *cueFile) declList(n *Node, kids []*Node, depth int, pattern string) {
	for i, d := range kids {
		if d.Type() == "label" && n.Type() == "ERROR" {
			// The labels of a half-written field (#Config: { without its closing brace):
			// the field holds what follows it in the error.
			j := i
			for j < len(kids) && kids[j].Type() == "label" {
				j++
			}
			c.labels(n, kids[i:j], kids[j:], depth, pattern)
			return
		}
		c.decl(d, depth, pattern)
	}
}

// decl extracts one declaration.
func (c *cueFile) decl(n *Node, depth int, pattern string) {
	switch n.Type() {
	case "package_clause":
		c.pkg(n)
	case "import_declaration":
		for _, spec := range childrenOfType(n, "import_spec") {
			c.imp(n, spec)
		}
		for _, spec := range childrenOfType(childOfType(n, "import_spec_list"), "import_spec") {
			c.imp(spec, spec)
		}
	case "field":
		c.labels(n, childrenOfType(n, "label"), nil, depth, pattern)
	case "let_clause":
		if depth > cueMaxDepth {
			c.refs(n)
			return
		}
		c.let(n)
	case "comprehension":
		c.comprehension(n, depth, pattern)
	case "ERROR":
		c.decls(n, depth, pattern) // a half-written file: keep what parsed inside the error
	case "comment", "attribute", "ellipsis", "package_identifier", "import_spec", "import_spec_list", "label", "value":
		// Fragments of a declaration an error node broke apart name nothing on their own.
	default:
		c.embedding(n, depth, pattern)
	}
}

// pkg extracts the package clause as a module.
func (c *cueFile) pkg(n *Node) {
	sym := c.w.add(n, childOfType(n, "package_identifier"), Module)
	if sym != nil {
		sym.Visibility = Public
	}
}

// imp extracts one import spec; stmt is the node the import symbol spans (the whole
// declaration for import "path", the spec inside import ( ... )).
func (c *cueFile) imp(stmt, spec *Node) {
	p := field(spec, "path")
	if p == nil {
		return
	}
	importPath := strings.Trim(c.w.text(p), `"`)
	sym := c.w.importName(stmt, p, importPath)
	alias := c.w.text(field(spec, "name"))
	c.pkgs[cueImportName(importPath, alias)] = true
	if sym != nil {
		sym.Signature = "import " + oneLine(c.w.text(spec), maxSignatureRunes)
		meta(sym, "alias", alias)
	}
}

// cueImportName returns the name an import binds: its alias, else the package qualifier
// after ":" (example.com/x@v0:util), else the last element of the path without its major
// version (encoding/json gives json).
func cueImportName(importPath, alias string) string {
	if alias != "" {
		return alias
	}
	if i := strings.LastIndexByte(importPath, ':'); i >= 0 {
		return importPath[i+1:]
	}
	base := path.Base(importPath)
	if i := strings.IndexByte(base, '@'); i >= 0 {
		base = base[:i]
	}
	return base
}

// labels extracts the field n from its label labels[0] on: a symbol for the label when it
// names a field, then the remaining labels and the value inside it. depth is the depth of
// labels[0]. rest are declarations the last label holds besides the value (those after the
// labels of a half-written field, when n is an error node).
func (c *cueFile) labels(n *Node, labels, rest []*Node, depth int, pattern string) {
	value := childOfType(n, "value")
	if len(labels) == 0 {
		c.value(value, depth, pattern)
		c.declList(n, rest, depth, pattern)
		return
	}
	label := labels[0]
	name := c.labelName(label)
	if name == "" { // a pattern constraint or a computed label: the fields under it are ours
		c.labelRefs(label)
		c.labels(n, labels[1:], rest, depth, oneLine(c.w.text(label), maxNameRunes))
		return
	}
	def := cueIsDefinition(name)
	if !def && depth > cueMaxDepth {
		for _, l := range labels[1:] {
			c.labelRefs(l)
		}
		c.refs(value)
		for _, r := range rest {
			c.refs(r)
		}
		return
	}
	sym := c.fieldSymbol(n, label, name, len(labels) == 1 && len(rest) == 0)
	if sym == nil {
		return
	}
	meta(sym, "pattern", pattern)
	if len(labels) == 1 {
		meta(sym, "attributes", c.attributes(n))
	}
	if def {
		depth = 0
	}
	c.w.within(sym, func() {
		if len(labels) == 1 {
			c.declaredTypes(sym, value)
		}
		c.labels(n, labels[1:], rest, depth+1, "")
	})
}

// labelName returns the name label gives its field (quotes removed), or "" for a pattern
// constraint ([string]), a computed label ((k), "\(k)") or an unreadable one.
func (c *cueFile) labelName(label *Node) string {
	for i := 0; i < int(label.ChildCount()); i++ {
		if ch := label.Child(i); !ch.IsNamed() && ch.Type() == "[" {
			return ""
		}
	}
	n := cueNamed(label)
	if len(n) == 0 {
		return ""
	}
	name := n[len(n)-1] // after an alias (X=name)
	if t := name.Type(); t == "optional" || t == "required" {
		if inner := cueNamed(name); len(inner) > 0 {
			name = inner[0]
		}
	}
	switch name.Type() {
	case "identifier":
		return c.w.text(name)
	case "string":
		s := c.w.text(name)
		if childOfType(name, "interpolation") != nil || strings.HasPrefix(s, `"""`) || strings.HasPrefix(s, "#") {
			return "" // interpolated, multi-line or raw: computed or unusual
		}
		return strings.Trim(s, `"'`)
	}
	return ""
}

// fieldSymbol adds the symbol of the field n for its label (one of n's labels); last tells
// whether the label is the last one, the one the value belongs to.
func (c *cueFile) fieldSymbol(n, label *Node, name string, last bool) *Symbol {
	w := c.w
	kind := Field
	if cueIsDefinition(name) {
		kind = cueDefinitionKind(cueExpr(childOfType(n, "value")), last)
	}
	var sym *Symbol
	if label.StartByte() == n.StartByte() {
		sym = w.addNamed(n, name, kind)
	} else { // a later label of a chain (b of a: b: 1): it spans from the label to the end
		sym = w.addNamed(label, name, kind)
		if sym != nil {
			end := w.span(n)
			sym.EndLine, sym.EndColumn, sym.EndByte = end.EndLine, end.EndColumn, end.EndByte
			sym.DocComment = ""
		}
	}
	if sym == nil {
		return nil
	}
	sym.Visibility = Public
	if strings.HasPrefix(name, "_") {
		sym.Visibility = Private
	}
	sym.Signature = c.signature(int(label.StartByte()), n, childOfType(n, "value"))
	if n.Type() == "ERROR" {
		sym.Signature = w.signatureRange(int(label.StartByte()), int(label.EndByte()))
	}
	if marker := cueNamed(label); len(marker) > 0 {
		switch marker[len(marker)-1].Type() {
		case "optional":
			meta(sym, "constraint", "optional")
		case "required":
			meta(sym, "constraint", "required")
		}
	}
	return sym
}

// signature returns the source of n from start to the end of value on one line: whole when
// it fits, else cut before the first struct literal of value that spans lines (or the close
// call around it), before a multi-line string, or at cueMaxSignatureRunes.
func (c *cueFile) signature(start int, n, value *Node) string {
	end := int(n.EndByte())
	if value != nil {
		end = int(value.EndByte()) // attributes (@go(Name)) go to metadata
	}
	if e := cueExpr(value); e != nil && e.Type() == "string" && e.StartPoint().Row != e.EndPoint().Row {
		end = int(e.StartByte())
	}
	for _, s := range cueStructs(value) {
		if s.StartPoint().Row != s.EndPoint().Row {
			end = int(cueCloseOf(s).StartByte())
			break
		}
	}
	if end < start {
		end = start
	}
	s := oneLine(string(c.w.src[start:end]), cueMaxSignatureRunes)
	return strings.TrimSpace(strings.TrimRight(s, "{(:=&|*, \t"))
}

// attributes returns the attributes of the field n (@go(Name) @protobuf(1)), or "".
func (c *cueFile) attributes(n *Node) string {
	var out []string
	for _, a := range childrenOfType(n, "attribute") {
		out = append(out, oneLine(c.w.text(a), maxSignatureRunes))
	}
	return strings.Join(out, " ")
}

// cueDefinitionKind returns the kind of a definition whose value is the expression value;
// last tells whether its label is the last of the field (else its value is a struct).
func cueDefinitionKind(value *Node, last bool) Kind {
	switch {
	case !last || len(cueStructs(value)) > 0:
		return Struct
	case cueIsLiteral(value):
		return Constant
	}
	return Type
}

// cueIsLiteral reports whether the expression n is a concrete scalar: a number, a string
// without interpolation, a boolean or null (-1 included).
func cueIsLiteral(n *Node) bool {
	if n == nil {
		return false
	}
	switch n.Type() {
	case "number", "float", "boolean", "null":
		return true
	case "string":
		return childOfType(n, "interpolation") == nil
	case "unary_expression":
		return cueOperator(n) == "-" && cueIsLiteral(field(n, "argument"))
	}
	return false
}

// let extracts a let binding as a private variable with the references of its value.
func (c *cueFile) let(n *Node) {
	right := field(n, "right")
	sym := c.w.add(n, field(n, "left"), Variable)
	if sym == nil {
		c.refs(right)
		return
	}
	sym.Visibility = Private
	sym.Signature = c.signature(int(n.StartByte()), n, right)
	c.w.within(sym, func() { c.refs(right) })
}

// comprehension extracts an if or for comprehension of a struct: the references of its
// clauses, and the fields it yields as fields of the enclosing struct.
func (c *cueFile) comprehension(n *Node, depth int, pattern string) {
	for _, ch := range namedChildren(n) {
		if ch.Type() == "struct_lit" {
			c.decls(ch, depth, pattern)
			continue
		}
		c.refs(ch)
	}
}

// embedding extracts an expression embedded in a struct (#Base, close({...}), a
// reference): the fields of its struct literals are the struct's own, a definition it
// names is extended by the enclosing definition.
func (c *cueFile) embedding(n *Node, depth int, pattern string) {
	c.value(n, depth, pattern)
	if sym := c.w.container(); sym != nil && pattern == "" && cueIsDefinition(sym.Name) {
		for _, ref := range c.definitionRefs(n) {
			c.w.relate(sym, c.lastName(ref), Extends, ref)
		}
	}
}

// value extracts the value of a field (or an embedded expression): the fields of its
// struct literals at depth, the references of the rest, in source order.
func (c *cueFile) value(value *Node, depth int, pattern string) {
	cueSplit(value, func(s *Node) { c.decls(s, depth, pattern) }, c.refs)
}

// declaredTypes records what the value of sym unifies with: the definitions named by the
// operands of its top-level & (db: #DB, app: k8s.#Deployment & {...}). A definition
// extends them, a field has them as its declared type.
func (c *cueFile) declaredTypes(sym *Symbol, value *Node) {
	refs := c.definitionRefs(cueExpr(value))
	if len(refs) == 0 {
		return
	}
	if cueIsDefinition(sym.Name) {
		for _, r := range refs {
			c.w.relate(sym, c.lastName(r), Extends, r)
		}
		return
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = oneLine(c.w.text(r), maxSignatureRunes)
	}
	c.w.f.Types = append(c.w.f.Types, TypeInfo{SymbolID: sym.ID, Role: "declared", Type: strings.Join(names, " & ")})
}

// refs records the names used in the expression n.
func (c *cueFile) refs(n *Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
		c.ident(n)
	case "selector_expression":
		c.selector(n, false)
	case "call_expression":
		c.callExpr(n)
	case "field":
		for _, l := range childrenOfType(n, "label") {
			c.labelRefs(l)
		}
		c.refs(childOfType(n, "value"))
	case "let_clause":
		c.refs(field(n, "right"))
	case "for_clause":
		c.forClause(n)
	case "label":
		c.labelRefs(n)
	case "comment", "attribute", "package_clause", "import_declaration":
	default:
		for _, ch := range cueNamed(n) {
			c.refs(ch)
		}
	}
}

// ident records a use of the name n: a type usage for a definition, else a variable
// reference.
func (c *cueFile) ident(n *Node) {
	if cueIsDefinition(c.w.text(n)) {
		c.w.ident(n, TypeUsage)
		return
	}
	c.w.ident(n, VariableRef)
}

// selector records the names of the selector a.b.#C: the root as a reference (unless it
// is an imported package), each later name as a member access (a type usage for a
// definition) qualified by what precedes it. skipLast leaves the last name to the caller
// (the function of a call).
func (c *cueFile) selector(n *Node, skipLast bool) {
	root := n
	for root.Type() == "selector_expression" && root.NamedChildCount() > 0 {
		root = root.NamedChild(0)
	}
	if root.Type() != "identifier" || !c.pkgs[c.w.text(root)] {
		c.refs(root)
	}
	var names []*Node // last first
	for s := n; s.Type() == "selector_expression" && s.NamedChildCount() > 1; s = s.NamedChild(0) {
		names = append(names, s.NamedChild(int(s.NamedChildCount())-1))
	}
	if skipLast && len(names) > 0 {
		names = names[1:]
	}
	for i := len(names) - 1; i >= 0; i-- {
		name := names[i]
		kind := MemberAccess
		if cueIsDefinition(c.w.text(name)) {
			kind = TypeUsage
		}
		c.w.member(name, n, kind)
	}
}

// callExpr records a call: the function called (close, strings.Join) and the references
// in its arguments. Builtins (close, len, and, or) are calls with no calls relationship.
func (c *cueFile) callExpr(n *Node) {
	fn := field(n, "function")
	switch {
	case fn == nil:
	case fn.Type() == "builtin_function":
		c.w.ident(fn, Call)
	case fn.Type() == "selector_expression":
		c.selector(fn, true)
		c.w.callIn(fn, fn)
	case fn.Type() == "identifier":
		c.w.call(fn)
	default:
		c.refs(fn)
	}
	c.refs(childOfType(n, "arguments"))
}

// forClause records the references of for k, v in src: those of src, not the loop
// variables it declares.
func (c *cueFile) forClause(n *Node) {
	seenIn := false
	for i := 0; i < int(n.ChildCount()); i++ {
		ch := n.Child(i)
		switch {
		case !ch.IsNamed():
			seenIn = seenIn || ch.Type() == "in"
		case seenIn:
			c.refs(ch)
		}
	}
}

// labelRefs records the references in a label: the expression of a computed label
// ((name), "\(k)-x") and the constraint of a pattern ([#Name]), not the name it defines.
func (c *cueFile) labelRefs(label *Node) {
	if label == nil || c.labelName(label) != "" {
		return
	}
	for _, ch := range cueNamed(label) {
		c.refs(ch)
	}
}

// cueNamed returns the named children of n without an alias (X= of X=name, [X=string]).
func cueNamed(n *Node) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for i := 0; i < int(n.ChildCount()); i++ {
		if ch := n.Child(i); ch.IsNamed() && n.FieldNameForChild(i) != "alias" {
			out = append(out, ch)
		}
	}
	return out
}

// cueExpr returns the expression of a value node (after its alias), or n itself for any
// other node.
func cueExpr(n *Node) *Node {
	if n == nil || n.Type() != "value" {
		return n
	}
	if e := cueNamed(n); len(e) > 0 {
		return e[len(e)-1]
	}
	return nil
}

// cueStructs returns the struct literals whose fields are the fields of the value n: n
// itself, the operands of & and | (#Base & {...}), a default (*{...}), the argument of
// close and a parenthesized expression.
func cueStructs(n *Node) []*Node {
	var out []*Node
	cueSplit(n, func(s *Node) { out = append(out, s) }, func(*Node) {})
	return out
}

// cueSplit calls onStruct for each struct literal of the value n (see cueStructs) and
// onOther for each other part of it.
func cueSplit(n *Node, onStruct, onOther func(*Node)) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "struct_lit":
		onStruct(n)
		return
	case "value", "parenthesized_expression":
		for _, ch := range cueNamed(n) {
			cueSplit(ch, onStruct, onOther)
		}
		return
	case "binary_expression":
		if op := cueOperator(n); op == "&" || op == "|" {
			cueSplit(field(n, "left"), onStruct, onOther)
			cueSplit(field(n, "right"), onStruct, onOther)
			return
		}
	case "unary_expression":
		if cueOperator(n) == "*" {
			cueSplit(field(n, "argument"), onStruct, onOther)
			return
		}
	case "call_expression":
		if cueIsClose(n) {
			onOther(field(n, "function"))
			for _, a := range namedChildren(childOfType(n, "arguments")) {
				cueSplit(a, onStruct, onOther)
			}
			return
		}
	}
	onOther(n)
}

// cueIsClose reports whether n is a call of the builtin close.
func cueIsClose(n *Node) bool {
	fn := field(n, "function")
	return fn != nil && fn.Type() == "builtin_function" && fn.ChildCount() > 0 && fn.Child(0).Type() == "close"
}

// cueCloseOf returns the call close(s) when the struct literal s is its argument, else s:
// a signature is cut before either.
func cueCloseOf(s *Node) *Node {
	if args := s.Parent(); args != nil && args.Type() == "arguments" {
		if call := args.Parent(); call != nil && cueIsClose(call) {
			return call
		}
	}
	return s
}

// cueOperator returns the operator of a binary or unary expression.
func cueOperator(n *Node) string {
	if op := field(n, "operator"); op != nil {
		return op.Type()
	}
	return ""
}

// definitionRefs returns the references to definitions among the operands of the
// top-level & of the expression n (#A, pkg.#B), n itself included.
func (c *cueFile) definitionRefs(n *Node) []*Node {
	if n == nil {
		return nil
	}
	switch n.Type() {
	case "binary_expression":
		if cueOperator(n) == "&" {
			return append(c.definitionRefs(field(n, "left")), c.definitionRefs(field(n, "right"))...)
		}
	case "parenthesized_expression":
		if e := cueNamed(n); len(e) == 1 {
			return c.definitionRefs(e[0])
		}
	case "identifier", "selector_expression":
		if cueIsDefinition(c.lastName(n)) {
			return []*Node{n}
		}
	}
	return nil
}

// lastName returns the last name of an identifier or selector (#C of a.b.#C).
func (c *cueFile) lastName(n *Node) string {
	for n != nil && n.Type() == "selector_expression" && n.NamedChildCount() > 0 {
		n = n.NamedChild(int(n.NamedChildCount()) - 1)
	}
	if n == nil || n.Type() != "identifier" {
		return ""
	}
	return c.w.text(n)
}

// cueIsDefinition reports whether name is a definition's (#Name, hidden _#Name).
func cueIsDefinition(name string) bool {
	return strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_#")
}
