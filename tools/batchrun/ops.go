package batchrun

// The batch language's registry: its operations, each one's parameters (from the contract's
// request type, the query language's fields and the result's fields) with the operators each
// accepts, its fields and presets. schema(), quarry help batch, the MCP tool's description
// and the checks of a batch all read it.

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/quarrysearch/quarry/index/batch"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/tools"
)

// batchOp is one operation of the batch language.
type batchOp struct {
	Name    string
	Summary string
	// Base is the contract operation it runs ("" for count, distinct and schema).
	Base string
	// Fixed are request fields the operation sets itself (callers: direction callers).
	Fixed map[string]any
	// Positional is the request field a value without a key sets.
	Positional string
	// Aliases are other names of request fields (q: query; path, the query language's name
	// of a file, for file_path).
	Aliases map[string]string
	// Query: the query language's fields are parameters, pushed into the query.
	Query bool
	// List is the result's list of items ("results", "nodes"); "" for a single object.
	List string
	// Item is the type of the list's items, or of the object.
	Item reflect.Type
	// Flatten names fields inside an item by a shorter name (a call node's path is
	// symbol.path).
	Flatten map[string]string
	// Brief is the { brief } preset, and the compact format's columns without a projection.
	Brief []string
	// Limit is the request field that bounds the list, and its largest value: raised to it
	// when predicates, skip or sort need more than a page.
	Limit    string
	MaxLimit int
	Example  string
}

// batchOps are the batch language's operations.
var batchOps = []batchOp{
	{Name: "search", Summary: "definitions, lines and files, ranked (the search command)", Base: "search", Positional: "query",
		Aliases: map[string]string{"q": "query"}, Query: true, List: "results", Item: reflect.TypeFor[tools.Hit](), Flatten: hitFields,
		Brief: []string{"path", "line", "name", "kind"}, Limit: "limit", MaxLimit: tools.MaxLimit,
		Example: `search(q="ServeHTTP", kind=method, lang!=python) { name path line }`},
	{Name: "files", Summary: "files by name or path (search with target files)", Base: "search", Positional: "query",
		Fixed: map[string]any{"target": "files"}, Aliases: map[string]string{"q": "query"}, Query: true, List: "results",
		Item: reflect.TypeFor[tools.Hit](), Flatten: hitFields, Brief: []string{"path", "language"}, Limit: "limit", MaxLimit: tools.MaxLimit,
		Example: `files(q=server, ext=go, take=5)`},
	{Name: "goto", Summary: "where a name is defined, best first", Base: "goto", Positional: "symbol", List: "results",
		Item: reflect.TypeFor[tools.Hit](), Flatten: hitFields, Brief: []string{"path", "line", "name", "kind"}, Limit: "limit", MaxLimit: tools.MaxLimit,
		Example: `goto(Server) { brief }`},
	{Name: "refs", Summary: "the uses of a definition, resolved", Base: "refs", Positional: "symbol", List: "results",
		Item: reflect.TypeFor[tools.Ref](), Brief: []string{"path", "line", "kind", "container"}, Limit: "limit", MaxLimit: 1000,
		Example: `refs(symbol=HandlerFunc, kind=call, take=5) { path line }`},
	{Name: "callers", Summary: "who calls a definition, as a tree (depth=1..5)", Base: "calls", Positional: "symbol",
		Fixed: map[string]any{"direction": "callers"}, List: "nodes", Item: reflect.TypeFor[tools.CallNode](),
		Flatten: callNodeFields, Brief: []string{"depth", "name", "path", "line"},
		Example: `callers(Serve, depth=2, path~="^net/") { depth name path line }`},
	{Name: "callees", Summary: "what a definition calls, as a tree (depth=1..5)", Base: "calls", Positional: "symbol",
		Fixed: map[string]any{"direction": "callees"}, List: "nodes", Item: reflect.TypeFor[tools.CallNode](),
		Flatten: callNodeFields, Brief: []string{"depth", "name", "path", "line"},
		Example: `callees(ServeHTTP) { name path line resolution }`},
	{Name: "explain", Summary: "one definition with its parent, children, callers, callees and uses", Base: "explain",
		Positional: "symbol", Item: reflect.TypeFor[tools.ExplainResult](), Flatten: explainFields,
		Brief: []string{"path", "line", "name", "kind"}, Example: `explain(symbol=Server) { brief }`},
	{Name: "symbols", Summary: "a file's outline (the get_symbols tool)", Base: "symbols", Positional: "file_path",
		Aliases: map[string]string{"file": "file_path", "path": "file_path"}, List: "results", Item: reflect.TypeFor[tools.Symbol](),
		Brief: []string{"line", "name", "kind", "depth"}, Limit: "limit", MaxLimit: 5000,
		Example: `symbols(file=src/net/http/server.go, kind=method, take=10)`},
	{Name: "health", Summary: "the index's health: status, counts, freshness", Base: "health", Positional: "workspace",
		Item: reflect.TypeFor[tools.HealthReport](), Flatten: healthFields, Brief: []string{"status", "files", "symbols"},
		Example: `health() { status files symbols }`},
	{Name: "count", Summary: "how many results a list operation has: count(OPERATION, its parameters)",
		Example: `count(refs, symbol=HandlerFunc, kind=call)`},
	{Name: "distinct", Summary: "the distinct values of a field of a list operation's results, with their counts: distinct(OPERATION, field=F, its parameters)",
		Example: `distinct(search, field=lang, q=Server)`},
	{Name: "schema", Summary: "this language: operations, parameters, operators, fields, presets, examples",
		Example: `schema()`},
}

