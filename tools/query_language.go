package tools

import (
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/index/query"
)

// The query language as the contract shows it: the document (quarry describe query, the
// MCP resource), the text (quarry help query) and the short line of the descriptions of
// tools that take a query (the MCP instructions only point to the resource). All of them are
// rendered from the registry of index/query (fields, operators, rules, examples), with the
// contract's kinds and languages as the values of kind: and lang:.

// QueryLanguageURI is the URI of the MCP resource holding the query language document.
const QueryLanguageURI = "quarry://query-language"

// QueryOperation is the operation whose result is the query language document: quarry
// describe query prints it.
const QueryOperation = "query"

// QueryLanguage returns the query language document.
func QueryLanguage() (*query.Language, error) {
	caps, err := GetCapabilities()
	if err != nil {
		return nil, err
	}
	return query.Describe(queryLanguageValues(caps)), nil
}

// QueryLanguageHelp returns the query language as text for a terminal.
func QueryLanguageHelp() (string, error) {
	caps, err := GetCapabilities()
	if err != nil {
		return "", err
	}
	return query.Help(queryLanguageValues(caps)), nil
}

// queryLanguageValues are the values of the enum fields the registry leaves open: the
// contract's symbol kinds and language names.
func queryLanguageValues(caps *Capabilities) map[string][]string {
	return map[string][]string{"kind": caps.Kinds, "lang": caps.Languages}
}

// QueryLanguageLine is the query language in short, for the description of a tool that
// takes a query: the fields with their aliases, the operators' syntax, the line types of
// query documents, an example, and the resource that holds the rest.
func QueryLanguageLine() string {
	fields := make([]string, len(query.Fields))
	for i, f := range query.Fields {
		fields[i] = f.Name
		if len(f.Aliases) > 0 {
			fields[i] += " (" + strings.Join(f.Aliases, ", ") + ")"
		}
	}
	syntax := make([]string, len(query.Operators))
	for i, o := range query.Operators {
		syntax[i] = o.Syntax
	}
	lines := make([]string, len(query.LineDocs))
	for i, l := range query.LineDocs {
		lines[i] = string(l.Type) + ":"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Query language (plain words need none of it): fields as FIELD:value: %s. Operators: %s. ", strings.Join(fields, ", "), strings.Join(syntax, " | "))
	fmt.Fprintf(&b, "Query documents, a search a line: %s. E.g. %s. All of it: the resource %s.\n", strings.Join(lines, " "), query.Examples[0].Query, QueryLanguageURI)
	return b.String()
}

// QueryDocumentHelp is what help says of query documents, from the line types' registry.
func QueryDocumentHelp() string {
	var b strings.Builder
	b.WriteString("Query documents: several searches in one query, a line each, their results fused (reciprocal rank fusion, the first line weighing double); a single line without a type is a plain query. Lines:\n")
	for _, l := range query.LineDocs {
		fmt.Fprintf(&b, "- %s: %s\n", l.Type, l.Doc)
	}
	return b.String()
}
