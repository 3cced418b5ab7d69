# C# for bench/nav.sh (sourced by it): Mono's C# compiler (Debian's mono-mcs, mcs 6.8) as the
# oracle, asked one definition at a time with [Obsolete] (bench/nav/oracle_cs/oracle_cs.py).
# See bench/nav/README.md.
LANGS+=("csharp cs c#")

# dbussharp: the library of dbus-sharp (src/: the DBus and DBus.Protocol namespaces, ~8k
# lines), from Debian's *source* package dbus-sharp 0.8.1-2.1 (the binary packages ship the
# assembly only). need_csharp fetches it with apt-get source --download-only from a deb-src
# list of its own (a private sources, lists and cache directory under $WORK/debsrc: the
# machine's apt state is not touched), unpacks it with dpkg-source -x (Debian's patches
# applied) into $WORK/debsrc, and nav.sh copies src/ as a dir: source.
CS_DEBSRC=(
  "dbus-sharp=0.8.1-2.1 dbus-sharp-0.8.1"
)
REPOS+=(
  "dbussharp csharp dir:$WORK/debsrc/dbus-sharp-0.8.1/src -"
)

# cs_flags DIR: mcs's options for the repository copied into DIR (its .csproj's references and
# Release defines); the oracle adds -target:library
cs_flags() {
  case "$(basename "$1")" in
    dbussharp) echo "-unsafe -d:TRACE -d:STRONG_NAME -d:NET35 -r:System.dll -r:System.Core.dll -r:System.Xml.dll -r:Mono.Posix.dll" ;;
    *) echo "-unsafe -r:System.dll -r:System.Core.dll -r:System.Xml.dll -r:System.Xml.Linq.dll" ;;
  esac
}

# need_csharp: mcs and the assemblies the repositories reference, and the Debian source
# packages of the fixed set unpacked into $WORK/debsrc
need_csharp() {
  need_apt mono-mcs libmono-posix4.0-cil dpkg-dev
  local d pkg sub ap
  for d in "${CS_DEBSRC[@]}"; do
    read -r pkg sub <<<"$d"
    [ -d "$WORK/debsrc/$sub" ] && continue
    ap=$WORK/debsrc/apt
    rm -rf "$ap"; mkdir -p "$ap/sources.list.d" "$ap/lists/partial" "$ap/cache/archives/partial" "$WORK/debsrc/dl"
    cat >"$ap/sources.list.d/debsrc.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    local o=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$ap/sources.list.d"
      -o "Dir::State::Lists=$ap/lists" -o "Dir::Cache=$ap/cache" -o "APT::Sandbox::User=root")
    log "apt-get source --download-only $pkg (a deb-src list of its own in $ap)"
    apt-get "${o[@]}" update -qq >/dev/null 2>&1 || die "apt-get update of the deb-src list in $ap failed"
    (cd "$WORK/debsrc/dl" && apt-get "${o[@]}" source --download-only -qq "$pkg" >/dev/null 2>&1) ||
      die "apt-get source --download-only $pkg failed"
    # apt-get checked the files against the signed Sources index; dpkg-source applies Debian's patches
    (cd "$WORK/debsrc/dl" && dpkg-source --no-check -x "${pkg%%=*}_${pkg#*=}.dsc" "$WORK/debsrc/$sub" >/dev/null) ||
      die "dpkg-source -x ${pkg%%=*}_${pkg#*=}.dsc failed"
  done
}

oracle_csharp() { # DIR N SEED SAMPLE
  local s=()
  [ "$4" != - ] && s=(--sample "$4")
  /usr/bin/python3 "$here/nav/oracle_cs/oracle_cs.py" "$1" --flags "$(cs_flags "$1")" -j 2 --n "$2" --seed "$3" "${s[@]}"
}
