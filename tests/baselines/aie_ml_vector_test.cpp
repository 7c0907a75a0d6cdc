// AIE-ML vector-task baselines (tasks/baselines/aie_ml/vector_tasks.cpp): every task and
// configuration passes 3 trials through evaluate() with the task's default data movement,
// and the kernels are core programs only (no `.movement` section).
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

nlohmann::json run_baseline(const std::string& task, const std::string& config) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto platform = make_platform("aie_ml");
  EvalOptions o;
  o.platform = "aie_ml";
  o.task = task;
  o.config = config;
  o.use_baseline = true;
  o.trials = 3;
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

std::string describe(const nlohmann::json& r) {
  std::string s = r.value("status", std::string("?")) + ": " + r.value("reason", std::string());
  if (r.contains("assemble") && !r["assemble"]["diagnostics"].empty()) s += "\n" + r["assemble"]["diagnostics"].dump(1);
  return s;
}

class AieMlVectorBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(AieMlVectorBaseline, EveryConfigurationPassesThreeTrials) {
  for (const std::string config : {"C1", "C2", "C3", "C4", "C5"}) {
    const nlohmann::json r = run_baseline(GetParam(), config);
    EXPECT_EQ(r["status"], "pass") << GetParam() << " " << config << ": " << describe(r);
    ASSERT_EQ(r["trials"].size(), 3u) << GetParam() << " " << config;
    // The three trials use different inputs but the same kernel and movement: same cycles.
    EXPECT_EQ(r["trials"][0]["cycles"], r["trials"][2]["cycles"]);
  }
}

TEST_P(AieMlVectorBaseline, KernelIsACoreProgramOnly) {
  const auto inst = tasks::Registry::builtin().instance(GetParam(), "aie_ml", "C1");
  const std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  EXPECT_NE(k.find(".tile 0 0"), std::string::npos);
  EXPECT_EQ(k.find(".movement"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Tasks, AieMlVectorBaseline, ::testing::Values("relu", "silu", "gelu", "softmax", "layernorm", "rmsnorm"));

TEST(AieMlVectorBaselines, ReluOutputsReachDdrThroughTheDefaultMovement) {
  // relu C1: n = 256, one block each way (512 bytes); a run that halts and passes means
  // every output element left the poison pattern 0x7FC1 and matched max(x, 0).
  const nlohmann::json r = run_baseline("relu", "C1");
  ASSERT_EQ(r["status"], "pass") << describe(r);
  EXPECT_EQ(r["trials"][0]["check"]["unwritten"], 0) << r["trials"][0]["check"].dump();
}

}  // namespace
}  // namespace tlmcraft
