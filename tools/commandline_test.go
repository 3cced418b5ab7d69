package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// validResult checks a result against the schema of op's result.
func validResult(t *testing.T, op string, res any) {
	t.Helper()
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(op+".result", data); err != nil {
		t.Errorf("%s result does not validate: %v\n%s", op, err, data)
	}
}

// TestCommandLineOperations runs the operations only the command line has: index, health,
// outline and tokens.
func TestCommandLineOperations(t *testing.T) {
	s := testWorkspace(t)
	ctx := context.Background()
	res, err := s.IndexOperation(ctx, IndexRequest{})
	if err != nil || res.Operation != "index" || len(res.Indexed) != 1 {
		t.Fatalf("IndexOperation: %+v, %v", res, err)
	}
	if rep := res.Indexed[0]; rep.Files != 2 || rep.Counts.Files != 2 || rep.Symbols != rep.Counts.Symbols || rep.Fulltext == "" {
		t.Fatalf("IndexOperation's report: %+v", rep)
	}
	validResult(t, "index", res)
	hres, err := s.HealthOperation(ctx, HealthRequest{})
	if err != nil || hres.Operation != "health" || hres.Health == nil || hres.Health.Status != "healthy" {
		t.Errorf("HealthOperation: %+v, %v", hres, err)
	}
	validResult(t, "health", hres)
	out, err := s.Outline(ctx, OutlineRequest{File: filepath.Join(s.Root(), "pool.py"), Kind: []string{"method"}})
	if err != nil || out.Language != "python" || len(out.Results) != 1 || out.Results[0].Name != "acquire" || out.Results[0].Depth != 2 || out.Results[0].StartLine != 2 {
		t.Errorf("Outline pool.py --kind method: %+v, %v", out, err)
	}
	validResult(t, "outline", out)
	toks, err := s.Tokens(ctx, TokensRequest{Text: "get_user_data", Query: true})
	var texts []string
	for _, tok := range toks {
		texts = append(texts, tok.Text)
	}
	if err != nil || !slices.Equal(texts, []string{"get", "user", "data"}) || toks[1].Kind != "part" || toks[1].Start != 4 || toks[1].End != 8 {
		t.Errorf("Tokens(get_user_data, query) = %+v, %v", toks, err)
	}
	validResult(t, "tokens", toks)

	tests := []struct {
		name       string
		run        func() error
		code       Code
		path, want string
	}{
		{"index max_size", func() error { _, err := s.Index(ctx, IndexRequest{MaxSize: -1}); return err }, CodeBadValue, "max_size", "max_size -1"},
		{"index max_source_size", func() error { _, err := s.Index(ctx, IndexRequest{MaxSourceSize: -1}); return err }, CodeBadValue, "max_source_size", "max_source_size -1"},
		{"index missing", func() error { _, err := s.Index(ctx, IndexRequest{Path: filepath.Join(s.Root(), "nope")}); return err }, CodeNotFound, "path", "does not exist"},
		{"health workspace", func() error { _, err := s.Health(ctx, HealthRequest{Workspace: "nope"}); return err }, CodeUnknownWorkspace, "workspace", "nope"},
		{"outline missing", func() error { _, err := s.Outline(ctx, OutlineRequest{File: "nope.go"}); return err }, CodeNotFound, "file", "no such file"},
		{"outline directory", func() error { _, err := s.Outline(ctx, OutlineRequest{File: s.Root()}); return err }, CodeBadValue, "file", "is a directory"},
		{"outline kind", func() error {
			_, err := s.Outline(ctx, OutlineRequest{File: filepath.Join(s.Root(), "pool.py"), Kind: []string{"klass"}})
			return err
		}, CodeBadValue, "kind", "did you mean class?"},
		{"outline language", func() error {
			_, err := s.Outline(ctx, OutlineRequest{File: filepath.Join(s.Root(), "pool.py"), Language: "cobol"})
			return err
		}, CodeBadValue, "language", `unknown language "cobol"`},
		{"outline depth", func() error { _, err := s.Outline(ctx, OutlineRequest{File: "x.go", Depth: -1}); return err }, CodeBadValue, "depth", "depth -1"},
		{"tokens language", func() error { _, err := s.Tokens(ctx, TokensRequest{Text: "x", Language: "cobol"}); return err }, CodeBadValue, "language", "known languages"},
	}
	for _, tt := range tests {
		err := tt.run()
		if err == nil {
			t.Errorf("%s: no error, want %s", tt.name, tt.code)
			continue
		}
		e := AsError(err)
		if e.Code != tt.code || e.Path != tt.path || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s: %s at %q: %s; want %s at %q with %q", tt.name, e.Code, e.Path, e.Message, tt.code, tt.path, tt.want)
		}
	}
}
