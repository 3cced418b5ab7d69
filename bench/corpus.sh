#!/usr/bin/env bash
# A copy of the project's benchmark corpus script (shared/bench/corpus.sh), kept here so that CI,
# on a fresh clone, can build corpus.sh small for the cluster suite. .ci/run checks that the
# two agree where shared/ is beside the repository.
# Builds a real, multi-language source corpus for benchmarks and end-to-end checks,
# from packages that every machine of this project can install (no network beyond the
# package registries). Same inputs give the same tree.
#
#   corpus.sh [small|full] [DEST]     default: full, /tmp/quarry-corpus/<size>
#
# small (~25 MB): Go net/http + go/*, Django core, tokio, rxjs, java.util, sqlite (C).
# full (~250 MB): all of Go's src, Django, 80 Rust crates, rxjs + typeorm, java.base, sqlite (C).
# Prints the corpus path last. Re-running over an existing corpus only checks it.
set -euo pipefail
size=${1:-full}
dest=${2:-/tmp/quarry-corpus/$size}
case "$size" in small|full) ;; *) echo "usage: corpus.sh [small|full] [DEST]" >&2; exit 2 ;; esac

if [ -f "$dest/MANIFEST" ]; then cat "$dest/MANIFEST"; echo "$dest"; exit 0; fi

need_apt=()
[ -d /usr/lib/python3/dist-packages/django ] || need_apt+=(python3-django)
# always OpenJDK 17's sources (the same tree on every machine); the image may carry a dangling link to them
srczip=/usr/lib/jvm/openjdk-17/src.zip
[ -e "$srczip" ] || need_apt+=(openjdk-17-source)
[ -d /usr/share/cargo/registry ] && ls /usr/share/cargo/registry | grep -q '^tokio-' || need_apt+=(librust-tokio-dev librust-serde-dev librust-regex-dev)
command -v unzip >/dev/null || need_apt+=(unzip)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dest"
goroot=$(go env GOROOT)

# Go
if [ "$size" = small ]; then
  mkdir -p "$dest/go"; cp -r "$goroot/src/net/http" "$goroot/src/go" "$dest/go/"
else
  cp -r "$goroot/src" "$dest/go"
fi
# Python
mkdir -p "$dest/python"
if [ "$size" = small ]; then
  cp -r /usr/lib/python3/dist-packages/django/db /usr/lib/python3/dist-packages/django/http "$dest/python/"
else
  cp -r /usr/lib/python3/dist-packages/django "$dest/python/"
fi
# Rust
mkdir -p "$dest/rust"
if [ "$size" = small ]; then
  cp -r /usr/share/cargo/registry/tokio-[0-9]* "$dest/rust/"
else
  cp -r /usr/share/cargo/registry/. "$dest/rust/"
fi
# TypeScript / JavaScript
( cd "$tmp" && npm pack --silent rxjs@7.8.2 >/dev/null && tar xzf rxjs-7.8.2.tgz && mv package rxjs )
mkdir -p "$dest/typescript"; cp -r "$tmp/rxjs/src" "$dest/typescript/rxjs"
if [ "$size" = full ]; then
  ( cd "$tmp" && npm pack --silent typeorm@0.3.20 >/dev/null && tar xzf typeorm-0.3.20.tgz && mv package typeorm )
  cp -r "$tmp/typeorm" "$dest/typescript/typeorm"
fi
# Java
if [ "$size" = small ]; then pat='java.base/java/util/*'; else pat='java.base/*'; fi
unzip -q -o "$srczip" "$pat" -d "$dest/java"
# C: the SQLite amalgamation, via the Go module proxy
modcache="$tmp/mod"
( cd "$tmp" && GOMODCACHE="$modcache" GOFLAGS=-mod=mod go mod download -json github.com/mattn/go-sqlite3@v1.14.22 >/dev/null )
mkdir -p "$dest/c/sqlite"
cp "$modcache"/github.com/mattn/go-sqlite3@v1.14.22/sqlite3-binding.[ch] "$dest/c/sqlite/"
chmod -R u+w "$dest"

{
  echo "corpus: $size"
  for d in "$dest"/*/; do
    n=$(find "$d" -type f | wc -l); b=$(du -sb "$d" | cut -f1)
    printf '%-12s files=%-7s bytes=%s\n' "$(basename "$d")" "$n" "$b"
  done
  printf 'total        files=%-7s bytes=%s\n' "$(find "$dest" -type f | wc -l)" "$(du -sb "$dest" | cut -f1)"
} > "$dest/MANIFEST"
cat "$dest/MANIFEST"
echo "$dest"
