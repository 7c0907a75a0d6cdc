// Split-precision multi-head attention stage (split_attention.h) for the AIE-ML decoders.
//
// Tiles: T = the largest of 4, 2, 1 dividing `heads` columns; column c takes heads c H ..
// c H + H - 1 one after another (H = heads / T), and its R tiles [c, r] (R =
// row_tiles, up to 4) split every head's query rows: tile r computes rows r s/R ..
// (r + 1) s/R - 1 (it needs all of k and v, only its rows of q).
//
// Data path of column c: shimC.mm2s0 copies the column's q_hi and q_lo columns (H d
// adjacent columns, [s, H d] in memC); memC.mm2s<r> sends tile r, per head, its q rows of
// both (s2mm0). shimC.mm2s1 broadcasts to all R tiles of the column (s2mm1) the cos and
// sin tables once (RoPE) and then, per head, its k_hi, v_hi, k_lo, v_lo columns. Each
// tile has two package buffers (q rows, k and v; separate locks for the two streams).
// The core overwrites the package's q rows with o_hi and o_lo; tile.mm2s0 returns them to
// memC (s2mm<1 + r>), and when every tile's rows are in, memC.mm2s<R> / <R + 1> write
// o_hi / o_lo to DDR through shimC.s2mm0 / s2mm1 (4-D reads in memC, 3-D writes put the
// heads' columns in place). Every input has been read before the first output is
// written, so an output may overwrite an input.
//
// Compute tile memory (tile addresses; the core sees them at 0x70000 + address):
//   0x0000, 0x6000  package buffers: q_hi | q_lo (Pq = 2 d s/R bytes each) | k_hi | v_hi |
//                   k_lo | v_lo (P = 2 s d bytes each); after the transpose k_hi holds
//                   the current row's S (fp32, 4 sp bytes) and E's bf16 high and low
//                   parts (2 sp bytes each);
//   0xC000, 0xD000  K^T high and low parts [d, sp], sp = max(s, 16) (padding keys 0);
//                   the key mask (s < 16) follows K^T's low part;
//   0xE000          cos [s, d], then sin' [s, d] (sin with its first d/2 columns negated).
//
// Per head (fp32 throughout; a product of split values is three bf16 products):
//   RoPE (optional): x = x_hi + x_lo per row of q and k; y = x cos + rotate_half(x) sin'
//     (four exact products summed in fp32), split again into hi + lo in place;
//   K^T: k_hi and k_lo transposed in 16 x 16 blocks (VSHUFFLE even / odd passes);
//   per query row: S = q k^T by 16 keys at a time (broadcast q_hi[c], q_lo[c]; three
//     MACs per key block: hi hi, lo hi, hi lo); m = max(bf16(S)); E = 2^((S - m) kappa),
//     kappa = log2(e) / sqrt(d) as bf16 high + low, S - m clamped at -120 / kappa (up to
//     four interleaved chains, exp_block); E as bf16 high + low; z = sum E;
//     O = sum_t E_hi[t] v_hi[t] + E_hi[t] v_lo[t] + E_lo[t] v_hi[t], kept as hi + lo in
//     the q row; per group of up to 16 rows, 1/z for all of them at once (Newton
//     reciprocal, fp_steps.h, one lane per row), then o = (O_hi + O_lo)(1/z) with three
//     products; o_hi = bf16(o), o_lo = bf16(o - o_hi).
// Straight code is packed into bundles by the shared list scheduler (Segment below); the score
// and P V loops are software-pipelined by hand (next step's loads after this step's
// last reads). Loops over key blocks, rows and heads are counted (JNZD) or zero-overhead
// loops, so the program fits the 1024-bundle program memory (at most 736 bundles for the
// decoder shapes).
#include "platforms/aie_ml/pack/baselines/split_attention.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/aie_ml/bundle_schedule.h"
#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kOwn = kAieMlOwnTileBase;
constexpr uint32_t kPkg0 = 0x0000, kPkg1 = 0x6000, kPkgBytes = 0x6000;
constexpr uint32_t kKtHi = 0xC000, kKtLo = 0xD000, kKtBytes = 0x1000, kTables = 0xE000;
constexpr uint64_t kMemTileBytes = 512u << 10;
constexpr int kParts = 6;  // q_hi, q_lo, k_hi, k_lo, v_hi, v_lo
// Compute-tile locks (the core adds 48). Package b in {0, 1}: its q rows empty / full =
// 2b / 2b + 1, its k and v empty / full = 4 + 2b / 5 + 2b, its o rows done = 8 + 2b; the
// tables have arrived = 12. Package 1's locks are package 0's + 2 (the core XORs 2).
enum TileLock : int { kQEmpty0 = 0, kQFull0 = 1, kKvEmpty0 = 4, kKvFull0 = 5, kODone0 = 8, kTablesFull = 12 };
// memC locks: the q parts have arrived (one per tile of the column); every tile's o rows
// have arrived (two per tile: the o_hi and o_lo writers).
constexpr int kMemInputs = 0, kMemOutputs = 1;
constexpr int64_t kMaxColumns = 4, kMaxRowTiles = 4;

struct Shape {
  int64_t s, heads, d;
  int64_t tiles = 1, local_heads = 1;  // columns, heads per column
  int64_t row_tiles = 1, rows = 1;     // tiles per column, query rows per tile
  int64_t sp() const { return s < 16 ? 16 : s; }  // K^T row length (whole 16-lane key blocks)
  int64_t blocks() const { return sp() / 16; }
  int64_t h() const { return heads * d; }
  uint64_t part_bytes() const { return uint64_t(s * d) * 2; }  // one [s, d] bf16 part
  uint64_t q_bytes() const { return uint64_t(rows * d) * 2; }  // one tile's q rows of a part
  uint64_t table_bytes() const { return uint64_t(s * d) * 2; }
  uint64_t package_bytes() const { return 2 * q_bytes() + 4 * part_bytes(); }
};

Shape shape_of(const SplitAttentionPlan& p) {
  Shape sh{p.s, p.heads, p.d};
  if (p.heads < 1 || p.s < 1) return sh;
  sh.tiles = 1;
  for (int64_t t : {kMaxColumns, int64_t(2)})
    if (p.heads % t == 0) {
      sh.tiles = t;
      break;
    }
  sh.local_heads = p.heads / sh.tiles;
  if (p.row_tiles > 0) {
    sh.row_tiles = p.row_tiles;  // checked by split_attention_problem
  } else {
    sh.row_tiles = kMaxRowTiles;
    while (sh.row_tiles > 1 && p.s % sh.row_tiles != 0) --sh.row_tiles;
  }
  sh.rows = p.s / sh.row_tiles;
  return sh;
}

std::string addr(uint32_t a) { return std::to_string(kOwn + a); }
std::string lock(int id) { return std::to_string(48 + id); }
std::string num(int64_t v) { return std::to_string(v); }

