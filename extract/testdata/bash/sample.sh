#!/usr/bin/env bash
# Sample script exercising every Bash construct the extractor knows.

source ./lib/common.sh
. "$HOME/.config/env.sh"

# MAX_SIZE is the largest size.
readonly MAX_SIZE=10
export PATH_PREFIX="/usr/local"
declare -r VERSION="1.0"
declare -a ITEMS=(a b c)
count=0

# Print a greeting.
# Takes one argument.
greet() {
  local name="$1"
  echo "Hello, $name"
  printf '%s\n' "$MAX_SIZE"
}

function cleanup {
  rm -rf "$TMPDIR"
}

function build() (
  cd src && make all
)

_private_helper() {
  greet "world" | tr a-z A-Z
  result=$(date +%s)
}

# Grüße an alle (non-ASCII name).
grüße() {
  greet "Welt"
}

trap cleanup EXIT
greet "$1"
