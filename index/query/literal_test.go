package query

import "testing"

func TestRegexNeed(t *testing.T) {
	tests := []struct {
		re   string
		fold bool
		want string
	}{
		{`func \(\w+ \*Server\) \w+\(`, false, `AND(*"func (" " *Server) " "(")`},
		{`class \w+(Exception|Error)\b`, false, `AND(*"class " OR(*"Exception" *"Error"))`},
		{`TODO|FIXME`, false, `OR(*"TODO"* *"FIXME"*)`},
		{`\bTODO\b`, false, `"TODO"`},
		{`^Get[A-Z]`, false, `"Get"*`},
		{`a*`, false, `ANY`},
		{`(ab)+c`, false, `AND(*"ab"* *"c"*)`},
		{`todo`, true, `*"todo"*i`},
		{`x?y`, false, `*"y"*`},
		{`(foo|\w+)bar`, false, `*"bar"*`},
	}
	for _, tt := range tests {
		if got := RegexNeed(tt.re, tt.fold).String(); got != tt.want {
			t.Errorf("RegexNeed(%q) = %s, want %s", tt.re, got, tt.want)
		}
	}
}

func TestNeedCover(t *testing.T) {
	tests := []struct{ re, want string }{
		{`func \(\w+ \*Server\) \w+\(`, `" *Server) "`},
		{`TODO|FIXME`, `*"TODO"* *"FIXME"*`},
		{`class \w+(Exception|Error)\b`, `*"class "`},
		{`\w+`, ``},
	}
	for _, tt := range tests {
		var got string
		for i, l := range RegexNeed(tt.re, false).Cover() {
			if i > 0 {
				got += " "
			}
			got += l.String()
		}
		if got != tt.want {
			t.Errorf("cover of %q = %s, want %s", tt.re, got, tt.want)
		}
	}
}
