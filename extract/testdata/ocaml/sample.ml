(* Inventory: stock levels per warehouse, with a priced catalogue. *)

open Printf

(** A stock keeping unit. *)
type sku = string

(** One line of stock. *)
type item = {
  sku : sku;
  mutable quantity : int;  (** units on hand *)
  price : float;
}

(** Where an item can be. *)
type location =
  | Shelf of int
  | Bin of { aisle : string; slot : int }
  | In_transit

type 'a result_list = ('a, string) result list

type event = ..
type event += Restocked of sku

(** Raised when a SKU is unknown. *)
exception Unknown_sku of sku

exception Missing = Not_found

(** Things that can be ordered and compared. *)
module type ORDERED = sig
  type t
  val compare : t -> t -> int
  (** [compare a b] orders [a] and [b]. *)

  val name : string
end

(** Stores keyed by an ordered type. *)
module Make_store (Key : ORDERED) : sig
  type 'a t
  val empty : 'a t
  val add : Key.t -> 'a -> 'a t -> 'a t
end = struct
  type 'a t = (Key.t * 'a) list

  let empty = []

  let add k v store = (k, v) :: List.filter (fun (k', _) -> Key.compare k k' <> 0) store
end

module Sku_order = struct
  type t = sku
  let compare = String.compare
  let name = "sku"
end

module Store = Make_store (Sku_order)
module S = Store

module Pricing = struct
  let vat_rate = 0.2

  (** [gross net] adds VAT to a net price. *)
  let gross net = net *. (1.0 +. vat_rate)

  let total (items : item list) : float =
    let sum acc it = acc +. (it.price *. float_of_int it.quantity) in
    items |> List.fold_left sum 0.0 |> gross
end

external clock_ticks : unit -> int = "inventory_clock_ticks" [@@noalloc]

let default_warehouse = "main"

let counter = ref 0

(** [find_exn sku items] is the item with [sku]. *)
let rec find_exn sku = function
  | [] -> raise (Unknown_sku sku)
  | it :: rest -> if String.equal it.sku sku then it else find_exn sku rest

and find_opt sku items =
  try Some (find_exn sku items) with Unknown_sku _ -> None

let restock = fun it n ->
  it.quantity <- it.quantity + n;
  incr counter

let ( >>= ) o f = match o with Some x -> f x | None -> None

let low_stock, high_stock = (5, 500)

let describe = function
  | Shelf n -> sprintf "shelf %d" n
  | Bin { aisle; slot } -> sprintf "bin %s/%d" aisle slot
  | In_transit -> "in transit"

(** A report over items. *)
class virtual ['a] report (title : string) = object (self)
  val mutable lines : string list = []
  method virtual render : 'a -> string
  method add x = lines <- self#render x :: lines
  method private header = String.uppercase_ascii title
  method print = print_endline self#header; List.iter print_endline (List.rev lines)
end

class item_report = object
  inherit [item] report "items"
  method render it = sprintf "%s: %d" it.sku it.quantity
end

class type printable = object
  method print : unit
end

include Pricing

let () =
  let r = new item_report in
  r#add { sku = "A-1"; quantity = 3; price = 9.5 };
  r#print;
  printf "%d restocks, %d ticks\n" !counter (clock_ticks ())
