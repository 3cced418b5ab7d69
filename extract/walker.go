package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/languages"
)

// Limits of what one symbol records.
const (
	maxSignatureRunes = 300
	maxDocRunes       = 2000
	maxNameRunes      = 200
)

// walker is the toolkit every language extractor builds on: it records symbols with their
// positions, signature, doc comment and parent, and the identifiers and relationships found
// inside them.
type walker struct {
	f     *File
	src   []byte
	lang  *languages.Language
	syms  []*Symbol
	stack []*Symbol // enclosing symbols, innermost last
	calls map[[2]string]bool

	embeds []embedding // regions of other languages to extract after the host (embed.go)
	guest  bool        // the walker extracts an embedded region: it embeds nothing more

	ascii                     bool // src has no multi-byte character: columns are byte columns
	colLine, colOff, colRunes int  // where column last counted: line start, offset, characters
}

func newWalker(f *File, src []byte, lang *languages.Language) *walker {
	w := &walker{f: f, src: src, lang: lang, calls: map[[2]string]bool{}, ascii: isASCII(src)}
	return w
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// finish copies the collected symbols into the file.
func (w *walker) finish() {
	w.f.Symbols = make([]Symbol, len(w.syms))
	for i, s := range w.syms {
		w.f.Symbols[i] = *s
	}
	if w.f.Identifiers == nil {
		w.f.Identifiers = []Identifier{}
	}
	if w.f.Relationships == nil {
		w.f.Relationships = []Relationship{}
	}
	if w.f.Types == nil {
		w.f.Types = []TypeInfo{}
	}
	// Ids are final only now: extractors change a symbol's kind (a C++ function defined
	// as Class::f becomes a method) after adding it. Computing them from the final fields
	// is also what makes Rebase exact.
	w.f.Rebase(w.f.Path)
}

// --- reading the tree ---

// text returns the source of n ("" for nil).
func (w *walker) text(n *Node) string {
	if n == nil {
		return ""
	}
	return string(w.src[n.StartByte():n.EndByte()])
}

// field returns n's child in field name, or nil (also for a nil n).
func field(n *Node, name string) *Node {
	if n == nil {
		return nil
	}
	return n.ChildByFieldName(name)
}

// namedChildren returns the named children of n.
func namedChildren(n *Node) []*Node {
	if n == nil {
		return nil
	}
	return n.children(n.named, n.nnamed)
}

// childOfType returns the first named child of n whose type is one of types, or nil.
func childOfType(n *Node, types ...string) *Node {
	if n == nil {
		return nil
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		for _, t := range types {
			if c.Type() == t {
				return c
			}
		}
	}
	return nil
}

// childrenOfType returns the named children of n whose type is one of types.
func childrenOfType(n *Node, types ...string) []*Node {
	var out []*Node
	for _, c := range namedChildren(n) {
		for _, t := range types {
			if c.Type() == t {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// hasChild reports whether n has a child (named or not) whose type or text is tok, such as a
// keyword or modifier ("static", "pub", "async").
func (w *walker) hasChild(n *Node, tok string) bool {
	if n == nil {
		return false
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if c.Type() == tok || w.text(c) == tok {
			return true
		}
	}
	return false
}

// walk calls visit for each named child of n.
func (w *walker) walk(n *Node, visit func(*walker, *Node)) {
	for _, c := range namedChildren(n) {
		visit(w, c)
	}
}

// within runs fn with sym as the innermost enclosing symbol.
func (w *walker) within(sym *Symbol, fn func()) {
	if sym == nil {
		fn()
		return
	}
	w.stack = append(w.stack, sym)
	fn()
	w.stack = w.stack[:len(w.stack)-1]
}

// container returns the innermost enclosing symbol, or nil at file level.
func (w *walker) container() *Symbol {
	if len(w.stack) == 0 {
		return nil
	}
	return w.stack[len(w.stack)-1]
}

// --- positions ---

func (w *walker) span(n *Node) Span {
	sp, ep := n.StartPoint(), n.EndPoint()
	sb, eb := int(n.StartByte()), int(n.EndByte())
	return Span{
		StartLine: int(sp.Row) + 1, StartColumn: w.column(sb, int(sp.Column)),
		EndLine: int(ep.Row) + 1, EndColumn: w.column(eb, int(ep.Column)),
		StartByte: sb, EndByte: eb,
	}
}

// column converts a byte column at byte offset off into a 1-based character column. Columns
// are asked for in roughly increasing order, so counting resumes from the last one on the same
// line: a minified file with one long line costs no more than a normal one.
func (w *walker) column(off, byteCol int) int {
	if w.ascii {
		return byteCol + 1
	}
	start := max(off-byteCol, 0)
	if start != w.colLine || off < w.colOff {
		w.colLine, w.colOff, w.colRunes = start, start, 0
	}
	w.colRunes += utf8.RuneCount(w.src[w.colOff:off])
	w.colOff = off
	return w.colRunes + 1
}

// --- symbols ---

// add records a symbol of kind for the definition node n, named by the text of nameNode, with
// the default signature (n up to its body) and doc comment (the comments right above n). It
// returns nil when the name is empty, so a half-parsed definition is skipped.
func (w *walker) add(n, nameNode *Node, kind Kind) *Symbol {
	return w.addNamed(n, w.text(nameNode), kind)
}

// addNamed is add with the name given as text.
func (w *walker) addNamed(n *Node, name string, kind Kind) *Symbol {
	name = oneLine(name, maxNameRunes)
	if name == "" || n == nil {
		return nil
	}
	sym := &Symbol{
		Name: name, Kind: kind, Language: w.lang.Name, Path: w.f.Path, Span: w.span(n),
		Signature: w.signature(n, bodyOf(n)), DocComment: w.docComment(n),
	}
	if p := w.container(); p != nil {
		sym.ParentID = p.ID
	}
	sym.ID = SymbolID(w.f.Path, kind, name, sym.StartByte)
	w.syms = append(w.syms, sym)
	return sym
}

// splitDotted splits a dotted name at its last dot: MyApp.Accounts and User for
// MyApp.Accounts.User, "" and the name when it has no inner dot. Modules named so (Elixir,
// Elm) are named by the last part, the rest their metadata namespace, as a Ruby A::B is.
func splitDotted(name string) (namespace, last string) {
	if i := strings.LastIndexByte(name, '.'); i > 0 && i < len(name)-1 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// meta sets a metadata entry of sym (nil-safe).
func meta(sym *Symbol, key, value string) {
	if sym == nil || value == "" {
		return
	}
	if sym.Metadata == nil {
		sym.Metadata = map[string]string{}
	}
	sym.Metadata[key] = value
}

// bodyNames are the field names and node types that hold a definition's body.
var bodyNames = []string{"body", "block", "class_body", "declaration_list", "field_declaration_list", "enum_body", "interface_body", "compound_statement", "function_body", "statement_block", "enum_variant_list", "template_body", "enum_class_body", "enum_member_declaration_list"}

// bodyOf returns the body of a definition node, or nil.
func bodyOf(n *Node) *Node {
	if b := field(n, "body"); b != nil {
		return b
	}
	for _, c := range namedChildren(n) {
		for _, t := range bodyNames {
			if c.Type() == t {
				return c
			}
		}
	}
	return nil
}

// signature returns the source of n up to body (all of n when body is nil) on one line.
func (w *walker) signature(n, body *Node) string {
	end := n.EndByte()
	if body != nil && body.StartByte() > n.StartByte() && body.StartByte() <= end {
		end = body.StartByte()
	}
	return w.signatureRange(int(n.StartByte()), int(end))
}

// signatureRange returns src[start:end] on one line, without a trailing "{", ":" or "=".
func (w *walker) signatureRange(start, end int) string {
	s := oneLine(string(w.src[start:end]), maxSignatureRunes)
	return strings.TrimSpace(strings.TrimRight(s, "{:= \t"))
}

// oneLine collapses runs of white space to one space and cuts s to max characters (on a
// character boundary, marked with "…").
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	i, n := 0, 0
	for i = range s {
		if n == max {
			break
		}
		n++
	}
	return s[:i] + "…"
}

// --- doc comments ---

// commentTypes are the node types of comments across the grammars.
var commentTypes = map[string]bool{"comment": true, "line_comment": true, "block_comment": true, "multiline_comment": true, "groovy_doc": true}

// docComment returns the comment block right above n (adjacent lines, no blank line between),
// cleaned of comment markers. Attribute and decorator lines between the comment and n are
// skipped over.
func (w *walker) docComment(n *Node) string {
	var parts []string
	line := int(n.StartPoint().Row)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		if int(p.EndPoint().Row) < line-1 {
			break
		}
		if !commentTypes[p.Type()] {
			if isAttribute(p.Type()) {
				line = int(p.StartPoint().Row)
				continue
			}
			break
		}
		if q := p.PrevNamedSibling(); q != nil && q.EndPoint().Row == p.StartPoint().Row && !commentTypes[q.Type()] {
			break // a comment at the end of a line of code (x = 1 // note) belongs to that line
		}
		parts = append(parts, w.text(p))
		line = int(p.StartPoint().Row)
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return cleanComment(strings.Join(parts, "\n"))
}

func isAttribute(t string) bool {
	return t == "attribute_item" || t == "decorator" || t == "annotation" || t == "marker_annotation" || t == "attribute_list"
}

// cleanComment strips comment markers (//, ///, //!, /* */, /** */, #, --, leading *) and XML
// doc tags, and trims the result.
func cleanComment(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimSpace(l)
		for _, p := range []string{"/**", "/*!", "/*", "///", "//!", "//", "--[[", "---", "--", "#'", "#", "*/", "*"} {
			if strings.HasPrefix(l, p) {
				l = l[len(p):]
				break
			}
		}
		l = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "*/")), "]]")
		l = stripXMLTags(strings.TrimSpace(l))
		out = append(out, l)
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	s = strings.Join(out, "\n")
	if utf8.RuneCountInString(s) > maxDocRunes {
		s = oneLine(s, maxDocRunes)
	}
	return s
}

// stripXMLTags removes C#-style XML doc tags (<summary>, </param>, <see cref="x"/>) but keeps
// their text.
func stripXMLTags(s string) string {
	if !strings.Contains(s, "</") && !strings.Contains(s, "/>") && !strings.Contains(s, "<summary") && !strings.Contains(s, "<param") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		tag := s[i : i+j+1]
		if k := strings.Index(tag, `"`); k >= 0 && strings.HasSuffix(tag, "/>") {
			b.WriteString(strings.Trim(tag[k:len(tag)-2], `" `))
		}
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return strings.TrimSpace(b.String())
}

// --- uses of names ---

// ident records a use of the name n spells, inside the current container.
func (w *walker) ident(n *Node, kind IdentKind) { w.identIn(n, nil, kind) }

// member records a use of the name n looked up in what precedes it in the expression whole
// (the field of a.b.c, the method of obj.m(), the function of pkg.F): the use's qualifier.
func (w *walker) member(n, whole *Node, kind IdentKind) { w.identIn(n, whole, kind) }

func (w *walker) identIn(n, whole *Node, kind IdentKind) {
	if n == nil {
		return
	}
	name := w.text(n)
	if name == "" || len(name) > maxNameRunes || strings.ContainsAny(name, " \t\n") {
		return
	}
	id := Identifier{Name: name, Kind: kind, Span: w.span(n), Qualifier: w.qualifier(n, whole)}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}

// identQualified records a use of the name n with the qualifier q, which the source does not
// spell right before it (x of x?.f in a + x?.f, new T () of new T { A = 1 }); none when q is
// longer than maxQualifierBytes or spans lines, as qualifier says.
func (w *walker) identQualified(n *Node, kind IdentKind, q string) {
	before := len(w.f.Identifiers)
	w.identIn(n, nil, kind)
	if len(w.f.Identifiers) > before && len(q) <= maxQualifierBytes && !strings.ContainsAny(q, "\r\n") {
		w.f.Identifiers[len(w.f.Identifiers)-1].Qualifier = q
	}
}

// maxQualifierBytes bounds a qualifier: a longer one (a chain of calls) is not recorded.
const maxQualifierBytes = 120

// qualifierSeparators end a qualifier, longest first.
var qualifierSeparators = []string{"?.", "::", "->", ".", "\\"}

// qualifier returns the source before the name n inside the expression whole, without the
// separator: pkg in pkg.F, s.mux in s.mux.Handle(), self in self.save(), this in this.x; a
// path keeps its separator: a::b:: in a::b::c(). It is "" when n starts whole, and when the text spans lines or exceeds
// maxQualifierBytes.
func (w *walker) qualifier(n, whole *Node) string {
	if whole == nil {
		return ""
	}
	start, end := int(whole.StartByte()), int(n.StartByte())
	if end <= start || end > len(w.src) || end-start > maxQualifierBytes+3 {
		return ""
	}
	q := strings.TrimRight(string(w.src[start:end]), " \t")
	for _, sep := range qualifierSeparators {
		if strings.HasSuffix(q, sep) {
			q = strings.TrimRight(q[:len(q)-len(sep)], " \t")
			if sep == "::" { // a path (Rust, C++): kept apart from a value's field (bytes.x)
				q += "::"
			}
			break
		}
	}
	if q == "" || q == "::" || len(q) > maxQualifierBytes || strings.ContainsAny(q, "\r\n") {
		return ""
	}
	return q
}

// valueRefs records a variable_ref for each of nodes that is a plain identifier (of node
// type identType): the names passed as arguments, returned or assigned.
func (w *walker) valueRefs(identType string, nodes ...*Node) {
	for _, c := range nodes {
		if c != nil && c.Type() == identType {
			w.ident(c, VariableRef)
		}
	}
}

// call records a call of the callee expression n: an identifier for the called name (the
// last name of a.b.c) and a calls relationship from the container, once per pair.
func (w *walker) call(callee *Node) { w.callIn(callee, callee) }

// callIn is call for a callee that is one part of the call expression whole (Java's
// method_invocation names the method and its object apart): the qualifier is what precedes
// the name in whole.
func (w *walker) callIn(callee, whole *Node) {
	nameNode := lastName(callee)
	if nameNode == nil {
		return
	}
	w.member(nameNode, whole, Call)
	w.relateCall(nameNode)
}

// relateCall records that the innermost enclosing symbol calls the name nameNode spells,
// once per caller and name.
func (w *walker) relateCall(nameNode *Node) {
	from := w.container()
	if from == nil {
		return
	}
	key := [2]string{from.ID, w.text(nameNode)}
	if w.calls[key] {
		return
	}
	w.calls[key] = true
	w.relate(from, key[1], Calls, nameNode)
}

// nameTypes are leaf node types that spell a name.
var nameTypes = map[string]bool{
	"identifier": true, "field_identifier": true, "property_identifier": true, "type_identifier": true,
	"simple_identifier": true, "name": true, "constant": true, "scoped_identifier": true,
	"shorthand_property_identifier": true, "private_property_identifier": true, "word": true,
	"command_name": true, "method_identifier": true, "namespace_identifier": true,
}

// lastName returns the rightmost name leaf of an expression (c in a.b.c, f in pkg.f[T]).
func lastName(n *Node) *Node {
	for n != nil {
		if nameTypes[n.Type()] && n.NamedChildCount() == 0 {
			return n
		}
		for _, f := range []string{"name", "field", "property", "attribute", "method", "function", "suffix"} {
			if c := field(n, f); c != nil {
				n = c
				goto next
			}
		}
		if c := int(n.NamedChildCount()); c > 0 {
			n = n.NamedChild(c - 1)
			continue
		}
		return nil
	next:
	}
	return nil
}

// relate records a relationship from sym to the name to.
func (w *walker) relate(sym *Symbol, to string, kind RelKind, at *Node) {
	if sym == nil || to == "" {
		return
	}
	line := sym.StartLine
	if at != nil {
		line = int(at.StartPoint().Row) + 1
	}
	w.f.Relationships = append(w.f.Relationships, Relationship{FromID: sym.ID, FromName: sym.Name, To: to, Kind: kind, Line: line})
}

// importName records an import of the module or name spelled by n (quotes removed): an import
// symbol, an import identifier and an imports relationship from the container (or the import
// symbol itself at file level).
func (w *walker) importName(stmt, n *Node, name string) *Symbol {
	name = strings.Trim(name, "\"'`")
	if strings.HasPrefix(name, "<") && strings.HasSuffix(name, ">") { // #include <stdio.h>
		name = name[1 : len(name)-1]
	}
	if name == "" {
		return nil
	}
	sym := w.addNamed(stmt, name, Import)
	if sym != nil {
		sym.DocComment = "" // the comment above an import is the file's header, not its doc
	}
	if n != nil {
		w.ident(n, ImportRef)
	}
	from := w.container()
	if from == nil {
		from = sym
	}
	w.relate(from, name, Imports, stmt)
	return sym
}

// typeInfo records the type the source states for sym.
func (w *walker) typeInfo(sym *Symbol, role string, typ *Node) {
	if sym == nil || typ == nil {
		return
	}
	t := oneLine(w.text(typ), maxSignatureRunes)
	if t == "" {
		return
	}
	w.f.Types = append(w.f.Types, TypeInfo{SymbolID: sym.ID, Role: role, Type: t})
}

// typeRefs records a type_usage identifier for each node under n (n included) whose type is
// one of leafTypes, so map[string]*Foo gives string and Foo.
func (w *walker) typeRefs(n *Node, leafTypes ...string) {
	if n == nil {
		return
	}
	for _, t := range leafTypes {
		if n.Type() == t {
			w.ident(n, TypeUsage)
			return
		}
	}
	for _, c := range namedChildren(n) {
		w.typeRefs(c, leafTypes...)
	}
}
