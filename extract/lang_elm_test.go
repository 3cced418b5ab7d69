package extract

import (
	"slices"
	"testing"
)

func TestElmSymbols(t *testing.T) {
	f := extractString(t, "Shop.elm", `port module Shop exposing (Cart, Item(..), Status, total, (|>), send)

{-| Shopping carts. -}

import Dict exposing (Dict)
import Json.Encode as Encode


{-| A cart, by item id. -}
type alias Cart =
    { items : Dict String Item
    , owner : String
    }


type Item
    = Book String
    | Pen


type Status
    = Open
    | Paid


{-| Adds up a cart. -}
total : Cart -> Int
total cart =
    let
        price item =
            1
    in
    List.sum (List.map price (Dict.values cart.items))


limit : Int
limit =
    10


double =
    \x -> x * 2


port send : Encode.Value -> Cmd msg


infix left 0 (|>) = apR
`)
	checkSymbols(t, f, []symWant{
		{"Shop", Module, Public, "Shopping carts.", ""},
		{"Dict", Import, "", "", ""},
		{"Cart", Type, Public, "A cart, by item id.", ""},
		{"items", Field, Public, "", "Cart"},
		{"Item", Enum, Public, "", ""},
		{"Book", EnumMember, Public, "", "Item"},
		{"Status", Enum, Public, "", ""},
		{"Paid", EnumMember, Private, "", "Status"}, // Status is exposed without (..)
		{"total", Function, Public, "Adds up a cart.", ""},
		{"price", Function, "", "", "total"},
		{"limit", Constant, Private, "", ""},
		{"double", Function, Private, "", ""},
		{"send", Function, Public, "", ""},
		{"|>", Operator, Public, "", ""},
	})
	syms := symbolsByName(f)
	for name, want := range map[string]string{
		"Shop":        "port module Shop exposing (Cart, Item(..), Status, total, (|>), send)",
		"Json.Encode": "import Json.Encode as Encode",
		"Cart":        "type alias Cart",
		"items":       "items : Dict String Item",
		"Item":        "type Item",
		"Book":        "Book String",
		"total":       "total : Cart -> Int",
		"price":       "price item",
		"double":      "double",
		"send":        "port send : Encode.Value -> Cmd msg",
		"|>":          "infix left 0 (|>) = apR",
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string][2]string{
		"Shop":        {"modifier", "port"},
		"Json.Encode": {"alias", "Encode"},
		"send":        {"port", "outgoing"},
		"|>":          {"associativity", "left"},
	} {
		if got := syms[name].Metadata[want[0]]; got != want[1] {
			t.Errorf("metadata %s of %s = %q, want %q", want[0], name, got, want[1])
		}
	}
	// The symbol of an annotated function starts at its annotation and ends with its body.
	if s := syms["total"]; s.StartLine != 27 || s.EndLine != 33 {
		t.Errorf("total spans lines %d-%d, want 27-33", s.StartLine, s.EndLine)
	}
	types := map[string]string{}
	for _, ti := range f.Types {
		for _, s := range f.Symbols {
			if s.ID == ti.SymbolID {
				types[s.Name+" "+ti.Role] = ti.Type
			}
		}
	}
	for key, want := range map[string]string{
		"total return": "Int", "limit declared": "Int", "items declared": "Dict String Item",
		"send return": "Cmd msg", "Cart alias": "{ items : Dict String Item, owner : String }",
	} {
		if types[key] != want {
			t.Errorf("type %s = %q, want %q", key, types[key], want)
		}
	}
}

