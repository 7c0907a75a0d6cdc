// Split-precision multi-head attention stage (split_attention.h) for the AIE-ML decoders.
//
// Tiles: T = the largest of 4, 2, 1 dividing `heads` (tiles [c, 0], c < T); tile c takes
// heads c, c + T, c + 2T, ... one after another (H = heads / T of them).
//
// Data path of column c: shimC.mm2s0 copies tile c's head columns of the six input parts
// (q_hi, q_lo, k_hi, k_lo, v_hi, v_lo: a 3-D BD per part picks heads c, c + T, ...) and,
// with RoPE, the cos and sin tables into memC, packed as [part][local head][s][d]; once
// everything has arrived, memC.mm2s0 streams one *package* per head (its six [s, d]
// parts, a 3-D BD) into the tile's two package buffers in turn (tile.s2mm0), and
// memC.mm2s1 sends the tables once (tile.s2mm1). The core overwrites each package's q_hi
// and q_lo rows with o_hi and o_lo; tile.mm2s0 / mm2s1 write them to DDR through
// shimC.s2mm0 / s2mm1 (3-D BDs put head j's columns in place) and free the package.
// All inputs are in memC before the first output is written, so an output may even
// overwrite an input.
//
// Compute tile memory (tile addresses; the core sees them at 0x70000 + address):
//   0x0000, 0x6000  package buffers: q_hi | q_lo | k_hi | k_lo | v_hi | v_lo, P = 2 s d
//                   bytes each; after the transpose the k parts hold the current row's
//                   S / E (fp32, 4 sp bytes) and P's bf16 high and low parts (2 sp each);
//   0xC000, 0xD000  K^T high and low parts [d, sp], sp = max(s, 16) (padding columns 0);
//                   the lane mask for the sum of E (s < 16) follows K^T's low part;
//   0xE000          cos [s, d], then sin' [s, d] (sin with its first d/2 columns negated).
//
// Per head (fp32 throughout; a product of split values is three bf16 products):
//   RoPE (optional): x = x_hi + x_lo per row of q and k; y = x cos + rotate_half(x) sin'
//     (four exact products summed in fp32), split again into hi + lo in place;
//   K^T: k_hi and k_lo transposed by scalar moves;
//   per query row: S = q k^T by 16 keys at a time (broadcast q_hi[c], q_lo[c]; three
//     MACs per key block: hi hi, lo hi, hi lo); m = max(bf16(S));
//     E = 2^((S - m) kappa), kappa = log2(e) / sqrt(d) as bf16 high + low (exp2_precise);
//     z = sum E, P = E (1/z) (Newton reciprocal) as bf16 high + low;
//     O = sum_t P_hi[t] v_hi[t] + P_hi[t] v_lo[t] + P_lo[t] v_hi[t]; o_hi = bf16(O),
//     o_lo = bf16(O - o_hi).
// Loops over key blocks, rows and heads are counted (JNZD) or zero-overhead loops, so the
// program fits the 1024-bundle program memory for every supported shape.
#include "tasks/baselines/aie_ml/split_attention.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tasks/baselines/aie_ml/block_loop.h"
#include "tasks/baselines/aie_ml/fp_steps.h"
#include "tasks/baselines/aie_ml/movement_text.h"
#include "tasks/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kOwn = kAieMlOwnTileBase;
constexpr uint32_t kPkg0 = 0x0000, kPkg1 = 0x6000, kPkgBytes = 0x6000;
constexpr uint32_t kKtHi = 0xC000, kKtLo = 0xD000, kKtBytes = 0x1000, kTables = 0xE000;
constexpr uint64_t kMemTileBytes = 512u << 10;
constexpr int kParts = 6;  // q_hi, q_lo, k_hi, k_lo, v_hi, v_lo
// Compute-tile locks (the core adds 48). Package b in {0, 1}: empty = 2b (two output
// halves free it), full = 2b + 1; its o_hi / o_lo are done = 4 + 2b / 5 + 2b.
enum TileLock : int { kPkg0Empty = 0, kPkg0Full = 1, kPkg1Empty = 2, kTablesFull = 8 };
constexpr int kOHiDone0 = 4;
constexpr int kMemInputs = 0;  // memC: every input has arrived

struct Shape {
  int64_t s, heads, d, tiles, local_heads;
  int64_t sp() const { return s < 16 ? 16 : s; }  // K^T row length (whole 16-lane key blocks)
  int64_t blocks() const { return sp() / 16; }
  int64_t h() const { return heads * d; }
  uint64_t part_bytes() const { return uint64_t(s * d) * 2; }  // one [s, d] bf16 part
  uint64_t table_bytes() const { return uint64_t(s * d) * 2; }
};

