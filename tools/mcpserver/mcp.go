package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/batchrun"
	"github.com/quarrysearch/quarry/tools/httpguard"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

// The MCP server: one tool per operation of Operations that has a Tool name, each
// dispatching through Service.Call, so the MCP tools, the CLI and Go callers run the same
// code on the same types. Arguments reach Call as raw JSON: Quarry decodes them itself,
// strictly, so an unknown parameter is an UNKNOWN_FIELD error with a did-you-mean rather
// than silently ignored. A success carries the result as structured content (the JSON the
// CLI prints with --json) and a compact text rendering; a failure carries the contract's
// envelope, with IsError set.

// URIs of the MCP resources.
const (
	// CapabilitiesURI holds the capabilities document.
	CapabilitiesURI = "quarry://capabilities"
	// BatchLanguageURI holds the batch language, what the batch statement schema() answers.
	BatchLanguageURI = "quarry://batch-language"
	// SchemaURITemplate holds the contract's JSON Schemas, one per name of Schemas.
	SchemaURITemplate = "quarry://schema/{name}"
)

// mcpResource is a document the MCP server offers, read when an agent needs it rather than
// paid for before its first call. A template's doc takes the name its URI ends with.
type mcpResource struct {
	URI, Name, Description string
	Template               bool
	doc                    func(name string) (any, error)
}

// mcpResources are the MCP server's resources; the instructions list them.
var mcpResources = []mcpResource{
	{URI: tools.QueryLanguageURI, Name: "query-language",
		Description: "fast_search's query language: fields (names, aliases, types, values), operators, rules, query documents, examples",
		doc:         func(string) (any, error) { return tools.QueryLanguage() }},
	{URI: BatchLanguageURI, Name: "batch-language",
		Description: "the batch tool's language: operations, parameters and the operators each accepts, fields, presets, formats, examples",
		doc:         func(string) (any, error) { return batchrun.BatchSchema(), nil }},
	{URI: CapabilitiesURI, Name: "capabilities",
		Description: "languages, symbol kinds, targets, limits, error codes, file_pattern syntax, operations",
		doc:         func(string) (any, error) { return tools.GetCapabilities() }},
	{URI: SchemaURITemplate, Name: "schema", Template: true,
		Description: "the JSON Schema of an operation's request or result (the structured content), or of a failure: name search.result, goto.request, error, ...",
		doc:         schemaDoc},
}

// callFunc runs an operation by name with its JSON arguments; Service.Call is one.
type callFunc func(ctx context.Context, op string, args json.RawMessage) (any, error)

// NewMCPServer returns an MCP server offering the operations of svc as tools, with
// instructions and tool descriptions generated from the contract, and the capabilities
// document and the query language document as resources. version is Quarry's release
// version. It panics if the contract cannot be described (a type without a schema): a
// programmer error.
func NewMCPServer(svc *tools.Service, version string) *mcp.Server {
	return newMCPServer(svc.Call, version, svc.AnswerForm)
}

// The forms of a tool's result (quarry mcp --answer-form). An MCP client reads the
// structured content or the text: most agents' hosts show the model the text; a program
// reads the structured content. Both is the default, as the MCP spec recommends; a client
// that reads one form is sent that one alone (the text is a third to a half of the
// answer).
const (
	AnswerBoth       = "both"       // structured content and its compact text (Render)
	AnswerText       = "text"       // the compact text alone
	AnswerStructured = "structured" // the structured content alone (content is empty)
)

// AnswerForms lists the forms of a tool's result, the default first.
var AnswerForms = []string{AnswerBoth, AnswerText, AnswerStructured}

// CheckAnswerForm returns an error saying what is accepted when form is not one of
// AnswerForms ("" is the default).
func CheckAnswerForm(form string) error {
	if form == "" || slices.Contains(AnswerForms, form) {
		return nil
	}
	return fmt.Errorf("answer form %q: want one of %s", form, strings.Join(AnswerForms, ", "))
}

func newMCPServer(call callFunc, version, form string) *mcp.Server {
	caps, err := tools.GetCapabilities()
	if err != nil {
		panic(fmt.Errorf("tools: MCP server: %w", err))
	}
	instructions, err := Instructions(caps)
	if err != nil {
		panic(fmt.Errorf("tools: MCP server: %w", err))
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "quarry", Title: "Quarry code search", Version: version},
		&mcp.ServerOptions{Instructions: instructions})
	for _, op := range tools.Operations {
		if op.Tool == "" {
			continue
		}
		tool, err := MCPTool(op, caps)
		if err != nil {
			panic(fmt.Errorf("tools: MCP server: %w", err))
		}
		srv.AddTool(tool, toolHandler(op, call, form))
	}
	for _, r := range mcpResources {
		if r.Template {
			srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: r.URI, Name: r.Name, MIMEType: "application/json", Description: r.Description}, readResource(r))
			continue
		}
		srv.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, MIMEType: "application/json", Description: r.Description}, readResource(r))
	}
	return srv
}

