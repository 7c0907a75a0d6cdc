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
//   E = 2^((T - m) log2 e) (exp2_precise below); z = sum E (a lane mask of bf16 1.0
//   drops the padding keys when s < 16); P = E / z (1/z by Newton steps), kept as bf16
//   high + low parts; O = sum_t P_hi[t] V[t] + P_lo[t] V[t] in fp32, rounded once to bf16.
// One vector op per bundle, no software pipelining; loops over key blocks and rows are
// counted (JNZD) so the program fits the 1024-bundle program memory at s = 128.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kOwn = kAieMlOwnTileBase;
constexpr uint32_t kTileK = 0x0000, kTileKt = 0x4000, kTileV = 0x8000, kTileQo = 0xC000;
constexpr uint32_t kRegion = 0x4000;
// Row buffers in the K region once K_g is transposed: T / E (fp32), P high and low bf16 parts.
constexpr uint32_t kRowT = kTileK, kRowPHi = kTileK + 0x200, kRowPLo = kTileK + 0x300;
// Compute-tile locks (the core adds 48).
enum TileLock : int { kKEmpty = 0, kKFull = 1, kVEmpty = 2, kVFull = 3, kQEmpty = 4, kQFull = 5, kOFull = 6 };
constexpr int kMemInputs = 0;  // mem0: all inputs arrived (released with value 2: two readers)

struct AttentionPlan {
  int64_t s = 0, heads = 1, kv_heads = 1, d = 0;
  uint64_t q_offset = 0, k_offset = 0, v_offset = 0, o_offset = 0, inputs_end = 0;
  int64_t sp() const { return s < 16 ? 16 : s; }  // K^T row length (whole 16-lane blocks)
  int64_t h() const { return heads * d; }
  int64_t hk() const { return kv_heads * d; }
};

int64_t param(const Instance& inst, const std::string& name) {
  const auto it = inst.params().find(name);
  if (it == inst.params().end())
    throw std::invalid_argument("task '" + inst.task().name + "' configuration has no parameter '" + name + "'");
  return it->second;
}

AttentionPlan attention_plan(const Instance& inst) {
  const std::string& task = inst.task().name;
  AttentionPlan p;
  p.s = param(inst, "s");
  const int64_t h = param(inst, "h");
  if (task == "scaled_dot_product") {
    p.heads = p.kv_heads = 1;
  } else if (task == "mha") {
    p.heads = p.kv_heads = param(inst, "heads");
  } else if (task == "mqa") {
    p.heads = param(inst, "heads");
    p.kv_heads = 1;
  } else if (task == "gqa") {
    p.heads = param(inst, "heads");
    p.kv_heads = param(inst, "kv_heads");
  } else {
    throw std::invalid_argument("no AIE-ML attention baseline for task '" + task + "'");
  }
  if (p.heads < 1 || p.kv_heads < 1 || h % p.heads != 0 || p.heads % p.kv_heads != 0)
    throw std::invalid_argument("aie_ml attention baseline: heads must divide h and kv_heads must divide heads");
  p.d = h / p.heads;
  p.q_offset = aie_ml_tensor_offset(inst, "Q");
  p.k_offset = aie_ml_tensor_offset(inst, "K");
  p.v_offset = aie_ml_tensor_offset(inst, "V");
  p.o_offset = aie_ml_tensor_offset(inst, "O");
  p.inputs_end = AieMlLayout(inst.task(), inst.params()).inputs_end();
  return p;
}

std::string plan_problem(const AttentionPlan& p) {
  const std::string at = "aie_ml attention baseline (s=" + std::to_string(p.s) + ", d=" + std::to_string(p.d) + "): ";
  if (p.s < 4 || p.s % 4 != 0) return at + "s must be a positive multiple of 4";
  if (p.s > 16 && p.s % 16 != 0) return at + "s above 16 must be a multiple of 16";
  if (p.d < 16 || p.d % 16 != 0 || p.d > 64) return at + "the head width d must be 16, 32, 48 or 64";
  if (uint64_t(p.sp() * p.d * 2) > kRegion || uint64_t(p.s * p.d * 2) > kRegion)
    return at + "K^T, V or Q of one head exceeds its 16 KB region";
  if (p.sp() * 2 > 4064) return at + "a K^T row exceeds the vector post-modify range";
  if (p.v_offset < p.k_offset) return at + "V must follow K in DDR";
  if (p.inputs_end > (512u << 10)) return at + "the inputs do not fit the memory tile";
  return "";
}

