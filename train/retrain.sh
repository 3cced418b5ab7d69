#!/usr/bin/env bash
# train/retrain.sh [SRC]: trains the code-search model Quarry ships, from the corpus
# train/corpus.sh gathered (SRC, default /tmp/quarry-train/src), with the settings of the
# shipped model, and writes it to codemodel/quarry.qcm (rebuild quarry to ship it). It says
# whether the result is byte for byte the committed model (the run is deterministic).
#
#   PAIRS (default /tmp/quarry-train/pairs.jsonl)  the pairs file it writes and trains on
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SRC="${1:-/tmp/quarry-train/src}"
PAIRS="${PAIRS:-/tmp/quarry-train/pairs.jsonl}"
[[ -d $SRC ]] || { echo "retrain.sh: no corpus at $SRC: run train/corpus.sh first" >&2; exit 2; }
cd "$here/.."
before="$(sha256sum codemodel/quarry.qcm | cut -d' ' -f1)"
go run ./train pairs -src "$SRC" -out "$PAIRS"
# The shipped settings: the whole doc comment as the query, one epoch (validation MRR is
# best after the first), 128 dimensions, seed 1.
go run ./train fit -pairs "$PAIRS" -out codemodel/quarry.qcm -seed 1 -epochs 1 -query doc
after="$(sha256sum codemodel/quarry.qcm | cut -d' ' -f1)"
if [[ $before == "$after" ]]; then
	echo "retrain.sh: codemodel/quarry.qcm is the committed model, byte for byte ($after)"
else
	echo "retrain.sh: codemodel/quarry.qcm differs from the model it replaced ($before -> $after)"
fi
