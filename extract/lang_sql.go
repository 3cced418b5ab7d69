package extract

import (
	"regexp"
	"strings"
)

func init() { register("sql", extractSQL) }

// extractSQL walks a SQL script for the objects its CREATE statements define. The kinds,
// from the closed vocabulary:
//
//   - CREATE TABLE: struct (a record type with named columns), its columns field children
//     with the signature "name TYPE constraints";
//   - CREATE VIEW and CREATE MATERIALIZED VIEW: type, a named row type derived from a
//     query, with no members of its own in the source;
//   - CREATE TYPE ... AS ENUM: enum with its labels as enum_member children; another
//     CREATE TYPE: type;
//   - CREATE FUNCTION and CREATE PROCEDURE: function;
//   - CREATE TRIGGER: event, something that fires when rows change;
//   - CREATE INDEX: variable. An index is a named database object that is neither a type,
//     nor callable, nor a member of the table (it is created, dropped and renamed on its
//     own), which leaves variable as the plain named definition;
//   - CREATE SCHEMA: namespace.
//
// A name may be schema-qualified (billing.invoices): the symbol is named by its last part,
// the signature keeps the whole and metadata records the schema. Quotes ("x", `x`, [x]) are
// removed from names. The grammar does not parse every dialect: what it fails on is an
// error node, inside which complete statements are still extracted, and a CREATE FUNCTION
// or PROCEDURE the grammar cannot parse (it has no procedures) is recovered from the text
// of the error. Tables named by FROM, JOIN, REFERENCES and ON are type usages, functions
// invoked are calls.
func extractSQL(w *walker, root *Node) {
	w.walk(root, sqlNode)
}

// sqlNode extracts the statement or error node n found at file level.
func sqlNode(w *walker, n *Node) {
	switch n.Type() {
	case "statement":
		for _, c := range namedChildren(n) {
			sqlCreate(w, n, c)
		}
	case "ERROR":
		sqlRecover(w, n)
		w.walk(n, sqlNode)
	default:
		if strings.HasPrefix(n.Type(), "create_") {
			sqlCreate(w, n, n)
		}
	}
}

// sqlCreate extracts the CREATE statement n, found in the statement node stmt (whose
// previous siblings are the comments above it).
func sqlCreate(w *walker, stmt, n *Node) {
	var sym *Symbol
	switch n.Type() {
	case "create_table":
		sym = sqlDefine(w, stmt, n, Struct, sqlFirst(n, "column_definitions", "keyword_as"))
		w.within(sym, func() {
			for _, col := range childrenOfType(childOfType(n, "column_definitions"), "column_definition") {
				sqlColumn(w, col)
			}
		})
	case "create_view", "create_materialized_view":
		sym = sqlDefine(w, stmt, n, Type, sqlFirst(n, "keyword_as"))
	case "create_type":
		sym = sqlType(w, stmt, n)
	case "create_function":
		sym = sqlDefine(w, stmt, n, Function, sqlFirst(n, "function_body", "function_language",
			"function_volatility", "function_safety", "function_security", "function_strictness",
			"function_cost", "function_rows", "function_leakproof", "function_support"))
	case "create_trigger":
		sym = sqlDefine(w, stmt, n, Event, nil)
		if refs := childrenOfType(n, "object_reference"); len(refs) > 1 {
			meta(sym, "table", sqlUnquote(w.text(refs[1])))
		}
	case "create_index":
		sym = sqlIndex(w, stmt, n)
	case "create_schema":
		if id := childOfType(n, "identifier"); id != nil {
			sym = w.addNamed(n, sqlUnquote(w.text(id)), Namespace)
			sqlFinish(w, sym, stmt, n, nil)
		}
	default:
		return
	}
	var defining *Node // the reference that names what n defines: not a use
	if sym != nil && n.Type() != "create_index" {
		defining = childOfType(n, "object_reference")
	}
	w.within(sym, func() { sqlRefs(w, n, defining) })
}

// sqlDefine adds the object n names by its first object_reference, with the signature up to
// end (all of n when nil).
func sqlDefine(w *walker, stmt, n *Node, kind Kind, end *Node) *Symbol {
	ref := childOfType(n, "object_reference")
	if ref == nil {
		return nil
	}
	sym := w.addNamed(n, sqlUnquote(w.text(field(ref, "name"))), kind)
	if schema := field(ref, "schema"); schema != nil {
		meta(sym, "schema", sqlUnquote(w.text(schema)))
	}
	sqlFinish(w, sym, stmt, n, end)
	return sym
}

// sqlFinish sets the signature of sym, defined by n, to its source up to end, and its doc
// comment to the comments above stmt.
func sqlFinish(w *walker, sym *Symbol, stmt, n, end *Node) {
	if sym == nil {
		return
	}
	sym.Signature = strings.TrimSuffix(w.signature(n, end), ";")
	if stmt != n {
		sym.DocComment = w.docComment(stmt)
	}
}

