package query

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
)

// The documentation of the expression language. Everything a person or an agent reads
// about it (quarry help query, quarry describe query, the MCP resource and fast_search's
// description) is rendered from Fields, Operators, Rules, LineDocs and
// Examples, and tests parse every example, so the documents cannot name a field the
// parser lacks or leave out one it has.

// Operator is one construct of the expression grammar: how it is written (FIELD, N and the
// like are placeholders), what it does, and an example that parses.
type Operator struct {
	Syntax  string `json:"syntax" jsonschema:"how it is written; upper-case FIELD, N, x are placeholders"`
	Doc     string `json:"doc"`
	Example string `json:"example"`
}

// Operators is the grammar of ParseExpr, construct by construct, in the order help lists
// them.
var Operators = []Operator{
	{"a b", "bare words side by side: all must match (AND)", "connection pool"},
	{"a AND b", "both must match: the same as a space", "parse AND config"},
	{"a OR b", "either may match; OR binds looser than AND: a b OR c is (a b) OR c", "kind:class OR kind:struct"},
	{"NOT x", "x must not match", "Client NOT Mock"},
	{"-x", "x must not match: the same as NOT x", "Handler -path:**/*_test.go"},
	{"+x", "the same as x: every term must match already (inside OR, + does not make a term required)", "+ServeHTTP"},
	{"( )", "groups part of a query: (a OR b) c", "(get OR fetch) user"},
	{`"phrase"`, `the words in this order, as written; \" is a quote and \\ a backslash inside`, `"connection pool"`},
	{`"phrase"~N`, "the words within N positions of each other (a slop, N from 1 to 100)", `"retry backoff"~3`},
	{`"phrase prefix"*`, "a phrase whose last word is a prefix", `"connection po"*`},
	{"word*", "the start of a word (a prefix); in a field's value * is a wildcard", "pars*"},
	{"word~1, word~2", "a word within 1 or 2 edits (fuzzy)", "recieve~1"},
	{"FIELD:value", "the value in that field (see the fields); FIELD is a field's name or alias", "lang:go"},
	{"FIELD:a*b?", "wildcards in a field's value: * any run of characters, ? one character", "name:get*User?"},
	{"FIELD:*", "the field has a value", "parent:*"},
	{"FIELD:(a OR b)", "the field applies to each value of the group: any of them with OR, all with AND or a space (not both)", "kind:(class OR struct)"},
	{"FIELD:[a TO b], FIELD:{a TO b}", "a range on a number, keyword or text field: [ ] includes the bound, { } leaves it out, * is an open end", "line:[10 TO 50]"},
	{"FIELD:>N, >=N, <N, <=N", "a comparison, on a number field", "line:>=100"},
	{"x^N", "weighs a term or a range N times in the ranking (N > 0); not a group", "name:parse^2 body:parse"},
	{"/regex/, FIELD:/regex/", `an RE2 regular expression, bare or as a field's value; \/ is a slash inside; it matches as written (case-sensitive unless (?i) or case:no)`, `/func \w+Handler\(/`},
	{"case:yes, case:no, case:auto", "yes: words, phrases and regexes match with their case; no: all ignore case; auto: a term with an upper-case letter matches with its case (without case:, see the case rule)", "case:yes Context"},
}

// Rule is a rule of the language that no single operator shows.
type Rule struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// Rules are the rules of the language: when the expression parser is used, how case
// matches, where directives stand, and how the query meets flags and request parameters.
var Rules = []Rule{
	{"engagement", `Plain input (bare words and quoted phrases) keeps the plain fast path. ` +
		`The expression parser is engaged by an upper-case AND, OR or NOT standing alone; a registered field name or alias, ` +
		`in lower case, followed by a colon (or a typo of one, which is an error naming the field meant); a parenthesis opening a word (a group; foo(), Map<K, V> and a list in parentheses, (a, b), are code); a word starting with - or + and then a word; a /regex/; ` +
		`or a word or phrase ending in *, ~N or ^N. Lower-case and, or, not are ordinary words; ` +
		`text inside double quotes is text: a quoted "OR" searches for OR.`},
	{"case", "Words and phrases match ignoring case unless case:yes (case:auto: case-sensitive when the term has an upper-case letter). " +
		"A /regex/ matches as written: case-sensitive; (?i) in it, or case:no, folds case."},
	{"directives", directivesDoc()},
	{"conflicts", `Flags or request parameters that contradict a field in the query are an error: ` +
		`--lang go with lang:python on the command line, "language":"go" with lang:python in a request.`},
}

