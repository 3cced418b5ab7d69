package query

import (
	"errors"
	"slices"
	"strings"
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

// An empty range (its lower bound above its upper one, or both equal with one excluded) is
// an error with its position, where it used to answer an empty list.
func TestEmptyRangeErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"line:[100 TO 1]", "1:1: line:[100 TO 1]: the range is empty: 100 is above 1; put the lower bound first: line:[1 TO 100]"},
		{"x line:[10 TO 9]", "1:3: line:[10 TO 9]: the range is empty: 10 is above 9"}, // as numbers, not as text
		{"x line:{5 TO 5}", "1:3: line:{5 TO 5}: the range is empty: both bounds are 5 and one is excluded"},
		{"x line:[5 TO 5}", "the range is empty"},
		{"name:[z TO a]", "1:1: name:[z TO a]: the range is empty: z is above a"},
		{"name:[B TO a]", "the range is empty"}, // names compare in lower case
		{"line:[5 TO 5]", ""},
		{"line:[9 TO 10]", ""},
		{"line:[100 TO *]", ""},
		{"line:{* TO 1}", ""},
		{"name:[a TO B]", ""},
	} {
		_, err := ParseExpr(tt.in, Options{})
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParseExpr(%q): %v, want no error", tt.in, err)
			}
			continue
		}
		var qe *Error
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseExpr(%q) error = %v, want a *Error with %q", tt.in, err, tt.want)
		}
	}
}
