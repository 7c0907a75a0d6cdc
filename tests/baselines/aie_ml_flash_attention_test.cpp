// AIE-ML FlashAttention baseline (platforms/aie_ml/pack/baselines/flash_attention.cpp): every
// configuration passes evaluate() on ordinary inputs and on both adversarial ranges
// (large_logits, wide_logits); the online rescale and the exponent clamp are each needed;
// the row split over 4 tiles computes what one tile does, in fewer cycles.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/pack/baselines/flash_attention.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"
#include "tasks/registry.h"
#include "tests/baselines/aie_ml_eval_util.h"

namespace tlmcraft {
namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  size_t n = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()), ++n)
    text.replace(at, from.size(), to);
  EXPECT_GT(n, 0u) << "'" << from << "' not in the kernel";
  return text;
}

uint64_t cycles(const nlohmann::json& r) { return r["trials"][0]["cycles"].get<uint64_t>(); }

bool verbose() { return std::getenv("AIE_ATTENTION_VERBOSE") != nullptr; }

TEST(AieMlFlashAttention, EveryConfigurationPassesOrdinaryAndAdversarialInputs) {
  // Trial k >= 1 draws ranges[(seed + k) mod 2] of [large_logits, wide_logits]: first
  // seeds 11 and 20 give trials 1, 2 large, wide and wide, large: each range twice.
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"})
    for (uint64_t seed : {11u, 20u}) {
      const nlohmann::json r = test::evaluate_aie_ml("flash_attention", config, 3, "", seed);
      EXPECT_EQ(r["status"], "pass") << config << " seed " << seed << ": " << test::describe_report(r);
      ASSERT_EQ(r["trials"].size(), 3u) << config;
      EXPECT_EQ(r["trials"][1]["range"], std::string(seed % 2 == 0 ? "wide_logits" : "large_logits")) << config;
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(r["trials"][k]["check"]["unwritten"], 0) << config;
        EXPECT_EQ(r["trials"][k]["cycles"], r["trials"][0]["cycles"]) << config;  // no data-dependent timing
      }
      if (verbose() && seed == 11)
        std::printf("flash_attention %s cycles %llu max_abs_err %g %g %g\n", config, (unsigned long long)cycles(r),
                    r["trials"][0]["check"]["max_abs_err"].get<double>(),
                    r["trials"][1]["check"]["max_abs_err"].get<double>(),
                    r["trials"][2]["check"]["max_abs_err"].get<double>());
    }
}

TEST(AieMlFlashAttention, OnTheExposedPipelineEveryConfigurationFitsAndPasses) {
  // Generated for compute.pipeline=exposed, the kernel carries a NOP for every cycle the
  // interlock would stall: unrolled, that overflowed the 16 KB program memory (1,141 to
  // 1,367 bundles a tile); with the exp2, reciprocal and rescale loops it fits (at most
  // 911) and computes what it computes with interlocks, both attention ranges included.
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    const nlohmann::json r = test::evaluate_aie_ml("flash_attention", config, 3, "", 11, {"compute.pipeline=exposed"});
    EXPECT_EQ(r["status"], "pass") << config << ": " << test::describe_report(r);
    EXPECT_EQ(r["memory"]["cores"]["tile(0,0)"]["pipeline"]["mode"], "exposed") << config;
    EXPECT_EQ(r["memory"]["cores"]["tile(0,0)"]["pipeline"]["early_reads"], 0) << config;  // every wait is there
  }
}

TEST(AieMlFlashAttention, KernelSplitsTheRowsOverFourTiles) {
  const std::string k = test::aie_ml_baseline("flash_attention", "C1");
  for (const char* t : {".tile 0 0\n", ".tile 0 1\n", ".tile 0 2\n", ".tile 0 3\n", ".movement\n"})
    EXPECT_NE(k.find(t), std::string::npos) << t;
  EXPECT_EQ(k.find(".tile 0 4\n"), std::string::npos);
}

TEST(AieMlFlashAttention, WithoutTheOnlineRescaleTheCheckFails) {
  // alpha = 2^0 = 1 for every block: O and l keep the terms of earlier blocks weighted by
  // exp(T - m_old), not exp(T - m_new). C3 (s = 32) has two key blocks, and in about half
  // of the rows the second block raises the maximum (by about 1 on ordinary inputs), so
  // those rows mix weights off by a factor of e: far beyond 0.01 + 0.01 |want|.
  const std::string k = replace_all(test::aie_ml_baseline("flash_attention", "C3"),
                                    "VSUB.F bm0, bm0, bm2    ; m_old - m_new <= 0", "VCLR bm0");
  const nlohmann::json r = test::evaluate_aie_ml("flash_attention", "C3", 1, k);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
}

