#!/usr/bin/env bash
# zoekt.sh: install zoekt at a pinned version and index a corpus with it.
#
#   bench/zoekt.sh [CORPUS [INDEX_DIR]]
#
# Environment (all optional):
#   ZOEKT_VERSION  the zoekt module version (default: the pinned one below)
#   ZOEKT_BIN      where the binaries go (default /tmp/quarry-bench/zoekt/bin)
#   CORPUS         the directory to index (default /tmp/quarry-bench/corpus)
#   ZOEKT_INDEX    the index directory (default /tmp/quarry-bench/zoekt/index)
#
# Idempotent: binaries already in ZOEKT_BIN and an index already built for the same
# corpus are kept. Set ZOEKT_REINDEX=1 to build the index again.
set -euo pipefail

# The newest zoekt commit that the Go module proxy here serves and that builds with Go 1.26.
# zoekt has no release tags, so this is a pseudo-version (commit c3d4afa94960, 2026-04-13).
ZOEKT_VERSION="${ZOEKT_VERSION:-v0.0.0-20260413093009-c3d4afa94960}"
ZOEKT_BIN="${ZOEKT_BIN:-/tmp/quarry-bench/zoekt/bin}"
CORPUS="${1:-${CORPUS:-/tmp/quarry-bench/corpus}}"
ZOEKT_INDEX="${2:-${ZOEKT_INDEX:-/tmp/quarry-bench/zoekt/index}}"

log() { echo "zoekt.sh: $*" >&2; }

install_zoekt() {
	local stamp="$ZOEKT_BIN/.version"
	if [[ -x "$ZOEKT_BIN/zoekt-index" && -x "$ZOEKT_BIN/zoekt-webserver" && -x "$ZOEKT_BIN/zoekt" &&
		"$(cat "$stamp" 2>/dev/null)" == "$ZOEKT_VERSION" ]]; then
		log "zoekt $ZOEKT_VERSION already in $ZOEKT_BIN"
		return
	fi
	mkdir -p "$ZOEKT_BIN"
	local pkgs=(cmd/zoekt-index cmd/zoekt-webserver cmd/zoekt)
	local args=()
	for p in "${pkgs[@]}"; do args+=("github.com/sourcegraph/zoekt/$p@$ZOEKT_VERSION"); done
	log "installing zoekt $ZOEKT_VERSION into $ZOEKT_BIN"
	if ! GOBIN="$ZOEKT_BIN" go install "${args[@]}"; then
		# go install PKG@VERSION reads the module's version list to check for a deprecation
		# notice; the proxy here refuses zoekt's list (403), which fails the install. Building
		# the same packages from a throwaway module that requires that exact version skips
		# that check and gives the same binaries (zoekt's own go.mod picks the dependencies).
		log "go install PKG@VERSION failed; building from a throwaway module instead"
		local build
		build="$(dirname "$ZOEKT_BIN")/build"
		rm -rf "$build"
		mkdir -p "$build"
		cat >"$build/go.mod" <<EOF
module quarrybench/zoektbuild

go 1.25.0

require github.com/sourcegraph/zoekt $ZOEKT_VERSION
EOF
		{
			echo '//go:build tools'
			echo
			echo 'package tools'
			echo
			echo 'import ('
			for p in "${pkgs[@]}"; do echo "	_ \"github.com/sourcegraph/zoekt/$p\""; done
			echo ')'
		} >"$build/tools.go"
		(cd "$build" && GOFLAGS=-mod=mod go mod tidy &&
			GOBIN="$ZOEKT_BIN" go install "${pkgs[@]/#/github.com/sourcegraph/zoekt/}")
	fi
	echo "$ZOEKT_VERSION" >"$stamp"
}

index_corpus() {
	local corpus stamp want
	corpus="$(cd "$CORPUS" && pwd)"
	stamp="$ZOEKT_INDEX/.quarry-bench-corpus"
	want="$corpus $ZOEKT_VERSION"
	if [[ "${ZOEKT_REINDEX:-0}" != 1 && "$(cat "$stamp" 2>/dev/null)" == "$want" ]] &&
		compgen -G "$ZOEKT_INDEX/*.zoekt" >/dev/null; then
		log "index of $corpus already in $ZOEKT_INDEX"
		return
	fi
	rm -rf "$ZOEKT_INDEX"
	mkdir -p "$ZOEKT_INDEX"
	log "indexing $corpus into $ZOEKT_INDEX"
	local start=$SECONDS
	# .quarry holds Quarry's own index inside the corpus; the rest are zoekt's defaults.
	# No ctags: symbol data plays no part in content-regex search.
	"$ZOEKT_BIN/zoekt-index" -index "$ZOEKT_INDEX" -ignore_dirs .git,.hg,.svn,.quarry \
		-disable_ctags -parallelism "$(nproc)" "$corpus"
	log "indexed in $((SECONDS - start))s: $(du -sh "$ZOEKT_INDEX" | cut -f1) in $(ls "$ZOEKT_INDEX"/*.zoekt | wc -l) shards"
	echo "$want" >"$stamp"
}

install_zoekt
index_corpus
