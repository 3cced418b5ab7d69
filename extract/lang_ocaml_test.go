package extract

import (
	"testing"
)

func TestOcamlSymbols(t *testing.T) {
	f := extractString(t, "shop.ml", `open Printf

(** A priced line. *)
type line = { sku : string; mutable qty : int }

type shape = Circle of float | Rect of { w : float; h : float }

exception Out_of_stock of string

(** Ordered keys. *)
module type ORDERED = sig
  type t
  val compare : t -> t -> int
  (** [compare a b] orders keys. *)

  val zero : t
end

module Make (K : ORDERED) : ORDERED with type t = K.t = struct
  type t = K.t
  let compare = K.compare
  let zero = K.zero
end

external ticks : unit -> int = "shop_ticks"

let limit = 10
let cache = Hashtbl.create 16

(** [total ls] sums quantities. *)
let rec total = function [] -> 0 | l :: rest -> l.qty + total rest
and count ls = List.length ls

let ( |? ) o d = match o with Some x -> x | None -> d

class counter start = object
  val mutable n = start
  method incr = n <- n + 1
  method private reset = n <- 0
end

include Make (String)
`)
	checkSymbols(t, f, []symWant{
		{"Printf", Import, "", "", ""},
		{"line", Struct, Public, "A priced line.", ""},
		{"sku", Field, Public, "", "line"},
		{"qty", Field, Public, "", "line"},
		{"shape", Enum, Public, "", ""},
		{"Circle", EnumMember, Public, "", "shape"},
		{"Rect", EnumMember, Public, "", "shape"},
		{"w", Field, Public, "", "Rect"},
		{"Out_of_stock", Type, Public, "", ""},
		{"ORDERED", Interface, Public, "Ordered keys.", ""},
		{"compare", Function, Public, "[compare a b] orders keys.", "ORDERED"},
		{"zero", Variable, Public, "", "ORDERED"},
		{"Make", Module, Public, "", ""},
		{"ticks", Function, Public, "", ""},
		{"limit", Constant, Public, "", ""},
		{"cache", Variable, Public, "", ""},
		{"total", Function, Public, "[total ls] sums quantities.", ""},
		{"count", Function, Public, "", ""},
		{"|?", Operator, Public, "", ""},
		{"counter", Class, Public, "", ""},
		{"n", Field, Protected, "", "counter"},
		{"incr", Method, Public, "", "counter"},
		{"reset", Method, Private, "", "counter"},
	})
	syms := symbolsByName(f)
	for name, want := range map[string]string{
		"line":    "type line",
		"Make":    "module Make (K : ORDERED) : ORDERED with type t = K.t",
		"ticks":   "external ticks : unit -> int",
		"limit":   "let limit = 10",
		"total":   "let rec total = function",
		"count":   "and count ls",
		"Rect":    "Rect of { w : float; h : float }",
		"qty":     "mutable qty : int",
		"reset":   "method private reset",
		"ORDERED": "module type ORDERED",
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]map[string]string{
		"Make":         {"functor": "true", "parameters": "(K : ORDERED)"},
		"compare":      {"declaration": "true"},
		"ticks":        {"declaration": "true", "primitive": "shop_ticks"},
		"Out_of_stock": {"exception": "true"},
		"total":        {"rec": "true"},
		"qty":          {"mutable": "true"},
	} {
		for k, v := range want {
			if got := syms[name].Metadata[k]; got != v {
				t.Errorf("metadata %s of %s = %q, want %q", k, name, got, v)
			}
		}
	}
	var include *Symbol
	for i, s := range f.Symbols {
		if s.Kind == Import && s.Name == "Make" {
			include = &f.Symbols[i]
		}
	}
	if include == nil || include.Metadata["reexport"] != "true" || include.Signature != "include Make (String)" {
		t.Errorf("include Make (String) gave %+v, want a re-exported import of Make", include)
	}
}

func TestOcamlUses(t *testing.T) {
	f := extractString(t, "uses.ml", `module M = Map.Make (String)

let total (items : item list) : float =
  let sum acc it = acc +. it.price in
  items |> List.fold_left sum 0.0 |> Pricing.gross

let run r = r#start (); print_endline @@ Int.to_string (Stdlib.List.length [])

let () =
  let local_value = compute () in
  ignore local_value
`)
	for _, want := range []struct {
		name, qualifier, in string
		kind                IdentKind
	}{
		{"Make", "Map", "M", Call},
		{"fold_left", "List", "total", Call},
		{"gross", "Pricing", "total", Call},
		{"price", "it", "total", MemberAccess},
		{"item", "", "total", TypeUsage},
		{"float", "", "total", TypeUsage},
		{"start", "r", "run", Call},
		{"print_endline", "", "run", Call},
		{"length", "Stdlib.List", "run", Call},
		{"compute", "", "", Call},
	} {
		if !ocamlHasUse(f, want.name, want.qualifier, want.in, want.kind) {
			t.Errorf("no %s %s (qualifier %q) in %s among %+v", want.kind, want.name, want.qualifier, want.in, f.Identifiers)
		}
	}
	syms := symbolsByName(f)
	for _, local := range []string{"sum", "local_value"} {
		if _, ok := syms[local]; ok {
			t.Errorf("local %s is a symbol: %+v", local, syms[local])
		}
	}
	calls := map[string]bool{}
	for _, r := range f.Relationships {
		if r.Kind == Calls && r.FromName == "total" {
			calls[r.To] = true
		}
	}
	if !calls["fold_left"] || !calls["gross"] {
		t.Errorf("calls of total = %v, want fold_left and gross", calls)
	}
}

