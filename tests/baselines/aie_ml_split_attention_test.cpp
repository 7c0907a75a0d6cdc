// AIE-ML split-precision attention stage (platforms/aie_ml/pack/baselines/split_attention.*): the
// kernel runs directly on the platform with random split inputs in DDR; o_hi + o_lo is
// compared with a double-precision reference computed here from the same split values,
// and every DDR byte outside o_hi / o_lo must be unchanged. All five decoder shapes, with
// and without RoPE; 1, 2 or 4 tiles per column; odd row counts, one head, padded keys,
// scores far below the row maximum; broken variants fail; bad plans are refused with
// their reason. AIE_SPLIT_ATTENTION_VERBOSE=1 prints cycles and errors;
// AIE_SPLIT_ATTENTION_PROFILE=<file> (optionally AIE_SPLIT_ATTENTION_PROFILE_S=<s>) writes
// the hot lines and the kernel text.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "isa/aie_ml/wait_insertion.h"
#include "tests/baselines/aie_ml_eval_util.h"
#include "platforms/aie_ml/aie_platform.h"
#include "platforms/aie_ml/pack/baselines/split_attention.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft {
namespace {

using tasks::aie_ml::SplitAttentionPlan;

struct Shape {
  int64_t s, heads, d;
};
// (s, heads, d) of the decoder configurations C1..C5 (d = h / heads).
const Shape kShapes[] = {{8, 2, 16}, {16, 2, 32}, {32, 4, 16}, {64, 4, 32}, {128, 8, 16}};

double bf16(double v) { return tasks::aie_ml_bf16_value(tasks::aie_ml_bf16_bits(v)); }

// A [s, h] matrix as bf16 high + low parts (value = hi + lo, both exactly representable).
struct Split {
  std::vector<double> hi, lo;
  double at(size_t i) const { return hi[i] + lo[i]; }
};

Split random_split(size_t n, double sigma, std::mt19937& rng) {
  std::normal_distribution<double> dist(0.0, sigma);
  Split m;
  for (size_t i = 0; i < n; ++i) {
    const double v = dist(rng);
    m.hi.push_back(bf16(v));
    m.lo.push_back(bf16(v - m.hi.back()));
  }
  return m;
}

std::vector<uint8_t> bytes_of(const std::vector<double>& v) {
  std::vector<uint8_t> b;
  for (double x : v) {
    const uint16_t bits = tasks::aie_ml_bf16_bits(x);
    b.push_back(uint8_t(bits & 0xFF));
    b.push_back(uint8_t(bits >> 8));
  }
  return b;
}

double bf16_at(const std::vector<uint8_t>& b, size_t i) {
  return tasks::aie_ml_bf16_value(uint16_t(b[2 * i] | (b[2 * i + 1] << 8)));
}

struct Outcome {
  double worst = 0;     // max over outputs of |got - want| / scale
  double worst_abs = 0;
  uint64_t cycles = 0;
  std::string failure;  // run fault, moved bytes, or the first element beyond the bound
};

// Error bound per output (derivation); scale = sum_t P[t] |v[t]| (the output's magnitude
// before cancellation), everything fp32 with products of split values:
//   o = (O_hi + O_lo)(r_hi + r_lo): O's split, o's split (2 x 2^-17), the dropped lo lo
//   product (2^-18); O = sum_t E v drops E_lo v_lo (2^-18) and sums s/2 + 6 fp32 terms per
//   chain (s 2^-25 <= 2^-18 at s = 128); E's split (2^-17; z sums the same E_hi + E_lo,
//   s 2^-24 <= 2^-17); r = 1/z after three Newton steps (fp_steps.h: ~1e-7) and r's split
//   (2 x 2^-17); E = 2^t: the degree-4 polynomial's 3.6e-6 plus the Horner steps' splits,
//   about 1e-5 (as attention_tasks.cpp's exp2_precise); t = (S - m) kappa: the split of S - m
//   and kappa's hi + lo give |t| 2^-16, weighted by P[t] <= 2^t (|t| 2^t < 0.53); the
//   score's dropped lo lo products and 3d fp32 adds about 2^-17 of kappa sum |q k|; RoPE's
//   re-split 2 x 2^-17 of q.k. Summed: about 10 x 2^-17 + 1e-5 + 3 x 2^-16 x 0.53 ~ 1.1e-4
//   for scores of moderate size; the bound takes 2e-4. Measured: at most 2.5e-5 (8.7e-5
//   when the scores spread over hundreds, ScoresFarBelowTheRowMaximumGiveZeroWeights).
constexpr double kBound = 2e-4;

// in_place: o_hi / o_lo are q_hi / q_lo's DDR areas (allowed: every input is read before
// the first output is written).
Outcome run_case(const Shape& sh, bool rope, uint32_t seed, const std::function<void(std::string&)>& patch = {},
                 bool in_place = false, int64_t row_tiles = 0, double qk_sigma = 1.1) {
  Outcome out;
  const int64_t s = sh.s, heads = sh.heads, d = sh.d, h = heads * d;
  const size_t n = size_t(s * h);
  std::mt19937 rng(seed);
  // Scores (q.k / sqrt(d)) of about 1.5 standard deviations: a softmax neither flat nor
  // one-hot. v ~ N(0, 1).
  const Split q = random_split(n, qk_sigma, rng), k = random_split(n, qk_sigma, rng), v = random_split(n, 1.0, rng);
  std::vector<double> cosv(size_t(s * d)), sinv(size_t(s * d));
  for (int64_t p = 0; p < s; ++p)
    for (int64_t j = 0; j < d; ++j) {
      const double theta = double(p) * std::pow(10000.0, -2.0 * double(j % (d / 2)) / double(d));
      cosv[size_t(p * d + j)] = bf16(std::cos(theta));
      sinv[size_t(p * d + j)] = bf16(std::sin(theta));
    }
  // DDR plan: every tensor 64-byte aligned with a 64-byte gap after it (gaps must survive).
  SplitAttentionPlan plan;
  plan.s = s, plan.heads = heads, plan.d = d, plan.rope = rope, plan.row_tiles = row_tiles;
  uint64_t at = 0x400;
  auto place = [&](uint64_t bytes) {
    const uint64_t o = at;
    at = (at + bytes + 64 + 63) / 64 * 64;
    return o;
  };
  const uint64_t mbytes = n * 2, tbytes = uint64_t(s * d) * 2;
  plan.q_hi = place(mbytes), plan.q_lo = place(mbytes), plan.k_hi = place(mbytes), plan.k_lo = place(mbytes);
  plan.v_hi = place(mbytes), plan.v_lo = place(mbytes), plan.cos_offset = place(tbytes), plan.sin_offset = place(tbytes);
  plan.o_hi = place(mbytes), plan.o_lo = place(mbytes);
  if (in_place) plan.o_hi = plan.q_hi, plan.o_lo = plan.q_lo;
  const uint64_t window = at + 0x400;
  std::string kernel = tasks::aie_ml::split_attention_kernel(plan);
  if (patch) patch(kernel);
  kernel = test::with_default_waits(kernel);  // the exposed pipeline's waits

  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  aie_ml::AiePlatform platform(aie_ml::load_aie_config("default"));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  if (!platform.assemble(kernel, "split_attention.s", prog, diags)) {
    for (const auto& dg : diags) out.failure += dg.format() + "\n";
    return out;
  }
  platform.load(prog);
  std::vector<uint8_t> image(window);
  for (size_t i = 0; i < image.size(); ++i) image[i] = uint8_t(0x5A ^ (i * 13));  // poison
  auto put = [&](uint64_t o, const std::vector<uint8_t>& b) { std::copy(b.begin(), b.end(), image.begin() + long(o)); };
  put(plan.q_hi, bytes_of(q.hi)), put(plan.q_lo, bytes_of(q.lo)), put(plan.k_hi, bytes_of(k.hi));
  put(plan.k_lo, bytes_of(k.lo)), put(plan.v_hi, bytes_of(v.hi)), put(plan.v_lo, bytes_of(v.lo));
  if (rope) put(plan.cos_offset, bytes_of(cosv)), put(plan.sin_offset, bytes_of(sinv));
  platform.write_memory("ddr", 0, image);
  const RunResult r = platform.run(RunLimits{}, TraceOptions{});
  if (!r.ok()) {
    out.failure = "run stopped: " + r.message;
    return out;
  }
  out.cycles = r.cycles;
  const char* dump = std::getenv("AIE_SPLIT_ATTENTION_PROFILE");
  const char* only = std::getenv("AIE_SPLIT_ATTENTION_PROFILE_S");  // profile this s only
  if (dump && (!only || std::atoi(only) == s)) {
    // Hot lines (issue-to-issue cycles, summed over the tiles) and the kernel text.
    if (FILE* f = std::fopen(dump, "w")) {
      for (size_t i = 0; i < r.lines.size(); ++i)
        std::fprintf(f, "line %u: %llu executions, %llu cycles\n", r.lines[i].line,
                     (unsigned long long)r.lines[i].executions, (unsigned long long)r.lines[i].cycles);
      std::fprintf(f, "%s", kernel.c_str());
      std::fclose(f);
    }
  }
  const std::vector<uint8_t> after = platform.read_memory("ddr", 0, window);
  for (uint64_t i = 0; i < window; ++i) {
    const bool in_o = (i >= plan.o_hi && i < plan.o_hi + mbytes) || (i >= plan.o_lo && i < plan.o_lo + mbytes);
    if (!in_o && after[i] != image[i]) {
      out.failure = "DDR byte " + std::to_string(i) + " outside o_hi / o_lo changed";
      return out;
    }
  }
  const std::vector<uint8_t> ohi(after.begin() + long(plan.o_hi), after.begin() + long(plan.o_hi + mbytes));
  const std::vector<uint8_t> olo(after.begin() + long(plan.o_lo), after.begin() + long(plan.o_lo + mbytes));

  // Reference in double from the same split values.
  auto rotated = [&](const Split& x) {
    std::vector<double> y(n);
    for (size_t i = 0; i < n; ++i) y[i] = x.at(i);
    if (!rope) return y;
    for (int64_t p = 0; p < s; ++p)
      for (int64_t j0 = 0; j0 < h; j0 += d)
        for (int64_t j = 0; j < d; ++j) {
          const size_t i = size_t(p * h + j0 + j);
          const double rot = j < d / 2 ? -x.at(i + size_t(d / 2)) : x.at(i - size_t(d / 2));
          y[i] = x.at(i) * cosv[size_t(p * d + j)] + rot * sinv[size_t(p * d + j)];
        }
    return y;
  };
  const std::vector<double> qr = rotated(q), kr = rotated(k);
  std::vector<double> sc(static_cast<size_t>(s)), pw(static_cast<size_t>(s));
  for (int64_t j = 0; j < heads; ++j)
    for (int64_t i = 0; i < s; ++i) {
      double mx = -1e300, z = 0;
      for (int64_t t = 0; t < s; ++t) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c) dot += qr[size_t(i * h + j * d + c)] * kr[size_t(t * h + j * d + c)];
        sc[size_t(t)] = dot / std::sqrt(double(d));
        mx = std::max(mx, sc[size_t(t)]);
      }
      for (int64_t t = 0; t < s; ++t) z += pw[size_t(t)] = std::exp(sc[size_t(t)] - mx);
      for (int64_t c = 0; c < d; ++c) {
        double o = 0, scale = 0;
        for (int64_t t = 0; t < s; ++t) {
          const double vv = v.at(size_t(t * h + j * d + c));
          o += pw[size_t(t)] / z * vv;
          scale += pw[size_t(t)] / z * std::fabs(vv);
        }
        const size_t e = size_t(i * h + j * d + c);
        const double got = bf16_at(ohi, e) + bf16_at(olo, e);
        const double err = std::fabs(got - o);
        if (!(err <= kBound * scale) && out.failure.empty())
          out.failure = "o[" + std::to_string(i) + ", " + std::to_string(j * d + c) + "] = " + std::to_string(got) +
                        ", reference " + std::to_string(o) + " (error " + std::to_string(err / scale) + " of the scale)";
        if (!(err / scale <= out.worst)) out.worst = err / scale;
        out.worst_abs = std::max(out.worst_abs, err);
      }
    }
  return out;
}

