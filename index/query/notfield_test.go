package query

import (
	"slices"
	"testing"
)

func TestNotFields(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"colour:red", []string{"colour"}},
		{"parse colour:red weight:big", []string{"colour", "weight"}},
		{"kind:function colour:red", []string{"colour"}},
		{"-colour:red", []string{"colour"}},
		{`"colour:red"`, nil},
		{"TODO: fix", nil},
		{"Note:x", nil},
		{"std::io", nil},
		{"http://example.com", nil},
		{"a:b", nil},
		{"kind:function name:parse", nil},
	} {
		n, err := ParseExpr(tt.in, Options{})
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tt.in, err)
			continue
		}
		if got := NotFields(n); !slices.Equal(got, tt.want) {
			t.Errorf("NotFields(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
