#!/usr/bin/env bash
# The main job: the built-in search agent (no LLM needed) optimises baseline kernels on
# every platform with tasks, through the same tools an LLM agent uses. Writes transcripts,
# kernel versions, one trace per best kernel, the baseline suites and HTML reports to out/.
set -euo pipefail
build=${1:-build}
tl="$build/harness/tlmcraft"
out=out
platforms=plena,coral,aie_ml
tasks=silu,relu,softmax,layernorm,gemv,gemm
configs=C1,C2
# Each run starts afresh: results of an earlier build must not be resumed into this one's
# reports (bench and agent-bench resume from what their output files already hold).
rm -rf "$out/agent" "$out/traces" "$out/bench.jsonl"
mkdir -p "$out/traces"

echo "== one kernel by hand: SiLU (n = 256) on PLENA, checked against the task reference"
"$tl" run --platform plena --task silu --config C1 platforms/plena/kernels/silu_c1.asm \
  --vcd "$out/traces/silu_c1_handwritten.vcd" --perfetto "$out/traces/silu_c1_handwritten.perfetto.json"

echo
echo "== the search agent on $platforms x {$tasks} x {$configs} (transcripts: $out/agent/transcripts)"
"$tl" agent-bench --platform "$platforms" --tasks "$tasks" --configs "$configs" --provider search \
  --out "$out/agent" || true

echo
echo "== one trace per best kernel ($out/traces)"
for platform in ${platforms//,/ }; do
  for task in ${tasks//,/ }; do
    for config in ${configs//,/ }; do
      name=${task}_${platform}_${config}
      best=$(ls "$out/agent/workspaces/s1/$name/"best.* 2>/dev/null | grep -v '\.json$' | head -1 || true)
      [ -n "$best" ] || continue
      "$tl" run --platform "$platform" --task "$task" --config "$config" "$best" --trials 1 \
        --perfetto "$out/traces/$name.perfetto.json" --vcd "$out/traces/$name.vcd" > "$out/traces/$name.txt" || true
      head -1 "$out/traces/$name.txt"
    done
  done
done

echo
echo "== the baseline suites (resumable; $out/bench.jsonl)"
"$tl" bench --platform "$platforms" --out "$out/bench.jsonl" || true

"$tl" report "$out/agent/results.jsonl" -o "$out/agent-report.html"
"$tl" report "$out/bench.jsonl" -o "$out/baseline-report.html"
echo
echo "outputs: $out/agent-report.html, $out/baseline-report.html, $out/agent/ (transcripts, kernel"
echo "versions), $out/traces/ (*.vcd for GTKWave, *.perfetto.json for ui.perfetto.dev)"