func TestElmUses(t *testing.T) {
	f := extractString(t, "View.elm", `module View exposing (..)

import Html exposing (div)
import Html.Attributes as Attr


view : Model -> Html.Html Msg
view model =
    div [ Attr.class "x" ]
        [ model.items
            |> List.map viewItem
            |> List.filter (.done >> not)
            |> Html.ul []
        , config.toMsg Clicked
        , { model | draft = "" } |> render
        ]


update msg model =
    case msg of
        Toggled id ->
            model
`)
	syms := symbolsByName(f)
	if syms["view"].Visibility != Public || syms["update"].Visibility != Public {
		t.Errorf("exposing (..) should make everything public: %+v", f.Symbols)
	}
	type use struct {
		name, qualifier string
		kind            IdentKind
	}
	var got []use
	for _, id := range f.Identifiers {
		got = append(got, use{id.Name, id.Qualifier, id.Kind})
	}
	for _, want := range []use{
		{"div", "", Call}, {"class", "Attr", Call}, {"map", "List", Call}, {"viewItem", "", VariableRef},
		{"items", "model", MemberAccess}, {"not", "", Call}, {"done", "", MemberAccess}, {"ul", "Html", Call},
		{"toMsg", "config", Call}, {"Clicked", "", VariableRef}, {"draft", "", MemberAccess},
		{"render", "", Call}, {"Toggled", "", VariableRef}, {"Html", "Html", TypeUsage}, {"Msg", "", TypeUsage},
		{"Html", "", ImportRef},
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %s %q (qualifier %q) in %+v", want.kind, want.name, want.qualifier, got)
		}
	}
	calls := map[string]bool{}
	for _, r := range f.Relationships {
		if r.Kind == Calls && r.FromName == "view" {
			calls[r.To] = true
		}
	}
	for _, want := range []string{"div", "class", "map", "filter", "ul", "toMsg", "render"} {
		if !calls[want] {
			t.Errorf("view does not call %s: %v", want, calls)
		}
	}
}

func TestElmComments(t *testing.T) {
	f := extractString(t, "Basics.elm", `module Basics exposing (Int)

{-| An integer.

# Notes

  - whole numbers only

Add them up:

    1 + 2 == 3

-}
type Int = Int -- the compiler provides it

-- Not a doc comment, but the comment right above.
zero : Int
zero = 0
`)
	checkSymbols(t, f, []symWant{
		{"Int", Enum, Public, "An integer.\n\n# Notes\n\n  - whole numbers only\n\nAdd them up:\n\n    1 + 2 == 3", ""},
		{"zero", Constant, Private, "Not a doc comment, but the comment right above.", ""},
	})
	for _, s := range f.Symbols {
		if s.Kind == EnumMember && s.Signature != "Int" {
			t.Errorf("signature of constructor Int = %q, want %q", s.Signature, "Int")
		}
	}
}

func TestElmHalfWritten(t *testing.T) {
	f := extractString(t, "A.elm", `module A exposing (foo)

import Html

foo : Int -> Int
foo x =
    x + (

type Shape = Circle Float | Square
`)
	if f.ParseErrors == 0 {
		t.Fatal("want parse errors")
	}
	checkSymbols(t, f, []symWant{
		{"A", Module, Public, "", ""},
		{"foo", Function, Public, "", ""},
	})
	if n := len(f.Symbols); n != 3 {
		t.Errorf("got %d symbols, want the module, the import and foo once: %+v", n, f.Symbols)
	}
	foo := symbolsByName(f)["foo"]
	for _, id := range f.Identifiers {
		if id.Name == "type" || id.Name == "ircle" {
			t.Errorf("identifier %q from error recovery", id.Name)
		}
		if id.Name == "x" && id.ContainingSymbolID != foo.ID {
			t.Errorf("x is not inside foo: %+v", id)
		}
	}
}

// TestElmModuleName: a dotted module is named by its last segment, the rest its namespace.
func TestElmModuleName(t *testing.T) {
	f := extractString(t, "src/Server/Session.elm", "module Server.Session exposing (get)\n\nget : Int\nget = 1\n")
	s := symbolsByName(f)["Session"]
	if s.Kind != Module || s.Metadata["namespace"] != "Server" || s.Signature != "module Server.Session exposing (get)" {
		t.Errorf("module: %+v", s)
	}
}