// dst = 2^t to about 1e-5 relative (fp_steps.h's exp2 has 7e-4, which every softmax
// weight inherits; this one keeps the output error at the final bf16 rounding):
// k = round(t), f = t - k split into bf16 high and low parts, 2^f by the degree-5 Taylor polynomial (|error| < 2.4e-6 at
// |f| = 1/2) in fp32 Horner steps whose products keep three of the four hi/lo terms.
// Needs c5 (bf16) in w16 and c4, c3 in bm0, bm2; c2, c1, 1 are fp_constants' bm12..bm14.
// dst may be t; uses bm3..bm8, w2..w5.
void exp2_precise(KernelText& t, const std::string& dst, const std::string& src) {
  t.op("VCONV.S32.FP32 bm3, " + src + ", #0", "k = round(t)");
  t.op("VCONV.FP32.S32 bm4, bm3");
  t.op("VSUB.F bm5, " + src + ", bm4", "f = t - k (exact)");
  split(t, "bm5", "w2", "w3", "bm7");
  t.op("VMOV bm6, bm0", "c4 + c5 f");
  t.op("VMAC.E.BF16 bm6, bm6, w16, w2");
  t.op("VMAC.E.BF16 bm6, bm6, w16, w3");
  for (const char* c : {"bm2", "bm12", "bm13", "bm14"}) {
    split(t, "bm6", "w4", "w5", "bm7");
    t.op(std::string("VMOV bm8, ") + c, "c_n + p f");
    t.op("VMAC.E.BF16 bm8, bm8, w4, w2");
    t.op("VMAC.E.BF16 bm8, bm8, w5, w2");
    t.op("VMAC.E.BF16 bm8, bm8, w4, w3");
    t.op("VMOV bm6, bm8");
  }
  t.op("VCONV.S32.FP32 bm3, bm4, #23", "k << 23");
  t.op("VADD.ACC32 " + dst + ", bm6, bm3", "2^k 2^f: add k to the exponent field");
}

