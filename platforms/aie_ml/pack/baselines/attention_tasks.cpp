// AIE-ML baselines for the attention tasks (scaled_dot_product, mha, mqa, gqa): one
// kernel generator for O_j = softmax(Q_j K_g^T / sqrt(d)) V_g, g = j / (heads / kv_heads)
// (scaled_dot_product: heads = kv_heads = 1), single compute tile (0,0), own `.movement`.
//
// Data path: shim0.mm2s0 copies all inputs (Q, K, V as laid out in DDR) into memory tile
// mem0; mem0.mm2s0 then streams K_0, V_0, K_1, V_1, ... (head columns picked by a 4-D
// BD) to tile.s2mm0, which alternates between the K and V buffers; mem0.mm2s1 streams
// Q_0, Q_1, ... to tile.s2mm1 (the Q/O buffer). The core overwrites each Q row with its O
// row, and tile.mm2s0 writes the finished O_j straight to DDR through shim0.s2mm0 (a
// 3-D BD puts head j's columns in place).
//
// Compute tile memory (each region at most 16 KB):
//   0x0000 K_g as it arrives [s, d]; once transposed, its first bytes hold the current
//          row's T / E (fp32, 0x000) and P's bf16 high and low parts (0x200, 0x300);
//          the K buffer is released only after the group's last query head;
//   0x4000 K_g^T [d, sp] with sp = max(s, 16) (padding columns are zero);
//   0x8000 V_g [s, d];  0xC000 Q_j [s, d], overwritten row by row with O_j.
// No DDR scratch.
//
// The AIE-ML reference is exact (double, no intermediate rounding; tasks/numerics.h), and
// a bf16 score is too coarse (one ulp of a score near 4 moves its softmax weight by 3 %),
// so every intermediate stays fp32. Per query row:
//   S = q K^T by 16 keys at a time (broadcast q[c] times row c of K^T, fp32 lanes);
//   T = S c (c = 1/sqrt(d) as bf16 high + low, three products); m = max(bf16(T)) (any m
//   near the maximum keeps 2^t in range; the softmax does not depend on it);
//   E = 2^((T - m) log2 e) (exp2_precise, fp_steps.h); z = sum E (a lane mask of bf16 1.0
//   drops the padding keys when s < 16); P = E / z (1/z by Newton steps), kept as bf16
//   high + low parts; O = sum_t P_hi[t] V[t] + P_lo[t] V[t] in fp32, rounded once to bf16.
// One vector op per bundle, no software pipelining; loops over key blocks and rows are
// counted (JNZD) so the program fits the 1024-bundle program memory at s = 128.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/aie_ml/pack/baselines/attention_skeleton.h"
#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kOwn = kAieMlOwnTileBase;
// Row buffers in the K region once K_g is transposed: T / E (fp32), P high and low bf16 parts.
constexpr uint32_t kRowT = kAttTileK, kRowPHi = kAttTileK + 0x200, kRowPLo = kAttTileK + 0x300;

// The whole-row softmax keeps no constants of its own (exp2's c4 and c3 are set per row).
void no_setup(KernelText&, const AttentionPlan&) {}

