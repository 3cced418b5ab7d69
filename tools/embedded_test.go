package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// embeddedRepo is a workspace whose definitions sit in other languages' files: a Vue
// component's script, an HTML page's script, Markdown code examples.
func embeddedRepo(t *testing.T) *Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"pkg/internal/net/rpc/client.go": "package rpc\n\n// Client talks to the server.\ntype Client struct{ addr string }\n\n// NewClient returns a client of addr.\nfunc NewClient(addr string) *Client { return &Client{addr: addr} }\n",
		"README.md":                      "# Client\n\nCreate one:\n\n```go\nfunc NewClient(addr string) *Client { return nil }\n```\n\n## Python\n\n```python\ndef retry_upload(path):\n    return path\n```\n",
		"web/UserCard.vue":               "<template>\n  <div id=\"card\">\n    <button @click=\"follow\">Follow</button>\n  </div>\n</template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue'\nconst following = ref(false)\n\nfunction follow(): void {\n  following.value = !following.value\n}\n</script>\n",
		"web/index.html":                 "<!DOCTYPE html>\n<html>\n<body>\n  <form id=\"checkout\"></form>\n  <script>\n    function submitCheckout(form) { return form.submit() }\n  </script>\n</body>\n</html>\n",
	}
	testkit.WriteFiles(t, root, files)
	return indexedService(t, root)
}

// TestEmbeddedDefinitions: definitions in embedded code are found by name, at their line in
// the host file, in the guest's language; an example ranks below the same definition in
// source.
func TestEmbeddedDefinitions(t *testing.T) {
	s := embeddedRepo(t)
	ctx := context.Background()
	for _, tc := range []struct {
		query, path, lang string
		line              int
	}{
		{"follow", "web/UserCard.vue", "typescript", 11},
		{"following", "web/UserCard.vue", "typescript", 9},
		{"submitCheckout", "web/index.html", "javascript", 6},
		{"checkout", "web/index.html", "html", 4},
		{"retry_upload", "README.md", "python", 12},
		{"UserCard", "web/UserCard.vue", "vue", 1},
	} {
		res, err := s.Search(ctx, SearchRequest{Query: tc.query, Target: "definitions"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 {
			t.Errorf("%s: no definition found", tc.query)
			continue
		}
		h := res.Results[0]
		if h.Name != tc.query || h.Path != tc.path || h.Language != tc.lang || h.Line != tc.line {
			t.Errorf("%s: first result %s %s:%d (%s), want %s:%d (%s)", tc.query, h.Name, h.Path, h.Line, h.Language, tc.path, tc.line, tc.lang)
		}
	}
	res, err := s.Search(ctx, SearchRequest{Query: "NewClient", Target: "definitions"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, h := range res.Results {
		if h.Name == "NewClient" {
			paths = append(paths, h.Path)
		}
	}
	if len(paths) != 2 || paths[0] != "pkg/internal/net/rpc/client.go" || paths[1] != "README.md" {
		t.Errorf("NewClient definitions in %v, want the source's before README.md's example", paths)
	}
}
