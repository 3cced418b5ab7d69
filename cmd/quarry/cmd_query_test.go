package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/tools"
)

// TestHelpQuery: quarry help query prints the query language's text, quarry describe query
// its document (valid against the schema of the query operation), quarry help search still
// prints the help of search, and quarry --help lists the topic.
func TestHelpQuery(t *testing.T) {
	help, err := tools.QueryLanguageHelp()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"help", "query"}, {"query"}, {"query", "--help"}} {
		code, out, errOut := quarry(t, "", args...)
		if code != exitOK || strings.TrimSpace(out) != strings.TrimSpace(help) {
			t.Errorf("quarry %v: exit %d, stderr %q, output:\n%s\nwant:\n%s", args, code, errOut, out, help)
		}
	}
	if code, out, _ := quarry(t, "", "help", "search"); code != exitOK || !strings.Contains(out, "--target") || !strings.Contains(out, "Usage:") {
		t.Errorf("quarry help search: exit %d\n%s", code, out)
	}
	if code, out, _ := quarry(t, "", "--help"); code != exitOK || !strings.Contains(out, "Additional help topics:") || !strings.Contains(out, "quarry query") {
		t.Errorf("quarry --help does not list the query topic: exit %d\n%s", code, out)
	}

	code, out, errOut := quarry(t, "", "describe", "query")
	if err := tools.Validate(tools.QueryOperation+".result", []byte(out)); code != exitOK || err != nil {
		t.Fatalf("quarry describe query: exit %d, %v, stderr %q\n%.300s", code, err, errOut, out)
	}
	doc, err := tools.QueryLanguage()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(doc, "", "  ")
	if strings.TrimSpace(out) != string(want) {
		t.Errorf("quarry describe query:\n%.500s\nwant:\n%.500s", out, want)
	}
	code, out, _ = quarry(t, "", "schema", "--all")
	var all map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &all) != nil || all[tools.QueryOperation+".result"] == nil {
		t.Errorf("quarry schema --all lacks %s.result", tools.QueryOperation)
	}
}

// TestHelpQueryFromRegistry: a field added to the registry shows in quarry help query and
// quarry describe query, so neither is written by hand.
func TestHelpQueryFromRegistry(t *testing.T) {
	old := query.Fields
	query.Fields = append(slices.Clip(query.Fields), query.Field{Name: "zzdrift", Aliases: []string{"zzd"}, Type: query.KeywordField,
		Targets: []string{"definitions"}, Doc: "a field only tests have", Example: "zzdrift:x"})
	t.Cleanup(func() { query.Fields = old })
	for _, args := range [][]string{{"help", "query"}, {"describe", "query"}} {
		code, out, _ := quarry(t, "", args...)
		if code != exitOK || !strings.Contains(out, "zzdrift") || !strings.Contains(out, "zzd") || !strings.Contains(out, "zzdrift:x") {
			t.Errorf("quarry %v does not show a field added to the registry: exit %d\n%.300s", args, code, out)
		}
	}
}
