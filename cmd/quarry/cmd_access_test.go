package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAllowWorkspaceRootFlag: --allow-workspace-root names an existing directory, and goes
// with quarry mcp only over HTTP (an agent on standard input and output is the user's).
func TestAllowWorkspaceRootFlag(t *testing.T) {
	root := searchRoot(t)
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0", "--allow-workspace-root", missing}, "--allow-workspace-root " + missing},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--allow-workspace-root", filepath.Join(root, "server.go")}, "want a directory"},
		{[]string{"mcp", "--http", "127.0.0.1:0", "--allow-workspace-root", missing}, "no such directory"},
		{[]string{"mcp", "--allow-workspace-root", root}, "--allow-workspace-root goes with --http ADDR"},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", append([]string{"--root", root}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry %v: exit %d, %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
