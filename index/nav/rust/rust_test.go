package rust

import "testing"

func TestRustParamType(t *testing.T) {
	cases := []struct{ sig, fn, name, want string }{
		{"pub(crate) fn matches(req: &VersionReq, ver: &Version) -> bool", "matches", "ver", "&Version"},
		{"fn f<'a>(mut x: Vec<(u8, u8)>, g: impl Fn(u8) -> u8, y: &'a str)", "f", "y", "&'a str"},
		{"fn f(x: u8)", "f", "z", ""},
	}
	for _, c := range cases {
		if got := rustParamType(c.sig, c.fn, c.name); got != c.want {
			t.Errorf("rustParamType(%q, %s): got %q, want %q", c.sig, c.name, got, c.want)
		}
	}
}