std::string name(const Shape& sh, bool rope) {
  return "(s=" + std::to_string(sh.s) + ", heads=" + std::to_string(sh.heads) + ", d=" + std::to_string(sh.d) +
         (rope ? ", rope)" : ")");
}

void expect_pass(const Shape& sh, bool rope) {
  const Outcome o = run_case(sh, rope, uint32_t(1000 + sh.s + sh.d + (rope ? 7 : 0)));
  EXPECT_TRUE(o.failure.empty()) << name(sh, rope) << ": " << o.failure;
  EXPECT_GT(o.cycles, 0u);
  if (std::getenv("AIE_SPLIT_ATTENTION_VERBOSE"))
    std::printf("split attention %s: cycles %llu, max error %.3g of the scale (%.3g absolute)\n", name(sh, rope).c_str(),
                (unsigned long long)o.cycles, o.worst, o.worst_abs);
}

TEST(AieMlSplitAttention, EveryDecoderShapeWithoutRope) {
  for (const Shape& sh : kShapes) expect_pass(sh, false);
}

TEST(AieMlSplitAttention, EveryDecoderShapeWithRope) {
  for (const Shape& sh : kShapes) expect_pass(sh, true);
}

TEST(AieMlSplitAttention, OutputsMayOverwriteQ) {
  const Outcome o = run_case(kShapes[2], true, 77, {}, true);
  EXPECT_TRUE(o.failure.empty()) << o.failure;
}