std::string core_program(const AttentionPlan& p) {
  const int64_t s = p.s, d = p.d, sp = p.sp(), blocks = sp / 16, vectors = d / 16;
  const int64_t group = p.heads / p.kv_heads;
  const double scale = 1.0 / std::sqrt(double(d));
  const std::vector<std::string> acc_o = {"bm0", "bm1", "bm2", "bm3"};  // O row, 16 columns each
  auto addr = [](uint32_t a) { return std::to_string(kOwn + a); };
  auto lock = [](int id) { return std::to_string(48 + id); };
  KernelText t;
  t.comment("attention: s=" + std::to_string(s) + " heads=" + std::to_string(p.heads) + " kv_heads=" +
            std::to_string(p.kv_heads) + " d=" + std::to_string(d));
  fp_constants(t);
  const double l2e = 1.0 / std::log(2.0);
  const_bf16(t, "w17", bf16_bits(l2e), "log2(e), high part");
  const_bf16(t, "w18", bf16_low_bits(l2e), "log2(e), middle part");
  const double ln2 = std::log(2.0);
  const_bf16(t, "w16", bf16_bits(std::pow(ln2, 5) / 120), "ln2^5/5! (exp2's c5)");
  const_bf16(t, "w20", bf16_bits(scale), "c = 1/sqrt(d), high part");
  const_bf16(t, "w19", bf16_low_bits(scale), "c, low part");
  if (sp > s) {
    t.comment("zero K^T (its padding columns are never written)");
    t.op("VCLR x1");
    t.op("MOVXM p0, " + addr(kTileKt));
    t.zero_overhead_loop("ktzero", uint64_t(sp * d / 16), {"VST w2, [p0], #32"});
  }
  t.comment("lane mask for the sum of E: bf16 1.0 for keys < s, 0 for padding");
  t.op("MOVXM r8, " + std::to_string(0x3F803F80u));
  t.op("MOV r9, #0");
  t.op("MOVXM p0, " + addr(kTileKt));
  for (int w = 0; w < 8; ++w) t.op(std::string(2 * w < s ? "ST r8" : "ST r9") + ", [p0], #4");
  t.op("MOVXM p0, " + addr(kTileKt));
  t.op("VLDA w21, [p0, #0]");
  t.op("MOVXM r20, " + std::to_string(p.kv_heads - 1), "key/value heads left");
  t.label("group");
  t.op("ACQ " + lock(kKFull) + ", 1", "K_g has arrived");
  t.comment("transpose K_g [s, d] -> K^T [d, sp], column by column, 4 keys per step");
  t.op("MOVXM r10, " + addr(kTileK));
  t.op("MOVXM r11, " + addr(kTileKt));
  t.op("MOVXM r12, " + std::to_string(d - 1));
  t.op("MOVXM r9, " + std::to_string(sp * 2));
  t.label("column");
  t.op("MOV p0, r10");
  t.op("MOV p1, r11");
  const std::string step = "#" + std::to_string(2 * d);
  t.zero_overhead_loop("transpose", uint64_t(s / 4),
                       {"LDA.U16 r13, [p0], " + step, "LDA.U16 r14, [p0], " + step, "LDA.U16 r15, [p0], " + step,
                        "LDA.U16 r16, [p0], " + step, "ST.S16 r13, [p1], #2", "ST.S16 r14, [p1], #2",
                        "ST.S16 r15, [p1], #2", "ST.S16 r16, [p1], #2"});
  t.op("ADD r10, r10, #2");
  t.op("ADD r11, r11, r9");
  t.op("JNZD r12, r12, column");
  t.op("ACQ " + lock(kVFull) + ", 1", "V_g has arrived");
  t.op("MOVXM r21, " + std::to_string(group - 1), "query heads of this group left");
  t.label("head");
  t.op("ACQ " + lock(kQFull) + ", 1", "Q_j has arrived");
  t.op("MOVXM r22, " + addr(kTileQo), "q row i, then O row i");
  t.op("MOVXM r23, " + std::to_string(s - 1), "rows left");
  t.label("row");
  t.op("MOVXM r4, " + std::to_string(0xFF80), "-inf (bf16)");
  t.op("VBCST.16 x5, r4", "running maximum of bf16(T)");
  t.op("MOVXM r24, " + addr(kTileKt), "K^T columns of the current 16 keys");
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
  t.op("MOVXM p1, " + addr(kTileV));
  t.begin_loop("pv", uint64_t(s));
  t.op("LDA.U16 r13, [p0], #2", "P_hi[t]");
  t.op("LDA.U16 r14, [p3], #2", "P_lo[t]");
  t.op("VBCST.16 x11, r13");
  t.op("VBCST.16 x0, r14");
  for (int64_t v = 0; v < vectors; ++v) t.op("VLDA w" + std::to_string(2 + v) + ", [p1], #32", "V[t, 16 v ..]");
  for (int64_t v = 0; v < vectors; ++v) {
    const std::string a = acc_o[size_t(v)], w = "w" + std::to_string(2 + v);
    t.op("VMAC.E.BF16 " + a + ", " + a + ", " + w + ", w22");
    const std::string last = "VMAC.E.BF16 " + a + ", " + a + ", " + w + ", w0";
    if (v + 1 < vectors)
      t.op(last);
    else
      t.loop_last(last);
  }
  t.op("MOV p2, r22");
  for (int64_t v = 0; v < vectors; ++v) t.op("VST.CONV.BF16.FP32 " + acc_o[size_t(v)] + ", [p2], #32", "O (bf16)");
  t.op("MOVXM r9, " + std::to_string(2 * d));
  t.op("ADD r22, r22, r9", "next row");
  t.op("JNZD r23, r23, row");
  t.op("REL " + lock(kOFull) + ", 1", "O_j is complete");
  t.op("JNZD r21, r21, head");
  t.op("REL " + lock(kVEmpty) + ", 1");
  t.op("REL " + lock(kKEmpty) + ", 1");
  t.op("JNZD r20, r20, group");
  t.op("DONE");
  return t.str();
}

