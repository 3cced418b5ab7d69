package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/batchrun"
)

// maxParamDoc bounds a request field's description: a parameter's documentation is one
// short line; what takes longer to say belongs in a resource.
const maxParamDoc = 200

// TestMCPBudget: what a client reads before its first call, the tools/list result and the
// instructions, stays under MCPBudget bytes (it was 61,766 + 11,204), and tools/list
// carries no output schema and no schema identifiers.
func TestMCPBudget(t *testing.T) {
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	ins := cs.InitializeResult().Instructions
	if n := len(b) + len(ins); n >= MCPBudget {
		t.Errorf("tools/list is %d bytes and the instructions %d: %d in all, want under %d", len(b), len(ins), n, MCPBudget)
	}
	t.Logf("tools/list %d bytes, instructions %d bytes", len(b), len(ins))
	for _, tool := range res.Tools {
		if tool.OutputSchema != nil {
			t.Errorf("tool %s declares an output schema; the schemas of results are the resource %s", tool.Name, SchemaURITemplate)
		}
		in, _ := tool.InputSchema.(map[string]any)
		for _, k := range []string{"$id", "$schema", "title", "version"} {
			if in[k] != nil {
				t.Errorf("tool %s: the input schema has %s %v", tool.Name, k, in[k])
			}
		}
	}
}

// TestMCPParamDocs: each tool's input schema describes every field of its request with
// the field's jsonschema tag (the schemas, the CLI's flag help and the tools say the same),
// in one short line; the documented values are the contract's.
func TestMCPParamDocs(t *testing.T) {
	caps, err := tools.GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range tools.Operations {
		if op.Tool == "" {
			continue
		}
		tool, err := MCPTool(op, caps)
		if err != nil {
			t.Fatal(err)
		}
		in := tool.InputSchema.(*jsonschema.Schema)
		for _, f := range tools.RequestFields(op.Request) {
			doc := in.Properties[f].Description
			if doc == "" || doc != tools.FieldDoc(op.Name, f) {
				t.Errorf("%s: parameter %s is described %q, want its tag %q", op.Tool, f, doc, tools.FieldDoc(op.Name, f))
			}
			if len(doc) > maxParamDoc {
				t.Errorf("%s: the description of %s is %d bytes, want at most %d: %s", op.Tool, f, len(doc), maxParamDoc, doc)
			}
		}
	}
}

// TestMCPTargetDoc: the target parameter names every search target there is.
func TestMCPTargetDoc(t *testing.T) {
	doc := tools.FieldDoc("search", "target")
	for _, target := range tools.Targets() {
		if !strings.Contains(doc, target) {
			t.Errorf("search's target is described %q, which lacks the target %s", doc, target)
		}
	}
}

// TestMCPResources: every resource the instructions list is served, each the document
// its Go function returns: the batch language is what schema() answers, a schema is the
// contract's, and an unknown schema name is an error naming those there are.
func TestMCPResources(t *testing.T) {
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	ins := cs.InitializeResult().Instructions
	for _, r := range mcpResources {
		if !strings.Contains(ins, r.URI+": ") {
			t.Errorf("the instructions do not list the resource %s", r.URI)
		}
	}
	all, err := tools.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	ql, err := tools.QueryLanguage()
	if err != nil {
		t.Fatal(err)
	}
	caps, err := tools.GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	for uri, want := range map[string]any{
		tools.QueryLanguageURI:          ql,
		BatchLanguageURI:                batchrun.BatchSchema(),
		CapabilitiesURI:                 caps,
		"quarry://schema/search.result": all["search.result"],
		"quarry://schema/error":         all["error"],
		"quarry://schema/goto.request":  all["goto.request"],
	} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" || res.Contents[0].URI != uri {
			t.Errorf("read %s: %v, %+v", uri, err, res)
			continue
		}
		var got any
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &got); err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if !reflect.DeepEqual(got, generic(t, want)) {
			t.Errorf("read %s: the document differs from its source", uri)
		}
	}
	_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "quarry://schema/serch.result"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != mcp.CodeResourceNotFound || !strings.Contains(werr.Message, "search.result") {
		t.Errorf("read quarry://schema/serch.result: %v, want resource not found naming the schemas", err)
	}
}

// TestMCPDescriptionsPoint: a tool that takes a language points to the resource holding
// it, and the batch tool names every operation of the batch language's registry.
func TestMCPDescriptionsPoint(t *testing.T) {
	caps, err := tools.GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range tools.Operations {
		if op.Tool == "" {
			continue
		}
		desc, err := ToolDescription(op, caps)
		if err != nil {
			t.Fatal(err)
		}
		if takesQuery(op) && !strings.Contains(desc, tools.QueryLanguageURI) {
			t.Errorf("%s takes a query but its description does not point to %s", op.Tool, tools.QueryLanguageURI)
		}
		if op.Name != "batch" {
			continue
		}
		if !strings.Contains(desc, BatchLanguageURI) {
			t.Errorf("batch's description does not point to %s", BatchLanguageURI)
		}
		for _, o := range batchrun.BatchSchema().Operations {
			if !slices.Contains(strings.FieldsFunc(desc, func(r rune) bool { return r == ' ' || r == ',' || r == '.' }), o.Name) {
				t.Errorf("batch's description does not name the operation %s", o.Name)
			}
		}
	}
}
