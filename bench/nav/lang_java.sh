# Java for bench/nav.sh (sourced): the oracle is javac's own attribution (oracle_java/Oracle.java,
# run with JDK 17's source launcher); see bench/nav/README.md.
#
# httpserver: the jdk.httpserver module (com.sun.net.httpserver, sun.net.httpserver) of
# Debian's openjdk-17-source: src.zip is copied in and prepare_httpserver keeps the module.
LANGS+=("java")
REPOS+=("httpserver java deb:openjdk-17-source=17.0.21.1+2-1~deb12u1:/usr/lib/jvm/openjdk-17/lib/src.zip -")

java17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java

need_java() { need_apt openjdk-17-jdk-headless openjdk-17-source; }

# prepare_httpserver DIR: the copy holds src.zip; leave only jdk.httpserver's sources, at DIR's root
prepare_httpserver() {
  local dir=$1
  command -v unzip >/dev/null || need_apt unzip
  (cd "$dir" && unzip -q src.zip 'jdk.httpserver/*' && rm src.zip)
  (cd "$dir/jdk.httpserver" && find . -mindepth 1 -maxdepth 1 -exec mv {} .. \;)
  rmdir "$dir/jdk.httpserver"
}

# oracle_java DIR N SEED SAMPLE: a module-info.java at DIR naming a module of the JDK compiles
# DIR as that module (--patch-module NAME=DIR), so javac sees its real types and exports
oracle_java() {
  local dir=$1 n=$2 seed=$3 sample=$4 mod= sflag=() jopts=()
  [ "$sample" != - ] && sflag=(--sample "$sample")
  if [ -f "$dir/module-info.java" ]; then
    mod=$(sed -n 's/^[[:space:]]*\(open[[:space:]]\+\)\?module[[:space:]]\+\([A-Za-z0-9_.]\+\).*/\2/p' "$dir/module-info.java" | head -1)
  fi
  if [ -n "$mod" ] && "$java17" --list-modules | grep -q "^$mod@"; then
    jopts=(-- --patch-module "$mod=$dir")
  fi
  "$java17" --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
    "$here/nav/oracle_java/Oracle.java" "$dir" --n "$n" --seed "$seed" "${sflag[@]}" "${jopts[@]}"
}
