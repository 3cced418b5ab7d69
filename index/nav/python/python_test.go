package python

import (
	"slices"
	"testing"
)

// TestPythonTypeName: the class an annotation names.
func TestPythonTypeName(t *testing.T) {
	for typ, want := range map[string]string{
		`Context`:                         "Context",
		`"Context"`:                       "Context",
		`t.Optional["Context"]`:           "Context",
		`Optional[core.Context]`:          "core.Context",
		`"Context | None"`:                "Context",
		`None | Context`:                  "Context",
		`t.Union[Context, None]`:          "Context",
		`t.Union[Context, Other]`:         "",
		`t.Type[Command]`:                 "Command",
		`ClassVar[t.Optional["Command"]]`: "Command",
		`Annotated[Context, "meta"]`:      "Context",
		`list[Context]`:                   "list",
		`Box[int]`:                        "Box",
		`t.Any`:                           "",
		`None`:                            "",
		`t.Callable[[Context], None]`:     "t.Callable",
	} {
		if got := pyTypeName(typ); got != want {
			t.Errorf("pyTypeName(%s) = %q, want %q", typ, got, want)
		}
	}
	got := pyParams(`@click.command() def main( self, args: t.Optional[t.Sequence[str]] = None, ctx: "Context" = None, *extra: t.Any, **kw) -> t.Any`)
	want := []pyParam{{"self", "", ""}, {"args", "t.Optional[t.Sequence[str]]", "None"}, {"ctx", `"Context"`, "None"}, {"extra", "t.Any", ""}, {"kw", "", ""}}
	if !slices.Equal(got, want) {
		t.Errorf("pyParams = %q, want %q", got, want)
	}
}
