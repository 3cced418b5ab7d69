package batch

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics, that its positions lie in the text, and that
// each statement's Text parses back to the same statement.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, tt := range errorTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := Parse(text)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) error %v is not an *Error", text, err)
			}
			checkPos(t, text, e.Pos, true)
			return
		}
		if len(b.Statements) == 0 || len(b.Statements) > MaxStatements {
			t.Fatalf("Parse(%q) = %d statements", text, len(b.Statements))
		}
		for _, st := range b.Statements {
			checkStatementPos(t, text, st)
			again, err := Parse(st.Text)
			if err != nil || len(again.Statements) != 1 {
				t.Fatalf("Parse(%q) of the statement text of %q = %v, %v", st.Text, text, again, err)
			}
			if got, want := relative(again.Statements[0]), relative(st); !reflect.DeepEqual(got, want) {
				t.Fatalf("Parse(%q) = %+v, want %+v (from %q)", st.Text, got, want, text)
			}
		}
	})
}

// relative returns st with its offsets counted from its start and no lines or columns.
func relative(st Statement) Statement {
	base := st.Pos.Offset
	rel := func(p *Pos) {
		if *p != (Pos{}) {
			*p = Pos{Offset: p.Offset - base}
		}
	}
	rel(&st.Pos)
	st.Params = append([]Param(nil), st.Params...)
	for i := range st.Params {
		rel(&st.Params[i].KeyPos)
		rel(&st.Params[i].OpPos)
		rel(&st.Params[i].ValuePos)
	}
	st.Fields = append([]Field(nil), st.Fields...)
	for i := range st.Fields {
		rel(&st.Fields[i].Pos)
	}
	return st
}
