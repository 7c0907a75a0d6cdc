#!/usr/bin/env bash
# A project outside the tree (tests/install/consumer) builds against an installed prefix
# with find_package(tlmcraft) and evaluates PLENA's relu C1 baseline through the libraries,
# with the cycles the installed CLI reports.
# Usage: find_package_test.sh BUILD_DIR SOURCE_DIR CMAKE
# shellcheck source=tests/install/common.sh
source "$(dirname "$0")/common.sh"

stage_install prefix
consumer_build=$work/consumer-build
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
"$cmake" -S "$source_dir/tests/install/consumer" -B "$consumer_build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" "${launcher[@]}" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring the consumer project"; }
"$cmake" --build "$consumer_build" -j 2 >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building the consumer project"; }

data_dir=$(cat "$consumer_build/tlmcraft_data_dir.txt")
[ "$data_dir" = "$work/prefix/share/tlmcraft" ] || fail "TLMCRAFT_DATA_DIR from the package is '$data_dir'"
TLMCRAFT_DATA_DIR=$data_dir "$consumer_build/consumer" plena relu C1 >"$work/consumer.txt" ||
  fail "consumer: exit $?: $(cat "$work/consumer.txt")"
for platform in plena coral aie_ml; do
  grep -qx "$platform" "$work/consumer.txt" || fail "consumer does not list $platform: $(cat "$work/consumer.txt")"
done
"$work/prefix/bin/tlmcraft" run --platform plena --task relu --config C1 --baseline --seed 1 --json >"$work/cli.json"
expected="pass $(cycles_of "$work/cli.json")"
[ "$(tail -n 1 "$work/consumer.txt")" = "$expected" ] ||
  fail "consumer printed '$(tail -n 1 "$work/consumer.txt")', the CLI '$expected'"
echo "find_package consumer: $expected"
