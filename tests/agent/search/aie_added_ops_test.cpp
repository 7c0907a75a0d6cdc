// The search agent's use of composed ops added to the AIE-ML ISA by data
// (platforms/aie_ml/pack/agent/aie_use_added_ops.h): matched on dataflow with renamed
// registers and interleaved independent ops, refused when the replacement would compute
// something else, and applied to the suite's unmodified baselines.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "harness/evaluate.h"
#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/program_text.h"
#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/aie_config.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"
#include "platforms/aie_ml/pack/agent/aie_use_added_ops.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/agent/search/search_driver.h"
#include "tests/isa/aie_ml/split_product_overlay.h"
#include "tests/isa_overlay_dir.h"

namespace tlmcraft::agent::search::aie {
namespace {

using isa::aie_ml::AieKernel;
using isa::aie_ml::parse_aie_kernel;
using isa::aie_ml::print_aie_kernel;
using ::tlmcraft::test::kAieMulSplitOverlay;

// The other split product of the baselines: a value split into bf16 hi + lo (ah, al)
// times a bf16 vector c (Newton steps, scaling, the norms' mean and variance).
const char* kMulSplitValue = R"(
  - mnemonic: VMULC.E.BF16
    slot: vec
    latency: vmac
    operands:
      - {name: d, class: bm, role: write, format: fp32}
      - {name: ah, class: w, format: bf16}
      - {name: al, class: w, format: bf16}
      - {name: c, class: w, format: bf16}
    compose:
      temps: [{name: t, class: bm}]
      steps:
        - "VMUL.E.BF16 t, ah, c"
        - "VMAC.E.BF16 d, t, al, c"
)";

// The shipped ISA with `ops` added (the split product unless told otherwise).
struct IsaDir : ::tlmcraft::test::IsaOverlayDir {
  explicit IsaDir(const std::string& ops = kAieMulSplitOverlay) : IsaOverlayDir("aie_ml", ops, "aie-added-ops") {}
};

std::string rewrite(const std::string& text, int expected) {
  AieKernel k;
  std::string error;
  EXPECT_TRUE(parse_aie_kernel(text, k, error)) << error;
  EXPECT_EQ(use_composed_ops(k), expected);
  return print_aie_kernel(k);
}

// As the search applies it to a kernel with waits (the exposed pipeline, the default:
// aie_candidates.cpp): the waits dropped, the ops placed, the waits put back.
std::string rewrite_with_waits(const std::string& text, int expected) {
  AieKernel k;
  std::string error;
  EXPECT_TRUE(parse_aie_kernel(text, k, error)) << error;
  isa::aie_ml::remove_waits(k);
  EXPECT_EQ(use_composed_ops(k), expected);
  isa::aie_ml::insert_waits(k, ::tlmcraft::aie_ml::read_stages_in(nlohmann::json::object()));
  return print_aie_kernel(k);
}

TEST(AieUseAddedOps, MatchesDataflowWithOtherRegistersAndAnOpBetween) {
  IsaDir isa;
  // t = bm3, d = bm5 (a fresh accumulator), a = w4, hi = w8, lo = w9; a load between the
  // steps touches none of them; bm3 is written again before it is read: dead.
  EXPECT_EQ(rewrite("  VMUL.E.BF16 bm3, w4, w8\n"
                    "  VLDA w0, [p0], #32\n"
                    "  VMAC.E.BF16 bm5, bm3, w4, w9\n"
                    "  VCLR bm3\n"
                    "  DONE\n",
                    1),
            "  VLDA w0, [p0], #32\n"
            "  VMULS.E.BF16 bm5, w4, w8, w9\n"
            "  VCLR bm3\n"
            "  DONE\n");
}

TEST(AieUseAddedOps, RefusesWhatWouldComputeSomethingElse) {
  IsaDir isa;
  // An op between the steps overwrites the input a (w4): the VMAC reads the new w4.
  rewrite("  VMUL.E.BF16 bm3, w4, w8\n  VLDA w4, [p0], #32\n  VMAC.E.BF16 bm5, bm3, w4, w9\n  DONE\n", 0);
  // The second step multiplies another vector (w6) than the first (w4): not the dataflow.
  rewrite("  VMUL.E.BF16 bm3, w4, w8\n  VMAC.E.BF16 bm5, bm3, w6, w9\n  DONE\n", 0);
  // The temp bm3 is read after the last step: it is not dead.
  rewrite("  VMUL.E.BF16 bm3, w4, w8\n  VMAC.E.BF16 bm5, bm3, w4, w9\n  VADD.F bm6, bm3, bm3\n  DONE\n", 0);
  // A label between the steps: two blocks.
  rewrite("  VMUL.E.BF16 bm3, w4, w8\nx:\n  VMAC.E.BF16 bm5, bm3, w4, w9\n  DONE\n", 0);
}

nlohmann::json evaluate_kernel(const std::string& task, const std::string& kernel, uint64_t seed) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto platform = make_platform("aie_ml");
  EvalOptions o;
  o.platform = "aie_ml";
  o.task = task;
  o.config = "C1";
  o.kernel_source = kernel;
  o.trials = 3;
  o.seed = seed;
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

std::string baseline(const std::string& task) {
  return tasks::baseline_kernel(tasks::Registry::builtin().instance(task, "aie_ml", "C1"), nlohmann::json::object());
}
uint64_t cycles(const nlohmann::json& r) { return r["trials"][0]["cycles"].get<uint64_t>(); }

TEST(AieUseAddedOps, TheSiluBaselineRewrittenSaves512Cycles) {
  const std::string k0 = baseline("silu");
  const nlohmann::json before = evaluate_kernel("silu", k0, 20261128);
  IsaDir isa;
  // VMULS.E.BF16 alone (t = a hi; d = t + a lo) takes all 8 split products of the loop
  // body: the 2 pairs tests/baselines/aie_ml_isa_extension_test.cpp replaces by hand
  // (a = w0) and the 6 Newton pairs `VMUL.E.BF16 t, y, x ; VMAC.E.BF16 t, t, z, x`, which
  // are VMULS with a = x once the commutative factors of each step are swapped
  // (commutative: [1, 2] and [2, 3] in aie_ml.yaml).
  const nlohmann::json after = evaluate_kernel("silu", rewrite_with_waits(k0, 8), 20261128);
  ASSERT_EQ(after["status"], "pass") << after.dump().substr(0, 2000);
  // Each pair's reader issued 10 cycles after the VMUL (4 for the VMAC, which reads t as
  // its accumulator 2 cycles after issue: three NOPs; 6 more for its result: the VMAC's
  // bundle, five NOPs) and now 6 after the VMULS (derived there; its wait is re-inserted;
  // its second operand is a vector, read at issue): 8 pairs x 16 iterations x 4.
  EXPECT_EQ(cycles(before) - cycles(after), 512u);
}

TEST(AieUseAddedOps, CommutativeFactorsMatchInEitherOrder) {
  IsaDir isa;
  // Steps written `VMUL.E.BF16 t, a, hi ; VMAC.E.BF16 d, t, a, lo`; the kernel writes both
  // products with the factors swapped (hi * a, lo * a): the same dataflow.
  EXPECT_EQ(rewrite("  VMUL.E.BF16 bm3, w8, w4\n"
                    "  VMAC.E.BF16 bm5, bm3, w9, w4\n"
                    "  DONE\n",
                    1),
            "  VMULS.E.BF16 bm5, w4, w8, w9\n"
            "  DONE\n");
  // VSUB.F is not commutative (no `commutative:` in the YAML): d = t - a is not a - t.
  const std::string sub = R"(
  - mnemonic: VMULSUB.E.BF16
    slot: vec
    latency: vmac
    operands:
      - {name: d, class: bm, role: write}
      - {name: a, class: w}
      - {name: b, class: w}
      - {name: c, class: bm}
    compose:
      temps: [{name: t, class: bm}]
      steps:
        - "VMUL.E.BF16 t, a, b"
        - "VSUB.F d, t, c"
)";
  IsaDir isa2(sub);
  rewrite("  VMUL.E.BF16 bm3, w8, w4\n  VSUB.F bm5, bm7, bm3\n  DONE\n", 0);
  EXPECT_EQ(rewrite("  VMUL.E.BF16 bm3, w8, w4\n  VSUB.F bm5, bm3, bm7\n  DONE\n", 1),
            "  VMULSUB.E.BF16 bm5, w8, w4, bm7\n  DONE\n");
}

