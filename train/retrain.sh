#!/usr/bin/env bash
# train/retrain.sh [SRC]: trains what Quarry's search by meaning ships, from the corpus
# train/corpus.sh gathered (SRC, default /tmp/quarry-train/src), with the shipped settings:
#   1. the code-search model, codemodel/quarry.qcm: pairs of the packages of issue 31 (the
#      lines of train/packages.txt before its "# issue 42" block), then `train fit`;
#   2. the learned reranker, scoring/rerank.json: the folders of train/rerank/packages.txt
#      copied into a workspace, then `train rerank` with the written questions of
#      train/rerank/questions-*.json (it indexes the workspace with the model of step 1).
# Rebuild quarry to ship them. It says whether each is byte for byte the committed one (both
# runs are deterministic).
#
#   PAIRS (default /tmp/quarry-train/pairs.jsonl)  the pairs file it writes and trains on
#   WS (default /tmp/quarry-train/rerank-ws)       the reranker's workspace (made anew)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SRC="${1:-/tmp/quarry-train/src}"
PAIRS="${PAIRS:-/tmp/quarry-train/pairs.jsonl}"
WS="${WS:-/tmp/quarry-train/rerank-ws}"
[[ -d $SRC ]] || { echo "retrain.sh: no corpus at $SRC: run train/corpus.sh first" >&2; exit 2; }
cd "$here/.."
same() { # same NAME BEFORE: says whether NAME is still BEFORE's bytes
	local after
	after="$(sha256sum "$1" | cut -d' ' -f1)"
	if [[ $2 == "$after" ]]; then
		echo "retrain.sh: $1 is the committed one, byte for byte ($after)"
	else
		echo "retrain.sh: $1 differs from the one it replaced ($2 -> $after)"
	fi
}

# 1. The model: issue 31's packages, hard-linked into a view of SRC.
view="$(mktemp -d)"
trap 'rm -rf "$view"' EXIT
awk '/^# issue 42/ { exit } /^[^#]/ && NF >= 3 { sub(/^(deb|npm)-/, "", $1); print $1 "/" $2 }' train/packages.txt |
	while read -r dir; do
		[[ -d $SRC/$dir ]] || continue # a package that ships no file of its language
		mkdir -p "$view/$(dirname "$dir")"
		cp -al "$SRC/$dir" "$view/$dir"
	done
before="$(sha256sum codemodel/quarry.qcm | cut -d' ' -f1)"
go run ./train pairs -src "$view" -out "$PAIRS"
# The shipped settings: doc comments only (not tests' names or mentions), the whole
# comment as the query, one epoch (validation MRR is
# best after the first), 128 dimensions, seed 1.
go run ./train fit -pairs "$PAIRS" -out codemodel/quarry.qcm -seed 1 -epochs 1 -query doc -sources doc
same codemodel/quarry.qcm "$before"

# 2. The reranker, when one is shipped (train/rerank/SETTINGS holds its settings). None is
# yet: every reranker trained so far lowered the quality suite's dev descriptions
# (train/README.md, "The learned reranker").
if [[ ! -f train/rerank/SETTINGS ]]; then
	echo "retrain.sh: no reranker is shipped (train/rerank/SETTINGS is absent): scoring/rerank.json stays empty"
	exit 0
fi
rm -rf "$WS"
mkdir -p "$WS"
grep -v '^#' train/rerank/packages.txt | while read -r from to; do
	[[ -n $from ]] || continue
	to="${to:-$from}"
	[[ -d $SRC/$from ]] || { echo "retrain.sh: $SRC/$from is missing: gather the corpus with train/corpus.sh" >&2; exit 2; }
	mkdir -p "$WS/$(dirname "$to")"
	cp -r "$SRC/$from" "$WS/$to"
done
before="$(sha256sum scoring/rerank.json | cut -d' ' -f1)"
# SETTINGS: a "questions:" line (globs under train/rerank/, default questions-*.json) and a
# "settings:" line (train rerank's flags).
globs="$(sed -n 's/^questions: //p' train/rerank/SETTINGS)"
questions="$(cd train/rerank && ls ${globs:-questions-*.json} | sed 's|^|train/rerank/|' | paste -sd, -)"
go run ./train rerank -ws "$WS" -queries "$questions" -out scoring/rerank.json $(sed -n 's/^settings: //p' train/rerank/SETTINGS)
same scoring/rerank.json "$before"