// Replaces every `from` in the kernel text by `to`; the test fails if there is none.
std::function<void(std::string&)> replace_every(const std::string& from, const std::string& to) {
  return [from, to](std::string& k) {
    size_t n = 0;
    for (size_t at = k.find(from); at != std::string::npos; at = k.find(from, at + to.size()), ++n) k.replace(at, from.size(), to);
    ASSERT_GT(n, 0u) << "'" << from << "' is not in the kernel";
  };
}

TEST(AieMlSplitAttention, WithoutTheLowPartsOfQAndPTheBoundFails) {
  // x5 carries the broadcast low part of q (scores) and of P (P V): cleared instead, the
  // lo hi products vanish and the outputs are off by about 2^-9 of their scale, ten
  // times the bound.
  const Outcome o = run_case(kShapes[1], false, 5, replace_every("VBCST.16 x5, r14", "VCLR x5"));
  EXPECT_NE(o.failure.find("of the scale"), std::string::npos) << o.failure;
}

TEST(AieMlSplitAttention, RopeWithoutTheSinSignFails) {
  // Without negating sin's first half, y1 = x1 cos + x2 sin instead of x1 cos - x2 sin.
  for (const Shape& sh : {kShapes[0], kShapes[1]}) {
    const Outcome o = run_case(sh, true, 9, replace_every("VADD.16 x0, x0, x1", "NOP"));
    EXPECT_NE(o.failure.find("of the scale"), std::string::npos) << name(sh, true) << ": " << o.failure;
  }
}

