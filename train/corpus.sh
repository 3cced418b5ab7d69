#!/usr/bin/env bash
# train/corpus.sh: gathers the training corpus of Quarry's code-search model (issue 31) from
# the fixed, versioned package list train/packages.txt, then checks that nothing of the
# benchmark corpus (shared/bench/corpus.sh, small and full) is in it.
#
#   train/corpus.sh [DEST]               gather into DEST (default /tmp/quarry-train/src), check
#   train/corpus.sh --check-only [DEST]  only the held-out check, on an existing DEST
#   train/corpus.sh --deny-list          print the deny list (WHAT<TAB>WHY) and exit
#                                        (train/select.sh reads it)
#
# Layout: DEST/LANG/PACKAGE/PATH, PATH as the package installs it (Debian: below
# /usr/lib/python3/dist-packages, /usr/share/gocode/src, /usr/share/cargo/registry,
# /usr/include, /usr/share/nodejs, /usr/lib/ruby/vendor_ruby, /usr/share/php, ...;
# npm: below the tarball's package/). Only the files of LANG are kept.
#
# Debian packages are fetched with `apt-get download NAME=VERSION` and unpacked with
# `dpkg-deb -x` into a cache, never installed: shared/bench/corpus.sh full copies the
# machine's whole /usr/share/cargo/registry, so installing a librust-*-dev package here would
# put it into the benchmark corpus too. npm packages: `npm pack NAME@VERSION`.
#
# Writes DEST/MANIFEST.tsv (kind, name, version, license, files, bytes; then per-language
# totals) and prints its diff against the committed train/MANIFEST.tsv when they differ.
#
# Held-out check (also alone with --check-only), exit 1 naming the offender:
#  (a) by package: a deny list derived from shared/bench/corpus.sh (the packages it installs
#      or packs, every Rust crate of the full corpus, what the Go tree it copies vendors) plus
#      what it copies implicitly (Go's standard library, OpenJDK's java.base, SQLite,
#      golang.org/x/net whose http2 net/http bundles) and the developers' trial projects
#      (flask and its werkzeug/itsdangerous, gin), checked against packages.txt and against the
#      gathered tree (vendored or bundled copies);
#  (b) by file hash: sha256 of every file of /tmp/quarry-corpus/{small,full} (full is built
#      with shared/bench/corpus.sh full when missing) against every file of DEST.
#
# Environment: QUARRY_SHARED (default: the shared/ folder beside the repository),
# QUARRY_TRAIN_CACHE (default /tmp/quarry-train/cache): downloaded archives.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
# shared/ sits beside the repository; in a git worktree, beside the main checkout.
# QUARRY_SHARED overrides.
shared=${QUARRY_SHARED:-$(dirname "$repo")/shared}
if [[ -z ${QUARRY_SHARED:-} && ! -d $shared ]] && common=$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir 2>/dev/null); then
	[[ -d $(dirname "$(dirname "$common")")/shared ]] && shared=$(dirname "$(dirname "$common")")/shared
fi
bench_sh=$shared/bench/corpus.sh
pkgs=$here/packages.txt
cache=${QUARRY_TRAIN_CACHE:-/tmp/quarry-train/cache}
bench_root=/tmp/quarry-corpus

check_only=0 deny_only=0
if [[ ${1:-} == --check-only ]]; then check_only=1; shift; fi
if [[ ${1:-} == --deny-list ]]; then deny_only=1; shift; fi
dest=${1:-/tmp/quarry-train/src}

die() { echo "corpus.sh: $*" >&2; exit 1; }
say() { echo "corpus.sh: $*" >&2; }

[[ -f $pkgs ]] || die "missing $pkgs"
if [[ ! -f $bench_sh ]]; then
	die "the benchmark corpus script $bench_sh is missing (shared/ is expected beside the repository, at $shared): the held-out check cannot run without it"
fi

