// AIE-ML baselines for the level-2 "mlp" group:
// - RoPE: single tile (0,0), the task's default data movement (every block holds whole
//   rows of x, cos and sin).
// - FFN: two stages of the matmul kernel (matmul_kernel.h, one tile each) in one kernel
//   file, see mlp_stages.h: stage 1 (column 0) s = SiLU(x W1) into a DDR scratch area
//   beyond the layout's last tensor, stage 2 (column 1) y = s W2.
// - SwiGLU: four stages in columns 0..3 (mlp_stages.h: swiglu_split_mlp) with every
//   intermediate as bf16 high + low parts: with any of s, u or a rounded to bf16 before
//   W_down, a few elements per configuration miss the AIE-ML tolerance.
#include <sstream>
#include <stdexcept>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/mlp_stages.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {

namespace {

// Points r<n> at slice `i` of the current input block (r0 + its offset).
void input_slice(KernelText& t, const AieMlMovementPlan& plan, size_t i, const std::string& r) {
  t.op("MOVXM r4, " + std::to_string(plan.in_slice_offset.at(i)), plan.in_names.at(i) + " slice");
  t.op("ADD " + r + ", r0, r4");
}

// RoPE, rotate-half form, per row of h values (x1 = first half, x2 = second half):
//   y1 = x1 cos1 - x2 sin1,  y2 = x2 cos2 + x1 sin2.
// Products of two bf16 are exact in fp32 (VMUL.E / VMAC.E), so each output is one fp32
// sum rounded to bf16 (the reference rounds once too). Rows of h >= 32 take their halves
// as whole 16-lane vectors at offsets 0 and h bytes; a row of h = 16 is one vector, whose
// halves are swapped with VSHIFT and whose two sign patterns are merged with VSEL.16 after
// a round trip through scratch memory (both results already rounded to bf16).
std::string rope(const Instance& inst, const nlohmann::json&) {
  const AieMlLayout layout(inst.task(), inst.params());
  const AieMlMovementPlan& plan = layout.movement();
  const int64_t h = inst.params().at("h");
  const uint64_t e = plan.in_slice_elems.at(0);
  if (h != 16 && h % 32 != 0) throw std::invalid_argument("aie_ml rope baseline: h must be 16 or a multiple of 32");
  if (e % uint64_t(h) != 0) throw std::invalid_argument("aie_ml rope baseline: a block must hold whole rows");
  if (h * 2 > 4064) throw std::invalid_argument("aie_ml rope baseline: h too large for vector offsets");
  const uint64_t rows = e / uint64_t(h);
  BlockLoop k(layout, "rope");
  KernelText& c = k.code();
  k.setup("MOVXM r9, " + std::to_string(2 * h), "bytes per row");
  const uint32_t scratch = kAieMlOwnTileBase + plan.scratch;
  if (h == 16) {
    c.op("MOVXM r10, " + std::to_string(0xFF00), "VSEL mask: lanes 8..15 take the '+' result");
    c.op("MOVXM r11, " + std::to_string(scratch), "scratch: the two sign variants of a row");
  }
  k.pass(true, [&](KernelText& t, const std::string& tag) {
    input_slice(t, plan, 0, "r5");
    input_slice(t, plan, 1, "r6");
    input_slice(t, plan, 2, "r7");
    t.op("MOVXM r4, " + std::to_string(plan.out_slice_offset.at(0)), "y slice");
    t.op("ADD r8, r1, r4");
    t.begin_loop(tag, rows);
    t.op("MOV p0, r5", "x row");
    t.op("MOV p2, r6", "cos row");
    t.op("MOV p3, r7", "sin row");
    t.op("MOV p1, r8", "y row");
    if (h == 16) {
      t.op("VLDA w0, [p0, #0] ;; VLDB w1, [p0, #0]", "x row twice: x0 = x:x");
      t.op("VLDA w6, [p2, #0] ;; VLDB w7, [p3, #0]", "cos, sin");
      t.op("VSHIFT x2, x0, x0, 16", "w4 = [x2 | x1] (rotate by 8 lanes)");
      t.op("VMUL.E.BF16 bm0, w0, w6", "x cos");
      t.op("VMUL.E.BF16 bm1, w4, w7", "[x2 | x1] sin");
      t.op("VSUB.F bm2, bm0, bm1", "x cos - rot sin (right for lanes 0..7)");
      t.op("VADD.F bm3, bm0, bm1", "x cos + rot sin (right for lanes 8..15)");
      t.op("MOV p4, r11");
      t.op("VST.CONV.BF16.FP32 bm2, [p4, #0]");
      t.op("VST.CONV.BF16.FP32 bm3, [p4, #32]");
      t.op("VLDA w8, [p4, #0] ;; VLDB w10, [p4, #32]");
      t.op("VSEL.16 x6, x4, x5, r10", "lanes 0..7 '-', 8..15 '+'");
      t.op("VST w12, [p1, #0]");
    } else {
      for (int64_t i = 0; i < h / 32; ++i) {
        const std::string o1 = "#" + std::to_string(32 * i), o2 = "#" + std::to_string(h + 32 * i);
        t.op("VLDA w0, [p0, " + o1 + "] ;; VLDB w1, [p0, " + o2 + "]", "x1, x2 (16 lanes each)");
        t.op("VLDA w2, [p2, " + o1 + "] ;; VLDB w3, [p3, " + o1 + "]", "cos1, sin1");
        t.op("VMUL.E.BF16 bm0, w0, w2", "x1 cos1");
        t.op("VMUL.E.BF16 bm1, w1, w3", "x2 sin1");
        t.op("VSUB.F bm0, bm0, bm1");
        t.op("VST.CONV.BF16.FP32 bm0, [p1, " + o1 + "]", "y1");
        t.op("VLDA w2, [p2, " + o2 + "] ;; VLDB w3, [p3, " + o2 + "]", "cos2, sin2");
        t.op("VMUL.E.BF16 bm2, w1, w2", "x2 cos2");
        t.op("VMAC.E.BF16 bm2, bm2, w0, w3", "+ x1 sin2");
        t.op("VST.CONV.BF16.FP32 bm2, [p1, " + o2 + "]", "y2");
      }
    }
    t.op("ADD r5, r5, r9", "next rows");
    t.op("ADD r6, r6, r9");
    t.op("ADD r7, r7, r9");
    t.loop_last("ADD r8, r8, r9");
  });
  return k.text();
}

// FFN: y = SiLU(x W1) W2 (stage layout in mlp_stages.h).
std::string ffn(const Instance& inst, const nlohmann::json&) {
  const AieMlLayout layout(inst.task(), inst.params());
  const int64_t n = inst.params().at("n"), h = inst.params().at("h"), hi = inst.params().at("h_i");
  const uint64_t scratch = layout.workspace_begin();
  MatmulPlan up;
  up.M = n, up.K = h, up.N = hi;
  up.a_offset = aie_ml_tensor_offset(inst, "x");
  up.b_offset = aie_ml_tensor_offset(inst, "W1");
  up.c_offset = scratch;
  MatmulPlan down;
  down.M = n, down.K = hi, down.N = h;
  down.a_offset = scratch;
  down.b_offset = aie_ml_tensor_offset(inst, "W2");
  down.c_offset = aie_ml_tensor_offset(inst, "y");
  return two_stage_mlp(up, down, "ffn: y = SiLU(x W1) W2, s = SiLU(x W1) at DDR " + hex(scratch));
}

// SwiGLU with bf16 high + low intermediates (mlp_stages.h: swiglu_split_mlp). DDR scratch
// beyond the layout's last tensor: [s_hi | s_lo | u_hi | u_lo] (n x 4 h_i), [a_hi; a_lo]
// (2n x h_i), P (2n x h), each 64-byte aligned.
std::string swiglu(const Instance& inst, const nlohmann::json&) {
  const AieMlLayout layout(inst.task(), inst.params());
  SwigluSplitPlan q;
  q.n = inst.params().at("n"), q.h = inst.params().at("h"), q.h_i = inst.params().at("h_i");
  const auto aligned = [](uint64_t b) { return (b + 63) / 64 * 64; };
  q.x_offset = aie_ml_tensor_offset(inst, "x");
  q.wg_offset = aie_ml_tensor_offset(inst, "W_gate");
  q.wu_offset = aie_ml_tensor_offset(inst, "W_up");
  q.wd_offset = aie_ml_tensor_offset(inst, "W_down");
  q.y_offset = aie_ml_tensor_offset(inst, "y");
  q.c_offset = layout.workspace_begin();
  q.a_offset = q.c_offset + aligned(uint64_t(q.n * 4 * q.h_i) * 2);
  q.p_offset = q.a_offset + aligned(uint64_t(2 * q.n * q.h_i) * 2);
  return swiglu_split_mlp(q);
}

}  // namespace

GeneratorMap mlp_generators() { return {{"rope", rope}, {"ffn", ffn}, {"swiglu", swiglu}}; }

}  // namespace tlmcraft::tasks::aie_ml
