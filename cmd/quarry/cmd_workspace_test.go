package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

// agentAnswer runs a manage_workspace operation as an agent does and returns its JSON.
func agentAnswer(t *testing.T, root, args string) []byte {
	t.Helper()
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	res, err := svc.Call(context.Background(), "manage_workspace", json.RawMessage(args))
	if err != nil {
		t.Fatalf("manage_workspace %s: %v", args, err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// cliJSON runs quarry --root root args... and returns its JSON output, checked against schema.
func cliJSON(t *testing.T, root, schema string, args ...string) []byte {
	t.Helper()
	code, out, errOut := quarry(t, "", append([]string{"--root", root}, args...)...)
	if code != exitOK {
		t.Fatalf("quarry %v: exit %d: %s", args, code, errOut)
	}
	if err := tools.Validate(schema, []byte(out)); err != nil {
		t.Errorf("quarry %v: the answer does not validate against %s: %v\n%s", args, schema, err, out)
	}
	return []byte(out)
}

// TestWorkspaceJSONIsTheAgentAnswer checks that quarry index, health and workspace print,
// with --json, what the agent's manage_workspace answers.
func TestWorkspaceJSONIsTheAgentAnswer(t *testing.T) {
	root := searchRoot(t)
	if code, _, errOut := quarry(t, "", "--root", root, "index"); code != exitOK { // the runs compared below find nothing changed
		t.Fatalf("quarry index: exit %d: %s", code, errOut)
	}
	for _, op := range []struct{ args, cli, schema string }{
		{`{"operation":"index"}`, "index --json", "index.result"},
		{`{"operation":"list"}`, "workspace list --json", "workspace.result"},
		{`{"operation":"stats"}`, "workspace stats --json", "workspace.result"},
		{`{"operation":"health"}`, "health --json", "health.result"},
	} {
		got := withoutElapsed(t, cliJSON(t, root, op.schema, strings.Fields(op.cli)...))
		want := withoutElapsed(t, agentAnswer(t, root, op.args))
		for _, m := range []map[string]any{got, want} {
			if h, ok := m["health"].(map[string]any); ok { // sizes on disk may move between two reads
				m["health"] = h["status"]
			}
			if ix, ok := m["indexed"].([]any); ok && len(ix) == 1 { // each run times itself
				delete(ix[0].(map[string]any), "elapsed_ms")
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("quarry %s = %v\nmanage_workspace %s = %v", op.cli, got, op.args, want)
		}
	}
	if got := withoutElapsed(t, cliJSON(t, root, "health.result", "health", "--json")); got["health"].(map[string]any)["status"] != "healthy" {
		t.Errorf("quarry health --json = %v, want a healthy report", got)
	}
}

func TestWorkspaceRemove(t *testing.T) {
	root := searchRoot(t)
	ref, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, ref, map[string]string{"lib.py": "def helper():\n    pass\n"})
	var add tools.WorkspaceResult
	json.Unmarshal(cliJSON(t, root, "workspace.result", "workspace", "add", ref, "--json"), &add)
	if len(add.Workspaces) != 1 || len(add.Indexed) != 1 || add.Indexed[0].Files != 1 {
		t.Fatalf("workspace add --json: %+v", add)
	}
	id := add.Workspaces[0].ID
	dir := filepath.Join(root, ".quarry", "indexes", id)
	code, out, _ := quarry(t, "", "--root", root, "workspace", "remove", id, "--keep-index")
	if _, err := os.Stat(dir); code != exitOK || err != nil || !strings.Contains(out, "kept") {
		t.Errorf("remove --keep-index: exit %d, %q, index directory: %v", code, out, err)
	}
	if code, out, _ := quarry(t, "", "--root", root, "workspace", "clean"); code != exitOK || !strings.Contains(out, id) {
		t.Errorf("clean after remove --keep-index: exit %d, %q", code, out)
	}
	quarry(t, "", "--root", root, "workspace", "add", ref)
	var rm tools.WorkspaceResult
	json.Unmarshal(cliJSON(t, root, "workspace.result", "workspace", "remove", id, "--json"), &rm)
	if _, err := os.Stat(dir); !os.IsNotExist(err) || len(rm.Removed) != 1 || rm.Removed[0] != id {
		t.Errorf("remove: %+v, index directory: %v", rm, err)
	}
	code, out, _ = quarry(t, "", "--root", root, "workspace", "remove", id, "--json")
	if code != exitUsage || tools.Validate("error", []byte(out)) != nil || !strings.Contains(out, "UNKNOWN_WORKSPACE") {
		t.Errorf("remove an unknown id --json: exit %d, %s", code, out)
	}
}
