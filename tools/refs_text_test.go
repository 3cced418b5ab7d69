package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefsByNameCountsTextOnly: refs of a name defined nowhere lists its uses by name and
// says how many lines hold the name only as text (a comment, a string, a document), which
// it does not list.
func TestRefsByNameCountsTextOnly(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{
		"app.js":    "// libCall comes from the platform\nfunction run () {\n  libCall(1)\n  return libCall(2) + 'libCall'\n}\n",
		"notes.txt": "call libCall first\nlibCalls is another word\n",
	} {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Refs(context.Background(), RefsRequest{Symbol: "libCall"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 2 || r.Definition != nil {
		t.Errorf("refs libCall: total %d, definition %v; want 2 uses by name", r.Total, r.Definition)
	}
	// app.js:1 (a comment) and notes.txt:1; app.js:4's string is on a line with a use.
	if want := "; 2 more lines hold libCall only as text"; !strings.Contains(r.Notice, want) {
		t.Errorf("refs libCall notice %q, want it to hold %q", r.Notice, want)
	}
}
