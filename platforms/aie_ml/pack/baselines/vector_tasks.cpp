// AIE-ML baselines for the vector tasks (elementwise, normalisation, softmax): single-tile
// kernels on compute tile (0,0) that rely on the task's default data movement
// (platforms/aie_ml/pack/layout_aie_ml.h): input blocks arrive in ping/pong buffers, output blocks leave
// from ping/pong buffers, synchronised by the tile's locks.
#include <cmath>
#include <sstream>
#include <functional>
#include <stdexcept>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {

namespace {

// ReLU: y = max(x, 0) on 16 bf16 lanes at a time; x2 holds zeros. VMAX.BF16 works on
// 512-bit registers; only the low half (w0 -> w2) carries data.
std::string relu(const Instance& inst, const nlohmann::json&) {
  const AieMlLayout layout(inst.task(), inst.params());
  BlockLoop k(layout, "relu");
  k.setup("VCLR x2", "zeros for max(x, 0)");
  const uint64_t vectors = layout.movement().in_slice_elems[0] / 16;
  k.pass(/*produces_output=*/true, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0", "x block");
    t.op("MOV p1, r1", "y block");
    t.zero_overhead_loop(tag, vectors, {"VLDA w0, [p0], #32", "VMAX.BF16 x1, x0, x2", "VST w2, [p1], #32"});
  });
  return k.text();
}

// y = x * sigmoid(z) = x / (1 + 2^t) with t = -z log2(e) in fp32; `exponent` writes t
// into bm1 from the bf16 input in w0 (x2 may be clobbered: w4..w9, bm0, bm2, bm7).
std::string x_sigmoid(const Instance& inst, const std::string& task,
                      const std::function<void(KernelText&)>& constants,
                      const std::function<void(KernelText&)>& exponent) {
  const AieMlLayout layout(inst.task(), inst.params());
  BlockLoop k(layout, task);
  KernelText& c = k.code();
  k.setup("NOP", "constants");
  fp_constants(c);
  constants(c);
  const uint64_t vectors = layout.movement().in_slice_elems[0] / 16;
  k.pass(true, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0", "x block");
    t.op("MOV p1, r1", "y block");
    t.begin_loop(tag, vectors);
    t.op("VLDA w0, [p0], #32", "16 x (bf16)");
    exponent(t);
    exp2(t, "bm2", "bm1");
    t.op("VADD.F bm2, bm2, bm14", "1 + 2^t");
    recip(t, "bm8", "bm2");
    split(t, "bm8", "w6", "w7", "bm7");
    t.op("VMUL.E.BF16 bm10, w0, w6", "x / (1 + 2^t)");
    t.op("VMAC.E.BF16 bm10, bm10, w0, w7");
    t.loop_last("VST.CONV.BF16.FP32 bm10, [p1], #32", "16 y (bf16)");
  });
  return k.text();
}

// SiLU: y = x sigmoid(x); t = -x log2(e) with the constant split into bf16 hi + lo.
std::string silu(const Instance& inst, const nlohmann::json&) {
  const double c = -1.0 / std::log(2.0);
  return x_sigmoid(
      inst, "silu",
      [&](KernelText& t) {
        const_bf16(t, "w17", bf16_bits(c), "-log2(e), high part");
        const_bf16(t, "w18", bf16_low_bits(c), "-log2(e), low part");
      },
      [](KernelText& t) {
        t.op("VMUL.E.BF16 bm1, w0, w17", "t = -x log2(e)");
        t.op("VMAC.E.BF16 bm1, bm1, w0, w18");
      });
}

// GELU (tanh form): 0.5 x (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3),
// so t = -2u log2(e) = K (x + a x^3) with K = -2 sqrt(2/pi) log2(e).
std::string gelu(const Instance& inst, const nlohmann::json&) {
  const double kk = -2.0 * std::sqrt(2.0 / M_PI) / std::log(2.0), a = 0.044715;
  return x_sigmoid(
      inst, "gelu",
      [&](KernelText& t) {
        const_bf16(t, "w17", bf16_bits(kk), "K = -2 sqrt(2/pi) log2(e), high part");
        const_bf16(t, "w18", bf16_low_bits(kk), "K, low part");
        const_bf16(t, "w19", bf16_bits(a), "0.044715, high part");
        const_bf16(t, "w20", bf16_low_bits(a), "0.044715, low part");
      },
      [](KernelText& t) {
        t.op("VMUL.E.BF16 bm0, w0, w0", "x^2 (exact)");
        split(t, "bm0", "w4", "w5", "bm7");
        t.op("VMUL.E.BF16 bm1, w4, w0", "x^3");
        t.op("VMAC.E.BF16 bm1, bm1, w5, w0");
        split(t, "bm1", "w4", "w5", "bm7");
        mul_split(t, "bm1", "w4", "w5", "w19", "w20");
        t.op("VCONV.FP32.BF16 bm0, w0", "x (fp32)");
        t.op("VADD.F bm1, bm1, bm0", "x + a x^3");
        split(t, "bm1", "w4", "w5", "bm7");
        mul_split(t, "bm1", "w4", "w5", "w17", "w18");
      });
}

