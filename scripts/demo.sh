#!/usr/bin/env bash
# The main job: PLENA kernels through the platform and the benchmark harness, with
# traces (GTKWave VCD, Perfetto JSON), the baseline suite and its HTML report in out/.
set -euo pipefail
build=${1:-build}
tl="$build/harness/tlmcraft"
mkdir -p out
echo "== SiLU (n = 256) on PLENA, evaluated against the task reference, serial timing"
"$tl" run --platform plena --task silu --config C1 platforms/plena/kernels/silu_c1.asm \
  --vcd out/silu_c1.vcd --perfetto out/silu_c1.perfetto.json
echo
echo "== the same kernel with the pipelined timing model"
"$tl" run --platform plena --set timing.mode=pipelined --task silu --config C1 platforms/plena/kernels/silu_c1.asm | head -3
echo
echo "== GEMM (64,256,512) template baseline: serial vs pipelined"
"$tl" run --platform plena --task gemm --config C5 --baseline --trials 1 --set timing.mode=serial | head -2
"$tl" run --platform plena --task gemm --config C5 --baseline --trials 1 --set timing.mode=pipelined \
  --perfetto out/gemm_c5_pipelined.perfetto.json | head -2
echo
echo "== the PLENA baseline suite (resumable; results in out/bench-plena.jsonl)"
"$tl" bench --platform plena --out out/bench-plena.jsonl || true
"$tl" report out/bench-plena.jsonl -o out/report.html
echo
echo "outputs: out/silu_c1.vcd (GTKWave), out/*.perfetto.json (ui.perfetto.dev), out/report.html"