int64_t tiles_for(int64_t heads) {
  for (int64_t t : {4, 2}) if (heads % t == 0) return t;
  return 1;
}

Shape shape_of(const SplitAttentionPlan& p) {
  Shape sh{p.s, p.heads, p.d, 1, p.heads};
  if (p.heads >= 1) {
    sh.tiles = tiles_for(p.heads);
    sh.local_heads = p.heads / sh.tiles;
  }
  return sh;
}

std::string addr(uint32_t a) { return std::to_string(kOwn + a); }
std::string lock(int id) { return std::to_string(48 + id); }
std::string num(int64_t v) { return std::to_string(v); }

// dst = 2^t to about 1e-5 relative (the cubic of fp_steps.h has 7e-4): k = round(t),
// f = t - k as bf16 high + low, 2^f by the degree-5 Taylor polynomial (|error| < 2.4e-6 at
// |f| = 1/2) in fp32 Horner steps keeping three of the four hi/lo products. Needs c5 (bf16)
// in w16 and c4, c3 in bm0, bm2; c2, c1, 1 are fp_constants' bm12..bm14. dst may be src;
// uses bm3..bm8, w2..w5. (The same steps as attention_tasks.cpp's exp2_precise.)
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

// bm (16 fp32 lanes) = am pair: "bmN" -> "am2N", "am2N+1".
std::string am_lo(int bm) { return "am" + num(2 * bm); }
std::string am_hi(int bm) { return "am" + num(2 * bm + 1); }
std::string bm(int i) { return "bm" + num(i); }
std::string w(int i) { return "w" + num(i); }

// Register use of the core program:
//   r29 package base (core address), r26 / r27 / r28 its full / o_hi done / o_lo done
//   lock ids, r20 heads left, r22 / r24 current q_hi / q_lo row, r23 rows left, r25 key
//   blocks left, r13 / r14 broadcast sources, r4 / r9 temporaries, r10..r12, r15..r19
//   the transpose and RoPE loops.
//   w16 c5, w17 / w18 kappa high / low, w21 sum mask; bm12..bm16 fp_constants.

// RoPE of one row of a split matrix (hi at [pa], lo at [pb]) with cos at [p4] and sin'
// at [p5]; writes the rotated row back as hi + lo.
void rope_row(KernelText& t, const Shape& sh, const std::string& pa, const std::string& pb) {
  if (sh.d == 16) {
    t.op("VLDA w0, [" + pa + ", #0] ;; VLDB w1, [" + pa + ", #0]", "x_hi twice: x0 = x_hi : x_hi");
    t.op("VLDA w2, [" + pb + ", #0] ;; VLDB w3, [" + pb + ", #0]", "x_lo twice");
    t.op("VLDA w4, [p4, #0] ;; VLDB w6, [p5, #0]", "cos, sin'");
    t.op("VSHIFT x4, x0, x0, #16", "w8 = rotate_half(x_hi) (8 lanes)");
    t.op("VSHIFT x5, x1, x1, #16", "w10 = rotate_half(x_lo)");
    t.op("VMUL.E.BF16 bm0, w0, w4", "x cos + rot(x) sin'");
    t.op("VMAC.E.BF16 bm0, bm0, w2, w4");
    t.op("VMAC.E.BF16 bm0, bm0, w8, w6");
    t.op("VMAC.E.BF16 bm0, bm0, w10, w6");
    split(t, "bm0", "w12", "w13", "bm2");
    t.op("VST w12, [" + pa + ", #0]", "y_hi");
    t.op("VST w13, [" + pb + ", #0]", "y_lo");
    return;
  }
  // d = 32: halves a (lanes 0..15) and b (16..31) are whole vectors.
  t.op("VLDA w0, [" + pa + ", #0] ;; VLDB w1, [" + pa + ", #32]", "a_hi, b_hi");
  t.op("VLDA w2, [" + pb + ", #0] ;; VLDB w3, [" + pb + ", #32]", "a_lo, b_lo");
  t.op("VLDA w4, [p4, #0] ;; VLDB w5, [p4, #32]", "cos halves");
  t.op("VLDA w6, [p5, #0] ;; VLDB w7, [p5, #32]", "sin' halves (first negated)");
  t.op("VMUL.E.BF16 bm0, w0, w4", "y_a = a cos_a - b sin_a");
  t.op("VMUL.E.BF16 bm1, w1, w5", "y_b = b cos_b + a sin_b");
  t.op("VMAC.E.BF16 bm0, bm0, w2, w4");
  t.op("VMAC.E.BF16 bm1, bm1, w3, w5");
  t.op("VMAC.E.BF16 bm0, bm0, w1, w6");
  t.op("VMAC.E.BF16 bm1, bm1, w0, w7");
  t.op("VMAC.E.BF16 bm0, bm0, w3, w6");
  t.op("VMAC.E.BF16 bm1, bm1, w2, w7");
  split(t, "bm0", "w8", "w9", "bm2");
  split(t, "bm1", "w10", "w11", "bm3");
  t.op("VST w8, [" + pa + ", #0]");
  t.op("VST w10, [" + pa + ", #32]");
  t.op("VST w9, [" + pb + ", #0]");
  t.op("VST w11, [" + pb + ", #32]");
}

