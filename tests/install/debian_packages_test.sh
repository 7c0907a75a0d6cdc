#!/usr/bin/env bash
# `cpack -G DEB` builds tlmcraft and tlmcraft-dev with their Debian dependencies and
# contents, and the CLI unpacked from the package runs with the data it carries.
# Usage: debian_packages_test.sh BUILD_DIR SOURCE_DIR CMAKE
# shellcheck source=tests/install/common.sh
source "$(dirname "$0")/common.sh"

cpack=$(dirname "$cmake")/cpack
"$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log" >&2; fail "cpack -G DEB"; }
runtime=$(ls "$work"/deb/tlmcraft_*.deb 2>/dev/null) || fail "no tlmcraft_*.deb: $(ls "$work/deb")"
dev=$(ls "$work"/deb/tlmcraft-dev_*.deb 2>/dev/null) || fail "no tlmcraft-dev_*.deb: $(ls "$work/deb")"

# Every dependency the package needs, as a whole item of its Depends list.
expect_depends() {
  local deb=$1
  shift
  local depends
  depends=", $(dpkg-deb -f "$deb" Depends),"
  for package in "$@"; do
    [[ $depends == *", $package"[\ ,]* ]] || fail "$(basename "$deb") does not depend on $package:$depends"
  done
}
expect_depends "$runtime" libsystemc libyaml-cpp0.7 libboost-program-options1.74.0 libcurl4 libre2-9 \
  binutils-riscv64-unknown-elf clang-16 lld-16
expect_depends "$dev" tlmcraft libsystemc-dev libyaml-cpp-dev libboost-program-options-dev nlohmann-json3-dev \
  libcurl4-openssl-dev libre2-dev cmake pkg-config

expect_files() {
  local deb=$1
  shift
  dpkg-deb -c "$deb" | awk '{print $NF}' >"$work/files.txt"
  for file in "$@"; do
    grep -qx "./usr/$file" "$work/files.txt" || fail "$(basename "$deb") lacks /usr/$file"
  done
}
expect_files "$runtime" bin/tlmcraft share/tlmcraft/isa/plena/plena.yaml share/tlmcraft/platforms/coral/runtime/crt0.s \
  share/tlmcraft/platforms/plena/configs/default.yaml share/tlmcraft/tasks/specs/relu.yaml share/tlmcraft/docs/platforms/plena.md
expect_files "$dev" lib/cmake/tlmcraft/tlmcraftConfig.cmake lib/libtlm_harness.a include/tlmcraft/harness/evaluate.h

# The CLI unpacked from the package finds usr/share/tlmcraft next to its usr/bin.
dpkg-deb -x "$runtime" "$work/root"
"$work/root/usr/bin/tlmcraft" run --platform plena --task relu --config C1 --baseline --seed 1 --trials 1 \
  >"$work/run.txt" 2>&1 || fail "unpacked tlmcraft: $(cat "$work/run.txt")"
grep -q "plena / relu / C1: pass" "$work/run.txt" || fail "unpacked tlmcraft: $(cat "$work/run.txt")"
echo "debian packages: $(basename "$runtime") $(basename "$dev") ok"