TEST(AieMlSplitAttention, HeadsAreSpreadOverColumnsAndQueryRowsOverTilesOfAColumn) {
  // gcd(heads, 4) columns; up to 4 tiles per column (rows 0..3) share the query rows:
  // heads = 2 -> columns 0, 1; heads = 8 -> 0..3; heads = 3 -> column 0 only.
  SplitAttentionPlan p;
  p.s = 16, p.d = 16, p.heads = 2, p.o_hi = 0x10000, p.o_lo = 0x20000;
  std::string k = tasks::aie_ml::split_attention_kernel(p);
  EXPECT_NE(k.find(".tile 1 3"), std::string::npos);
  EXPECT_EQ(k.find(".tile 2 0"), std::string::npos);
  EXPECT_NE(k.find("query rows 12..15"), std::string::npos);
  p.heads = 8;
  k = tasks::aie_ml::split_attention_kernel(p);
  EXPECT_NE(k.find(".tile 3 0"), std::string::npos);
  p.heads = 3;
  k = tasks::aie_ml::split_attention_kernel(p);
  EXPECT_EQ(k.find(".tile 1 0"), std::string::npos);
  p.row_tiles = 2;  // rows 0..7 on tile [0, 0], 8..15 on [0, 1]
  k = tasks::aie_ml::split_attention_kernel(p);
  EXPECT_NE(k.find(".tile 0 1"), std::string::npos);
  EXPECT_EQ(k.find(".tile 0 2"), std::string::npos);
}

