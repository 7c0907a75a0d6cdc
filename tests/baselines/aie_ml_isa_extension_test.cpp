// Ops added to the AIE-ML ISA by data alone (an edited copy of the ISA folder, no
// rebuild) used by suite kernels: each kernel is a copy of a baseline edited to use the
// op, passes evaluate() on fresh seeds, and changes the cycle count by exactly what the
// timing model's rules give (derivations below). docs/isa-extensions.md, "AIE-ML".
// Run in the interlocked mode, where a new op's latency shows as the stalls of its readers
// (on the exposed pipeline, the default, the edited kernel would need its waits re-inserted:
// `tlmcraft asm --waits`), with the accumulator read at issue (compute.acc_read_cycles=0)
// as the derivations below assume.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "isa/isa_spec.h"
#include "tests/baselines/aie_ml_eval_util.h"
#include "tests/isa/aie_ml/split_product_overlay.h"
#include "tests/isa_overlay_dir.h"

namespace tlmcraft {
namespace {

// An ISA folder: the shipped aie_ml.yaml with `ops` appended to its op list; in force
// (TLMCRAFT_ISA_DIR) while the object lives.
// Replaces every occurrence of `from` (which must occur `times` times) by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to, int times) {
  int n = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()), ++n)
    text.replace(at, from.size(), to);
  EXPECT_EQ(n, times) << "'" << from << "'";
  return text;
}

uint64_t cycles(const nlohmann::json& r) { return r["trials"][0]["cycles"].get<uint64_t>(); }

const std::vector<std::string> kInterlockedAccAtIssue{"compute.pipeline=interlocked", "compute.acc_read_cycles=0"};

// Fresh input seeds (the baseline tests use seed 1), three trials each.
constexpr uint64_t kSeeds[] = {20261128, 7919};

TEST(AieMlIsaExtension, ComposedSplitProductInTheSiluBaselineSaves192Cycles) {
  const std::string baseline = test::aie_ml_baseline("silu", "C1", test::kAieInterlockedConfig);
  // The loop body (16 iterations, lc = 16, one block) has two such pairs; each becomes one op.
  ASSERT_NE(baseline.find("MOVXM lc, 16"), std::string::npos);
  ASSERT_NE(baseline.find("MOVXM r3, 1    ; blocks left"), std::string::npos);
  std::string k =
      replace_all(baseline, "VMUL.E.BF16 bm1, w0, w17    ; t = -x log2(e)\n  VMAC.E.BF16 bm1, bm1, w0, w18\n",
                  "VMULS.E.BF16 bm1, w0, w17, w18\n", 1);
  k = replace_all(k, "VMUL.E.BF16 bm10, w0, w6    ; x / (1 + 2^t)\n  VMAC.E.BF16 bm10, bm10, w0, w7\n",
                  "VMULS.E.BF16 bm10, w0, w6, w7\n", 1);
  test::IsaOverlayDir isa("aie_ml", test::kAieMulSplitOverlay, "aie-ml-ext-muls");
  for (uint64_t seed : kSeeds) {
    const nlohmann::json before = test::evaluate_aie_ml("silu", "C1", 3, baseline, seed, kInterlockedAccAtIssue);
    const nlohmann::json after = test::evaluate_aie_ml("silu", "C1", 3, k, seed, kInterlockedAccAtIssue);
    ASSERT_EQ(before["status"], "pass") << test::describe_report(before);
    ASSERT_EQ(after["status"], "pass") << test::describe_report(after);
    // The op computes exactly what the two steps compute: the outputs are bit-identical.
    EXPECT_EQ(after["trials"][0]["check"]["max_abs_err"], before["trials"][0]["check"]["max_abs_err"]);
    // Derivation: the body is one dependence chain, one op per bundle, interlocked. Each
    // pair issued the VMUL at T, the VMAC at T + 6 (waiting for the VMUL's result, vmac
    // latency 6) and its reader at T + 12; VMULS issues at T and its reader at T + 6:
    // 6 cycles less per pair (the VMAC's bundle is part of those 6). 2 pairs x 16
    // iterations x 6 = 192 cycles; nothing outside the core's chain changes (the output
    // DMA starts when the core releases the block, 192 cycles earlier).
    EXPECT_EQ(cycles(before) - cycles(after), 192u) << cycles(before) << " -> " << cycles(after);
    // Energy actions (a composed op performs its steps' actions minus its temps' traffic):
    // the same multiply-accumulates (2 x 16 bf16 MACs per pair and per VMULS); per VMULS the
    // temp (a 64-byte bm) is neither written by the VMUL nor read by the VMAC: 2 x 16 issues
    // x 64 bytes = 2048 accumulator bytes fewer each way; and 32 bundles fewer fetched
    // (16 bytes each: 512 bytes of program memory).
    const auto& a0 = before["actions"];
    const auto& a1 = after["actions"];
    EXPECT_EQ(after["macs_by_format"]["bf16"], before["macs_by_format"]["bf16"]);
    EXPECT_EQ(a1["vector.mac.bf16"], a0["vector.mac.bf16"]);
    EXPECT_EQ(a0["acc.write_bytes"].get<uint64_t>() - a1["acc.write_bytes"].get<uint64_t>(), 2048u);
    EXPECT_EQ(a0["acc.read_bytes"].get<uint64_t>() - a1["acc.read_bytes"].get<uint64_t>(), 2048u);
    EXPECT_EQ(a1["vreg.read_bytes"], a0["vreg.read_bytes"]);
    EXPECT_EQ(a0["program_memory.read_bytes"].get<uint64_t>() - a1["program_memory.read_bytes"].get<uint64_t>(), 512u);
  }
}