// Points p<n> at the input block's slice `i` (r0 + its offset in the block).
void point_at_slice(KernelText& t, const AieMlMovementPlan& plan, size_t i, const std::string& p) {
  t.op("MOVXM r6, " + std::to_string(plan.in_slice_offset.at(i)), plan.in_names.at(i) + " slice");
  t.op("ADD r5, r0, r6");
  t.op("MOV " + p + ", r5");
}

// bm = bm * 2^-k for a power of two given as bf16 (exact): split, two products.
void scale_by_bf16(KernelText& t, const std::string& bm, double factor) {
  t.op("MOVXM r4, " + std::to_string(bf16_bits(factor)));
  t.op("VBCST.16 x7, r4");
  split(t, bm, "w4", "w5", "bm7");
  t.op("VMUL.E.BF16 " + bm + ", w4, w14");
  t.op("VMAC.E.BF16 " + bm + ", " + bm + ", w5, w14");
}

// RMSNorm (2 passes): sum of squares in 16 fp32 lanes (bm10), then
// rs = 1 / sqrt(sum / n + eps) (n is a power of two: 1/n is exact), y = (x rs) gamma.
// LayerNorm (2 passes): sum (bm11) and sum of squares (bm10) together; mean = s1 / n,
// var = s2 / n - mean^2, rs = 1 / sqrt(var + eps), y = ((x - mean) rs) gamma + beta.
std::string normalisation(const Instance& inst, bool layer) {
  const AieMlLayout layout(inst.task(), inst.params());
  const AieMlMovementPlan& plan = layout.movement();
  const std::string task = layer ? "layernorm" : "rmsnorm";
  const double n = double(inst.params().at("n")), eps = layer ? 1e-5 : 1e-6;
  if (std::exp2(std::round(std::log2(n))) != n) throw std::invalid_argument("aie_ml " + task + " baseline: n must be a power of two");
  BlockLoop k(layout, task);
  KernelText& c = k.code();
  k.setup("VCLR bm10", "sum of x^2 per lane");
  c.op("VCLR bm11", "sum of x per lane");
  fp_constants(c);
  const_bf16(c, "w20", bf16_bits(1.0), "1.0 (bf16)");
  const uint64_t vectors = plan.in_slice_elems[0] / 16;
  k.pass(false, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0", "x slice");
    t.begin_loop(tag, vectors);
    t.op("VLDA w0, [p0], #32");
    if (layer) t.op("VMAC.E.BF16 bm11, bm11, w0, w20", "sum x");
    t.loop_last("VMAC.E.BF16 bm10, bm10, w0, w0", "sum x^2");
  });
  c.comment("statistics");
  reduce_sum_fp32(c, "bm10", "bm7");
  scale_by_bf16(c, "bm10", 1.0 / n);  // mean of squares
  if (layer) {
    reduce_sum_fp32(c, "bm11", "bm7");
    scale_by_bf16(c, "bm11", 1.0 / n);  // mean
    c.op("VMOV bm17, bm11", "mean, kept for the output pass");
    split(c, "bm11", "w4", "w5", "bm7");
    mul_split(c, "bm9", "w4", "w5", "w4", "w5");
    c.op("VSUB.F bm10, bm10, bm9", "var = E[x^2] - mean^2");
  }
  const_acc(c, "bm9", fp32_bits(eps), "eps");
  c.op("VADD.F bm10, bm10, bm9");
  rsqrt_uniform(c, "bm11", "bm10");
  split(c, "bm11", "w17", "w18", "bm7");
  k.pass(true, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0", "x slice");
    point_at_slice(t, plan, 1, "p2");
    if (layer) point_at_slice(t, plan, 2, "p3");
    t.op("MOV p1, r1", "y block");
    t.begin_loop(tag, vectors);
    t.op("VLDA w0, [p0], #32 ;; VLDB w1, [p2], #32", "x, gamma");
    if (layer) {
      t.op("VLDA w2, [p3], #32", "beta");
      t.op("VCONV.FP32.BF16 bm0, w0");
      t.op("VSUB.F bm0, bm0, bm17", "x - mean");
      split(t, "bm0", "w4", "w5", "bm7");
      mul_split(t, "bm1", "w4", "w5", "w17", "w18");
    } else {
      t.op("VMUL.E.BF16 bm1, w0, w17", "x rs");
      t.op("VMAC.E.BF16 bm1, bm1, w0, w18");
    }
    split(t, "bm1", "w4", "w5", "bm7");
    t.op("VMUL.E.BF16 bm2, w4, w1", "* gamma");
    t.op("VMAC.E.BF16 bm2, bm2, w5, w1");
    if (layer) {
      t.op("VCONV.FP32.BF16 bm3, w2");
      t.op("VADD.F bm2, bm2, bm3", "+ beta");
    }
    t.loop_last("VST.CONV.BF16.FP32 bm2, [p1], #32");
  });
  return k.text();
}

