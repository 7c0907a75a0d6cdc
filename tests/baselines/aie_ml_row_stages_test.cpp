// AIE-ML split-precision row stages (platforms/aie_ml/pack/baselines/row_stages.*): each stage runs
// alone on the aie_ml platform with random bf16 inputs in DDR and is compared with a
// double-precision reference computed here from the same bf16 values, at the decoder
// shapes C1..C5 (s, h, h_i) = (8,32,64) (16,64,128) (32,64,128) (64,128,256) (128,128,256).
// Every run also checks that DDR outside the planned outputs is unchanged.
//
// Error bounds (u = 2^-16, e = 2^-24; derivations next to each check):
//  - a value split as bf16 hi + lo: |v - hi - lo| <= 2^-8 |v - hi| <= u |v| (two roundings
//    to 8 significant bits); a product of two split fp32 values taken as three bf16
//    products (hi hi + lo hi + hi lo): <= 3u relative (two truncations, the dropped lo lo);
//  - an fp32 add: <= e of its result.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "isa/aie_ml/wait_insertion.h"
#include "tests/baselines/aie_ml_eval_util.h"
#include "platforms/aie_ml/aie_platform.h"
#include "platforms/aie_ml/pack/baselines/row_stages.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft {
namespace {

using tasks::aie_ml::ElementwiseOp;
using tasks::aie_ml::ElementwiseStagePlan;
using tasks::aie_ml::RmsnormStagePlan;

constexpr double kU = 1.0 / 65536, kE = 1.0 / 16777216;

struct Shape {
  const char* name;
  int64_t s, h, hi;
};
void PrintTo(const Shape& s, std::ostream* os) { *os << s.name; }
const Shape kShapes[] = {{"C1", 8, 32, 64}, {"C2", 16, 64, 128}, {"C3", 32, 64, 128}, {"C4", 64, 128, 256}, {"C5", 128, 128, 256}};

double bf(uint16_t b) { return tasks::aie_ml_bf16_value(b); }
uint16_t to_bf(double v) { return tasks::aie_ml_bf16_bits(v); }

using Matrix = std::vector<uint16_t>;  // row-major bf16 bits

// DDR placement: tensors one after another, 64-byte aligned, with a 64-byte gap between
// them (so a write past a tensor's end lands in bytes the test checks).
struct Ddr {
  uint64_t next = 0x400;
  std::vector<std::pair<uint64_t, Matrix>> inputs;
  std::vector<std::pair<uint64_t, uint64_t>> outputs;  // offset, bytes
  uint64_t alloc(uint64_t bytes) {
    const uint64_t at = next;
    next = (at + bytes + 63) / 64 * 64 + 64;
    return at;
  }
  uint64_t input(const Matrix& m) {
    const uint64_t at = alloc(m.size() * 2);
    inputs.push_back({at, m});
    return at;
  }
  uint64_t output(uint64_t elems) {
    const uint64_t at = alloc(elems * 2);
    outputs.push_back({at, elems * 2});
    return at;
  }
};

struct StageRun {
  uint64_t cycles = 0;
  std::vector<uint8_t> before, after;  // DDR [0, end)
  Matrix read(uint64_t at, uint64_t elems) const {
    Matrix m(elems);
    std::memcpy(m.data(), after.data() + at, elems * 2);
    return m;
  }
};

// Loads the kernel, writes a random background and the inputs, runs, and checks that no
// byte outside the outputs changed.
StageRun run_stage(const std::string& kernel, const Ddr& ddr, uint32_t seed) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  aie_ml::AiePlatform p(aie_ml::load_aie_config("default"));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  StageRun r;
  std::string all;
  const bool ok = p.assemble(test::with_default_waits(kernel), "stage.s", prog, diags);  // the exposed pipeline's waits
  for (const auto& d : diags) all += d.format() + "\n";
  EXPECT_TRUE(ok) << all << kernel;
  if (!ok) return r;
  p.load(prog);
  const uint64_t end = ddr.next + 4096;
  std::mt19937 rng(seed);
  r.before.resize(end);
  for (auto& b : r.before) b = uint8_t(rng());
  for (const auto& [at, m] : ddr.inputs) std::memcpy(r.before.data() + at, m.data(), m.size() * 2);
  p.write_memory("ddr", 0, r.before);
  const RunResult res = p.run(RunLimits{}, TraceOptions{});
  EXPECT_TRUE(res.ok()) << res.message;
  r.cycles = res.cycles;
  r.after = p.read_memory("ddr", 0, end);
  std::vector<bool> is_out(end, false);
  for (const auto& [at, n] : ddr.outputs)
    for (uint64_t i = 0; i < n; ++i) is_out[at + i] = true;
  size_t changed = 0;
  for (uint64_t i = 0; i < end; ++i)
    if (!is_out[i] && r.after[i] != r.before[i]) ++changed;
  EXPECT_EQ(changed, 0u) << "bytes outside the outputs changed";
  return r;
}

