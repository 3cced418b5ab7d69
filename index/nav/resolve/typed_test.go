package resolve

import "testing"

func TestParamAndDeclaredTypes(t *testing.T) {
	cases := []struct{ sig, name, lang, want string }{
		{"func (c *conn) serve(ctx context.Context, r *bufio.Reader) error", "r", "go", "*bufio.Reader"},
		{"func copy(dst, src []byte, n int)", "dst", "go", "[]byte"},
		{"func copy(dst, src []byte, n int)", "n", "go", "int"},
		{"func (c *conn) serve(ctx context.Context)", "c", "go", ""}, // the receiver is not a parameter
		{"public void put(final Map<K, V> m, int count)", "m", "java", "Map<K, V>"},
		{"public void put(final Map<K, V> m, int count)", "count", "java", "int"},
		{"def clean(self, form: forms.Form = None)", "form", "python", "forms.Form"},
		{"export function run(s?: Scheduler, n: number)", "s", "typescript", "Scheduler"},
		{"pub fn split(&self, at: usize, b: &mut bytes::BytesMut) -> Bytes", "b", "rust", "&mut bytes::BytesMut"},
	}
	for _, c := range cases {
		if got := ParamType(c.sig, c.name, c.lang); got != c.want {
			t.Errorf("paramType(%q, %s) = %q, want %q", c.sig, c.name, got, c.want)
		}
	}
	fields := []struct{ decl, name, lang, want string }{
		{"bufr *bufio.Reader", "bufr", "go", "*bufio.Reader"},
		{"private final AtomicInteger count = new AtomicInteger()", "count", "java", "AtomicInteger"},
		{"count: AtomicInteger = AtomicInteger()", "count", "kotlin", "AtomicInteger"},
		{"private readonly cache: Map<string, number>", "cache", "typescript", "Map<string, number>"},
		{"int other", "count", "java", ""},
	}
	for _, c := range fields {
		if got := DeclaredType(c.decl, c.name, c.lang); got != c.want {
			t.Errorf("declaredType(%q, %s) = %q, want %q", c.decl, c.name, got, c.want)
		}
	}
	for typ, want := range map[string]string{"*bufio.Reader": "bufio.Reader", "Map<K, V>": "Map", "&mut a::B<T>": "a::B", "[]byte": "", "map[string]int": "", "Optional[int]": "Optional"} {
		if got := BaseTypeName(typ); got != want {
			t.Errorf("baseTypeName(%q) = %q, want %q", typ, got, want)
		}
	}
}