// directivesDoc says where the directive fields (IsDirective) may stand.
func directivesDoc() string {
	var names []string
	for _, f := range Fields {
		if IsDirective(f.Name) {
			names = append(names, f.Name+":")
		}
	}
	return strings.Join(names, ", ") + " set how the whole search runs: write each at the top level of the query " +
		"(not under OR, NOT or in a group), with one value (not *)."
}

// Example is a query that shows the language at work, and what it finds.
type Example struct {
	Query string `json:"query"`
	Doc   string `json:"doc"`
}

// Examples are queries help shows; each parses with ParseExpr.
var Examples = []Example{
	{`kind:(function OR method) lang:go name:Serve* -path:**/*_test.go`, "Go functions and methods whose name starts with Serve, outside test files"},
	{`/func \w+Handler\(/ lang:go`, "Go text matching a regular expression"},
	{`doc:"connection pool" -lang:java`, "definitions whose doc comment holds the phrase, in any language but Java"},
	{`case:yes Context lang:go -file:_test`, "Context with this case exactly, in Go files whose path does not contain _test"},
	{`name:/^Get[A-Z]/ kind:method`, "methods whose name is Get followed by an upper-case letter"},
	{`line:>=100 content:TODO`, "lines holding TODO, from line 100 on"},
	{`"retry backoff"~3 lang:python`, "retry and backoff within 3 words of each other, in Python"},
}

// Accepts says what values a field of type t takes.
func (t FieldType) Accepts() string {
	switch t {
	case TextField:
		return `words, "phrases" (with ~N or *), wildcards (get*), fuzzy words (~1), /regex/, ranges`
	case KeywordField:
		return "a whole value: exact, wildcards (* ?), /regex/, ranges"
	case EnumField:
		return "one of its values (in any case), or several as FIELD:(a OR b)"
	case GlobField:
		return "a path glob, case-sensitive (** any depth, * within a name, ?); a value without * or ? is a path fragment; /regex/"
	case NumberField:
		return "a whole number, a range [a TO b] or a comparison (>N, >=N, <N, <=N)"
	}
	return ""
}

// Language is the query language as one document: what quarry describe query prints and
// the MCP resource holds.
type Language struct {
	Fields    []LanguageField `json:"fields"`
	Types     []LanguageType  `json:"types" jsonschema:"what the values of each field type can be"`
	Operators []Operator      `json:"operators"`
	Rules     []Rule          `json:"rules"`
	Examples  []Example       `json:"examples"`
	Documents []DocumentLine  `json:"documents" jsonschema:"the line types of a query document: several searches in one query, a line each (TYPE: text), their results fused by reciprocal rank fusion, the first line weighing double; a single line without a type is a plain query"`
}

// DocumentLine is a line type of query documents as the document shows it.
type DocumentLine struct {
	Type string `json:"type"`
	Doc  string `json:"doc"`
}

// LanguageField is a field of the language as the document shows it.
type LanguageField struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases" jsonschema:"other names of the field"`
	Type    string   `json:"type" jsonschema:"text, keyword, enum, glob or number"`
	Targets []string `json:"targets" jsonschema:"the search targets the field applies to"`
	Values  []string `json:"values,omitempty" jsonschema:"an enum field's values"`
	Doc     string   `json:"doc"`
	Example string   `json:"example"`
}

// LanguageType is a field type and what its values can be.
type LanguageType struct {
	Name   string `json:"name"`
	Values string `json:"values"`
}

// fieldTypes lists every field type, in the order of their constants.
var fieldTypes = []FieldType{TextField, KeywordField, EnumField, GlobField, NumberField}

