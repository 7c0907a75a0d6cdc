// AIE-ML baseline for flash_attention: O = softmax(Q K^T / sqrt(d)) V, d = h, with the
// FlashAttention schedule: the keys and values are visited in blocks of 16 (one fp32 lane
// per key), each row keeps a running maximum m, a running sum l and its partial output O,
// and the s-long score row is never stored. The attention skeleton's data path and tile
// regions (attention_skeleton.h; attention_tasks.cpp describes them), with the query
// rows split over up to 4 compute tiles of column 0 (row_tiles); on one tile
// (flash_attention_kernel(inst, 1)) the cycles compare directly with scaled_dot_product's.
//
// Per query row (every intermediate fp32; a product of two fp32 values is three bf16
// products of their high and low parts, fp_steps.h):
//   m = -1000 (bf16: finite, so m_old - m_new is never -inf - x; a row whose every score
//   lies below about -1087 would lose its weights to the clamp: scores of the task's
//   ranges stay within a few hundred), l = 0 (16 lane partial sums), O = 0 (fp32, in the
//   row scratch);
//   per block of 16 keys b:
//     T = q K^T[:, b] c (c = 1/sqrt(d)); padding keys (s < 16) get T = -1000;
//     m_new = max(m, bf16(T)) in every lane (m is kept as bf16: any m near the maximum
//       keeps 2^t in range, and the result does not depend on it);
//     alpha = 2^((m - m_new) log2 e) (argument <= 0), E = 2^((T - m_new) log2 e), both by
//       exp2_precise with k clamped at -126 (fp_steps.h): a term far below the maximum,
//       and the first block's alpha (m = -1000), give a value below 2^-125 instead of a
//       wrapped exponent, so wide score ranges stay finite;
//     l = l alpha + E (lane mask of the keys < s); O = O alpha + sum_t E[t] V[t]
//       (E as bf16 high + low parts broadcast per key, V rows of the block);
//   O / l (Newton reciprocal of the lane sum), rounded once to bf16 over the q row.
// Row scratch (tile addresses, inside the K region once K^T exists): E's bf16 high and
// low parts of the block at 0x200 and 0x300, O (fp32, d values) at 0x400.
// Registers beside the skeleton's: x5 = m (bf16, every lane), bm17 = l, bm10 / bm11 =
// exp2's c3 / c4, x4 = int32 -126 << 23 (the exponent clamp), w6 / w7 = the padding
// keys' -1000 and 1.0 (s < 16 only).
#include "platforms/aie_ml/pack/baselines/flash_attention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "platforms/aie_ml/pack/baselines/attention_skeleton.h"
#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kRowEHi = kAttTileK + 0x200, kRowELo = kAttTileK + 0x300, kRowO = kAttTileK + 0x400;
constexpr uint16_t kMinusThousandBf16 = 0xC47A;  // -1000 (exact in bf16)
constexpr int kExpFloor = -126;                  // smallest k added to 2^f's exponent field

const Exp2PreciseRegs kExp{"bm11", "bm10", "x4", "x7"};

std::string addr(uint32_t a) { return std::to_string(kAieMlOwnTileBase + a); }
std::string acc(int64_t v) { return "bm" + std::to_string(v); }   // O columns 16 v .. 16 v + 15
std::string half(int64_t a) { return "am" + std::to_string(a); }  // 256-bit half a of bm(a / 2)

void flash_setup(KernelText& t, const AttentionPlan& p) {
  const double ln2 = std::log(2.0);
  const_acc(t, kExp.c4, fp32_bits(std::pow(ln2, 4) / 24), "ln2^4/4! (exp2's c4)");
  const_acc(t, kExp.c3, fp32_bits(std::pow(ln2, 3) / 6), "ln2^3/3! (exp2's c3)");
  t.op("MOVXM r4, " + std::to_string(int64_t(kExpFloor) * (1 << 23)), "-126 << 23");
  t.op("VBCST.32 " + kExp.floor + ", r4", "exponent clamp");
  if (p.sp() > p.s) {
    t.comment("padding keys: T + w6 w7 = -1000 for keys >= s, T + 0 for the others");
    t.op("MOVXM r4, " + std::to_string(kMinusThousandBf16));
    t.op("VBCST.16 x3, r4");
    t.op("VCLR x1");
    t.op("MOVXM r5, " + std::to_string(uint32_t(0xFFFFFFFFu << p.s)), "lanes >= s");
    t.op("VSEL.16 x3, x1, x3, r5");
    const_bf16(t, "w7", bf16_bits(1.0), "1.0");
  }
}

