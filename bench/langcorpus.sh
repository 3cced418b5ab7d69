#!/usr/bin/env bash
# bench/langcorpus.sh: gathers real files of the languages Quarry added after the first corpus
# (Protocol Buffers, SQL, HCL/Terraform, Dockerfile, Markdown, TOML, YAML, CSS, CUE, Elixir,
# Elm, Groovy/Gradle/Jenkinsfile, HTML, OCaml, Svelte, Vue) into a benchmark corpus, from the
# package registries every machine of this project reaches: Go modules (go mod download),
# npm packages (npm pack) and Debian packages (apt-get download, dpkg-deb -x; no root needed).
# Every package is pinned to an exact version and checked against a pinned hash (Go: the h1:
# sum go.sum would hold; npm and Debian: the archive's SHA-256), so the same inputs give the
# same tree on any machine.
#
#   bench/langcorpus.sh [DEST]      default DEST: /tmp/quarry-corpus/langs
#
# Layout: DEST/LANG/REGISTRY/PACKAGE@VERSION/PATH, PATH as in the package (npm: without the
# tarball's top directory "package/"). Only files of the language are copied, each at most
# 1 MiB (extract.DefaultMaxFileSize: the harness skips larger ones), minified CSS left out,
# and each package's share of a language is capped (the plan below): about 6000 files, 24 MB.
# Dockerfiles named Dockerfile_NAME keep their name with ".dockerfile" appended: Quarry
# recognizes Dockerfile, Containerfile, Dockerfile.NAME and *.dockerfile, not that.
#
# It prints a per-language summary (files, bytes; also written to DEST/MANIFEST) on stderr and
# the corpus path last on stdout. Re-running over a finished corpus (DEST/MANIFEST exists) only
# prints them again. A package that cannot be fetched or fails its hash is a warning and the
# others go on; if a language ends up with no file, the script exits 1 and leaves what it
# gathered in DEST.partial.
#
# Environment (optional):
#   LANGCORPUS_CACHE  downloaded archives, kept for re-runs (default
#                     ${XDG_CACHE_HOME:-$HOME/.cache}/quarry-langcorpus, about 140 MB): npm/*.tgz,
#                     deb/*.deb and a Go module cache (gomod/, zips only: unpacked trees are
#                     removed). The first run downloads ~140 MB; a run from the cache takes ~1 min.
#   LANGCORPUS_LANG_MAX  cap in bytes for one language over all its packages (default 6000000)
#
# Measure extraction on it (from the repo root):
#   QUARRY_CORPUS=$(bench/langcorpus.sh) go test ./extract -run '^TestCorpus$' -v -count=1
#   QUARRY_CORPUS=/tmp/quarry-corpus/langs go test ./extract -run '^$' -bench BenchmarkExtractCorpus -benchtime 3x
set -euo pipefail

