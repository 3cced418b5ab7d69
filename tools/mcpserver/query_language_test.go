package mcpserver

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/tools"
)

// fieldToken is a word written as a field: lower-case letters starting a word, a colon and
// a value (not "::", "//", a space or the end).
var fieldToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([a-z]+):(?:[^\s:/]|/[^/])`)

// checkQuerySurface fails when text leaves out a field's name or alias, or writes as a
// field (name:value) a word that names no field.
func checkQuerySurface(t *testing.T, surface, text string) {
	t.Helper()
	for _, name := range query.FieldNames() {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text) {
			t.Errorf("%s does not mention the field %s", surface, name)
		}
	}
	for _, m := range fieldToken.FindAllStringSubmatch(text, -1) {
		if _, ok := query.LookupField(m[1]); !ok && !query.IsLineType(m[1]) {
			t.Errorf("%s writes %s: as a field, which the registry does not have", surface, m[1])
		}
	}
}

// querySurfaces returns every text an agent or a person reads about the query language, by
// name, rendered now from the registry: the MCP instructions, fast_search's description,
// the resource, the help text and the document quarry describe query prints.
func querySurfaces(t *testing.T) map[string]string {
	t.Helper()
	caps, err := tools.GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	ins, err := Instructions(caps)
	if err != nil {
		t.Fatal(err)
	}
	op, _ := tools.OperationNamed("search")
	desc, err := ToolDescription(op, caps)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tools.QueryLanguageURI})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" {
		t.Fatalf("read %s: %v, %+v", tools.QueryLanguageURI, err, res)
	}
	help, err := tools.QueryLanguageHelp()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tools.QueryLanguage()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"the instructions": ins, "the description of fast_search": desc,
		"the resource " + tools.QueryLanguageURI: res.Contents[0].Text, "the help text": help, "the document": string(b)}
}

// TestQueryLanguageSurfaces is the drift test of the query language's documentation: every
// surface names every field and alias of the registry and writes no field it lacks; a
// field added to the registry shows on every surface at once, so none is written by hand.
func TestQueryLanguageSurfaces(t *testing.T) {
	surfaces := querySurfaces(t)
	for _, name := range []string{"the instructions", "the description of fast_search"} {
		if !strings.Contains(surfaces[name], tools.QueryLanguageURI) {
			t.Errorf("%s does not point to the resource %s", name, tools.QueryLanguageURI)
		}
	}
	delete(surfaces, "the instructions") // they only point to the resource
	for _, name := range []string{"the description of fast_search", "the resource " + tools.QueryLanguageURI, "the document"} {
		for _, l := range query.LineDocs {
			if !strings.Contains(surfaces[name], string(l.Type)+":") && !strings.Contains(surfaces[name], `"`+string(l.Type)+`"`) {
				t.Errorf("%s lacks the query document line %s:", name, l.Type)
			}
		}
	}
	for name, text := range surfaces {
		checkQuerySurface(t, name, text)
		for _, o := range query.Operators {
			if !strings.Contains(text, o.Syntax) && !strings.Contains(text, jsonText(t, o.Syntax)) {
				t.Errorf("%s lacks the operator %s", name, o.Syntax)
			}
		}
		if !strings.Contains(text, query.Examples[0].Query) && !strings.Contains(text, jsonText(t, query.Examples[0].Query)) {
			t.Errorf("%s lacks the example %s", name, query.Examples[0].Query)
		}
	}
	old := query.Fields
	query.Fields = append(slices.Clip(query.Fields), query.Field{Name: "zzdrift", Aliases: []string{"zzd"}, Type: query.KeywordField,
		Targets: []string{"definitions"}, Doc: "a field only tests have", Example: "zzdrift:x"})
	t.Cleanup(func() { query.Fields = old })
	for name, text := range querySurfaces(t) {
		if name == "the instructions" {
			continue
		}
		if !strings.Contains(text, "zzdrift") || !strings.Contains(text, "zzd") {
			t.Errorf("a field added to the registry does not show in %s: it is not generated from the registry", name)
		}
	}
}

// jsonText returns s as it appears inside a JSON string.
func jsonText(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Trim(string(b), `"`)
}