// SiLU as new semantics: the expression language's silu over 16 bf16 lanes (fp32 inside,
// one rounding to bf16), latency 8 cycles (an assumption: an exp + reciprocal + multiply
// pipeline, two cycles longer than the vmac stage), vector slot.
const char* kSilu = R"(
  - mnemonic: VSILU.BF16
    slot: vec
    latency: 8
    doc: "SiLU of 16 bf16 lanes: d = a sigmoid(a), in fp32, rounded once to bf16."
    operands:
      - {name: d, class: w, role: write, format: bf16}
      - {name: a, class: w, format: bf16}
    semantics: |
      d = silu(a)
)";

TEST(AieMlIsaExtension, NewSemanticsSiluInACopyOfTheReluBaseline) {
  // The ReLU baseline's loop is VLDA -> VMAX.BF16 -> VST; with the VMAX replaced by VSILU
  // it is a SiLU kernel (same sizes: n = 256 at C1, 16 vectors, one block).
  const std::string relu = test::aie_ml_baseline("relu", "C1", test::kAieInterlockedConfig);
  const std::string k = replace_all(relu, "VMAX.BF16 x1, x0, x2", "VSILU.BF16 w2, w0", 1);
  const nlohmann::json relu_run = test::evaluate_aie_ml("relu", "C1", 1, relu, kSeeds[0], kInterlockedAccAtIssue);
  ASSERT_EQ(relu_run["status"], "pass") << test::describe_report(relu_run);
  const nlohmann::json silu_baseline = test::evaluate_aie_ml("silu", "C1", 1, "", kSeeds[0], kInterlockedAccAtIssue);
  test::IsaOverlayDir isa("aie_ml", kSilu, "aie-ml-ext-silu");
  for (uint64_t seed : kSeeds) {
    const nlohmann::json r = test::evaluate_aie_ml("silu", "C1", 3, k, seed, kInterlockedAccAtIssue);
    ASSERT_EQ(r["status"], "pass") << test::describe_report(r);
    // Derivation: per iteration the load's result is awaited 7 cycles (load), then the
    // vector op's: VMAX 2 (valu), VSILU 8; the store follows. The kernels differ only in
    // that op, so 16 iterations x (8 - 2) = 96 cycles more than the ReLU kernel.
    EXPECT_EQ(cycles(r), cycles(relu_run) + 96) << cycles(relu_run);
    // Energy actions: silu per lane is exp, add, reciprocal and multiply (isa/actions.h's
    // decomposition) on 16 bf16 lanes per issue, 16 issues: 256 of each.
    for (const char* a : {"vector.exp.bf16", "vector.add.bf16", "vector.recip.bf16", "vector.mul.bf16"})
      EXPECT_EQ(r["actions"].value(a, uint64_t{0}), 256u) << a << " " << r["actions"].dump();
  }
  // Against the SiLU baseline (exp2 polynomial and Newton reciprocal in the vector slot,
  // about 70 dependent ops per vector): measured, not derived (862 vs 5662 cycles at C1,
  // the rest being data movement): over 6x fewer cycles.
  EXPECT_LT(cycles(test::evaluate_aie_ml("silu", "C1", 1, k, kSeeds[0], kInterlockedAccAtIssue)) * 6,
            cycles(silu_baseline));
}

}  // namespace
}  // namespace tlmcraft
