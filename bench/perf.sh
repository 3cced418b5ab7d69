#!/usr/bin/env bash
# bench/perf.sh: Quarry against zoekt with universal-ctags symbols, on one corpus: full index
# (wall, CPU, peak RSS of the process tree, bytes written, size on disk), Quarry's re-index
# without and with one edit, warm search latency (searchbench, as bench/warm.sh), the content
# regexes of bench/regex-queries.txt (as bench/regex.sh times them) and
# one-shot CLI latency. It prints one markdown table of medians and ratios quarry/zoekt.
#
# Full builds run in alternating pairs (quarry, zoekt, quarry, zoekt, ...), each through
# bench/cmd/measure. Quarry builds from scratch by removing $CORPUS/.quarry first: a later
# `quarry index` of that corpus (bench/regex.sh's) is then a full build again. zoekt builds
# into a fresh $ZOEKT_INDEX each time; bench/regex.sh's zoekt index is never touched.
#
#   CORPUS      the directory to index (default /tmp/quarry-bench/corpus, bench/regex.sh's copy)
#   WORK        scratch and results (default /tmp/quarry-bench)
#   QUARRY_BIN  a prebuilt quarry (default: built from this repo into $WORK/perf-quarry)
#   ZOEKT_BIN   zoekt-index, zoekt-webserver, zoekt (default $WORK/zoekt/bin if there, else
#               /tmp/quarry-bench/zoekt/bin, where bench/zoekt.sh installs them)
#   ZOEKT_INDEX zoekt's index for this benchmark (default $WORK/perf-zoekt/index)
#   PAIRS (3)   full-build pairs; each also times Quarry's no-change and one-edit re-index
#   ROUNDS (20) WARMUP (2)  searchbench's timed and untimed rounds (warm latency)
#   CLI_RUNS (10)  one-shot runs per query, mode (walk, watcher) and engine, alternating
#   CLI_QUERIES    newline-separated (default: ServeHTTP, connection pool, Unmarshal)
#   SKIP_BUILD (0) 1: no full builds or re-indexes; reuse the existing indexes (warm + CLI only)
#   CTAGS          universal-ctags binary (default: universal-ctags or ctags on PATH)
#   ZOEKT_PARALLELISM  zoekt-index -parallelism (default: nproc)
#   EDIT_FILE      the file (relative to CORPUS) the one-edit re-index appends a line to
#                  (default: the first .go file Quarry indexed)
#
# Results: $WORK/perf-runs.jsonl (every measurement, one JSON line each), $WORK/perf-table.md,
# and the commands' output in $WORK/perf-logs/. It exits non-zero, with the table so far and
# "failed" in its empty cells, when a step fails.
set -Eeuo pipefail
# no other step leaves a watcher behind (cmd/quarry/autowatch.go); the CLI step sets it
export QUARRY_AUTOWATCH=0

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$BENCH/.." && pwd)"
WORK="${WORK:-/tmp/quarry-bench}"
CORPUS="${CORPUS:-/tmp/quarry-bench/corpus}"
if [[ -z ${ZOEKT_BIN:-} ]]; then # bench/zoekt.sh installs into /tmp/quarry-bench/zoekt/bin
	ZOEKT_BIN="$WORK/zoekt/bin"
	[[ -x $ZOEKT_BIN/zoekt-index ]] || ZOEKT_BIN=/tmp/quarry-bench/zoekt/bin
fi
ZOEKT_INDEX="${ZOEKT_INDEX:-$WORK/perf-zoekt/index}"
PAIRS="${PAIRS:-3}" ROUNDS="${ROUNDS:-20}" WARMUP="${WARMUP:-2}" CLI_RUNS="${CLI_RUNS:-10}"
SKIP_BUILD="${SKIP_BUILD:-0}"
ZOEKT_PARALLELISM="${ZOEKT_PARALLELISM:-$(nproc)}"
CLI_QUERIES="${CLI_QUERIES:-ServeHTTP
connection pool
Unmarshal}"
RUNS="$WORK/perf-runs.jsonl"
TABLE="$WORK/perf-table.md"
LOGS="$WORK/perf-logs"
TOOLS="$WORK/perf-tools"

log() { echo "perf.sh: $*" >&2; }

