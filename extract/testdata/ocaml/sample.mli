(** Carts of a shop: lines of items, priced in cents. *)

type item = { sku : string; price : int }
(** An item for sale. *)

type t
(** A cart. *)

exception Empty_cart of string

val empty : t
(** The cart with no line. *)

val add : ?qty:int -> item -> t -> t
(** [add ~qty item cart] adds [qty] (default 1) of [item]. *)

val total : t -> int

external hash : t -> int = "caml_hash"

module Line : sig
  type t = item * int
  val price : t -> int
end

module type PRICING = sig
  val discount : t -> int
end

module Make (P : PRICING) : sig
  val checkout : t -> int
end
