// Split-precision options of the AIE-ML matmul kernel (matmul_kernel.h: a_parts, b_parts,
// c_lo_offset), run directly on the platform: K-stacked parts C = sum_p A_p B_p and the
// output as bf16 high + low parts, at the decoder shapes, against a double-precision
// reference from the same bf16 inputs; DDR outside the two outputs must be untouched.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "isa/aie_ml/wait_insertion.h"
#include "tests/baselines/aie_ml_eval_util.h"
#include "platforms/aie_ml/aie_platform.h"
#include "platforms/aie_ml/pack/baselines/matmul_kernel.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

uint16_t bf16(double v) {  // round to nearest even (test values are finite)
  const float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
double from_bf16(uint16_t b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint64_t align64(uint64_t v) { return (v + 63) / 64 * 64; }

struct Inputs {
  std::vector<std::vector<uint16_t>> a, b;  // per part: [batches, M, K] and [batches, K, N] bf16
  std::vector<uint16_t> bias;                // [N] when the plan has a bias
};

// What the run produced and what it must be.
struct SplitRun {
  std::vector<double> hi, lo, want, bound;
  uint64_t cycles = 0;
  int ddr_changes_elsewhere = 0;  // bytes outside C and C_lo that differ after the run
  bool ran = false;
};

// Runs `p` (its part/offset fields set by the caller) on a fresh platform. DDR from 0 to
// the end of the last tensor plus 4 KB is first filled with a marker byte, then the inputs
// are written; after the run only C (and C_lo) may differ.
SplitRun run(const MatmulPlan& p, const Inputs& in) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const int64_t P = in.a.size(), M = p.batches * p.M, K = p.K, N = p.N;  // M: rows of all batches
  const std::vector<uint64_t> a_at = p.a_parts.empty() ? std::vector<uint64_t>{p.a_offset} : p.a_parts;
  const std::vector<uint64_t> b_at = p.b_parts.empty() ? std::vector<uint64_t>{p.b_offset} : p.b_parts;
  uint64_t end = std::max(p.c_offset, p.c_lo_offset) + uint64_t(M * N) * 2;
  for (uint64_t o : a_at) end = std::max(end, o + uint64_t(M * K) * 2);
  for (uint64_t o : b_at) end = std::max(end, o + uint64_t(p.batches * K * N) * 2);
  if (p.has_bias) end = std::max(end, p.bias_offset + uint64_t(N) * 2);
  end += 4096;
  std::vector<uint8_t> image(end, 0xA5);
  const auto put = [&](uint64_t at, const std::vector<uint16_t>& v) { std::memcpy(image.data() + at, v.data(), v.size() * 2); };
  for (int64_t q = 0; q < P; ++q) {
    put(a_at[q], in.a[q]);
    put(b_at[q], in.b[q]);
  }
  if (p.has_bias) put(p.bias_offset, in.bias);

  SplitRun out;
  ::tlmcraft::aie_ml::AiePlatform platform(::tlmcraft::aie_ml::load_aie_config("default"));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  const bool ok = platform.assemble(test::with_default_waits(matmul_kernel(p)), "matmul_split.aie", prog, diags);
  std::string all;
  for (const auto& d : diags) all += d.format() + "\n";
  EXPECT_TRUE(ok) << all;
  if (!ok) return out;
  platform.load(prog);
  platform.write_memory("ddr", 0, image);
  const RunResult r = platform.run(RunLimits{}, TraceOptions{});
  EXPECT_TRUE(r.ok()) << r.message;
  if (!r.ok()) return out;
  out.ran = true;
  out.cycles = r.cycles;
  const std::vector<uint8_t> after = platform.read_memory("ddr", 0, end);
  const auto in_range = [&](uint64_t i, uint64_t at) { return i >= at && i < at + uint64_t(M * N) * 2; };
  for (uint64_t i = 0; i < end; ++i)
    if (!in_range(i, p.c_offset) && !(p.c_lo_offset && in_range(i, p.c_lo_offset)) && after[i] != image[i])
      ++out.ddr_changes_elsewhere;
  const auto value = [&](uint64_t at, int64_t i) { return from_bf16(uint16_t(after[at + 2 * i] | (after[at + 2 * i + 1] << 8))); };

  // Reference in double. Error bound of hi + lo against it:
  // - bf16 x bf16 products are exact in fp32 (8 + 8 significant bits), so the only
  //   accumulation error is fp32 addition of n = P K products (and the bias) in some
  //   order (VMAC adds each product with rounding; the kernels keep partial sums per part
  //   or k-block parity and add them at the end): any summation tree of n + 1 terms has
  //   |acc - ref| <= e = gamma_n S with S = sum |terms| and gamma_n = n u / (1 - n u),
  //   u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, (4.4)).
  // - hi = bf16(acc) (8 significant bits, nearest even: |acc - hi| <= 2^-8 |acc|) and
  //   r = acc - hi is exact in fp32 (Sterbenz: hi is within a factor 2 of acc); lo =
  //   bf16(r) loses at most 2^-8 |r| <= 2^-16 |acc|.
  // So |hi + lo - ref| <= e + 2^-16 (|ref| + e).
  const double u = std::ldexp(1.0, -24), n = double(P * K), gamma = n * u / (1 - n * u);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t j = 0; j < N; ++j) {
      const int64_t b0 = m / p.M * K * N;  // this row's batch of B
      double s = p.has_bias ? from_bf16(in.bias[j]) : 0.0, abs_sum = std::fabs(s);
      for (int64_t q = 0; q < P; ++q)
        for (int64_t k = 0; k < K; ++k) {
          const double t = from_bf16(in.a[q][m * K + k]) * from_bf16(in.b[q][b0 + k * N + j]);
          s += t;
          abs_sum += std::fabs(t);
        }
      const double e = gamma * abs_sum;
      out.want.push_back(s);
      out.bound.push_back(e + std::ldexp(1.0, -16) * (std::fabs(s) + e));
      out.hi.push_back(value(p.c_offset, m * N + j));
      out.lo.push_back(p.c_lo_offset ? value(p.c_lo_offset, m * N + j) : 0.0);
    }
  return out;
}

