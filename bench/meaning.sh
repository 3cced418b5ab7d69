#!/usr/bin/env bash
# bench/meaning.sh: warm latency of questions in words and vec: lines (the built-in
# code-search model's part of a search) over Quarry's resident MCP HTTP server, on a corpus
# it indexes first (../shared/bench/corpus.sh full by default). Each query of
# bench/meaning-queries.txt is sent as written (fast_search, target definitions, limit 10),
# ROUNDS timed rounds after WARMUP; it prints per-query median and p95. The server watches
# the corpus (without a watcher every search first compares the disk with the index, which
# on corpus.sh full costs about 100 ms a search).
#
#   CORPUS (default /tmp/quarry-corpus/full)   QUARRY_BIN (default: built from this repo)
#   ROUNDS (20) WARMUP (2)
set -euo pipefail
# quarry's commands here never leave a watcher behind (cmd/quarry/autowatch.go)
export QUARRY_AUTOWATCH="${QUARRY_AUTOWATCH:-0}"
here="$(cd "$(dirname "$0")" && pwd)"
CORPUS="${CORPUS:-/tmp/quarry-corpus/full}"
ROUNDS="${ROUNDS:-20}" WARMUP="${WARMUP:-2}"
work="$(mktemp -d)"
trap 'kill "${pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
if [[ -z ${QUARRY_BIN:-} ]]; then
	QUARRY_BIN="$work/quarry"
	(cd "$here/.." && go build -o "$QUARRY_BIN" ./cmd/quarry)
fi
(cd "$here/.." && go build -o "$work/searchbench" ./bench/cmd/searchbench)
"$QUARRY_BIN" index "$CORPUS" >/dev/null
port=17170
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
(cd "$CORPUS" && exec "$QUARRY_BIN" mcp --root "$CORPUS" --http "127.0.0.1:$port") >"$work/quarry.log" 2>&1 &
pid=$!
"$work/searchbench" -quarry "127.0.0.1:$port" -raw -target definitions -queries "$here/meaning-queries.txt" \
	-rounds "$ROUNDS" -warmup "$WARMUP" -limit 10 -count=false
