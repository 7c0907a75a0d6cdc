#!/usr/bin/env bash
# Per-job overhead of `--executor slurm` against `--executor local` on this machine: the
# same bench selection (PLENA + Coral, C1, 1 trial) with the same parallelism (2 workers
# locally; one 2-CPU shard on Slurm, then 1-CPU shards of 10 jobs), on a single-node
# Slurm started by scripts/slurm-local-cluster.sh (needs slurm-wlm and munge).
# Usage: bench/slurm_overhead.sh [BUILD_DIR] [REPEATS]; prints each run's seconds, the
# medians and (slurm - local) / jobs.
set -euo pipefail
build=${1:-build}
repeats=${2:-3}
here="$(cd "$(dirname "$0")/.." && pwd)"
tl="$(cd "$build" && pwd)/harness/tlmcraft"
tmp=$(mktemp -d)
cluster="$tmp/cluster"
trap 'TLMCRAFT_SLURM_PORT=6937 "$here/scripts/slurm-local-cluster.sh" stop "$cluster" >/dev/null; rm -rf "$tmp"' EXIT
eval "$(TLMCRAFT_SLURM_PORT=6937 "$here/scripts/slurm-local-cluster.sh" start "$cluster")"
selection=(bench --platform plena,coral --config C1 --trials 1 --quiet --fresh)

seconds() {  # runs "$@", prints its wall seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$tmp/err" || [ $? -eq 1 ] || { cat "$tmp/err" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

jobs=0
declare -A med
for mode in local slurm-1shard slurm-10per; do
  times=()
  for i in $(seq "$repeats"); do
    out="$tmp/$mode-$i.jsonl"
    case $mode in
      local) t=$(seconds "$tl" "${selection[@]}" --jobs 2 --out "$out") ;;
      slurm-1shard) t=$(seconds "$tl" "${selection[@]}" --out "$out" --executor slurm --poll 1 \
                          --shard-size 1000 --cpus-per-task 2) ;;
      slurm-10per) t=$(seconds "$tl" "${selection[@]}" --out "$out" --executor slurm --poll 1 \
                         --shard-size 10 --cpus-per-task 1 --array-throttle 2) ;;
    esac
    jobs=$(wc -l < "$out")
    times+=("$t")
    echo "$mode run $i: $t s, $jobs jobs"
  done
  med[$mode]=$(median "${times[@]}")
done
for mode in slurm-1shard slurm-10per; do
  echo "$mode: median ${med[$mode]} s vs local ${med[local]} s: overhead $(echo "scale=3; (${med[$mode]} - ${med[local]}) / $jobs" | bc) s per job over $jobs jobs"
done
