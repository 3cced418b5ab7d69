package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/codemodel"
)

func TestRunCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fixturePairs := filepath.Join(dir, "fixture.jsonl")
	var out bytes.Buffer
	if err := run(ctx, []string{"pairs", "-src", writeTree(t, fixture), "-out", fixturePairs}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "4 pairs, 1 duplicates dropped") || !strings.Contains(out.String(), "python       1") {
		t.Errorf("pairs printed:\n%s", out.String())
	}
	synth := filepath.Join(dir, "synth.jsonl")
	if err := writePairs(synth, synthPairs(400, 50)); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "model")
	out.Reset()
	args := []string{"fit", "-pairs", fixturePairs + "," + synth, "-out", model, "-dim", "16", "-epochs", "1", "-batch", "64", "-min-count", "1"}
	if err := run(ctx, args, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "404 pairs") || !strings.Contains(out.String(), "epoch 1 ") {
		t.Errorf("fit printed:\n%s", out.String())
	}
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := codemodel.Decode(data); err != nil || m.Dim() != 16 {
		t.Errorf("Decode(the model written) = %v, %v", m, err)
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"pairs"}, {"fit", "-pairs", "x"}, {"fit", "-bogus"}, {"fit", "-pairs", "x", "-out", "y", "-pool", "max"}} {
		if err := run(context.Background(), args, &bytes.Buffer{}); !errors.As(err, new(usageError)) {
			t.Errorf("run(%q) = %v, want a usage error", args, err)
		}
	}
}