Matrix random_bf16(std::mt19937& rng, size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  Matrix m(n);
  for (auto& v : m) v = to_bf(d(rng));
  return m;
}

// hi = bf16(v), lo = bf16(v - hi) of random doubles: a value kept as split parts.
std::pair<Matrix, Matrix> random_split(std::mt19937& rng, size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  Matrix h(n), l(n);
  for (size_t i = 0; i < n; ++i) {
    const double v = d(rng);
    h[i] = to_bf(v);
    l[i] = to_bf(v - bf(h[i]));
  }
  return {h, l};
}

bool verbose() { return std::getenv("AIE_ROWS_VERBOSE") != nullptr; }

// Sum of the parts at element i, exact (double holds the sum of four bf16 values of
// similar magnitude exactly) and as the kernel's fp32 chain ((p0 + p1) + p2) + p3.
double exact_sum(const std::vector<Matrix>& parts, size_t i) {
  double s = 0;
  for (const auto& p : parts) s += bf(p[i]);
  return s;
}
float fp32_sum(const std::vector<Matrix>& parts, size_t i) {
  float s = float(bf(parts[0][i]));
  for (size_t k = 1; k < parts.size(); ++k) s = s + float(bf(parts[k][i]));
  return s;
}
double abs_sum(const std::vector<Matrix>& parts, size_t i) {
  double s = 0;
  for (const auto& p : parts) s += std::fabs(bf(p[i]));
  return s;
}

// ---- elementwise Sum ----

// Sum of the parts rounded once to bf16. The kernel adds in fp32 in part order and
// rounds that to bf16, so its output is exactly bf16(fp32 chain) everywhere; it differs
// from bf16(exact sum) exactly at the elements where a bf16 rounding boundary (the
// midpoint between two neighbouring bf16 values) lies between the exact sum and the fp32
// chain (the chain is within 3 e sum|p| of it), and there by one bf16 ulp.
void check_sum_bf16(const std::vector<Matrix>& parts, const Matrix& out, const std::string& what) {
  size_t differ = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const double s = exact_sum(parts, i);
    const float c = fp32_sum(parts, i);
    ASSERT_EQ(out[i], to_bf(double(c))) << what << " element " << i << ": not bf16 of the fp32 sum";
    ASSERT_LE(std::fabs(double(c) - s), 3 * kE * abs_sum(parts, i)) << what << " element " << i;
    if (out[i] == to_bf(s)) continue;
    ++differ;
    const double a = bf(out[i]), b = bf(to_bf(s)), mid = (a + b) / 2;
    // One ulp apart: no bf16 value strictly between them.
    const uint16_t lo = std::fabs(a) < std::fabs(b) ? out[i] : to_bf(s), hi = lo == out[i] ? to_bf(s) : out[i];
    EXPECT_EQ(hi - lo, 1) << what << " element " << i << ": more than one ulp from bf16 of the exact sum";
    EXPECT_TRUE((s - mid) * (double(c) - mid) <= 0) << what << " element " << i << ": no rounding boundary between the sums";
  }
  if (verbose()) std::printf("%s: %zu of %zu elements one ulp off bf16(exact sum)\n", what.c_str(), differ, out.size());
}

// Split output: |hi + lo - S| <= u |S| + 4 e sum|p| (the fp32 chain's adds, then the
// split of the fp32 result); ReLU (1-Lipschitz) keeps the bound.
void check_split(const std::vector<Matrix>& parts, const Matrix& hi, const Matrix& lo, bool relu, const std::string& what) {
  double worst = 0;
  for (size_t i = 0; i < hi.size(); ++i) {
    double s = exact_sum(parts, i);
    if (relu) s = std::max(s, 0.0);
    const double got = bf(hi[i]) + bf(lo[i]), bound = kU * std::fabs(s) + 4 * kE * abs_sum(parts, i);
    ASSERT_LE(std::fabs(got - s), bound) << what << " element " << i << ": " << got << " vs " << s;
    if (s != 0) worst = std::max(worst, std::fabs(got - s) / std::fabs(s));
    // The high part is bf16 of the value (the low part is what is left).
    ASSERT_LE(std::fabs(bf(lo[i])), std::fabs(bf(hi[i])) / 128) << what << " element " << i;
  }
  if (verbose()) std::printf("%s: max relative error %.3g u\n", what.c_str(), worst / kU);
}

