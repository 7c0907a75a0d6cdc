// The checker's row rules (docs/tasks.md, "What the checker defends against"): the
// cheapest wrong outputs that passed the element and tensor rules alone now fail. The
// softmax "top k, zeros elsewhere" outputs, built from the reference on every platform
// and configuration, fail (on Coral's exact int8 softmax, unless they equal the answer); the reference itself, and on AIE-ML the reference rounded to
// BF16 as a kernel stores it, pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "tasks/checker.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

const Tolerance kPlena{Tolerance::Kind::AbsOrRel, 0.012, 0.01};

TEST(RowRules, ARowOfSmallOutputsLeftAtZeroFails) {
  // Two rows of 4: the first carries the tensor's energy, the second lies far below the
  // absolute floor. Zeroing the second passes the element rule and the tensor's 5%
  // RMS bound (its energy is 1e-8 of the tensor's) but not the row rule.
  CheckTensor t{"y", {2, 4}, {1, 2, 3, 4, 0, 0, 0, 0}, {1, 2, 3, 4, 1e-4, 2e-4, 1e-4, 2e-4}, {}, {}};
  const CheckResult r = check({t}, kPlena);
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_TRUE(r.scale_failures.empty());
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.rows_failed, 1);
  ASSERT_EQ(r.row_failures.size(), 1u);
  EXPECT_EQ(r.row_failures[0], "y row 1: relative RMS error 100.0% > 5.0%");
  EXPECT_NE(r.summary().find("1 row(s) fail the row rules (first: y row 1: relative RMS error 100.0% > 5.0%)"),
            std::string::npos);
  EXPECT_EQ(r.to_json()["rows_failed"], 1);
}

TEST(RowRules, SmallOutputsMustBeRelativelyAccurateWhenTheTaskSaysSo) {
  // One large value keeps the row's RMS error small; the three small ones are zeroed.
  CheckTensor t{"y", {1, 4}, {0.9, 0, 0, 0}, {0.9, 0.001, 0.002, 0.003}, {}, {}};
  Tolerance tol = kPlena;
  EXPECT_TRUE(check({t}, tol).passed());  // without the small-output rule: the loophole
  tol.small_rel = 0.05;
  const CheckResult r = check({t}, tol);
  EXPECT_FALSE(r.passed());
  EXPECT_DOUBLE_EQ(r.max_small_rel_err, 1.0);
  ASSERT_EQ(r.row_failures.size(), 1u);
  EXPECT_EQ(r.row_failures[0], "y row 0: outputs below 0.012: relative error 100.0% > 5.0%");
  // Within 4% on the small outputs passes.
  CheckTensor close{"y", {1, 4}, {0.9, 0.00104, 0.00192, 0.00312}, {0.9, 0.001, 0.002, 0.003}, {}, {}};
  const CheckResult c = check({close}, tol);
  EXPECT_TRUE(c.passed()) << c.summary();
  EXPECT_NEAR(c.max_small_rel_err, 0.04, 1e-9);
}

TEST(RowRules, CapsTheListedRowFailures) {
  CheckTensor t{"y", {8, 2}, std::vector<double>(16, 0.0), std::vector<double>(16, 1e-3), {}, {}};
  const CheckResult r = check({t}, kPlena, CheckOptions{10, 16, 3});
  EXPECT_EQ(r.rows_failed, 8);
  EXPECT_EQ(r.row_failures.size(), 3u);
}

// Softmax outputs with only the k largest entries of each row kept (or of the whole
// vector), zeros elsewhere.
std::vector<double> top_k(const std::vector<double>& y, size_t row_len, size_t k) {
  std::vector<double> out(y.size(), 0.0);
  for (size_t r = 0; r < y.size(); r += row_len) {
    std::vector<size_t> idx(std::min(row_len, y.size() - r));
    std::iota(idx.begin(), idx.end(), r);
    std::partial_sort(idx.begin(), idx.begin() + std::min(k, idx.size()), idx.end(),
                      [&](size_t a, size_t b) { return y[a] > y[b]; });
    for (size_t i = 0; i < k && i < idx.size(); ++i) out[idx[i]] = y[idx[i]];
  }
  return out;
}

// Keeps the outputs whose input lies within `window` of the maximum input (the issue's
// "largest outputs only" kernel), zeros elsewhere.
std::vector<double> near_max(const std::vector<double>& x, const std::vector<double>& y, double window) {
  const double m = *std::max_element(x.begin(), x.end());
  std::vector<double> out(y.size(), 0.0);
  for (size_t i = 0; i < y.size(); ++i)
    if (x[i] >= m - window) out[i] = y[i];
  return out;
}

CheckResult check_outputs(const Instance& inst, const TensorSet& want, const std::vector<double>& got) {
  TensorSet g = want;
  g[0].data = got;
  return inst.check(g, {}, want);
}

class SoftmaxTopK : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SoftmaxTopK, FailsWhileTheReferencePasses) {
  const auto& [platform, config] = GetParam();
  const Instance inst = Registry::builtin().instance("softmax", platform, config);
  for (uint64_t seed : {11u, 12u, 13u}) {
    const TensorSet inputs = inst.generate_inputs(seed);
    const TensorSet want = inst.reference_outputs(inputs);
    ASSERT_EQ(want.size(), 1u);
    const std::vector<double>& y = want[0].data;
    EXPECT_TRUE(check_outputs(inst, want, y).passed()) << "reference, seed " << seed;
    if (platform == "aie_ml") {  // the reference as a kernel stores it
      std::vector<double> rounded(y.size());
      for (size_t i = 0; i < y.size(); ++i) rounded[i] = aie_ml_bf16_value(aie_ml_bf16_bits(y[i]));
      const CheckResult r = check_outputs(inst, want, rounded);
      EXPECT_TRUE(r.passed()) << "bf16-rounded reference, seed " << seed << ": " << r.summary();
    }
    // Coral's int8 softmax (scale 1/128) is exact and mostly zero: a "top k" output equal
    // to the reference is the right answer there; every other one must fail.
    const auto expect_fails = [&](const std::vector<double>& got, const std::string& what) {
      if (platform == "coral" && got == y) return;
      EXPECT_FALSE(check_outputs(inst, want, got).passed()) << what << ", seed " << seed;
    };
    for (size_t k : {1u, 4u, 16u}) {
      expect_fails(top_k(y, 64, k), "top " + std::to_string(k) + " per row of 64");
      expect_fails(top_k(y, y.size(), k), "top " + std::to_string(k));
    }
    expect_fails(near_max(inputs[0].data, y, platform == "coral" ? 96.0 : 6.0), "within 6 of the maximum input");
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPlatformAndConfig, SoftmaxTopK,
                         ::testing::Combine(::testing::Values("plena", "aie_ml", "coral"),
                                            ::testing::Values("C1", "C2", "C3", "C4", "C5")),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

}  // namespace
}  // namespace tlmcraft::tasks
