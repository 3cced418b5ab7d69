package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/workspace"
)

// Schema identifiers.
const (
	// SchemaDialect is the JSON Schema draft every schema declares.
	SchemaDialect = "https://json-schema.org/draft/2020-12/schema"
	// SchemaBase starts every schema's $id: SchemaBase + "v1/search.request.json".
	SchemaBase = "https://quarry.dev/schemas/"
)

// Operation is one operation of the contract: its name (the CLI command, and the MCP tool
// that runs it), what it does, and the types of its request and result.
type Operation struct {
	Name    string
	Tool    string // the MCP tool, "" when there is none
	Summary string
	Request reflect.Type
	Result  reflect.Type
}

// Operations lists the contract's operations.
var Operations = []Operation{
	{Name: "search", Tool: "fast_search", Summary: "Search definitions, content lines and files, ranked together or by target.",
		Request: reflect.TypeFor[SearchRequest](), Result: reflect.TypeFor[SearchResult]()},
	{Name: "goto", Tool: "fast_goto", Summary: "Find where a symbol is defined, best first.",
		Request: reflect.TypeFor[GotoRequest](), Result: reflect.TypeFor[GotoResult]()},
	{Name: "symbols", Tool: "get_symbols", Summary: "Outline a file: its definitions as a tree, with signatures, and bodies in full mode.",
		Request: reflect.TypeFor[SymbolsRequest](), Result: reflect.TypeFor[SymbolsResult]()},
	{Name: "refs", Tool: "fast_refs", Summary: "List the uses of a definition (calls, references, type usages, member accesses, imports), resolved through scope, receivers, imports and packages, with the symbol each is in.",
		Request: reflect.TypeFor[RefsRequest](), Result: reflect.TypeFor[RefsResult]()},
	{Name: "explain", Tool: "deep_dive", Summary: "Everything about one definition in one answer: signature, doc, parent, children, callers, callees, uses as a type, implementations and overrides; sized by depth.",
		Request: reflect.TypeFor[ExplainRequest](), Result: reflect.TypeFor[ExplainResult]()},
	{Name: "calls", Tool: "trace_calls", Summary: "Who calls a definition, or what it calls, as a tree some levels deep, with the call sites and cycles marked.",
		Request: reflect.TypeFor[CallsRequest](), Result: reflect.TypeFor[CallsResult]()},
	{Name: "batch", Tool: "batch", Summary: "Several lookups in one call, in the fewest tokens: statements separated by ;, each an operation with parameters, predicates (lang!=python, line>=100, name~=\"^Get\") and a projection ({ name path line }, { brief }); answered in order, as compact rows or JSON.",
		Request: reflect.TypeFor[BatchRequest](), Result: reflect.TypeFor[[]any]()},
	{Name: "workspace", Tool: "manage_workspace", Summary: "Manage workspaces: index, add, remove, list, refresh, stats, clean, health.",
		Request: reflect.TypeFor[WorkspaceRequest](), Result: reflect.TypeFor[WorkspaceResult]()},
	// Command-line only: their JSON is described here too, so every JSON answer of the CLI
	// has a schema. Agents reach them through manage_workspace and get_symbols.
	{Name: "index", Summary: "Index a workspace, or bring its index up to date: what manage_workspace index answers, the run's report in indexed (quarry index --json).",
		Request: reflect.TypeFor[IndexRequest](), Result: reflect.TypeFor[WorkspaceResult]()},
	{Name: "health", Summary: "Check a workspace's index: what manage_workspace health answers, the report in health (quarry health --json; quarry workspace stats --json has it too).",
		Request: reflect.TypeFor[HealthRequest](), Result: reflect.TypeFor[WorkspaceResult]()},
	{Name: "outline", Summary: "Every symbol of any file, with all its fields (quarry outline FILE --json).",
		Request: reflect.TypeFor[OutlineRequest](), Result: reflect.TypeFor[OutlineResult]()},
	{Name: "tokens", Summary: "The tokens the code tokenizer makes of a text, with their kinds and spans (quarry tokens --json).",
		Request: reflect.TypeFor[TokensRequest](), Result: reflect.TypeFor[[]Token]()},
	{Name: "capabilities", Summary: "What this Quarry can do: languages, targets, kinds, limits, error codes, operations (quarry capabilities).",
		Request: reflect.TypeFor[NoRequest](), Result: reflect.TypeFor[Capabilities]()},
	{Name: "describe", Summary: "A command of the contract: summary, flags and schemas (quarry describe COMMAND).",
		Request: reflect.TypeFor[DescribeRequest](), Result: reflect.TypeFor[Description]()},
	{Name: "agent-version", Summary: "The version of the agent contract (quarry agent-version --json).",
		Request: reflect.TypeFor[NoRequest](), Result: reflect.TypeFor[AgentVersionResult]()},
	{Name: "parse", Summary: "A search request's query as Quarry reads it, without searching: canonical form, target, terms, plan (quarry search --parse-only --json).",
		Request: reflect.TypeFor[SearchRequest](), Result: reflect.TypeFor[ParsedQuery]()},
	{Name: QueryOperation, Summary: "The query language of search: fields, operators, rules and examples (quarry describe query; as text, quarry help query; over MCP, the resource " + QueryLanguageURI + ").",
		Request: reflect.TypeFor[NoRequest](), Result: reflect.TypeFor[query.Language]()},
}

