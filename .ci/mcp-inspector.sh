#!/usr/bin/env bash
# An external MCP client checks quarry mcp: the MCP Inspector's CLI (from npm) starts
# `quarry mcp` over stdio in a small temporary workspace, lists the tools, calls fast_search
# (a hit, and an unknown parameter that must come back as an error result with the
# contract's envelope) and reads the quarry://capabilities resource.
#
# Usage: .ci/mcp-inspector.sh [QUARRY_BINARY]   (default: builds ./cmd/quarry)
# QUARRY_INSPECTOR overrides the pinned inspector package. 2.12.0 declares node >= 22.19
# but its CLI runs on this machine's node 20 (checked: tools/list, tools/call,
# resources/read); 0.15.0 is the newest release whose declared engines admit node 20.
set -euo pipefail
cd "$(dirname "$0")/.."

inspector=${QUARRY_INSPECTOR:-@modelcontextprotocol/inspector@2.12.0}
command -v npx >/dev/null || { echo "mcp-inspector: npx is not installed" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${1:-}
if [ -z "$bin" ]; then
  go build -o "$tmp/quarry" ./cmd/quarry
  bin=$tmp/quarry
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

ws=$tmp/ws
mkdir -p "$ws/src/api"
printf 'package api\n\n// ServeHTTP answers a request.\nfunc (s *Server) ServeHTTP() {}\n\ntype Server struct{}\n' >"$ws/src/api/server.go"
printf 'def connect_pool():\n    return None\n' >"$ws/src/pool.py"

passed=0
failed=0

# inspect runs the inspector CLI against quarry mcp in the workspace and prints its output.
# Inspector 2.x exits with 5 when a tool returns an error result (isError), 0.x with 0;
# $want_status lists the exit statuses expected.
want_status=0
inspect() {
  local status=0
  (cd "$ws" && npx -y "$inspector" --cli "$bin" mcp "$@") 2>"$tmp/stderr" || status=$?
  if [[ " $want_status " != *" $status "* ]]; then
    echo "mcp-inspector: the inspector exited with $status (want $want_status) on: $*" >&2
    grep -v '^npm warn' "$tmp/stderr" >&2 || true
    return 1
  fi
}

# check NAME JS: JS is a boolean expression over r, the inspector's JSON output.
check() {
  local name=$1 expr=$2 out=$3
  if printf '%s' "$out" | node -e "
const r = JSON.parse(require('fs').readFileSync(0, 'utf8'));
if (!($expr)) { console.error(JSON.stringify(r, null, 2).slice(0, 3000)); process.exit(1); }"; then
    echo "ok   $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name" >&2
    failed=$((failed + 1))
  fi
}

out=$(inspect --method tools/list)
check "tools/list offers fast_search and fast_goto, each with an input schema" \
  "['fast_search', 'fast_goto'].every(n => r.tools.some(t => t.name === n && t.inputSchema && t.inputSchema.type === 'object'))" "$out"

out=$(inspect --method tools/call --tool-name fast_search --tool-arg query=ServeHTTP)
check "fast_search ServeHTTP finds src/api/server.go" \
  "!r.isError && r.structuredContent.results.some(h => h.path === 'src/api/server.go' && h.name === 'ServeHTTP') && r.content[0].text.startsWith('src/api/server.go:4: method ServeHTTP')" "$out"

want_status="0 5"
out=$(inspect --method tools/call --tool-name fast_search --tool-arg qurey=ServeHTTP)
want_status=0
check "an unknown parameter is an error result with UNKNOWN_FIELD and a did-you-mean" \
  "r.isError === true && r.structuredContent.ok === false && r.structuredContent.error.code === 'UNKNOWN_FIELD' && r.structuredContent.error.message.includes('did you mean \"query\"')" "$out"

out=$(inspect --method resources/read --uri quarry://capabilities)
check "quarry://capabilities lists the MCP transports" \
  "JSON.parse(r.contents[0].text).transports.includes('mcp-stdio')" "$out"

echo "mcp-inspector: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