std::string movement(const AttentionPlan& p) {
  const int64_t s = p.s, d = p.d;
  const uint64_t head_bytes = uint64_t(s * d) * 2;
  std::ostringstream y;
  y << "locks:\n";
  for (int id : {kKEmpty, kVEmpty, kQEmpty}) y << "  - {tile: [0, 0], id: " << id << ", init: 1}\n";
  y << "buffers:\n";
  y << "  - {name: ddr_in, tile: shim0, address: 0, size: " << p.inputs_end << "}\n";
  y << "  - {name: ddr_o, tile: shim0, address: " << p.o_offset << ", size: " << s * p.h() * 2 << "}\n";
  y << "  - {name: mem_in, tile: mem0, address: 0, size: " << p.inputs_end << "}\n";
  y << "  - {name: t_k, tile: [0, 0], address: " << kTileK << ", size: " << head_bytes << "}\n";
  y << "  - {name: t_v, tile: [0, 0], address: " << kTileV << ", size: " << head_bytes << "}\n";
  y << "  - {name: t_qo, tile: [0, 0], address: " << kTileQo << ", size: " << head_bytes << "}\n";
  std::vector<Bd> bds;
  bds.push_back(Bd{"in_rd", "shim0", "mm2s0", "ddr_in", 0, p.inputs_end});
  Bd in_wr{"in_wr", "mem0", "s2mm0", "mem_in", 0, p.inputs_end};
  in_wr.release_lock = kMemInputs;
  in_wr.release_value = 2;
  bds.push_back(in_wr);
  // K_g then V_g for every key/value head g: head columns, rows, K or V, heads.
  Bd kv{"kv_rd", "mem0", "mm2s0", "mem_in", p.k_offset, uint64_t(p.kv_heads) * 2 * head_bytes};
  kv.dims = "[[" + std::to_string(d / 2) + ", 1], [" + std::to_string(s) + ", " + std::to_string(p.hk() / 2) + "], [2, " +
            std::to_string((p.v_offset - p.k_offset) / 4) + "], [" + std::to_string(p.kv_heads) + ", " +
            std::to_string(d / 2) + "]]";
  kv.acquire_lock = kMemInputs;
  bds.push_back(kv);
  Bd q{"q_rd", "mem0", "mm2s1", "mem_in", p.q_offset, uint64_t(p.heads) * head_bytes};
  q.dims = dims({{d / 2, 1}, {s, p.h() / 2}, {p.heads, d / 2}});
  q.acquire_lock = kMemInputs;
  bds.push_back(q);
  Bd tk{"t_kin", "[0, 0]", "s2mm0", "t_k", 0, head_bytes};
  tk.acquire_lock = kKEmpty;
  tk.release_lock = kKFull;
  Bd tv{"t_vin", "[0, 0]", "s2mm0", "t_v", 0, head_bytes};
  tv.acquire_lock = kVEmpty;
  tv.release_lock = kVFull;
  for (const Bd& b : ring({tk, tv})) bds.push_back(b);
  Bd tq{"t_qin", "[0, 0]", "s2mm1", "t_qo", 0, head_bytes};
  tq.acquire_lock = kQEmpty;
  tq.release_lock = kQFull;
  tq.next = "t_qin";
  bds.push_back(tq);
  Bd to{"t_oout", "[0, 0]", "mm2s0", "t_qo", 0, head_bytes};
  to.acquire_lock = kOFull;
  to.release_lock = kQEmpty;
  to.next = "t_oout";
  bds.push_back(to);
  Bd ow{"o_wr", "shim0", "s2mm0", "ddr_o", 0, uint64_t(p.heads) * head_bytes};
  ow.dims = dims({{d / 2, 1}, {s, p.h() / 2}, {p.heads, d / 2}});
  bds.push_back(ow);
  y << "bds:\n";
  for (const Bd& b : bds) y << bd_yaml(b);
  y << "routes:\n"
       "  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n"
       "  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}\n"
       "  - {from: {tile: mem0, port: mm2s1}, to: {tile: [0, 0], port: s2mm1}}\n"
       "  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: shim0, port: s2mm0}}\n";
  return y.str();
}

std::string attention(const Instance& inst, const nlohmann::json&) {
  const AttentionPlan p = attention_plan(inst);
  if (const std::string problem = plan_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  return "; AIE-ML attention baseline (platforms/aie_ml/pack/baselines/attention_tasks.cpp)\n.tile 0 0\n" + core_program(p) +
         ".movement\n" + movement(p);
}

}  // namespace

GeneratorMap attention_generators() {
  GeneratorMap g;
  for (const char* task : {"scaled_dot_product", "mha", "mqa", "gqa"}) g[task] = attention;
  return g;
}

}  // namespace tlmcraft::tasks::aie_ml
