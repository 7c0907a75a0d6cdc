// AIE-ML convolution baselines (platforms/aie_ml/pack/baselines/conv_tasks.cpp): every registered
// task and configuration passes through evaluate() (allclose against the double-precision
// reference), and the kernel brings its own data movement (padded image in tile memory).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/baselines/aie_ml_eval_util.h"

namespace tlmcraft {
namespace {

class AieMlConvBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(AieMlConvBaseline, EveryConfigurationPasses) {
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    // Three trials: different inputs, the same kernel and movement, so the same cycles.
    const int trials = 3;
    const nlohmann::json r = test::evaluate_aie_ml(GetParam(), config, trials);
    EXPECT_EQ(r["status"], "pass") << GetParam() << " " << config << ": " << test::describe_report(r);
    ASSERT_EQ(r["trials"].size(), size_t(trials)) << GetParam() << " " << config;
    EXPECT_EQ(r["trials"][0]["cycles"], r["trials"][trials - 1]["cycles"]);
    if (std::getenv("AIE_CONV_VERBOSE"))
      std::printf("%s %s cycles %llu max_abs_err %g max_rel_err %g\n", GetParam().c_str(), config,
                  (unsigned long long)r["trials"][0]["cycles"].get<uint64_t>(), r["trials"][0]["check"]["max_abs_err"].get<double>(),
                  r["trials"][0]["check"]["max_rel_err"].get<double>());
  }
}

TEST(AieMlConvBlockBaseline, OnTheExposedPipelineC5FitsAndPasses) {
  // Generated for compute.pipeline=exposed the kernel carries a NOP for every cycle the
  // interlock would stall. With two output vectors' BatchNorm folds unrolled (three rsqrt
  // Newton steps each) that was 1,211 bundles, past the 1,024 of 16 KB; the steps loop now
  // (819) and the result is what the interlocked kernel computes.
  const nlohmann::json r = test::evaluate_aie_ml("conv_block", "C5", 2, "", 1, {"compute.pipeline=exposed"});
  EXPECT_EQ(r["status"], "pass") << test::describe_report(r);
  EXPECT_EQ(r["memory"]["cores"]["tile(0,0)"]["pipeline"]["early_reads"], 0);
}

TEST_P(AieMlConvBaseline, KernelWritesTheImageIntoAPaddedTileBuffer) {
  const auto inst = tasks::Registry::builtin().instance(GetParam(), "aie_ml", "C2");
  const std::string k = tasks::baseline_kernel(inst, nlohmann::json::object());
  EXPECT_NE(k.find(".tile 0 0"), std::string::npos);
  ASSERT_NE(k.find(".movement"), std::string::npos);
  // C2 of every conv task has k = 3, so p = 1: the image lands one padded row and one
  // pixel in, at byte (p * Hp + p) * c * 2 of the tile's image buffer. conv2d and
  // conv_block C2: H 8, c_in 8 -> Hp 10, (10 + 1) * 8 * 2 = 176; depthwise C2: H 12, c 16
  // -> Hp 14, (14 + 1) * 16 * 2 = 480.
  const std::string offset = GetParam() == "depthwise_conv" ? "offset: 480," : "offset: 176,";
  const size_t store = k.find("name: x_store");
  ASSERT_NE(store, std::string::npos);
  EXPECT_NE(k.substr(store, k.find('\n', store) - store).find(offset), std::string::npos) << k.substr(store, 200);
}

// Shapes the baseline cannot take are refused with the reason, not a broken kernel.
std::string conv2d_error(int64_t H, int64_t c_in, int64_t c_out, int64_t k) {
  const auto& spec = tasks::Registry::builtin().task("conv2d");
  tasks::ConfigSpec config;
  config.name = "X";
  config.params = {{"H", H}, {"c_in", c_in}, {"c_out", c_out}, {"k", k}};
  const tasks::Instance inst(spec, tasks::PlatformId("aie_ml"), config);
  try {
    tasks::baseline_kernel(inst, nlohmann::json::object());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(AieMlConvBaselineShapes, UnsupportedShapesAreRefusedWithTheReason) {
  EXPECT_EQ(conv2d_error(8, 8, 12, 3), "aie_ml conv2d baseline: c_out must be 8 or a multiple of 16");
  EXPECT_EQ(conv2d_error(8, 8, 16, 2), "aie_ml conv2d baseline: k must be odd");
  // H 32, c_in 32, k 3: padded image 34 * 34 * 32 * 2 = 73,984 bytes alone exceed 64 KB.
  EXPECT_NE(conv2d_error(32, 32, 32, 3).find("do not fit the 64 KB tile memory"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Tasks, AieMlConvBaseline, ::testing::Values("conv2d", "depthwise_conv", "conv_block"));

}  // namespace
}  // namespace tlmcraft
