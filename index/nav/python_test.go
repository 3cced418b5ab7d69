package nav

import (
	"slices"
	"testing"
)

// TestResolvePythonLocals: a parameter or a local variable named like a definition the file
// imports is not a use of it (self.command = command in a method taking command; a local
// command = 2), while the module's name is, where the function does not bind it.
func TestResolvePythonLocals(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"pkg/cmds.py": "def command(f):\n    return f\n",
		"pkg/core.py": `from .cmds import command


class Context:
    def __init__(self, command):
        self.command = command


def make():
    return command(1)


def other():
    command = 2
    return command, [command for command in range(3)]
`,
	})
	want := []string{"pkg/core.py:1 import", "pkg/core.py:10 import"}
	if got := usesOf(t, s, "command", "pkg/cmds.py"); !slices.Equal(got, want) {
		t.Errorf("uses of command:\n got %q\nwant %q", got, want)
	}
}

// TestResolvePythonImportStatements: a name an import statement imports is what that
// statement's module holds, whatever the alias and whatever the file's other imports of the
// name (from urllib3.exceptions import SSLError as _SSLError is not the workspace's
// SSLError; the uses of an alias are the alias's name's, not listed); a from-import takes a module's own name, never a member of one of its classes
// named alike (from . import types is not Tuple.types in types.py).
func TestResolvePythonImportStatements(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"pkg/exceptions.py": "class SSLError(Exception):\n    pass\n",
		"pkg/adapters.py":   "from urllib3.exceptions import SSLError as _SSLError\nfrom .exceptions import SSLError\n\nraise SSLError()\n",
		"pkg/models.py":     "from .exceptions import (\n    SSLError as RequestsSSLError,\n)\n\nraise RequestsSSLError()\n",
		"pkg/types.py":      "class Tuple:\n    def __init__(self, types):\n        self.types = types\n\n\ndef convert_type(ty):\n    return ty\n",
		"pkg/core.py":       "from . import types\n\nx = types.convert_type(1)\n",
	})
	cases := []struct {
		name, path, parent string
		want               []string
	}{
		{"SSLError", "pkg/exceptions.py", "", []string{"pkg/adapters.py:2 import", "pkg/adapters.py:4 import", "pkg/models.py:2 import"}},
		{"types", "pkg/types.py", "Tuple", []string{"pkg/types.py:3 receiver"}},
		{"convert_type", "pkg/types.py", "", []string{"pkg/core.py:3 import"}},
	}
	for _, c := range cases {
		if got := usesOfParent(t, s, c.name, c.path, c.parent); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s):\n got %q\nwant %q", c.name, c.path, got, c.want)
		}
	}
}

// TestResolvePythonReceiverTypes: q.name where q's type is what Python's annotations and
// values say: a method's first parameter whatever its name (__self), an annotated parameter
// ("Context | None", t.Optional["Context"]), an attribute __init__ assigns an annotated
// parameter or a class's instance or a function's annotated result, a method's annotated
// result (ctx.find_root().obj), except T as e, a local bound to an instance; a parameter
// without annotation stays unresolved.
func TestResolvePythonReceiverTypes(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"app/types.py": `class ParamType:
    def get_metavar(self, param):
        return None


def convert_type(ty) -> ParamType:
    return ParamType()
`,
		"app/core.py": `import typing as t
from .types import convert_type


class Command:
    def get_usage(self, ctx):
        return ""


class Context:
    def __init__(self, command: "Command", parent: t.Optional["Context"] = None):
        self.command = command
        self.parent = parent
        self.obj = Helper()
        self.token_normalize_func = None

    def find_root(self) -> "Context":
        return self

    def usage(__self):
        return __self.command.get_usage(__self)


class Parameter:
    def __init__(self, type=None):
        self.type = convert_type(type)

    def metavar(self):
        return self.type.get_metavar(self)


class Helper:
    def help(self):
        pass


class Other:
    def help(self):
        pass

    def get_usage(self):
        pass


class ClickError(Exception):
    def show(self):
        pass


def run(ctx: "Context | None", other, parent: t.Optional[Context]):
    ctx.find_root().obj.help()
    parent.parent.token_normalize_func
    other.help()
    try:
        pass
    except ClickError as e:
        e.show()
    h = Helper()
    h.help()
`,
	})
	cases := []struct {
		name, path, parent string
		want               []string
	}{
		{"get_usage", "app/core.py", "Command", []string{"app/core.py:21 receiver"}},
		{"get_metavar", "app/types.py", "ParamType", []string{"app/core.py:29 receiver"}},
		{"help", "app/core.py", "Helper", []string{"app/core.py:51 receiver", "app/core.py:59 receiver"}},
		{"token_normalize_func", "app/core.py", "Context", []string{"app/core.py:15 receiver", "app/core.py:52 receiver"}},
		{"show", "app/core.py", "ClickError", []string{"app/core.py:57 receiver"}},
	}
	for _, c := range cases {
		if got := usesOfParent(t, s, c.name, c.path, c.parent); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s.%s (%s):\n got %q\nwant %q", c.parent, c.name, c.path, got, c.want)
		}
	}
	// other.help(): other has no annotation, so its help is no one's; listed unresolved.
	if got, want := usesOf(t, s, "help", "app/core.py"), "app/core.py:53 unresolved"; !slices.Contains(got, want) {
		t.Errorf("uses of help: %q, want %q among them", got, want)
	}
}