struct ElementwiseCase {
  ElementwiseStagePlan plan;
  Ddr ddr;
  std::vector<Matrix> a, b;
};

ElementwiseCase elementwise_case(ElementwiseOp op, int64_t rows, int64_t cols, const std::vector<Matrix>& a,
                                 const std::vector<Matrix>& b, bool split_out) {
  ElementwiseCase c;
  c.plan.rows = rows, c.plan.cols = cols, c.plan.op = op;
  c.a = a, c.b = b;
  for (const auto& m : a) c.plan.a.push_back(c.ddr.input(m));
  for (const auto& m : b) c.plan.b.push_back(c.ddr.input(m));
  c.plan.out.hi = c.ddr.output(uint64_t(rows * cols));
  if (split_out) c.plan.out.lo = c.ddr.output(uint64_t(rows * cols));
  return c;
}

class RowStages : public ::testing::TestWithParam<Shape> {};

TEST_P(RowStages, SumOfFourPartsRoundedOnceToBf16) {
  // The decoder's y = x2 + f: a = {x2_hi, x2_lo, f_hi, f_lo}, s x h.
  const Shape sh = GetParam();
  std::mt19937 rng(11 + uint32_t(sh.s));
  const size_t n = size_t(sh.s * sh.h);
  auto [x_hi, x_lo] = random_split(rng, n, -3, 3);
  auto [f_hi, f_lo] = random_split(rng, n, -1, 1);
  ElementwiseCase c = elementwise_case(ElementwiseOp::Sum, sh.s, sh.h, {x_hi, x_lo, f_hi, f_lo}, {}, false);
  const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 1);
  check_sum_bf16(c.a, r.read(c.plan.out.hi, n), std::string("sum bf16 ") + sh.name);
  if (verbose()) std::printf("sum4 -> bf16 %s: %llu cycles\n", sh.name, (unsigned long long)r.cycles);
}

TEST_P(RowStages, SumOfFourPartsAsHighAndLowParts) {
  const Shape sh = GetParam();
  std::mt19937 rng(21 + uint32_t(sh.s));
  const size_t n = size_t(sh.s * sh.h);
  auto [x_hi, x_lo] = random_split(rng, n, -3, 3);
  auto [f_hi, f_lo] = random_split(rng, n, -1, 1);
  ElementwiseCase c = elementwise_case(ElementwiseOp::Sum, sh.s, sh.h, {x_hi, x_lo, f_hi, f_lo}, {}, true);
  const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 2);
  check_split(c.a, r.read(c.plan.out.hi, n), r.read(c.plan.out.lo, n), false, std::string("sum split ") + sh.name);
  if (verbose()) std::printf("sum4 -> split %s: %llu cycles\n", sh.name, (unsigned long long)r.cycles);
}

TEST_P(RowStages, ReluOfASplitValue) {
  // T5's h = relu(c W1): a = {h_hi, h_lo}, s x h_i.
  const Shape sh = GetParam();
  std::mt19937 rng(31 + uint32_t(sh.s));
  const size_t n = size_t(sh.s * sh.hi);
  auto [h_hi, h_lo] = random_split(rng, n, -4, 4);
  ElementwiseCase c = elementwise_case(ElementwiseOp::Relu, sh.s, sh.hi, {h_hi, h_lo}, {}, true);
  const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 3);
  const Matrix hi = r.read(c.plan.out.hi, n), lo = r.read(c.plan.out.lo, n);
  check_split(c.a, hi, lo, true, std::string("relu ") + sh.name);
  // Exactly the split of q = max(fp32(h_hi + h_lo), 0): hi = bf16(q), lo = bf16(q - hi)
  // (the integer maximum of the bit patterns is the fp32 maximum; q - hi is exact). It is
  // not always (h_hi, h_lo) itself: a low part far below half an ulp of the high part
  // does not fit fp32 next to it.
  for (size_t i = 0; i < n; ++i) {
    const float q = std::max(fp32_sum(c.a, i), 0.0f);
    ASSERT_EQ(hi[i], to_bf(q)) << i;
    ASSERT_EQ(lo[i], to_bf(double(q - float(bf(to_bf(q)))))) << i;
  }
  if (verbose()) std::printf("relu %s: %llu cycles\n", sh.name, (unsigned long long)r.cycles);
}