// sqlFirst returns the first child of n, named or not, whose type is one of types.
func sqlFirst(n *Node, types ...string) *Node {
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		for _, t := range types {
			if c.Type() == t {
				return c
			}
		}
	}
	return nil
}

// sqlColumn adds a column of a table.
func sqlColumn(w *walker, col *Node) {
	name := field(col, "name")
	sym := w.addNamed(col, sqlUnquote(w.text(name)), Field)
	if sym == nil {
		return
	}
	sym.Signature = w.signature(col, nil)
	w.typeInfo(sym, "declared", field(col, "type"))
}

// sqlType adds CREATE TYPE: an enum with its labels, or a type.
func sqlType(w *walker, stmt, n *Node) *Symbol {
	elems := childOfType(n, "enum_elements")
	if elems == nil {
		return sqlDefine(w, stmt, n, Type, sqlFirst(n, "keyword_as"))
	}
	sym := sqlDefine(w, stmt, n, Enum, elems)
	w.within(sym, func() {
		for _, e := range namedChildren(elems) {
			if m := w.addNamed(e, strings.Trim(w.text(e), "'"), EnumMember); m != nil {
				m.Signature = w.text(e)
			}
		}
	})
	return sym
}

// sqlIndex adds CREATE INDEX name ON table (...); an index without a name is skipped.
func sqlIndex(w *walker, stmt, n *Node) *Symbol {
	name := field(n, "column") // the grammar's field for the index name
	if name == nil {
		return nil
	}
	sym := w.addNamed(n, sqlUnquote(w.text(name)), Variable)
	if table := childOfType(n, "object_reference"); table != nil {
		meta(sym, "table", sqlUnquote(w.text(table)))
	}
	meta(sym, "kind", "index")
	sqlFinish(w, sym, stmt, n, nil)
	return sym
}

// sqlRefs records, inside the definition n, the tables it names (type usages) and the
// functions it invokes or a trigger executes (calls). The reference defining, the name n
// defines, is not a use.
func sqlRefs(w *walker, n, defining *Node) {
	var visit func(c *Node)
	visit = func(c *Node) {
		switch c.Type() {
		case "invocation":
			if ref := childOfType(c, "object_reference"); ref != nil {
				w.callIn(field(ref, "name"), ref)
			}
		case "object_reference":
			if c != defining && sqlNamesTable(c) {
				w.member(field(c, "name"), c, TypeUsage)
			}
			return
		}
		for _, k := range namedChildren(c) {
			visit(k)
		}
	}
	for _, c := range namedChildren(n) {
		visit(c)
	}
	if n.Type() == "create_trigger" && defining != nil {
		if refs := childrenOfType(n, "object_reference"); len(refs) > 2 {
			w.callIn(field(refs[2], "name"), refs[2])
		}
	}
}

// sqlNamesTable reports whether the object_reference ref names a table: one in FROM or
// JOIN (a relation), after REFERENCES, or after ON in CREATE INDEX and CREATE TRIGGER. A
// reference to a column's table (t.col) or a function is not one.
func sqlNamesTable(ref *Node) bool {
	p := ref.Parent()
	if p == nil {
		return false
	}
	switch p.Type() {
	case "relation", "from", "insert", "update", "delete":
		return true
	}
	prev := ref.PrevSibling()
	return prev != nil && (prev.Type() == "keyword_references" || prev.Type() == "keyword_on")
}

// sqlUnquote returns a name without its quotes ("x", `x`, [x]).
func sqlUnquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`' || s[0] == '[') {
		s = s[1 : len(s)-1]
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "`", ""), `"`, "")
}

// sqlRoutineRE finds a CREATE FUNCTION or PROCEDURE at the start of source the grammar did
// not parse; the name may be schema-qualified and quoted.
var sqlRoutineRE = regexp.MustCompile("(?is)^\\s*create\\s+(?:or\\s+replace\\s+)?(?:procedure|function)\\s+([\\w.\"`\\[\\]]+)\\s*\\(")

// sqlRecover adds the function or procedure whose CREATE begins the error node n, from its
// text: the grammar has no CREATE PROCEDURE, and fails on some dialects' functions.
func sqlRecover(w *walker, n *Node) {
	text := w.text(n)
	m := sqlRoutineRE.FindStringSubmatchIndex(text)
	if m == nil {
		return
	}
	full, schema := text[m[2]:m[3]], ""
	name := full
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		schema, name = full[:i], full[i+1:]
	}
	sym := w.addNamed(n, sqlUnquote(name), Function)
	if sym == nil {
		return
	}
	meta(sym, "schema", sqlUnquote(schema))
	end := int(n.StartByte()) + m[1]
	if paren := strings.IndexByte(text[m[1]:], ')'); paren >= 0 {
		end += paren + 1
	}
	sym.Signature = w.signatureRange(int(n.StartByte()), end)
	sym.DocComment = w.docComment(n)
}
