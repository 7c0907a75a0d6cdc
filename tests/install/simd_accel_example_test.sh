#!/usr/bin/env bash
# examples/simd_accel, a platform outside the tree: stage an install of tlmcraft, build the
# example against it with find_package(tlmcraft), run its own tests (hand-derived cycles;
# relu and gemm C1..C5 through evaluate()), then load it as a plugin into the installed
# CLI: `list platforms`, `run --baseline`, `isa check`, `asm`, the MCP tools (the agent's ISA
# reference included), the search agent with the plugin's transformations, and once installed into the prefix, without TLMCRAFT_PLUGIN_PATH.
# Usage: simd_accel_example_test.sh BUILD_DIR SOURCE_DIR CMAKE
# shellcheck source=tests/install/common.sh
source "$(dirname "$0")/common.sh"

stage_install prefix
tl=$work/prefix/bin/tlmcraft
example=$source_dir/examples/simd_accel
ex_build=$work/simd_accel-build
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# The prefix's include folder lies in a new scratch folder each run: relative to it, the
# compiler's arguments stay the same, so ccache hits on a warm cache.
export CCACHE_BASEDIR=$work
"$cmake" -S "$example" -B "$ex_build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" \
  "${launcher[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; fail "configuring examples/simd_accel"; }
"$cmake" --build "$ex_build" -j 2 >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "building examples/simd_accel"; }
echo "built examples/simd_accel against $work/prefix"

export TLMCRAFT_DATA_DIR=$work/prefix/share/tlmcraft
"$ex_build/simd_accel_tests" >"$work/gtest.log" 2>&1 || { cat "$work/gtest.log" >&2; fail "simd_accel_tests"; }
echo "simd_accel_tests: $(grep -c '^\[       OK \]' "$work/gtest.log") tests pass"
unset TLMCRAFT_DATA_DIR

plugin=$ex_build/libsimd_accel.so
[ -f "$plugin" ] || fail "no plugin $plugin"
export TLMCRAFT_PLUGIN_PATH=$plugin
"$tl" list platforms >"$work/platforms.txt" 2>&1 || fail "list platforms: $(cat "$work/platforms.txt")"
grep -qw simd_accel "$work/platforms.txt" || fail "list platforms does not show simd_accel: $(cat "$work/platforms.txt")"

# relu C1: 254 cycles by README.md's formulas (tests/evaluate_test.cpp derives them).
"$tl" run --platform simd_accel --task relu --config C1 --baseline --seed 1 --json >"$work/relu.json" 2>"$work/err.txt" ||
  fail "run relu C1: exit $?: $(cat "$work/err.txt") $(head -c 2000 "$work/relu.json")"
grep -q '"status":"pass"' "$work/relu.json" || fail "relu C1 did not pass: $(head -c 2000 "$work/relu.json")"
[ "$(cycles_of "$work/relu.json")" = 254 ] || fail "relu C1: $(cycles_of "$work/relu.json") cycles, expected 254"
"$tl" run --platform simd_accel --task gemm --config C1 --baseline --seed 1 --json >"$work/gemm.json" 2>"$work/err.txt" ||
  fail "run gemm C1: exit $?: $(cat "$work/err.txt")"
grep -q '"status":"pass"' "$work/gemm.json" || fail "gemm C1 did not pass: $(head -c 2000 "$work/gemm.json")"
echo "plugin: relu C1 pass in 254 cycles, gemm C1 pass in $(cycles_of "$work/gemm.json") cycles"

# Provenance hashes the plugin's own ISA file (PlatformInfo::isa_dir), as for built-in ISAs:
# tlmcraft's FNV-1a 64 of its bytes (harness::fnv1a64_hex, whose offset basis is
# 1469598103934665603, not the published 14695981039346656037), computed here in bash
# (arithmetic wraps mod 2^64).
fnv1a64() {
  local h=1469598103934665603 b
  for b in $(od -An -v -tu1 "$1"); do h=$(((h ^ b) * 1099511628211)); done
  printf '%016x' "$h"
}
# The ISA entry of a report's provenance: {"fnv1a64":...,"name":"simd","path":...}.
isa_entry_of() { grep -o '"isa":\[{[^]]*"name":"simd"[^]]*\]' "$1" | head -n 1; }
simd_yaml=$example/isa/simd/simd.yaml
want="{\"fnv1a64\":\"$(fnv1a64 "$simd_yaml")\",\"name\":\"simd\",\"path\":\"$simd_yaml\"}"
[ "$(isa_entry_of "$work/relu.json")" = "\"isa\":[$want]" ] ||
  fail "relu C1's provenance does not carry the simd ISA's hash $want: $(isa_entry_of "$work/relu.json")"
echo "provenance: the plugin's ISA file $simd_yaml, fnv1a64 $(fnv1a64 "$simd_yaml")"

