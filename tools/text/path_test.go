package text

import "testing"

func TestTextPath(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a/b.go", "a/b.go"},
		{"dir with space/ü.go", "dir with space/ü.go"},
		{"we\nird.go", `"we\nird.go"`},
		{"tab\there.go", `"tab\there.go"`},
		{"cr\r.go", `"cr\r.go"`},
		{"esc\x1b[31m.go", `"esc\x1b[31m.go"`},
		{"bad\xff.go", `"bad\xff.go"`},
		{`"quoted".go`, `"\"quoted\".go"`},
	} {
		if got := Path(tt.in); got != tt.want {
			t.Errorf("Path(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
