// Our PRNG and distributions, and the generator's use of them.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "tasks/generator.h"
#include "tasks/random.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

TEST(Rng, EngineIsTheStandardMt19937_64) {
  // The standard fixes mt19937_64's sequence: seed 5489 gives 14514284786278117030 first.
  Rng r(5489);
  EXPECT_EQ(r.bits(), 14514284786278117030ull);
  // uniform01 is the top 53 bits of the next word over 2^53.
  Rng a(5489), b(5489);
  a.bits();
  const uint64_t w = b.bits(), w2 = b.bits();
  (void)w;
  EXPECT_EQ(a.uniform01(), double(w2 >> 11) * 0x1.0p-53);
}

TEST(Rng, DistributionsHaveTheirStatedRangeAndMoments) {
  Rng r(1);
  double s = 0, s2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double v = r.normal(2.0, 3.0);
    s += v;
    s2 += v * v;
  }
  const double mean = s / n, var = s2 / n - mean * mean;
  EXPECT_NEAR(mean, 2.0, 0.03);          // standard error 3 / sqrt(2e5) = 0.0067
  EXPECT_NEAR(std::sqrt(var), 3.0, 0.03);
  std::set<int64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const int64_t v = r.integer(-3, 4);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 4);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 8u);
  for (int i = 0; i < 1000; ++i) {
    const double u = r.uniform(-4, 4);
    ASSERT_GE(u, -4);
    ASSERT_LT(u, 4);
  }
}

TEST(Rng, TensorStreamsAreIndependentOfEachOther) {
  Rng a = Rng::for_tensor(1, "gemm", "A"), b = Rng::for_tensor(1, "gemm", "B"), a2 = Rng::for_tensor(1, "gemm", "A");
  const uint64_t va = a.bits();
  EXPECT_EQ(va, a2.bits());
  EXPECT_NE(va, b.bits());
  EXPECT_NE(va, Rng::for_tensor(2, "gemm", "A").bits());
}

TEST(Generator, PeaksIntNormalRopeTables) {
  Rng r(3);
  Tensor x("x", {1000});
  Distribution d;
  d.kind = Distribution::Kind::Normal;
  d.mean = 0;
  d.std = 1;
  d.peaks = 4;
  d.peak_lo = 10;
  d.peak_hi = 14;
  fill(x, d, {}, r);
  int peaks = 0;
  for (double v : x.data) peaks += v >= 10;  // N(0,1) never reaches 10 in 1000 draws
  EXPECT_EQ(peaks, 4);

  Tensor q("q", {500});
  Distribution di;
  di.kind = Distribution::Kind::IntNormal;
  di.mean = 0;
  di.std = 200;
  di.lo = -128;
  di.hi = 127;
  fill(q, di, {}, r);
  int at_bounds = 0;
  for (double v : q.data) {
    ASSERT_EQ(v, std::floor(v));
    ASSERT_GE(v, -128);
    ASSERT_LE(v, 127);
    at_bounds += v == -128 || v == 127;
  }
  EXPECT_GT(at_bounds, 100);  // std 200 saturates about half

  // cos[p, j] = cos(p * 10000^(-2 (j mod d/2) / d)) with d = 4: theta = [1, 0.01, 1, 0.01].
  Tensor c("cos", {2, 4}), s("sin", {2, 4});
  Distribution dc, ds;
  dc.kind = Distribution::Kind::RopeCos;
  ds.kind = Distribution::Kind::RopeSin;
  fill(c, dc, {}, r);
  fill(s, ds, {}, r);
  EXPECT_EQ(c.data[0], 1.0);
  EXPECT_EQ(s.data[0], 0.0);
  EXPECT_DOUBLE_EQ(c.data[4], std::cos(1.0));
  EXPECT_DOUBLE_EQ(c.data[6], std::cos(1.0));  // j = 2 pairs with j = 0 (rotate half)
  EXPECT_DOUBLE_EQ(s.data[5], std::sin(0.01));
}

TEST(Generator, FanInScalesTheSpreadAndPlatformsQuantise) {
  const Registry& reg = Registry::builtin();
  // gemm's B is N(0, 1/sqrt(K)); on PLENA every input is an MXFP8 value (E4M3 has 3
  // mantissa bits: value * 2^k is an integer below 16 for some k); on Coral, int8.
  const Instance plena = reg.instance("gemm", "plena", "C5");  // K = 256
  const TensorSet in = plena.generate_inputs(11);
  const Tensor& B = find(in, "B");
  double s2 = 0;
  for (double v : B.data) s2 += v * v;
  EXPECT_NEAR(std::sqrt(s2 / B.size()), 1.0 / 16.0, 0.004);
  for (double v : B.data) {
    if (v == 0) continue;
    int e;
    const double m = std::frexp(std::fabs(v), &e);  // m in [0.5, 1)
    EXPECT_EQ(m * 16, std::floor(m * 16)) << v;     // at most 4 significant bits
  }
  const TensorSet ci = reg.instance("gemm", "coral", "C1").generate_inputs(11);
  for (double v : find(ci, "A").data) {
    ASSERT_EQ(v, std::floor(v));
    ASSERT_GE(v, -128);
    ASSERT_LE(v, 127);
  }
  // AIE-ML inputs are BF16: 8 significant bits.
  const TensorSet ai = reg.instance("gemm", "aie_ml", "C1").generate_inputs(11);
  for (double v : find(ai, "A").data) {
    int e;
    const double m = std::frexp(std::fabs(v), &e);
    ASSERT_EQ(m * 256, std::floor(m * 256));
  }
}

}  // namespace
}  // namespace tlmcraft::tasks