// TokensRequest is quarry tokens.
type TokensRequest struct {
	Text     string `json:"text"`
	Language string `json:"language,omitempty" jsonschema:"the language whose rules apply (default: language-neutral rules)"`
	Query    bool   `json:"query,omitempty" jsonschema:"tokenize as a query: compounds whose parts are present are dropped"`
}

// NoRequest is the request of an operation that takes nothing.
type NoRequest struct{}

// DescribeRequest is quarry describe.
type DescribeRequest struct {
	Command string `json:"command"`
}

// Description describes a command of the contract.
type Description struct {
	Name         string         `json:"name"`
	Tool         string         `json:"tool,omitempty" jsonschema:"the MCP tool, if any"`
	Summary      string         `json:"summary"`
	AgentVersion string         `json:"agent_version"`
	Flags        []FlagInfo     `json:"flags"`
	Request      map[string]any `json:"request" jsonschema:"the JSON Schema of the request"`
	Result       map[string]any `json:"result" jsonschema:"the JSON Schema of the result"`
	Error        map[string]any `json:"error" jsonschema:"the JSON Schema of the failure envelope"`
}

// FlagInfo is a command-line flag.
type FlagInfo struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Default string `json:"default"`
	Usage   string `json:"usage"`
}

// AgentVersionResult is the answer of quarry agent-version --json.
type AgentVersionResult struct {
	AgentVersion string `json:"agent_version"`
}

// SchemaMap returns the schema called name as a generic JSON object.
func SchemaMap(name string) (map[string]any, error) {
	all, err := Schemas()
	if err != nil {
		return nil, err
	}
	s, ok := all[name]
	if !ok {
		return nil, fmt.Errorf("tools: no schema %q", name)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// IndexRequest is quarry index: the workspace directory and its options.
type IndexRequest struct {
	Path          string `json:"path,omitempty" jsonschema:"the workspace directory, indexed as a primary workspace (default: the current workspace)"`
	Force         bool   `json:"force,omitempty" jsonschema:"drop the index and build it anew"`
	MaxSize       int64  `json:"max_size,omitempty" jsonschema:"skip files larger than this many bytes, but for source code (default 1 MiB)"`
	MaxSourceSize int64  `json:"max_source_size,omitempty" jsonschema:"skip source files (a language Quarry extracts, not generated by its name) larger than this many bytes (default 16 MiB)"`
	EmbedderURL   string `json:"embedder_url,omitempty" jsonschema:"this run's symbol vectors from an OpenAI-compatible /v1/embeddings endpoint at this URL (with embedder_model), over .quarry/config.toml's [embedder]; learned: make them with Quarry's built-in code-search model whatever the config says"`
	EmbedderModel string `json:"embedder_model,omitempty" jsonschema:"the model the embedder_url endpoint serves (nomic-embed-text, text-embedding-3-small, ...)"`
}

// HealthRequest is quarry health.
type HealthRequest struct {
	Workspace string `json:"workspace,omitempty" jsonschema:"a workspace id (default: the primary)"`
	Detailed  bool   `json:"detailed,omitempty" jsonschema:"the command line's text lists languages, skipped and changed files too; the report always has them"`
}

// HealthReport is the health of a workspace's index.
type HealthReport = workspace.Health

// OutlineRequest is quarry outline FILE.
type OutlineRequest struct {
	File     string   `json:"file" jsonschema:"any file, in a workspace or not (relative to the current directory)"`
	Depth    int      `json:"depth,omitempty" jsonschema:"nesting depth to show: 1 top level only, 0 all (default)"`
	Kind     []string `json:"kind,omitempty" jsonschema:"only symbols of these kinds"`
	Language string   `json:"language,omitempty" jsonschema:"parse as this language instead of detecting it from the name or a #! line"`
	MaxSize  int      `json:"max_size,omitempty" jsonschema:"the largest file to extract, in bytes (default 16 MiB)"`
}

// OperationNamed returns the operation called name (its CLI name or its MCP tool).
func OperationNamed(name string) (Operation, error) {
	for _, op := range Operations {
		if op.Name == name || op.Tool != "" && op.Tool == name {
			return op, nil
		}
	}
	return Operation{}, Errorf(CodeBadValue, "command", "no operation %q; operations: %s", name, strings.Join(OperationNames(), ", "))
}

// OperationNames lists the operations' names.
func OperationNames() []string {
	var names []string
	for _, op := range Operations {
		names = append(names, op.Name)
	}
	return names
}

// SchemaFor returns the JSON Schema (Draft 2020-12) of t, identified as name: generated
// from the Go type, with $id and the contract's version. Objects admit no other properties.
func SchemaFor(name string, t reflect.Type) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: typeSchemas()})
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %s: %w", name, err)
	}
	s.Schema = SchemaDialect
	s.ID = SchemaBase + "v" + MajorVersion() + "/" + name + ".json"
	s.Title = name
	if s.Extra == nil {
		s.Extra = map[string]any{}
	}
	s.Extra["version"] = AgentVersion
	closeObjects(s)
	singleTypes(s)
	return s, nil
}

