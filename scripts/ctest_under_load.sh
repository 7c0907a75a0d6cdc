#!/usr/bin/env bash
# The whole ctest suite RUNS times in a row while the machine is loaded with BUSY busy
# loops per core (niced, so only the tests feel them as competition, not as priority).
# Stops at the first failing run and prints each failing test's log. docs/reliability.md,
# "Tests under load".
#
#   scripts/ctest_under_load.sh [BUILD_DIR] [RUNS]
#
# Environment: BUSY_PER_CORE (default 2), BUSY_NICE (default 19), JOBS (ctest -j, default
# nproc), CTEST_ARGS (extra ctest arguments, e.g. "-LE install"), LOG_DIR (default
# BUILD_DIR/under-load). Exit status: 0 when every run passed, 1 at the first failing run,
# 2 for usage errors.
set -uo pipefail

build="${1:-build}"
runs="${2:-5}"
per_core="${BUSY_PER_CORE:-2}"
busy_nice="${BUSY_NICE:-19}"
jobs="${JOBS:-$(nproc)}"
log_dir="${LOG_DIR:-$build/under-load}"

usage() { echo "ctest_under_load: $*" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage "RUNS must be a positive number, got '$runs'"
[[ "$per_core" =~ ^[0-9]+$ ]] || usage "BUSY_PER_CORE must be a number, got '$per_core'"
[ -f "$build/CTestTestfile.cmake" ] ||
  usage "'$build' has no tests: configure it with -DTLMCRAFT_BUILD_TESTS=ON and build it first"
mkdir -p "$log_dir" || usage "cannot create $log_dir"

busy_pids=()
stop_load() {
  local pid
  for pid in "${busy_pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${busy_pids[@]}"; do wait "$pid" 2>/dev/null; done
  busy_pids=()
}
trap stop_load EXIT
trap 'exit 130' INT TERM

busy=$((per_core * $(nproc)))
for ((i = 0; i < busy; ++i)); do
  nice -n "$busy_nice" bash -c 'while :; do :; done' &
  busy_pids+=($!)
done
echo "ctest_under_load: $busy busy loops (nice $busy_nice) on $(nproc) cores; $runs runs of ctest -j$jobs in $build"

# The log of one test from ctest's LastTest.log: from its "Testing: NAME" line to its end.
failed_test_logs() {
  local last="$build/Testing/Temporary/LastTest.log" failed="$build/Testing/Temporary/LastTestsFailed.log" name
  [ -f "$failed" ] || return 0
  while IFS= read -r line; do
    name="${line#*:}"
    echo "======== $name"
    awk -v name="$name" 'index($0, "Testing: " name) { on = 1 } on { print } on && / end time: / { exit }' "$last"
  done < "$failed"
}

for ((run = 1; run <= runs; ++run)); do
  log="$log_dir/run-$run.log"
  start=$(date +%s)
  # shellcheck disable=SC2086
  (cd "$build" && ctest --output-on-failure -j "$jobs" ${CTEST_ARGS:-}) > "$log" 2>&1
  rc=$?
  seconds=$(($(date +%s) - start))
  summary=$(grep -E "tests passed|tests failed" "$log" | tail -1)
  printf 'run %d/%d: exit %d, %d s, %s (log %s)\n' "$run" "$runs" "$rc" "$seconds" "${summary:-no summary}" "$log"
  if [ "$rc" -ne 0 ]; then
    echo "ctest_under_load: run $run failed; the failing tests:"
    sed -n '/The following tests FAILED/,$p' "$log"
    failed_test_logs
    exit 1
  fi
done
echo "ctest_under_load: all $runs runs passed"
