#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/) with clang-16 in their own build directory,
# replays the committed regression and seed inputs (ctest -L fuzz), then runs each fuzzer
# for FUZZ_SECONDS seconds, one at a time or all at once (docs/reliability.md).
#
# usage: scripts/fuzz.sh [FUZZER...]      (default: every harness)
# env:   FUZZ_SECONDS  time per fuzzer (default 10; 0 = only build and replay)
#        FUZZ_BUILD    build directory (default build-fuzz)
#        JOBS          parallel compile jobs (default nproc)
#        FUZZ_SEED     libFuzzer's -seed (default: random); `make test` (CI) fixes it, so a CI
#                      finding reproduces with the same command
#        FUZZ_PARALLEL 1: run the fuzzers at the same time (a campaign on a shared machine,
#                      best with `nice`); default 0, one after another
#        FUZZ_JOBS     with FUZZ_PARALLEL=0, how many fuzzers run at a time (default 1); `make
#                      test` gives one per core, so each fuzzer still has a core for its seconds
# Exit status 1 when a replay fails or a fuzzer finds a crash, leak, UB, timeout or
# out-of-memory; the input is then in $FUZZ_BUILD/artifacts/<fuzzer>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-10}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-$(nproc)}
all=(fuzz_plena_asm fuzz_aie_kernel fuzz_riscv_step fuzz_platform_config fuzz_isa_yaml fuzz_mcp fuzz_semantics fuzz_c_sandbox)
if [ $# -gt 0 ]; then fuzzers=("$@"); else fuzzers=("${all[@]}"); fi

for f in "${fuzzers[@]}"; do
  [[ " ${all[*]} " == *" $f "* ]] || { echo "fuzz.sh: unknown fuzzer '$f' (fuzzers: ${all[*]})" >&2; exit 2; }
done

CC=clang-16 CXX=clang++-16 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTLMCRAFT_FUZZ=ON \
  -DTLMCRAFT_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target "${fuzzers[@]}"

regex=$(IFS='|'; echo "${fuzzers[*]}")
(cd "$build" && ctest -L fuzz -R "fuzz_regressions_($regex)\$" --output-on-failure)

[ "$seconds" -gt 0 ] || exit 0
# Runs one fuzzer; its log's final stats say how many inputs it tried.
run_fuzzer() {
  local f=$1 corpus="$build/corpus/$1" artifacts="$build/artifacts/$1" log="$build/logs/$1.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  local dict=()
  [ -f "fuzz/dict/$f.dict" ] && dict=(-dict="fuzz/dict/$f.dict")
  local seed=()
  [ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")
  # New inputs go to the first (build-tree) directory; the committed ones stay untouched.
  if "$build/fuzz/$f" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       "${seed[@]}" "${dict[@]}" -artifact_prefix="$artifacts/" "$corpus" "fuzz/corpus/$f" $(ls -d "fuzz/regressions/$f" 2>/dev/null) >"$log" 2>&1; then
    local execs
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "$f: ${execs:-?} inputs in ${seconds} s, no finding"
  else
    echo "$f: FINDING (log $log, input in $artifacts/):"
    grep -E "ERROR:|SUMMARY:|runtime error|property violated" "$log" | head -5
    return 1
  fi
}

status=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  pids=()
  for f in "${fuzzers[@]}"; do run_fuzzer "$f" & pids+=($!); done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
else
  # At most FUZZ_JOBS at a time; each records its exit status in a file, since `wait -n`
  # may reap a fuzzer whose status a later `wait PID` could then no longer read.
  statuses="$build/logs/status"
  rm -rf "$statuses" && mkdir -p "$statuses"
  for f in "${fuzzers[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "${FUZZ_JOBS:-1}" ]; do wait -n || true; done
    (rc=0; run_fuzzer "$f" || rc=$?; echo $rc >"$statuses/$f") &
  done
  wait
  for f in "${fuzzers[@]}"; do [ "$(cat "$statuses/$f")" = 0 ] || status=1; done
fi
exit $status