dest=${1:-/tmp/quarry-corpus/langs}
[[ $# -le 1 && $dest != -* ]] || {
	echo "usage: langcorpus.sh [DEST]   (default /tmp/quarry-corpus/langs)" >&2
	exit 2
}
CACHE="${LANGCORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/quarry-langcorpus}"
LANGCORPUS_LANG_MAX="${LANGCORPUS_LANG_MAX:-6000000}"
MAX_FILE=1048576 # extract.DefaultMaxFileSize
LANGS=(proto sql hcl dockerfile markdown toml yaml css cue elixir elm groovy html ocaml svelte vue)

log() { echo "langcorpus.sh: $*" >&2; }
warn() { echo "langcorpus.sh: WARNING: $*" >&2; }
die() {
	echo "langcorpus.sh: $*" >&2
	exit 1
}

if [[ -f $dest/MANIFEST ]]; then
	cat "$dest/MANIFEST" >&2
	echo "$dest"
	exit 0
fi
[[ ! -e $dest ]] || die "$dest exists but has no MANIFEST: it is not a finished corpus of this script; remove it first"
[[ $LANGCORPUS_LANG_MAX =~ ^[1-9][0-9]*$ ]] || die "LANGCORPUS_LANG_MAX must be a number of bytes"

# --- what to gather ---
# A line "go|npm|deb NAME VERSION HASH" names a package; the lines under it, "LANG MAX [DIRS]
# [EXCLUDE]", what to take from it: the files of LANG, in path order, up to MAX bytes (k and M
# are 1000 and 1000000), under DIRS only (comma-separated paths in the package; "." or nothing:
# all of it), leaving out paths that match one of the EXCLUDE globs (comma-separated, matched
# against the path in the package; * also matches /). Debian hashes are of the amd64 archive.
PLAN='
go  google.golang.org/protobuf                   v1.36.11              h1:fV6ZwhNocDyBLK0dj+fg8ektcVegBBuEolpbTQyBNVE=
    proto     800k
    markdown   50k
go  k8s.io/api                                   v0.33.0               h1:yTgZVn1XEe6opVpP1FylmNrIFWuDqe2H0V8CT5gxfIU=
    proto     1.5M
    yaml      1.2M   testdata/HEAD
go  cuelang.org/go                               v0.6.0                h1:dJhgKCog+FEZt7OwAYV1R+o/RZPmE8aqFoptmxSWyr8=
    cue       1M
    markdown  200k   doc
go  github.com/kubevela/workflow                 v0.6.2                h1:zmsjQStemSSAJVACsf9c39WTIJqdn1YQlb5jltOfSwU=
    cue       100k
    yaml      200k
go  github.com/hashicorp/terraform               v1.5.7                h1:HL+iEBdp6mC/tqQM1F5jA5y32CbxXPwyiNQyYSXVzw0=
    hcl       800k
    markdown  200k
    yaml      100k
go  github.com/hashicorp/hcl/v2                  v2.24.0               h1:2QJdZ454DSsYGoaE6QheQZjtKZSUs9Nh2izTWiwQxvE=
    hcl       100k
    markdown  200k
go  github.com/docker/docker                     v28.5.2+incompatible  h1:DBX0Y0zAjZbSrm1uzOkdr1onVghKaftjlSWt4AFexzM=
    dockerfile 200k
    markdown  700k   docs,README.md,CONTRIBUTING.md
    yaml      600k   api,.github
go  github.com/GoogleContainerTools/kaniko       v1.23.2               h1:/gu6xNhod6IfrZp9Pwlo9gDlqwu7YUsTec6TZTgOw6Q=
    dockerfile 200k
go  github.com/anchore/syft                      v1.20.0               h1:4nVM/eiqrb2GJCkW+d1xv8M5mxply8vVblpWOvVCgN8=
    dockerfile 100k
    yaml      150k
    groovy     20k
go  github.com/testcontainers/testcontainers-go  v0.37.0               h1:L2Qc0vkTw2EHWQ08djon0D2uw7Z/PtHS/QzZZ5Ra/hg=
    dockerfile 50k
    yaml      100k
    markdown  300k   docs
    html       50k
go  github.com/dagger/dagger                     v0.18.10              h1:NyqpKFKtIxzVaHIkhcgv6nhXWmYL3UqHmDweqgHOA30=
    elixir    1M
    html      1.6M   docs/static
    markdown  500k   docs/current_docs,sdk
    toml      100k
    sql        50k
    groovy     20k
go  github.com/zricethezav/gitleaks/v8           v8.28.0               h1:XXeibrt4XbdrYm3FnzXR3uUPs9HbgGduroICjBl6PMw=
    toml      300k
go  github.com/BurntSushi/toml                   v1.5.0                h1:W5quZX/G/csjUnuI8SUYlsHs9M38FC7znL0lIO+DvMg=
    toml      100k   .      */invalid/*
go  github.com/google/osv-scanner                v1.9.2                h1:N5Arl9SA75afbjmX8mKURgOIaKyuK3NUjCaxDlj1KHI=
    toml      100k
    dockerfile 20k
    html       50k
go  helm.sh/helm/v3                              v3.18.0               h1:ItOAm3Quo0dus3NUHjs+lluqWWEIO7xrSW+zKWCrvlw=
    yaml      400k
go  github.com/sqlc-dev/sqlc                     v1.30.0               h1:H4HrNwPc0hntxGWzAbhlfplPRN4bQpXFx+CaEMcKz6c=
    sql       100k
go  github.com/gohugoio/hugo                     v0.148.0              h1:nxDZAOFXXQbb+Uwsyxc/0fR1l5bnsMXjwQu0CVd1APw=
    html      200k
    markdown  400k
deb libprotobuf-dev                              3.21.12-3+deb12u1     sha256:2f045f82e4ae0bdfce7f18f1f36613b9cd8c570024b8de68668bc255c32a2d88
    proto     200k
deb postgresql-15-postgis-3-scripts              3.3.2+dfsg-1          sha256:d1dc02254ab8345544696edca8eb3be27e48c7a26f2dad8309158c779f6c01df
    sql       3M     .      *--*--*
npm bootstrap                                    5.3.8                 sha256:8b02d4a7482e0f0a2b1da58f1c9c86830e96cc2f77f094f89e4681b19886bc38
    css       600k   dist/css  *.rtl.css
    markdown   20k
npm bulma                                        1.0.4                 sha256:4a3669880f72a69d13c34eafc294073ca106927e3ca8c534f56828a837b99105
    css       800k   css/bulma.css
npm normalize.css                                8.0.1                 sha256:5cc172e0d5d062bc2a1a4bf85443e2eb260d3720e16527a0c1ac03b642f1de39
    css        10k
npm animate.css                                  4.1.1                 sha256:c51565d3706f687a14b5d919a9743a2feb45d7b7915823d67e6a3ab30759fa75
    css       300k
npm reveal.js                                    6.0.2                 sha256:2f0c20bfb02447a198a1ebe8a8c097a5437d035caa38f2820bf4ba887a3eac91
    css       300k   .      *-contrast.css,*/black.css,*/white.css
    html       50k
npm html5-boilerplate                            9.0.1                 sha256:19baebf4f0d07007453a12cdd4a34a71af53311953ce05a608843c4c2d02c70d
    html       10k
    css        10k
npm elm-pages                                    3.1.3                 sha256:f5ee53b55e06e591a6bb4ca07897e68d225a83cb2441490afa42b3e70bd14996
    elm       1.5M
npm elm-review                                   2.13.5                sha256:372c3040b492a984fe9a72269ff3aeedccd8e989189f8d5d80aeb4d382497a9e
    elm       300k
npm elm-test                                     0.19.1                sha256:1a21073a6fdbf37743b08f903e37d62ebf6fd348a5315a4100b88fff7076e138
    elm       100k
npm npm-groovy-lint                              18.0.0                sha256:6c791528925d714af99f0bb37fcfb780b9e9bc12620a5eb34a911e2f163880da
    groovy    200k
npm cordova-android                              15.1.0                sha256:10ecdd08830c58dc16a16e72f35e72ee15c9ad5c024d643327839624cb59b39f
    groovy    100k
    html       10k
npm generator-jvm                                1.18.99               sha256:fbcce0fb7af727b9d943e6da1c1fc2490deceb1a28765fdab3737107ee6f454b
    groovy    200k
npm ocaml                                        5.3.0                 sha256:c4108bac7b45c46325f0e15a988c308f7785cd6c4d29dac190df06f543f7c992
    ocaml     3M     stdlib,parsing,typing,utils
    groovy     20k
npm carbon-components-svelte                     0.112.1               sha256:9e6fb60dc413c487457a0d6576b34ff76717a956cd9b34fa5e85930d21f81f2f
    svelte    1.3M
npm bits-ui                                      2.21.0                sha256:8726e7d5db6608e1728f5f44bd39b351cd33926fc33db686ff5417bd41770d99
    svelte    400k
npm flowbite-svelte                              1.33.1                sha256:1d22290fc97e1973ff94a0a65782963b681e6336480ab3e723c04e1a7e67032a
    svelte    500k
npm primevue                                     5.0.2                 sha256:aae50d13b7ee56e3a9477e79ce7a026023f562d9139695abd6cf74ad8f4f724e
    vue       2M
npm vitepress                                    1.6.4                 sha256:37f38a64e1e8ea1e9db68ad201488327c8df1303d3cdb2ceb0e3754259d65114
    vue       200k
    css        60k
npm @nuxt/ui                                     4.11.2                sha256:954eb73e0034f882df240fb01d5fdefced4b875c171dc9cbb58fd15f8f4185be
    vue       800k
'

# --- tools ---
need=()
for t in go npm apt-get dpkg-deb tar sha256sum find sort; do
	command -v "$t" >/dev/null || need+=("$t")
done
((${#need[@]} == 0)) || die "missing ${need[*]} (go: the project's toolchain; npm: apt-get install npm)"

mkdir -p "$CACHE/npm" "$CACHE/deb" "$CACHE/gomod"
CACHE="$(cd "$CACHE" && pwd -P)"
stage="$dest.partial"
rm -rf "$stage"
mkdir -p "$stage"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A lang_bytes lang_files
for l in "${LANGS[@]}"; do
	lang_bytes[$l]=0 lang_files[$l]=0
done
sources=() # one line per package, for the MANIFEST

# bytes N: "300k", "1.5M" or a plain number of bytes, as bytes.
bytes() {
	awk -v s="$1" 'BEGIN {
		m = 1
		if (s ~ /[kK]$/) m = 1000; else if (s ~ /M$/) m = 1000000
		sub(/[kKM]$/, "", s)
		if (s !~ /^[0-9]+(\.[0-9]+)?$/) exit 1
		printf "%d\n", s * m
	}' || die "bad size in the plan: $1"
}

# lang_find LANG DIR: the files of LANG under DIR, at most MAX_FILE bytes, as "SIZE PATH" lines
# (NUL-terminated) in path order.
lang_find() {
	local lang=$1 dir=$2
	local -a e
	case $lang in
	proto) e=(-name '*.proto') ;;
	sql) e=(-name '*.sql') ;;
	hcl) e=(-name '*.tf' -o -name '*.hcl' -o -name '*.tfvars') ;;
	dockerfile)
		e=(\( -name Dockerfile -o -name Containerfile -o -name '*.dockerfile' -o -name '*.Dockerfile'
			-o -name 'Dockerfile[._-]*' -o -name 'Containerfile[._-]*' \)
			! -name '*.md' ! -name '*.txt' ! -name '*.json' ! -name '*.yml' ! -name '*.yaml'
			! -name '*.go' ! -name '*.sh' ! -name '*.dockerignore')
		;;
	markdown) e=(-name '*.md' -o -name '*.markdown') ;;
	toml) e=(-name '*.toml') ;;
	yaml) e=(-name '*.yml' -o -name '*.yaml') ;;
	css) e=(-name '*.css' ! -name '*.min.css') ;;
	cue) e=(-name '*.cue') ;;
	elixir) e=(-name '*.ex' -o -name '*.exs') ;;
	elm) e=(-name '*.elm') ;;
	groovy) e=(-name '*.groovy' -o -name '*.gradle' -o -name '*.gvy' -o -name Jenkinsfile) ;;
	html) e=(-name '*.html' -o -name '*.htm') ;;
	ocaml) e=(-name '*.ml' -o -name '*.mli') ;;
	svelte) e=(-name '*.svelte') ;;
	vue) e=(-name '*.vue') ;;
	*) die "unknown language in the plan: $lang" ;;
	esac
	find "$dir" -type f \( "${e[@]}" \) -size -$((MAX_FILE / 1024 + 1))k -printf '%s %P\0' |
		LC_ALL=C sort -z -k2
}

