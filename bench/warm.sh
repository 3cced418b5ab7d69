#!/usr/bin/env bash
# bench/warm.sh: warm search latency of Quarry's resident MCP HTTP server against
# zoekt-webserver, on the corpus copy bench/regex.sh prepares (run it once first).
# It sends each query of bench/warm-queries.txt as written to both (Quarry: fast_search,
# target auto, limit 20; zoekt: its own query language), alternating, ROUNDS timed rounds
# after WARMUP, and prints per-query medians, p95 and the ratio quarry/zoekt.
#
#   WORK        (default /tmp/quarry-bench)   CORPUS  (default $WORK/corpus)
#   QUARRY_BIN  (default: built from this repo into $WORK/quarry)
#   ZOEKT_BIN   (default $WORK/zoekt/bin)     ZOEKT_INDEX (default $WORK/zoekt/index)
#   ROUNDS (20) WARMUP (2) TARGET (auto) LIMIT (20)
set -euo pipefail
# quarry's commands here never leave a watcher behind (cmd/quarry/autowatch.go)
export QUARRY_AUTOWATCH="${QUARRY_AUTOWATCH:-0}"
here="$(cd "$(dirname "$0")" && pwd)"
WORK="${WORK:-/tmp/quarry-bench}"
CORPUS="${CORPUS:-$WORK/corpus}"
ZOEKT_BIN="${ZOEKT_BIN:-$WORK/zoekt/bin}"
ZOEKT_INDEX="${ZOEKT_INDEX:-$WORK/zoekt/index}"
ROUNDS="${ROUNDS:-20}" WARMUP="${WARMUP:-2}" TARGET="${TARGET:-auto}" LIMIT="${LIMIT:-20}"
[[ -d $CORPUS/.quarry && -d $ZOEKT_INDEX ]] || { echo "warm.sh: no corpus copy or indexes in $WORK: run bench/regex.sh once" >&2; exit 2; }
if [[ -z ${QUARRY_BIN:-} ]]; then
	QUARRY_BIN="$WORK/quarry"
	(cd "$here/.." && go build -o "$QUARRY_BIN" ./cmd/quarry)
fi
(cd "$here/.." && go build -o "$WORK/searchbench" ./bench/cmd/searchbench)
"$QUARRY_BIN" index "$CORPUS" >/dev/null # up to date

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}
zport=$(free_port 16170)
"$ZOEKT_BIN/zoekt-webserver" -index "$ZOEKT_INDEX" -listen "127.0.0.1:$zport" -rpc -html=false >"$WORK/warm-zoekt.log" 2>&1 &
pids+=($!)
qport=$(free_port $((zport + 1)))
(cd "$CORPUS" && exec "$QUARRY_BIN" mcp --root "$CORPUS" --http "127.0.0.1:$qport") >"$WORK/warm-quarry.log" 2>&1 &
pids+=($!)
"$WORK/searchbench" -zoekt "127.0.0.1:$zport" -quarry "127.0.0.1:$qport" -raw -target "$TARGET" \
	-queries "$here/warm-queries.txt" -rounds "$ROUNDS" -warmup "$WARMUP" -limit "$LIMIT" -count=false |
	tee "$WORK/warm-bench.txt"
