#!/usr/bin/env bash
# An installed tlmcraft moved to another folder runs with no access to the source tree:
# its binary holds no path to it, and (traced with strace) no file access goes there. The
# relu baselines on Coral, PLENA and AIE-ML give the build tree's cycles.
# Usage: relocated_install_test.sh BUILD_DIR SOURCE_DIR CMAKE
source "$(dirname "$0")/common.sh"

stage_install staged
mv "$work/staged" "$work/moved"
prefix=$work/moved
tl=$prefix/bin/tlmcraft

grep -qF "$source_dir" "$tl" && fail "$tl contains the source path $source_dir"

version=$("$tl" --version)
[[ $version =~ ^tlmcraft\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{40}|unknown)(,\ modified)?\)$ ]] ||
  fail "tlmcraft --version printed '$version'"

# Only the moved prefix may provide data; a fresh Coral build cache forces a real compile.
unset TLMCRAFT_DATA_DIR TLMCRAFT_ISA_DIR TLMCRAFT_TASKS_DIR TLMCRAFT_CORAL_TEMPLATES
export XDG_CACHE_HOME=$work/cache
if command -v strace >/dev/null; then
  traced() { strace -f -qq -s 4096 -e trace=%file -o "$work/trace.txt" "$@"; }  # -s: whole paths
elif [ "${CI:-}" = true ]; then
  fail "strace is missing (make test installs it)"
else
  echo "note: strace missing, file accesses are not checked"
  traced() { "$@"; }
fi

cd "$work"
for platform in coral plena aie_ml; do
  args=(run --platform "$platform" --task relu --config C1 --baseline --seed 1 --trials 1 --json)
  traced "$tl" "${args[@]}" >"$work/installed.json" || fail "installed tlmcraft ${args[*]}: exit $?"
  grep -q '"status":"pass"' "$work/installed.json" || fail "installed tlmcraft ${args[*]}: not pass"
  if [ -f "$work/trace.txt" ] && grep -F -e "\"$source_dir/" -e "\"$source_dir\"" "$work/trace.txt" >"$work/touched.txt"; then
    fail "installed tlmcraft ${args[*]} accessed the source tree: $(head -n 3 "$work/touched.txt")"
  fi
  "$build/harness/tlmcraft" "${args[@]}" >"$work/build_tree.json" || fail "build-tree tlmcraft ${args[*]}"
  installed=$(cycles_of "$work/installed.json")
  expected=$(cycles_of "$work/build_tree.json")
  [ "$installed" = "$expected" ] || fail "$platform relu C1: $installed cycles installed, $expected in the build tree"
  echo "$platform relu C1 baseline: pass, $installed cycles (as in the build tree)"
done

# Without its data folder the binary says where it looked and what to set.
mkdir -p "$work/lonely/bin"
cp "$tl" "$work/lonely/bin/"
status=0
"$work/lonely/bin/tlmcraft" run --platform plena --task relu --config C1 --baseline >/dev/null 2>"$work/err.txt" || status=$?
[ "$status" = 2 ] || fail "without data: exit $status, expected 2"
grep -qF "cannot find the tlmcraft data folder" "$work/err.txt" && grep -qF "set TLMCRAFT_DATA_DIR" "$work/err.txt" ||
  fail "without data: unexpected message: $(cat "$work/err.txt")"
# ... and TLMCRAFT_DATA_DIR points it at one.
TLMCRAFT_DATA_DIR=$prefix/share/tlmcraft "$work/lonely/bin/tlmcraft" run --platform plena --task relu --config C1 \
  --baseline --seed 1 --trials 1 >/dev/null || fail "TLMCRAFT_DATA_DIR=$prefix/share/tlmcraft did not help"
echo "relocated install: ok"
