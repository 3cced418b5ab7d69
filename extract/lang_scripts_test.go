package extract

import (
	"strings"
	"testing"
)

// checkBroken asserts a syntactically broken file still gives the symbols before the break.
func checkBroken(t *testing.T, path, src string, names ...string) {
	t.Helper()
	f := extractString(t, path, src)
	syms := symbolsByName(f)
	for _, n := range names {
		if _, ok := syms[n]; !ok {
			t.Errorf("%s: broken source lost symbol %q (got %+v)", path, n, f.Symbols)
		}
	}
}

func TestPythonSymbols(t *testing.T) {
	f := extractString(t, "a.py", `
# Counter counts.
class Counter(Base):
    """Count things."""
    LIMIT = 3
    def __init__(self):
        self._n = 0
    def _bump(self):
        # a comment, not a doc
        return self._n
    def __eq__(self, o):
        return True
    @property
    def value(self) -> int:
        return self._n

def 変数():
    """非ASCII."""
    x = 1
    return x
`)
	checkSymbols(t, f, []symWant{
		{"Counter", Class, Public, "Count things.", ""},
		{"LIMIT", Constant, Public, "", "Counter"},
		{"__init__", Constructor, Public, "", "Counter"},
		{"_n", Field, Private, "", "Counter"},
		{"_bump", Method, Private, "", "Counter"},
		{"__eq__", Operator, Public, "", "Counter"},
		{"value", Property, Public, "", "Counter"},
		{"変数", Function, Public, "非ASCII.", ""},
	})
	if _, ok := symbolsByName(f)["x"]; ok {
		t.Error("a local variable became a symbol")
	}
	if !hasIdent(f, "Base", TypeUsage) || !hasIdent(f, "int", TypeUsage) {
		t.Error("missing type usages")
	}
	checkBroken(t, "b.py", "def ok():\n    pass\n\nclass Half(:\n    def", "ok")
}

// A decorated definition's line is its def or class line (ctags and editors agree); its
// bytes, signature and end still cover the decorators and the body.
func TestPythonDecoratedLine(t *testing.T) {
	src := `@dataclass(frozen=True)
class Point:
    x: int

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def origin():
        return Point(0)

@app.route("/")
async def index():
    pass

def plain():
    pass
`
	f := extractString(t, "a.py", src)
	tests := []struct {
		name                 string
		line, col, endLine   int
		firstDecorator, sigs string
	}{
		{"Point", 2, 1, 8, "@dataclass", "@dataclass(frozen=True) class Point"},
		{"origin", 7, 5, 8, "@staticmethod", "@staticmethod"},
		{"index", 11, 1, 12, "@app.route", "@app.route(\"/\")"},
		{"plain", 14, 1, 15, "def plain", "def plain()"},
	}
	syms := symbolsByName(f)
	for _, tt := range tests {
		s, ok := syms[tt.name]
		if !ok {
			t.Errorf("no symbol %s in %+v", tt.name, f.Symbols)
			continue
		}
		if s.StartLine != tt.line || s.StartColumn != tt.col || s.EndLine != tt.endLine {
			t.Errorf("%s at %d:%d-%d, want %d:%d-%d (the def or class line)", tt.name, s.StartLine, s.StartColumn, s.EndLine, tt.line, tt.col, tt.endLine)
		}
		if !strings.HasPrefix(src[s.StartByte:], tt.firstDecorator) {
			t.Errorf("%s's bytes start at %q, want the decorators (%q)", tt.name, src[s.StartByte:min(len(src), s.StartByte+20)], tt.firstDecorator)
		}
		if !strings.HasPrefix(s.Signature, tt.sigs) {
			t.Errorf("%s's signature = %q, want it to start with %q", tt.name, s.Signature, tt.sigs)
		}
	}
}

func TestRubySymbols(t *testing.T) {
	f := extractString(t, "a.rb", `
# A widget.
class Widget < Base
  include Enumerable
  attr_reader :size

  def initialize; end

  protected

  def guarded; end

  private

  # Secret.
  def secret; end

  def self.build; end

  public

  def open; end
  def hide; end
  private :hide
end
`)
	checkSymbols(t, f, []symWant{
		{"Widget", Class, Public, "A widget.", ""},
		{"size", Property, Public, "", "Widget"},
		{"initialize", Constructor, Public, "", "Widget"},
		{"guarded", Method, Protected, "", "Widget"},
		{"secret", Method, Private, "Secret.", "Widget"},
		{"build", Method, Public, "", "Widget"},
		{"open", Method, Public, "", "Widget"},
		{"hide", Method, Private, "", "Widget"},
	})
	if !hasIdent(f, "Enumerable", TypeUsage) {
		t.Error("missing the mixin's type usage")
	}
	checkBroken(t, "b.rb", "module Good\n  def fine; end\nend\n\nclass Bad <\n  def (", "Good", "fine")
}

func TestLuaSymbols(t *testing.T) {
	f := extractString(t, "a.lua", `
local M = {}

--- Adds numbers.
function M.add(a, b)
  return a + b
end

function M:method() end

-- Helper.
local function helper() end

GLOBAL_LIMIT = 5

return M
`)
	checkSymbols(t, f, []symWant{
		{"M", Module, Public, "", ""},
		{"add", Function, Public, "Adds numbers.", "M"},
		{"method", Method, Public, "", "M"},
		{"helper", Function, Private, "Helper.", ""},
		{"GLOBAL_LIMIT", Constant, Public, "", ""},
	})
	checkBroken(t, "b.lua", "local function ok() end\n\nfunction broken(\n  if then", "ok")
}

func TestBashSymbols(t *testing.T) {
	f := extractString(t, "a.sh", `#!/bin/bash
# Deploys.
deploy() {
  local tmp=1
  rsync -a "$SRC" dest
}
readonly LIMIT=3
export TOKEN
source ./env.sh
`)
	checkSymbols(t, f, []symWant{
		{"deploy", Function, Public, "Deploys.", ""},
		{"LIMIT", Constant, "", "", ""},
		{"TOKEN", Variable, Public, "", ""},
		{"./env.sh", Import, "", "", ""},
	})
	if _, ok := symbolsByName(f)["tmp"]; ok {
		t.Error("a local variable became a symbol")
	}
	if !hasIdent(f, "rsync", Call) || !hasIdent(f, "SRC", VariableRef) {
		t.Error("missing call or variable reference")
	}
	checkBroken(t, "b.sh", "ok() { echo; }\n\nbroken() {\n  if [ ; then\n", "ok")
}