// singleTypes gives every schema in s one type: the generator makes slices and pointers
// nullable (["null", "array"]), which some clients cannot take, while the contract never
// sends null for them (empty arrays, or the field left out).
func singleTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		for _, t := range s.Types {
			if t != "null" {
				s.Type, s.Types = t, nil
			}
		}
	}
	for _, p := range s.Properties {
		singleTypes(p)
	}
	singleTypes(s.Items)
	for _, d := range s.Defs {
		singleTypes(d)
	}
}

// typeSchemas are the schemas of types the generator cannot infer: typed enums that
// marshal as text.
func typeSchemas() map[reflect.Type]*jsonschema.Schema {
	enum := func(names []string) *jsonschema.Schema {
		s := &jsonschema.Schema{Type: "string"}
		for _, n := range names {
			s.Enum = append(s.Enum, n)
		}
		return s
	}
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[extract.Kind]():       enum(extract.Kinds()),
		reflect.TypeFor[extract.IdentKind]():  {Type: "string"},
		reflect.TypeFor[extract.RelKind]():    {Type: "string"},
		reflect.TypeFor[extract.Visibility](): {Type: "string"},
		reflect.TypeFor[time.Duration]():      {Type: "integer"},
	}
}

// closeObjects sets additionalProperties false on every object schema in s: a field the
// contract does not define is an error, not ignored.
func closeObjects(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if (s.Type == "object" || slices.Contains(s.Types, "object")) && s.AdditionalProperties == nil {
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	}
	for _, p := range s.Properties {
		closeObjects(p)
	}
	closeObjects(s.Items)
	for _, d := range s.Defs {
		closeObjects(d)
	}
}

// MajorVersion is the major part of AgentVersion, in the schemas' identifiers.
func MajorVersion() string { return strings.SplitN(AgentVersion, ".", 2)[0] }

// Schemas returns every schema of the contract by name: "<operation>.request",
// "<operation>.result" and "error" (the failure envelope).
func Schemas() (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	for _, op := range Operations {
		for _, part := range []struct {
			suffix string
			t      reflect.Type
		}{{"request", op.Request}, {"result", op.Result}} {
			s, err := SchemaFor(op.Name+"."+part.suffix, part.t)
			if err != nil {
				return nil, err
			}
			out[op.Name+"."+part.suffix] = s
		}
	}
	env, err := SchemaFor("error", reflect.TypeFor[Envelope]())
	if err != nil {
		return nil, err
	}
	var codes []any
	for _, c := range Codes {
		codes = append(codes, string(c))
	}
	if e := env.Properties["error"]; e != nil && e.Properties["code"] != nil {
		e.Properties["code"].Enum = codes
	}
	out["error"] = env
	return out, nil
}