# json_str S: S as a JSON string (quotes, backslashes and control characters escaped).
json_str() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/\\t}
	s=${s//$'\n'/\\n}
	s=${s//$'\r'/\\r}
	printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037')"
}

# --- failure: record it, print the table so far, exit non-zero ---
pids=()
edit_backup="" edit_target=""
finished=0 started=0 # started: $RUNS belongs to this run
restore_edit() {
	if [[ -n $edit_backup && -f $edit_backup ]]; then
		cp -p "$edit_backup" "$edit_target" && rm -f "$edit_backup"
		log "restored $edit_target"
	fi
	edit_backup=""
}
stop_servers() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	pids=()
}
cleanup() {
	stop_servers
	restore_edit
	pkill -f -- "watch --idle-exit [^ ]* --root $CORPUS\$" 2>/dev/null || true # the CLI step's watcher
}
trap cleanup EXIT
trap 'exit 130' INT TERM

table() {
	local args=()
	[[ $SKIP_BUILD == 1 ]] && args+=(-skip-build)
	local rc=0
	"$TOOLS/perftable" "${args[@]}" "$RUNS" >"$TABLE.body" || rc=$?
	{
		if [[ -f $WORK/perf-header.md ]]; then
			cat "$WORK/perf-header.md"
			echo
		fi
		cat "$TABLE.body"
	} >"$TABLE"
	rm -f "$TABLE.body"
	echo
	cat "$TABLE"
	echo
	log "table in $TABLE, every run in $RUNS, logs in $LOGS"
	return $rc
}
die() {
	log "FAILED: $*"
	# In a subshell (a command substitution), only leave it: the main shell sees the failure.
	[[ $BASHPID == "$$" ]] || exit 1
	if [[ $finished == 0 && $started == 1 ]]; then
		finished=1
		printf '{"tags":{"step":"fail"},"what":%s}\n' "$(json_str "$*")" >>"$RUNS"
		table || true
	fi
	exit 1
}
trap 'die "line $LINENO: $BASH_COMMAND (exit $?)"' ERR

# --- preparation ---
mkdir -p "$WORK" "$TOOLS"
rm -rf "$LOGS"
mkdir -p "$LOGS"
[[ -d $CORPUS ]] || die "no corpus at $CORPUS (bench/regex.sh prepares /tmp/quarry-bench/corpus; any directory works)"
CORPUS="$(cd "$CORPUS" && pwd -P)"
mkdir -p "$(dirname "$ZOEKT_INDEX")"
ZOEKT_INDEX="$(cd "$(dirname "$ZOEKT_INDEX")" && pwd -P)/$(basename "$ZOEKT_INDEX")"
for keep in /tmp/quarry-bench/zoekt/index "$WORK/zoekt/index"; do
	if [[ -d $keep && $(cd "$keep" && pwd -P) == "$ZOEKT_INDEX" ]]; then
		die "ZOEKT_INDEX=$ZOEKT_INDEX is bench/regex.sh's zoekt index; perf.sh deletes its index before each build: give it a directory of its own"
	fi