// SiLU(a) b with a = g_hi + g_lo, b = u_hi + u_lo. Bound (derivation): ab = sum of four
// exact products in fp32 (<= 4 e sum|a_k b_j|); t = -a log2 e from a's parts and three
// constant parts (<= 8 e |c| sum|a_k| absolute, which moves 2^t by ln2 times that,
// <= 12 e sum|a_k| relative); 2^f: Taylor remainder 3.4e-6 at |f| = 1/2 (0.32u of 2^f >=
// 0.707), the last Horner step's split product (|f p| <= 0.41: 0.58 * 3u), the earlier
// steps scaled down by powers of f (0.3u + 0.03u, the bf16-level c3 step 0.23u): <= 3u;
// d = 1 + 2^t no worse; z = -1/d: the last step z + z (1 + d z) errs by the 3u of d z
// (z times the tiny correction adds nothing, the previous error 5e-4 squared 0.02u):
// 6u from the true 1/d; out = ab (-z): split parts, three products, 3u; the output
// split u. In all <= 6u + 3u + u = 10u of |SiLU(a) b| (12u asserted) plus the absolute
// terms.
// Elements of SiLU(a) b outside the bound (the first one described in `first`).
size_t silu_mul_violations(const std::vector<Matrix>& a, const std::vector<Matrix>& b, const Matrix& hi, const Matrix& lo,
                           std::string& first, double& worst) {
  size_t bad = 0;
  worst = 0;
  for (size_t i = 0; i < hi.size(); ++i) {
    const double av = exact_sum(a, i), bv = exact_sum(b, i), sig = 1 / (1 + std::exp(-av)), ref = av * sig * bv;
    const double bound = 12 * kU * std::fabs(ref) + 4 * kE * abs_sum(a, i) * abs_sum(b, i) * sig +
                         12 * kE * abs_sum(a, i) * std::fabs(ref);
    const double got = bf(hi[i]) + bf(lo[i]);
    if (!(std::fabs(got - ref) <= bound) && bad++ == 0)
      first = "element " + std::to_string(i) + ": " + std::to_string(got) + " vs " + std::to_string(ref);
    if (ref != 0) worst = std::max(worst, std::fabs(got - ref) / std::fabs(ref));
  }
  return bad;
}

void check_silu_mul(const std::vector<Matrix>& a, const std::vector<Matrix>& b, const Matrix& hi, const Matrix& lo,
                    const std::string& what) {
  std::string first;
  double worst = 0;
  EXPECT_EQ(silu_mul_violations(a, b, hi, lo, first, worst), 0u) << what << ", first: " << first;
  if (verbose()) std::printf("%s: max relative error %.3g u\n", what.c_str(), worst / kU);
}

TEST_P(RowStages, SiluOfGateTimesUp) {
  // The decoder's SwiGLU middle: a = {g_hi, g_lo}, b = {u_hi, u_lo}, s x h_i.
  const Shape sh = GetParam();
  std::mt19937 rng(41 + uint32_t(sh.s));
  const size_t n = size_t(sh.s * sh.hi);
  auto [g_hi, g_lo] = random_split(rng, n, -8, 8);
  auto [u_hi, u_lo] = random_split(rng, n, -3, 3);
  ElementwiseCase c = elementwise_case(ElementwiseOp::SiluMul, sh.s, sh.hi, {g_hi, g_lo}, {u_hi, u_lo}, true);
  const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 4);
  check_silu_mul(c.a, c.b, r.read(c.plan.out.hi, n), r.read(c.plan.out.lo, n), std::string("silu_mul ") + sh.name);
  if (verbose()) std::printf("silu_mul %s: %llu cycles\n", sh.name, (unsigned long long)r.cycles);
}

// ---- RMSNorm ----

