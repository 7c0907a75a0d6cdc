#!/usr/bin/env bash
# The main job: run PLENA kernels through the platform and the benchmark harness, with
# traces (GTKWave VCD and Perfetto JSON) written to out/.
set -euo pipefail
build=${1:-build}
tl="$build/harness/tlmcraft"
mkdir -p out
echo "== SiLU (n = 256) on PLENA, evaluated against the task reference (3 trials), serial timing"
"$tl" run --platform plena --task silu --config C1 platforms/plena/kernels/silu_c1.asm \
  --vcd out/silu_c1.vcd --perfetto out/silu_c1.perfetto.json
echo
echo "== the same kernel with the pipelined timing model"
"$tl" run --platform plena --set timing.mode=pipelined --task silu --config C1 platforms/plena/kernels/silu_c1.asm
echo
echo "traces: out/silu_c1.vcd (GTKWave), out/silu_c1.perfetto.json (ui.perfetto.dev)"