// Elements outside the bound, and lows that are not a low part (|lo| <= half an ulp of
// hi <= 2^-8 |hi|; hi = 0 forces lo = 0 since |acc| < 2^-133 is not reachable here).
int misses(const SplitRun& r) {
  int bad = 0;
  for (size_t i = 0; i < r.want.size(); ++i) {
    const double got = r.hi[i] + r.lo[i];
    const bool ok = std::fabs(got - r.want[i]) <= r.bound[i] && std::fabs(r.lo[i]) <= std::ldexp(std::fabs(r.hi[i]), -8);
    if (!ok) {
      if (bad < 5)
        ADD_FAILURE() << "element " << i << ": hi " << r.hi[i] << " + lo " << r.lo[i] << " = " << got << ", want "
                      << r.want[i] << " +- " << r.bound[i];
      ++bad;
    }
  }
  return bad;
}

// A decoder-style split activation times a bf16 weight: x (fp32-like, N(0, 1)) kept as
// x_hi + x_lo, W ~ N(0, 1/K). Parts {x_hi, x_lo} x {W, W}.
Inputs split_activation_times_weight(int64_t M, int64_t K, int64_t N, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> dist(0.0, 1.0);
  Inputs in;
  in.a.assign(2, std::vector<uint16_t>(M * K));
  std::vector<uint16_t> w(K * N);
  for (int64_t i = 0; i < M * K; ++i) {
    const double x = float(dist(rng));
    in.a[0][i] = bf16(x);
    in.a[1][i] = bf16(x - from_bf16(in.a[0][i]));
  }
  for (auto& v : w) v = bf16(dist(rng) / std::sqrt(double(K)));
  in.b = {w, w};
  return in;
}

// DDR layout with the parts out of order: A_lo below A_hi, both B parts at one offset
// (the same weight), C_lo below C.
MatmulPlan decoder_plan(int64_t M, int64_t K, int64_t N, uint32_t columns = 1, uint32_t rows = 1) {
  MatmulPlan p;
  p.M = M;
  p.K = K;
  p.N = N;
  p.columns = columns;
  p.rows = rows;
  const uint64_t a = align64(uint64_t(M * K) * 2), b = align64(uint64_t(K * N) * 2), c = align64(uint64_t(M * N) * 2);
  p.a_parts = {a, 0};
  p.b_parts = {2 * a, 2 * a};
  p.c_lo_offset = 2 * a + b;
  p.c_offset = 2 * a + b + c;
  return p;
}