// n = v / sqrt(mean(v^2) + eps) * gamma. Bound (derivation): ss = sum of (vh + vl)^2 - vl^2
// per lane: <= 3u relative per term (v's split 2u, the dropped vl^2 u), fp32 sums of
// cols/16 terms per lane, 5 more adds and + n eps (<= 14 e); the exact division by n;
// rs: half the input's error (1.5u) plus the last Newton step y + y (0.5 - h y^2):
// y^2 3u, h y^2 another 3u, so 3u absolute in 0.5 - h y^2 and 3u relative in rs (the
// previous step's error, about 5e-6, squared is negligible): 4.5u; v rs from split
// parts 3u; its split u (gamma's products are exact, one rounding); the output split u:
// <= 4.5u + 3u + u + u = 9.5u of |n| (12u asserted), plus the fp32 sum of the parts
// (<= 3 e sum|p|, scaled by rs |gamma|).
// Elements of n outside the bound (the first one described in `first`).
size_t rmsnorm_violations(const std::vector<Matrix>& parts, const Matrix& gamma, int64_t rows, int64_t cols, double eps,
                          const Matrix& hi, const Matrix& lo, double rel, std::string& first, double& worst) {
  size_t bad = 0;
  worst = 0;
  for (int64_t r = 0; r < rows; ++r) {
    double ss = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const double v = exact_sum(parts, size_t(r * cols + j));
      ss += v * v;
    }
    const double rs = 1 / std::sqrt(ss / double(cols) + eps);
    for (int64_t j = 0; j < cols; ++j) {
      const size_t i = size_t(r * cols + j);
      const double ref = exact_sum(parts, i) * rs * bf(gamma[size_t(j)]);
      const double bound = rel * std::fabs(ref) + 4 * kE * abs_sum(parts, i) * rs * std::fabs(bf(gamma[size_t(j)]));
      const double got = bf(hi[i]) + bf(lo[i]);
      if (!(std::fabs(got - ref) <= bound) && bad++ == 0)
        first = "row " + std::to_string(r) + " col " + std::to_string(j) + ": " + std::to_string(got) + " vs " + std::to_string(ref);
      if (ref != 0) worst = std::max(worst, std::fabs(got - ref) / std::fabs(ref));
    }
  }
  return bad;
}

void check_rmsnorm(const std::vector<Matrix>& parts, const Matrix& gamma, int64_t rows, int64_t cols, double eps,
                   const Matrix& hi, const Matrix& lo, const std::string& what, double rel = 12 * kU) {
  std::string first;
  double worst = 0;
  EXPECT_EQ(rmsnorm_violations(parts, gamma, rows, cols, eps, hi, lo, rel, first, worst), 0u) << what << ", first: " << first;
  if (verbose()) std::printf("%s: max relative error %.3g u\n", what.c_str(), worst / kU);
}

TEST_P(RowStages, RmsnormOfOnePart) {
  // The decoder's first norm: in = {x}, out split, s x h.
  const Shape sh = GetParam();
  std::mt19937 rng(51 + uint32_t(sh.s));
  const size_t n = size_t(sh.s * sh.h);
  const Matrix x = random_bf16(rng, n, -2, 2), gamma = random_bf16(rng, size_t(sh.h), -1.5, 1.5);
  RmsnormStagePlan p;
  Ddr ddr;
  p.rows = sh.s, p.cols = sh.h;
  p.in = {ddr.input(x)};
  p.gamma = ddr.input(gamma);
  p.out = {ddr.output(n), ddr.output(n)};
  const StageRun r = run_stage(tasks::aie_ml::rmsnorm_stage(p), ddr, 5);
  check_rmsnorm({x}, gamma, sh.s, sh.h, p.eps, r.read(p.out.hi, n), r.read(p.out.lo, n), std::string("rmsnorm {x} ") + sh.name);
  if (verbose()) std::printf("rmsnorm 1 part %s: %llu cycles\n", sh.name, (unsigned long long)r.cycles);
}

