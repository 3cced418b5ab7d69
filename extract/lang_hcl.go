package extract

import (
	"strings"
)

func init() { register("hcl", extractHCL) }

// hclMaxValueLen is the longest attribute value kept in a signature.
const hclMaxValueLen = 60

// hclBlockKinds are the kinds of the top-level Terraform blocks that define something. An
// output is a property: it is a named value the module computes from an expression and
// exposes on its interface, read by callers as a member of the module (module.vpc.vpc_id),
// as a getter is read on an object. Resources and data sources are classes: each is an
// instance of a provider's type (aws_s3_bucket) with attributes. A provider configuration is
// a namespace: the resources of its type prefix live in it.
var hclBlockKinds = map[string]Kind{
	"resource": Class,
	"data":     Class,
	"module":   Module,
	"variable": Variable,
	"output":   Property,
	"provider": Namespace,
}

// hclSkippedBlocks are top-level blocks that define nothing another block refers to by name:
// settings of Terraform itself and refactoring records. Their references are still recorded.
var hclSkippedBlocks = map[string]bool{
	"terraform": true, "moved": true, "import": true, "removed": true,
}

// hclRoots are the reference roots whose first attribute is the name of what they refer to
// (var.region names the variable region, module.vpc the module vpc).
var hclRoots = map[string]bool{"var": true, "local": true, "module": true}

// hclBuiltins are reference roots that name no block: the iteration values of count and
// for_each, the enclosing resource, filesystem paths and the workspace.
var hclBuiltins = map[string]bool{
	"count": true, "each": true, "self": true, "path": true, "terraform": true,
}

// extractHCL walks an HCL file (Terraform, Packer, Terragrunt): the top-level blocks as
// symbols named the way other blocks refer to them (aws_s3_bucket.logs, data.x.y, vpc for
// module "vpc"), with their attributes as fields; each attribute of locals as a constant;
// top-level attributes (.tfvars) as variables. References in expressions (var.region,
// module.vpc.id, aws_s3_bucket.logs.arn) are identifiers, function calls are calls.
func extractHCL(w *walker, root *Node) {
	for _, body := range childrenOfType(root, "body") {
		for _, c := range namedChildren(body) {
			switch c.Type() {
			case "block":
				hclBlock(w, c)
			case "attribute":
				hclTopAttribute(w, c, Variable, Public)
			}
		}
	}
}

// hclBlock extracts one top-level block.
func hclBlock(w *walker, n *Node) {
	typ, labels := hclHeader(w, n)
	body := childOfType(n, "body")
	switch {
	case typ == "locals":
		for _, a := range childrenOfType(body, "attribute") {
			sym := hclTopAttribute(w, a, Constant, Private)
			meta(sym, "block", typ)
		}
		return
	case hclSkippedBlocks[typ] || len(labels) == 0:
		hclRefs(w, body)
		return
	}
	kind, ok := hclBlockKinds[typ]
	name := strings.Join(labels, ".")
	switch {
	case typ == "data":
		name = "data." + name
	case typ == "provider":
		if alias := hclLiteral(w, hclAttribute(w, body, "alias")); alias != "" {
			name += "." + alias // referred to as aws.west in provider = aws.west
		}
	case !ok: // a block of another HCL dialect: job "api", source "amazon-ebs" "ubuntu"
		kind, name = Class, typ+"."+name
	}
	sym := w.addNamed(n, name, kind)
	if sym == nil {
		return
	}
	hclFinishBlock(w, sym, n, typ, labels)
	w.within(sym, func() {
		for _, a := range childrenOfType(body, "attribute") {
			hclField(w, a)
		}
		for _, c := range namedChildren(body) {
			if typ == "variable" && c.Type() == "attribute" && w.text(childOfType(c, "identifier")) == "type" {
				w.typeRefs(childOfType(c, "expression"), "identifier") // list(string): types
				continue
			}
			hclRefs(w, c)
		}
	})
}

// hclFinishBlock sets the signature (the header line), doc comment, visibility and metadata
// of the symbol sym of block n.
func hclFinishBlock(w *walker, sym *Symbol, n *Node, typ string, labels []string) {
	body := childOfType(n, "body")
	if start := childOfType(n, "block_start"); start != nil {
		sym.Signature = w.signatureRange(int(n.StartByte()), int(start.StartByte()))
	}
	sym.DocComment = hclDoc(w, n)
	if desc := hclLiteral(w, hclAttribute(w, body, "description")); sym.DocComment == "" && desc != "" {
		sym.DocComment = cleanComment(desc)
	}
	meta(sym, "block", typ)
	switch typ {
	case "variable", "output": // the inputs and outputs of the module
		sym.Visibility = Public
	case "resource", "data", "module":
		sym.Visibility = Private // referable only inside the module that declares it
	}
	if typ == "resource" || typ == "data" {
		meta(sym, "type", labels[0])
	}
	if typ == "variable" {
		if t := hclAttribute(w, body, "type"); t != nil {
			w.typeInfo(sym, "declared", childOfType(t, "expression"))
		}
	}
	if typ == "module" {
		src := hclAttribute(w, body, "source")
		if s := hclLiteral(w, src); s != "" {
			meta(sym, "source", s)
			w.relate(sym, s, Imports, src)
		}
	}
}

// hclHeader returns the block type and the labels of block n, unquoted.
func hclHeader(w *walker, n *Node) (string, []string) {
	typ := ""
	var labels []string
	for _, c := range namedChildren(n) {
		switch c.Type() {
		case "identifier":
			if typ == "" {
				typ = w.text(c)
			} else {
				labels = append(labels, w.text(c))
			}
		case "string_lit":
			if l := strings.Trim(w.text(c), `"`); l != "" {
				labels = append(labels, l)
			}
		case "block_start", "body", "block_end":
			return typ, labels
		}
	}
	return typ, labels
}

