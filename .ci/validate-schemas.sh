#!/usr/bin/env bash
# Checks that `quarry schema --all` is valid JSON Schema Draft 2020-12, with ajv from npm.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/quarry" ./cmd/quarry
"$work/quarry" schema --all > "$work/all.json"
(cd "$work" && npm install --silent --no-audit --no-fund ajv@8 >/dev/null)
NODE_PATH="$work/node_modules" node .ci/validate-schemas.js "$work/all.json"
