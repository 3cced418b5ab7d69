package query

import "strings"

// FieldType is what a field's values are, which decides how they parse and match.
type FieldType uint8

// Field types.
const (
	TextField    FieldType = iota + 1 // tokenized text: words, phrases, prefixes, fuzzy, regex
	KeywordField                      // a whole value: exact, wildcard or regex (a parent's name)
	EnumField                         // one of a closed set of values
	GlobField                         // a path glob, case-sensitive (**, *, ?, {a,b})
	NumberField                       // an integer: exact, ranges and comparisons
)

func (t FieldType) String() string {
	switch t {
	case TextField:
		return "text"
	case KeywordField:
		return "keyword"
	case EnumField:
		return "enum"
	case GlobField:
		return "glob"
	case NumberField:
		return "number"
	}
	return "field_type(?)"
}

// Field is one field of the query language: the one registry the parser, the help, the MCP
// descriptions and the query-language resource read.
type Field struct {
	Name    string
	Aliases []string
	Type    FieldType
	Targets []string // the search targets it applies to: definitions, content, files
	Values  []string // an enum's values; nil when the caller supplies them (Options.Values)
	Doc     string
	Example string
}

// The targets a field can apply to.
var (
	defs    = []string{"definitions"}
	text    = []string{"content", "files"}
	every   = []string{"definitions", "content", "files"}
	noFiles = []string{"definitions", "content"}
)

// Fields is the registry of fields, in the order help lists them.
var Fields = []Field{
	{Name: "name", Aliases: []string{"sym", "symbol"}, Type: TextField, Targets: defs, Doc: "a definition's name", Example: "name:get*User?"},
	{Name: "signature", Aliases: []string{"sig"}, Type: TextField, Targets: defs, Doc: "a definition's signature", Example: `sig:"context.Context"`},
	{Name: "doc", Type: TextField, Targets: defs, Doc: "a definition's doc comment", Example: `doc:"connection pool"`},
	{Name: "body", Type: TextField, Targets: defs, Doc: "the code of a function, method or property", Example: "body:retry"},
	{Name: "content", Type: TextField, Targets: text, Doc: "a line of a file (for the files target: the file's text)", Example: "content:/TODO|FIXME/"},
	{Name: "path", Aliases: []string{"file"}, Type: GlobField, Targets: every, Doc: "the file's workspace-relative path (a glob, case-sensitive; a bare value is a path fragment)", Example: "-path:**/*_test.go"},
	{Name: "ext", Type: KeywordField, Targets: every, Doc: "the file's extension, without the dot", Example: "ext:rs"},
	{Name: "lang", Aliases: []string{"language"}, Type: EnumField, Targets: every, Doc: "the file's language (names and aliases)", Example: "lang:go"},
	{Name: "kind", Type: EnumField, Targets: defs, Doc: "a definition's kind", Example: "kind:(class OR struct)"},
	{Name: "visibility", Aliases: []string{"vis"}, Type: EnumField, Targets: defs, Values: []string{"public", "protected", "internal", "package", "fileprivate", "private"}, Doc: "a definition's visibility by its language's rules", Example: "vis:public"},
	{Name: "parent", Type: KeywordField, Targets: defs, Doc: "the name of the enclosing definition", Example: "parent:Server"},
	{Name: "line", Type: NumberField, Targets: noFiles, Doc: "the line number", Example: "line:>=100"},
	{Name: "type", Type: EnumField, Targets: every, Values: []string{"def", "line", "file"}, Doc: "the kind of result: definitions, lines or files", Example: "type:def"},
	{Name: "case", Type: EnumField, Targets: every, Values: []string{"yes", "no", "auto"}, Doc: "case-sensitive matching of terms, phrases and regexes (auto: sensitive when a term has an upper-case letter)", Example: "case:yes"},
	{Name: "test", Type: EnumField, Targets: every, Values: []string{"yes", "no"}, Doc: "only tests, fixtures and test data (yes) or none of them (no)", Example: "test:no"},
	{Name: "workspace", Aliases: []string{"repo"}, Type: KeywordField, Targets: every, Doc: "a workspace id (see the workspace list)", Example: "workspace:lib_1a2b3c4d"},
}

// LookupField returns the field named name or one of its aliases (case-insensitive).
func LookupField(name string) (*Field, bool) {
	name = strings.ToLower(name)
	for i := range Fields {
		f := &Fields[i]
		if f.Name == name {
			return f, true
		}
		for _, a := range f.Aliases {
			if a == name {
				return f, true
			}
		}
	}
	return nil, false
}

// FieldNames lists every field name and alias.
func FieldNames() []string {
	var out []string
	for _, f := range Fields {
		out = append(out, f.Name)
		out = append(out, f.Aliases...)
	}
	return out
}