var (
	hitFields      = map[string]string{"lang": "language"}
	callNodeFields = map[string]string{"path": "symbol.path", "line": "symbol.line", "kind": "symbol.kind",
		"signature": "symbol.signature", "id": "symbol.id"}
	explainFields = map[string]string{"name": "definition.name", "kind": "definition.kind", "path": "definition.path",
		"line": "definition.line", "end_line": "definition.end_line", "signature": "definition.signature",
		"id": "definition.id", "doc_comment": "definition.doc_comment", "visibility": "definition.visibility",
		"body": "definition.body"}
	healthFields = map[string]string{"files": "store.counts.files", "symbols": "store.counts.symbols", "id": "workspace.id",
		"root": "workspace.root"}
)

// Batch controls every list operation takes.
const (
	batchSkip = "skip"
	batchTake = "take"
	batchSort = "sort"
	// batchField is distinct's field parameter.
	batchField = "field"
)

// Presets of projections.
const (
	presetBrief = "brief"
	presetFull  = "full"
)

// batchOpNamed returns the operation called name.
func batchOpNamed(name string) (*batchOp, bool) {
	for i := range batchOps {
		if batchOps[i].Name == name {
			return &batchOps[i], true
		}
	}
	return nil, false
}

func batchOpNames() []string {
	var out []string
	for _, o := range batchOps {
		out = append(out, o.Name)
	}
	return out
}

// fieldKind is what a result field's values are: it decides the operators a predicate on
// it accepts.
type fieldKind string

const (
	kindString fieldKind = "string"
	kindNumber fieldKind = "number"
	kindBool   fieldKind = "bool"
	kindOther  fieldKind = "object" // a list or an object: projected, not compared
)

// operatorsOf are the operators a predicate on a field of kind k accepts.
func operatorsOf(k fieldKind) []batch.Op {
	switch k {
	case kindString:
		return []batch.Op{batch.OpEq, batch.OpNe, batch.OpMatch}
	case kindNumber:
		return []batch.Op{batch.OpEq, batch.OpNe, batch.OpGt, batch.OpLt, batch.OpGe, batch.OpLe}
	case kindBool:
		return []batch.Op{batch.OpEq, batch.OpNe}
	}
	return nil
}

// resultField is one field of an operation's results.
type resultField struct {
	Name string
	Path string // where it is in an item: its JSON name, or a dotted path
	Kind fieldKind
}