// A `semantics:` op that says which composition it replaces: the search agent places it
// where that composition matches, and it runs by its expression (products exact in f32,
// one f32 rounding of the sum: the steps' own arithmetic).
const char* kSplitBySemantics = R"(
  - mnemonic: VMULSX.E.BF16
    slot: vec
    latency: vmac
    operands:
      - {name: d, class: bm, role: write, format: fp32}
      - {name: a, class: w, format: bf16}
      - {name: hi, class: w, format: bf16}
      - {name: lo, class: w, format: bf16}
    semantics: |
      d = f32(a) * f32(hi) + f32(a) * f32(lo)
    replaces:
      temps: [{name: t, class: bm}]
      steps:
        - "VMUL.E.BF16 t, a, hi"
        - "VMAC.E.BF16 d, t, a, lo"
)";

TEST(AieUseAddedOps, ASemanticsOpIsPlacedWhereItsReplacesMatches) {
  const std::string k0 = baseline("silu");
  const nlohmann::json before = evaluate_kernel("silu", k0, 4242);
  IsaDir isa(kSplitBySemantics);
  // The same 8 pairs VMULS.E.BF16 takes (TheSiluBaselineRewrittenSaves512Cycles), with the
  // same slot and latency (vmac, 6): 8 x 16 x 4 cycles fewer, computed by the expression.
  const std::string k = rewrite_with_waits(k0, 8);
  EXPECT_NE(k.find("VMULSX.E.BF16 bm1, w0, w17, w18"), std::string::npos) << k;
  const nlohmann::json after = evaluate_kernel("silu", k, 4242);
  ASSERT_EQ(after["status"], "pass") << after.dump().substr(0, 2000);
  EXPECT_EQ(cycles(before) - cycles(after), 512u);
}