// Straight-line segments and loop bodies, collected as slot-op text and packed into
// bundles by the shared AIE-ML list scheduler (isa/aie_ml/bundle_schedule.h, critical
// path first). Within every segment this file emits, accesses through different pointer
// registers address different buffers (q / k / v parts, K^T, the row scratch, the
// tables), which the scheduler is told; a segment ends where that would not hold.
class Segment {
 public:
  // One slot op or a pre-formed bundle ("a ;; b").
  void op(const std::string& bundle, const std::string& comment = "") {
    ops_.push_back(comment.empty() ? bundle : bundle + "    ; " + comment);
  }
  // Straight-line KernelText output (fp_steps.h helpers), one bundle per line.
  void absorb(const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) ops_.push_back(line);
  }
  // Emits the bundles; `tail` (a branch) goes into the last bundle; `loop_end` closes an
  // open zero-overhead loop with it.
  void emit(KernelText& t, const std::string& tail = "", bool loop_end = false) {
    if (!tail.empty()) ops_.push_back(tail);
    isa::aie_ml::ScheduleOptions options;
    options.critical_path_first = true;
    options.keep_register_view_order = true;
    for (int p = 0; p < isa::aie_ml::kPointerRegs; ++p) options.disjoint_pointers.push_back(p);
    const std::vector<std::string> bundles = isa::aie_ml::schedule_bundles(ops_, options);
    for (size_t b = 0; b < bundles.size(); ++b) {
      if (loop_end && b + 1 == bundles.size())
        t.loop_last(bundles[b]);
      else
        t.op(bundles[b]);
    }
    ops_.clear();
  }

 private:
  std::vector<std::string> ops_;
};

// The fp_steps.h helpers write KernelText; these route their ops into a segment.
template <typename F>
void via_text(Segment& s, F&& emit) {
  KernelText k;
  emit(k);
  s.absorb(k.str());
}
void split(Segment& s, const std::string& a, const std::string& hi, const std::string& lo, const std::string& tmp) {
  via_text(s, [&](KernelText& k) { split(k, a, hi, lo, tmp); });
}
void mul_split(Segment& s, const std::string& dst, const std::string& ah, const std::string& al, const std::string& bh,
               const std::string& bl) {
  via_text(s, [&](KernelText& k) { mul_split(k, dst, ah, al, bh, bl); });
}

std::string bm(int i) { return "bm" + num(i); }
std::string am(int i) { return "am" + num(i); }
std::string w(int i) { return "w" + num(i); }

// One key block's E = 2^((S - m) kappa), one of up to four chains the scheduler
// interleaves (chain c, block c of each step): S (16 fp32) at [p2 + 64 c]; E's bf16 high
// and low parts to [pE] and [pE + 2 sp] (pE = p3 + c: the E rows at this block), which
// also hold k << 23 while 2^f is computed; sum += (E_hi + E_lo) w21 (w21: bf16 1.0 for
// keys < s, 0 for padding). 2^t to about 1e-5 relative (the cubic of fp_steps.h has
// 7e-4): k = round(t), f = t - k as bf16 high + low, 2^f by the degree-4 polynomial
// kExp2 (relative error < 3.6e-6, as good as attention_tasks.cpp's degree-5 Taylor) in
// Horner steps whose products keep three of the four hi/lo terms, then k is added to the
// exponent field. Constants: c4 as bf16 high / low w16 / w20, c3 bm0, c2 bm2, c1 bm12, c0
// = 1 bm14, m bm17, kappa w17 / w18. Registers of chain c: accumulators bm(a), bm(b);
// x(2c) = [f_hi | p_hi] and
// x(2c + 1) = [f_lo | p_lo] (the platform interlocks whole x registers: with p's high
// part apart from its low part, the first product of a Horner step starts before the
// low part is known); sum accumulator bm10 / bm11.
// 2^f on [-1/2, 1/2], c4 .. c0: Chebyshev fit of degree 4 (mpmath chebyfit); with c4 as
// bf16 high + low and c3..c1 as fp32 its relative error stays below 3.6e-6.
constexpr double kExp2[5] = {0.009666368515385448, 0.05592197584225585, 0.24022349038020361, 0.6931210452034271, 1.0};

struct ExpChain {
  int a, b, sum;
};
constexpr ExpChain kChains[4] = {{1, 3, 10}, {4, 5, 11}, {6, 7, 10}, {8, 9, 11}};

void exp_block(Segment& s, int c, int64_t sp) {
  const ExpChain& r = kChains[c];
  const std::string A = bm(r.a), B = bm(r.b), pe = "p" + num(3 + c), lo = num(2 * sp);
  const std::string fh = w(4 * c), ph = w(4 * c + 1), fl = w(4 * c + 2), pl = w(4 * c + 3);
  // Both halves through load unit A: AIE2 loads accumulators only there (VLDB takes w).
  s.op("VLDA " + am(2 * r.a) + ", [p2, #" + num(64 * c) + "]", "S, 16 keys");
  s.op("VLDA " + am(2 * r.a + 1) + ", [p2, #" + num(64 * c + 32) + "]");
  s.op("VSUB.F " + A + ", " + A + ", bm17", "S - m");
  split(s, A, ph, pl, B);
  // S - m >= L = -120 / kappa (x11: -inf in lanes 0..15, L in 16..31 for the high part):
  // t >= -120 keeps 2^t a normal fp32 (weights below 1e-36 are that small anyway).
  s.op("VMAX.BF16 x" + num(2 * c) + ", x" + num(2 * c) + ", x11");
  mul_split(s, A, ph, pl, "w17", "w18");
  s.op("VCONV.S32.FP32 " + B + ", " + A + ", #0", "t = (S - m) kappa; k = round(t)");
  s.op("VCONV.FP32.S32 " + B + ", " + B);
  s.op("VSUB.F " + A + ", " + A + ", " + B, "f = t - k (exact)");
  s.op("VCONV.S32.FP32 " + B + ", " + B + ", #23", "k << 23, parked in E's slots");
  s.op("VST " + am(2 * r.b) + ", [" + pe + ", #0]");
  s.op("VST " + am(2 * r.b + 1) + ", [" + pe + ", #" + lo + "]");
  split(s, A, fh, fl, B);
  s.op("VMAC.E.BF16 " + B + ", bm0, w16, " + fh, "p = c3 + c4 f");
  s.op("VMAC.E.BF16 " + B + ", " + B + ", w16, " + fl);
  s.op("VMAC.E.BF16 " + B + ", " + B + ", w20, " + fh);
  std::string p = B, q = A;
  for (const char* cn : {"bm2", "bm12", "bm14"}) {
    // p's low part: p - p_hi (exact) by a MAC with -1.0 (w19) into p itself, so the step
    // needs no third accumulator.
    s.op("VCONV.BF16.FP32 " + ph + ", " + p, std::string("p = ") + cn + " + p f");
    s.op(std::string("VMAC.E.BF16 ") + q + ", " + cn + ", " + ph + ", " + fh);
    s.op("VMAC.E.BF16 " + p + ", " + p + ", " + ph + ", w19");
    s.op("VCONV.BF16.FP32 " + pl + ", " + p);
    s.op("VMAC.E.BF16 " + q + ", " + q + ", " + ph + ", " + fl);
    s.op("VMAC.E.BF16 " + q + ", " + q + ", " + pl + ", " + fh);
    std::swap(p, q);
  }
  const int qi = q == B ? r.b : r.a;
  s.op("VLDA " + am(2 * qi) + ", [" + pe + ", #0]", "k << 23");
  s.op("VLDA " + am(2 * qi + 1) + ", [" + pe + ", #" + lo + "]");
  s.op("VADD.ACC32 " + q + ", " + p + ", " + q, "E = 2^k 2^f (k added to the exponent field)");
  split(s, q, ph, pl, p);
  s.op("VST " + ph + ", [" + pe + ", #0]", "E high part");
  s.op("VST " + pl + ", [" + pe + ", #" + lo + "]", "E low part");
  s.op("VMAC.E.BF16 " + bm(r.sum) + ", " + bm(r.sum) + ", " + ph + ", w21", "sum of E over keys < s");
  s.op("VMAC.E.BF16 " + bm(r.sum) + ", " + bm(r.sum) + ", " + pl + ", w21");
}