struct DecoderShape {
  const char* config;
  int64_t s, h, hi;  // sequence, model width, MLP width
};
constexpr DecoderShape kShapes[] = {{"C1", 8, 32, 64}, {"C2", 16, 64, 128}, {"C3", 32, 64, 128},
                                    {"C4", 64, 128, 256}, {"C5", 128, 128, 256}};

void expect_exact_split_product(const MatmulPlan& p, const Inputs& in, const std::string& what) {
  const SplitRun r = run(p, in);
  ASSERT_TRUE(r.ran) << what;
  EXPECT_EQ(misses(r), 0) << what;
  EXPECT_EQ(r.ddr_changes_elsewhere, 0) << what << ": bytes outside C and C_lo changed";
  std::printf("[ cycles   ] %s: %llu\n", what.c_str(), static_cast<unsigned long long>(r.cycles));
}

// Every decoder shape, single tile, P = 2 parts and split output: the down projection
// (K = h_i -> K' = 2 h_i, N = h), the up/gate projection (K = h -> K' = 2 h, N = h_i) and
// the attention projections (K = N = h).
// C5's down projection is the largest: K' = 512, so a 32-row A strip is 32 KB (one
// buffer, the limit); B (one weight for both parts) comes in steps of 256 x 8 bf16.
TEST(AieMlMatmulSplit, DecoderShapesWithTwoPartsAndSplitOutput) {
  uint32_t seed = 11;
  for (const DecoderShape& d : kShapes) {
    for (const auto& [K, N] : {std::pair{d.hi, d.h}, std::pair{d.h, d.hi}, std::pair{d.h, d.h}}) {
      const MatmulPlan p = decoder_plan(d.s, K, N);
      expect_exact_split_product(p, split_activation_times_weight(d.s, K, N, seed++),
                                 std::string(d.config) + " M=" + std::to_string(d.s) + " K=2x" + std::to_string(K) +
                                     " N=" + std::to_string(N));
    }
  }
}

// The shared-B core pairs row groups (g, g + G/2) of a strip's G groups: M = 24 gives
// G = 6 (three pairs), K = 16 one loop iteration (two k blocks); M = 12 (G = 3) cannot
// pair and takes the stacked path (B' = [W; W], depth 2K); M = 4 (G = 1) likewise.
TEST(AieMlMatmulSplit, GroupPairingEdges) {
  for (const auto& [M, K, N] : {std::tuple<int64_t, int64_t, int64_t>{24, 64, 32}, {8, 16, 32}, {12, 64, 64}, {4, 32, 32}}) {
    const MatmulPlan p = decoder_plan(M, K, N);
    expect_exact_split_product(p, split_activation_times_weight(M, K, N, uint32_t(M + K)),
                               "M=" + std::to_string(M) + " K=2x" + std::to_string(K) + " N=" + std::to_string(N));
  }
  // Shared B: the tiles' B steps are K x 8 (M = 24: 64 x 8 bf16 = 1 KB); stacked: 2K x 8.
  EXPECT_NE(matmul_kernel(decoder_plan(24, 64, 32)).find("{name: t_b0_0_0, tile: [0, 0], address: 32768, size: 1024}"),
            std::string::npos);
  EXPECT_NE(matmul_kernel(decoder_plan(12, 64, 64)).find("{name: t_b0_0_0, tile: [0, 0], address: 32768, size: 2048}"),
            std::string::npos);
}