# ---------------------------------------------------------------------------------------------
# The deny list
# ---------------------------------------------------------------------------------------------
# deny_tsv lines: WHAT<TAB>WHY, WHAT one of
#   deb:NAME (a Debian package name, exact), npm:NAME, crate:NAME (Rust, '-' for '_'),
#   gomod:PATH (a Go module path), py:NAME (a top-level Python package).
build_deny() {
	local out=$1 goroot m c
	: >"$out"
	# What shared/bench/corpus.sh installs or packs, read from it so this stays in sync.
	grep -oE 'python3-[a-z0-9.-]+' "$bench_sh" | sort -u | while read -r m; do
		printf 'deb:%s\tinstalled by shared/bench/corpus.sh\n' "$m"
		printf 'py:%s\tshared/bench/corpus.sh copies it\n' "${m#python3-}"
	done >>"$out"
	grep -oE 'openjdk-[0-9]+-source' "$bench_sh" | sort -u | sed 's/$/\tOpenJDK sources (java.base), shared\/bench\/corpus.sh/; s/^/deb:/' >>"$out"
	grep -oE 'npm pack --silent [@a-z0-9/._-]+@' "$bench_sh" | awk '{print $4}' | sed 's/@$//' | sort -u | while read -r m; do
		printf 'npm:%s\tpacked by shared/bench/corpus.sh\n' "$m"
		printf 'deb:node-%s\tDebian packaging of %s (benchmark)\n' "$m" "$m"
	done >>"$out"
	grep -oE 'go mod download[^|>]* [a-z0-9./_-]+@v' "$bench_sh" | awk '{print $NF}' | sed 's/@v$//' | sort -u | while read -r m; do
		printf 'gomod:%s\tdownloaded by shared/bench/corpus.sh (the SQLite amalgamation)\n' "$m"
	done >>"$out"
	# Every Rust crate of the full corpus: the full corpus copies the machine's whole cargo
	# registry, which holds the crates shared/bench/corpus.sh installs and their dependencies.
	local seeds
	seeds=$(grep -oE 'librust-[a-z0-9-]+-dev' "$bench_sh" | sort -u | tr '\n' ' ')
	{
		# shellcheck disable=SC2086
		apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
			--no-replaces --no-enhances $seeds 2>/dev/null | grep -oE 'librust-[a-z0-9.+-]+-dev' |
			sed -E 's/\+.*-dev$/-dev/; s/^librust-//; s/-dev$//; s/-[0-9][0-9.]*$//'
		for s in $seeds; do s=${s#librust-}; echo "${s%-dev}"; done
		[[ -d /usr/share/cargo/registry ]] && ls /usr/share/cargo/registry
		[[ -d $bench_root/full/rust ]] && ls "$bench_root/full/rust"
		[[ -d $bench_root/small/rust ]] && ls "$bench_root/small/rust"
	} | sed -E 's/-[0-9]+\.[0-9]+\.[0-9]+.*$//' | tr '_' '-' | sort -u | grep -v '^$' |
		sed 's/^/crate:/; s/$/\tRust crate of the full benchmark corpus (the cargo registry it copies)/' >>"$out"
	# The Go tree the benchmark copies: the standard library and every module it vendors.
	printf 'deb:golang-go\tGo standard library (benchmark)\ndeb:golang-src\tGo standard library (benchmark)\n' >>"$out"
	for v in 1.19 1.20 1.21 1.22 1.23 1.24; do printf 'deb:golang-%s-src\tGo standard library (benchmark)\n' "$v" >>"$out"; done
	printf 'gomod:golang.org/x/net\tits http2 is bundled into net/http (benchmark)\n' >>"$out"
	goroot=$(go env GOROOT 2>/dev/null || true)
	if [[ -n $goroot ]]; then
		for m in "$goroot"/src/vendor/modules.txt "$goroot"/src/cmd/vendor/modules.txt; do
			[[ -f $m ]] && awk '$1=="#"{print $2}' "$m"
		done | sort -u | while read -r m; do printf 'gomod:%s\tvendored in the Go tree (benchmark)\n' "$m"; done >>"$out"
	else
		say "warning: no go toolchain: the modules Go vendors are not on the deny list"
	fi
	# SQLite, Django, the developers' trial projects.
	printf 'deb:libsqlite3-dev\tSQLite (benchmark)\ndeb:sqlite3\tSQLite (benchmark)\ndeb:libsqlite3-0\tSQLite (benchmark)\n' >>"$out"
	printf 'deb:golang-github-mattn-go-sqlite3-dev\tvendors the SQLite amalgamation (benchmark)\n' >>"$out"
	printf 'crate:libsqlite3-sys\tbundles the SQLite amalgamation (benchmark)\n' >>"$out"
	printf 'py:flask\tthe developers trial on flask\ndeb:python3-flask\tthe developers trial on flask\n' >>"$out"
	printf 'py:werkzeug\tflask core (developers trial on flask)\ndeb:python3-werkzeug\tflask core (developers trial on flask)\n' >>"$out"
	printf 'py:itsdangerous\tflask core (developers trial on flask)\ndeb:python3-itsdangerous\tflask core (developers trial on flask)\n' >>"$out"
	printf 'gomod:github.com/gin-gonic/gin\tthe developers trial on gin\ndeb:golang-github-gin-gonic-gin-dev\tthe developers trial on gin\n' >>"$out"
	# Each denied Go module under its Debian names too, so a check by package name finds it.
	grep '^gomod:' "$out" | while IFS=$'\t' read -r what why; do
		gomod_debname "${what#gomod:}" | sed "s|^|deb:|; s|\$|\t$why (Debian's name of ${what#gomod:})|"
	done >>"$out"
	sort -t "$(printf '\t')" -u -k1,1 -o "$out" "$out"
}

# Debian's names for a Go module, one a line: github.com/a/b -> golang-github-a-b-dev;
# golang.org/x/net -> golang-golang-x-net-dev (the host without its top-level domain), and
# golang-golang-org-x-net-dev (the whole host), since Debian's naming varies.
gomod_debname() {
	local m=$1 host rest p
	host=${m%%/*} rest=${m#*/}
	[[ $m == */* ]] || rest=""
	for h in "${host%.*}" "$host"; do
		p=$h${rest:+/$rest}
		p=${p//\//-}; p=${p//./-}
		echo "golang-${p,,}-dev"
	done | sort -u
}

# (a) by package, over packages.txt.
check_list() {
	local deny=$1 bad=0 kind name ver what why crate m
	declare -A d=()
	while IFS=$'\t' read -r what why; do d[$what]=$why; done <"$deny"
	while read -r kind name ver; do
		case "$kind" in ''|'#'*) continue ;; esac
		for what in "deb:$name" "npm:$name"; do
			[[ -n ${d[$what]:-} ]] && { echo "HELD-OUT: packages.txt lists $name ($kind): ${d[$what]}" >&2; bad=1; }
		done
		if [[ $name == librust-*-dev ]]; then
			crate=${name#librust-}; crate=${crate%-dev}; crate=$(sed -E 's/-[0-9][0-9.]*$//' <<<"$crate")
			[[ -n ${d[crate:$crate]:-} ]] && { echo "HELD-OUT: packages.txt lists $name: crate $crate: ${d[crate:$crate]}" >&2; bad=1; }
		fi
		if [[ $name == python3-* && -n ${d[py:${name#python3-}]:-} ]]; then
			echo "HELD-OUT: packages.txt lists $name: ${d[py:${name#python3-}]}" >&2; bad=1
		fi
	done <"$pkgs"
	return $bad
}

# (a) by package, over the gathered tree: vendored or bundled copies.
check_tree() {
	local deny=$1 bad=0 what why hits
	local -a py=() crates=() gomods=() npms=()
	while IFS=$'\t' read -r what why; do
		case "$what" in
		py:*) py+=("${what#py:}") ;;
		crate:*) crates+=("${what#crate:}") ;;
		gomod:*) gomods+=("${what#gomod:}") ;;
		npm:*) npms+=("${what#npm:}") ;;
		esac
	done <"$deny"
	# Python: a denied top-level package anywhere (dist-packages/django, _vendor/flask, ...).
	for what in "${py[@]}"; do
		hits=$(find "$dest" -type d \( -path "*/dist-packages/$what" -o -path "*/site-packages/$what" -o -path "*/_vendor/$what" -o -path "*/vendor/$what" \) -print 2>/dev/null | head -3)
		[[ -z $hits ]] || { echo "HELD-OUT: Python package $what in the tree: $hits" >&2; bad=1; }
	done
	# Rust: a crate directory NAME-VERSION (registry layout, or vendor/NAME) of a denied crate.
	if [[ -d $dest/rust ]]; then
		declare -A dc=()
		for what in "${crates[@]}"; do dc[$what]=1; done
		while read -r dir; do
			local b c
			b=$(basename "$dir"); c=$(sed -E 's/-[0-9]+\.[0-9]+\.[0-9]+.*$//' <<<"$b" | tr '_' '-')
			[[ -n ${dc[$c]:-} ]] && { echo "HELD-OUT: Rust crate $c (benchmark) in the tree: $dir" >&2; bad=1; }
		done < <(find "$dest/rust" -name Cargo.toml -printf '%h\n' | sort -u)
	fi
	# Go: a denied module's directory anywhere (gocode layout or a vendor/ tree), and
	# net/http's bundle of x/net/http2.
	for what in "${gomods[@]}"; do
		hits=$(find "$dest" -type d -path "*/$what" -print 2>/dev/null | head -3)
		[[ -z $hits ]] || { echo "HELD-OUT: Go module $what in the tree: $hits" >&2; bad=1; }
	done
	hits=$(find "$dest" -type f \( -name h2_bundle.go -o -path '*/src/net/http/*' -o -path '*/src/runtime/*.go' \) -print | head -3)
	[[ -z $hits ]] || { echo "HELD-OUT: Go standard library (or its http2 bundle) in the tree: $hits" >&2; bad=1; }
	# JavaScript/TypeScript: a denied npm package (node_modules/rxjs, nodejs/typeorm, ...).
	for what in "${npms[@]}"; do
		hits=$(find "$dest" -type d -name "$what" \( -path '*node*' -o -path '*/javascript/*' -o -path '*/typescript/*' \) -print | head -3)
		[[ -z $hits ]] || { echo "HELD-OUT: npm package $what in the tree: $hits" >&2; bad=1; }
	done
	# OpenJDK's java.base.
	hits=$(find "$dest" \( -type d -name java.base -o -type f -path '*/java/lang/Object.java' \) -print | head -3)
	[[ -z $hits ]] || { echo "HELD-OUT: OpenJDK java.base in the tree: $hits" >&2; bad=1; }
	# SQLite: its amalgamation or its headers, vendored by any package.
	hits=$(find "$dest" -type f \( -name 'sqlite3.c' -o -name 'sqlite3.h' -o -name 'sqlite3ext.h' -o -name 'sqlite3-binding.c' -o -name 'sqlite3-binding.h' \) -print | head -3)
	[[ -z $hits ]] || { echo "HELD-OUT: SQLite in the tree: $hits" >&2; bad=1; }
	return $bad
}

# (b) by file hash. Files under 64 bytes are left out on both sides: empty __init__.py, a
# one-line mod.rs or a license stub are the same bytes in unrelated packages and carry no code.
hash_tree() { # DIR -> "sha256  path" of its files of 64 bytes or more
	find "$1" -type f -size +63c -print0 | xargs -0 -r -P 2 -n 500 sha256sum
}
bench_hashes() { # OUT: the hashes of the benchmark corpus (built first if missing)
	local out=$1 d
	if [[ ! -d $bench_root/full ]]; then
		say "building the benchmark corpus with $bench_sh full (for the hash check)"
		bash "$bench_sh" full >/dev/null
	fi
	[[ -d $bench_root/small ]] || { say "building the benchmark corpus with $bench_sh small"; bash "$bench_sh" small >/dev/null; }
	: >"$out"
	for d in "$bench_root/full" "$bench_root/small" "$bench_root/langs"; do
		[[ -d $d ]] && hash_tree "$d" >>"$out"
	done
	[[ -s $out ]] || die "no benchmark file was hashed under $bench_root"
	say "hashed $(wc -l <"$out") benchmark files (>= 64 bytes) of $bench_root/{full,small$([[ -d $bench_root/langs ]] && echo ,langs)}"
}
check_hashes() {
	local work=$1 bad=0
	bench_hashes "$work/bench.sha"
	hash_tree "$dest" | grep -vE '/(MANIFEST|HELDOUT-REMOVED|DOCCOUNT)\.tsv$' >"$work/train.sha" || true
	say "hashed $(wc -l <"$work/train.sha") training files (>= 64 bytes)"
	awk 'NR==FNR { if (!($1 in b)) b[$1] = substr($0, 67); next }
	     ($1 in b) { print "HELD-OUT: same content as the benchmark file " b[$1] ": " substr($0, 67); n++ }
	     END { exit n > 0 }' "$work/bench.sha" "$work/train.sha" >"$work/hits" || bad=1
	if ((bad)); then
		head -20 "$work/hits" >&2
		echo "HELD-OUT: $(wc -l <"$work/hits") training files have the content of a benchmark file" >&2
	fi
	return $bad
}

heldout_check() {
	local work rc=0
	work=$(mktemp -d)
	build_deny "$work/deny.tsv"
	say "deny list: $(wc -l <"$work/deny.tsv") entries ($(grep -c '^crate:' "$work/deny.tsv") Rust crates, $(grep -c '^gomod:' "$work/deny.tsv") Go modules)"
	check_list "$work/deny.tsv" || rc=1
	check_tree "$work/deny.tsv" || rc=1
	check_hashes "$work" || rc=1
	rm -rf "$work"
	if ((rc)); then echo "corpus.sh: held-out check FAILED: the training corpus holds benchmark code (above)" >&2; return 1; fi
	say "held-out check passed: no denied package in packages.txt or in $dest, no file of $dest has the content of a benchmark file"
}

if ((deny_only)); then
	work=$(mktemp -d)
	build_deny "$work/deny.tsv"
	cat "$work/deny.tsv"
	rm -rf "$work"
	exit 0
fi
if ((check_only)); then
	[[ -d $dest ]] || die "no corpus at $dest"
	heldout_check
	exit $?
fi

# ---------------------------------------------------------------------------------------------
# Gathering
# ---------------------------------------------------------------------------------------------
for t in apt-get dpkg-deb npm tar sha256sum find unzip; do
	command -v "$t" >/dev/null || die "missing $t (apt-get install ${t/dpkg-deb/dpkg})"
done
mkdir -p "$cache/deb" "$cache/npm"
start=$(date +%s)

# Which files of a language are kept.
keep_expr() {
	case "$1" in
	python) echo '-name *.py -o -name *.pyi' ;;
	go) echo '-name *.go' ;;
	rust) echo '-name *.rs -o -name Cargo.toml' ;;
	c) echo '-name *.h' ;;
	javascript) echo '-name *.js -o -name *.mjs -o -name *.cjs -o -name *.ts -o -name *.mts -o -name *.cts' ;;
	typescript) echo '-name *.ts -o -name *.tsx -o -name *.mts -o -name *.cts' ;;
	java) echo '-name *.java' ;;
	ruby) echo '-name *.rb' ;;
	php) echo '-name *.php' ;;
	*) die "unknown language $1" ;;
	esac
}
# Where a Debian package's sources of a language sit.
deb_roots() {
	case "$1" in
	python) echo usr/lib/python3/dist-packages ;;
	go) echo usr/share/gocode/src ;;
	rust) echo usr/share/cargo/registry ;;
	c) echo usr/include ;;
	javascript) echo usr/share/nodejs usr/lib/nodejs ;;
	java) echo usr/lib/jvm usr/share/openjfx ;;
	ruby) echo usr/lib/ruby/vendor_ruby usr/share/rubygems-integration usr/lib/x86_64-linux-gnu/ruby/vendor_ruby usr/lib/x86_64-linux-gnu/rubygems-integration ;;
	php) echo usr/share/php ;;
	esac
}