# take LANG MAX DIRS EXCLUDES: copies files of LANG from the package unpacked in $src_root
# to $stage/LANG/$src_label.
take() {
	local lang=$1 max dirs=${3:-.} excl=${4:-} size rel d out n=0 got=0 ok g list="$tmp/take.list"
	local -a dirlist globs=()
	[[ " ${LANGS[*]} " == *" $lang "* ]] || die "unknown language in the plan: $lang"
	max=$(bytes "$2")
	IFS=, read -r -a dirlist <<<"$dirs"
	: >"$list"
	[[ -z $excl || $excl == - ]] || IFS=, read -r -a globs <<<"$excl"
	for d in "${dirlist[@]}"; do
		[[ -e $src_root/$d ]] || {
			warn "$src_label: no $d in the package (plan for $lang)"
			continue
		}
		while IFS=' ' read -r -d '' size rel; do
			[[ $d == . ]] || rel="$d/$rel"
			[[ -f $src_root/$d ]] && rel=$d # DIRS named a file
			ok=1
			for g in "${globs[@]}"; do
				# shellcheck disable=SC2053 # $g is a glob
				[[ $rel == $g ]] && ok=0 && break
			done
			((ok)) || continue
			((got + size <= max && lang_bytes[$lang] + size <= LANGCORPUS_LANG_MAX)) || continue
			printf '%s\0' "$rel" >>"$list"
			got=$((got + size)) n=$((n + 1))
			lang_bytes[$lang]=$((lang_bytes[$lang] + size))
			lang_files[$lang]=$((lang_files[$lang] + 1))
		done < <(if [[ -f $src_root/$d ]]; then
			printf '%s %s\0' "$(stat -c %s "$src_root/$d")" "${d##*/}"
		else
			lang_find "$lang" "$src_root/$d"
		fi)
	done
	# One tar for the whole list: a cp per file costs minutes on a busy machine.
	out="$stage/$lang/$src_label"
	if ((n > 0)); then
		mkdir -p "$out"
		tar cf - -C "$src_root" --null --verbatim-files-from -T "$list" | tar xf - -C "$out" --no-same-owner --no-same-permissions
	fi
	if [[ $lang == dockerfile ]]; then
		while IFS= read -r -d '' rel; do
			case ${rel##*/} in Dockerfile | Containerfile | *.dockerfile | *.Dockerfile | Dockerfile.* | Containerfile.*) ;; *) mv "$out/$rel" "$out/$rel.dockerfile" ;; esac
		done <"$list"
	fi
	rm -f "$list"
	log "  $lang: $n files, $got bytes"
}

# --- fetching: each sets src_root (the unpacked package) or returns 1 after a warning ---

fetch_go() { # MODULE VERSION H1
	local mod=$1 ver=$2 sum=$3 out dir got
	# The pinned h1: sum is checked here, as go.sum would: the checksum database is not asked
	# (it does not answer for every module this proxy serves).
	if ! out=$(cd "$tmp" && GOMODCACHE="$CACHE/gomod" GOFLAGS=-modcacherw GOSUMDB=off \
		GOTOOLCHAIN=local GO111MODULE=on go mod download -json "$mod@$ver" 2>&1); then
		warn "go mod download $mod@$ver failed: $(grep -m1 '"Error"' <<<"$out" || echo "$out" | tail -1)"
		return 1
	fi
	dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$out")
	got=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$out")
	if [[ $got != "$sum" ]]; then
		warn "$mod@$ver has the sum $got, pinned $sum: left out"
		return 1
	fi
	[[ -d $dir ]] || {
		warn "go mod download $mod@$ver gave no directory"
		return 1
	}
	src_root=$dir
}

# check_sha FILE SHA256: whether FILE has that hash.
check_sha() {
	[[ $(sha256sum "$1" | cut -c1-64) == "$2" ]]
}

fetch_npm() { # NAME VERSION sha256:HEX
	local name=$1 ver=$2 sha=${3#sha256:} file out
	file="${name#@}"
	file="$CACHE/npm/${file//\//-}-$ver.tgz"
	if [[ ! -f $file ]] || ! check_sha "$file" "$sha"; then
		rm -f "$file"
		if ! out=$(cd "$CACHE/npm" && npm pack --silent "$name@$ver" 2>&1); then
			warn "npm pack $name@$ver failed: $(tail -3 <<<"$out")"
			return 1
		fi
		[[ -f $file ]] || {
			warn "npm pack $name@$ver did not write $file: $(tail -3 <<<"$out")"
			return 1
		}
		check_sha "$file" "$sha" || {
			warn "$file has the sha256 $(sha256sum "$file" | cut -c1-64), pinned $sha: left out"
			rm -f "$file"
			return 1
		}
	fi
	src_root="$tmp/src"
	rm -rf "$src_root"
	mkdir -p "$src_root"
	# npm tarballs hold one top directory, "package/" for nearly all.
	tar xzf "$file" -C "$src_root" --strip-components=1 --no-same-owner --no-same-permissions
	chmod -R u+rwX "$src_root"
}

fetch_deb() { # PACKAGE VERSION sha256:HEX (of the amd64 archive)
	local pkg=$1 ver=$2 sha=${3#sha256:} arch file out
	arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
	file=$(find "$CACHE/deb" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" -print -quit)
	if [[ -z $file ]]; then
		if ! out=$(cd "$CACHE/deb" && apt-get download "$pkg=$ver" 2>&1); then
			if grep -qE "Unable to locate package|was not found|has no installation candidate" <<<"$out"; then
				warn "apt-get download $pkg=$ver: Debian's package lists here lack it. Run 'apt-get update' (as root) and this script again; if 'apt-cache policy $pkg' still does not list $ver, the mirror dropped that version: pin the one it lists (and its sha256) in bench/langcorpus.sh"
			else
				warn "apt-get download $pkg=$ver failed: $(grep -m2 '^E:' <<<"$out" || tail -2 <<<"$out")"
			fi
			return 1
		fi
		file=$(find "$CACHE/deb" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" -print -quit)
		[[ -n $file ]] || {
			warn "apt-get download $pkg=$ver wrote no .deb"
			return 1
		}
	fi
	if [[ $file == *_amd64.deb || $file == *_all.deb ]]; then
		check_sha "$file" "$sha" || {
			warn "$file has the sha256 $(sha256sum "$file" | cut -c1-64), pinned $sha: left out"
			rm -f "$file"
			return 1
		}
	else
		warn "$file is for $arch: its hash is not pinned, not checked"
	fi
	src_root="$tmp/src"
	rm -rf "$src_root"
	mkdir -p "$src_root"
	dpkg-deb -x "$file" "$src_root"
}

# --- gather ---
src_ok=0 src_root="" src_label="" cleanup=""
finish_source() { # removes what the last package unpacked
	[[ -z $cleanup ]] || rm -rf "$cleanup"
	cleanup=""
}
while read -r f1 f2 f3 f4 f5 || [[ -n ${f1:-} ]]; do
	[[ -n ${f1:-} && $f1 != \#* ]] || continue
	case $f1 in
	go | npm | deb)
		finish_source
		src_ok=0
		case $f1 in
		go) src_label="go/$f2@$f3" ;;
		npm) src_label="npm/$f2@$f3" ;;
		deb) src_label="deb/${f2}_$f3" ;;
		esac
		log "$f1 $f2 $f3"
		if "fetch_$f1" "$f2" "$f3" "$f4"; then
			src_ok=1
			[[ $f1 != go ]] || cleanup=$src_root
			sources+=("$f1 $f2 $f3 $f4")
		else
			sources+=("$f1 $f2 $f3 $f4 FAILED")
		fi
		;;
	*)
		[[ -n $src_label ]] || die "the plan takes $f1 before naming a package"
		((src_ok)) || continue
		take "$f1" "$f2" "${f3:-.}" "${f4:-}"
		[[ -z ${f5:-} ]] || die "the plan's line '$f1 $f2 $f3 $f4 $f5' has too many fields"
		;;
	esac
done <<<"$PLAN"
finish_source

# --- summary ---
empty=()
{
	echo "langcorpus: files and bytes per language (DEST/LANG/REGISTRY/PACKAGE@VERSION/...)"
	total_f=0 total_b=0
	for l in "${LANGS[@]}"; do
		printf '%-12s files=%-7s bytes=%s\n' "$l" "${lang_files[$l]}" "${lang_bytes[$l]}"
		total_f=$((total_f + lang_files[$l])) total_b=$((total_b + lang_bytes[$l]))
	done
	printf '%-12s files=%-7s bytes=%s\n' total "$total_f" "$total_b"
	echo "packages (registry, name, version, pinned hash):"
	printf '  %s\n' "${sources[@]}"
} >"$stage/MANIFEST"
for l in "${LANGS[@]}"; do
	((lang_files[$l] > 0)) || empty+=("$l")
done
cat "$stage/MANIFEST" >&2
if ((${#empty[@]})); then
	die "no file for: ${empty[*]} (see the warnings above); what was gathered is in $stage"
fi
mkdir -p "$(dirname "$dest")"
mv "$stage" "$dest"
echo "$dest"