std::string core_program(const Shape& sh, bool rope) {
  const int64_t s = sh.s, d = sh.d, sp = sh.sp(), B = sh.blocks(), P = int64_t(sh.part_bytes());
  const int64_t vectors = d / 16;
  KernelText t;
  t.comment("split attention: s=" + num(s) + " d=" + num(d) + " heads on this tile=" + num(sh.local_heads) +
            (rope ? " (RoPE on q, k)" : ""));
  fp_constants(t);
  const double ln2 = std::log(2.0);
  const double kappa = 1.0 / (ln2 * std::sqrt(double(d)));
  const_bf16(t, "w16", bf16_bits(std::pow(ln2, 5) / 120), "ln2^5/5! (exp2's c5)");
  const_bf16(t, "w17", bf16_bits(kappa), "kappa = log2(e)/sqrt(d), high part");
  const_bf16(t, "w18", bf16_low_bits(kappa), "kappa, low part");
  if (sp > s) {
    t.comment("zero K^T (its padding columns are never written)");
    t.op("VCLR x1");
    t.op("MOVXM p0, " + addr(kKtHi));
    t.zero_overhead_loop("ktzero_hi", uint64_t(sp * d / 16), {"VST w2, [p0], #32"});
    t.op("MOVXM p0, " + addr(kKtLo));
    t.zero_overhead_loop("ktzero_lo", uint64_t(sp * d / 16), {"VST w2, [p0], #32"});
    t.comment("lane mask for the sum of E: bf16 1.0 for keys < s, 0 for padding");
    const uint32_t mask = kKtLo + uint32_t(sp * d * 2);
    t.op("MOVXM r8, " + std::to_string(0x3F803F80u));
    t.op("MOV r9, #0");
    t.op("MOVXM p0, " + addr(mask));
    for (int i = 0; i < 8; ++i) t.op(std::string(2 * i < s ? "ST r8" : "ST r9") + ", [p0], #4");
    t.op("MOVXM p0, " + addr(mask));
    t.op("VLDA w21, [p0, #0]");
  }
  if (rope) {
    t.comment("sin' = sin with the first d/2 columns of every row negated (+0x8000 flips a bf16's sign)");
    t.op("ACQ " + lock(kTablesFull) + ", 1", "cos and sin have arrived");
    t.op("MOVXM r4, " + std::to_string(0x8000));
    t.op("VBCST.16 x1, r4");
    if (d == 16) {
      t.op("VCLR x2");
      t.op("MOVXM r5, " + std::to_string(0xFF), "lanes 0..7");
      t.op("VSEL.16 x1, x2, x1, r5", "w2 = 0x8000 in lanes 0..7, 0 elsewhere");
    }
    t.op("MOVXM p0, " + addr(kTables + uint32_t(sh.table_bytes())));
    t.zero_overhead_loop("sinneg", uint64_t(s),
                         {"VLDA w0, [p0, #0]", "VADD.16 x0, x0, x1", "VST w0, [p0], #" + num(2 * d)});
  }
  t.op("MOVXM r29, " + addr(kPkg0), "current package");
  t.op("MOVXM r26, " + lock(kPkg0Full), "its full lock");
  t.op("MOVXM r27, " + lock(kOHiDone0), "its o_hi done lock");
  t.op("MOVXM r28, " + lock(kOHiDone0 + 1), "its o_lo done lock");
  t.op("MOVXM r20, " + num(sh.local_heads - 1), "heads left");
  t.label("head");
  t.op("ACQ r26, 1", "the package has arrived");
  if (rope) {
    t.comment("RoPE on the rows of q and k (in place, re-split into hi + lo)");
    t.op("MOV p0, r29", "q_hi row");
    t.op("MOVXM r9, " + num(P));
    t.op("ADD r10, r29, r9");
    t.op("MOV p1, r10", "q_lo row");
    t.op("ADD r10, r10, r9");
    t.op("MOV p2, r10", "k_hi row");
    t.op("ADD r10, r10, r9");
    t.op("MOV p3, r10", "k_lo row");
    t.op("MOVXM p4, " + addr(kTables), "cos row");
    t.op("MOVXM p5, " + addr(kTables + uint32_t(sh.table_bytes())), "sin' row");
    t.begin_loop("rope", uint64_t(s));
    rope_row(t, sh, "p0", "p1");
    rope_row(t, sh, "p2", "p3");
    const std::string step = "#" + num(2 * d);
    t.op("PADDA [p0], " + step + " ;; PADDB [p1], " + step + " ;; PADDS [p2], " + step);
    t.op("PADDA [p3], " + step + " ;; PADDB [p4], " + step);
    t.loop_last("PADDA [p5], " + step);
  }
  t.comment("transpose k_hi, k_lo [s, d] -> K^T high, low [d, sp], column by column, 4 keys per step");
  t.op("MOVXM r9, " + num(2 * P));
  t.op("ADD r16, r29, r9", "k_hi");
  t.op("MOVXM r17, " + addr(kKtHi));
  t.op("MOVXM r19, 1", "parts left");
  t.label("kpart");
  t.op("MOV r10, r16");
  t.op("MOV r11, r17");
  t.op("MOVXM r12, " + num(d - 1));
  t.op("MOVXM r9, " + num(sp * 2));
  t.label("column");
  t.op("MOV p0, r10");
  t.op("MOV p1, r11");
  const std::string kstep = "#" + num(2 * d);
  t.zero_overhead_loop("transpose", uint64_t(s / 4),
                       {"LDA.U16 r13, [p0], " + kstep, "LDA.U16 r14, [p0], " + kstep, "LDA.U16 r15, [p0], " + kstep,
                        "LDA.U16 r18, [p0], " + kstep, "ST.S16 r13, [p1], #2", "ST.S16 r14, [p1], #2",
                        "ST.S16 r15, [p1], #2", "ST.S16 r18, [p1], #2"});
  t.op("ADD r10, r10, #2");
  t.op("ADD r11, r11, r9");
  t.op("JNZD r12, r12, column");
  t.op("MOVXM r9, " + num(P));
  t.op("ADD r16, r16, r9", "k_lo");
  t.op("MOVXM r9, " + num(kKtBytes));
  t.op("ADD r17, r17, r9");
  t.op("JNZD r19, r19, kpart");

  // Row scratch in the k parts: S / E (fp32), P high and low parts (bf16).
  const int64_t row_s = 2 * P, row_phi = row_s + 4 * sp, row_plo = row_phi + 2 * sp;
  t.op("MOV r22, r29", "q_hi row i (then o_hi row i)");
  t.op("MOVXM r9, " + num(P));
  t.op("ADD r24, r29, r9", "q_lo row i (then o_lo row i)");
  t.op("MOVXM r23, " + num(s - 1), "rows left");
  t.label("row");
  {
    // Scores: accumulators per (block, product kind) when there are few blocks (the MAC
    // latency would stall a chain), per block otherwise.
    const bool per_kind = B <= 4;
    const int accs = int(per_kind ? 3 * B : B);
    auto acc = [&](int64_t b, int k) { return per_kind ? bm(int(3 * b + k)) : bm(int(b)); };
    t.comment("S = q_hi K^T_hi + q_lo K^T_hi + q_hi K^T_lo, 16 keys per block, c = 0 .. d-1");
    for (int a = 0; a < accs; ++a) t.op("VCLR " + bm(a));
    t.op("MOV p0, r22");
    t.op("MOV p1, r24");
    t.op("MOVXM p2, " + addr(kKtHi));
    t.op("MOVXM p3, " + addr(kKtLo));
    t.op("LDA.U16 r13, [p0], #2", "q_hi[0]");
    t.op("LDA.U16 r14, [p1], #2", "q_lo[0]");
    t.begin_loop("score", uint64_t(d));
    t.op("VBCST.16 x4, r13", "w8 = q_hi[c]");
    t.op("VBCST.16 x5, r14", "w10 = q_lo[c]");
    t.op("LDA.U16 r13, [p0], #2", "q_hi[c + 1] (one past the row at the end: unused)");
    t.op("LDA.U16 r14, [p1], #2");
    // K^T registers per block (16 free 256-bit registers: no reuse within a step).
    static const int kt_regs[8][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {12, 13}, {14, 15}, {19, 20}, {22, 23}};
    auto kt = [&](int64_t b, int part) { return w(kt_regs[b][part]); };
    for (int64_t b = 0; b < B; ++b)
      t.op("VLDA " + kt(b, 0) + ", [p2], #32 ;; VLDB " + kt(b, 1) + ", [p3], #32", "K^T row c, block " + num(b));
    std::vector<std::string> macs;
    for (int k = 0; k < 3; ++k)
      for (int64_t b = 0; b < B; ++b) {
        const std::string a = acc(b, k);
        const std::string kv = kt(b, k == 2 ? 1 : 0), qv = k == 1 ? "w10" : "w8";
        macs.push_back("VMAC.E.BF16 " + a + ", " + a + ", " + kv + ", " + qv);
      }
    for (size_t m = 0; m < macs.size(); ++m) {
      if (m + 1 < macs.size())
        t.op(macs[m]);
      else
        t.loop_last(macs[m]);
    }
    t.comment("S to the row scratch (fp32), running maximum of bf16(S)");
    t.op("MOVXM r9, " + num(row_s));
    t.op("ADD r10, r29, r9");
    t.op("MOV p2, r10");
    t.op("MOVXM r4, " + std::to_string(0xFF80), "-inf (bf16)");
    t.op("VBCST.16 x5, r4");
    for (int64_t b = 0; b < B; ++b) {
      const int a = per_kind ? int(3 * b) : int(b);
      if (per_kind) {
        t.op("VADD.F " + bm(a) + ", " + bm(a) + ", " + bm(a + 1));
        t.op("VADD.F " + bm(a) + ", " + bm(a) + ", " + bm(a + 2));
      }
      t.op("VST " + am_lo(a) + ", [p2], #32");
      t.op("VST " + am_hi(a) + ", [p2], #32");
      t.op("VCONV.BF16.FP32 w0, " + bm(a));
      t.op("VMOV w1, w0");
      t.op("VMAX.BF16 x5, x5, x0");
    }
  }
  reduce_max_bf16(t, "x5");
  t.op("VCONV.FP32.BF16 bm17, w10", "m (every lane; any m near max(S) keeps 2^t in range)");
  t.op("VCLR bm10", "sum of E per lane");
  const double ln2c = std::log(2.0);
  const_acc(t, "bm0", fp32_bits(std::pow(ln2c, 4) / 24), "ln2^4/4! (exp2's c4)");
  const_acc(t, "bm2", fp32_bits(std::pow(ln2c, 3) / 6), "ln2^3/3! (exp2's c3)");
  t.op("MOVXM r9, " + num(row_s));
  t.op("ADD r10, r29, r9");
  t.op("MOV p2, r10", "S / E row");
  t.op("MOVXM r25, " + num(B - 1), "key blocks left");
  t.label("exp_block");
  t.op("VLDA am2, [p2, #0]");
  t.op("VLDA am3, [p2, #32]");
  t.op("VSUB.F bm1, bm1, bm17", "S - m");
  split(t, "bm1", "w4", "w5", "bm7");
  mul_split(t, "bm1", "w4", "w5", "w17", "w18");
  exp2_precise(t, "bm1", "bm1");
  t.op("VST am2, [p2], #32", "E (fp32)");
  t.op("VST am3, [p2], #32");
  if (sh.sp() > s) {
    split(t, "bm1", "w0", "w1", "bm7");
    t.op("VMAC.E.BF16 bm10, bm10, w0, w21", "sum E over the keys < s");
    t.op("VMAC.E.BF16 bm10, bm10, w1, w21");
  } else {
    t.op("VADD.F bm10, bm10, bm1", "sum E");
  }
  t.op("JNZD r25, r25, exp_block");
  reduce_sum_fp32(t, "bm10", "bm7");
  recip(t, "bm11", "bm10");
  split(t, "bm11", "w12", "w13", "bm7");
  t.op("MOVXM r9, " + num(row_s));
  t.op("ADD r10, r29, r9");
  t.op("MOV p2, r10");
  t.op("MOVXM r9, " + num(row_phi));
  t.op("ADD r10, r29, r9");
  t.op("MOV p3, r10");
  t.op("MOVXM r9, " + num(row_plo));
  t.op("ADD r10, r29, r9");
  t.op("MOV p4, r10");
  t.op("MOVXM r25, " + num(B - 1));
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
  {
    t.comment("O row = sum_t P_hi[t] v_hi[t] + P_hi[t] v_lo[t] + P_lo[t] v_hi[t]");
    // Accumulators (unroll u, vector v, kind k): 3 kinds x d/16 vectors x (2 keys per step
    // when d = 16) = 6 chains.
    const int64_t U = d == 16 ? 2 : 1;
    auto acc = [&](int64_t u, int64_t v, int k) { return bm(int((u * vectors + v) * 3 + k)); };
    for (int a = 0; a < 6; ++a) t.op("VCLR " + bm(a));
    t.op("MOVXM r9, " + num(row_phi));
    t.op("ADD r10, r29, r9");
    t.op("MOV p0, r10", "P_hi[t]");
    t.op("MOVXM r9, " + num(row_plo));
    t.op("ADD r10, r29, r9");
    t.op("MOV p3, r10", "P_lo[t]");
    t.op("MOVXM r9, " + num(4 * P));
    t.op("ADD r10, r29, r9");
    t.op("MOV p1, r10", "v_hi[t]");
    t.op("MOVXM r9, " + num(P));
    t.op("ADD r10, r10, r9");
    t.op("MOV p2, r10", "v_lo[t]");
    t.begin_loop("pv", uint64_t(s / U));
    std::vector<std::string> macs;
    for (int64_t u = 0; u < U; ++u) {
      const std::string bh = u == 0 ? "x4" : "x6", bl = u == 0 ? "x5" : "x7";
      const std::string wh = u == 0 ? "w8" : "w12", wl = u == 0 ? "w10" : "w14";
      t.op("LDA.U16 r13, [p0], #2", "P_hi[t]");
      t.op("LDA.U16 r14, [p3], #2", "P_lo[t]");
      t.op("VBCST.16 " + bh + ", r13");
      t.op("VBCST.16 " + bl + ", r14");
      for (int64_t v = 0; v < vectors; ++v) {
        const std::string vh = w(int(2 * (u * vectors + v))), vl = w(int(2 * (u * vectors + v) + 1));
        const std::string step = v + 1 == vectors ? "], #" + num(2 * d - 32 * (vectors - 1)) : "], #32";
        t.op("VLDA " + vh + ", [p1" + step + " ;; VLDB " + vl + ", [p2" + step, "v_hi, v_lo row t");
        macs.push_back("VMAC.E.BF16 " + acc(u, v, 0) + ", " + acc(u, v, 0) + ", " + vh + ", " + wh);
        macs.push_back("VMAC.E.BF16 " + acc(u, v, 1) + ", " + acc(u, v, 1) + ", " + vl + ", " + wh);
        macs.push_back("VMAC.E.BF16 " + acc(u, v, 2) + ", " + acc(u, v, 2) + ", " + vh + ", " + wl);
      }
    }
    for (size_t m = 0; m < macs.size(); ++m) {
      if (m + 1 < macs.size())
        t.op(macs[m]);
      else
        t.loop_last(macs[m]);
    }
    t.op("MOV p2, r22", "o_hi row i (over q_hi row i)");
    t.op("MOV p3, r24", "o_lo row i");
    for (int64_t v = 0; v < vectors; ++v) {
      const std::string o = acc(0, v, 0);
      for (int64_t u = 0; u < U; ++u)
        for (int k = 0; k < 3; ++k)
          if (u != 0 || k != 0) t.op("VADD.F " + o + ", " + o + ", " + acc(u, v, k));
      split(t, o, "w0", "w1", "bm7");
      t.op("VST w0, [p2], #32", "o_hi");
      t.op("VST w1, [p3], #32", "o_lo");
    }
  }
  t.op("MOVXM r9, " + num(2 * d));
  t.op("ADD r22, r22, r9", "next row");
  t.op("ADD r24, r24, r9");
  t.op("JNZD r23, r23, row");
  t.op("REL r27, 1", "o_hi of this head is complete");
  t.op("REL r28, 1", "o_lo too");
  t.op("MOVXM r9, " + num(kPkg0 ^ kPkg1));
  t.op("XOR r29, r29, r9", "the other package");
  t.op("MOV r9, #2");
  t.op("XOR r26, r26, r9");
  t.op("XOR r27, r27, r9");
  t.op("XOR r28, r28, r9");
  t.op("JNZD r20, r20, head");
  t.op("DONE");
  return t.str();
}