// General K-stacking (different B parts, B' = [B_0; B_1]) at an attention-projection
// shape (M = s, K = N = h); each A_p, B_p random.
TEST(AieMlMatmulSplit, DistinctPartsOnBothSides) {
  std::mt19937 rng(5);
  std::normal_distribution<double> dist(0.0, 1.0);
  const int64_t M = 32, K = 64, N = 64;
  Inputs in;
  in.a.assign(2, std::vector<uint16_t>(M * K));
  in.b.assign(2, std::vector<uint16_t>(K * N));
  for (auto& part : in.a)
    for (auto& v : part) v = bf16(dist(rng));
  for (auto& part : in.b)
    for (auto& v : part) v = bf16(dist(rng) / 8);
  MatmulPlan p = decoder_plan(M, K, N);
  p.b_parts = {p.b_parts[0], p.c_offset + 8192};  // B_1 above C
  expect_exact_split_product(p, in, "distinct parts M=32 K=2x64 N=64");
  // The same on 2 x 2 tiles: each tile row's shim reads its 16-row strips (4 rows at a
  // time, part by part), each array column's shim its 32 columns of both B parts.
  p.columns = 2;
  p.rows = 2;
  expect_exact_split_product(p, in, "distinct parts on 2x2 tiles");
}

// One part (no a_parts): only the output is split; the product of bf16 A and B is then
// the fp32 accumulator's hi + lo. Batches and a bias (Linear) combine with it: two
// batches of 16 x 64 x 128 plus a bias.
TEST(AieMlMatmulSplit, SplitOutputWithoutParts) {
  std::mt19937 rng(9);
  std::normal_distribution<double> dist(0.0, 1.0);
  const int64_t M = 16, K = 64, N = 128;
  Inputs in;
  in.a.assign(1, std::vector<uint16_t>(2 * M * K));
  in.b.assign(1, std::vector<uint16_t>(2 * K * N));
  in.bias.resize(N);
  for (auto& v : in.a[0]) v = bf16(dist(rng));
  for (auto& v : in.b[0]) v = bf16(dist(rng) / 8);
  for (auto& v : in.bias) v = bf16(dist(rng));
  MatmulPlan p;
  p.M = M;
  p.K = K;
  p.N = N;
  p.a_offset = 0;
  p.b_offset = uint64_t(2 * M * K) * 2;
  p.c_offset = p.b_offset + uint64_t(2 * K * N) * 2;
  p.c_lo_offset = p.c_offset + uint64_t(2 * M * N) * 2;
  p.bias_offset = p.c_lo_offset + uint64_t(2 * M * N) * 2;
  // One batch without bias, then two batches with it.
  Inputs one = in;
  one.a[0].resize(M * K);
  one.b[0].resize(K * N);
  expect_exact_split_product(p, one, "P=1 split output M=16 K=64 N=128");
  MatmulPlan q = p;
  q.batches = 2;
  q.has_bias = true;
  expect_exact_split_product(q, in, "P=1 split output, 2 batches + bias");
  // a_parts with a single part is the same product through the parts path.
  MatmulPlan r = p;
  r.a_parts = {p.a_offset};
  r.b_parts = {p.b_offset};
  expect_exact_split_product(r, one, "one explicit part M=16 K=64 N=128");
}

// Multi-tile: the C5 down projection on 4 x 4 tiles (N split over columns, M over rows;
// each tile row's shim reads its strips part by part, each column's tiles stream their
// high then low chunks, each column's shim writes C and C_lo).
TEST(AieMlMatmulSplit, SixteenTilesAtTheC5DownProjection) {
  const MatmulPlan p = decoder_plan(128, 256, 128, 4, 4);
  expect_exact_split_product(p, split_activation_times_weight(128, 256, 128, 3), "C5 down on 4x4 tiles");
}

MatmulPlan bad_plan() {
  MatmulPlan p;
  p.M = 16;
  p.K = 64;
  p.N = 64;
  p.a_parts = {0, 4096};
  p.b_parts = {8192, 16384};
  p.c_offset = 32768;
  return p;
}