done
case "$ZOEKT_INDEX/" in "$CORPUS"/*) die "ZOEKT_INDEX=$ZOEKT_INDEX is inside the corpus $CORPUS" ;; esac
case "$CORPUS/" in "$ZOEKT_INDEX"/*) die "the corpus $CORPUS is inside ZOEKT_INDEX=$ZOEKT_INDEX" ;; esac
[[ $PAIRS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ && $CLI_RUNS =~ ^[1-9][0-9]*$ && $WARMUP =~ ^[0-9]+$ ]] ||
	die "PAIRS, ROUNDS and CLI_RUNS must be >= 1 and WARMUP >= 0"

# The tools are standard-library Go: they build even while the rest of the tree does not.
for t in measure perftable searchbench; do
	(cd "$REPO" && go build -o "$TOOLS/$t" "./bench/cmd/$t") || die "cannot build bench/cmd/$t"
done
: >"$RUNS"
rm -f "$WORK/perf-header.md" "$TABLE"
started=1

if [[ -z ${QUARRY_BIN:-} ]]; then
	QUARRY_BIN="$WORK/perf-quarry"
	log "building quarry into $QUARRY_BIN"
	(cd "$REPO" && go build -o "$QUARRY_BIN" ./cmd/quarry) ||
		die "quarry does not build from $REPO: build one elsewhere (git worktree add /tmp/wt HEAD) and set QUARRY_BIN"
fi
[[ -x $QUARRY_BIN ]] || die "QUARRY_BIN=$QUARRY_BIN is not an executable"
for b in zoekt-index zoekt-webserver zoekt; do
	[[ -x $ZOEKT_BIN/$b ]] || die "no $ZOEKT_BIN/$b: run bench/zoekt.sh once (it installs zoekt at the pinned version)"
done

# zoekt-index runs universal-ctags when CTAGS_COMMAND names it or `universal-ctags` is on
# PATH (index.checkCTags); Debian's package installs it as /usr/bin/ctags only, so without
# CTAGS_COMMAND zoekt would quietly index no symbols. -require_ctags makes a missing or
# unusable ctags (and any ctags error) fail the build instead.
CTAGS="${CTAGS:-$(command -v universal-ctags || command -v ctags || true)}"
[[ -n $CTAGS && -x $CTAGS ]] || die "no universal-ctags (apt-get install universal-ctags, or set CTAGS)"
ctags_version=$("$CTAGS" --version 2>&1 || true)
[[ $ctags_version == *"Universal Ctags"* ]] || die "$CTAGS is not universal-ctags: $ctags_version"
ctags_help=$("$CTAGS" --help 2>&1 || true)
[[ $ctags_help == *+interactive* ]] || die "$CTAGS lacks the +interactive feature zoekt needs"
export CTAGS_COMMAND="$CTAGS"

# A quarry process serving the corpus (mcp, watch, index) would take our `quarry index` and
# `quarry search` runs over its socket: make sure there is none.
quarry_server_check() {
	local lock="$CORPUS/.quarry/quarry.sock.lock"
	if [[ -e $lock ]] && ! flock -n "$lock" true; then
		die "a quarry process serves $CORPUS (it holds $lock): stop it first"
	fi
}
quarry_server_check

# size_of DIR: its bytes on disk, as du -sb counts them (apparent sizes, directories included).
size_of() {
	local out
	out=$(du -sb "$@") || die "du -sb $* failed"
	echo "${out%%[[:space:]]*}"
}
corpus_bytes=$(size_of --exclude=.quarry "$CORPUS")
corpus_files=$(find "$CORPUS" -path "$CORPUS/.quarry" -prune -o -type f -print | wc -l)
printf '{"tags":{"step":"corpus"},"bytes":%d,"files":%d}\n' "$corpus_bytes" "$corpus_files" >>"$RUNS"

{
	echo "## Quarry vs zoekt+ctags: $CORPUS"
	echo
	echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- corpus: $corpus_files files, $(awk -v b="$corpus_bytes" 'BEGIN{printf "%.1f MB", b/1e6}') (without .quarry)"
	# The binary's own VCS stamp if it has one; else its date (it may come from another tree).
	qrev=$(go version -m "$QUARRY_BIN" 2>/dev/null | awk '$2 == "vcs.revision" {r = substr($3, 1, 12)} $2 == "vcs.modified" && $3 == "true" {m = "+dirty"} END {print r m}' || true)
	echo "- quarry: $QUARRY_BIN ($("$QUARRY_BIN" --version 2>&1 | sed -n 1p), sha256 $(sha256sum "$QUARRY_BIN" | cut -c1-12), $([[ -n $qrev ]] && echo "revision $qrev" || echo "built $(date -u -r "$QUARRY_BIN" '+%Y-%m-%d %H:%M UTC'), no VCS stamp")); this checkout: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "- zoekt: $(cat "$ZOEKT_BIN/.version" 2>/dev/null || echo 'version unknown'), zoekt-index -require_ctags -parallelism $ZOEKT_PARALLELISM; ctags: $CTAGS (${ctags_version%%$'\n'*})"
	echo "- $([[ $SKIP_BUILD == 1 ]] && echo "SKIP_BUILD=1: existing indexes" || echo "PAIRS=$PAIRS full-build pairs"), warm: ROUNDS=$ROUNDS WARMUP=$WARMUP, CLI_RUNS=$CLI_RUNS"
} >"$WORK/perf-header.md"

M="$TOOLS/measure"
# report_field NAME FILE: the integer NAME of the run's report in quarry index --json
# (manage_workspace index's answer: the report is its indexed[0]).
report_field() {
	if command -v jq >/dev/null; then
		jq -r --arg f "$1" '.indexed[0][$f] // empty' "$2"
	else # indented by two spaces a level: the report's fields are at the third
		sed -n "s/^      \"$1\": *\([0-9][0-9]*\),\{0,1\}$/\1/p" "$2" | sed -n 1p
	fi
}

quarry_index() { # quarry_index LOG [measure args...]: quarry index --json of the corpus
	local out=$1
	shift
	(cd "$CORPUS" && "$@" "$QUARRY_BIN" index "$CORPUS" --json) >"$out" 2>"$out.err"
}

# --- full builds and re-indexes ---
if [[ $SKIP_BUILD != 1 ]]; then
	for pair in $(seq 1 "$PAIRS"); do
		# Quarry, from scratch.
		rm -rf "$CORPUS/.quarry"
		sync
		log "pair $pair/$PAIRS: quarry index (full)"
		quarry_index "$LOGS/quarry-full-$pair.json" "$M" -o "$RUNS" -tag step=full -tag engine=quarry -tag pair="$pair" ||
			die "quarry index (full, pair $pair) failed: see $LOGS/quarry-full-$pair.json.err"
		qsize=$(size_of "$CORPUS/.quarry")
		syms=$(report_field symbols "$LOGS/quarry-full-$pair.json")
		[[ ${syms:-0} -gt 0 ]] || die "quarry index (pair $pair) reports no symbols: see $LOGS/quarry-full-$pair.json"
		# Files whose parse failed, timeouts included (Quarry gives each file's parse a time
		# limit, so a very large file can lose its symbols on a busy machine).
		perrs=$({ grep -o '"files_with_parse_errors": *[0-9]*' "$LOGS/quarry-full-$pair.json" || true; } |
			awk -F: '{s += $2} END {print s + 0}')
		printf '{"tags":{"step":"size","engine":"quarry","pair":"%d"},"bytes":%d,"symbols":%d,"parse_errors":%d}\n' \
			"$pair" "$qsize" "$syms" "$perrs" >>"$RUNS"

		# zoekt with ctags, from scratch.
		rm -rf "$ZOEKT_INDEX"
		mkdir -p "$ZOEKT_INDEX"
		sync
		log "pair $pair/$PAIRS: zoekt-index with ctags (full)"
		"$M" -o "$RUNS" -tag step=full -tag engine=zoekt -tag pair="$pair" -- \
			"$ZOEKT_BIN/zoekt-index" -index "$ZOEKT_INDEX" -ignore_dirs .git,.hg,.svn,.quarry \
			-require_ctags -parallelism "$ZOEKT_PARALLELISM" "$CORPUS" >"$LOGS/zoekt-full-$pair.log" 2>&1 ||
			die "zoekt-index (pair $pair) failed: see $LOGS/zoekt-full-$pair.log"
		zsize=$(size_of "$ZOEKT_INDEX")
		# Each shard logs "symbol analysis finished for shard ...: ... symbols=N": ctags ran.
		zsyms=$({ grep -o 'symbol analysis finished.* symbols=[0-9]*' "$LOGS/zoekt-full-$pair.log" || true; } |
			sed 's/.*symbols=//' | awk '{s += $1} END {print s + 0}')
		[[ $zsyms -gt 0 ]] || die "zoekt-index (pair $pair) logged no ctags symbols: see $LOGS/zoekt-full-$pair.log"
		printf '{"tags":{"step":"size","engine":"zoekt","pair":"%d"},"bytes":%d,"symbols":%d}\n' "$pair" "$zsize" "$zsyms" >>"$RUNS"
		log "pair $pair/$PAIRS: quarry $syms symbols, zoekt+ctags $zsyms symbols"

		# Quarry, nothing changed.
		sync
		log "pair $pair/$PAIRS: quarry index (no change)"
		quarry_index "$LOGS/quarry-nochange-$pair.json" "$M" -o "$RUNS" -tag step=nochange -tag engine=quarry -tag pair="$pair" ||
			die "quarry index (no change, pair $pair) failed: see $LOGS/quarry-nochange-$pair.json.err"
		for f in added changed deleted renamed; do
			[[ $(report_field "$f" "$LOGS/quarry-nochange-$pair.json") == 0 ]] ||
				die "quarry index with no change reports $f != 0: see $LOGS/quarry-nochange-$pair.json"
		done

		# Quarry, one file edited: a line appended, timed; then restored and indexed, untimed.
		if [[ -z ${EDIT_FILE:-} ]]; then
			db=$(ls -t "$CORPUS"/.quarry/indexes/*/db/symbols.db 2>/dev/null | head -1 || true)
			if [[ -n $db ]] && command -v sqlite3 >/dev/null; then
				# Quarry's store lists the files it indexed; its schema may change, so this is a hint.
				EDIT_FILE=$(sqlite3 -readonly "$db" "SELECT path FROM files WHERE skipped = '' AND path LIKE '%.go' ORDER BY path LIMIT 1" 2>/dev/null || true)
			fi
			if [[ -z ${EDIT_FILE:-} ]]; then
				EDIT_FILE=$(cd "$CORPUS" && find . -path ./.quarry -prune -o -type f -name '*.go' -print | LC_ALL=C sort | sed -n 1p)
				EDIT_FILE=${EDIT_FILE#./}
			fi
			[[ -n $EDIT_FILE ]] || die "no .go file to edit in $CORPUS: set EDIT_FILE"
		fi
		edit_target="$CORPUS/$EDIT_FILE"
		[[ -f $edit_target ]] || die "EDIT_FILE $edit_target is not a file"
		((pair > 1)) || echo "- one-edit re-index: a line appended to $EDIT_FILE ($(stat -c %s "$edit_target") bytes)" >>"$WORK/perf-header.md"
		edit_backup="$WORK/perf-edit.orig"
		cp -p "$edit_target" "$edit_backup"
		printf '\n// quarry perf.sh edit %s\n' "$(date +%s%N)" >>"$edit_target"
		sync
		log "pair $pair/$PAIRS: quarry index (one edit: $EDIT_FILE)"
		quarry_index "$LOGS/quarry-edit-$pair.json" "$M" -o "$RUNS" -tag step=edit -tag engine=quarry -tag pair="$pair" ||
			die "quarry index (one edit, pair $pair) failed: see $LOGS/quarry-edit-$pair.json.err"
		[[ $(report_field changed "$LOGS/quarry-edit-$pair.json") == 1 ]] ||
			die "quarry index after one edit does not report 1 changed file: see $LOGS/quarry-edit-$pair.json"
		restore_edit
		quarry_index "$LOGS/quarry-restore-$pair.json" ||
			die "quarry index after restoring $EDIT_FILE failed: see $LOGS/quarry-restore-$pair.json.err"
	done
else
	[[ -d $CORPUS/.quarry ]] || die "SKIP_BUILD=1 but there is no Quarry index in $CORPUS/.quarry"
	compgen -G "$ZOEKT_INDEX/*.zoekt" >/dev/null || die "SKIP_BUILD=1 but there is no zoekt index in $ZOEKT_INDEX"
	qsize=$(size_of "$CORPUS/.quarry")
	zsize=$(size_of "$ZOEKT_INDEX")
	printf '{"tags":{"step":"size","engine":"quarry","pair":"0"},"bytes":%d}\n' "$qsize" >>"$RUNS"
	printf '{"tags":{"step":"size","engine":"zoekt","pair":"0"},"bytes":%d}\n' "$zsize" >>"$RUNS"
	quarry_index "$LOGS/quarry-uptodate.json" || die "quarry index (bringing it up to date) failed: see $LOGS/quarry-uptodate.json.err"
fi

# --- one-shot CLI: process start to exit, OS file cache warm ---
# Two modes, each alternating with zoekt: "walk", QUARRY_AUTOWATCH=0, no server running:
# every search compares the workspace with the index itself (through fresh.cache); then
# "watcher": as a user's shell runs it, the untimed first search leaves a watcher behind
# (cmd/quarry/autowatch.go) and the timed ones ask it. The watcher is stopped after.
quarry_server_check
mapfile -t cli_queries < <(printf '%s\n' "$CLI_QUERIES" | sed '/^[[:space:]]*$/d')
((${#cli_queries[@]})) || die "CLI_QUERIES is empty"
stop_autowatch() {
	pkill -f -- "watch --idle-exit [^ ]* --root $CORPUS\$" 2>/dev/null || true
	local lock="$CORPUS/.quarry/quarry.sock.lock" i
	for i in $(seq 1 100); do
		[[ -e $lock ]] && ! flock -n "$lock" true || return 0
		sleep 0.1
	done
	die "the watcher of $CORPUS did not stop"
}
for mode in walk watcher; do
	autowatch=0
	[[ $mode == watcher ]] && autowatch=10m
	for qi in "${!cli_queries[@]}"; do
		q=${cli_queries[$qi]}
		log "one-shot CLI ($mode): $q ($CLI_RUNS runs each, alternating)"
		# One untimed run each, so that both start from the same warm file cache (and, in
		# mode watcher, the first leaves the watcher the others ask).
		(cd "$CORPUS" && QUARRY_AUTOWATCH=$autowatch "$QUARRY_BIN" search "$q") >"$LOGS/cli-quarry-$mode-$qi.out" 2>&1 ||
			die "quarry search '$q' failed: see $LOGS/cli-quarry-$mode-$qi.out"
		"$ZOEKT_BIN/zoekt" -index_dir "$ZOEKT_INDEX" "$q" >"$LOGS/cli-zoekt-$qi.out" 2>&1 ||
			die "zoekt '$q' failed: see $LOGS/cli-zoekt-$qi.out"
		if [[ $mode == watcher && $qi == 0 ]]; then
			for i in $(seq 1 100); do # until it serves and its first scan is done
				(cd "$CORPUS" && QUARRY_AUTOWATCH=0 "$QUARRY_BIN" health --json 2>/dev/null) |
					grep -q '"scanning": false' && break
				sleep 0.1
			done
		fi
		for run in $(seq 1 "$CLI_RUNS"); do
			(cd "$CORPUS" && QUARRY_AUTOWATCH=$autowatch "$M" -interval 0 -o "$RUNS" -tag step=cli -tag engine=quarry -tag mode="$mode" -tag query="$q" -tag run="$run" -- \
				"$QUARRY_BIN" search "$q") >/dev/null 2>>"$LOGS/cli-quarry-$mode-$qi.err" ||
				die "quarry search '$q' (run $run) failed: see $LOGS/cli-quarry-$mode-$qi.err"
			"$M" -interval 0 -o "$RUNS" -tag step=cli -tag engine=zoekt -tag mode="$mode" -tag query="$q" -tag run="$run" -- \
				"$ZOEKT_BIN/zoekt" -index_dir "$ZOEKT_INDEX" "$q" >/dev/null 2>>"$LOGS/cli-zoekt-$qi.err" ||
				die "zoekt '$q' (run $run) failed: see $LOGS/cli-zoekt-$qi.err"
		done
	done
	[[ $mode == watcher ]] && stop_autowatch
done

# --- warm latency: searchbench against both servers, as bench/warm.sh ---
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}
zport=$(free_port 16270)
"$ZOEKT_BIN/zoekt-webserver" -index "$ZOEKT_INDEX" -listen "127.0.0.1:$zport" -rpc -html=false \
	>"$LOGS/warm-zoekt.log" 2>&1 &
pids+=($!)
qport=$(free_port $((zport + 1)))
(cd "$CORPUS" && exec "$QUARRY_BIN" mcp --root "$CORPUS" --http "127.0.0.1:$qport") \
	>"$LOGS/warm-quarry.log" 2>&1 &
pids+=($!)
log "warm: zoekt-webserver on 127.0.0.1:$zport, quarry mcp on 127.0.0.1:$qport; $ROUNDS rounds after $WARMUP"
rm -f "$WORK/perf-warm.jsonl"
"$TOOLS/searchbench" -zoekt "127.0.0.1:$zport" -quarry "127.0.0.1:$qport" -raw -target auto \
	-queries "$BENCH/warm-queries.txt" -rounds "$ROUNDS" -warmup "$WARMUP" -limit 20 -count=false \
	-json "$WORK/perf-warm.jsonl" >"$WORK/perf-warm.txt" 2>&1 ||
	die "searchbench failed: see $WORK/perf-warm.txt"
# The content regexes of bench/regex-queries.txt, as bench/regex.sh times them (every page
# followed for the line counts; regex.sh also compares the lines with ripgrep's).
log "regex: $(grep -cv -e '^#' -e '^[[:space:]]*$' "$BENCH/regex-queries.txt") content regexes, $ROUNDS rounds after $WARMUP"
rm -f "$WORK/perf-regex.jsonl"
"$TOOLS/searchbench" -zoekt "127.0.0.1:$zport" -quarry "127.0.0.1:$qport" \
	-queries "$BENCH/regex-queries.txt" -rounds "$ROUNDS" -warmup "$WARMUP" -quarry-max-bytes 0 \
	-json "$WORK/perf-regex.jsonl" >"$WORK/perf-regex.txt" 2>&1 ||
	die "searchbench (regexes) failed: see $WORK/perf-regex.txt"
stop_servers
if grep -q 'left out' "$WORK/perf-warm.txt"; then
	die "searchbench left an engine out (it did not answer): see $WORK/perf-warm.txt and $LOGS/warm-*.log"
fi
sed 's/^{/{"tags":{"step":"warm"},/' "$WORK/perf-warm.jsonl" >>"$RUNS"
sed 's/^{/{"tags":{"step":"regex"},/' "$WORK/perf-regex.jsonl" >>"$RUNS"

# --- the table ---
finished=1
table || { log "FAILED: the table has cells without a number"; exit 1; }