TEST_P(RowStages, RmsnormOfAResidualSumWritesTheSumToo) {
  // The decoder's second norm: in = {x, t_hi, t_lo}, sum (x2) split and out split.
  const Shape sh = GetParam();
  std::mt19937 rng(61 + uint32_t(sh.s));
  const size_t n = size_t(sh.s * sh.h);
  const Matrix x = random_bf16(rng, n, -2, 2);
  auto [t_hi, t_lo] = random_split(rng, n, -1, 1);
  const Matrix gamma = random_bf16(rng, size_t(sh.h), 0.5, 1.5);
  RmsnormStagePlan p;
  Ddr ddr;
  p.rows = sh.s, p.cols = sh.h;
  p.in = {ddr.input(x), ddr.input(t_hi), ddr.input(t_lo)};
  p.gamma = ddr.input(gamma);
  p.out = {ddr.output(n), ddr.output(n)};
  p.sum = {ddr.output(n), ddr.output(n)};
  const StageRun r = run_stage(tasks::aie_ml::rmsnorm_stage(p), ddr, 6);
  const std::vector<Matrix> parts = {x, t_hi, t_lo};
  check_rmsnorm(parts, gamma, sh.s, sh.h, p.eps, r.read(p.out.hi, n), r.read(p.out.lo, n),
                std::string("rmsnorm {x, t_hi, t_lo} ") + sh.name);
  check_split(parts, r.read(p.sum.hi, n), r.read(p.sum.lo, n), false, std::string("rmsnorm sum ") + sh.name);
  if (verbose()) std::printf("rmsnorm 3 parts + sum %s: %llu cycles\n", sh.name, (unsigned long long)r.cycles);
}

INSTANTIATE_TEST_SUITE_P(DecoderShapes, RowStages, ::testing::ValuesIn(kShapes),
                         [](const ::testing::TestParamInfo<Shape>& i) { return std::string(i.param.name); });

// ---- part counts and output forms at one shape (C2) ----

TEST(RowStagesParts, SumOfOneToThreeIndependentPartsInBothOutputForms) {
  std::mt19937 rng(71);
  const int64_t rows = 16, cols = 64;
  const size_t n = size_t(rows * cols);
  for (int parts = 1; parts <= 3; ++parts)
    for (bool split_out : {false, true}) {
      std::vector<Matrix> a;
      for (int k = 0; k < parts; ++k) a.push_back(random_bf16(rng, n, -4, 4));
      ElementwiseCase c = elementwise_case(ElementwiseOp::Sum, rows, cols, a, {}, split_out);
      const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 7);
      const std::string what = "sum of " + std::to_string(parts) + (split_out ? " split" : " bf16");
      if (split_out)
        check_split(a, r.read(c.plan.out.hi, n), r.read(c.plan.out.lo, n), false, what);
      else
        check_sum_bf16(a, r.read(c.plan.out.hi, n), what);
    }
}

TEST(RowStagesParts, ReluAndSiluMulWithOtherPartCountsAndABf16Output) {
  std::mt19937 rng(81);
  const int64_t rows = 16, cols = 128;
  const size_t n = size_t(rows * cols);
  {
    // ReLU of a three-part sum, rounded once to bf16: bf16(max(fp32 chain, 0)) exactly.
    std::vector<Matrix> a = {random_bf16(rng, n, -4, 4), random_bf16(rng, n, -1, 1), random_bf16(rng, n, -1, 1)};
    ElementwiseCase c = elementwise_case(ElementwiseOp::Relu, rows, cols, a, {}, false);
    const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 8);
    const Matrix out = r.read(c.plan.out.hi, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], to_bf(std::max(double(fp32_sum(a, i)), 0.0))) << i;
  }
  {
    // SiLU(a) b with one-part a and b, and a = {4 parts} times b = {1 part}.
    std::vector<Matrix> a1 = {random_bf16(rng, n, -8, 8)}, b1 = {random_bf16(rng, n, -2, 2)};
    ElementwiseCase c = elementwise_case(ElementwiseOp::SiluMul, rows, cols, a1, b1, true);
    const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 9);
    check_silu_mul(a1, b1, r.read(c.plan.out.hi, n), r.read(c.plan.out.lo, n), "silu_mul 1 x 1");
    auto [p0, p1] = random_split(rng, n, -5, 5);
    auto [p2, p3] = random_split(rng, n, -1, 1);
    std::vector<Matrix> a4 = {p0, p1, p2, p3};
    ElementwiseCase c4 = elementwise_case(ElementwiseOp::SiluMul, rows, cols, a4, b1, true);
    const StageRun r4 = run_stage(tasks::aie_ml::elementwise_stage(c4.plan), c4.ddr, 10);
    check_silu_mul(a4, b1, r4.read(c4.plan.out.hi, n), r4.read(c4.plan.out.lo, n), "silu_mul 4 x 1");
  }
}