TEST(AieMlFlashAttention, WithoutTheExponentClampWideLogitsFail) {
  // wide_logits: scaled scores with std 48, so T - m reaches -200 and t = (T - m) log2 e
  // -290: k << 23 added to 2^f's exponent field wraps to a large value unless clamped.
  // Seed 1: trial seeds 1, 2, 3 draw ordinary, large_logits, wide_logits.
  const std::string k =
      replace_all(test::aie_ml_baseline("flash_attention", "C2"), "VMAX.S32 x7, x7, x4", "VMAX.S32 x7, x7, x7");
  const nlohmann::json r = test::evaluate_aie_ml("flash_attention", "C2", 3, k, 1);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
  ASSERT_EQ(r["trials"].size(), 3u);
  EXPECT_EQ(r["trials"][0]["status"], "pass");
  EXPECT_EQ(r["trials"][1]["status"], "pass");
  EXPECT_EQ(r["trials"][2]["range"], "wide_logits");
  EXPECT_EQ(r["trials"][2]["status"], "fail");
}

TEST(AieMlFlashAttention, OneTileAndFourTilesBothPassAndFourAreFaster) {
  // Each tile does s/4 rows after the same K^T transposition and K/V transfer, so the
  // split gains less than 4x (C4: s = 64, 16 rows per tile).
  const auto inst = tasks::Registry::builtin().instance("flash_attention", "aie_ml", "C4");
  const nlohmann::json one = test::evaluate_aie_ml(
      "flash_attention", "C4", 2, test::with_default_waits(tasks::aie_ml::flash_attention_kernel(inst, 1)));
  const nlohmann::json four = test::evaluate_aie_ml("flash_attention", "C4", 2);
  const nlohmann::json sdp = test::evaluate_aie_ml("scaled_dot_product", "C4", 1);
  ASSERT_EQ(one["status"], "pass") << test::describe_report(one);
  ASSERT_EQ(four["status"], "pass") << test::describe_report(four);
  ASSERT_EQ(sdp["status"], "pass") << test::describe_report(sdp);
  EXPECT_LT(3 * cycles(four), cycles(one));
  // One tile: the per-block max, rescale and extra exp cost more than the whole-row softmax.
  EXPECT_GT(cycles(one), cycles(sdp));
  if (verbose()) {
    for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
      const auto i = tasks::Registry::builtin().instance("flash_attention", "aie_ml", config);
      const nlohmann::json f1 = test::evaluate_aie_ml(
          "flash_attention", config, 1, test::with_default_waits(tasks::aie_ml::flash_attention_kernel(i, 1)));
      const nlohmann::json f4 = test::evaluate_aie_ml("flash_attention", config, 1);
      const nlohmann::json s1 = test::evaluate_aie_ml("scaled_dot_product", config, 1);
      std::printf("%s scaled_dot_product %llu flash_attention one tile %llu (%s) four tiles %llu (%s)\n", config,
                  (unsigned long long)cycles(s1), (unsigned long long)cycles(f1),
                  f1["status"].get<std::string>().c_str(), (unsigned long long)cycles(f4),
                  f4["status"].get<std::string>().c_str());
    }
  }
}

TEST(AieMlFlashAttention, OutputWrittenPastOFailsAtTheGuard) {
  // The DDR buffer of O moved 64 bytes up: its last 64 bytes land after O, in the guard
  // before the workspace (64 bytes after the outputs), reported like every task's.
  const auto inst = tasks::Registry::builtin().instance("flash_attention", "aie_ml", "C1");
  const tasks::AieMlLayout layout(inst.task(), inst.params());
  const uint64_t o = layout.placement("O").address;
  const std::string from = "name: ddr_o, tile: shim0, address: " + std::to_string(o) + ",";
  const std::string k = replace_all(test::aie_ml_baseline("flash_attention", "C1"), from,
                                    "name: ddr_o, tile: shim0, address: " + std::to_string(o + 64) + ",");
  const nlohmann::json r = test::evaluate_aie_ml("flash_attention", "C1", 1, k);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
  const nlohmann::json& trial = r["trials"].back();
  ASSERT_TRUE(trial.contains("outside_writes") && !trial["outside_writes"].empty()) << r.dump().substr(0, 1500);
  EXPECT_EQ(trial["outside_writes"][0]["memory"], "ddr");
  EXPECT_EQ(trial["outside_writes"][0]["first"].get<uint64_t>(), layout.outputs_end());
  EXPECT_EQ(trial["outside_writes"][0]["where"], "guard after output 'O'");
}

TEST(AieMlFlashAttention, RowTilesThatDoNotDivideSAreRefused) {
  // C1: s = 8; 3 tiles would leave rows over.
  const auto inst = tasks::Registry::builtin().instance("flash_attention", "aie_ml", "C1");
  try {
    tasks::aie_ml::flash_attention_kernel(inst, 3);
    FAIL() << "3 row tiles were accepted for s = 8";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "aie_ml attention baseline (s=8, d=16): row_tiles must be 1..4 and divide s");
  }
}

}  // namespace
}  // namespace tlmcraft
