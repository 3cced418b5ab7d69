# C and C++ for bench/nav.sh (sourced by it): libclang 14 (Debian's python3-clang-14) as the
# oracle, bench/nav/oracle_c.py. See bench/nav/README.md.
LANGS+=("c" "cpp c++ cxx")

# libxcrypt: libcrypt's sources as Debian ships them (lib/, test/); the headers configure and
# its scripts would generate (config.h, crypt.h, crypt-symbol-vers.h, crypt-hashes.h) are
# written by prepare_libxcrypt beside the copy, in DIR.gen, outside what is indexed.
# cli11: CLI11's headers (header-only C++11 command-line parser), as Debian ships them.
REPOS+=(
  "libxcrypt c deb:libxcrypt-source=1:4.4.33-2:/usr/src/libxcrypt libxcrypt/lib/"
  "cli11 cpp deb:libcli11-dev=2.1.2+ds-1:/usr/include/CLI -"
)

need_c() { need_apt python3-clang-14; }
need_cpp() { need_c; }

# c_flags DIR: the compile flags of the repository copied into DIR
c_flags() {
  case "$(basename "$1")" in
    libxcrypt) echo "-I$1.gen -I$1/libxcrypt/lib -DHAVE_CONFIG_H -DIN_LIBCRYPT -std=gnu11 -include stdalign.h -ferror-limit=0" ;;
    cli11) echo "-I$1 -std=c++17" ;;
    *) echo "-I$1 -I$1/include" ;;
  esac
}

oracle_c() { # DIR N SEED SAMPLE
  local s=()
  [ "$4" != - ] && s=(--sample "$4")
  /usr/bin/python3 "$here/nav/oracle_c.py" "$1" --lang c --n "$2" --seed "$3" --flags "$(c_flags "$1")" "${s[@]}"
}

oracle_cpp() { # DIR N SEED SAMPLE
  local s=()
  [ "$4" != - ] && s=(--sample "$4")
  /usr/bin/python3 "$here/nav/oracle_c.py" "$1" --lang cpp --n "$2" --seed "$3" --flags "$(c_flags "$1")" "${s[@]}"
}

# prepare_libxcrypt DIR: what configure and build-aux/scripts would generate (not shipped by
# the Debian package), for glibc on Linux, all hashes and APIs enabled, into DIR.gen.
prepare_libxcrypt() {
  local src=$1/libxcrypt gen=$1.gen
  rm -rf "$gen"; mkdir -p "$gen"
  cat >"$gen/config.h" <<'EOF'
#define HAVE_UNISTD_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_FCNTL_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_SYSCALL_H 1
#define HAVE_SYS_RANDOM_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_CDEFS_H 1
#define HAVE_SYS_CDEFS_THROW 1
#define HAVE_SYS_CDEFS_BEGIN_END_DECLS 1
#define HAVE_ENDIAN_H 1
#define HAVE_SYSCALL 1
#define HAVE_GETRANDOM 1
#define HAVE_GETENTROPY 1
#define HAVE_EXPLICIT_BZERO 1
#define HAVE_MAX_ALIGN_T 1
#define HAVE__STATIC_ASSERT 1
#define HAVE_STATIC_ASSERT_IN_ASSERT_H 1
#define HAVE_FUNC_ATTRIBUTE_SYMVER 0
#define HAVE_SYMVER 0
#define SYMVER_FLOOR GLIBC_2_0
#define ENABLE_FAILURE_TOKENS 1
#define ENABLE_OBSOLETE_API 1
#define ENABLE_OBSOLETE_API_ENOSYS 0
#define ENDIANNESS_IS_LITTLE 1
EOF
  sed -e 's/@BEGIN_DECLS@/__BEGIN_DECLS/' -e 's/@END_DECLS@/__END_DECLS/' \
    -e 's/@DEFAULT_PREFIX_ENABLED@/1/' -e 's/@XCRYPT_VERSION_MAJOR@/4/' \
    -e 's/@XCRYPT_VERSION_MINOR@/4/' -e 's/@XCRYPT_VERSION_STR@/4.4.33/' \
    "$src/lib/crypt.h.in" >"$gen/crypt.h"
  sed -e 's/@BEGIN_DECLS@/__BEGIN_DECLS/' -e 's/@END_DECLS@/__END_DECLS/' \
    "$src/lib/xcrypt.h.in" >"$gen/xcrypt.h"
  {
    local s
    for s in $(grep -ohE '\bSYMVER_[A-Za-z0-9_]+' "$src"/lib/*.c | sort -u); do
      echo "#define $s symver_nop()"
    done
  } >"$gen/crypt-symbol-vers.h"
  {
    local i name prefix nrbytes flags strong
    for i in $(grep -ohE '\bINCLUDE_[A-Za-z0-9_]+' "$src"/lib/*.c "$src"/lib/*.h | sort -u); do
      echo "#define $i 1"
    done
    while read -r name prefix nrbytes flags; do
      case "$name" in ''|'#'*) continue ;; esac
      printf '#define crypt_%s_rn _crypt_crypt_%s_rn\nextern void crypt_%s_rn (const char *, size_t, const char *, size_t, uint8_t *, size_t, void *, size_t);\n' "$name" "$name" "$name"
      printf '#define gensalt_%s_rn _crypt_gensalt_%s_rn\nextern void gensalt_%s_rn (unsigned long, const uint8_t *, size_t, uint8_t *, size_t);\n' "$name" "$name" "$name"
    done <"$src/lib/hashes.conf"
    echo '#define HASH_ALGORITHM_DEFAULT "$y$"'
    printf '#define HASH_ALGORITHM_TABLE_ENTRIES'
    while read -r name prefix nrbytes flags; do
      case "$name" in ''|'#'*) continue ;; esac
      [ "$prefix" = : ] && prefix=
      strong=0; case ",$flags," in *,STRONG,*) strong=1 ;; esac
      printf ' \\\n  { "%s", %d, crypt_%s_rn, gensalt_%s_rn, %s, %s },' "$prefix" "${#prefix}" "$name" "$name" "$nrbytes" "$strong"
    done <"$src/lib/hashes.conf"
    echo
  } >"$gen/crypt-hashes.h"
}