// fields returns the fields of o's results, by name.
func (o *batchOp) fields() []resultField {
	if o.Item == nil {
		return nil
	}
	var out []resultField
	seen := map[string]bool{}
	for _, f := range jsonFields(o.Item) {
		seen[f.Name] = true
		out = append(out, f)
	}
	for name, path := range o.Flatten {
		if seen[name] {
			continue
		}
		if k, ok := pathKind(o.Item, path); ok {
			out = append(out, resultField{Name: name, Path: path, Kind: k})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// field returns o's result field called name.
func (o *batchOp) field(name string) (resultField, bool) {
	for _, f := range o.fields() {
		if f.Name == name {
			return f, true
		}
	}
	return resultField{}, false
}

// jsonFields returns the JSON fields of the struct type t (its embedded structs' fields
// flattened, as encoding/json does).
func jsonFields(t reflect.Type) []resultField {
	var out []resultField
	for _, f := range structFields(t) {
		out = append(out, resultField{Name: f.name, Path: f.name, Kind: kindOfType(f.typ)})
	}
	return out
}

func kindOfType(t reflect.Type) fieldKind {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return kindString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return kindNumber
	case reflect.Bool:
		return kindBool
	}
	return kindOther
}

// pathKind returns the kind of the field at the dotted JSON path inside t.
func pathKind(t reflect.Type, path string) (fieldKind, bool) {
	head, rest, more := strings.Cut(path, ".")
	for _, f := range structFields(t) {
		if f.name != head {
			continue
		}
		if !more {
			return kindOfType(f.typ), true
		}
		return pathKind(f.typ, rest)
	}
	return "", false
}

type namedType struct {
	name string
	typ  reflect.Type
}

func structFields(t reflect.Type) []namedType {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []namedType
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			out = append(out, structFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name != "-" {
			out = append(out, namedType{name, f.Type})
		}
	}
	return out
}

// requestParam is a request field as a batch parameter.
type requestParam struct {
	Name    string // the JSON name
	Kind    string // string, int, bool, strings (a list: comma-separated)
	Doc     string
	Aliases []string // the batch's other names, if any
}

// requestParams returns the request fields o's statements may set with =, the ones the
// operation sets itself left out (and search's query document list and paging cursor).
func (o *batchOp) requestParams() []requestParam {
	if o.Base == "" {
		return nil
	}
	var t reflect.Type
	if o.Base == "health" {
		t = reflect.TypeFor[tools.HealthRequest]()
	} else {
		op, err := tools.OperationNamed(o.Base)
		if err != nil {
			return nil
		}
		t = op.Request
	}
	alias := map[string][]string{}
	for a, f := range o.Aliases {
		alias[f] = append(alias[f], a)
	}
	for _, as := range alias {
		sort.Strings(as)
	}
	var out []requestParam
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || o.Fixed[name] != nil || name == "searches" || name == "cursor" || name == "detailed" {
			continue
		}
		kind := ""
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch ft.Kind() {
		case reflect.String:
			kind = "string"
		case reflect.Int, reflect.Int64:
			kind = "int"
		case reflect.Bool:
			kind = "bool"
		case reflect.Slice:
			if ft.Elem().Kind() == reflect.String {
				kind = "strings"
			}
		}
		if kind == "" {
			continue
		}
		out = append(out, requestParam{Name: name, Kind: kind, Doc: f.Tag.Get("jsonschema"), Aliases: alias[name]})
	}
	return out
}

// queryFieldOps are the operators a query-language field accepts as a parameter, by its
// type: each becomes a clause of the query (= field:v, != -field:v, ~= field:/re/, > field:>N).
func queryFieldOps(t query.FieldType) []batch.Op {
	switch t {
	case query.TextField, query.KeywordField, query.GlobField:
		return []batch.Op{batch.OpEq, batch.OpNe, batch.OpMatch}
	case query.EnumField:
		return []batch.Op{batch.OpEq, batch.OpNe}
	case query.NumberField:
		return []batch.Op{batch.OpEq, batch.OpNe, batch.OpGt, batch.OpLt, batch.OpGe, batch.OpLe}
	}
	return nil
}

// queryFieldNamed returns the query-language field a search parameter names (workspace is
// the request's: it takes all).
func queryFieldNamed(name string) (*query.Field, bool) {
	if name == "workspace" || name == "repo" {
		return nil, false
	}
	f, ok := query.LookupField(name)
	if !ok || strings.ToLower(name) != name {
		return nil, false
	}
	return f, true
}

// paramNames returns every parameter name o accepts, for did-you-mean.
func (o *batchOp) paramNames() []string {
	var out []string
	for _, p := range o.requestParams() {
		out = append(out, p.Name)
		out = append(out, p.Aliases...)
	}
	if o.Query {
		for _, f := range query.Fields {
			if f.Name != "workspace" {
				out = append(out, f.Name)
				out = append(out, f.Aliases...)
			}
		}
	}
	for _, f := range o.fields() {
		if operatorsOf(f.Kind) != nil {
			out = append(out, f.Name)
		}
	}
	if o.List != "" {
		out = append(out, batchSkip, batchTake, batchSort)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// BatchLanguage is what schema() answers: the batch language, from its registry.
type BatchLanguage struct {
	Grammar    string            `json:"grammar"`
	Operators  []BatchOperator   `json:"operators"`
	Operations []BatchOperation  `json:"operations"`
	Presets    map[string]string `json:"presets" jsonschema:"projections by name: { brief } and { full }"`
	Formats    map[string]string `json:"formats"`
	Examples   []string          `json:"examples"`
}

// BatchOperator is an operator of a parameter.
type BatchOperator struct {
	Op      string `json:"op"`
	Meaning string `json:"meaning"`
}

// BatchOperation is one operation of the batch language.
type BatchOperation struct {
	Name       string       `json:"name"`
	Summary    string       `json:"summary"`
	Runs       string       `json:"runs,omitempty" jsonschema:"the contract operation it runs (its result is that operation's)"`
	Positional string       `json:"positional,omitempty" jsonschema:"the parameter a value without a key sets"`
	Parameters []BatchParam `json:"parameters"`
	Fields     []BatchParam `json:"fields,omitempty" jsonschema:"the fields of its results: for { projections }, sort= and predicates"`
	Brief      []string     `json:"brief,omitempty" jsonschema:"the fields of { brief }, and the compact format's columns without a projection"`
	Example    string       `json:"example"`
}

// BatchParam is a parameter (or a field) with its type and the operators it accepts.
type BatchParam struct {
	Name      string   `json:"name"`
	Type      string   `json:"type"`
	Operators []string `json:"operators,omitempty"`
	From      string   `json:"from,omitempty" jsonschema:"request (the operation's request field), query (a field of the query language, pushed into the query), result (a predicate on the results) or batch (skip, take, sort)"`
	Aliases   []string `json:"aliases,omitempty"`
	Doc       string   `json:"doc,omitempty"`
}

// batchOperatorDocs are the operators, in the grammar's order.
var batchOperatorDocs = []BatchOperator{
	{"=", "equals (a request parameter's value; on a result field: case-insensitive)"},
	{"!=", "does not equal"},
	{">", "greater than (numbers)"},
	{"<", "less than (numbers)"},
	{">=", "at least (numbers)"},
	{"<=", "at most (numbers)"},
	{"~=", "matches the RE2 regular expression (anywhere in the value; anchor with ^ and $)"},
}

// BatchGrammar is the batch language's grammar.
const BatchGrammar = `batch = statement (";" statement)* [";"]
statement = operation "(" [params] ")" ["{" fields "}"]
params = param ("," param)*
param = key op value | value
op = "=" | "!=" | ">" | "<" | ">=" | "<=" | "~="
value = bare | "double-quoted, with \" \\ \n \t \uXXXX escapes"
fields = name+ | brief | full`

// BatchSchema returns the batch language, generated from its registry.
func BatchSchema() *BatchLanguage {
	l := &BatchLanguage{Grammar: BatchGrammar, Operators: batchOperatorDocs,
		Presets: map[string]string{presetBrief: "each operation's brief fields (see brief)", presetFull: "every field (the same as no projection)"},
		Formats: map[string]string{tools.BatchCompact: "per statement a # header line, a line of the columns' names, then one tab-separated row per result", tools.BatchJSON: "an array, one entry per statement in order: its result, the contract's shape, or its error envelope"}}
	for i := range batchOps {
		o := &batchOps[i]
		bo := BatchOperation{Name: o.Name, Summary: o.Summary, Runs: o.Base, Positional: o.Positional, Brief: o.Brief, Example: o.Example}
		seen := map[string]bool{}
		switch o.Name {
		case "count", "distinct":
			bo.Positional = "the list operation (" + strings.Join(listOpNames(), ", ") + "), then its parameters"
			if o.Name == "distinct" {
				bo.Parameters = append(bo.Parameters, BatchParam{Name: batchField, Type: "string", Operators: []string{"="}, From: "batch", Doc: "the field whose values are counted"})
			}
		}
		for _, rp := range o.requestParams() {
			bp := BatchParam{Name: rp.Name, Type: rp.Kind, Operators: []string{"="}, From: "request", Doc: rp.Doc}
			bp.Aliases = rp.Aliases
			seen[rp.Name] = true
			bo.Parameters = append(bo.Parameters, bp)
		}
		if o.Query {
			for _, f := range query.Fields {
				if f.Name == "workspace" || seen[f.Name] {
					continue
				}
				seen[f.Name] = true
				bo.Parameters = append(bo.Parameters, BatchParam{Name: f.Name, Type: f.Type.String(), Operators: opStrings(queryFieldOps(f.Type)), From: "query", Aliases: f.Aliases, Doc: f.Doc})
			}
		}
		for _, f := range o.fields() {
			ops := opStrings(operatorsOf(f.Kind))
			bo.Fields = append(bo.Fields, BatchParam{Name: f.Name, Type: string(f.Kind), Operators: ops})
			if ops != nil && !seen[f.Name] {
				seen[f.Name] = true
				bo.Parameters = append(bo.Parameters, BatchParam{Name: f.Name, Type: string(f.Kind), Operators: ops, From: "result"})
			}
		}
		if o.List != "" {
			bo.Parameters = append(bo.Parameters,
				BatchParam{Name: batchSkip, Type: "int", Operators: []string{"="}, From: "batch", Doc: "leave out the first N results (after the predicates and the order)"},
				BatchParam{Name: batchTake, Type: "int", Operators: []string{"="}, From: "batch", Doc: "at most N results"},
				BatchParam{Name: batchSort, Type: "string", Operators: []string{"="}, From: "batch", Doc: "order by a field: sort=line, sort=-score (descending)"})
		}
		l.Operations = append(l.Operations, bo)
		l.Examples = append(l.Examples, o.Example)
	}
	l.Examples = append(l.Examples, `search(q="ServeHTTP", kind=method) { name path line }; refs(symbol=HandlerFunc, kind=call, take=5) { path line }; explain(symbol=Server) { brief }`)
	return l
}

func opStrings(ops []batch.Op) []string {
	if ops == nil {
		return nil
	}
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = string(o)
	}
	return out
}

// BatchHelp returns the batch language as text for a terminal (quarry help batch).
func BatchHelp() string {
	l := BatchSchema()
	var b strings.Builder
	b.WriteString("Quarry's batch language: several operations in one call (quarry q, the MCP tool batch).\n\nGrammar:\n")
	for _, line := range strings.Split(l.Grammar, "\n") {
		b.WriteString("  " + line + "\n")
	}
	b.WriteString("\nOperators:\n")
	for _, o := range l.Operators {
		fmt.Fprintf(&b, "  %-3s %s\n", o.Op, o.Meaning)
	}
	b.WriteString("\nA parameter is one of: a field of the operation's request (= only); for search and files, a field\nof the query language (pushed into the query: lang!=python is -lang:python); a predicate on a field\nof the results (line>=100, name~=\"^Get\"); or skip, take, sort. An operator a parameter does not\naccept is an error, never a silent equality.\n\nOperations:\n")
	for _, o := range l.Operations {
		fmt.Fprintf(&b, "  %s: %s\n", o.Name, o.Summary)
		var ps []string
		for _, p := range o.Parameters {
			ps = append(ps, p.Name+" "+strings.Join(p.Operators, ""))
		}
		if len(ps) > 0 {
			fmt.Fprintf(&b, "    parameters: %s\n", strings.Join(ps, ", "))
		}
		if len(o.Fields) > 0 {
			var fs []string
			for _, f := range o.Fields {
				fs = append(fs, f.Name)
			}
			fmt.Fprintf(&b, "    fields: %s\n", strings.Join(fs, " "))
			fmt.Fprintf(&b, "    brief: %s\n", strings.Join(o.Brief, " "))
		}
		fmt.Fprintf(&b, "    e.g. %s\n", o.Example)
	}
	b.WriteString("\nProjections: { name path line } selects fields; { brief } and { full } are presets.\n\nFormats:\n")
	for _, k := range []string{tools.BatchCompact, tools.BatchJSON} {
		fmt.Fprintf(&b, "  %-8s %s\n", k, l.Formats[k])
	}
	b.WriteString("\nA syntax error, an unknown operation, parameter or field, or an operator a parameter does not\naccept rejects the whole batch (BAD_QUERY, with its line and column); a statement's own failure\n(a symbol not found) is its entry's error and the others still run. The statements run\nconcurrently, answer in order and share one budget (max_bytes).\n")
	return b.String()
}
