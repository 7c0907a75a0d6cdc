// AIE-ML attention baselines (platforms/aie_ml/pack/baselines/attention_tasks.cpp): every task and
// configuration passes through evaluate() against the staged reference, with the
// kernel's own `.movement` section.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/baselines/aie_ml_eval_util.h"

namespace tlmcraft {
namespace {

class AieMlAttentionBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(AieMlAttentionBaseline, EveryConfigurationPasses) {
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    // Three trials on the small configurations (different inputs, same cycles), one on C5.
    const int trials = std::string(config) == "C5" ? 1 : 3;
    const nlohmann::json r = test::evaluate_aie_ml(GetParam(), config, trials);
    EXPECT_EQ(r["status"], "pass") << GetParam() << " " << config << ": " << test::describe_report(r)
                                   << (r["trials"].empty() ? "" : r["trials"].back()["check"]["first_mismatches"].dump());
    ASSERT_EQ(r["trials"].size(), size_t(trials)) << GetParam() << " " << config;
    EXPECT_EQ(r["trials"][0]["check"]["unwritten"], 0) << GetParam() << " " << config;
    if (trials == 3) {
      EXPECT_EQ(r["trials"][0]["cycles"], r["trials"][2]["cycles"]);
    }
    if (std::getenv("AIE_ATTENTION_VERBOSE"))
      std::printf("%s %s cycles %llu max_abs_err %g max_rel_err %g\n", GetParam().c_str(), config,
                  (unsigned long long)r["trials"][0]["cycles"].get<uint64_t>(),
                  r["trials"][0]["check"]["max_abs_err"].get<double>(), r["trials"][0]["check"]["max_rel_err"].get<double>());
  }
}

TEST_P(AieMlAttentionBaseline, KernelBringsItsOwnMovement) {
  const auto inst = tasks::Registry::builtin().instance(GetParam(), "aie_ml", "C1");
  const std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  EXPECT_NE(k.find(".tile 0 0"), std::string::npos);
  EXPECT_NE(k.find(".movement"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Tasks, AieMlAttentionBaseline, ::testing::Values("scaled_dot_product", "mha", "mqa", "gqa"));

TEST(AieMlAttentionBaselines, UnscaledScoresFailTheCheck) {
  // With c = 1 instead of 1/sqrt(16) = 0.25 the scores are 4x larger and the softmax
  // sharpens: P and O differ from the reference far beyond the 0.01 tolerance.
  const auto inst = tasks::Registry::builtin().instance("scaled_dot_product", "aie_ml", "C1");
  std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  // d = 16: c = 0.25 is one bf16 constant (0x3E80 = 16000; its low part is 0).
  const std::string quarter = "MOVXM r4, 16000    ; c = 1/sqrt(d), high part";
  const size_t at = k.find(quarter);
  ASSERT_NE(at, std::string::npos);
  k.replace(at, quarter.size(), "MOVXM r4, 16256");  // bf16(1.0) = 0x3F80 = 16256
  const nlohmann::json r = test::evaluate_aie_ml("scaled_dot_product", "C1", 1, k);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
}

TEST(AieMlAttentionBaselines, UnsupportedShapesAreRefusedWithTheReason) {
  // d = h / heads must be a multiple of 16 (whole 16-lane vectors of an O row): h = 24 is
  // refused; s = 20 (above 16, not a multiple of 16) leaves a partial key block.
  const tasks::TaskSpec& spec = tasks::Registry::builtin().task("scaled_dot_product");
  tasks::ConfigSpec c;
  c.name = "C1";
  c.params = {{"s", 8}, {"h", 24}};
  try {
    tasks::baseline_kernel(tasks::Instance(spec, tasks::PlatformId("aie_ml"), c), nlohmann::json::object());
    FAIL() << "d = 24 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("head width d must be 16, 32, 48 or 64"), std::string::npos) << e.what();
  }
  c.params = {{"s", 20}, {"h", 16}};
  try {
    tasks::baseline_kernel(tasks::Instance(spec, tasks::PlatformId("aie_ml"), c), nlohmann::json::object());
    FAIL() << "s = 20 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("s above 16 must be a multiple of 16"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tlmcraft