// Register use of the core program:
//   r29 package base (core address), r26 / r27 its full / o rows done lock ids, r20 heads
//   left, r22 / r24 current q_hi / q_lo row, r23 rows left, r25 exp steps left, r13..r16
//   broadcast sources, r4, r5, r9, r10 temporaries, r16, r17, r19 the transpose loop;
//   w16 c5, w17 / w18 kappa high / low, w21 the key mask, x11 the clamp of S - m (per
//   row); bm12..bm16 fp_constants, bm17 the row maximum.

// RoPE of one row of a split matrix (hi at [pa], lo at [pb]) with cos at [p4] and sin'
// at [p5] (sin with the first half negated); writes the rotated row back as hi + lo.
// Registers by `set` (0 for q, 1 for k) so the scheduler can overlap the two.
// d = 16, two rows per step (row j at [p + 32 j]; hi at p0, lo at p1, cos at p4, sin' at
// p5): each row's hi and lo are loaded twice into an x register, multiplied by cos, then
// rotated in place (VSHIFT by 8 lanes) and multiplied by sin'. cos and sin' of both rows
// share x2 and x3.
void rope_row_pair_d16(Segment& t) {
  t.op("VLDA w4, [p4, #0]", "cos, two rows");
  t.op("VLDB w5, [p4, #32]");
  t.op("VLDA w6, [p5, #0]", "sin', two rows");
  t.op("VLDB w7, [p5, #32]");
  for (int j = 0; j < 2; ++j) {
    const int xh = j ? 4 : 0, xl = j ? 5 : 1;
    const std::string off = "#" + num(32 * j), hw = w(2 * xh), lw = w(2 * xl), cs = w(4 + j), sn = w(6 + j);
    const std::string acc = bm(j), tmp = bm(2 + j), yh = w(12 + 2 * j), yl = w(13 + 2 * j);
    t.op("VLDA " + hw + ", [p0, " + off + "]", "x_hi twice");
    t.op("VLDB " + w(2 * xh + 1) + ", [p0, " + off + "]");
    t.op("VLDA " + lw + ", [p1, " + off + "]", "x_lo twice");
    t.op("VLDB " + w(2 * xl + 1) + ", [p1, " + off + "]");
    t.op("VMUL.E.BF16 " + acc + ", " + hw + ", " + cs, "x cos + rotate_half(x) sin'");
    t.op("VMAC.E.BF16 " + acc + ", " + acc + ", " + lw + ", " + cs);
    t.op("VSHIFT x" + num(xh) + ", x" + num(xh) + ", x" + num(xh) + ", #16", "rotate by 8 lanes");
    t.op("VSHIFT x" + num(xl) + ", x" + num(xl) + ", x" + num(xl) + ", #16");
    t.op("VMAC.E.BF16 " + acc + ", " + acc + ", " + hw + ", " + sn);
    t.op("VMAC.E.BF16 " + acc + ", " + acc + ", " + lw + ", " + sn);
    split(t, acc, yh, yl, tmp);
    t.op("VST " + yh + ", [p0, " + off + "]", "y_hi");
    t.op("VST " + yl + ", [p1, " + off + "]", "y_lo");
  }
}

// d = 16, one row (hi at [p0], lo at [p1], cos at [p4], sin' at [p5]): for odd row counts.
void rope_row_d16(Segment& t) {
  t.op("VLDA w4, [p4, #0]", "cos");
  t.op("VLDB w6, [p5, #0]", "sin'");
  t.op("VLDA w0, [p0, #0] ;; VLDB w1, [p0, #0]", "x_hi twice: x0 = x_hi : x_hi");
  t.op("VLDA w2, [p1, #0] ;; VLDB w3, [p1, #0]", "x_lo twice");
  t.op("VSHIFT x4, x0, x0, #16", "w8 = rotate_half(x_hi) (8 lanes)");
  t.op("VSHIFT x5, x1, x1, #16", "w10 = rotate_half(x_lo)");
  t.op("VMUL.E.BF16 bm0, w0, w4", "x cos + rot(x) sin'");
  t.op("VMAC.E.BF16 bm0, bm0, w2, w4");
  t.op("VMAC.E.BF16 bm0, bm0, w8, w6");
  t.op("VMAC.E.BF16 bm0, bm0, w10, w6");
  split(t, "bm0", "w12", "w13", "bm2");
  t.op("VST w12, [p0, #0]", "y_hi");
  t.op("VST w13, [p1, #0]", "y_lo");
}

// d = 32, row j of the step (at [p + 64 j]; hi at p0, lo at p1, cos at p4, sin' at p5):
// halves a (columns 0..15) and b (16..31) are whole vectors, so rotate_half swaps them.
// Row 0 uses x0..x3, bm0, bm1, bm4, bm5; row 1 x4..x7, bm2, bm3, bm6, bm7; the rotated
// halves overwrite the row's input registers.
void rope_row_d32(Segment& t, int j) {
  const int in = j ? 12 : 0, cs = j ? 8 : 4, sn = j ? 10 : 6;
  const std::string ah = w(in), bh = w(in + 1), al = w(in + 2), bl = w(in + 3);
  const std::string ya = bm(j ? 2 : 0), yb = bm(j ? 3 : 1), ta = bm(j ? 6 : 4), tb = bm(j ? 7 : 5);
  const int64_t o = 64 * j;
  auto at = [&](const char* p, int64_t off) { return std::string(", [") + p + ", #" + num(o + off) + "]"; };
  t.op("VLDA " + w(cs) + at("p4", 0), "cos halves");
  t.op("VLDB " + w(cs + 1) + at("p4", 32));
  t.op("VLDA " + w(sn) + at("p5", 0), "sin' halves (first negated)");
  t.op("VLDB " + w(sn + 1) + at("p5", 32));
  t.op("VLDA " + ah + at("p0", 0), "a_hi");
  t.op("VLDB " + bh + at("p0", 32), "b_hi");
  t.op("VLDA " + al + at("p1", 0), "a_lo");
  t.op("VLDB " + bl + at("p1", 32), "b_lo");
  t.op("VMUL.E.BF16 " + ya + ", " + ah + ", " + w(cs), "y_a = a cos_a - b sin_a");
  t.op("VMUL.E.BF16 " + yb + ", " + bh + ", " + w(cs + 1), "y_b = b cos_b + a sin_b");
  t.op("VMAC.E.BF16 " + ya + ", " + ya + ", " + al + ", " + w(cs));
  t.op("VMAC.E.BF16 " + yb + ", " + yb + ", " + bl + ", " + w(cs + 1));
  t.op("VMAC.E.BF16 " + ya + ", " + ya + ", " + bh + ", " + w(sn));
  t.op("VMAC.E.BF16 " + yb + ", " + yb + ", " + ah + ", " + w(sn + 1));
  t.op("VMAC.E.BF16 " + ya + ", " + ya + ", " + bl + ", " + w(sn));
  t.op("VMAC.E.BF16 " + yb + ", " + yb + ", " + al + ", " + w(sn + 1));
  split(t, ya, ah, al, ta);
  split(t, yb, bh, bl, tb);
  t.op("VST " + ah + at("p0", 0));
  t.op("VST " + bh + at("p0", 32));
  t.op("VST " + al + at("p1", 0));
  t.op("VST " + bl + at("p1", 32));
}