// MCPTool returns the MCP tool of op: its description generated from the contract and its
// input schema the schema of op's request, without the identifiers a client does not need.
// It declares no output schema: the spec makes it optional, and the schemas of the
// results, which the structured content follows, would be most of what a client reads
// before its first call; they are the resource SchemaURITemplate.
func MCPTool(op tools.Operation, caps *tools.Capabilities) (*mcp.Tool, error) {
	in, err := tools.SchemaFor(op.Name+".request", op.Request)
	if err != nil {
		return nil, err
	}
	in.Schema, in.ID, in.Title = "", "", ""
	delete(in.Extra, "version")
	desc, err := ToolDescription(op, caps)
	if err != nil {
		return nil, err
	}
	return &mcp.Tool{Name: op.Tool, Description: desc, InputSchema: in}, nil
}

// toolHandler runs op through call: the result, or the failure envelope. A panic is an
// INTERNAL failure, never the end of the server.
func toolHandler(op tools.Operation, call callFunc, form string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = failure(tools.Errorf(tools.CodeInternal, "", "%s failed: internal error: %v", op.Tool, r), form), nil
			}
		}()
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		out, err := call(ctx, op.Name, args)
		if err != nil {
			return failure(err, form), nil
		}
		return success(out, form)
	}
}

// success is the tool result of out in form: structured, as compact text, or both (a
// batch: its text alone, in the format it asked for, whatever the form).
func success(out any, form string) (*mcp.CallToolResult, error) {
	if a, ok := out.(*batchrun.BatchAnswer); ok {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text()}}}, nil
	}
	if form == AnswerStructured {
		return &mcp.CallToolResult{StructuredContent: out, Content: []mcp.Content{}}, nil
	}
	text, err := qtext.Render(out)
	if err != nil {
		return failure(err, form), nil
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if form != AnswerText {
		res.StructuredContent = out
	}
	return res, nil
}

// failure is the tool result of err: the envelope, structured and as JSON text; in form
// text or structured, that one alone.
func failure(err error, form string) *mcp.CallToolResult {
	env := tools.Fail(err)
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{}}
	if form != AnswerText {
		res.StructuredContent = env
	}
	if form != AnswerStructured {
		b, jerr := json.Marshal(env)
		if jerr != nil {
			b = []byte(fmt.Sprintf(`{"ok":false,"error":{"code":%q,"message":%q}}`, tools.CodeInternal, jerr.Error()))
		}
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
	}
	return res
}

// readResource reads r: its document as indented JSON.
func readResource(r mcpResource) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := r.URI
		if req != nil && req.Params != nil {
			uri = req.Params.URI
		}
		name := ""
		if r.Template {
			name = strings.TrimPrefix(uri, strings.TrimSuffix(r.URI, "{name}"))
		}
		doc, err := r.doc(name)
		if err != nil {
			return nil, err
		}
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
	}
}

// schemaDoc is the schema called name, or the protocol's resource-not-found error listing
// the names there are.
func schemaDoc(name string) (any, error) {
	all, err := tools.Schemas()
	if err != nil {
		return nil, err
	}
	if s, ok := all[name]; ok {
		return s, nil
	}
	names, err := tools.SchemaNames()
	if err != nil {
		return nil, err
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeResourceNotFound,
		Message: fmt.Sprintf("no schema %q; schemas: %s", name, strings.Join(names, ", ")),
		Data:    json.RawMessage(fmt.Sprintf(`{"uri":%q}`, strings.TrimSuffix(SchemaURITemplate, "{name}")+name))}
}

// ServeMCP serves srv over newline-delimited JSON-RPC on in and out (standard input and
// output for a client that started this process) until in ends or ctx is done. A malformed
// line is answered with a JSON-RPC error, and the next line is served (lineTransport).
func ServeMCP(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer) error {
	err := srv.Run(ctx, &lineTransport{in: in, out: out})
	if err == io.EOF || ctx.Err() != nil {
		return nil
	}
	return err
}

// MCPHandler returns the streamable HTTP handler of srv. It answers a request with one JSON
// body (the spec's application/json response) rather than an event stream: 1.0 ms instead
// of 2.2 ms of overhead a call, measured against fast_search's own time on corpus.sh full;
// Quarry sends no notification while it answers. It refuses, with 403, a request for
// another host than the one it listens on or a loopback name, and a cross-origin one (an
// Origin other than its own or loopback): a web page the user visits must not reach a
// local server (HTTPAccess.Guard; a server listening on a name the user gave wraps it in
// its own HTTPAccess's Guard).
func MCPHandler(srv *mcp.Server) http.Handler {
	h := checkMessages(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: true}))
	return httpguard.HTTPAccess{}.Guard(h)
}

// NewHTTPMCPServer is NewMCPServer for clients over HTTP: its tools run as a lets them
// (HTTPAccess.Call).
func NewHTTPMCPServer(svc *tools.Service, version string, a httpguard.HTTPAccess) *mcp.Server {
	return newMCPServer(a.Call(svc), version, svc.AnswerForm)
}
