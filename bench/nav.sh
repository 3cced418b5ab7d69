#!/usr/bin/env bash
# Quarry's navigation (refs, callers) against compiler-grade oracles (issue 40); see
# bench/nav/README.md.
#
#   bench/nav.sh LANG REPO [N]   one repository: a name of the fixed set below, or a directory
#   bench/nav.sh all [N]         the fixed set, N definitions each (default 150): a markdown table
#   bench/nav.sh ci              the fixed set with a small sample (NAV_CI_N, default 40)
#
# LANG: javascript (js), typescript (ts), python (py), go, and those bench/nav/lang_*.sh add
# (c, cpp, java, rust). Environment: QUARRY_BIN (a quarry
# binary; default: build this tree into $WORK/bin/quarry), WORK (default /tmp/navh), SEED
# (default quarry-nav), ORACLE (one repository: reuse this oracle JSONL instead of running
# the oracle), ORACLE_DIR (every repository: reuse ORACLE_DIR/NAME.jsonl where it exists). Prints one
# table row per repository; keeps, per repository, the oracle's
# JSON lines in $WORK/oracle/NAME.jsonl, the missed and extra uses in $WORK/misses/NAME.jsonl,
# the worst definitions with their lines in $WORK/verbose/NAME.txt, and the indexed copy in
# $WORK/repos/NAME (Go: $WORK/gopath/src/IMPORT/PATH).
set -euo pipefail
# quarry's commands here never leave a watcher behind (cmd/quarry/autowatch.go)
export QUARRY_AUTOWATCH="${QUARRY_AUTOWATCH:-0}"
here=$(cd "$(dirname "$0")" && pwd)
tree=$(dirname "$here")
WORK=${WORK:-/tmp/navh}
SEED=${SEED:-quarry-nav}
start_s=$(date +%s)

# The fixed set: name, language, source, the paths definitions are sampled from. None is in
# the benchmark corpus (Go's standard library, Django, Debian's Rust crates, rxjs, typeorm,
# java.base, SQLite).
REPOS=(
  "fastify javascript npm:fastify@5.12.8 lib/,fastify.js"
  "execa javascript npm:execa@9.6.0 lib/,index.js"
  "mobx typescript npm:mobx@6.16.1 src/"
  "click python deb:python3-click=8.1.3-2:/usr/lib/python3/dist-packages/click -"
  "requests python deb:python3-requests=2.28.1+dfsg-1:/usr/lib/python3/dist-packages/requests -"
  "cobra go deb:golang-github-spf13-cobra-dev=1.6.1-1:github.com/spf13/cobra -"
)

# More languages plug in as bench/nav/lang_LANG.sh (LANG canonical), each sourced here. One
# may append its repositories to REPOS, name itself and its aliases in LANGS ("LANG alias..."),
# and define need_LANG (installs its oracle), oracle_LANG DIR N SEED SAMPLE (writes the
# oracle's JSON lines to stdout) and prepare_NAME DIR (after a repository is copied: unpack,
# configure). The deb: source's PATH may also be a tarball, unpacked into the copy.
LANGS=()
for f in "$here"/nav/lang_*.sh; do
  [ -e "$f" ] || continue
  # shellcheck source=/dev/null
  source "$f"
done

usage() {
  cat >&2 <<EOF
usage: bench/nav.sh LANG REPO [N]    LANG: javascript|js, typescript|ts, python|py, go
                                     REPO: $(printf '%s ' "${REPOS[@]%% *}")or a directory
       bench/nav.sh all [N]          the fixed set, N definitions each (default 150)
       bench/nav.sh ci               the fixed set, NAV_CI_N definitions each (default 40)
EOF
  exit 2
}

log() { echo "nav.sh: [$(( $(date +%s) - start_s ))s] $*" >&2; }
die() { echo "nav.sh: $*" >&2; exit 1; }

canon_lang() {
  case "$1" in
    javascript|js) echo javascript ;;
    typescript|ts) echo typescript ;;
    python|py) echo python ;;
    go|golang) echo go ;;
    *)
      local l a
      for l in "${LANGS[@]}"; do
        for a in $l; do [ "$a" = "$1" ] && { echo "${l%% *}"; return 0; }; done
      done
      local more=
      for l in "${LANGS[@]}"; do more+=", ${l%% *}"; done
      die "unknown LANG '$1': accepted: javascript (js), typescript (ts), python (py), go$more" ;;
  esac
}

