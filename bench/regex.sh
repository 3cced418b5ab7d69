#!/usr/bin/env bash
# regex.sh: compare Quarry's content-regex search with zoekt (latency) and with ripgrep
# (matching lines), on a copy of the benchmark corpus.
#
#   bench/regex.sh
#
# Environment (all optional):
#   WORK          scratch directory (default /tmp/quarry-bench)
#   CORPUS_SRC    the corpus to copy (default /tmp/quarry-corpus/full, built by
#                 shared/bench/corpus.sh full)
#   CORPUS        the copy that both engines index (default $WORK/corpus)
#   QUARRY_BIN    the quarry binary, built from this repo (default $WORK/quarry)
#   QUARRY_BUILD  0: use QUARRY_BIN as it is, do not build it
#   ZOEKT_BIN     zoekt binaries (default $WORK/zoekt/bin), installed by bench/zoekt.sh
#   ZOEKT_INDEX   zoekt's index (default $WORK/zoekt/index)
#   ROUNDS        timed rounds (default 20); WARMUP untimed rounds before them (default 1)
#   ZOEKT_PORT, QUARRY_PORT  first loopback ports to try (default 16070, 16071)
#   QUARRY_MAX_BYTES  max_bytes for fast_search (default: none sent, so quarry mcp's budget
#                 for agents, 24 KiB, cuts each page)
#
# It leaves in $WORK: regex-bench.txt (searchbench's report), lines/ (each engine's
# path:line lists and ripgrep's) and the servers' logs.
set -euo pipefail
# quarry's commands here never leave a watcher behind (cmd/quarry/autowatch.go)
export QUARRY_AUTOWATCH="${QUARRY_AUTOWATCH:-0}"

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$BENCH/.." && pwd)"
WORK="${WORK:-/tmp/quarry-bench}"
CORPUS_SRC="${CORPUS_SRC:-/tmp/quarry-corpus/full}"
CORPUS="${CORPUS:-$WORK/corpus}"
QUARRY_BIN="${QUARRY_BIN:-$WORK/quarry}"
ZOEKT_BIN="${ZOEKT_BIN:-$WORK/zoekt/bin}"
ZOEKT_INDEX="${ZOEKT_INDEX:-$WORK/zoekt/index}"
ROUNDS="${ROUNDS:-20}"
WARMUP="${WARMUP:-1}"
LINES="$WORK/lines"
export ZOEKT_BIN ZOEKT_INDEX

# The queries, as RE2 regexes, case-sensitive: bench/regex-queries.txt (perf.sh times them
# too). searchbench sends them to Quarry as /REGEX/ and to zoekt as case:yes
# content:"REGEX"; ripgrep gets them as they are.
mapfile -t QUERIES < <(grep -v -e '^#' -e '^[[:space:]]*$' "$BENCH/regex-queries.txt")

log() { echo "regex.sh: $*" >&2; }

mkdir -p "$WORK"

# --- tools ---
need=()
for t in rg:ripgrep sqlite3:sqlite3 rsync:rsync; do
	command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