# copy_lang SRC_ROOT OUT LANG: the LANG files below SRC_ROOT into OUT, paths kept. Minified
# bundles (*.min.js) and files over 1 MiB (the extractor's limit) are left out.
copy_lang() {
	local src=$1 out=$2 lang=$3 expr
	expr=$(keep_expr "$lang")
	[[ -d $src ]] || return 0
	mkdir -p "$out"
	# shellcheck disable=SC2086
	(cd "$src" && set -f && find . -type f \( $expr \) ! -name '*.min.js' -size -1025k -print0 |
		xargs -0 -r cp --parents -t "$out")
}

first_license() { # FILE: the first License: field of a Debian copyright file, or a package.json license
	local f=$1 l=""
	if [[ $f == *package.json ]]; then
		l=$(sed -n 's/^[[:space:]]*"license"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -1)
	elif [[ -f $f ]]; then
		l=$(awk -F': *' '/^License:/{print $2; exit}' "$f")
		[[ -n $l ]] || l="see copyright (not machine-readable)"
	fi
	echo "${l:-unknown}"
}

rm -rf "$dest.partial"
mkdir -p "$dest.partial"
manifest=$dest.partial/MANIFEST.tsv
printf 'kind\tname\tversion\tlicense\tfiles\tbytes\n' >"$manifest"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Download every missing Debian archive at once (per package on failure).
need=()
while read -r kind name ver; do
	[[ $kind == deb-* ]] || continue
	compgen -G "$cache/deb/${name}_${ver//:/%3a}_*.deb" >/dev/null || need+=("$name=$ver")
done <"$pkgs"
if ((${#need[@]})); then
	say "apt-get download: ${#need[@]} Debian packages into $cache/deb"
	if ! (cd "$cache/deb" && apt-get download -qq "${need[@]}" >/dev/null 2>"$tmp/apt.err"); then
		for nv in "${need[@]}"; do
			(cd "$cache/deb" && apt-get download -qq "$nv" >/dev/null 2>&1) ||
				die "apt-get download $nv failed: run 'apt-get update' (as root) and again; if 'apt-cache policy ${nv%%=*}' no longer lists ${nv#*=}, pin the version it lists in train/packages.txt"
		done
	fi
fi

failed=0
while read -r kind name ver; do
	case "$kind" in ''|'#'*) continue ;; esac
	lang=${kind#*-}
	out=$dest.partial/$lang/$name
	rm -rf "$tmp/x"; mkdir -p "$tmp/x"
	case "$kind" in
	deb-*)
		deb=$(compgen -G "$cache/deb/${name}_${ver//:/%3a}_*.deb" | head -1) || true
		[[ -n $deb ]] || { say "warning: no archive of $name=$ver"; failed=1; continue; }
		dpkg-deb -x "$deb" "$tmp/x"
		if [[ $lang == java ]]; then # source packages ship src.zip
			while read -r z; do unzip -q -o "$z" -d "$tmp/x/javasrc" '*.java'; done < <(find "$tmp/x" -name '*.zip')
			copy_lang "$tmp/x/javasrc" "$out" java
		else
			for r in $(deb_roots "$lang"); do copy_lang "$tmp/x/$r" "$out/$r" "$lang"; done
		fi
		lic=$(first_license "$(compgen -G "$tmp/x/usr/share/doc/*/copyright" | head -1)")
		;;
	npm-*)
		tgz=$cache/npm/$(sed 's/^@//; s/\//-/' <<<"$name")-$ver.tgz
		if [[ ! -f $tgz ]]; then
			(cd "$cache/npm" && npm pack --silent "$name@$ver" >/dev/null 2>"$tmp/npm.err") ||
				die "npm pack $name@$ver failed: $(tail -2 "$tmp/npm.err")"
		fi
		# the top folder is package/ (npm) or the package's name (@types/*): package/ here
		mkdir -p "$tmp/x/package"; tar xzf "$tgz" -C "$tmp/x/package" --strip-components=1
		# A package that ships its TypeScript sources: those; else its declarations (.d.ts).
		if find "$tmp/x/package" -type f \( -name '*.ts' -o -name '*.tsx' \) ! -name '*.d.ts' ! -name '*.d.mts' ! -name '*.d.cts' -print -quit | grep -q .; then
			mkdir -p "$out"
			(cd "$tmp/x/package" && find . -type f \( -name '*.ts' -o -name '*.tsx' \) ! -name '*.d.ts' ! -name '*.d.mts' ! -name '*.d.cts' -size -1025k -print0 | xargs -0 -r cp --parents -t "$out")
		else
			copy_lang "$tmp/x/package" "$out" "$lang"
		fi
		lic=$(first_license "$tmp/x/package/package.json")
		;;
	*) die "packages.txt: unknown kind $kind" ;;
	esac
	printf '%s\t%s\t%s\t%s\n' "$kind" "$name" "$ver" "$lic" >>"$tmp/meta"
done <"$pkgs"

# Files with the very content of a benchmark file (>= 64 bytes) are removed here and listed
# in DEST/HELDOUT-REMOVED.tsv: shared boilerplate such as trybuild's tests/compiletest.rs,
# the same in serde_json and in quote. Whole packages, vendored copies and bundles are not
# removed but fail the check below (by package and by tree).
bench_hashes "$tmp/bench.sha"
hash_tree "$dest.partial" >"$tmp/train.sha"
awk 'NR==FNR { if (!($1 in b)) b[$1] = substr($0, 67); next }
     ($1 in b) { printf "%s\t%s\n", substr($0, 67), b[$1] }' "$tmp/bench.sha" "$tmp/train.sha" >"$tmp/removed"
{
	printf 'training file (removed)\tsame content as the benchmark file\n'
	sed "s|^$dest.partial/||" "$tmp/removed"
} >"$dest.partial/HELDOUT-REMOVED.tsv"
cut -f1 "$tmp/removed" | tr '\n' '\0' | xargs -0 -r rm -f
say "removed $(wc -l <"$tmp/removed") files with the content of a benchmark file (listed in $dest/HELDOUT-REMOVED.tsv)"
# More than 3 such files in one package is no shared boilerplate but a copy: fail, naming it.
if sed "s|^$dest.partial/||" "$tmp/removed" | cut -d/ -f1,2 | sort | uniq -c | awk '$1 > 3 { print "HELD-OUT: package " $2 " has " $1 " files with the content of benchmark files (see HELDOUT-REMOVED.tsv)"; n++ } END { exit n > 0 }' >&2; then :; else
	rm -rf "$dest"; mv "$dest.partial" "$dest"
	die "held-out check FAILED: a package copies benchmark files (above); the corpus is left in $dest"
fi

while IFS=$'\t' read -r kind name ver lic; do
	out=$dest.partial/${kind#*-}/$name
	files=0; bytes=0
	if [[ -d $out ]]; then
		files=$(find "$out" -type f | wc -l)
		bytes=$(find "$out" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}')
	fi
	((files > 0)) || { say "warning: $name kept no ${kind#*-} file"; rm -rf "$out"; }
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$ver" "$lic" "$files" "$bytes" >>"$manifest"
done <"$tmp/meta"
# Per-language totals.
awk -F'\t' 'NR > 1 { l = $1; sub(/^[a-z]+-/, "", l); f[l] += $5; b[l] += $6; n[l]++ }
	END { for (l in f) printf "total\t%s\t%d packages\t-\t%d\t%d\n", l, n[l], f[l], b[l] }' "$manifest" | sort >>"$manifest"

rm -rf "$dest"
mv "$dest.partial" "$dest"
say "gathered in $(($(date +%s) - start)) s into $dest ($(du -sh "$dest" | cut -f1))"
column -t -s $'\t' <(grep '^total' "$dest/MANIFEST.tsv") >&2
if [[ -f $here/MANIFEST.tsv ]] && ! diff -q "$here/MANIFEST.tsv" "$dest/MANIFEST.tsv" >/dev/null; then
	say "the corpus differs from the committed train/MANIFEST.tsv (versions or contents drifted):"
	diff "$here/MANIFEST.tsv" "$dest/MANIFEST.tsv" >&2 || true
fi
((failed == 0)) || say "warning: some packages were not gathered (above)"

# A quick heuristic count of documented definitions per language (train/doccount.awk).
{
	printf 'language\tdefinitions\tdocumented\n'
	for d in "$dest"/*/; do
		l=$(basename "$d")
		find "$d" -type f -print0 | xargs -0 -r -n 2000 awk -v lang="$l" -f "$here/doccount.awk" |
			awk -v l="$l" '{ n += $2; k += $3 } END { printf "%s\t%d\t%d\n", l, n, k }'
	done
} >"$dest/DOCCOUNT.tsv"
awk -F'\t' 'NR > 1 { n += $2; k += $3 } END { printf "total\t%d\t%d\n", n, k }' "$dest/DOCCOUNT.tsv" >>"$dest/DOCCOUNT.tsv"
say "documented definitions (heuristic, train/doccount.awk):"
column -t -s $'\t' "$dest/DOCCOUNT.tsv" >&2

heldout_check
echo "$dest"
