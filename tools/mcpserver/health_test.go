package mcpserver

import (
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// manage_workspace health over MCP carries structured content, valid against the tool's
// output schema, as every other operation does.
func TestMCPHealthIsStructured(t *testing.T) {
	root := testkit.Workspace(t)
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	cs := connect(t, NewMCPServer(svc, "test"))
	callTool(t, cs, "manage_workspace", map[string]any{"operation": "index"})
	res := callTool(t, cs, "manage_workspace", map[string]any{"operation": "health"})
	if res.IsError {
		t.Fatalf("manage_workspace health: %s", resultText(res))
	}
	m, ok := generic(t, res.StructuredContent).(map[string]any)
	if !ok {
		t.Fatalf("manage_workspace health: structured content %v, want an object", res.StructuredContent)
	}
	if h, ok := m["health"].(map[string]any); !ok || h["status"] == nil {
		t.Errorf("manage_workspace health: structured content %v, want the health report", m)
	}
	checkOutput(t, "manage_workspace", res)
	// The text beside it is a compact rendering, as of the other tools, not a JSON copy.
	text := resultText(res)
	if strings.HasPrefix(text, "{") || !strings.Contains(text, "): healthy\n") || !strings.Contains(text, "store: 4 files") || !strings.HasSuffix(text, "health done") {
		t.Errorf("manage_workspace health: text %q, want the compact report", text)
	}
}