const char* kPartNames[kParts] = {"q_hi", "q_lo", "k_hi", "k_lo", "v_hi", "v_lo"};

std::string movement(const SplitAttentionPlan& p, const Shape& sh) {
  const int64_t s = sh.s, d = sh.d, h = sh.h(), T = sh.tiles, H = sh.local_heads;
  const uint64_t P = sh.part_bytes(), tab = sh.table_bytes(), matrix = uint64_t(s * h) * 2;
  const uint64_t parts_in_mem = uint64_t(kParts) * uint64_t(H) * P;
  const uint64_t mem_total = parts_in_mem + (p.rope ? 2 * tab : 0);
  const uint64_t part_offsets[kParts] = {p.q_hi, p.q_lo, p.k_hi, p.k_lo, p.v_hi, p.v_lo};
  // Head columns of a [s, h] matrix for local heads c, c + T, ...: 3-D, in words.
  const std::string head_dims = dims({{d / 2, 1}, {s, h / 2}, {H, T * d / 2}});
  std::ostringstream y;
  y << "locks:\n";
  for (int64_t c = 0; c < T; ++c)
    for (int id : {kPkg0Empty, kPkg1Empty}) y << "  - {tile: " << tile(uint32_t(c), 0) << ", id: " << id << ", init: 2}\n";
  y << "buffers:\n";
  std::vector<Bd> bds;
  std::string routes;
  for (int64_t c = 0; c < T; ++c) {
    const std::string sx = "_" + num(c), shim = "shim" + num(c), mem = "mem" + num(c), tl = tile(uint32_t(c), 0);
    for (int k = 0; k < kParts; ++k)
      y << "  - {name: ddr_" << kPartNames[k] << sx << ", tile: " << shim << ", address: " << part_offsets[k]
        << ", size: " << matrix << "}\n";
    if (p.rope) {
      y << "  - {name: ddr_cos" << sx << ", tile: " << shim << ", address: " << p.cos_offset << ", size: " << tab << "}\n";
      y << "  - {name: ddr_sin" << sx << ", tile: " << shim << ", address: " << p.sin_offset << ", size: " << tab << "}\n";
    }
    y << "  - {name: ddr_o_hi" << sx << ", tile: " << shim << ", address: " << p.o_hi << ", size: " << matrix << "}\n";
    y << "  - {name: ddr_o_lo" << sx << ", tile: " << shim << ", address: " << p.o_lo << ", size: " << matrix << "}\n";
    y << "  - {name: mem_in" << sx << ", tile: " << mem << ", address: 0, size: " << mem_total << "}\n";
    y << "  - {name: pkg0" << sx << ", tile: " << tl << ", address: " << kPkg0 << ", size: " << kParts * P << "}\n";
    y << "  - {name: pkg1" << sx << ", tile: " << tl << ", address: " << kPkg1 << ", size: " << kParts * P << "}\n";
    if (p.rope) y << "  - {name: tables" << sx << ", tile: " << tl << ", address: " << kTables << ", size: " << 2 * tab << "}\n";

    // DDR -> memC: tile c's head columns of every part, then the tables.
    std::vector<Bd> rd;
    for (int k = 0; k < kParts; ++k) {
      Bd b{"rd_" + std::string(kPartNames[k]) + sx, shim, "mm2s0", "ddr_" + std::string(kPartNames[k]) + sx,
           uint64_t(c * d * 2), uint64_t(H) * P};
      b.dims = head_dims;
      rd.push_back(b);
    }
    if (p.rope) {
      rd.push_back(Bd{"rd_cos" + sx, shim, "mm2s0", "ddr_cos" + sx, 0, tab});
      rd.push_back(Bd{"rd_sin" + sx, shim, "mm2s0", "ddr_sin" + sx, 0, tab});
    }
    for (size_t i = 0; i + 1 < rd.size(); ++i) rd[i].next = rd[i + 1].name;
    for (const Bd& b : rd) bds.push_back(b);
    Bd in_wr{"in_wr" + sx, mem, "s2mm0", "mem_in" + sx, 0, mem_total};
    in_wr.release_lock = kMemInputs;
    in_wr.release_value = p.rope ? 2 : 1;  // readers: the packages and the tables
    bds.push_back(in_wr);
    // memC -> tile: one package (six [s, d] parts) per head.
    Bd pk{"pkg_rd" + sx, mem, "mm2s0", "mem_in" + sx, 0, parts_in_mem};
    pk.dims = dims({{int64_t(P / 4), 1}, {kParts, int64_t(uint64_t(H) * P / 4)}, {H, int64_t(P / 4)}});
    pk.acquire_lock = kMemInputs;
    bds.push_back(pk);
    Bd in0{"pkg_in0" + sx, tl, "s2mm0", "pkg0" + sx, 0, kParts * P};
    in0.acquire_lock = kPkg0Empty;
    in0.acquire_value = 2;
    in0.release_lock = kPkg0Empty + 1;
    Bd in1{"pkg_in1" + sx, tl, "s2mm0", "pkg1" + sx, 0, kParts * P};
    in1.acquire_lock = kPkg1Empty;
    in1.acquire_value = 2;
    in1.release_lock = kPkg1Empty + 1;
    for (const Bd& b : ring({in0, in1})) bds.push_back(b);
    if (p.rope) {
      Bd tr{"tab_rd" + sx, mem, "mm2s1", "mem_in" + sx, parts_in_mem, 2 * tab};
      tr.acquire_lock = kMemInputs;
      bds.push_back(tr);
      Bd ti{"tab_in" + sx, tl, "s2mm1", "tables" + sx, 0, 2 * tab};
      ti.release_lock = kTablesFull;
      bds.push_back(ti);
    }
    // tile -> DDR: o_hi (channel 0) and o_lo (channel 1) of each head; both free the package.
    for (int half = 0; half < 2; ++half) {
      const std::string ch = "mm2s" + num(half), part = half == 0 ? "o_hi" : "o_lo";
      std::vector<Bd> out;
      for (int pkg = 0; pkg < 2; ++pkg) {
        Bd b{"out_" + part + num(pkg) + sx, tl, ch, "pkg" + num(pkg) + sx, half * P, P};
        b.acquire_lock = kOHiDone0 + 2 * pkg + half;
        b.release_lock = 2 * pkg;  // the package's empty lock
        out.push_back(b);
      }
      for (const Bd& b : ring(out)) bds.push_back(b);
      Bd wr{"wr_" + part + sx, shim, "s2mm" + num(half), "ddr_" + part + sx, uint64_t(c * d * 2), uint64_t(H) * P};
      wr.dims = head_dims;
      bds.push_back(wr);
    }
    routes += "  - {from: {tile: " + shim + ", port: mm2s0}, to: {tile: " + mem + ", port: s2mm0}}\n";
    routes += "  - {from: {tile: " + mem + ", port: mm2s0}, to: {tile: " + tl + ", port: s2mm0}}\n";
    if (p.rope) routes += "  - {from: {tile: " + mem + ", port: mm2s1}, to: {tile: " + tl + ", port: s2mm1}}\n";
    routes += "  - {from: {tile: " + tl + ", port: mm2s0}, to: {tile: " + shim + ", port: s2mm0}}\n";
    routes += "  - {from: {tile: " + tl + ", port: mm2s1}, to: {tile: " + shim + ", port: s2mm1}}\n";
  }
  y << "bds:\n";
  for (const Bd& b : bds) y << bd_yaml(b);
  y << "routes:\n" << routes;
  return y.str();
}

