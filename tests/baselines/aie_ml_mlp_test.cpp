// AIE-ML "mlp" group baselines (platforms/aie_ml/pack/baselines/mlp_tasks.cpp, mlp_stages.*):
// SwiGLU, FFN and RoPE pass C1..C5 (3 trials) through evaluate(); broken variants (RoPE
// sign or rotation, FFN/SwiGLU without their stage barriers) fail; bad plans are refused.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "platforms/aie_ml/pack/baselines/mlp_stages.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/baselines/aie_ml_eval_util.h"

namespace tlmcraft {
namespace {

class AieMlMlpBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(AieMlMlpBaseline, EveryConfigurationPasses) {
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    const nlohmann::json r = test::evaluate_aie_ml(GetParam(), config, 3);
    EXPECT_EQ(r["status"], "pass") << GetParam() << " " << config << ": " << test::describe_report(r) << (std::getenv("AIE_MLP_VERBOSE") && r["trials"].size() ? r["trials"].back()["check"]["first_mismatches"].dump() : std::string());
    ASSERT_EQ(r["trials"].size(), 3u) << GetParam() << " " << config;
    // Same kernel and movement, different inputs: the same cycle count.
    EXPECT_EQ(r["trials"][0]["cycles"], r["trials"][2]["cycles"]);
    if (std::getenv("AIE_MLP_VERBOSE"))
      std::printf("%s %s cycles %llu max_abs_err %g max_rel_err %g\n", GetParam().c_str(), config,
                  (unsigned long long)r["trials"][0]["cycles"].get<uint64_t>(),
                  r["trials"][0]["check"]["max_abs_err"].get<double>(),
                  r["trials"][0]["check"]["max_rel_err"].get<double>());
  }
}

INSTANTIATE_TEST_SUITE_P(Tasks, AieMlMlpBaseline, ::testing::Values("swiglu", "ffn", "rope"));

// Replaces the first `from` in the baseline kernel of (task, config) by `to`.
std::string patched_kernel(const std::string& task, const std::string& config, const std::string& from,
                           const std::string& to) {
  std::string k = test::aie_ml_baseline(task, config);
  const size_t at = k.find(from);
  if (at == std::string::npos) return "";
  return k.replace(at, from.size(), to);
}

TEST(AieMlMlpBaselines, RopeWithTheRotationSignFlippedFails) {
  // C2 (h = 32): y1 = x1 cos1 + x2 sin1 instead of "-": wrong wherever x2 sin1 is not
  // tiny, which the random x and the nonzero sin of positions p >= 1 guarantee.
  const std::string k = patched_kernel("rope", "C2", "VSUB.F bm0, bm0, bm1", "VADD.F bm0, bm0, bm1");
  ASSERT_FALSE(k.empty());
  const nlohmann::json r = test::evaluate_aie_ml("rope", "C2", 1, k);
  EXPECT_EQ(r["status"], "fail");
  EXPECT_NE(r.value("reason", std::string()).find("match"), std::string::npos) << test::describe_report(r);
}

TEST(AieMlMlpBaselines, RopeC1WithoutTheHalfSwapFails) {
  // C1 (h = 16) rotates each 16-lane row by 8 lanes (VSHIFT by 16 bytes); a shift of 0
  // multiplies x by sin instead of rotate_half(x): wrong.
  const std::string k = patched_kernel("rope", "C1", "VSHIFT x2, x0, x0, 16", "VSHIFT x2, x0, x0, 0");
  ASSERT_FALSE(k.empty());
  const nlohmann::json r = test::evaluate_aie_ml("rope", "C1", 1, k);
  EXPECT_EQ(r["status"], "fail");
  EXPECT_NE(r.value("reason", std::string()).find("match"), std::string::npos) << test::describe_report(r);
}

TEST(AieMlMlpBaselines, RopeIsExact) {
  // Each output is x1 cos - x2 sin (or x2 cos + x1 sin) of bf16 inputs: two exact fp32
  // products, one fp32 add, one rounding to bf16, which is how the double reference
  // rounds too (bar double rounding ties): no element differs at all.
  const nlohmann::json r = test::evaluate_aie_ml("rope", "C4", 1);
  ASSERT_EQ(r["status"], "pass") << test::describe_report(r);
  EXPECT_EQ(r["trials"][0]["check"]["max_abs_err"], 0.0);
}

TEST(AieMlMlpBaselines, FfnRunsItsStagesInColumnsZeroAndOneAndUsesTheSiluOnlyInStageOne) {
  const auto inst = tasks::Registry::builtin().instance("ffn", "aie_ml", "C1");
  const std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  const size_t t0 = k.find(".tile 0 0"), t1 = k.find(".tile 1 0"), mv = k.find(".movement");
  ASSERT_TRUE(t0 != std::string::npos && t1 != std::string::npos && mv != std::string::npos);
  EXPECT_LT(t0, t1);
  // SiLU's 1 + 2^t appears in stage 1's program, not in stage 2's.
  EXPECT_NE(k.substr(t0, t1 - t0).find("1 + 2^t"), std::string::npos);
  EXPECT_EQ(k.substr(t1, mv - t1).find("1 + 2^t"), std::string::npos);
  // Stage 1's output goes to shim1.s2mm1; stage 2's A read waits for shim1 lock 0.
  EXPECT_NE(k.find("{from: {tile: mem0, port: mm2s5}, to: {tile: shim1, port: s2mm1}}"), std::string::npos);
  const size_t a_rd = k.find("name: down_a_rd0,");
  ASSERT_NE(a_rd, std::string::npos);
  EXPECT_NE(k.substr(a_rd, k.find('\n', a_rd) - a_rd).find("acquire: {lock: 0, value: 1}"), std::string::npos);
}

TEST(AieMlMlpBaselines, FfnWithoutTheStageBarrierFails) {
  // Without the acquire, stage 2 reads the DDR scratch before stage 1 has written it
  // (zeros at first): y comes out wrong.
  const std::string k = patched_kernel("ffn", "C1", ", acquire: {lock: 0, value: 1}}", "}");
  ASSERT_FALSE(k.empty());
  const nlohmann::json r = test::evaluate_aie_ml("ffn", "C1", 1, k);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
  EXPECT_NE(r.value("reason", std::string()).find("match"), std::string::npos) << test::describe_report(r);
}

TEST(AieMlMlpBaselines, SwigluRunsFourStagesAndNeedsItsBarriers) {
  const auto inst = tasks::Registry::builtin().instance("swiglu", "aie_ml", "C1");
  const std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  for (const char* t : {".tile 0 0", ".tile 1 0", ".tile 2 0", ".tile 3 0"}) EXPECT_NE(k.find(t), std::string::npos) << t;
  // B of stage 1 is [W_gate | W_gate | W_up | W_up]: four reads per strip; C1 (n = 8,
  // K = 64) has one strip of 8 rows.
  for (const char* q : {"name: gu_b_rd0_0_q0,", "name: gu_b_rd0_0_q3,"}) EXPECT_NE(k.find(q), std::string::npos) << q;
  EXPECT_EQ(k.find("name: gu_b_rd0_1_q0,"), std::string::npos);
  // Stage 2's read waits for stage 1's last write (shim1 lock 0); without it the run
  // reads the scratch before it is written and y is wrong.
  const std::string from = "name: mul_wr_rd0, tile: shim1";
  const size_t at = k.find(from);
  ASSERT_NE(at, std::string::npos);
  const size_t end = k.find('\n', at);
  std::string line = k.substr(at, end - at);
  const std::string acquire = ", acquire: {lock: 0, value: 1}";
  const size_t acq = line.find(acquire);
  ASSERT_NE(acq, std::string::npos) << line;
  std::string patched = k;
  patched.replace(at + acq, acquire.size(), "");
  const nlohmann::json r = test::evaluate_aie_ml("swiglu", "C1", 1, patched);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
  EXPECT_NE(r.value("reason", std::string()).find("match"), std::string::npos) << test::describe_report(r);
}

TEST(AieMlMlpBaselines, BadStagePlansAreRefusedWithTheirReason) {
  tasks::aie_ml::SwigluSplitPlan q;
  q.n = 8, q.h = 64, q.h_i = 48;  // h_i not a multiple of 32
  try {
    tasks::aie_ml::swiglu_split_mlp(q);
    FAIL() << "h_i = 48 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("h_i of 32"), std::string::npos) << e.what();
  }
  tasks::aie_ml::MatmulPlan up, down;
  up.M = down.M = 8, up.K = down.N = 64, up.N = down.K = 128;
  up.c_offset = 0x1000, down.a_offset = 0x2000;  // stage 2 would not read stage 1's output
  try {
    tasks::aie_ml::two_stage_mlp(up, down, "t");
    FAIL() << "disconnected stages accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("stage 1's output"), std::string::npos) << e.what();
  }
}

// A CI run drew this seed from the OS and the FFN C4 baseline failed it by one element of
// 8192 (want -0.0664, got -0.0791: cancellation in y = s W2 after the hidden layer s was
// rounded to BF16). The reference's rounding slack covers that error; it must pass.
TEST(AieMlMlpBaselines, FfnPassesTheSeedWhoseHiddenLayerRoundingOnceFailedIt) {
  const nlohmann::json r = test::evaluate_aie_ml("ffn", "C4", 1, "", 2853807150367154ull);
  EXPECT_EQ(r["status"], "pass") << test::describe_report(r);
}

}  // namespace
}  // namespace tlmcraft
