package tools

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// What an agent reads about the MCP tools: the server's instructions and each tool's
// description. Both are generated from the contract (the operations' summaries, the
// descriptions of their request fields in the jsonschema tags, the capabilities document),
// so they cannot say something the contract does not do. Only the examples are written
// here, and a test decodes each against its operation's request.

// Example is a request to an operation and what it shows.
type Example struct {
	Args string // the request, as JSON
	Why  string
}

// Examples are requests that show an agent how to use each operation, by operation name.
var Examples = map[string][]Example{
	"batch": {
		{`{"batch":"search(q=\"ServeHTTP\", kind=method) { name path line }; refs(symbol=HandlerFunc, kind=call, take=5) { path line }; explain(symbol=Server) { brief }"}`, "three lookups in one call, each projected to the fields needed"},
		{`{"batch":"count(refs, symbol=HandlerFunc, kind=call); distinct(search, field=lang, q=Open)"}`, "how many calls, and which languages define the name"},
		{`{"batch":"schema()"}`, "the operations, their parameters and the operators each accepts"},
	},
	"search": {
		{`{"query":"ServeHTTP"}`, "where a name is defined: definitions rank first"},
		{`{"query":"\"connection refused\"","target":"content","context_lines":2}`, "lines holding a phrase, with 2 lines around each"},
		{`{"query":"Model","kind":["class"],"language":"python"}`, "only Python classes"},
		{`{"query":"parse config","file_pattern":"src/**/*.rs,!**/tests/**"}`, "only under src/, tests left out"},
		{`{"query":"docker-compose","target":"files"}`, "a file by name or path fragment"},
		{`{"query":"kind:(class OR struct) name:*Service lang:go"}`, "the query language: Go classes and structs whose name ends in Service"},
		{`{"query":"content:/TODO|FIXME/ -path:**/vendor/**","target":"content"}`, "the query language: lines matching a regex, outside vendor/"},
	},
	"goto": {
		{`{"symbol":"http.HandlerFunc"}`, "a qualified name"},
		{`{"symbol":"Save","context_file":"internal/store/db.go"}`, "the definitions nearest the file that uses the name first"},
	},
}

// Instructions returns the MCP server's instructions: what Quarry is, its tools, how to
// search well (parameters, targets, kinds, languages, globs, the query language, limits),
// examples, and what a failure looks like.
func Instructions(caps *Capabilities) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Quarry is an index of this workspace's source code (%d languages): definitions, lines and file paths, found in milliseconds. "+
		"Use it before grep, find or reading whole files to locate code, then read only the lines it points to.\n\n", len(caps.Languages))
	b.WriteString("Tools:\n")
	var fields []string
	params := map[string]string{}
	for _, op := range Operations {
		if op.Tool == "" {
			continue
		}
		s, err := SchemaFor(op.Name+".request", op.Request)
		if err != nil {
			return "", err
		}
		names := requestFields(op.Request)
		fmt.Fprintf(&b, "- %s: %s Parameters: %s.\n", op.Tool, op.Summary, paramList(names, s.Required))
		for _, f := range names {
			if _, seen := params[f]; !seen {
				fields = append(fields, f)
				params[f] = paramDoc(f, s.Properties[f], caps)
			}
		}
	}
	b.WriteString("\nParameters:\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "- %s: %s\n", f, params[f])
	}
	b.WriteString("\n" + queryLanguageSection())
	b.WriteString("\nExamples:\n")
	for _, op := range Operations {
		for _, ex := range Examples[op.Name] {
			if op.Tool != "" {
				fmt.Fprintf(&b, "- %s %s: %s\n", op.Tool, ex.Args, ex.Why)
			}
		}
	}
	var results []reflect.Type
	for _, op := range Operations {
		results = append(results, op.Result)
	}
	b.WriteString("\n" + resultDoc(caps, results...))
	fmt.Fprintf(&b, "The capabilities document (languages, kinds, limits, error codes) is the resource %s.\n", CapabilitiesURI)
	return b.String(), nil
}