// hclAttribute returns the attribute of body named name, or nil.
func hclAttribute(w *walker, body *Node, name string) *Node {
	for _, a := range childrenOfType(body, "attribute") {
		if w.text(childOfType(a, "identifier")) == name {
			return a
		}
	}
	return nil
}

// hclLiteral returns the value of attribute a when it is a plain string without
// interpolation, or "".
func hclLiteral(w *walker, a *Node) string {
	v := childOfType(childOfType(a, "expression"), "literal_value")
	s := childOfType(v, "string_lit")
	if s == nil {
		return ""
	}
	return strings.Trim(w.text(s), `"`)
}

// hclTopAttribute adds an attribute outside any labelled block (a local value, a .tfvars
// assignment) as a symbol of kind with the references in its value.
func hclTopAttribute(w *walker, a *Node, kind Kind, vis Visibility) *Symbol {
	sym := hclAttributeSymbol(w, a, kind)
	if sym == nil {
		return nil
	}
	sym.Visibility = vis
	w.within(sym, func() { hclRefs(w, childOfType(a, "expression")) })
	return sym
}

// hclField adds an attribute of a block as a field of it.
func hclField(w *walker, a *Node) { hclAttributeSymbol(w, a, Field) }

// hclAttributeSymbol adds attribute a as a symbol of kind; its signature keeps the value
// when it is short and on one line.
func hclAttributeSymbol(w *walker, a *Node, kind Kind) *Symbol {
	sym := w.add(a, childOfType(a, "identifier"), kind)
	if sym == nil {
		return nil
	}
	sym.DocComment = hclDoc(w, a)
	if v := childOfType(a, "expression"); v != nil && (strings.Contains(w.text(v), "\n") || len(w.text(v)) > hclMaxValueLen) {
		sym.Signature = w.signatureRange(int(a.StartByte()), int(v.StartByte()))
	}
	return sym
}

// hclDoc returns the doc comment of a block or attribute n. The grammar puts a comment
// above the first item of a body before the body node, so for a first item the comment is
// looked for above its body.
func hclDoc(w *walker, n *Node) string {
	if doc := w.docComment(n); doc != "" || n.PrevSibling() != nil {
		return doc
	}
	if p := n.Parent(); p != nil && p.Type() == "body" && p.StartByte() == n.StartByte() {
		return w.docComment(p)
	}
	return ""
}

// hclRefs records the references and calls in the expressions under n.
func hclRefs(w *walker, n *Node) {
	kids := namedChildren(n)
	for i := 0; i < len(kids); i++ {
		c := kids[i]
		switch c.Type() {
		case "variable_expr":
			j := i + 1
			for j < len(kids) && (kids[j].Type() == "get_attr" || kids[j].Type() == "index" || kids[j].Type() == "splat") {
				j++
			}
			hclTraversal(w, n, c, kids[i+1:j])
			i = j - 1
		case "get_attr": // after a splat or a parenthesized expression
			w.member(childOfType(c, "identifier"), n, MemberAccess)
		case "function_call":
			w.call(childOfType(c, "identifier"))
			hclRefs(w, childOfType(c, "function_arguments"))
		case "object_elem":
			hclRefs(w, field(c, "val")) // keys are names, not references
		case "for_intro":
			for _, e := range childrenOfType(c, "expression") {
				hclRefs(w, e) // not the iteration variables
			}
		case "identifier", "comment":
		default:
			hclRefs(w, c)
		}
	}
}

// hclTraversal records the reference root.a.b... (root the variable_expr, steps the get_attr,
// index and splat nodes after it, whole their parent): the name of what it refers to as a
// variable reference (region of var.region, vpc of module.vpc, aws_s3_bucket.logs of
// aws_s3_bucket.logs.arn, data.x.y) and the attributes read after it as member accesses.
func hclTraversal(w *walker, whole, root *Node, steps []*Node) {
	rootID := childOfType(root, "identifier")
	name := w.text(rootID)
	var attrs []*Node // the leading get_attr names
	for _, s := range steps {
		if s.Type() != "get_attr" {
			break
		}
		attrs = append(attrs, childOfType(s, "identifier"))
	}
	refLen := 0 // how many leading attributes belong to the referenced name
	switch {
	case hclRoots[name] && len(attrs) > 0:
		w.member(attrs[0], whole, VariableRef)
	case hclBuiltins[name] || len(attrs) == 0:
		w.ident(rootID, VariableRef)
	case name == "data" && len(attrs) >= 2:
		refLen = 2
	case name == "data":
		w.ident(rootID, VariableRef)
	default: // a resource: type.name
		refLen = 1
	}
	if refLen > 0 {
		hclJoinedRef(w, rootID, attrs[refLen-1])
	}
	skip := refLen
	if hclRoots[name] && len(attrs) > 0 {
		skip = 1
	}
	for i, s := range steps {
		if s.Type() == "get_attr" && i < len(attrs) {
			if i >= skip {
				w.member(attrs[i], whole, MemberAccess)
			}
			continue
		}
		hclRefs(w, s)
	}
}

// hclJoinedRef records a variable reference named by the source from first to last, a
// dotted name such as aws_s3_bucket.logs.
func hclJoinedRef(w *walker, first, last *Node) {
	if first == nil || last == nil {
		return
	}
	name := strings.Join(strings.Fields(string(w.src[first.StartByte():last.EndByte()])), "")
	if name == "" || len(name) > maxNameRunes {
		return
	}
	sp, end := w.span(first), w.span(last)
	sp.EndLine, sp.EndColumn, sp.EndByte = end.EndLine, end.EndColumn, end.EndByte
	id := Identifier{Name: name, Kind: VariableRef, Span: sp}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}