apt_updated=
need_apt() { # need_apt PKG[=VERSION]...: installs the packages not installed
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  if [ -z "$apt_updated" ]; then apt-get update -qq >/dev/null; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

check_deb_version() { # the pinned version, or a warning naming the one installed
  local pkg=${1%%=*} want=${1#*=} have
  have=$(dpkg-query -W -f='${Version}' "$pkg")
  [ "$have" = "$want" ] || log "warning: $pkg is $have here, the fixed set pins $want: figures may differ"
}

need_ts() {
  command -v node >/dev/null && command -v npm >/dev/null || need_apt nodejs npm
  local want have=
  want=$(sed -n 's/.*"typescript": *"\([^"]*\)".*/\1/p' "$here/nav/package.json")
  [ -f "$here/nav/node_modules/typescript/package.json" ] &&
    have=$(node -p "require('$here/nav/node_modules/typescript/package.json').version")
  if [ "$have" != "$want" ]; then
    log "npm ci in bench/nav (typescript $want)"
    npm ci --prefix "$here/nav" --no-audit --no-fund --loglevel=error >/dev/null
  fi
}

need_jedi() { need_apt python3-jedi; }

built=
build() {
  [ -n "$built" ] && return 0
  mkdir -p "$WORK/bin"
  if [ -n "${QUARRY_BIN:-}" ]; then
    [ -x "$QUARRY_BIN" ] || die "QUARRY_BIN=$QUARRY_BIN is not an executable"
    quarry=$QUARRY_BIN
  else
    log "building quarry into $WORK/bin/quarry"
    (cd "$tree" && go build -o "$WORK/bin/quarry" ./cmd/quarry) || die "go build ./cmd/quarry failed"
    quarry=$WORK/bin/quarry
  fi
  (cd "$tree" && go build -o "$WORK/bin/navcheck" ./bench/cmd/navcheck) || die "go build ./bench/cmd/navcheck failed"
  navcheck=$WORK/bin/navcheck
  built=1
}

spec_of() { # spec_of NAME: the fixed set's line for NAME, or nothing
  local r
  for r in "${REPOS[@]}"; do [ "${r%% *}" = "$1" ] && { echo "$r"; return 0; }; done
  return 0
}

# fetch NAME LANG SOURCE: a fresh copy of the repository; sets dir
fetch() {
  local name=$1 lang=$2 src=$3 tmp
  case "$src" in
    npm:*)
      command -v npm >/dev/null || need_apt nodejs npm
      dir=$WORK/repos/$name
      rm -rf "$dir"; mkdir -p "$dir"
      tmp=$(mktemp -d)
      (cd "$tmp" && npm pack -q "${src#npm:}" >/dev/null) || die "npm pack ${src#npm:} failed"
      tar xzf "$tmp"/*.tgz -C "$dir" --strip-components=1
      rm -rf "$tmp"
      if [ "$name" = mobx ]; then # its sources; dist/ holds the same code built
        find "$dir" -mindepth 1 -maxdepth 1 ! -name src ! -name package.json -exec rm -rf {} +
      fi
      ;;
    deb:*)
      local rest=${src#deb:} pkg path
      pkg=${rest%%:*}; path=${rest#*:}
      case "$rest" in *=*:*:*) pkg=${rest%:*}; path=${rest##*:} ;; esac # a version with an epoch (=1:4.4-2)
      need_apt "$pkg"
      check_deb_version "$pkg"
      if [ "$lang" = go ]; then
        dir=$WORK/gopath/src/$path
        rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
        cp -r "/usr/share/gocode/src/$path" "$dir"
      else
        dir=$WORK/repos/$name
        rm -rf "$dir"; mkdir -p "$dir"
        case "$path" in
          *.tar.*|*.tgz) tar xf "$path" -C "$dir" ;;
          *) cp -r "$path" "$dir/" ;;
        esac
        find "$dir" -name __pycache__ -prune -exec rm -rf {} +
      fi
      ;;
    dir:*)
      local from=${src#dir:}
      if [ "$lang" = go ]; then
        local ip= gp
        for gp in ${GOPATH:+${GOPATH//:/ }} /usr/share/gocode; do
          case "$from/" in "$gp/src/"*) ip=${from#"$gp/src/"}; break ;; esac
        done
        [ -n "$ip" ] || die "$from is not under \$GOPATH/src nor /usr/share/gocode/src: the Go oracle works in GOPATH mode"
        dir=$WORK/gopath/src/$ip
      else
        dir=$WORK/repos/$name
      fi
      rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
      cp -a "$from" "$dir"
      rm -rf "$dir/.quarry"
      ;;
  esac
}

# one NAME LANG SOURCE SAMPLE N: fetch, index, oracle, compare; prints the row
one() {
  local name=$1 lang=$2 src=$3 sample=$4 n=$5 oracle
  case "$lang" in
    javascript|typescript) need_ts ;;
    python) need_jedi ;;
    go) ;;
    *) "need_$lang" ;;
  esac
  build
  mkdir -p "$WORK/oracle" "$WORK/misses" "$WORK/verbose"
  fetch "$name" "$lang" "$src"
  if declare -F "prepare_$name" >/dev/null; then "prepare_$name" "$dir"; fi
  log "$name: indexing $dir"
  "$quarry" index "$dir" >"$WORK/verbose/$name.index.txt" 2>&1 || { cat "$WORK/verbose/$name.index.txt" >&2; die "quarry index $dir failed"; }
  oracle=$WORK/oracle/$name.jsonl
  local reuse=${ORACLE:-}
  if [ -z "$reuse" ] && [ -n "${ORACLE_DIR:-}" ]; then
    if [ -f "$ORACLE_DIR/$name.jsonl" ]; then reuse=$ORACLE_DIR/$name.jsonl
    else log "$name: no $ORACLE_DIR/$name.jsonl: running the oracle"; fi
  fi
  if [ -n "$reuse" ]; then
    [ -f "$reuse" ] || die "$reuse: no such oracle file"
    [ "$reuse" -ef "$oracle" ] || cp "$reuse" "$oracle"
  else
    local sflag=()
    [ "$sample" != - ] && sflag=(--sample "$sample")
    log "$name: the $lang oracle, $n definitions"
    case "$lang" in
      javascript|typescript) node "$here/nav/oracle_ts.js" "$dir" --n "$n" --seed "$SEED" "${sflag[@]}" >"$oracle" ;;
      python) /usr/bin/python3 "$here/nav/oracle_py.py" "$dir" --n "$n" --seed "$SEED" "${sflag[@]}" >"$oracle" ;;
      go) GOPATH="$WORK/gopath:/usr/share/gocode" "$navcheck" oracle-go -root "$dir" -n "$n" -seed "$SEED" >"$oracle" ;;
      *) "oracle_$lang" "$dir" "$n" "$SEED" "$sample" >"$oracle" ;;
    esac 2>"$WORK/verbose/$name.oracle.txt" || { tail -20 "$WORK/verbose/$name.oracle.txt" >&2; die "$name: the $lang oracle failed"; }
    tail -1 "$WORK/verbose/$name.oracle.txt" >&2
  fi
  [ -s "$oracle" ] || die "$name: the oracle wrote no definitions ($oracle)"
  log "$name: comparing ($(wc -l <"$oracle") definitions)"
  "$navcheck" compare -quarry "$quarry" -root "$dir" -oracle "$oracle" -lang "$lang" -repo "$name" \
    -v -misses "$WORK/misses/$name.jsonl" 2>"$WORK/verbose/$name.txt" || { tail -5 "$WORK/verbose/$name.txt" >&2; die "$name: navcheck compare failed"; }
}

table() { # table N: every repository of the fixed set
  local n=$1 r name lang src sample row rows=()
  build
  for r in "${REPOS[@]}"; do
    read -r name lang src sample <<<"$r"
    row=$(one "$name" "$lang" "$src" "$sample" "$n") || die "$name failed"
    rows+=("$row")
  done
  {
    echo "| language | repo | definitions | oracle uses | quarry resolved | recall | precision | silent | callers recall | callers precision | def missing |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
  } | tee "$WORK/TABLE.md"
}

[ $# -ge 1 ] || usage
mkdir -p "$WORK"
case "$1" in
  -h|--help|help) usage ;;
  all)
    [ $# -le 2 ] || usage
    n=${2:-150}
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive number, not '$n'"
    table "$n"
    ;;
  ci)
    [ $# -eq 1 ] || usage
    n=${NAV_CI_N:-40}
    table "$n"
    log "ci: $(( $(date +%s) - start_s )) s"
    # A regression guard, well below what each repository measures (bench/nav/README.md):
    # recall >= 90%, precision >= 90%, silent <= 3%: under what every repository measures.
    awk -F'|' 'NR > 2 {
      gsub(/[ %]/, "", $7); gsub(/[ %]/, "", $8); gsub(/[ %]/, "", $9)
      if ($7 + 0 < 90 || $8 + 0 < 90 || $9 + 0 > 3) { printf "nav.sh: %s %s below the floor: recall %s%%, precision %s%%, silent %s%%\n", $2, $3, $7, $8, $9; bad = 1 }
    } END { exit bad }' "$WORK/TABLE.md" >&2 || die "ci: navigation fell below the floor (recall >= 90%, precision >= 90%, silent <= 3%)"
    ;;
  *)
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    lang=$(canon_lang "$1")
    n=${3:-150}
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive number, not '$n'"
    spec=$(spec_of "$2")
    if [ -n "$spec" ]; then
      read -r name rlang src sample <<<"$spec"
      [ "$rlang" = "$lang" ] || die "$name is a $rlang repository, not $lang"
    elif [ -d "$2" ]; then
      name=$(basename "$(cd "$2" && pwd)")
      src=dir:$(cd "$2" && pwd)
      sample=-
    else
      die "unknown REPO '$2': a directory or one of: $(printf '%s ' "${REPOS[@]%% *}")"
    fi
    one "$name" "$lang" "$src" "$sample" "$n"
    ;;
esac
