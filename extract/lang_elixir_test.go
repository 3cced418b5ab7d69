package extract

import (
	"testing"
)

const elixirSource = `defmodule Shop.Cart do
  @moduledoc """
  A shopping cart.
  """
  use GenServer
  alias Shop.{Repo, Item}
  @behaviour Shop.Store
  @max_items 50
  @typedoc "A line of the cart."
  @type line :: {String.t(), pos_integer()}
  @doc "Called when a cart is emptied."
  @callback on_empty(t) :: :ok

  defstruct [:owner, lines: []]

  @doc """
  Adds an item.
  """
  @doc since: "1.2.0"
  @spec add(t, String.t(), pos_integer()) :: t
  def add(cart, sku, n \\ 1)
  def add(%{lines: lines} = cart, sku, n) when n > 0 do
    Repo.get!(Item, sku) |> check()
    %{cart | lines: [{sku, n} | lines]}
  end
  def add(cart, _sku, _n), do: cart

  def add(cart), do: Enum.map(cart.lines, &check/1)

  # Checks an item.
  defp check(item), do: item

  defmacro empty?(cart), do: quote(do: unquote(cart).lines == [])

  defmodule Line do
    def total({_, n}), do: n * @max_items
  end
end

defprotocol Shop.Sized do
  def size(thing)
end

defimpl Shop.Sized, for: Shop.Cart do
  def size(cart), do: length(cart.lines)
end
`

func TestElixirSymbols(t *testing.T) {
	f := extractString(t, "cart.ex", elixirSource)
	checkSymbols(t, f, []symWant{
		{"Cart", Module, Public, "A shopping cart.", ""},
		{"Shop.Repo", Import, "", "", "Cart"},
		{"Shop.Item", Import, "", "", "Cart"},
		{"@max_items", Constant, Private, "", "Cart"},
		{"line", Type, Public, "A line of the cart.", "Cart"},
		{"on_empty", Method, Public, "Called when a cart is emptied.", "Cart"},
		{"owner", Field, Public, "", "Cart"},
		{"lines", Field, Public, "", "Cart"},
		{"add", Function, Public, "Adds an item.", "Cart"},
		{"check", Function, Private, "Checks an item.", "Cart"},
		{"empty?", Function, Public, "", "Cart"},
		{"Line", Module, Public, "", "Cart"},
		{"total", Function, Public, "", "Line"},
		{"Sized", Interface, Public, "", ""},
		{"Shop.Sized.Shop.Cart", Class, Public, "", ""},
	})
	var structs, adds, sizes int
	for _, s := range f.Symbols {
		switch {
		case s.Kind == Struct && s.Name == "Cart":
			structs++
		case s.Name == "add":
			adds++
		case s.Name == "size" && s.Kind == Method:
			sizes++
		}
	}
	if structs != 1 || adds != 2 || sizes != 2 {
		t.Errorf("got %d structs, %d add (want add/3 and add/1), %d size methods; want 1, 2, 2", structs, adds, sizes)
	}
}

func TestElixirClauses(t *testing.T) {
	f := extractString(t, "cart.ex", elixirSource)
	add := symbolsByName(f)["add"]
	if add.Signature != `def add(cart, sku, n \\ 1)` || add.Metadata["arity"] != "3" || add.Metadata["clauses"] != "3" {
		t.Errorf("add/3 = %q %v, want the header's signature, arity 3 and 3 clauses", add.Signature, add.Metadata)
	}
	if add.StartLine != 21 || add.EndLine != 26 {
		t.Errorf("add/3 spans lines %d-%d, want 21-26 (its three clauses)", add.StartLine, add.EndLine)
	}
	var ret string
	for _, ty := range f.Types {
		if ty.SymbolID == add.ID && ty.Role == "return" {
			ret = ty.Type
		}
	}
	if ret != "t" {
		t.Errorf("return type of add/3 = %q, want t (from its @spec)", ret)
	}
	syms := symbolsByName(f)
	for name, want := range map[string]string{
		"empty?":               "defmacro empty?(cart)",
		"line":                 "@type line :: {String.t(), pos_integer()}",
		"on_empty":             "@callback on_empty(t) :: :ok",
		"Cart":                 "defmodule Shop.Cart",
		"Shop.Sized.Shop.Cart": "defimpl Shop.Sized, for: Shop.Cart",
		"@max_items":           "@max_items 50",
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	if syms["empty?"].Metadata["macro"] != "true" {
		t.Errorf("empty? metadata = %v, want macro", syms["empty?"].Metadata)
	}
}

func TestElixirCallsAndRelationships(t *testing.T) {
	f := extractString(t, "cart.ex", elixirSource)
	byID := map[string]string{}
	for _, s := range f.Symbols {
		byID[s.ID] = s.Name
	}
	type use struct{ name, qualifier, in string }
	calls := map[use]bool{}
	for _, id := range f.Identifiers {
		if id.Kind == Call {
			calls[use{id.Name, id.Qualifier, byID[id.ContainingSymbolID]}] = true
		}
	}
	for _, want := range []use{{"get!", "Repo", "add"}, {"check", "", "add"}, {"map", "Enum", "add"}, {"length", "", "size"}} {
		if !calls[want] {
			t.Errorf("missing call %+v in %v", want, calls)
		}
	}
	if calls[use{"lines", "cart", "add"}] || !hasIdent(f, "lines", MemberAccess) {
		t.Error("cart.lines is a field access, not a call")
	}
	if !hasIdent(f, "@max_items", VariableRef) {
		t.Error("missing the read of @max_items")
	}
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		if r.Kind != Calls {
			rels[r.FromName+">"+r.To] = r.Kind
		}
	}
	for key, want := range map[string]RelKind{
		"Cart>GenServer": Uses, "Cart>Shop.Store": Implements, "Shop.Sized.Shop.Cart>Shop.Sized": Implements,
	} {
		if rels[key] != want {
			t.Errorf("relationship %s = %v, want %v (all: %v)", key, rels[key], want, rels)
		}
	}
}

func TestElixirBroken(t *testing.T) {
	f := extractString(t, "broken.ex", "defmodule A do\n  def ok(x), do: x\n  def broken(x\n  defp later, do: 1\nend\n")
	syms := symbolsByName(f)
	if _, ok := syms["ok"]; !ok {
		t.Errorf("missing ok before the break: %+v", f.Symbols)
	}
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
}