TEST(RowStagesParts, RmsnormOfTwoAndFourPartsWithBf16Outputs) {
  // n rounded once to bf16: within half a bf16 ulp (2^-8 relative) of the fp32 value,
  // which is within 10u of the reference; the sum as one bf16 matrix is bf16 of the fp32
  // sum exactly.
  std::mt19937 rng(91);
  const int64_t rows = 32, cols = 64;
  const size_t n = size_t(rows * cols);
  for (int parts : {2, 4}) {
    std::vector<Matrix> in;
    for (int k = 0; k < parts; ++k) in.push_back(random_bf16(rng, n, -2, 2));
    const Matrix gamma = random_bf16(rng, size_t(cols), 0.5, 1.5);
    RmsnormStagePlan p;
    Ddr ddr;
    p.rows = rows, p.cols = cols;
    for (const auto& m : in) p.in.push_back(ddr.input(m));
    p.gamma = ddr.input(gamma);
    p.out.hi = ddr.output(n);
    p.sum.hi = ddr.output(n);
    const StageRun r = run_stage(tasks::aie_ml::rmsnorm_stage(p), ddr, 11);
    const Matrix out = r.read(p.out.hi, n), sum = r.read(p.sum.hi, n);
    const Matrix zero(n, 0);
    check_rmsnorm(in, gamma, rows, cols, p.eps, out, zero, "rmsnorm bf16 " + std::to_string(parts), 12 * kU + 1.0 / 256);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], to_bf(double(fp32_sum(in, i)))) << i;
  }
}

TEST(RowStagesParts, OddRowCountsAndOneVectorRowsUseOneChain) {
  // rows = 5 (blocks of one row), cols = 16 (one 16-lane vector per row): no second
  // chain to interleave; the results must be the same as ever.
  std::mt19937 rng(95);
  const int64_t rows = 5, cols = 16;
  const size_t n = size_t(rows * cols);
  auto [g_hi, g_lo] = random_split(rng, n, -6, 6);
  auto [u_hi, u_lo] = random_split(rng, n, -2, 2);
  ElementwiseCase c = elementwise_case(ElementwiseOp::SiluMul, rows, cols, {g_hi, g_lo}, {u_hi, u_lo}, true);
  const StageRun r = run_stage(tasks::aie_ml::elementwise_stage(c.plan), c.ddr, 14);
  check_silu_mul(c.a, c.b, r.read(c.plan.out.hi, n), r.read(c.plan.out.lo, n), "silu_mul 5 x 16");
  ElementwiseCase rc = elementwise_case(ElementwiseOp::Relu, rows, cols, {g_hi, g_lo}, {}, true);
  const StageRun rr = run_stage(tasks::aie_ml::elementwise_stage(rc.plan), rc.ddr, 15);
  check_split(rc.a, rr.read(rc.plan.out.hi, n), rr.read(rc.plan.out.lo, n), true, "relu 5 x 16");
  const Matrix gamma = random_bf16(rng, size_t(cols), 0.5, 1.5);
  RmsnormStagePlan p;
  Ddr ddr;
  p.rows = rows, p.cols = cols;
  p.in = {ddr.input(g_hi), ddr.input(g_lo)};
  p.gamma = ddr.input(gamma);
  p.out = {ddr.output(n), ddr.output(n)};
  p.sum = {ddr.output(n), ddr.output(n)};
  const StageRun rn = run_stage(tasks::aie_ml::rmsnorm_stage(p), ddr, 16);
  check_rmsnorm({g_hi, g_lo}, gamma, rows, cols, p.eps, rn.read(p.out.hi, n), rn.read(p.out.lo, n), "rmsnorm 5 x 16");
  check_split({g_hi, g_lo}, rn.read(p.sum.hi, n), rn.read(p.sum.lo, n), false, "rmsnorm sum 5 x 16");
}

// ---- the checks catch broken kernels ----

// Replaces the number on the line of `text` commented `comment` ("MOVXM r4, N    ; comment").
std::string patch_constant(std::string text, const std::string& comment, const std::string& value) {
  const size_t c = text.find("; " + comment + "\n");
  if (c == std::string::npos) return "";
  const size_t line = text.rfind('\n', c) + 1, comma = text.find(", ", line);
  return text.replace(comma + 2, text.find(' ', comma + 2) - comma - 2, value);
}