// ToolDescription returns the description of op's MCP tool: its summary, its parameters,
// the query language in short when it takes a query, examples, and what a result and a
// failure look like.
func ToolDescription(op Operation, caps *Capabilities) (string, error) {
	s, err := SchemaFor(op.Name+".request", op.Request)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(op.Summary + "\n\nParameters (a JSON object; an unknown parameter is an error):\n")
	for _, f := range requestFields(op.Request) {
		req := ""
		if slices.Contains(s.Required, f) {
			req = ", required"
		}
		fmt.Fprintf(&b, "- %s (%s%s): %s\n", f, typeName(s.Properties[f]), req, paramDoc(f, s.Properties[f], caps))
	}
	if takesQuery(op) {
		b.WriteString("\n" + queryLanguageSection())
	}
	if exs := Examples[op.Name]; len(exs) > 0 {
		b.WriteString("\nExamples:\n")
		for _, ex := range exs {
			fmt.Fprintf(&b, "- %s: %s\n", ex.Args, ex.Why)
		}
	}
	b.WriteString("\n" + resultDoc(caps, op.Result))
	if _, ok := renderers[op.Result]; ok {
		b.WriteString("The text content has one line per result (path:line: kind name — signature; path:line: text; path) and a last line with the count.\n")
	}
	return b.String(), nil
}

// takesQuery reports whether op's request has a query field: a text in the query language.
func takesQuery(op Operation) bool { return slices.Contains(requestFields(op.Request), "query") }

// paramDoc describes the request field f: its description, and the values the
// capabilities allow for it.
func paramDoc(f string, s *jsonschema.Schema, caps *Capabilities) string {
	doc := ""
	if s != nil {
		doc = s.Description
	}
	switch f {
	case "target":
		doc += ". Targets: " + strings.Join(caps.Targets, ", ")
	case "kind":
		doc += ". Kinds: " + strings.Join(caps.Kinds, ", ")
	case "language":
		doc += ". Languages: " + strings.Join(caps.Languages, ", ")
	case "file_pattern":
		doc += ". Syntax: " + caps.FilePattern
	}
	return doc
}

// resultDoc says what the results of the given types carry and what a failure looks like.
func resultDoc(caps *Capabilities, results ...reflect.Type) string {
	var b strings.Builder
	b.WriteString("Paths are workspace-relative and POSIX, lines 1-based, results best first. ")
	if slices.ContainsFunc(results, func(t reflect.Type) bool {
		if t.Kind() != reflect.Struct {
			return false
		}
		_, ok := t.FieldByName("Truncated")
		return ok
	}) {
		fmt.Fprintf(&b, "When truncated is true (truncated_reason %s, %s or %s), narrow the query or filters, or raise limit (at most %d, default %d). ",
			TruncatedLimit, TruncatedMaxBytes, TruncatedTimeout, caps.Limits.MaxLimit, caps.Limits.DefaultLimit)
	}
	codes := make([]string, len(caps.ErrorCodes))
	for i, c := range caps.ErrorCodes {
		codes[i] = string(c)
	}
	fmt.Fprintf(&b, "A failure is an error result holding {\"ok\":false,\"error\":{\"code\":...,\"message\":...,\"path\":...}}: "+
		"the message says what would be accepted; fix the call and try again. Codes: %s.\n", strings.Join(codes, ", "))
	return b.String()
}

// paramList names the fields, marking the required ones.
func paramList(names, required []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if slices.Contains(required, n) {
			out[i] += " (required)"
		}
	}
	return strings.Join(out, ", ")
}

// typeName names the JSON type of a property schema.
func typeName(s *jsonschema.Schema) string {
	if s == nil {
		return "any"
	}
	t := s.Type
	if t == "" && len(s.Types) > 0 {
		t = strings.Join(slices.DeleteFunc(slices.Clone(s.Types), func(x string) bool { return x == "null" }), " or ")
	}
	if t == "array" && s.Items != nil {
		return "array of " + typeName(s.Items)
	}
	return t
}

// renderers are the compact text renderings of result types, by type.
var renderers = map[reflect.Type]func(any) string{
	reflect.TypeFor[SearchResult]():  func(v any) string { return renderSearch(v.(*SearchResult)) },
	reflect.TypeFor[GotoResult]():    func(v any) string { return renderGoto(v.(*GotoResult)) },
	reflect.TypeFor[SymbolsResult](): func(v any) string { return renderSymbols(v.(*SymbolsResult)) },
	reflect.TypeFor[RefsResult]():    func(v any) string { return renderRefs(v.(*RefsResult)) },
	reflect.TypeFor[CallsResult]():   func(v any) string { return renderCalls(v.(*CallsResult)) },
	reflect.TypeFor[ExplainResult](): func(v any) string { return renderExplain(v.(*ExplainResult)) },
	reflect.TypeFor[WorkspaceResult](): func(v any) string {
		return renderWorkspace(v.(*WorkspaceResult))
	},
}