done
if ((${#need[@]})); then
	log "installing ${need[*]}"
	apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; }
fi

# --- builds ---
if [[ "${QUARRY_BUILD:-1}" != 0 ]]; then
	# The tree may not build for a moment while others edit it: try a few times, then fall
	# back to the binary of an earlier build if there is one.
	built=0
	for try in 1 2 3; do
		if (cd "$REPO" && go build -o "$QUARRY_BIN.new" ./cmd/quarry); then
			mv "$QUARRY_BIN.new" "$QUARRY_BIN"
			built=1
			break
		fi
		log "quarry did not build (try $try of 3)"
		[[ $try == 3 ]] || sleep 30
	done
	if [[ $built == 0 ]]; then
		[[ -x "$QUARRY_BIN" ]] || { log "no quarry binary at $QUARRY_BIN"; exit 1; }
		log "using the earlier build $QUARRY_BIN"
	fi
fi
(cd "$REPO" && go build -o "$WORK/searchbench" ./bench/cmd/searchbench)

# --- corpus and indexes ---
if [[ "$CORPUS" != "$CORPUS_SRC" ]]; then
	[[ -d "$CORPUS_SRC" ]] || { log "no corpus at $CORPUS_SRC: run shared/bench/corpus.sh full"; exit 1; }
	# A copy of its own, so that nobody else's quarry index of the corpus gets in the way.
	# .quarry is excluded, so --delete leaves this copy's index alone.
	rsync -a --delete --exclude .quarry "$CORPUS_SRC/" "$CORPUS/"
fi
"$BENCH/zoekt.sh" "$CORPUS" "$ZOEKT_INDEX"
log "quarry index $CORPUS (incremental after the first run)"
start=$SECONDS
(cd "$CORPUS" && "$QUARRY_BIN" index "$CORPUS" --json >"$WORK/quarry-index.json")
log "quarry index took $((SECONDS - start))s"

# --- servers ---
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port P: the first port from P up that nothing listens on (loopback).
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}
zport=$(free_port "${ZOEKT_PORT:-16070}")
"$ZOEKT_BIN/zoekt-webserver" -index "$ZOEKT_INDEX" -listen "127.0.0.1:$zport" -rpc -html=false \
	>"$WORK/zoekt-webserver.log" 2>&1 &
pids+=($!)
qport=$(free_port "${QUARRY_PORT:-16071}")
[[ $qport != "$zport" ]] || qport=$(free_port $((zport + 1)))
(cd "$CORPUS" && exec "$QUARRY_BIN" mcp --root "$CORPUS" --http "127.0.0.1:$qport") \
	>"$WORK/quarry-mcp.log" 2>&1 &
pids+=($!)
log "zoekt-webserver on 127.0.0.1:$zport, quarry mcp on 127.0.0.1:$qport"

# --- latency: searchbench ---
cp "$BENCH/regex-queries.txt" "$WORK/regex-queries.txt"
rm -rf "$LINES"
mkdir -p "$LINES"
"$WORK/searchbench" -zoekt "127.0.0.1:$zport" -quarry "127.0.0.1:$qport" \
	-queries "$WORK/regex-queries.txt" -rounds "$ROUNDS" -warmup "$WARMUP" -dump "$LINES" \
	-quarry-max-bytes "${QUARRY_MAX_BYTES:-0}" |
	tee "$WORK/regex-bench.txt"

# --- matching lines: ripgrep over the files Quarry indexed ---
# Quarry's SQLite store lists every file it saw; a file it skipped (binary, minified) has
# skipped set to the reason and no content. Files over --max-size or ignored are not listed.
db=$(ls -t "$CORPUS"/.quarry/indexes/*/db/symbols.db 2>/dev/null | head -1 || true)
if [[ -n "$db" ]]; then
	sqlite3 "$db" "SELECT path FROM files WHERE skipped = '' ORDER BY path" | tr '\n' '\0' >"$LINES/files.lst"
	what="the $(tr -cd '\0' <"$LINES/files.lst" | wc -c) files Quarry indexed ($db)"
else
	(cd "$CORPUS" && find . -type f -not -path './.quarry/*' -not -path '*/.git/*' -printf '%P\0') >"$LINES/files.lst"
	what="all $(tr -cd '\0' <"$LINES/files.lst" | wc -c) regular files (no Quarry store found)"
fi
echo
echo "ripgrep $(rg --version | sed -n '1s/^ripgrep \([^ ]*\).*/\1/p') over $what; quarry lines from searchbench (fast_search, every page via next_cursor)"

# keep_listed LIST: the path:line lines of stdin whose path is in the NUL-separated LIST.
keep_listed() {
	perl -e 'open(my $f, "<", $ARGV[0]) or die; local $/ = "\0"; my %in;
		while (<$f>) { chomp; $in{$_} = 1 } close $f; $/ = "\n";
		while (<STDIN>) { print if /^(.*):\d+$/ && $in{$1} }' "$1"
}

i=0
for re in "${QUERIES[@]}"; do
	i=$((i + 1))
	rgout="$LINES/rg-$i.txt"
	# -H: name the file even when a batch holds one; --null: a NUL after the path, so
	# paths with colons survive; exit 1 (no match in a batch) is not an error.
	(cd "$CORPUS" && xargs -0 -n 2000 rg --no-config -n -H --null --no-heading -e "$re" \
		<"$LINES/files.lst" 2>"$LINES/rg-$i.err" || [[ $? == 123 ]]) |
		perl -ne 'print "$1:$2\n" if /^([^\0]*)\0(\d+):/' | LC_ALL=C sort -u >"$rgout"
	[[ ! -s "$LINES/rg-$i.err" ]] || log "rg said: $(head -3 "$LINES/rg-$i.err")"
	echo
	echo "query $i: $re"
	echo "  rg lines:     $(wc -l <"$rgout")"
	for eng in quarry zoekt; do
		f="$LINES/$eng-$i.txt"
		if [[ ! -f "$f" ]]; then
			echo "  $eng lines: none (searchbench got no complete answer; see its report above)"
			continue
		fi
		LC_ALL=C sort -u "$f" >"$f.sorted"
		if [[ $eng == zoekt ]]; then
			# zoekt indexed every file; compare it on Quarry's files only.
			keep_listed "$LINES/files.lst" <"$f.sorted" >"$f.listed"
			mv "$f.listed" "$f.sorted"
		fi
		printf '  %-13s %s\n' "$eng lines:" "$(wc -l <"$f.sorted")"
		LC_ALL=C comm -23 "$rgout" "$f.sorted" >"$LINES/only-rg-not-$eng-$i.txt"
		LC_ALL=C comm -13 "$rgout" "$f.sorted" >"$LINES/only-$eng-$i.txt"
		echo "    only in rg, not $eng: $(wc -l <"$LINES/only-rg-not-$eng-$i.txt")"
		sed -n '1,5s/^/      /p' "$LINES/only-rg-not-$eng-$i.txt"
		echo "    only in $eng: $(wc -l <"$LINES/only-$eng-$i.txt")"
		sed -n '1,5s/^/      /p' "$LINES/only-$eng-$i.txt"
	done
done
