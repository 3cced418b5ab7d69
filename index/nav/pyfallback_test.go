package nav

import (
	"slices"
	"testing"
)

// TestResolvePythonImportFallbacks: an import of a module that is not the workspace's is a
// use of the definition standing in for it in the same scope when the import fails
// (try: import chardet / except ImportError: chardet = None), by the name it binds (its
// alias, from m import __version__ as m_version); an import of the workspace's module is
// never one (from .compat import json, with json = None beside it), and a function's
// import is not the module's definition.
func TestResolvePythonImportFallbacks(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"pkg/compat.py": "json = 1\n",
		"pkg/help.py": `try:
    import chardet
except ImportError:
    chardet = None

try:
    from charset_normalizer import __version__ as cn_version
except ImportError:
    cn_version = None

try:
    from urllib3.contrib import pyopenssl
except ImportError:
    pyopenssl = None

try:
    from .compat import json
except ImportError:
    json = None


def info():
    import chardet
    return cn_version, pyopenssl
`,
	})
	cases := []struct {
		name string
		line int
		want []string
	}{
		{"chardet", 4, []string{"pkg/help.py:2 import", "pkg/help.py:23 unresolved"}},
		{"cn_version", 9, []string{"pkg/help.py:7 import", "pkg/help.py:24 scope"}},
		{"pyopenssl", 14, []string{"pkg/help.py:12 import", "pkg/help.py:24 scope"}},
		{"json", 19, nil},
	}
	for _, c := range cases {
		if got := usesAt(t, s, c.name, "pkg/help.py", c.line); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s at pkg/help.py:%d:\n got %q\nwant %q", c.name, c.line, got, c.want)
		}
	}
	if got, want := usesOf(t, s, "json", "pkg/compat.py"), []string{"pkg/help.py:17 import"}; !slices.Equal(got, want) {
		t.Errorf("uses of json in pkg/compat.py:\n got %q\nwant %q", got, want)
	}
}

// TestResolvePythonTopLevelOrder: a name used at a module's top level above the module's own
// definition of it is not that definition (builtin_str = str above str = str reads the
// builtin); below it, or in a function, it is.
func TestResolvePythonTopLevelOrder(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"pkg/compat.py": "builtin_str = str\nstr = str\nbasestring = (str, bytes)\n\n\ndef f():\n    return str\n",
	})
	want := []string{"pkg/compat.py:3 scope", "pkg/compat.py:7 scope", "pkg/compat.py:1 unresolved", "pkg/compat.py:2 unresolved"}
	if got := usesAt(t, s, "str", "pkg/compat.py", 2); !slices.Equal(got, want) {
		t.Errorf("uses of str:\n got %q\nwant %q", got, want)
	}
}