// T = q K^T[:, block] c in bm1 (r24: the block's first K^T column).
void block_scores(KernelText& t, const AttentionPlan& p) {
  t.op("MOV p0, r22");
  t.op("MOV p1, r24");
  t.op("VCLR bm0");
  t.zero_overhead_loop("score", uint64_t(p.d),
                       {"LDA.U16 r13, [p0], #2", "VBCST.16 x11, r13", "VLDA w0, [p1], #" + std::to_string(p.sp() * 2),
                        "VMAC.E.BF16 bm0, bm0, w0, w22"});
  split(t, "bm0", "w4", "w5", "bm7");
  mul_split(t, "bm1", "w4", "w5", "w20", "w19");
  if (p.sp() > p.s) t.op("VMAC.E.BF16 bm1, bm1, w6, w7", "padding keys: T = -1000");
}

// bm_dst = 2^(bm_src log2 e), clamped below (bm_src may be bm_dst).
void exp_of(KernelText& t, const std::string& dst, const std::string& src) {
  split(t, src, "w4", "w5", "bm7");
  mul_split(t, dst, "w4", "w5", "w17", "w18");
  exp2_precise(t, dst, dst, kExp);
}

// m_new into x5 and bm2, alpha split into w12 / w13, E split into w0 / w1 (and stored).
void block_softmax(KernelText& t) {
  t.op("VCONV.BF16.FP32 w0, bm1");
  t.op("VMOV w1, w0");
  t.op("VMAX.BF16 x0, x0, x5", "with the running maximum");
  reduce_max_bf16(t, "x0");
  t.op("VCONV.FP32.BF16 bm2, w0", "m_new (every lane)");
  t.op("VCONV.FP32.BF16 bm0, w10", "m_old");
  t.op("VMOV x5, x0");
  t.op("VSUB.F bm0, bm0, bm2", "m_old - m_new <= 0");
  t.op("VSUB.F bm1, bm1, bm2", "T - m_new");
  // One exp's code for both (program memory): each pass exponentiates bm1, then swaps
  // bm0 and bm1, so E and then alpha are computed and alpha ends in bm0, E in bm1.
  t.loop("exp", 2, [](KernelText& b) {
    exp_of(b, "bm1", "bm1");
    b.op("VMOV bm7, bm1");
    b.op("VMOV bm1, bm0");
    b.op("VMOV bm0, bm7", "swap bm0 and bm1");
  });
  split(t, "bm0", "w12", "w13", "bm7");
  split(t, "bm1", "w0", "w1", "bm7");
  t.op("MOVXM p3, " + addr(kRowEHi));
  t.op("VST w0, [p3, #0]", "E: bf16 high part");
  t.op("VST w1, [p3, #" + std::to_string(kRowELo - kRowEHi) + "]", "low part");
  split(t, "bm17", "w4", "w5", "bm7");
  mul_split(t, "bm17", "w4", "w5", "w12", "w13");
  t.op("VMAC.E.BF16 bm17, bm17, w0, w21", "l = l alpha + sum E over the keys < s");
  t.op("VMAC.E.BF16 bm17, bm17, w1, w21");
}

// O (fp32 row scratch) into bm0.. and multiplied by the split factor in w12 / w13.
void load_scaled_o(KernelText& t, int64_t vectors) {
  t.op("MOVXM p2, " + addr(kRowO));
  for (int64_t v = 0; v < vectors; ++v) {
    t.op("VLDA " + half(2 * v) + ", [p2, #" + std::to_string(64 * v) + "]");
    t.op("VLDA " + half(2 * v + 1) + ", [p2, #" + std::to_string(64 * v + 32) + "]");
    split(t, acc(v), "w4", "w5", "bm7");
    mul_split(t, acc(v), "w4", "w5", "w12", "w13");
  }
}

