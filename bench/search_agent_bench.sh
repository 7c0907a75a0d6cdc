#!/usr/bin/env bash
# The built-in search agent over several PLENA workloads in both timing modes, through
# the real CLI (`tlmcraft agent --provider search`), one markdown table row per run:
# task, config, mode, baseline cycles, best cycles, speedup, rounds, evaluations, status.
#
# usage: bench/search_agent_bench.sh [TLMCRAFT_BINARY] [OUT_DIR]
#   TASKS="silu gemm" CONFIGS="C1 C2" MODES="serial pipelined" to narrow the sweep.
set -euo pipefail
bin=${1:-build/harness/tlmcraft}
out=${2:-out/search-bench}
tasks=${TASKS:-"silu relu gelu softmax layernorm rmsnorm gemv gemm batchmatmul linear"}
configs=${CONFIGS:-"C1 C2"}
modes=${MODES:-"serial pipelined"}
export SYSC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out"
echo "| task | config | mode | baseline cycles | best cycles | speedup | rounds | evaluations | status |"
echo "|---|---|---|---:|---:|---:|---:|---:|---|"
for mode in $modes; do
  for task in $tasks; do
    for config in $configs; do
      ws="$out/$mode"
      json="$ws/${task}_${config}.json"
      mkdir -p "$ws"
      "$bin" agent --provider search --task "$task" --config "$config" --set "timing.mode=$mode" \
        --workspace "$ws" --transcript "$ws/${task}_${config}.jsonl" -q --json >"$json" || true
      python3 - "$json" "$task" "$config" "$mode" <<'EOF'
import json, sys
path, task, config, mode = sys.argv[1:5]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"| {task} | {config} | {mode} | - | - | - | - | - | no result ({e}) |")
    sys.exit(0)
a = r.get("agent", {})
base, best = r.get("baseline_cycles"), r.get("cycles")
speed = f"{base / best:.3f}x" if base and best else "-"
print(f"| {task} | {config} | {mode} | {base} | {best} | {speed} | {a.get('rounds')} | {a.get('evaluations')} | {r.get('status')} ({r.get('reason', '')}) |")
EOF
    done
  done
done
