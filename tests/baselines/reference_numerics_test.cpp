// The PLENA reference rules the baselines are written against (docs/tasks.md, "PLENA
// sums"): sums and matmul contractions accumulate in float32 in ascending index order
// and are rounded to BF16 once; V_RED_SUM's BF16 running total is only a measurement
// helper; FlashAttention's softmax is exact from the BF16 scores.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "tasks/reference/float_ops.h"

namespace tlmcraft::tasks {
namespace {

const FloatNumerics kPlena = FloatNumerics::for_platform(PlatformId("plena"));
const FloatNumerics kAie = FloatNumerics::for_platform(PlatformId("aie_ml"));

TEST(PlenaReferenceNumerics, SumsAccumulateInFloat32AscendingThenRoundOnce) {
  // 1 + 2^-8 + 2^-30. Float32: 1 + 2^-8 is exact, adding 2^-30 (below half of float32's
  // 2^-23 spacing at 1) leaves it; bf16(1 + 2^-8) is a tie between 1 and 1 + 2^-7 and
  // rounds to the even 1. In double the 2^-30 survives and lifts it to 1 + 2^-7.
  const std::vector<double> v{1.0, std::ldexp(1.0, -8), std::ldexp(1.0, -30)};
  EXPECT_EQ(ref::reduce_sum(v.data(), 3, kPlena), 1.0);
  EXPECT_EQ(ref::reduce_sum(v.data(), 3, kAie), 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30));
  // The same numbers as a [1, 3] x [3, 1] product (products with 1 are exact).
  const std::vector<double> ones{1.0, 1.0, 1.0};
  EXPECT_EQ(ref::matmul(v, ones, 1, 3, 1, kPlena), (ref::Vec{1.0}));
  EXPECT_EQ(ref::matmul_bt(v, ones, 1, 3, 1, kPlena), (ref::Vec{1.0}));
}

TEST(PlenaReferenceNumerics, VRedSumLosesSmallRowsTheReferenceKeeps) {
  // 64 rows of 64 values: row 0 all 2 (row sum 128), rows 1..63 all 2^-7 (row sums 0.5).
  // V_RED_SUM: f = bf16(128 + 0.5) = 128 each time (bf16 spacing 1 in [128, 256), a tie to
  // even), so f stays 128. The reference: float32 sum 128 + 63 * 0.5 = 159.5, bf16 -> 160
  // (159.5 is a tie between 159 and 160, to even 160).
  std::vector<double> v(64 * 64, std::ldexp(1.0, -7));
  for (int i = 0; i < 64; ++i) v[size_t(i)] = 2.0;
  EXPECT_EQ(ref::vred_sum(v.data(), int64_t(v.size()), 64), 128.0);
  EXPECT_EQ(ref::reduce_sum(v.data(), int64_t(v.size()), kPlena), 160.0);
}

TEST(PlenaReferenceNumerics, FlashAttentionSoftmaxIsExactFromTheScores) {
  // d = 1, c = 1, two tokens; token 0 scores [0, 1], values [1, 3].
  // Staged: E = [bf16(e^-1) = 0.3671875, 1]; z = 1.3671875; r = bf16(1/z) = 0.73046875;
  // P = [bf16(0.26821899) = 0.267578125, 0.73046875]; O = bf16(2.458984375) = 2.453125.
  // Exact: O = bf16((e^-1 + 3) / (e^-1 + 1) = 2.4621172) = 2.46875 (spacing 2^-6 in [2, 4)).
  // Token 1 (q = 0): P = [0.5, 0.5], O = 2 either way.
  const ref::Vec q{1, 0}, k{0, 1}, v{1, 3};
  EXPECT_EQ(ref::attention(q, k, v, 2, 2, 1, 1, 1, kPlena), (ref::Vec{2.453125, 2.0}));
  EXPECT_EQ(ref::attention(q, k, v, 2, 2, 1, 1, 1, kPlena, true), (ref::Vec{2.46875, 2.0}));
}

}  // namespace
}  // namespace tlmcraft::tasks
