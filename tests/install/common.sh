# shellcheck shell=bash
# Shared by the install tests: arguments, a scratch folder outside the source tree, and
# an install of the build tree into it. Usage: source common.sh BUILD_DIR SOURCE_DIR CMAKE
set -euo pipefail
build=$1
source_dir=$2
cmake=$3

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/tlmcraft-install-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work/" in
  "$source_dir"/*) fail "the scratch folder $work is inside the source tree; set TMPDIR elsewhere" ;;
esac

# cmake --install of the build tree into $work/$1 (quietly; its log on failure).
stage_install() {
  "$cmake" --install "$build" --prefix "$work/$1" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "cmake --install $build --prefix $work/$1"; }
}

# The first "cycles" of a one-line report.
cycles_of() { grep -o '"cycles":[0-9]*' "$1" | head -n 1 | cut -d: -f2; }
