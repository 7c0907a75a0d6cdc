// AIE-ML vector-task baselines (platforms/aie_ml/pack/baselines/vector_tasks.cpp): every task and
// configuration passes 3 trials through evaluate() with the task's default data movement,
// and the kernels are core programs only (no `.movement` section).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/baselines/aie_ml_eval_util.h"

namespace tlmcraft {
namespace {

class AieMlVectorBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(AieMlVectorBaseline, EveryConfigurationPassesThreeTrials) {
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    const nlohmann::json r = test::evaluate_aie_ml(GetParam(), config, 3);
    EXPECT_EQ(r["status"], "pass") << GetParam() << " " << config << ": " << test::describe_report(r);
    ASSERT_EQ(r["trials"].size(), 3u) << GetParam() << " " << config;
    // The three trials use different inputs but the same kernel and movement: same cycles.
    EXPECT_EQ(r["trials"][0]["cycles"], r["trials"][2]["cycles"]);
    if (std::getenv("AIE_VECTOR_VERBOSE"))
      std::printf("%s %s cycles %llu max_abs_err %g max_rel_err %g\n", GetParam().c_str(), config,
                  (unsigned long long)r["trials"][0]["cycles"].get<uint64_t>(), r["trials"][0]["check"]["max_abs_err"].get<double>(),
                  r["trials"][0]["check"]["max_rel_err"].get<double>());
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
  const nlohmann::json r = test::evaluate_aie_ml("relu", "C1", 3);
  ASSERT_EQ(r["status"], "pass") << test::describe_report(r);
  EXPECT_EQ(r["trials"][0]["check"]["unwritten"], 0) << r["trials"][0]["check"].dump();
}

TEST(AieMlVectorBaselines, AWrongKernelFailsTheCheck) {
  // The ReLU kernel with VMIN instead of VMAX computes min(x, 0): wrong for positive x.
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const auto inst = tasks::Registry::builtin().instance("relu", "aie_ml", "C1");
  std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  const size_t at = k.find("VMAX.BF16");
  ASSERT_NE(at, std::string::npos);
  k.replace(at, 9, "VMIN.BF16");
  auto platform = make_platform("aie_ml");
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.platform = "aie_ml";
  o.task = "relu";
  o.config = "C1";
  o.kernel_source = k;
  o.trials = 1;
  o.seed = 1;  // a fixed input set: the test must not depend on the OS seed
  o.compare_baseline = false;
  const nlohmann::json r = evaluate(*platform, o);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
}

TEST(AieMlVectorBaselines, AKernelThatNeverStoresLeavesThePoison) {
  // Without its VST the ReLU kernel still hands every output block on (the locks run), so
  // the DDR output keeps 0x7FC1 in all 256 elements: 256 unwritten.
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const auto inst = tasks::Registry::builtin().instance("relu", "aie_ml", "C1");
  std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  const size_t at = k.find("VST w2, [p1], #32");
  ASSERT_NE(at, std::string::npos);
  k.replace(at, 17, "NOP");
  auto platform = make_platform("aie_ml");
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.platform = "aie_ml";
  o.task = "relu";
  o.config = "C1";
  o.kernel_source = k;
  o.trials = 1;
  o.seed = 1;  // a fixed input set: the test must not depend on the OS seed
  o.compare_baseline = false;
  const nlohmann::json r = evaluate(*platform, o);
  EXPECT_EQ(r["status"], "fail") << test::describe_report(r);
  EXPECT_EQ(r["trials"][0]["check"]["unwritten"], 0) << "the output blocks stream the tile's zeroed memory";
}

}  // namespace
}  // namespace tlmcraft