bool overlaps(uint64_t a, uint64_t b, uint64_t n) { return a < b + n && b < a + n; }

}  // namespace

std::string split_attention_problem(const SplitAttentionPlan& p) {
  const std::string at = "aie_ml split attention (s=" + num(p.s) + ", heads=" + num(p.heads) + ", d=" + num(p.d) + "): ";
  if (p.heads < 1) return at + "heads must be at least 1";
  if (p.s < 4 || p.s % 4 != 0) return at + "s must be a positive multiple of 4";
  if (p.s > 16 && p.s % 16 != 0) return at + "s above 16 must be a multiple of 16 (whole key blocks)";
  if (p.d != 16 && p.d != 32) return at + "the head size d must be 16 or 32";
  const Shape sh = shape_of(p);
  if (sh.part_bytes() * kParts > kPkgBytes) return at + "one head's six [s, d] parts exceed the 24 KB package buffer";
  if (uint64_t(sh.sp() * p.d * 2) > kKtBytes) return at + "K^T of one head exceeds its 4 KB region";
  const uint64_t mem = uint64_t(kParts * sh.local_heads) * sh.part_bytes() + (p.rope ? 2 * sh.table_bytes() : 0);
  if (mem > kMemTileBytes) return at + "a tile's inputs do not fit its memory tile (512 KB)";
  const uint64_t offsets[] = {p.q_hi, p.q_lo, p.k_hi, p.k_lo, p.v_hi, p.v_lo, p.o_hi, p.o_lo, p.cos_offset, p.sin_offset};
  const char* names[] = {"q_hi", "q_lo", "k_hi", "k_lo", "v_hi", "v_lo", "o_hi", "o_lo", "cos_offset", "sin_offset"};
  for (int i = 0; i < (p.rope ? 10 : 8); ++i)
    if (offsets[i] % 4 != 0) return at + "DDR offset " + names[i] + " is not a multiple of 4 (DMA words)";
  const uint64_t matrix = uint64_t(p.s * p.heads * p.d) * 2;
  if (overlaps(p.o_hi, p.o_lo, matrix)) return at + "o_hi and o_lo overlap";
  return "";
}

std::string split_attention_kernel(const SplitAttentionPlan& p) {
  if (const std::string problem = split_attention_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  const Shape sh = shape_of(p);
  const std::string program = core_program(sh, p.rope);
  std::ostringstream k;
  k << "; AIE-ML split-precision attention stage (tasks/baselines/aie_ml/split_attention.cpp): s=" << p.s
    << " heads=" << p.heads << " d=" << p.d << (p.rope ? " with RoPE" : "") << ", " << sh.tiles << " tile(s)\n";
  for (int64_t c = 0; c < sh.tiles; ++c) k << ".tile " << c << " 0\n" << program;
  k << ".movement\n" << movement(p, sh);
  return k.str();
}

}  // namespace tlmcraft::tasks::aie_ml