// One query row of the whole-row softmax (the file comment's steps).
void softmax_row(KernelText& t, const AttentionPlan& p) {
  const int64_t s = p.s, d = p.d, sp = p.sp(), blocks = sp / 16, vectors = d / 16;
  const std::vector<std::string> acc_o = {"bm0", "bm1", "bm2", "bm3"};  // O row, 16 columns each
  auto addr = [](uint32_t a) { return std::to_string(kOwn + a); };
  const double ln2 = std::log(2.0);
  t.op("MOVXM r4, " + std::to_string(0xFF80), "-inf (bf16)");
  t.op("VBCST.16 x5, r4", "running maximum of bf16(T)");
  t.op("MOVXM r24, " + addr(kAttTileKt), "K^T columns of the current 16 keys");
  t.op("MOVXM p2, " + addr(kRowT));
  t.op("MOVXM r25, " + std::to_string(blocks - 1), "key blocks left");
  {
    t.label("score_block");
    t.comment("S[16 b .. 16 b + 15] = sum_c q[c] K^T[c, 16 b ..]");
    t.op("MOV p0, r22");
    t.op("MOV p1, r24");
    t.op("VCLR bm0");
    t.zero_overhead_loop("score", uint64_t(d),
                         {"LDA.U16 r13, [p0], #2", "VBCST.16 x11, r13", "VLDA w0, [p1], #" + std::to_string(sp * 2),
                          "VMAC.E.BF16 bm0, bm0, w0, w22"});
    split(t, "bm0", "w4", "w5", "bm7");
    mul_split(t, "bm1", "w4", "w5", "w20", "w19");
    t.op("VST am2, [p2], #32", "T = S c (fp32)");
    t.op("VST am3, [p2], #32");
    t.op("VCONV.BF16.FP32 w0, bm1");
    t.op("VMOV w1, w0");
    t.op("VMAX.BF16 x5, x5, x0");
    t.op("ADD r24, r24, #32");
    t.op("JNZD r25, r25, score_block");
  }
  reduce_max_bf16(t, "x5");
  t.op("VCONV.FP32.BF16 bm17, w10", "m (every lane; any m near max(T) keeps 2^t in range)");
  t.op("VCLR bm10", "sum of E per lane");
  const_acc(t, "bm0", fp32_bits(std::pow(ln2, 4) / 24), "ln2^4/4! (exp2's c4)");
  const_acc(t, "bm2", fp32_bits(std::pow(ln2, 3) / 6), "ln2^3/3! (exp2's c3)");
  t.op("MOVXM p2, " + addr(kRowT));
  t.op("MOVXM r25, " + std::to_string(blocks - 1));
  {
    t.label("exp_block");
    t.op("VLDA am2, [p2, #0]");
    t.op("VLDA am3, [p2, #32]");
    t.op("VSUB.F bm1, bm1, bm17", "T - m");
    split(t, "bm1", "w4", "w5", "bm7");
    mul_split(t, "bm1", "w4", "w5", "w17", "w18");
    exp2_precise(t, "bm1", "bm1");
    t.op("VST am2, [p2], #32", "E (fp32)");
    t.op("VST am3, [p2], #32");
    split(t, "bm1", "w0", "w1", "bm7");
    t.op("VMAC.E.BF16 bm10, bm10, w0, w21", "sum E over the keys < s");
    t.op("VMAC.E.BF16 bm10, bm10, w1, w21");
    t.op("JNZD r25, r25, exp_block");
  }
  reduce_sum_fp32(t, "bm10", "bm7");
  recip(t, "bm11", "bm10");
  split(t, "bm11", "w12", "w13", "bm7");
  t.op("MOVXM p2, " + addr(kRowT));
  t.op("MOVXM p3, " + addr(kRowPHi));
  t.op("MOVXM p4, " + addr(kRowPLo));
  t.op("MOVXM r25, " + std::to_string(blocks - 1));
  {
    t.label("p_block");
    t.op("VLDA am2, [p2, #0]");
    t.op("VLDA am3, [p2, #32]");
    t.op("PADDA [p2], #64");
    split(t, "bm1", "w4", "w5", "bm7");
    mul_split(t, "bm0", "w4", "w5", "w12", "w13");
    split(t, "bm0", "w0", "w1", "bm7");
    t.op("VST w0, [p3], #32", "P = E / z: bf16 high part");
    t.op("VST w1, [p4], #32", "low part");
    t.op("JNZD r25, r25, p_block");
  }
  t.comment("O row = sum_t (P_hi[t] + P_lo[t]) V[t, :]");
  for (int64_t v = 0; v < vectors; ++v) t.op("VCLR " + acc_o[size_t(v)]);
  t.op("MOVXM p0, " + addr(kRowPHi));
  t.op("MOVXM p3, " + addr(kRowPLo));
  t.op("MOVXM p1, " + addr(kAttTileV));
  weighted_rows_loop(t, "P", s, vectors, [&](int64_t v) { return acc_o[size_t(v)]; });
  t.op("MOV p2, r22");
  for (int64_t v = 0; v < vectors; ++v) t.op("VST.CONV.BF16.FP32 " + acc_o[size_t(v)] + ", [p2], #32", "O (bf16)");
}

std::string attention(const Instance& inst, const nlohmann::json&) {
  const AttentionPlan p = attention_plan(inst);
  if (const std::string problem = attention_plan_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  return attention_kernel(p, "AIE-ML attention baseline (platforms/aie_ml/pack/baselines/attention_tasks.cpp)", no_setup,
                          softmax_row);
}

}  // namespace

GeneratorMap attention_generators() {
  GeneratorMap g;
  for (const char* task : {"scaled_dot_product", "mha", "mqa", "gqa"}) g[task] = attention;
  return g;
}

}  // namespace tlmcraft::tasks::aie_ml
