package mcpserver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/httpguard"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// TestHTTPMCPServer: manage_workspace add over an HTTP MCP server follows its access; over
// NewMCPServer (standard input and output, the user's own agent) it adds.
func TestHTTPMCPServer(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{"a.go": "package a\n"})
	ctx := context.Background()
	add := &mcp.CallToolParams{Name: "manage_workspace", Arguments: map[string]any{"operation": "add", "path": dir}}
	res, err := connect(t, NewHTTPMCPServer(svc, "test", httpguard.HTTPAccess{})).CallTool(ctx, add)
	if err != nil || !res.IsError || !strings.Contains(resultText(res), `"code":"NOT_ALLOWED"`) {
		t.Errorf("add over HTTP with no root: %v %v", err, res)
	}
	res, err = connect(t, NewMCPServer(svc, "test")).CallTool(ctx, add)
	if err != nil || res.IsError {
		t.Errorf("add over standard input and output: %v %s", err, resultText(res))
	}
}
