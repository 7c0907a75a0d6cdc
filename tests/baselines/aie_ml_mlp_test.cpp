// AIE-ML "mlp" group baselines (tasks/baselines/aie_ml/mlp_tasks.cpp): every registered
// task passes C1..C5 through evaluate(), and a kernel with the rotation's sign flipped fails.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

nlohmann::json run_mlp(const std::string& task, const std::string& config, int trials,
                       const std::string& kernel = "") {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto platform = make_platform("aie_ml");
  EvalOptions o;
  o.platform = "aie_ml";
  o.task = task;
  o.config = config;
  o.use_baseline = kernel.empty();
  o.kernel_source = kernel;
  o.trials = trials;
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

std::string describe(const nlohmann::json& r) {
  std::string s = r.value("status", std::string("?")) + ": " + r.value("reason", std::string());
  if (r.contains("assemble") && !r["assemble"]["diagnostics"].empty()) s += "\n" + r["assemble"]["diagnostics"].dump(1);
  return s;
}

class AieMlMlpBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(AieMlMlpBaseline, EveryConfigurationPasses) {
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    const nlohmann::json r = run_mlp(GetParam(), config, 3);
    EXPECT_EQ(r["status"], "pass") << GetParam() << " " << config << ": " << describe(r);
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

INSTANTIATE_TEST_SUITE_P(Tasks, AieMlMlpBaseline, ::testing::Values("ffn", "rope"));

// Replaces the first `from` in the baseline kernel of (task, config) by `to`.
std::string patched_kernel(const std::string& task, const std::string& config, const std::string& from,
                           const std::string& to) {
  const auto inst = tasks::Registry::builtin().instance(task, "aie_ml", config);
  std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  const size_t at = k.find(from);
  if (at == std::string::npos) return "";
  return k.replace(at, from.size(), to);
}

TEST(AieMlMlpBaselines, RopeWithTheRotationSignFlippedFails) {
  // C2 (h = 32): y1 = x1 cos1 + x2 sin1 instead of "-": wrong wherever x2 sin1 is not
  // tiny, which the random x and the nonzero sin of positions p >= 1 guarantee.
  const std::string k = patched_kernel("rope", "C2", "VSUB.F bm0, bm0, bm1", "VADD.F bm0, bm0, bm1");
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(run_mlp("rope", "C2", 1, k)["status"], "fail");
}

TEST(AieMlMlpBaselines, RopeC1WithoutTheHalfSwapFails) {
  // C1 (h = 16) rotates each 16-lane row by 8 lanes (VSHIFT by 16 bytes); a shift of 0
  // multiplies x by sin instead of rotate_half(x): wrong.
  const std::string k = patched_kernel("rope", "C1", "VSHIFT x2, x0, x0, 16", "VSHIFT x2, x0, x0, 0");
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(run_mlp("rope", "C1", 1, k)["status"], "fail");
}

}  // namespace
}  // namespace tlmcraft