// The program of the tile in row `r` of a column: query rows r * rows .. (r + 1) * rows - 1
// of the column's heads.
std::string core_program(const Shape& sh, bool rope, int64_t r) {
  const int64_t s = sh.s, d = sh.d, sp = sh.sp(), B = sh.blocks(), P = int64_t(sh.part_bytes());
  const int64_t rows = sh.rows, Pq = int64_t(sh.q_bytes());
  // Package: q_hi, q_lo (this tile's rows), k_hi, v_hi, k_lo, v_lo (v_hi and v_lo, which
  // P V loads together, 2 P apart: different 8 KB banks at the larger shapes).
  const int64_t k_hi = 2 * Pq, v_hi = k_hi + P, k_lo = v_hi + P, v_lo = k_lo + P;
  const int64_t vectors = d / 16;
  const uint32_t sin_table = kTables + uint32_t(sh.table_bytes());
  KernelText t;
  t.comment("split attention: s=" + num(s) + " d=" + num(d) + ", heads on this tile " + num(sh.local_heads) +
            ", query rows " + num(r * rows) + ".." + num((r + 1) * rows - 1) + (rope ? " (RoPE on q, k)" : ""));
  fp_constants(t);
  const double ln2 = std::log(2.0);
  const double kappa = 1.0 / (ln2 * std::sqrt(double(d)));
  const_bf16(t, "w16", bf16_bits(kExp2[0]), "2^f's c4, high part");
  const_acc(t, "bm12", fp32_bits(kExp2[3]), "2^f's c1 (c0 = 1 is fp_constants' bm14)");
  const_bf16(t, "w17", bf16_bits(kappa), "kappa = log2(e)/sqrt(d), high part");
  const_bf16(t, "w18", bf16_low_bits(kappa), "kappa, low part");
  if (sp > s) {
    t.comment("key mask: bf16 1.0 for keys < s, 0 for padding");
    const uint32_t mask = kKtLo + uint32_t(sp * d * 2);
    t.op("MOVXM r8, " + std::to_string(0x3F803F80u));
    t.op("MOV r9, #0");
    t.op("MOVXM p0, " + addr(mask));
    for (int i = 0; i < 8; ++i) t.op(std::string(2 * i < s ? "ST r8" : "ST r9") + ", [p0], #4");
    t.op("MOVXM p0, " + addr(mask));
    t.op("VLDA w21, [p0, #0]");
  } else {
    const_bf16(t, "w21", bf16_bits(1.0), "key mask: bf16 1.0 (every key counts)");
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
    t.op("MOVXM p0, " + addr(sin_table));
    t.zero_overhead_loop("sinneg", uint64_t(s),
                         {"VLDA w0, [p0, #0]", "VADD.16 x0, x0, x1", "VST w0, [p0], #" + num(2 * d)});
  }
  t.op("MOVXM r29, " + addr(kPkg0), "current package");
  t.op("MOVXM r26, " + lock(kQFull0), "its q rows full lock");
  t.op("MOVXM r28, " + lock(kKvFull0), "its k, v full lock");
  t.op("MOVXM r18, " + lock(kKvEmpty0), "its k, v empty lock");
  t.op("MOVXM r27, " + lock(kODone0), "its o rows done lock");
  t.op("MOVXM r20, " + num(sh.local_heads - 1), "heads left");
  t.label("head");
  t.op("ACQ r26, 1", "the package's q rows have arrived");
  t.op("ACQ r28, 1", "its k and v too");
  Segment sc;
  if (rope) {
    // q rows use the table rows of their positions r * rows + i; k rows all of them.
    for (int part = 0; part < 2; ++part) {
      const int64_t n = part == 0 ? rows : s, hi = part == 0 ? 0 : k_hi, lo = part == 0 ? Pq : k_lo;
      const uint32_t first = uint32_t(part == 0 ? r * rows * 2 * d : 0);
      t.comment(std::string("RoPE on the rows of ") + (part == 0 ? "q" : "k") + " (in place, re-split into hi + lo)");
      t.op("MOVXM r9, " + num(hi));
      t.op("ADD r10, r29, r9");
      t.op("MOV p0, r10", "x_hi row");
      t.op("MOVXM r9, " + num(lo));
      t.op("ADD r10, r29, r9");
      t.op("MOV p1, r10", "x_lo row");
      t.op("MOVXM p4, " + addr(kTables + first), "cos row");
      t.op("MOVXM p5, " + addr(sin_table + first), "sin' row");
      // Two rows per step when the count is even (independent chains to interleave).
      const int64_t per_step = n % 2 == 0 ? 2 : 1;
      t.begin_loop(part == 0 ? "rope_q" : "rope_k", uint64_t(n / per_step));
      if (d == 16 && per_step == 2) {
        rope_row_pair_d16(sc);
      } else if (d == 16) {
        rope_row_d16(sc);
      } else {
        for (int j = 0; j < per_step; ++j) rope_row_d32(sc, j);
      }
      const std::string step = "#" + num(2 * d * per_step);
      for (const char* pr : {"PADDA [p0], ", "PADDB [p1], ", "PADDS [p4], ", "PADDA [p5], "}) sc.op(pr + step);
      sc.emit(t, "", true);
    }
  }
  t.comment("transpose k_hi, k_lo [s, d] -> K^T high, low [d, sp] in 16 x 16 blocks");
  t.op("MOVXM r9, " + num(k_hi));
  t.op("ADD r16, r29, r9", "k_hi");
  t.op("MOVXM r17, " + addr(kKtHi));
  t.op("MOVXM r19, 1", "parts left");
  t.label("kpart");
  for (int64_t cc = 0; cc < d / 16; ++cc) {
    // Block (16 keys, columns 16 cc ..): x_r = [key 2r | key 2r + 1] (16 columns each),
    // i.e. the 256 values in row-major order across x0..x7. "Even elements of a:b" of
    // each register pair into the first four results and "odd elements" into the last
    // four rotates the 8-bit flat index right by one bit; four passes turn key * 16 +
    // column into column * 16 + key: x_r = [K^T row 2r | K^T row 2r + 1]. Keys >= s are 0.
    t.op("MOVXM r9, " + num(32 * cc));
    t.op("ADD r10, r16, r9");
    t.op("MOV p0, r10", "k rows, columns 16 cc ..");
    t.op("MOVXM r9, " + num(2 * sp * 16 * cc));
    t.op("ADD r10, r17, r9");
    t.op("MOV p1, r10", "K^T rows 16 cc .., keys 16 b ..");
    t.begin_loop("transpose", uint64_t(std::max<int64_t>(1, s / 16)));
    for (int r = 0; r < 8; ++r)
      for (int half = 0; half < 2; ++half) {
        const int64_t key = 2 * r + half;
        const std::string reg = w(2 * r + half);
        if (key < s)
          sc.op(std::string(half ? "VLDB " : "VLDA ") + reg + ", [p0, #" + num(key * 2 * d) + "]");
        else
          sc.op("VCLR " + reg, "padding key");
      }
    int phys[8] = {0, 1, 2, 3, 4, 5, 6, 7}, spare = 11;
    for (int pass = 0; pass < 4; ++pass) {
      int next[8];
      for (int i = 0; i < 4; ++i) {
        const int a0 = phys[2 * i], b0 = phys[2 * i + 1];
        sc.op("VSHUFFLE x" + num(spare) + ", x" + num(a0) + ", x" + num(b0) + ", #6", pass == 0 && i == 0 ? "even 16-bit elements" : "");
        sc.op("VSHUFFLE x" + num(b0) + ", x" + num(a0) + ", x" + num(b0) + ", #7", pass == 0 && i == 0 ? "odd" : "");
        next[i] = spare;
        next[4 + i] = b0;
        spare = a0;
      }
      std::copy(next, next + 8, phys);
    }
    for (int r = 0; r < 8; ++r)
      for (int half = 0; half < 2; ++half)
        sc.op("VST " + w(2 * phys[r] + half) + ", [p1, #" + num((2 * r + half) * 2 * sp) + "]");
    sc.op("PADDA [p0], #" + num(16 * 2 * d));
    sc.op("PADDB [p1], #32");
    sc.emit(t, "", true);
  }
  t.op("MOVXM r9, " + num(k_lo - k_hi));
  t.op("ADD r16, r16, r9", "k_lo");
  t.op("MOVXM r9, " + num(kKtBytes));
  t.op("ADD r17, r17, r9");
  t.op("JNZD r19, r19, kpart");

  // Row scratch in the k parts: S (fp32), E's high and low parts (bf16).
  const int64_t row_s = k_hi, row_ehi = row_s + 4 * sp, row_elo = row_ehi + 2 * sp;
  t.op("MOV r22, r29", "q_hi row i (then o_hi row i)");
  t.op("MOVXM r9, " + num(Pq));
  t.op("ADD r24, r29, r9", "q_lo row i (then o_lo row i)");
  // Rows in groups of G (at most 16, dividing rows): each row leaves O = sum_t E v (not yet
  // divided by z) as hi + lo over its q row and z at [p7]; then one vector reciprocal
  // serves the group's G rows and a pass scales them (1/z's Newton steps would otherwise
  // cost about 150 cycles per row).
  int64_t G = std::min<int64_t>(16, rows);
  while (rows % G != 0) --G;
  const int64_t z_array = k_lo, rhi_array = k_lo + 64, rlo_array = k_lo + 96;  // free after the transpose
  t.op("MOVXM r21, " + num(rows / G - 1), "row groups left");
  t.label("group");
  t.op("MOV r30, r22", "the group's first o_hi row");
  t.op("MOV r31, r24", "and o_lo row");
  t.op("MOVXM r9, " + num(z_array));
  t.op("ADD r10, r29, r9");
  t.op("MOV p7, r10", "z of the group's rows");
  t.op("MOVXM r23, " + num(G - 1), "rows of the group left");
  t.label("row");
  // Scores: accumulators per (block, product kind) when there are few blocks (a chain of
  // MACs on one accumulator waits for each result), per block otherwise.
  const bool per_kind = B <= 4;
  auto acc = [&](int64_t b, int k) { return per_kind ? bm(int(3 * b + k)) : bm(int(b)); };
  const int accs = int(per_kind ? 3 * B : B);
  static const int kt_regs[8][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {12, 13}, {14, 15}, {19, 20}, {22, 23}};
  auto kt = [&](int64_t b, int part) { return w(kt_regs[b][part]); };
  auto kt_load = [&](int64_t b) {
    sc.op("VLDA " + kt(b, 0) + ", [p2, #" + num(32 * b) + "]", "K^T row c, block " + num(b));
    sc.op("VLDB " + kt(b, 1) + ", [p3, #" + num(32 * b) + "]");
  };
  auto to_reg = [&](const std::string& reg, int64_t offset, const std::string& what) {
    sc.op("MOVXM r9, " + num(offset));
    sc.op("ADD r10, r29, r9");
    sc.op("MOV " + reg + ", r10", what);
  };
  t.comment("S = q_hi K^T_hi + q_lo K^T_hi + q_hi K^T_lo: 16 keys per block, c = 0 .. d-1");
  for (int a = 0; a < accs; ++a) sc.op("VCLR " + bm(a));
  sc.op("MOV p0, r22");
  sc.op("MOV p1, r24");
  sc.op("MOVXM p2, " + addr(kKtHi));
  sc.op("MOVXM p3, " + addr(kKtLo));
  sc.op("LDA.U16 r13, [p0], #2", "q_hi[0]");
  sc.op("LDA.U16 r14, [p1], #2", "q_lo[0]");
  for (int64_t b = 0; b < B; ++b) kt_load(b);
  sc.emit(t);
  t.begin_loop("score", uint64_t(d));
  sc.op("VBCST.16 x4, r13", "w8 = q_hi[c]");
  sc.op("VBCST.16 x5, r14", "w10 = q_lo[c]");
  sc.op("LDA.U16 r13, [p0], #2", "q_hi[c + 1] (one past the row at the end: unused)");
  sc.op("LDA.U16 r14, [p1], #2");
  sc.op("PADDB [p2], #" + num(2 * sp), "K^T row c + 1");
  sc.op("PADDS [p3], #" + num(2 * sp));
  for (int k = 0; k < 3; ++k)
    for (int64_t b = 0; b < B; ++b) {
      const std::string a = acc(b, k);
      sc.op("VMAC.E.BF16 " + a + ", " + a + ", " + kt(b, k == 2 ? 1 : 0) + ", " + (k == 1 ? "w10" : "w8"));
      if (k == 2) kt_load(b);  // the next row of K^T, once block b's registers are read
    }
  sc.emit(t, "", true);
  t.comment("S to the row scratch (fp32), m = max(bf16(S)), constants of 2^t, E pointers");
  to_reg("p2", row_s, "S row");
  for (int64_t b = 0; b < B; ++b) {
    const int a = per_kind ? int(3 * b) : int(b);
    if (per_kind) {
      sc.op("VADD.F " + bm(a) + ", " + bm(a) + ", " + bm(a + 1));
      sc.op("VADD.F " + bm(a) + ", " + bm(a) + ", " + bm(a + 2));
    }
    sc.op("VST " + am(2 * a) + ", [p2, #" + num(64 * b) + "]");
    sc.op("VST " + am(2 * a + 1) + ", [p2, #" + num(64 * b + 32) + "]");
  }
  sc.op("MOVXM r4, " + std::to_string(0xFF80), "-inf (bf16)");
  sc.op("VBCST.16 x5, r4");
  static const int max_x[8] = {0, 1, 2, 3, 6, 7, 0, 1};
  for (int64_t b = 0; b < B; ++b) {
    const int a = per_kind ? int(3 * b) : int(b);
    const int x = max_x[b];
    sc.op("VCONV.BF16.FP32 w" + num(2 * x) + ", " + bm(a));
    sc.op("VMOV w" + num(2 * x + 1) + ", w" + num(2 * x));
    sc.op("VMAX.BF16 x5, x5, x" + num(x));
  }
  via_text(sc, [](KernelText& k) { reduce_max_bf16(k, "x5"); });
  sc.op("VCONV.FP32.BF16 bm17, w10", "m (every lane; any m near max(S) keeps 2^t in range)");
  via_text(sc, [&](KernelText& k) {
    const_acc(k, "bm0", fp32_bits(kExp2[1]), "2^f's c3");
    const_acc(k, "bm2", fp32_bits(kExp2[2]), "2^f's c2");
    const_bf16(k, "w20", bf16_low_bits(kExp2[0]), "2^f's c4, low part");
    const_bf16(k, "w19", bf16_bits(-1.0), "-1.0 (low parts in 2^t's Horner steps)");
  });
  sc.op("MOVXM r4, " + num(bf16_bits(-120.0 / kappa)), "the least S - m: -120 / kappa (bf16)");
  sc.op("VBCST.16 x11, r4");
  sc.op("MOVXM r4, " + num(0xFF80), "-inf (bf16)");
  sc.op("VBCST.16 x0, r4");
  sc.op("MOVXM r5, " + num(0xFFFFu), "lanes 0..15");
  sc.op("VSEL.16 x11, x11, x0, r5");
  sc.op("VCLR bm10", "sums of E");
  sc.op("VCLR bm11");
  // Chains: the largest of 4, 3, 2, 1 dividing the key blocks.
  int chains = 1;
  for (int c : {4, 3, 2})
    if (B % c == 0) {
      chains = c;
      break;
    }
  for (int c = 0; c < chains; ++c) to_reg("p" + num(3 + c), row_ehi + 32 * c, "E_hi, E_lo of chain " + num(c));
  const bool looped = B > chains;
  if (looped) sc.op("MOVXM r25, " + num(B / chains - 1), "steps of " + num(chains) + " key blocks left");
  sc.emit(t);
  if (looped) t.label("exp_step");
  for (int c = 0; c < chains; ++c) exp_block(sc, c, sp);
  if (looped) {
    sc.op("PADDA [p2], #" + num(64 * chains));
    for (int c = 0; c < chains; ++c) sc.op("PADDB [p" + num(3 + c) + "], #" + num(32 * chains));
    sc.emit(t, "JNZD r25, r25, exp_step");
  }
  sc.op("VADD.F bm10, bm10, bm11", "z = sum E");
  via_text(sc, [](KernelText& k) { reduce_sum_fp32(k, "bm10", "bm7"); });
  sc.op("VMOV x6, bm10");
  sc.op("VEXTRACT.S32 r5, x6, #0");
  sc.op("ST r5, [p7], #4", "z of this row");
  sc.emit(t);  // the P V prologue reads E through other pointers than the stores above
  // P V with E (not yet divided by z): accumulators per (key of the step, vector, kind);
  // d = 16 takes two keys per step, so there are six chains in both cases.
  const int64_t U = d == 16 ? 2 : 1;
  auto pacc = [&](int64_t u, int64_t v, int k) { return bm(int((u * vectors + v) * 3 + k)); };
  const std::string rh[2] = {"r13", "r15"}, rl[2] = {"r14", "r16"}, xh[2] = {"x4", "x6"}, xl[2] = {"x5", "x7"};
  const std::string wh[2] = {"w8", "w12"}, wl[2] = {"w10", "w14"};
  auto vh = [&](int64_t u, int64_t v) { return w(int(2 * (u * vectors + v))); };
  auto vl = [&](int64_t u, int64_t v) { return w(int(2 * (u * vectors + v) + 1)); };
  for (int a = 0; a < 6; ++a) sc.op("VCLR " + bm(a));
  to_reg("p0", row_ehi, "E_hi[t]");
  to_reg("p3", row_elo, "E_lo[t]");
  to_reg("p1", v_hi, "v_hi[t]");
  to_reg("p2", v_lo, "v_lo[t]");
  // E pointers step by 2 U bytes: an offset and PADD (multiples of 4) when U = 2, the
  // load's post-increment when U = 1 (p0 / p3 then point one key ahead).
  const std::string e_post = U == 1 ? "], #2" : "";
  for (int64_t u = 0; u < U; ++u) {
    sc.op("LDA.U16 " + rh[u] + ", [p0" + (U == 1 ? e_post : ", #" + num(2 * u) + "]"));
    sc.op("LDA.U16 " + rl[u] + ", [p3" + (U == 1 ? e_post : ", #" + num(2 * u) + "]"));
    for (int64_t v = 0; v < vectors; ++v) {
      sc.op("VLDA " + vh(u, v) + ", [p1, #" + num(u * 2 * d + 32 * v) + "]");
      sc.op("VLDB " + vl(u, v) + ", [p2, #" + num(u * 2 * d + 32 * v) + "]");
    }
  }
  sc.emit(t);
  t.comment("O = sum_t E_hi[t] v_hi[t] + E_hi[t] v_lo[t] + E_lo[t] v_hi[t], " + num(U) + " key(s) per step");
  t.begin_loop("pv", uint64_t(s / U));
  for (int64_t u = 0; u < U; ++u) {
    sc.op("VBCST.16 " + xh[u] + ", " + rh[u], "E_hi[t]");
    sc.op("VBCST.16 " + xl[u] + ", " + rl[u], "E_lo[t]");
    sc.op("LDA.U16 " + rh[u] + ", [p0" + (U == 1 ? e_post : ", #" + num(2 * (U + u)) + "]"), "next step's");
    sc.op("LDA.U16 " + rl[u] + ", [p3" + (U == 1 ? e_post : ", #" + num(2 * (U + u)) + "]"));
  }
  if (U == 2) {
    sc.op("PADDB [p0], #" + num(2 * U));
    sc.op("PADDS [p3], #" + num(2 * U));
  }
  // v pointers move on after the first reload (later reloads' offsets account for it), so
  // the two updates find free slots before the step's last bundle.
  for (int64_t u = 0; u < U; ++u)
    for (int64_t v = 0; v < vectors; ++v) {
      const bool first = u == 0 && v == 0;
      const std::string off = num((U + u) * 2 * d + 32 * v - (first ? 0 : 2 * d * U));
      sc.op("VMAC.E.BF16 " + pacc(u, v, 0) + ", " + pacc(u, v, 0) + ", " + vh(u, v) + ", " + wh[u]);
      sc.op("VMAC.E.BF16 " + pacc(u, v, 2) + ", " + pacc(u, v, 2) + ", " + vh(u, v) + ", " + wl[u]);
      sc.op("VMAC.E.BF16 " + pacc(u, v, 1) + ", " + pacc(u, v, 1) + ", " + vl(u, v) + ", " + wh[u]);
      // v_hi and v_lo share an x register: both reloaded once the three MACs have read them.
      sc.op("VLDA " + vh(u, v) + ", [p1, #" + off + "]", "next step's v_hi");
      sc.op("VLDB " + vl(u, v) + ", [p2, #" + off + "]", "next step's v_lo");
      if (first) {
        sc.op("PADDA [p1], #" + num(2 * d * U));
        sc.op("PADDB [p2], #" + num(2 * d * U));
      }
    }
  sc.emit(t, "", true);
  t.comment("O as hi + lo over q's row (divided by z for the whole group below); next row");
  sc.op("MOV p5, r22", "o_hi row i (over q_hi row i)");
  sc.op("MOV p6, r24", "o_lo row i");
  for (int64_t v = 0; v < vectors; ++v) {
    const std::string o = pacc(0, v, 0);
    for (int64_t u = 0; u < U; ++u)
      for (int k = 0; k < 3; ++k)
        if (u != 0 || k != 0) sc.op("VADD.F " + o + ", " + o + ", " + pacc(u, v, k));
    const int wb = int(2 * v);
    split(sc, o, w(wb), w(wb + 1), bm(6 + v));
    sc.op("VST " + w(wb) + ", [p5, #" + num(32 * v) + "]", "O_hi");
    sc.op("VST " + w(wb + 1) + ", [p6, #" + num(32 * v) + "]", "O_lo");
  }
  sc.op("MOVXM r9, " + num(2 * d));
  sc.op("ADD r22, r22, r9", "next row");
  sc.op("ADD r24, r24, r9");
  sc.emit(t, "JNZD r23, r23, row");
  {
    t.comment("the group's 1/z (lane i: row i), as bf16 high + low arrays");
    to_reg("p7", z_array, "z of the group's rows");
    sc.op("VLDA am20, [p7, #0]");
    sc.op("VLDA am21, [p7, #32]");
    via_text(sc, [](KernelText& k) {
      recip(k, "bm11", "bm10");
      split(k, "bm11", "w19", "w20", "bm7");
    });
    sc.op("VST w19, [p7, #64]", "1/z high parts");
    sc.op("VST w20, [p7, #96]", "low parts");
    sc.emit(t);
    t.comment("o = (O_hi + O_lo)(r_hi + r_lo) (the lo lo product dropped), as hi + lo");
    const int64_t per_step = G % 2 == 0 ? 2 : 1;
    t.op("MOVXM r9, " + num(rhi_array));
    t.op("ADD r10, r29, r9");
    t.op("MOV p0, r10", "1/z high parts");
    t.op("MOVXM r9, " + num(rlo_array));
    t.op("ADD r10, r29, r9");
    t.op("MOV p1, r10", "low parts");
    t.op("MOV p5, r30", "O_hi row");
    t.op("MOV p6, r31", "O_lo row");
    t.begin_loop("scale", uint64_t(G / per_step));
    const std::string sr_h[2] = {"r13", "r15"}, sr_l[2] = {"r14", "r16"}, sx_h[2] = {"x4", "x6"}, sx_l[2] = {"x5", "x7"};
    const std::string sw_h[2] = {"w8", "w12"}, sw_l[2] = {"w10", "w14"};
    for (int64_t j = 0; j < per_step; ++j) {
      if (per_step == 2) {
        sc.op("LDA.U16 " + sr_h[j] + ", [p0, #" + num(2 * j) + "]", "1/z of the row");
        sc.op("LDA.U16 " + sr_l[j] + ", [p1, #" + num(2 * j) + "]");
      } else {
        sc.op("LDA.U16 " + sr_h[j] + ", [p0], #2", "1/z of the row");
        sc.op("LDA.U16 " + sr_l[j] + ", [p1], #2");
      }
      sc.op("VBCST.16 " + sx_h[j] + ", " + sr_h[j]);
      sc.op("VBCST.16 " + sx_l[j] + ", " + sr_l[j]);
      for (int64_t v = 0; v < vectors; ++v) {
        const int k = int(j * vectors + v);
        const std::string off = "#" + num(2 * d * j + 32 * v), oh = w(2 * k), ol = w(2 * k + 1), a = bm(k);
        sc.op("VLDA " + oh + ", [p5, " + off + "]");
        sc.op("VLDB " + ol + ", [p6, " + off + "]");
        sc.op("VMUL.E.BF16 " + a + ", " + oh + ", " + sw_h[j]);
        sc.op("VMAC.E.BF16 " + a + ", " + a + ", " + ol + ", " + sw_h[j]);
        sc.op("VMAC.E.BF16 " + a + ", " + a + ", " + oh + ", " + sw_l[j]);
        split(sc, a, oh, ol, bm(4 + k));
        sc.op("VST " + oh + ", [p5, " + off + "]", "o_hi");
        sc.op("VST " + ol + ", [p6, " + off + "]", "o_lo");
      }
    }
    if (per_step == 2) {
      sc.op("PADDA [p0], #4");
      sc.op("PADDB [p1], #4");
    }
    sc.op("PADDS [p5], #" + num(2 * d * per_step));
    sc.op("PADDS [p6], #" + num(2 * d * per_step));
    sc.emit(t, "", true);
  }
  t.op("JNZD r21, r21, group");
  t.op("REL r18, 1", "k and v of this head are no longer needed");
  t.op("REL r27, 1", "o rows of this head are complete");
  t.op("MOVXM r9, " + num(kPkg0 ^ kPkg1));
  t.op("XOR r29, r29, r9", "the other package");
  t.op("MOV r9, #2");
  t.op("XOR r26, r26, r9");
  t.op("XOR r27, r27, r9");
  t.op("XOR r28, r28, r9");
  t.op("XOR r18, r18, r9");
  t.op("JNZD r20, r20, head");
  t.op("DONE");
  return t.str();
}

