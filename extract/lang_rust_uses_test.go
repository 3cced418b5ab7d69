package extract

import (
	"fmt"
	"slices"
	"testing"
)

// rustUses lists the uses of name in f as "line:kind:qualifier".
func rustUses(f *File, name string) []string {
	var out []string
	for _, id := range f.Identifiers {
		if id.Name == name {
			out = append(out, fmt.Sprintf("%d:%s:%s", id.StartLine, id.Kind, id.Qualifier))
		}
	}
	return out
}

func TestRustValueAndPathUses(t *testing.T) {
	f := extractString(t, "parse.rs", `const PTR_BYTES: usize = 8;
const TAIL: usize = 8 * PTR_BYTES;
fn comparator(input: &str) -> Result<u8, Error> {
    let comparator = 1;
    let (major, rest) = numeric(input, Position::Major)?;
    if major > PTR_BYTES {
        return Err(Error::new(ErrorKind::Overflow(pos)));
    }
    match rest {
        ErrorKind::Empty => {}
        Some(x) if x > 1 => helper(x),
        _ => {}
    }
    let f = |y| y + TAIL;
    f(2);
    write!(out, "{}", self.major, ErrorKind::Overflow)?;
    Ok(comparator)
}
fn other(input: &str) {
    let (comparator, rest) = comparator(input);
    helper(comparator);
}
struct Buf { tail: [u8; TAIL], kind: crate::error::Kind }
`)
	cases := []struct {
		name string
		want []string
	}{
		{"PTR_BYTES", []string{"2:variable_ref:", "6:variable_ref:"}},
		{"TAIL", []string{"14:variable_ref:", "23:variable_ref:"}},
		// the locals are not uses; the call before the let binds its name is
		{"comparator", []string{"20:call:"}},
		{"Kind", []string{"23:type_usage:crate::error::"}},
		{"error", []string{"23:variable_ref:crate::"}},
		{"major", []string{"16:member_access:self"}},
		{"input", nil},
		{"x", nil},
		{"y", nil},
		{"f", nil},
		{"Error", []string{"3:type_usage:", "7:type_usage:"}},
		{"new", []string{"7:call:Error::"}},
		{"Overflow", []string{"7:call:ErrorKind::", "16:variable_ref:ErrorKind::"}},
		{"ErrorKind", []string{"7:type_usage:", "10:type_usage:", "16:type_usage:"}},
		{"Empty", []string{"10:variable_ref:ErrorKind::"}},
		{"Major", []string{"5:variable_ref:Position::"}},
		{"Position", []string{"5:type_usage:"}},
		{"numeric", []string{"5:call:"}},
		{"helper", []string{"11:call:", "21:call:"}},
	}
	for _, c := range cases {
		if got := rustUses(f, c.name); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s: got %v, want %v", c.name, got, c.want)
		}
	}
}
