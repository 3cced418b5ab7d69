#!/usr/bin/env bash
# train/select.sh: picks more Debian packages for the training corpus (issue 42), by rules a
# reader can check, and prints them as train/packages.txt lines (KIND NAME VERSION), the
# version pinned to what apt lists now. train/corpus.sh then gathers them.
#
#   train/select.sh LANG=COUNT ...    e.g. train/select.sh go=900 python=800 rust=500
#
# For each LANG, the packages of its naming rule (below) that apt lists, less:
#   - those packages.txt already lists;
#   - those the held-out rule denies (train/corpus.sh --deny-list: the benchmark's packages,
#     the Rust crates of the full corpus, the Go modules the Go tree vendors, the developers'
#     trial projects), and any Django package;
#   - transitional and dummy packages, those under 64 KiB or over 16 MiB installed, and
#     generated API clients, fixtures and test data (genproto, googleapis, *-sdk-*, azure,
#     kubernetes, fixtures, testdata in the name);
# of the binary packages of one source package, the largest alone; the COUNT largest (by
# installed size, then name) are printed. The same apt lists give the same selection.
#
# Naming rules: go golang-*-dev; python python3-* (not -dbg, -doc); rust librust-*-dev (not
# the per-feature packages, NAME+FEATURE-dev); ruby ruby-* (not -doc); php php-* of
# Architecture all (libraries, not C extensions); javascript node-* of Architecture all;
# c lib*-dev of Section libdevel.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pkgs=$here/packages.txt
die() { echo "select.sh: $*" >&2; exit 1; }
(($#)) || die "usage: train/select.sh LANG=COUNT ... (LANG one of go python rust ruby php javascript c)"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/corpus.sh" --deny-list >"$tmp/deny.tsv" 2>"$tmp/deny.err" || die "the deny list: $(tail -3 "$tmp/deny.err")"
awk '$1 !~ /^#/ && NF >= 3 { print $2 }' "$pkgs" | sort -u >"$tmp/listed"

{
	grep -E '^(deb|npm):' "$tmp/deny.tsv" | cut -f1 | cut -d: -f2-
	grep -E '^py:' "$tmp/deny.tsv" | cut -f1 | cut -d: -f2- | sed 's/^/python3-/'
} | sort -u >"$tmp/denied-names"
grep -E '^crate:' "$tmp/deny.tsv" | cut -f1 | cut -d: -f2- | sort -u >"$tmp/denied-crates"

pattern() {
	case "$1" in
	go) echo '^golang-.*-dev$' ;;
	python) echo '^python3-' ;;
	rust) echo '^librust-.*-dev$' ;;
	ruby) echo '^ruby-' ;;
	php) echo '^php-' ;;
	javascript) echo '^node-' ;;
	c) echo '^lib.*-dev$' ;;
	*) die "unknown language $1 (go python rust ruby php javascript c)" ;;
	esac
}

for arg in "$@"; do
	lang=${arg%%=*} count=${arg#*=}
	[[ $arg == *=* && $count =~ ^[0-9]+$ ]] || die "$arg: want LANG=COUNT"
	apt-cache pkgnames | grep -E "$(pattern "$lang")" | sort -u >"$tmp/names"
	# One record a package: name, version, installed size, section, architecture, description.
	xargs -a "$tmp/names" -r apt-cache show --no-all-versions 2>/dev/null | awk -v RS= -F'\n' '
		{
			name = ver = size = sec = arch = desc = src = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Package: /) name = substr($i, 10)
				else if ($i ~ /^Version: /) ver = substr($i, 10)
				else if ($i ~ /^Installed-Size: /) size = substr($i, 17)
				else if ($i ~ /^Section: /) sec = substr($i, 10)
				else if ($i ~ /^Source: /) { src = substr($i, 9); sub(/ .*/, "", src) }
				else if ($i ~ /^Architecture: /) arch = substr($i, 15)
				else if ($i ~ /^Description(-[a-z_A-Z]+)?: /) { desc = $i; sub(/^[^:]*: /, "", desc) }
			}
			if (src == "") src = name
			if (name != "" && ver != "") printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, ver, size + 0, sec, arch, desc, src
		}' >"$tmp/records"
	awk -F'\t' -v lang="$lang" -v listed="$tmp/listed" -v denied="$tmp/denied-names" -v crates="$tmp/denied-crates" '
		BEGIN {
			while ((getline l < listed) > 0) skip[l] = 1
			while ((getline l < denied) > 0) skip[l] = 1
			while ((getline l < crates) > 0) crate[l] = 1
		}
		{
			name = $1; size = $3; sec = $4; arch = $5; desc = tolower($6)
			if (name in skip || seen[name]++) next
			if (size < 64 || size > 16384) next
			# generated API clients, fixtures and test data: not code people document
			if (name ~ /genproto|googleapis|fixtures|testdata|-sdk-|aws-sdk|azure|k8s-|kubernetes|-api-client/) next
			if (desc ~ /transitional|dummy/) next
			if (lang == "python" && (name ~ /-(dbg|doc)$/ || name ~ /django/)) next
			if (lang == "rust") {
				if (name ~ /\+/) next
				c = name; sub(/^librust-/, "", c); sub(/-dev$/, "", c); sub(/-[0-9][0-9.]*$/, "", c)
				if (c in crate) next
			}
			if (lang == "go" && sec !~ /golang/) next
			if (lang == "ruby" && (name ~ /-doc$/ || sec !~ /ruby/)) next
			if (lang == "php" && arch != "all") next
			if (lang == "javascript" && (arch != "all" || sec !~ /javascript/)) next
			if (lang == "c" && sec !~ /libdevel/) next
			printf "%d\t%s\t%s\t%s\n", size, name, $2, $7
		}' "$tmp/records" | sort -t$'\t' -k1,1nr -k2,2 | awk -F'\t' '!src[$4]++' | awk -v n="$count" 'NR <= n' |
		awk -F'\t' -v kind="deb-$lang" '{ printf "%-14s %-48s %s\n", kind, $2, $3 }'
done
