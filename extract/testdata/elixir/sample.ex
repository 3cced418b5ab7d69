defmodule Shop.Inventory do
  @moduledoc """
  Keeps track of the stock of each product.

      iex> Shop.Inventory.available?(%Shop.Inventory{}, "sku-1")
      false
  """

  use GenServer
  alias Shop.{Repo, Product}
  alias Shop.Pricing, as: Prices
  import Ecto.Query, only: [from: 2]
  require Logger

  @behaviour Shop.Store
  @derive {Jason.Encoder, only: [:items]}

  @default_ttl 3_600
  @reserved_skus ~w(gift-card shipping)

  @typedoc "A stock keeping unit."
  @type sku :: String.t()
  @typep counts :: %{optional(sku) => non_neg_integer()}
  @opaque t :: %__MODULE__{items: counts, updated_at: DateTime.t() | nil}

  @doc "Called after units of a product arrive."
  @callback on_restock(sku, pos_integer()) :: :ok | {:error, term}

  defstruct items: %{}, updated_at: nil

  defguard is_quantity(n) when is_integer(n) and n > 0

  @doc """
  Starts the inventory server.
  """
  @spec start_link(keyword) :: GenServer.on_start()
  def start_link(opts \\ []) do
    GenServer.start_link(__MODULE__, opts, name: __MODULE__)
  end

  @doc "Reports whether `sku` can be sold."
  @spec available?(t, sku) :: boolean
  def available?(%__MODULE__{items: items}, sku) when is_binary(sku) do
    Map.get(items, sku, 0) > 0
  end

  def available?(_inventory, _sku), do: false

  @impl true
  def init(opts) do
    ttl = Keyword.get(opts, :ttl, @default_ttl)
    Logger.debug("inventory started with ttl #{ttl}")
    {:ok, %__MODULE__{}}
  end

  @impl GenServer
  def handle_call({:restock, sku, n}, _from, state) when is_quantity(n) do
    state
    |> add(sku, n)
    |> touch()
    |> then(&{:reply, :ok, &1})
  end

  def handle_call(:skus, _from, state), do: {:reply, Map.keys(state.items), state}

  @doc false
  def prices(skus), do: Enum.map(skus, &Prices.lookup/1)

  defdelegate fetch_product(sku), to: Repo, as: :get_product

  # Adds n units of sku to the state.
  defp add(%{items: items} = state, sku, n) do
    %{state | items: Map.update(items, sku, n, &(&1 + n))}
  end

  defp touch(state), do: %{state | updated_at: DateTime.utc_now()}

  defmacro with_stock(sku, do: block) do
    quote do
      if available?(unquote(sku)), do: unquote(block)
    end
  end

  if Mix.env() == :test do
    def reset!, do: Repo.delete_all(from(p in Product))
  end

  defmodule Reservation do
    @moduledoc "A hold on some units until checkout."

    defstruct [:sku, quantity: 1]

    def new(sku), do: %__MODULE__{sku: sku}
  end
end

defprotocol Shop.Priced do
  @doc "Returns the price of a thing, in cents."
  def price(thing)
end

defimpl Shop.Priced, for: Shop.Inventory.Reservation do
  def price(%{sku: sku, quantity: q}), do: Shop.Pricing.lookup(sku) * q
end

defmodule Shop.OutOfStockError do
  defexception [:sku, message: "out of stock"]

  @impl true
  def message(%{sku: sku}), do: "#{sku} is out of stock"
end
