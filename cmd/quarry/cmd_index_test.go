package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIndexHealthWorkspace(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{
		"main.go":             "package main\n\n// Serve serves.\nfunc Serve() {}\n",
		"node_modules/x/x.js": "function x() {}\n",
		".gitignore":          "gen/\n",
		"gen/out.go":          "package gen\n",
	})
	code, out, errOut := quarry(t, "", "index", root, "--json")
	if code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	var res struct {
		Indexed []struct {
			Added   int            `json:"added"`
			Skipped map[string]int `json:"skipped"`
			Counts  struct {
				Files, Symbols int
			} `json:"counts"`
			Samples []map[string]any `json:"skipped_samples"`
		} `json:"indexed"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Indexed) != 1 {
		t.Fatalf("index --json: %v in %q", err, out)
	}
	sum := res.Indexed[0]
	if sum.Added != 2 || sum.Counts.Files != 2 || sum.Counts.Symbols != 2 || sum.Skipped["builtin"] < 1 || sum.Skipped["ignored"] != 1 {
		t.Errorf("summary: %+v", sum)
	}
	for _, sample := range sum.Samples { // the contract's snake_case, as every other field
		if _, ok := sample["path"]; !ok || sample["reason"] == nil || len(sample) != 2 {
			t.Errorf("a skipped sample %v, want path and reason", sample)
		}
	}
	if len(sum.Samples) == 0 {
		t.Error("no skipped sample for node_modules and gen/")
	}
	if code, out, _ := quarry(t, "", "--root", root, "health"); code != exitOK || !strings.Contains(out, "healthy") {
		t.Errorf("health: exit %d\n%s", code, out)
	}
	time.Sleep(10 * time.Millisecond)
	writeFiles(t, root, map[string]string{"main.go": "package main\n"})
	code, out, _ = quarry(t, "", "--root", root, "health", "--json")
	if code != exitNotFound || !strings.Contains(out, `"modified": 1`) {
		t.Errorf("health after an edit: exit %d\n%s", code, out)
	}

	ref, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, ref, map[string]string{"lib.py": "def helper():\n    pass\n"})
	if code, out, errOut := quarry(t, "", "--root", root, "workspace", "add", ref, "--name", "lib"); code != exitOK || !strings.Contains(out, "1 files, 1 symbols") {
		t.Fatalf("workspace add: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = quarry(t, "", "--root", root, "workspace", "list")
	if code != exitOK || !strings.Contains(out, "(primary)") || !strings.Contains(out, "lib") {
		t.Errorf("workspace list:\n%s", out)
	}
	code, _, errOut = quarry(t, "", "--root", root, "workspace", "remove", "lbi")
	if code != exitUsage || !strings.Contains(errOut, "unknown workspace") {
		t.Errorf("remove unknown: exit %d %q", code, errOut)
	}
	if code, out, _ := quarry(t, "", "--root", root, "workspace", "stats", "lib"); code != exitOK || !strings.Contains(out, "python") {
		t.Errorf("workspace stats lib: exit %d\n%s", code, out)
	}
	os.MkdirAll(filepath.Join(root, ".quarry", "indexes", "orphan_00000000"), 0o755)
	if code, out, _ := quarry(t, "", "--root", root, "workspace", "clean"); code != exitOK || !strings.Contains(out, "orphan_00000000") {
		t.Errorf("workspace clean: exit %d\n%s", code, out)
	}
}

func TestIndexBadPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.go")
	os.WriteFile(file, []byte("package f"), 0o644)
	for _, args := range [][]string{{"index", filepath.Join(dir, "missing")}, {"index", file}, {"index", "--max-size", "0", dir}} {
		if code, _, errOut := quarry(t, "", args...); code != exitUsage {
			t.Errorf("quarry %q: exit %d, stderr %q", args, code, errOut)
		}
	}
}