// SchemaNames lists the names Schemas returns, sorted.
func SchemaNames() ([]string, error) {
	all, err := Schemas()
	if err != nil {
		return nil, err
	}
	var names []string
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// Validate checks the JSON document data against the schema called name.
func Validate(name string, data []byte) error {
	all, err := Schemas()
	if err != nil {
		return err
	}
	s, ok := all[name]
	if !ok {
		return fmt.Errorf("tools: no schema %q", name)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return fmt.Errorf("tools: resolve schema %s: %w", name, err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return resolved.Validate(v)
}

// FieldDoc returns the description of the request field called name (its JSON name) of
// the operation op: the text the schemas, the MCP tool descriptions and the CLI's flag help
// all show, so they cannot drift apart. It panics for a field that does not exist (a
// programming error, caught when the CLI is built).
func FieldDoc(op, name string) string {
	o, err := OperationNamed(op)
	if err != nil {
		panic(err)
	}
	for i := 0; i < o.Request.NumField(); i++ {
		f := o.Request.Field(i)
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name {
			return f.Tag.Get("jsonschema")
		}
	}
	panic(fmt.Sprintf("tools: operation %s has no request field %s", op, name))
}

// RequestFields returns the JSON names of a request type's fields, in declaration order.
func RequestFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && t.Field(i).IsExported() {
			out = append(out, name)
		}
	}
	return out
}

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
	},
	"search": {
		{`{"query":"ServeHTTP"}`, "where a name is defined: definitions rank first"},
		{`{"query":"\"connection refused\"","target":"content","context_lines":2}`, "lines holding a phrase, with 2 lines around each"},
		{`{"query":"parse config","file_pattern":"src/**/*.rs,!**/tests/**"}`, "only under src/, tests left out"},
		{`{"query":"content:/TODO|FIXME/ -path:**/vendor/**","target":"content"}`, "lines matching a regex, outside vendor/"},
	},
	"goto": {
		{`{"symbol":"Save","context_file":"internal/store/db.go"}`, "the definition that file sees first"},
	},
}

// Capabilities is what this Quarry can do, for an agent to read instead of help text.
type Capabilities struct {
	AgentVersion string          `json:"agent_version"`
	Operations   []OperationInfo `json:"operations"`
	Languages    []string        `json:"languages" jsonschema:"canonical language names (aliases are accepted too)"`
	Targets      []string        `json:"targets"`
	Kinds        []string        `json:"kinds" jsonschema:"symbol kinds, for the kind filter"`
	ErrorCodes   []Code          `json:"error_codes"`
	Transports   []string        `json:"transports"`
	Limits       Limits          `json:"limits"`
	FilePattern  string          `json:"file_pattern" jsonschema:"the glob syntax of file_pattern"`
}

// OperationInfo names an operation and what it does.
type OperationInfo struct {
	Name    string `json:"name"`
	Tool    string `json:"tool,omitempty"`
	Summary string `json:"summary"`
}

// Limits are the bounds of requests.
type Limits struct {
	DefaultLimit int `json:"default_limit"`
	MaxLimit     int `json:"max_limit"`
	MaxContext   int `json:"max_context_lines"`
	MaxQuery     int `json:"max_query_bytes"`
}

// Transports this build serves.
var Transports = []string{"cli"}

// GetCapabilities returns the capabilities document.
func GetCapabilities() (*Capabilities, error) {
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	c := &Capabilities{AgentVersion: AgentVersion, Languages: reg.Names(), Kinds: extract.Kinds(), ErrorCodes: Codes,
		Transports: Transports, Limits: Limits{DefaultLimit: DefaultLimit, MaxLimit: MaxLimit, MaxContext: MaxContext, MaxQuery: MaxQueryBytes},
		FilePattern: "globs separated by commas; * (not /), ** (any depth), ?, [abc], {a,b}; a glob without / matches the file name at any depth; !glob excludes"}
	for _, t := range search.Targets {
		c.Targets = append(c.Targets, string(t))
	}
	for _, op := range Operations {
		c.Operations = append(c.Operations, OperationInfo{Name: op.Name, Tool: op.Tool, Summary: op.Summary})
	}
	return c, nil
}
