package mcpserver

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/batchrun"
)

// What an agent reads about the MCP tools before its first call: the server's
// instructions and each tool's description and input schema, kept under MCPBudget bytes
// together. Both are generated from the contract (the operations' summaries, the request
// types' jsonschema tags, the registries of the query and batch languages, the
// resources' table), so they cannot say something the contract does not do; what an agent
// needs only sometimes (the whole query and batch languages, the capabilities, the result
// schemas) is in resources the descriptions point to in one line. Only the examples are
// written here, and a test decodes each against its operation's request.

// MCPBudget bounds, in bytes, what a client reads before its first call: the tools/list
// result as JSON and the instructions. About 4,000 tokens.
const MCPBudget = 16384

// Instructions returns the MCP server's instructions: what Quarry is, its tools, what an
// answer and a failure look like, and the resources to read when needed.
func Instructions(caps *tools.Capabilities) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Quarry is an index of this workspace's source code (%d languages): definitions, lines and file paths, found in milliseconds. "+
		"Use it before grep, find or reading whole files to locate code, then read only the lines it points to.\n\nTools:\n", len(caps.Languages))
	for _, op := range tools.Operations {
		if op.Tool != "" {
			fmt.Fprintf(&b, "- %s: %s\n", op.Tool, strings.TrimSuffix(op.Summary, "."))
		}
	}
	var results []reflect.Type
	for _, op := range tools.Operations {
		results = append(results, op.Result)
	}
	b.WriteString("\n" + resultDoc(caps, results...))
	b.WriteString("\nResources, to read when needed:\n")
	for _, r := range mcpResources {
		fmt.Fprintf(&b, "- %s: %s\n", r.URI, r.Description)
	}
	return b.String(), nil
}

// ToolDescription returns the description of op's MCP tool: its summary, the language it
// takes in short with the resource holding the rest, and examples. Its parameters are its
// input schema's.
func ToolDescription(op tools.Operation, caps *tools.Capabilities) (string, error) {
	var b strings.Builder
	b.WriteString(op.Summary + "\n")
	if takesQuery(op) {
		b.WriteString(tools.QueryLanguageLine())
	}
	if op.Name == "batch" {
		b.WriteString(batchLanguageLine())
	}
	if exs := tools.Examples[op.Name]; len(exs) > 0 {
		b.WriteString("Examples:\n")
		for _, ex := range exs {
			fmt.Fprintf(&b, "- %s: %s\n", ex.Args, ex.Why)
		}
	}
	return b.String(), nil
}

// batchLanguageLine is the batch language in short, from its registry: the operations and
// operators, and where the rest is.
func batchLanguageLine() string {
	l := batchrun.BatchSchema()
	names := make([]string, len(l.Operations))
	for i, o := range l.Operations {
		names[i] = o.Name
	}
	ops := make([]string, len(l.Operators))
	for i, o := range l.Operators {
		ops[i] = o.Op
	}
	return fmt.Sprintf("Operations: %s. Operators: %s. The whole language (parameters, fields, presets, formats): the statement schema() or the resource %s.\n",
		strings.Join(names, ", "), strings.Join(ops, " "), BatchLanguageURI)
}

// takesQuery reports whether op's request has a query field: a text in the query language.
func takesQuery(op tools.Operation) bool {
	return slices.Contains(tools.RequestFields(op.Request), "query")
}

// resultDoc says what the results of the given types carry and what a failure looks like.
func resultDoc(caps *tools.Capabilities, results ...reflect.Type) string {
	var b strings.Builder
	b.WriteString("An answer is compact text, one line per result (path:line: kind name — signature; path:line: text; path) and a last line with the count, " +
		"with the same as JSON in structured content (batch: text only). Paths are workspace-relative and POSIX, lines 1-based, results best first. ")
	if slices.ContainsFunc(results, func(t reflect.Type) bool {
		if t.Kind() != reflect.Struct {
			return false
		}
		_, ok := t.FieldByName("Truncated")
		return ok
	}) {
		fmt.Fprintf(&b, "When truncated is true (truncated_reason %s, %s or %s), narrow the query or filters, or raise limit (at most %d, default %d). ",
			tools.TruncatedLimit, tools.TruncatedMaxBytes, tools.TruncatedTimeout, caps.Limits.MaxLimit, caps.Limits.DefaultLimit)
	}
	b.WriteString("A failure is an error result holding {\"ok\":false,\"error\":{\"code\":...,\"message\":...,\"path\":...}}: " +
		"the message says what would be accepted; fix the call and try again.\n")
	return b.String()
}