// O += sum over the block's keys of (E_hi[t] + E_lo[t]) V[t, :] (r26: the block's first V row).
void block_pv(KernelText& t, int64_t keys, int64_t vectors) {
  t.op("MOVXM p0, " + addr(kRowEHi));
  t.op("MOVXM p3, " + addr(kRowELo));
  t.op("MOV p1, r26");
  weighted_rows_loop(t, "E", keys, vectors, acc);
  t.op("MOV r26, p1", "the next block's V rows");
  t.op("MOVXM p2, " + addr(kRowO));
  for (int64_t a = 0; a < 2 * vectors; ++a) t.op("VST " + half(a) + ", [p2], #32", "O (fp32)");
}

void flash_row(KernelText& t, const AttentionPlan& p) {
  const int64_t vectors = p.d / 16, keys = std::min<int64_t>(p.s, 16);
  t.op("MOVXM r4, " + std::to_string(kMinusThousandBf16), "m = -1000 (bf16)");
  t.op("VBCST.16 x5, r4");
  t.op("VCLR bm17", "l = 0 (per lane)");
  t.op("VCLR bm0");
  t.op("MOVXM p2, " + addr(kRowO));
  for (int64_t a = 0; a < 2 * vectors; ++a) t.op("VST am0, [p2], #32", "O = 0");
  t.op("MOVXM r24, " + addr(kAttTileKt), "K^T columns of the current 16 keys");
  t.op("MOVXM r26, " + addr(kAttTileV), "V rows of the current 16 keys");
  t.op("MOVXM r25, " + std::to_string(p.sp() / 16 - 1), "key blocks left");
  t.label("block");
  block_scores(t, p);
  block_softmax(t);
  load_scaled_o(t, vectors);
  block_pv(t, keys, vectors);
  t.op("ADD r24, r24, #32");
  t.op("JNZD r25, r25, block");
  t.comment("O row = O / l");
  reduce_sum_fp32(t, "bm17", "bm7");
  FpScratch r;  // keep w6 / w7 (padding) and x4 (clamp)
  r.wyh = "w14";
  r.wyl = "w15";
  r.weh = "w2";
  r.wel = "w3";
  recip(t, "bm0", "bm17", r, {}, "recip");
  split(t, "bm0", "w12", "w13", "bm7");
  t.op("MOVXM p2, " + addr(kRowO));
  t.op("MOV p3, r22");
  t.loop("out", uint64_t(vectors), [](KernelText& b) {
    b.op("VLDA am0, [p2], #32");
    b.op("VLDA am1, [p2], #32");
    split(b, "bm0", "w4", "w5", "bm7");
    mul_split(b, "bm0", "w4", "w5", "w12", "w13");
    b.op("VST.CONV.BF16.FP32 bm0, [p3], #32", "O (bf16)");
  });
}

// Row tiles: the most of 4, 2, 1 that divides s (AIE-ML's memory tile has six stream
// outputs: one for K/V, one per tile's q rows, one for O).
int64_t row_tiles_for(int64_t s) {
  for (int64_t r : {4, 2})
    if (s % r == 0) return r;
  return 1;
}

std::string flash_attention(const Instance& inst, const nlohmann::json&) {
  return flash_attention_kernel(inst, row_tiles_for(attention_plan(inst).s));
}

}  // namespace

std::string flash_attention_kernel(const Instance& inst, int64_t row_tiles) {
  AttentionPlan p = attention_plan(inst);
  p.row_tiles = row_tiles;
  if (const std::string problem = attention_plan_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  return attention_kernel(p, "AIE-ML FlashAttention baseline (platforms/aie_ml/pack/baselines/flash_attention.cpp)",
                          flash_setup, flash_row);
}

GeneratorMap flash_attention_generators() { return {{"flash_attention", flash_attention}}; }

}  // namespace tlmcraft::tasks::aie_ml
