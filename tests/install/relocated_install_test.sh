#!/usr/bin/env bash
# An installed tlmcraft moved to another folder runs with no access to the source tree:
# its binary holds no path to it, and (traced with strace) no file access goes there. The
# relu baselines on Coral, PLENA and AIE-ML give the build tree's cycles.
# Usage: relocated_install_test.sh BUILD_DIR SOURCE_DIR CMAKE
# shellcheck source=tests/install/common.sh
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

# Fails if the last traced run opened, listed or stat'ed anything below the source tree.
expect_no_source_access() {
  [ -f "$work/trace.txt" ] || return 0
  if grep -F -e "\"$source_dir/" -e "\"$source_dir\"" "$work/trace.txt" >"$work/touched.txt"; then
    fail "installed $1 accessed the source tree: $(head -n 3 "$work/touched.txt")"
  fi
  rm "$work/trace.txt"
}

cd "$work"
for platform in coral plena aie_ml; do
  args=(run --platform "$platform" --task relu --config C1 --baseline --seed 1 --trials 1 --json)
  traced "$tl" "${args[@]}" >"$work/installed.json" || fail "installed tlmcraft ${args[*]}: exit $?"
  grep -q '"status":"pass"' "$work/installed.json" || fail "installed tlmcraft ${args[*]}: not pass"
  expect_no_source_access "tlmcraft ${args[*]}"
  "$build/harness/tlmcraft" "${args[@]}" >"$work/build_tree.json" || fail "build-tree tlmcraft ${args[*]}"
  installed=$(cycles_of "$work/installed.json")
  expected=$(cycles_of "$work/build_tree.json")
  [ "$installed" = "$expected" ] || fail "$platform relu C1: $installed cycles installed, $expected in the build tree"
  echo "$platform relu C1 baseline: pass, $installed cycles (as in the build tree)"
done

# The agent's grep_docs (over MCP) reads the installed docs: Coral's hand-written ISA
# reference and PLENA's platform document.
request() { printf '{"jsonrpc":"2.0","id":%s,"method":"%s","params":%s}\n' "$@"; }
{
  request 1 initialize '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}'
  request 2 tools/call '{"name":"grep_docs","arguments":{"query":"vsetvli","max_results":1}}'
  request 3 tools/call '{"name":"grep_docs","arguments":{"query":"scratchpad","max_results":1,"platform":"plena"}}'
} >"$work/mcp_in.jsonl"
traced "$tl" mcp --platform coral --task relu --config C1 --workspace "$work/ws" <"$work/mcp_in.jsonl" \
  >"$work/mcp_out.jsonl" 2>"$work/mcp_err.txt" || fail "installed tlmcraft mcp: exit $?: $(cat "$work/mcp_err.txt")"
grep -q '"id":2,.*isa/coral.md:[0-9]' "$work/mcp_out.jsonl" || fail "grep_docs on coral: $(cat "$work/mcp_out.jsonl")"
grep -q '"id":3,.*platforms/plena.md:[0-9]' "$work/mcp_out.jsonl" || fail "grep_docs on plena: $(cat "$work/mcp_out.jsonl")"
expect_no_source_access "tlmcraft mcp"
echo "grep_docs over MCP: the installed docs"

# agent-bench --dry-run prices the campaign with the installed price table.
traced "$tl" agent-bench --platform plena --tasks relu --configs C1 --provider anthropic --model claude-sonnet-4-5 \
  --budget 2 --dry-run --json --out "$work/dry" >"$work/dry.json" || fail "installed agent-bench --dry-run: exit $?"
grep -q '"price": "claude-sonnet-4-5\*"' "$work/dry.json" || fail "installed price table not used: $(cat "$work/dry.json")"
expect_no_source_access "tlmcraft agent-bench --dry-run"
echo "agent-bench --dry-run: the installed price table"

# Without its data folder the binary says where it looked and what to set.
mkdir -p "$work/lonely/bin"
cp "$tl" "$work/lonely/bin/"
status=0
"$work/lonely/bin/tlmcraft" run --platform plena --task relu --config C1 --baseline >/dev/null 2>"$work/err.txt" || status=$?
[ "$status" = 2 ] || fail "without data: exit $status, expected 2"
if ! grep -qF "cannot find the tlmcraft data folder" "$work/err.txt" || ! grep -qF "set TLMCRAFT_DATA_DIR" "$work/err.txt"; then
  fail "without data: unexpected message: $(cat "$work/err.txt")"
fi
# ... and TLMCRAFT_DATA_DIR points it at one.
TLMCRAFT_DATA_DIR=$prefix/share/tlmcraft "$work/lonely/bin/tlmcraft" run --platform plena --task relu --config C1 \
  --baseline --seed 1 --trials 1 >/dev/null || fail "TLMCRAFT_DATA_DIR=$prefix/share/tlmcraft did not help"
echo "relocated install: ok"