# The ISA tools know the plugin's ISA; a bad kernel gets file:line:col.
"$tl" isa check simd >"$work/check.txt" 2>&1 || fail "isa check simd: $(cat "$work/check.txt")"
printf 'S_LI s1, 64\nV_LDX v1, s1\n' >"$work/bad.sasm"
status=0
"$tl" asm "$work/bad.sasm" >"$work/asm.txt" 2>&1 || status=$?
[ "$status" = 1 ] || fail "asm of a bad kernel: exit $status, expected 1: $(cat "$work/asm.txt")"
grep -q 'bad.sasm:2:1' "$work/asm.txt" || fail "asm does not name bad.sasm:2:1: $(cat "$work/asm.txt")"

# The MCP server serves the platform: the baseline, written and evaluated through the tools.
"$tl" baseline --platform simd_accel --task relu --config C1 -o "$work/relu_c1.sasm" || fail "tlmcraft baseline"
code=$(awk '{printf "%s\\n", $0}' "$work/relu_c1.sasm")
request() { printf '{"jsonrpc":"2.0","id":%s,"method":"%s","params":%s}\n' "$@"; }
{
  request 1 initialize '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}'
  request 2 tools/call '{"name":"get_hardware_config","arguments":{}}'
  request 3 tools/call "{\"name\":\"write_code\",\"arguments\":{\"code\":\"$code\"}}"
  request 4 tools/call '{"name":"run_evaluation","arguments":{}}'
  request 5 tools/call '{"name":"grep_docs","arguments":{"query":"V_FMA","max_results":1}}'
} >"$work/mcp_in.jsonl"
"$tl" mcp --platform simd_accel --task relu --config C1 --workspace "$work/ws" <"$work/mcp_in.jsonl" \
  >"$work/mcp_out.jsonl" 2>"$work/mcp_err.txt" || fail "tlmcraft mcp: exit $?: $(cat "$work/mcp_err.txt")"
grep -q '"id":2,.*spad_bytes' "$work/mcp_out.jsonl" || fail "get_hardware_config: $(cat "$work/mcp_out.jsonl")"
grep -q '"id":4,.*"status":"pass"' "$work/mcp_out.jsonl" || fail "run_evaluation over MCP: $(cat "$work/mcp_out.jsonl")"
grep -q '"id":5,.*isa/simd.md:[0-9]' "$work/mcp_out.jsonl" || fail "grep_docs finds no simd ISA reference: $(cat "$work/mcp_out.jsonl")"
echo "MCP: get_hardware_config, run_evaluation and grep_docs (the simd ISA reference) serve simd_accel"

# The search agent uses the transformations the plugin registers (src/search.cpp): a
# correct kernel faster than the baseline's 254 cycles.
"$tl" agent --platform simd_accel --task relu --config C1 --provider search --workspace "$work/agent" \
  --transcript "$work/agent.jsonl" --json >"$work/agent.json" 2>"$work/agent.log" ||
  fail "search agent on simd_accel: exit $?: $(tail -n 5 "$work/agent.log")"
grep -q '"status":"pass"' "$work/agent.json" || fail "search agent: no correct kernel: $(head -c 2000 "$work/agent.json")"
agent_cycles=$(cycles_of "$work/agent.json")
[ "$agent_cycles" -lt 254 ] || fail "search agent: best relu C1 kernel $agent_cycles cycles, not below the baseline's 254"
grep -q 'Trying: unroll loop 0 x' "$work/agent.jsonl" || fail "search agent did not try simd_accel's unrolling"
echo "search agent: relu C1 in $agent_cycles cycles (baseline 254) with simd_accel's registered unrolling"
unset TLMCRAFT_PLUGIN_PATH

# Installed into the prefix, the plugin loads from <prefix>/lib/tlmcraft/plugins and finds
# its data beside itself.
"$cmake" --install "$ex_build" --prefix "$work/prefix" >"$work/ex_install.log" 2>&1 ||
  { cat "$work/ex_install.log" >&2; fail "installing examples/simd_accel"; }
"$tl" run --platform simd_accel --task relu --config C1 --baseline --seed 1 --json >"$work/installed.json" 2>"$work/err.txt" ||
  fail "installed plugin: run relu C1: exit $?: $(cat "$work/err.txt")"
[ "$(cycles_of "$work/installed.json")" = 254 ] || fail "installed plugin: relu C1 $(cycles_of "$work/installed.json") cycles"
installed_yaml=$work/prefix/lib/tlmcraft/plugins/share/simd_accel/isa/simd/simd.yaml
want="{\"fnv1a64\":\"$(fnv1a64 "$installed_yaml")\",\"name\":\"simd\",\"path\":\"$installed_yaml\"}"
[ "$(isa_entry_of "$work/installed.json")" = "\"isa\":[$want]" ] ||
  fail "installed plugin: provenance does not carry $want: $(isa_entry_of "$work/installed.json")"
echo "installed plugin: relu C1 pass in 254 cycles without TLMCRAFT_PLUGIN_PATH; provenance hashes $installed_yaml"
