#!/usr/bin/env bash
# Wall time of the whole PLENA baseline suite (every supported task x C1..C5, 3 trials
# each, plus one baseline run per job for the speedup) on this machine, with --jobs 2.
# Usage: bench/plena_suite.sh [BUILD_DIR] [REPEATS]; prints each run's seconds and the median.
set -euo pipefail
build=${1:-build}
repeats=${2:-3}
tl="$build/harness/tlmcraft"
tmp=$(mktemp -d)
times=()
for i in $(seq "$repeats"); do
  start=$(date +%s.%N)
  "$tl" bench --platform plena --jobs 2 --fresh --quiet --out "$tmp/run$i.jsonl" >/dev/null || true
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc)
  times+=("$t")
  echo "run $i: ${t} s, $(grep -c '"status":"pass"' "$tmp/run$i.jsonl") passed of $(wc -l < "$tmp/run$i.jsonl") jobs"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " s"}'
rm -rf "$tmp"