std::string rmsnorm(const Instance& inst, const nlohmann::json&) { return normalisation(inst, false); }
std::string layernorm(const Instance& inst, const nlohmann::json&) { return normalisation(inst, true); }

// Softmax (3 passes): m = max(x) over 32 bf16 lanes; s = sum 2^((x - m) log2(e)) in 16
// fp32 lanes; y = 2^((x - m) log2(e)) / s with 1/s by Newton steps.
std::string softmax(const Instance& inst, const nlohmann::json&) {
  const AieMlLayout layout(inst.task(), inst.params());
  const AieMlMovementPlan& plan = layout.movement();
  if (plan.in_slice_elems[0] % 32) throw std::invalid_argument("aie_ml softmax baseline: blocks must hold a multiple of 32 elements");
  BlockLoop k(layout, "softmax");
  KernelText& c = k.code();
  k.setup("MOVXM r4, " + std::to_string(0xFF80), "-inf (bf16)");
  c.op("VBCST.16 x5, r4", "running maximum, 32 lanes");
  c.op("VCLR bm10", "sum per lane");
  fp_constants(c);
  const double l = 1.0 / std::log(2.0);
  const_bf16(c, "w17", bf16_bits(l), "log2(e), high part");
  const_bf16(c, "w18", bf16_low_bits(l), "log2(e), low part");
  const uint64_t e = plan.in_slice_elems[0];
  k.pass(false, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0");
    t.begin_loop(tag, e / 32);
    t.op("VLDA w0, [p0], #32");
    t.op("VLDA w1, [p0], #32");
    t.loop_last("VMAX.BF16 x5, x5, x0");
  });
  reduce_max_bf16(c, "x5");
  c.op("VCONV.FP32.BF16 bm17, w10", "m (fp32, every lane)");
  auto exponential = [](KernelText& t) {
    t.op("VLDA w0, [p0], #32");
    t.op("VCONV.FP32.BF16 bm0, w0");
    t.op("VSUB.F bm0, bm0, bm17", "x - m (exact)");
    split(t, "bm0", "w4", "w5", "bm7");
    mul_split(t, "bm1", "w4", "w5", "w17", "w18");
    exp2(t, "bm2", "bm1");
  };
  k.pass(false, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0");
    t.begin_loop(tag, e / 16);
    exponential(t);
    t.loop_last("VADD.F bm10, bm10, bm2", "sum");
  });
  reduce_sum_fp32(c, "bm10", "bm7");
  recip(c, "bm11", "bm10");
  split(c, "bm11", "w19", "w20", "bm7");
  k.pass(true, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0");
    t.op("MOV p1, r1");
    t.begin_loop(tag, e / 16);
    exponential(t);
    split(t, "bm2", "w4", "w5", "bm7");
    mul_split(t, "bm9", "w4", "w5", "w19", "w20");
    t.loop_last("VST.CONV.BF16.FP32 bm9, [p1], #32");
  });
  return k.text();
}

}  // namespace

GeneratorMap vector_generators() {
  return {{"relu", relu}, {"silu", silu}, {"gelu", gelu}, {"softmax", softmax}, {"layernorm", layernorm}, {"rmsnorm", rmsnorm}};
}

}  // namespace tlmcraft::tasks::aie_ml