const char* kPartNames[kParts] = {"q_hi", "q_lo", "k_hi", "k_lo", "v_hi", "v_lo"};

std::string movement(const SplitAttentionPlan& p, const Shape& sh) {
  const int64_t s = sh.s, d = sh.d, h = sh.h(), T = sh.tiles, H = sh.local_heads, R = sh.row_tiles, rows = sh.rows;
  const uint64_t P = sh.part_bytes(), Pq = sh.q_bytes(), tab = sh.table_bytes(), matrix = uint64_t(s * h) * 2;
  const uint64_t q_in_mem = uint64_t(2 * H) * P, out_at = q_in_mem, out_total = uint64_t(2 * H) * P;
  const uint64_t part_offsets[kParts] = {p.q_hi, p.q_lo, p.k_hi, p.k_lo, p.v_hi, p.v_lo};
  // Column c takes heads c H .. c H + H - 1: H d adjacent columns of each [s, h] matrix.
  const std::string block_dims = dims({{H * d / 2, 1}, {s, h / 2}});
  const std::string head_dims = dims({{d / 2, 1}, {s, h / 2}, {H, d / 2}});
  std::ostringstream y;
  y << "locks:\n";
  for (int64_t c = 0; c < T; ++c)
    for (int64_t r = 0; r < R; ++r)
      for (int id : {int(kQEmpty0), kQEmpty0 + 2, int(kKvEmpty0), kKvEmpty0 + 2})
        y << "  - {tile: " << tile(uint32_t(c), uint32_t(r)) << ", id: " << id << ", init: 1}\n";
  y << "buffers:\n";
  std::vector<Bd> bds;
  std::string routes;
  auto chain = [&](std::vector<Bd> list) {
    for (size_t i = 0; i + 1 < list.size(); ++i) list[i].next = list[i + 1].name;
    for (const Bd& b : list) bds.push_back(b);
  };
  for (int64_t c = 0; c < T; ++c) {
    const std::string sx = "_" + num(c), shim = "shim" + num(c), mem = "mem" + num(c);
    for (int k = 0; k < kParts; ++k)
      y << "  - {name: ddr_" << kPartNames[k] << sx << ", tile: " << shim << ", address: " << part_offsets[k]
        << ", size: " << matrix << "}\n";
    if (p.rope) {
      y << "  - {name: ddr_cos" << sx << ", tile: " << shim << ", address: " << p.cos_offset << ", size: " << tab << "}\n";
      y << "  - {name: ddr_sin" << sx << ", tile: " << shim << ", address: " << p.sin_offset << ", size: " << tab << "}\n";
    }
    y << "  - {name: ddr_o_hi" << sx << ", tile: " << shim << ", address: " << p.o_hi << ", size: " << matrix << "}\n";
    y << "  - {name: ddr_o_lo" << sx << ", tile: " << shim << ", address: " << p.o_lo << ", size: " << matrix << "}\n";
    y << "  - {name: mem_q" << sx << ", tile: " << mem << ", address: 0, size: " << q_in_mem << "}\n";
    y << "  - {name: mem_out" << sx << ", tile: " << mem << ", address: " << out_at << ", size: " << out_total << "}\n";

    // DDR -> memC (shimC.mm2s0): the column's q_hi and q_lo columns, [s, H d] each.
    std::vector<Bd> rq;
    for (int k = 0; k < 2; ++k) {
      Bd b{"rd_" + std::string(kPartNames[k]) + sx, shim, "mm2s0", "ddr_" + std::string(kPartNames[k]) + sx,
           uint64_t(c * H * d * 2), uint64_t(H) * P};
      b.dims = block_dims;
      rq.push_back(b);
    }
    chain(rq);
    Bd q_wr{"q_wr" + sx, mem, "s2mm0", "mem_q" + sx, 0, q_in_mem};
    q_wr.release_lock = kMemInputs;
    q_wr.release_value = int(R);  // one reader per tile of the column
    bds.push_back(q_wr);
    routes += "  - {from: {tile: " + shim + ", port: mm2s0}, to: {tile: " + mem + ", port: s2mm0}}\n";
    // DDR -> every tile of the column at once (shimC.mm2s1, broadcast): the tables, then
    // per head k_hi, v_hi, k_lo, v_lo ([s, d] each).
    std::vector<Bd> rkv;
    if (p.rope) {
      rkv.push_back(Bd{"rd_cos" + sx, shim, "mm2s1", "ddr_cos" + sx, 0, tab});
      rkv.push_back(Bd{"rd_sin" + sx, shim, "mm2s1", "ddr_sin" + sx, 0, tab});
    }
    for (int64_t l = 0; l < H; ++l)
      for (int k : {2, 4, 3, 5}) {
        Bd b{"rd_" + std::string(kPartNames[k]) + sx + "_" + num(l), shim, "mm2s1", "ddr_" + std::string(kPartNames[k]) + sx,
             uint64_t((c * H + l) * d * 2), P};
        b.dims = dims({{d / 2, 1}, {s, h / 2}});
        rkv.push_back(b);
      }
    chain(rkv);

    for (int64_t r = 0; r < R; ++r) {
      const std::string tx = sx + "_" + num(r), tl = tile(uint32_t(c), uint32_t(r)), mm2s = "mm2s" + num(r);
      y << "  - {name: pkg0" << tx << ", tile: " << tl << ", address: " << kPkg0 << ", size: " << sh.package_bytes() << "}\n";
      y << "  - {name: pkg1" << tx << ", tile: " << tl << ", address: " << kPkg1 << ", size: " << sh.package_bytes() << "}\n";
      if (p.rope) y << "  - {name: tables" << tx << ", tile: " << tl << ", address: " << kTables << ", size: " << 2 * tab << "}\n";
      // memC -> tile r: per head the tile's q rows of q_hi and q_lo.
      std::vector<Bd> send;
      for (int64_t l = 0; l < H; ++l) {
        Bd q{"q_rd" + tx + "_" + num(l), mem, mm2s, "mem_q" + sx, uint64_t(r) * uint64_t(H) * Pq + uint64_t(l * d * 2), 2 * Pq};
        q.dims = dims({{d / 2, 1}, {rows, H * d / 2}, {2, int64_t(uint64_t(H) * P / 4)}});
        send.push_back(q);
      }
      send.front().acquire_lock = kMemInputs;
      chain(send);
      routes += "  - {from: {tile: " + mem + ", port: " + mm2s + "}, to: {tile: " + tl + ", port: s2mm0}}\n";
      // The package buffers: q rows on s2mm0, (tables once, then) k and v on s2mm1.
      std::vector<Bd> qin, kvin;
      for (int pkg = 0; pkg < 2; ++pkg) {
        Bd q{"q_in" + num(pkg) + tx, tl, "s2mm0", "pkg" + num(pkg) + tx, 0, 2 * Pq};
        q.acquire_lock = kQEmpty0 + 2 * pkg;
        q.release_lock = kQFull0 + 2 * pkg;
        qin.push_back(q);
        Bd kv{"kv_in" + num(pkg) + tx, tl, "s2mm1", "pkg" + num(pkg) + tx, 2 * Pq, 4 * P};
        kv.acquire_lock = kKvEmpty0 + 2 * pkg;
        kv.release_lock = kKvFull0 + 2 * pkg;
        kvin.push_back(kv);
      }
      for (const Bd& b : ring(qin)) bds.push_back(b);
      kvin = ring(kvin);
      if (p.rope) {
        Bd ti{"tab_in" + tx, tl, "s2mm1", "tables" + tx, 0, 2 * tab};
        ti.release_lock = kTablesFull;
        ti.next = kvin.front().name;
        bds.push_back(ti);
      }
      for (const Bd& b : kvin) bds.push_back(b);
      routes += "  - {from: {tile: " + shim + ", port: mm2s1}, to: {tile: " + tl + ", port: s2mm1}}\n";
      // tile r -> memC: o_hi and o_lo rows of each head (the package's first 2 Pq bytes).
      std::vector<Bd> out;
      for (int pkg = 0; pkg < 2; ++pkg) {
        Bd b{"o_out" + num(pkg) + tx, tl, "mm2s0", "pkg" + num(pkg) + tx, 0, 2 * Pq};
        b.acquire_lock = kODone0 + 2 * pkg;
        b.release_lock = kQEmpty0 + 2 * pkg;
        out.push_back(b);
      }
      for (const Bd& b : ring(out)) bds.push_back(b);
      Bd o_in{"o_in" + tx, mem, "s2mm" + num(1 + r), "mem_out" + sx, uint64_t(r * H) * 2 * Pq, uint64_t(H) * 2 * Pq};
      o_in.release_lock = kMemOutputs;
      o_in.release_value = 2;  // the o_hi and o_lo writers
      bds.push_back(o_in);
      routes += "  - {from: {tile: " + tl + ", port: mm2s0}, to: {tile: " + mem + ", port: s2mm" + num(1 + r) + "}}\n";
    }
    // memC -> DDR once every tile's rows are in: memC holds tile r's head l rows of o_hi
    // then o_lo at (r H + l) 2 Pq; the stream runs head by head, all s rows in order.
    for (int half = 0; half < 2; ++half) {
      const std::string part = half == 0 ? "o_hi" : "o_lo", mm2s = "mm2s" + num(R + half);
      Bd rd{part + "_rd" + sx, mem, mm2s, "mem_out" + sx, uint64_t(half) * Pq, uint64_t(H) * P};
      rd.dims = dims({{d / 2, 1}, {rows, d / 2}, {R, int64_t(uint64_t(H) * 2 * Pq / 4)}, {H, int64_t(2 * Pq / 4)}});
      rd.acquire_lock = kMemOutputs;
      rd.acquire_value = int(R);
      bds.push_back(rd);
      Bd wr{part + "_wr" + sx, shim, "s2mm" + num(half), "ddr_" + part + sx, uint64_t(c * H * d * 2), uint64_t(H) * P};
      wr.dims = head_dims;
      bds.push_back(wr);
      routes += "  - {from: {tile: " + mem + ", port: " + mm2s + "}, to: {tile: " + shim + ", port: s2mm" + num(half) + "}}\n";
    }
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
  if (p.row_tiles < 0 || p.row_tiles > kMaxRowTiles) return at + "row_tiles must be 0 (automatic) or 1..4";
  if (p.row_tiles > 0 && p.s % p.row_tiles != 0) return at + "row_tiles must divide s";
  const Shape sh = shape_of(p);
  if (sh.package_bytes() > kPkgBytes)
    return at + "one head's package (a tile's q rows, k and v, high and low parts) exceeds the 24 KB package buffer";
  if (uint64_t(sh.sp() * p.d * 2) > kKtBytes) return at + "K^T of one head exceeds its 4 KB region";
  if (uint64_t(4 * sh.local_heads) * sh.part_bytes() > kMemTileBytes)
    return at + "a column's q parts and outputs do not fit its memory tile (512 KB)";
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
  std::ostringstream k;
  k << "; AIE-ML split-precision attention stage (platforms/aie_ml/pack/baselines/split_attention.cpp): s=" << p.s
    << " heads=" << p.heads << " d=" << p.d << (p.rope ? " with RoPE" : "") << "; " << sh.tiles << " column(s) x "
    << sh.row_tiles << " tile(s)\n";
  for (int64_t r = 0; r < sh.row_tiles; ++r) {
    const std::string program = core_program(sh, p.rope, r);
    for (int64_t c = 0; c < sh.tiles; ++c) k << ".tile " << c << " " << r << "\n" << program;
  }
  k << ".movement\n" << movement(p, sh);
  return k.str();
}

}  // namespace tlmcraft::tasks::aie_ml
