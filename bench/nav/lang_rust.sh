# Rust for bench/nav.sh (sourced by it): rustc's own resolution and type check as the oracle
# (-Zunpretty=hir-tree and thir-tree, read by bench/nav/oracle_rust.py). See bench/nav/README.md.
LANGS+=("rust rs")

# semver: the crate's library (src/, Cargo.toml) as Debian ships it. The package is unpacked
# with apt-get download and dpkg-deb -x into $WORK/debx, never installed: an installed
# librust-*-dev lands in /usr/share/cargo/registry, which bench/corpus.sh copies into the
# benchmark corpus.
RUST_DEBX=(
  "librust-semver-dev=1.0.14-1 usr/share/cargo/registry/semver-1.0.14"
  "librust-arrayvec-dev=0.7.2-2 usr/share/cargo/registry/arrayvec-0.7.2"
)
REPOS+=(
  "semver rust dir:$WORK/debx/semver-1.0.14 -"
  "arrayvec rust dir:$WORK/debx/arrayvec-0.7.2 -"
)

# need_rust: a rustc that takes -Zunpretty (any toolchain, with RUSTC_BOOTSTRAP=1), and the
# Debian sources of the Rust repositories unpacked (not installed) into $WORK/debx.
need_rust() {
  command -v rustc >/dev/null || die "rustc is not installed: the Rust oracle (bench/nav/oracle_rust.py) runs rustc -Zunpretty=hir-tree,thir-tree (rustup's toolchain, or apt-get install rustc)"
  echo 'pub fn f() {}' >"$WORK/rust_probe.rs"
  RUSTC_BOOTSTRAP=1 rustc -Zunpretty=thir-tree --crate-name rust_probe --crate-type lib --edition 2018 "$WORK/rust_probe.rs" >/dev/null 2>&1 ||
    die "rustc $(rustc --version 2>/dev/null) does not run -Zunpretty=thir-tree (RUSTC_BOOTSTRAP=1): the Rust oracle needs it"
  rm -f "$WORK/rust_probe.rs"
  /usr/bin/python3 -c 'import tomllib' 2>/dev/null || die "/usr/bin/python3 has no tomllib (Python 3.11 or later): the Rust oracle reads Cargo.toml with it"
  local d pkg path deb
  for d in "${RUST_DEBX[@]}"; do
    read -r pkg path <<<"$d"
    [ -d "$WORK/debx/$(basename "$path")" ] && continue
    mkdir -p "$WORK/debx/dl"
    if [ -z "$apt_updated" ]; then apt-get update -qq >/dev/null; apt_updated=1; fi
    log "apt-get download $pkg (unpacked into $WORK/debx, not installed)"
    (cd "$WORK/debx/dl" && apt-get download -qq "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
    deb=$(ls "$WORK/debx/dl/${pkg%%=*}"_*.deb | head -1)
    rm -rf "$WORK/debx/x"; mkdir -p "$WORK/debx/x"
    dpkg-deb -x "$deb" "$WORK/debx/x"
    mv "$WORK/debx/x/$path" "$WORK/debx/$(basename "$path")"
    rm -rf "$WORK/debx/x"
  done
}

oracle_rust() { # DIR N SEED SAMPLE
  local s=()
  [ "$4" != - ] && s=(--sample "$4")
  /usr/bin/python3 "$here/nav/oracle_rust.py" "$1" --n "$2" --seed "$3" "${s[@]}"
}

# prepare_semver DIR: the library only (the oracle compiles the library target: tests/,
# benches/ and build.rs are other crates), Debian's packaging files out, and src/serde.rs
# out: it is compiled only with the optional serde feature, and the serde crate is not
# there for the oracle to compile against.
prepare_arrayvec() { # the library only, as for semver
  find "$1" -mindepth 1 -maxdepth 1 ! -name src ! -name Cargo.toml -exec rm -rf {} +
}

prepare_semver() {
  find "$1" -mindepth 1 -maxdepth 1 ! -name src ! -name Cargo.toml -exec rm -rf {} +
  rm -f "$1/src/serde.rs"
}