TEST(AieUseAddedOps, ReplacesGoesOnlyBesideSemantics) {
  const std::string overlay = ::testing::TempDir() + "/aie_replaces_without_semantics.yaml";
  std::ofstream(overlay)
      << "isa: aie_ml\nops:\n"
         "  - mnemonic: VMULS2.E.BF16\n"
         "    slot: vec\n"
         "    latency: vmac\n"
         "    operands: [{name: d, class: bm, role: write}, {name: a, class: w}, {name: b, class: w}]\n"
         "    compose: {steps: [\"VMUL.E.BF16 d, a, b\"]}\n"
         "    replaces: {steps: [\"VMUL.E.BF16 d, a, b\"]}\n";
  const isa::IsaVariant v{"", {overlay}};
  isa::ScopedIsaVariant variant(v);
  try {
    (void)isa::aie_ml::AieIsa::get();
    FAIL() << "an overlay with replaces: beside compose: loaded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(overlay + ":8:15: VMULS2.E.BF16: `replaces:` is allowed only beside "
                                                   "`semantics:`"),
              std::string::npos)
        << e.what();
  }
}

TEST(AieUseAddedOps, TheSuitesBaselinesUseBothSplitProductsAndStayCorrect) {
  // Baselines generated before the ISA is extended: the unmodified suite kernels. Uses:
  // the pairs `VMUL.E.BF16 t, a, hi ; VMAC.E.BF16 d, t, a, lo` (VMULS) and
  // `VMUL.E.BF16 t, ah, c ; VMAC.E.BF16 d, t, al, c` (VMULC) in each kernel's text, where
  // the temp is dead after. Counted independently in the baselines' text: a VMUL.E.BF16
  // line followed by a VMAC.E.BF16 accumulating in place on its result with the same
  // first factor (VMULS) or the same second factor (VMULC).
  struct Case {
    const char* task;
    int uses;
  };
  const Case cases[] = {{"silu", 8}, {"gelu", 10}, {"rmsnorm", 13}, {"layernorm", 15}};
  std::vector<std::string> kernels;
  std::vector<uint64_t> before;
  for (const Case& c : cases) {
    kernels.push_back(baseline(c.task));
    before.push_back(cycles(evaluate_kernel(c.task, kernels.back(), 7919)));
  }
  IsaDir isa(std::string(kAieMulSplitOverlay) + kMulSplitValue);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string k = rewrite(kernels[i], cases[i].uses);
    const nlohmann::json r = evaluate_kernel(cases[i].task, k, 7919);
    ASSERT_EQ(r["status"], "pass") << cases[i].task << ": " << r.dump().substr(0, 2000);
    EXPECT_LT(cycles(r), before[i]) << cases[i].task;
    std::printf("%s C1: %llu -> %llu cycles\n", cases[i].task, (unsigned long long)before[i],
                (unsigned long long)cycles(r));
  }
}

TEST(AieUseAddedOps, TheSearchAgentUsesAnOverlaysComposedOps) {
  // The ops as an overlay file (what `--isa-ext` reads), in force for the whole search.
  const ::tlmcraft::test::UniqueTempDir dir("aie-split-products");
  const std::string overlay = dir.file("aie_split_products_overlay.yaml");
  std::ofstream(overlay) << "isa: aie_ml\nops:" << kAieMulSplitOverlay << kMulSplitValue;
  const test::SearchRun plain = test::run_search("aie_ml", "silu", "C1", 4);  // the shipped ISA
  const isa::IsaVariant v{"", {overlay}};
  isa::ScopedIsaVariant variant(v);
  const test::SearchRun r = test::run_search("aie_ml", "silu", "C1", 4, v);
  ASSERT_TRUE(r.submitted);
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  // The submitted kernel uses the added ops, found by the "use added ops" candidates
  // (VMULS.E.BF16, first in the ISA, also takes the VMULC-shaped pairs: their factors
  // commute).
  EXPECT_NE(r.submitted_code.find("VMULS.E.BF16"), std::string::npos) << r.submitted_code;
  std::printf("search with the overlay: %.0f cycles, shipped ISA: %.0f\n", r.last_evaluation.value("cycles", 0.0),
              plain.last_evaluation.value("cycles", 0.0));
  // Faster than the same search's best with the shipped ISA.
  EXPECT_LT(r.last_evaluation.value("cycles", 0.0), plain.last_evaluation.value("cycles", 0.0));
}

}  // namespace
}  // namespace tlmcraft::agent::search::aie