TEST(AieMlSplitAttention, ScoresFarBelowTheRowMaximumGiveZeroWeights) {
  // q, k ~ N(0, 6^2), d = 32: scores q.k / sqrt(32) have a standard deviation of about
  // 200, so many keys sit more than 126 / log2(e) ~ 87 below the row's maximum, where
  // 2^t leaves the fp32 exponent range: their weights must come out as (almost) zero.
  const Outcome o = run_case(kShapes[1], false, 3, {}, false, 0, 6.0);
  EXPECT_TRUE(o.failure.empty()) << o.failure;
  if (std::getenv("AIE_SPLIT_ATTENTION_VERBOSE"))
    std::printf("split attention, wide scores: max error %.3g of the scale\n", o.worst);
}

TEST(AieMlSplitAttention, OtherShapes) {
  // s = 12 (four padding keys in the 16-key block) on four tiles per column: 3 query rows
  // per tile, so RoPE takes the one-row step for q; heads = 1 runs one column; heads = 3
  // runs three heads on one column (packages 0, 1, 0); s = 48 has three key blocks (three
  // 2^t chains), s = 80 five (one chain, five steps) and 20 rows per tile (groups of 10).
  for (const Shape& sh : {Shape{12, 2, 16}, Shape{12, 1, 32}, Shape{16, 3, 16}, Shape{48, 2, 16}, Shape{80, 1, 16}}) {
    const Outcome o = run_case(sh, true, 17);
    EXPECT_TRUE(o.failure.empty()) << name(sh, true) << ": " << o.failure;
  }
}

TEST(AieMlSplitAttention, OneTwoOrFourTilesPerColumnAllPass) {
  for (int64_t r : {1, 2, 4}) {
    const Outcome o = run_case(kShapes[2], true, 31, {}, false, r);
    EXPECT_TRUE(o.failure.empty()) << "row_tiles " << r << ": " << o.failure;
  }
}

TEST(AieMlSplitAttention, BadPlansAreRefusedWithTheirReason) {
  auto refused = [](SplitAttentionPlan p, const std::string& why) {
    EXPECT_NE(tasks::aie_ml::split_attention_problem(p).find(why), std::string::npos)
        << why << " / " << tasks::aie_ml::split_attention_problem(p);
    try {
      tasks::aie_ml::split_attention_kernel(p);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  SplitAttentionPlan ok;
  ok.s = 32, ok.heads = 4, ok.d = 16, ok.o_hi = 0x10000, ok.o_lo = 0x20000;
  EXPECT_EQ(tasks::aie_ml::split_attention_problem(ok), "");
  SplitAttentionPlan p = ok;
  p.d = 24;
  refused(p, "head size d must be 16 or 32");
  p = ok, p.s = 20;
  refused(p, "s above 16 must be a multiple of 16");
  p = ok, p.s = 6;
  refused(p, "s must be a positive multiple of 4");
  p = ok, p.heads = 0;
  refused(p, "heads must be at least 1");
  p = ok, p.s = 256;  // six [256, 16] parts = 48 KB
  refused(p, "exceeds the 24 KB package buffer");
  p = ok, p.row_tiles = 3;
  refused(p, "row_tiles must divide s");
  p = ok, p.row_tiles = 5;
  refused(p, "row_tiles must be 0 (automatic) or 1..4");
  p = ok, p.k_lo = 0x102;
  refused(p, "k_lo is not a multiple of 4");
  p = ok, p.o_lo = p.o_hi + 64;  // o_hi is 32 x 64 x 2 = 4 KB long
  refused(p, "o_hi and o_lo overlap");
}

}  // namespace
}  // namespace tlmcraft