TEST(AieMlMatmulSplit, RejectsBadPlansWithTheReason) {
  const auto problem = [](const MatmulPlan& p) { return matmul_plan_problem(p); };
  MatmulPlan p = bad_plan();
  EXPECT_EQ(problem(p), "");
  p.b_parts = {8192};
  EXPECT_NE(problem(p).find("a_parts and b_parts must have the same number of parts (got 2 and 1)"), std::string::npos)
      << problem(p);
  EXPECT_THROW(matmul_kernel(p), std::invalid_argument);
  p = bad_plan();
  p.a_parts.clear();
  EXPECT_NE(problem(p).find("(got 0 and 2)"), std::string::npos) << problem(p);
  p = bad_plan();
  p.batches = 2;
  EXPECT_NE(problem(p).find("K-stacked parts need batches = 1"), std::string::npos) << problem(p);
  EXPECT_THROW(matmul_kernel(p), std::invalid_argument);
  p = bad_plan();
  p.has_bias = true;
  EXPECT_NE(problem(p).find("K-stacked parts take no bias"), std::string::npos) << problem(p);
  // C is 16 x 64 bf16 = 2048 bytes at 32768: a low part at 34816 is adjacent, 34752 overlaps.
  p = bad_plan();
  p.c_lo_offset = 34816;
  EXPECT_EQ(problem(p), "");
  p.c_lo_offset = 34752;
  EXPECT_NE(problem(p).find("the low-part output (c_lo_offset) overlaps C"), std::string::npos) << problem(p);
  // C (2048 bytes at 32768) over B_1 (64 x 64 bf16 = 8192 bytes at 16384..24575): 22528
  // overlaps, 24576 does not; likewise the low part.
  p = bad_plan();
  p.c_offset = 22528;
  EXPECT_NE(problem(p).find("C overlaps input part 1 (A or B)"), std::string::npos) << problem(p);
  p.c_offset = 24576;
  EXPECT_EQ(problem(p), "");
  p.c_lo_offset = 4096;  // A_1: 16 x 64 bf16 = 2048 bytes at 4096
  EXPECT_NE(problem(p).find("the low-part output overlaps input part 1 (A or B)"), std::string::npos) << problem(p);
  // K' = 2 x 512 = 1024: a B step of 1024 x 8 bf16 is 16 KB; the message names K' and
  // the plan's part count. (Tensors 1 MB apart: no overlaps.)
  p = bad_plan();
  p.a_parts = {0, 1 << 20};
  p.b_parts = {2 << 20, 3 << 20};
  p.c_offset = 4 << 20;
  p.K = 512;
  EXPECT_NE(problem(p).find("parts=2"), std::string::npos) << problem(p);
  EXPECT_NE(problem(p).find("a B step (K' x 8 bf16, K' = 2 x K = 1024) exceeds 8 KB"), std::string::npos)
      << problem(p);
  // K' = 2 x 256 = 512 fits: 8 KB B steps, and at M = 128 the A strip is lowered to fit
  // 32 KB (32 rows x 512 bf16).
  p.K = 256;
  p.M = 128;
  EXPECT_EQ(problem(p), "");
  // With one B for both parts the B step is K x 8: K = 512 fits (8 KB), the A strip
  // drops to 16 rows (16 x 1024 bf16 = 32 KB).
  p.K = 512;
  p.b_parts = {2 << 20, 2 << 20};
  EXPECT_EQ(problem(p), "");
  EXPECT_NE(matmul_kernel(p).find("{name: t_a0_0_0, tile: [0, 0], address: 0, size: 32768}"), std::string::npos);
}

// The K' = 512 plan at M = 128 takes 32-row strips of 32 KB, one A buffer per tile (the
// tile's A-empty lock starts at 1); at K' = 256 the 16 KB strips are double-buffered.
TEST(AieMlMatmulSplit, StripsShrinkToTheTileMemory) {
  const std::string one = matmul_kernel(decoder_plan(128, 256, 128));
  EXPECT_NE(one.find("{name: t_a0_0_0, tile: [0, 0], address: 0, size: 32768}"), std::string::npos);
  EXPECT_EQ(one.find("name: t_a0_0_1,"), std::string::npos);
  EXPECT_NE(one.find("{tile: [0, 0], id: 1, init: 1}"), std::string::npos);
  const std::string two = matmul_kernel(decoder_plan(128, 128, 256));
  EXPECT_NE(two.find("{name: t_a0_0_1, tile: [0, 0], address: 16384, size: 16384}"), std::string::npos);
  EXPECT_NE(two.find("{tile: [0, 0], id: 1, init: 2}"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::tasks::aie_ml