// ocamlHasUse reports whether f records a use of name of kind with the qualifier inside the
// symbol named in ("" for file level).
func ocamlHasUse(f *File, name, qualifier, in string, kind IdentKind) bool {
	names := map[string]string{}
	for _, s := range f.Symbols {
		names[s.ID] = s.Name
	}
	for _, id := range f.Identifiers {
		if id.Name == name && id.Kind == kind && id.Qualifier == qualifier && names[id.ContainingSymbolID] == in {
			return true
		}
	}
	return false
}

func TestOcamlDocComments(t *testing.T) {
	f := extractString(t, "docs.ml", `(**************************************************************************)
(* License header.                                                        *)
(**************************************************************************)

(* A plain comment documents nothing. *)
let plain = 1

let after = 2
(** Documents after, the line below it. *)

let before = 3 (** Trailing, on the line of before. *)
(** Documents next, the line above it. *)
let next = 4

type t =
  | A (** The A case. *)
  | B
`)
	checkSymbols(t, f, []symWant{
		{"plain", Constant, Public, "", ""},
		{"after", Constant, Public, "Documents after, the line below it.", ""},
		{"before", Constant, Public, "Trailing, on the line of before.", ""},
		{"next", Constant, Public, "Documents next, the line above it.", ""},
		{"A", EnumMember, Public, "The A case.", "t"},
		{"B", EnumMember, Public, "", "t"},
	})
}

// TestOcamlHalfWritten extracts files cut in the middle of a definition: what parsed before
// the cut is kept, and nothing panics.
func TestOcamlHalfWritten(t *testing.T) {
	for _, src := range []string{
		"let f x =\nlet g = 1\n",
		"module M = struct\n  let inside x = x\n  type t = { a :",
		"type t = A | B of\nlet ok = 1",
		"class c = object method m =",
		"let rec f x = g x and",
		"module type S = sig val x :",
		"val top : int -> int\nlet after = 1\n",
	} {
		f := extractString(t, "half.ml", src)
		if f.Skipped != "" {
			t.Errorf("%q: skipped: %s", src, f.Skipped)
		}
	}
	f := extractString(t, "half.ml", "module M = struct\n  let inside x = x\n  type t = { a :")
	if s, ok := symbolsByName(f)["inside"]; !ok || s.Kind != Function {
		t.Errorf("half-written module lost inside: %+v", f.Symbols)
	}
}

// TestOcamlInterface: an .mli, parsed wrapped in a signature, gives its specifications at
// the top of the file, at the file's own positions, and nothing of the wrapping.
func TestOcamlInterface(t *testing.T) {
	src := "(** Lists. *)\n\nval length : 'a list -> int\n(** [length l] counts. *)\n\nmodule Tbl : sig\n  val find : key -> 'a t -> 'a\nend\n"
	f := extractString(t, "list.mli", src)
	if f.ParseErrors != 0 {
		t.Errorf("%d parse errors", f.ParseErrors)
	}
	checkSymbols(t, f, []symWant{
		{"length", Function, Public, "[length l] counts.", ""},
		{"Tbl", Module, Public, "", ""},
		{"find", Function, Public, "", "Tbl"},
	})
	if len(f.Symbols) != 3 {
		t.Errorf("%d symbols, want 3 (none of the wrapping): %+v", len(f.Symbols), f.Symbols)
	}
	if s := symbolsByName(f)["length"]; s.StartLine != 3 || s.StartColumn != 1 || src[s.StartByte:s.EndByte] != "val length : 'a list -> int" || s.Metadata["declaration"] != "true" {
		t.Errorf("length: %+v", s)
	}
	for _, id := range f.Identifiers {
		if id.EndByte > len(src) || src[id.StartByte:id.EndByte] != id.Name {
			t.Errorf("identifier %+v does not span its name in the file", id)
		}
	}
	if s := symbolsByName(f)["Tbl"]; s.EndByte != len(src)-1 || s.EndLine != 8 {
		t.Errorf("Tbl ends at %d (line %d), want %d (line 8)", s.EndByte, s.EndLine, len(src)-1)
	}
}
