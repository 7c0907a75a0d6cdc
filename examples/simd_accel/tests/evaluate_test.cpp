// simd_accel through tlmcraft's evaluate(), as `tlmcraft run` and the agent tools use it:
// the platform registers itself by its plugin entry point (called here in-process), and
// the baselines of relu and gemm pass C1..C5 on fresh inputs.
#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/plugins.h"
#include "platforms/registry.h"

extern "C" void tlmcraft_register_plugin(const tlmcraft::PluginContext* context);

namespace simd_accel {
namespace {

class SimdEvaluate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const tlmcraft::PluginContext context{tlmcraft::kPluginApiVersion, "libsimd_accel.so", "."};
    tlmcraft_register_plugin(&context);
  }
  static nlohmann::json baseline(const std::string& task, const std::string& config) {
    auto platform = tlmcraft::make_platform("simd_accel");
    tlmcraft::EvalOptions o;
    o.platform = "simd_accel";
    o.task = task;
    o.config = config;
    o.use_baseline = true;
    o.seed = 1;
    o.trials = 2;
    return tlmcraft::evaluate(*platform, o);
  }
};

TEST_F(SimdEvaluate, ListedAmongThePlatforms) {
  const auto names = tlmcraft::platform_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "simd_accel"), names.end());
}

// README.md's formulas: DMA_LD of 512 bytes at 3 (miss) done 63; 16 iterations of 8 cycles
// from 63 (the last V_ST lands at 189); DMA_ST at 194 to bank 2 (miss): 194 + 8 + 20 + 32.
TEST_F(SimdEvaluate, ReluC1BaselineCyclesAsDerivedByHand) {
  const nlohmann::json r = baseline("relu", "C1");
  EXPECT_EQ(r["status"], "pass") << r.dump(1);
  EXPECT_EQ(r["cycles"], 254) << r.dump(1);
}

TEST_F(SimdEvaluate, ReluAndGemmBaselinesPassEveryConfiguration) {
  for (const std::string task : {"relu", "gemm"})
    for (const std::string config : {"C1", "C2", "C3", "C4", "C5"}) {
      const nlohmann::json r = baseline(task, config);
      EXPECT_EQ(r["status"], "pass") << task << " " << config << ": " << r.dump(1).substr(0, 3000);
    }
}

}  // namespace
}  // namespace simd_accel
