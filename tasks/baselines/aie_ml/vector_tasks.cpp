// AIE-ML baselines for the vector tasks (elementwise, normalisation, softmax): single-tile
// kernels on compute tile (0,0) that rely on the task's default data movement
// (tasks/layout_aie_ml.h): input blocks arrive in ping/pong buffers, output blocks leave
// from ping/pong buffers, synchronised by the tile's locks.
#include <cmath>
#include <sstream>
#include <functional>
#include <stdexcept>

#include "tasks/baselines/aie_ml/block_loop.h"
#include "tasks/baselines/aie_ml/fp_steps.h"
#include "tasks/baselines/aie_ml/generators.h"
#include "tasks/layout_aie_ml.h"

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

}  // namespace

GeneratorMap vector_generators() { return {{"relu", relu}, {"silu", silu}, {"gelu", gelu}}; }

}  // namespace tlmcraft::tasks::aie_ml
