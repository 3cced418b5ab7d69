package text

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// gotoOrderFiles is a workspace where a name is a class in code, a test's class, a README
// heading and a config key (Flask), and where a package shares a method's name but for
// case (render, Render).
var gotoOrderFiles = map[string]string{
	"README.md":            "# Flask\n\nFlask is a lightweight web application framework.\n",
	"pyproject.toml":       "[project]\nname = \"Flask\"\n\n[project.scripts]\nflask = \"flask.cli:main\"\n",
	"src/flask/app.py":     "class Flask:\n    \"\"\"The flask object implements a WSGI application.\"\"\"\n\n    def run(self):\n        pass\n",
	"tests/test_config.py": "import flask\n\n\ndef test_subclass():\n    class Flask(flask.Flask):\n        pass\n",
	"go.mod":               "module example.com/web\n",
	"context.go":           "package web\n\n// Context carries a request.\ntype Context struct{}\n\n// Render writes a response.\nfunc (c *Context) Render(code int) {}\n",
	"render/render.go":     "package render\n\n// Render writes a body.\ntype Render interface {\n\tRender() error\n}\n",
	"render/json.go":       "package render\n\n// JSON renders JSON.\ntype JSON struct{}\n\n// Render writes JSON.\nfunc (r JSON) Render() error { return nil }\n",
	"render/text.go":       "package render\n\n// Text renders text.\ntype Text struct{}\n\n// Render writes text.\nfunc (r Text) Render() error { return nil }\n",
	"render/xml.go":        "package render\n\n// XML renders XML.\ntype XML struct{}\n\n// Render writes XML.\nfunc (r XML) Render() error { return nil }\n",
	"render/yaml.go":       "package render\n\n// YAML renders YAML.\ntype YAML struct{}\n",
	"render/protobuf.go":   "package render\n\n// Protobuf renders protocol buffers.\ntype Protobuf struct{}\n",
}

// TestGotoOrder: goto lists definitions in code before a heading or a config key of the
// name, only the name as written where there is one (the others but for case are left out
// with a notice; with a context file too, whose directory holds the case-folded ones), and
// in the order of its scores.
func TestGotoOrder(t *testing.T) {
	root := t.TempDir()
	testkit.WriteFiles(t, root, gotoOrderFiles)
	s := indexedService(t, root)
	ctx := context.Background()
	where := func(hits []tools.Hit) string {
		var out []string
		for _, h := range hits {
			out = append(out, fmt.Sprintf("%s:%d %s %s", h.Path, h.Line, h.Kind, h.Name))
		}
		return strings.Join(out, "\n  ")
	}
	outOfCode := func(h tools.Hit) bool { return h.Language == "markdown" || h.Language == "toml" }

	res, err := s.Goto(ctx, tools.GotoRequest{Symbol: "Flask"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) < 3 || res.Results[0].Path != "src/flask/app.py" {
		t.Fatalf("goto Flask: want class Flask of src/flask/app.py first, then the test's, then README.md; got\n  %s", where(res.Results))
	}
	// pyproject.toml's key flask is Flask but for case: left out, and the notice says so
	// (issue 41 g: goto Console is not 45 console variables)
	for _, h := range res.Results {
		if h.Name != "Flask" {
			t.Errorf("goto Flask: %s:%d %s is listed beside the exact Flask definitions", h.Path, h.Line, h.Name)
		}
	}
	if !strings.Contains(res.Notice, "1 more definition is named so but for case or separators (flask)") {
		t.Errorf("goto Flask: notice %q, want one saying the case-folded flask is left out", res.Notice)
	}
	for i := 1; i < len(res.Results); i++ {
		if outOfCode(res.Results[i-1]) && !outOfCode(res.Results[i]) {
			t.Errorf("goto Flask: %s (docs or config) before %s (code):\n  %s", res.Results[i-1].Path, res.Results[i].Path, where(res.Results))
		}
		if res.Results[i].Score > res.Results[i-1].Score {
			t.Errorf("goto Flask: %s:%d (score %.4g) listed after %s:%d (score %.4g)", res.Results[i].Path, res.Results[i].Line, res.Results[i].Score,
				res.Results[i-1].Path, res.Results[i-1].Line, res.Results[i-1].Score)
		}
	}

	limit := 50
	for _, ctxFile := range []string{"", "render/json.go", "context.go"} {
		res, err := s.Goto(ctx, tools.GotoRequest{Symbol: "Render", ContextFile: ctxFile, Limit: &limit})
		if err != nil {
			t.Fatal(err)
		}
		folded := false
		exact := 0
		for _, h := range res.Results {
			switch {
			case h.Name == "Render" && folded:
				t.Errorf("goto Render (context file %q): %s:%d %s Render after a definition named render:\n  %s", ctxFile, h.Path, h.Line, h.Kind, where(res.Results))
			case h.Name == "Render":
				exact++
			default:
				folded = true
			}
		}
		if exact != 6 {
			t.Errorf("goto Render (context file %q): %d definitions named Render, want 6:\n  %s", ctxFile, exact, where(res.Results))
		}
	}
}