// Describe returns the language as a document. values gives the values of the enum fields
// whose registry entry has none (kind, lang), as Options.Values does.
func Describe(values map[string][]string) *Language {
	l := &Language{Operators: slices.Clone(Operators), Rules: slices.Clone(Rules), Examples: slices.Clone(Examples)}
	for _, f := range Fields {
		l.Fields = append(l.Fields, LanguageField{Name: f.Name, Aliases: append([]string{}, f.Aliases...), Type: f.Type.String(),
			Targets: append([]string{}, f.Targets...), Values: fieldValues(f, values), Doc: f.Doc, Example: f.Example})
	}
	for _, t := range fieldTypes {
		l.Types = append(l.Types, LanguageType{Name: t.String(), Values: t.Accepts()})
	}
	for _, d := range LineDocs {
		l.Documents = append(l.Documents, DocumentLine{Type: string(d.Type), Doc: d.Doc})
	}
	return l
}

// fieldValues returns the values of an enum field: its own, else those values gives it.
func fieldValues(f Field, values map[string][]string) []string {
	if f.Type != EnumField {
		return nil
	}
	if f.Values != nil {
		return slices.Clone(f.Values)
	}
	return slices.Clone(values[f.Name])
}

// Help returns the language as text for a terminal: the fields, the field types, the
// operators, the rules and examples. values is as for Describe.
func Help(values map[string][]string) string {
	l := Describe(values)
	var b strings.Builder
	b.WriteString("Quarry's query language: fields, operators and rules. Plain words and \"quoted phrases\" need none of it.\n\n")
	helpFields(&b, l.Fields)
	b.WriteString("\nField types:\n")
	for _, t := range l.Types {
		wrap(&b, t.Name+": "+t.Values, "  ", "    ")
	}
	b.WriteString("\nOperators:\n")
	table(&b, []string{"SYNTAX", "EXAMPLE", "WHAT IT DOES"}, len(l.Operators), func(i int) []string {
		o := l.Operators[i]
		return []string{o.Syntax, o.Example, o.Doc}
	})
	b.WriteString("\nRules:\n")
	for _, r := range l.Rules {
		wrap(&b, r.Name+": "+r.Doc, "  ", "    ")
	}
	b.WriteString("\nExamples:\n")
	for _, e := range l.Examples {
		fmt.Fprintf(&b, "  %s\n      %s\n", e.Query, e.Doc)
	}
	return b.String()
}

// helpFields writes the fields table, then the values of the enum fields.
func helpFields(b *strings.Builder, fields []LanguageField) {
	b.WriteString("Fields (FIELD:value):\n")
	table(b, []string{"FIELD", "ALIASES", "TYPE", "TARGETS", "EXAMPLE", "DESCRIPTION"}, len(fields), func(i int) []string {
		f := fields[i]
		aliases := strings.Join(f.Aliases, ",")
		if aliases == "" {
			aliases = "-"
		}
		return []string{f.Name, aliases, f.Type, strings.Join(f.Targets, ","), f.Example, f.Doc}
	})
	b.WriteString("\nValues of the enum fields:\n")
	for _, f := range fields {
		if len(f.Values) > 0 {
			wrap(b, f.Name+": "+strings.Join(f.Values, ", "), "  ", "    ")
		}
	}
}

// table writes n rows under head, in aligned columns indented by two spaces.
func table(b *strings.Builder, head []string, n int, row func(int) []string) {
	w := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "  %s\n", strings.Join(head, "\t"))
	for i := range n {
		fmt.Fprintf(w, "  %s\n", strings.Join(row(i), "\t"))
	}
	w.Flush()
}

// helpWidth is the width help text is wrapped to.
const helpWidth = 100

// wrap writes s wrapped at helpWidth: its first line indented by first, the others by rest.
func wrap(b *strings.Builder, s, first, rest string) {
	line := first
	for i, word := range strings.Fields(s) {
		if i > 0 && len(line)+1+len(word) > helpWidth {
			b.WriteString(line + "\n")
			line = rest + word
			continue
		}
		if i > 0 {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}