TEST(RowStagesBroken, RmsnormDividingByNInsteadOfTwoNFails) {
  // h = (ss + n eps) / n instead of / (2n): rs comes out 1/sqrt(2) of the true value, so
  // every element is 29 % off.
  std::mt19937 rng(101);
  const int64_t rows = 16, cols = 64;
  const size_t n = size_t(rows * cols);
  const Matrix x = random_bf16(rng, n, -2, 2), gamma = random_bf16(rng, size_t(cols), 0.5, 1.5);
  RmsnormStagePlan p;
  Ddr ddr;
  p.rows = rows, p.cols = cols;
  p.in = {ddr.input(x)};
  p.gamma = ddr.input(gamma);
  p.out = {ddr.output(n), ddr.output(n)};
  const std::string k = patch_constant(tasks::aie_ml::rmsnorm_stage(p), "(log2(n) + 1) << 23", std::to_string(6u << 23));
  ASSERT_FALSE(k.empty());
  const StageRun r = run_stage(k, ddr, 12);
  std::string first;
  double worst = 0;
  EXPECT_EQ(rmsnorm_violations({x}, gamma, rows, cols, p.eps, r.read(p.out.hi, n), r.read(p.out.lo, n), 12 * kU, first, worst), n);
}

TEST(RowStagesBroken, SiluMulWithoutTheFinalNegationFails) {
  // z = -1/d is used without flipping its sign: out = -SiLU(a) b, wrong wherever it is
  // not zero (everywhere for random inputs).
  std::mt19937 rng(102);
  const int64_t rows = 8, cols = 64;
  const size_t n = size_t(rows * cols);
  auto [g_hi, g_lo] = random_split(rng, n, -8, 8);
  auto [u_hi, u_lo] = random_split(rng, n, -3, 3);
  ElementwiseCase c = elementwise_case(ElementwiseOp::SiluMul, rows, cols, {g_hi, g_lo}, {u_hi, u_lo}, true);
  const std::string k = patch_constant(tasks::aie_ml::elementwise_stage(c.plan), "sign bit of a bf16 lane", "0");
  ASSERT_FALSE(k.empty());
  const StageRun r = run_stage(k, c.ddr, 13);
  std::string first;
  double worst = 0;
  EXPECT_EQ(silu_mul_violations(c.a, c.b, r.read(c.plan.out.hi, n), r.read(c.plan.out.lo, n), first, worst), n);
}

// ---- bad plans ----

TEST(RowStagesPlans, BadPlansAreRefusedWithTheirReason) {
  auto refused = [](const std::function<std::string()>& f, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "accepted; expected: " << needle;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  RmsnormStagePlan r;
  r.rows = 8, r.cols = 48, r.in = {0x1000}, r.gamma = 0x100, r.out = {0x4000, 0x8000};
  refused([&] { return tasks::aie_ml::rmsnorm_stage(r); }, "power of two");
  r.cols = 32, r.in = {};
  refused([&] { return tasks::aie_ml::rmsnorm_stage(r); }, "1 to 4 parts");
  r.in = {0x1000}, r.out = {0x4000, 0x4100};  // 8 x 32 bf16 = 512 bytes: the two overlap
  refused([&] { return tasks::aie_ml::rmsnorm_stage(r); }, "overlap");
  r.out = {0x4000, 0x8000}, r.gamma = 0x4010;
  refused([&] { return tasks::aie_ml::rmsnorm_stage(r); }, "overlaps gamma");

  ElementwiseStagePlan e;
  e.rows = 8, e.cols = 40, e.a = {0x1000}, e.out.hi = 0x8000;
  refused([&] { return tasks::aie_ml::elementwise_stage(e); }, "multiple of 16");
  e.cols = 32, e.b = {0x2000};
  refused([&] { return tasks::aie_ml::elementwise_stage(e); }, "only by SiluMul");
  e.op = ElementwiseOp::SiluMul, e.b = {};
  refused([&] { return tasks::aie_ml::elementwise_stage(e); }, "b must have 1 to 4 parts");
  e.b = {0x2000}, e.out.hi = 0x1100;  // 8 x 32 bf16 from 0x1000 covers 0x1100
  refused([&] { return tasks::aie_ml::elementwise_stage(e); }, "partly overlaps");
  e.out.hi = 0x8002;
  refused([&] { return tasks::aie_ml::elementwise_stage(e); }, "multiples of 4");
  e.out.hi = 0x8000, e.cols = 8192;  // one row of a and b: 32 KB > 16 KB
  refused([&] { return tasks::aie_ml::elementwise_stage(e); }, "16 KB input block");
  EXPECT_EQ(tasks::aie_ml::elementwise_stage_problem(ElementwiseStagePlan{8, 32, ElementwiseOp::Sum, {0x1000}, {}, {0x1000, 0}}), "");
}

}  // namespace
}  // namespace tlmcraft
