// Row-wise and elementwise split-precision stages (row_stages.h): one compute tile (0,0)
// streams whole rows in blocks.
//
// Data path (the stage's own `.movement`):
//   shim0.mm2s0 reads, block by block, the rows of every input part (one BD per block and
//   part, so the parts of a block arrive one after another) -> mem0.s2mm0 fills a ping/pong
//   pair of block buffers in the memory tile -> mem0.mm2s0 -> tile.s2mm0 ping/pong input
//   blocks; tile.mm2s0 ping/pong output blocks -> shim0.s2mm0, one BD per block and output
//   matrix, each writing its rows in place. RMSNorm's gamma comes once through
//   shim0.mm2s1 -> tile.s2mm1.
// A block holds R rows (R a power of two dividing rows, blocks of about 4 KB; at most 16
// rows for RMSNorm): in the tile, input part k of the block at k S and output matrix j at
// j S (S = R cols 2 bytes); the core reaches them as [p, mK] with mK = K S. Tile memory:
// input ping 0x0000, pong 0x4000, output ping 0x8000, pong 0xC000 (up to 0x3E00 bytes),
// gamma 0xFE00. Tile locks: 0 input empty (init 2), 1 input full, 2 output empty (init
// 2), 3 output full, 4 gamma arrived; mem0 locks 0 empty (init 2), 1 full.
//
// Core: a loop over blocks (acquire input full and output empty, compute, release);
// inner loops handle two 16-lane vectors per iteration (two register "chains"), their
// operations packed into bundles by the shared AIE-ML list scheduler (schedule() below).
//
// Numerics (fp32 lanes; bf16 products are exact):
//   sums of parts: fp32 adds in part order (the first part converted exactly);
//   split outputs: hi = bf16(q), lo = bf16(q - hi) (q - hi is exact in fp32);
//   RMSNorm: pass 1 per row: ss = sum over the row of (vh + vl)^2 - vl^2 (three exact
//     products per lane, vh, vl the bf16 split of v; one part: v^2 itself, exact), the
//     sum written when asked; then for all rows of the block at once (one lane each)
//     h = (ss + n eps) / (2n) (the exponent field lowered: exact), rs = 1/sqrt(2h) from
//     the guess 0x5EF759DF - bits(h)/2 and three steps y + y (0.5 - h y^2); pass 2 per
//     row: n = ((v rs) gamma) with v rs from split parts (three products);
//   ReLU: max(q, 0) as a signed-integer maximum of the fp32 bit patterns (exact);
//   SiLU(a) b = (sum_k,j a_k b_j) / (1 + 2^t), t = sum_k a_k (c1 + c2 + c3) with
//     -log2(e) = c1 + c2 + c3 in three bf16 parts (every product exact), 2^t by a
//     degree-5 polynomial, 1/(1 + 2^t) by Newton steps, the final product of split parts
//     (silu_mul_ops). Requires |a| < 80 (2^t stays a normal fp32).
#include "platforms/aie_ml/pack/baselines/row_stages.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "isa/aie_ml/bundle_schedule.h"
#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kOwn = kAieMlOwnTileBase;
constexpr uint32_t kInPing = 0x0000, kInPong = 0x4000, kOutPing = 0x8000, kOutPong = 0xC000, kGamma = 0xFE00;
constexpr uint64_t kInMax = 0x4000, kOutMax = 0x3E00, kGammaMax = 0x200;
constexpr uint64_t kTargetBlock = 4096;  // bytes per block the row count aims for
constexpr int kMaxParts = 4;
enum TileLock : int { kInEmpty = 0, kInFull = 1, kOutEmpty = 2, kOutFull = 3, kGammaFull = 4 };
enum MemLock : int { kMemEmpty = 0, kMemFull = 1 };

// What the stream skeleton moves: input parts and output matrices of rows x cols bf16,
// in the order they sit in a block.
struct Streams {
  int64_t rows = 0, cols = 0;
  std::vector<uint64_t> in, out;
  bool gamma = false;
  uint64_t gamma_offset = 0;
  int64_t block_rows = 1;
  uint64_t part_bytes() const { return uint64_t(rows * cols) * 2; }
  uint64_t stride() const { return uint64_t(block_rows * cols) * 2; }  // S: one part of a block
  int64_t blocks() const { return rows / block_rows; }
};

std::vector<uint64_t> output_list(const StageOutput& o) {
  if (o.lo == 0) return {o.hi};
  return {o.hi, o.lo};
}

bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; }

// Shape, alignment, overlap and block-size checks shared by both stages ("" when fine).
std::string streams_problem(const Streams& s, const std::string& at) {
  if (s.rows < 1 || s.cols < 16 || s.cols % 16) return at + "rows must be positive and cols a positive multiple of 16";
  if (s.in.empty() || s.in.size() > 2 * kMaxParts) return at + "between 1 and 8 input parts";
  if (s.in.size() * uint64_t(s.cols) * 2 > kInMax) return at + "one row of every input part must fit the 16 KB input block";
  if (s.out.size() * uint64_t(s.cols) * 2 > kOutMax) return at + "one row of every output matrix must fit the 15.5 KB output block";
  if (s.gamma && uint64_t(s.cols) * 2 > kGammaMax) return at + "gamma (cols bf16) must fit 512 bytes";
  const uint64_t n = s.part_bytes();
  for (uint64_t o : s.in)
    if (o % 4) return at + "DDR offsets must be multiples of 4 bytes (offset " + hex(o) + ")";
  for (uint64_t o : s.out)
    if (o % 4) return at + "DDR offsets must be multiples of 4 bytes (offset " + hex(o) + ")";
  if (s.gamma && s.gamma_offset % 4) return at + "DDR offsets must be multiples of 4 bytes (gamma " + hex(s.gamma_offset) + ")";
  for (size_t i = 0; i < s.out.size(); ++i) {
    for (size_t j = i + 1; j < s.out.size(); ++j)
      if (overlap(s.out[i], n, s.out[j], n)) return at + "output matrices at " + hex(s.out[i]) + " and " + hex(s.out[j]) + " overlap";
    // An output may replace an input exactly (its rows are read before they are written),
    // never overlap one partly.
    for (uint64_t in : s.in)
      if (in != s.out[i] && overlap(s.out[i], n, in, n))
        return at + "output at " + hex(s.out[i]) + " partly overlaps the input part at " + hex(in);
    if (s.gamma && overlap(s.out[i], n, s.gamma_offset, uint64_t(s.cols) * 2))
      return at + "output at " + hex(s.out[i]) + " overlaps gamma";
  }
  return "";
}

// Rows per block: the largest power of two dividing rows whose input and output blocks
// stay within kTargetBlock (at least one row, at most max_rows).
int64_t choose_block_rows(const Streams& s, int64_t max_rows) {
  int64_t r = 1;
  const uint64_t row_in = s.in.size() * uint64_t(s.cols) * 2, row_out = s.out.size() * uint64_t(s.cols) * 2;
  while (2 * r <= max_rows && s.rows % (2 * r) == 0 && 2 * r * row_in <= kTargetBlock && 2 * r * row_out <= kTargetBlock) r *= 2;
  return r;
}

std::string movement(const Streams& s) {
  const uint64_t S = s.stride(), in_block = S * s.in.size(), out_block = S * s.out.size();
  const int64_t blocks = s.blocks();
  const std::string t = tile(0, 0);
  std::ostringstream y;
  y << "locks:\n"
    << "  - {tile: " << t << ", id: " << kInEmpty << ", init: 2}\n"
    << "  - {tile: " << t << ", id: " << kOutEmpty << ", init: 2}\n"
    << "  - {tile: mem0, id: " << kMemEmpty << ", init: 2}\n";
  y << "buffers:\n";
  for (size_t k = 0; k < s.in.size(); ++k)
    y << "  - {name: ddr_in" << k << ", tile: shim0, address: " << s.in[k] << ", size: " << s.part_bytes() << "}\n";
  for (size_t j = 0; j < s.out.size(); ++j)
    y << "  - {name: ddr_out" << j << ", tile: shim0, address: " << s.out[j] << ", size: " << s.part_bytes() << "}\n";
  if (s.gamma) {
    y << "  - {name: ddr_gamma, tile: shim0, address: " << s.gamma_offset << ", size: " << s.cols * 2 << "}\n";
    y << "  - {name: t_gamma, tile: " << t << ", address: " << kGamma << ", size: " << s.cols * 2 << "}\n";
  }
  for (int i = 0; i < 2; ++i) y << "  - {name: m_blk" << i << ", tile: mem0, address: " << i * in_block << ", size: " << in_block << "}\n";
  y << "  - {name: t_in0, tile: " << t << ", address: " << kInPing << ", size: " << in_block << "}\n"
    << "  - {name: t_in1, tile: " << t << ", address: " << kInPong << ", size: " << in_block << "}\n"
    << "  - {name: t_out0, tile: " << t << ", address: " << kOutPing << ", size: " << out_block << "}\n"
    << "  - {name: t_out1, tile: " << t << ", address: " << kOutPong << ", size: " << out_block << "}\n";
  std::vector<Bd> bds;
  auto bd = [](const std::string& name, const std::string& tl, const std::string& ch, const std::string& buf, uint64_t off,
               uint64_t len) {
    Bd b;
    b.name = name, b.tile = tl, b.channel = ch, b.buffer = buf, b.offset = off, b.length = len;
    return b;
  };
  // DDR reads in block order, the parts of a block one after another.
  std::vector<Bd> reads;
  for (int64_t b = 0; b < blocks; ++b)
    for (size_t k = 0; k < s.in.size(); ++k)
      reads.push_back(bd("rd_b" + std::to_string(b) + "_p" + std::to_string(k), "shim0", "mm2s0", "ddr_in" + std::to_string(k),
                         uint64_t(b) * S, S));
  for (size_t i = 0; i + 1 < reads.size(); ++i) reads[i].next = reads[i + 1].name;
  bds.insert(bds.end(), reads.begin(), reads.end());
  std::vector<Bd> mw, mr, tin, tout;
  for (int i = 0; i < 2; ++i) {
    const std::string is = std::to_string(i);
    Bd w = bd("m_wr" + is, "mem0", "s2mm0", "m_blk" + is, 0, in_block);
    w.acquire_lock = kMemEmpty, w.release_lock = kMemFull;
    mw.push_back(w);
    Bd r = bd("m_rd" + is, "mem0", "mm2s0", "m_blk" + is, 0, in_block);
    r.acquire_lock = kMemFull, r.release_lock = kMemEmpty;
    mr.push_back(r);
    Bd ti = bd("t_in" + is, t, "s2mm0", "t_in" + is, 0, in_block);
    ti.acquire_lock = kInEmpty, ti.release_lock = kInFull;
    tin.push_back(ti);
    Bd to = bd("t_out" + is, t, "mm2s0", "t_out" + is, 0, out_block);
    to.acquire_lock = kOutFull, to.release_lock = kOutEmpty;
    tout.push_back(to);
  }
  for (auto* ring_bds : {&mw, &mr, &tin, &tout})
    for (const Bd& b : ring(*ring_bds)) bds.push_back(b);
  // DDR writes: every output matrix's rows of the block in place.
  std::vector<Bd> writes;
  for (int64_t b = 0; b < blocks; ++b)
    for (size_t j = 0; j < s.out.size(); ++j)
      writes.push_back(bd("wr_b" + std::to_string(b) + "_o" + std::to_string(j), "shim0", "s2mm0",
                          "ddr_out" + std::to_string(j), uint64_t(b) * S, S));
  for (size_t i = 0; i + 1 < writes.size(); ++i) writes[i].next = writes[i + 1].name;
  bds.insert(bds.end(), writes.begin(), writes.end());
  if (s.gamma) {
    bds.push_back(bd("rd_gamma", "shim0", "mm2s1", "ddr_gamma", 0, uint64_t(s.cols) * 2));
    Bd g = bd("t_gamma", t, "s2mm1", "t_gamma", 0, uint64_t(s.cols) * 2);
    g.release_lock = kGammaFull;
    bds.push_back(g);
  }
  y << "bds:\n";
  for (const Bd& b : bds) y << bd_yaml(b);
  y << "routes:\n"
       "  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n"
       "  - {from: {tile: mem0, port: mm2s0}, to: {tile: " << t << ", port: s2mm0}}\n"
       "  - {from: {tile: " << t << ", port: mm2s0}, to: {tile: shim0, port: s2mm0}}\n";
  if (s.gamma) y << "  - {from: {tile: shim0, port: mm2s1}, to: {tile: " << t << ", port: s2mm1}}\n";
  return y.str();
}

std::string lock(int id) { return std::to_string(48 + id); }

// The block loop: r20 = input block, r22 = output block (core addresses), r23 = ping ^
// pong, r10 = blocks left - 1; m1..m7 = 1..7 S. `setup` runs once, `body` per block.
std::string core_program(const Streams& s, const std::string& what, const std::function<void(KernelText&)>& setup,
                         const std::function<void(KernelText&)>& body) {
  KernelText k;
  k.comment(what + ": " + std::to_string(s.rows) + " x " + std::to_string(s.cols) + ", " + std::to_string(s.blocks()) +
            " block(s) of " + std::to_string(s.block_rows) + " row(s)");
  k.op("MOVXM r20, " + hex(kOwn + kInPing), "input block");
  k.op("MOVXM r22, " + hex(kOwn + kOutPing), "output block");
  k.op("MOVXM r23, " + hex(kInPing ^ kInPong), "ping ^ pong (inputs and outputs alike)");
  k.op("MOVXM r10, " + std::to_string(s.blocks() - 1), "blocks left - 1");
  const size_t parts = std::max(s.in.size(), s.out.size());
  for (size_t i = 1; i < parts; ++i) k.op("MOVXM m" + std::to_string(i) + ", " + std::to_string(i * s.stride()), "part " + std::to_string(i) + " of a block");
  setup(k);
  k.label("block");
  k.op("ACQ " + lock(kInFull) + ", 1", "input block filled");
  k.op("ACQ " + lock(kOutEmpty) + ", 1", "output block free");
  body(k);
  k.op("REL " + lock(kInEmpty) + ", 1");
  k.op("REL " + lock(kOutFull) + ", 1", "output block written");
  k.op("XOR r20, r20, r23");
  k.op("XOR r22, r22, r23");
  k.op("JNZD r10, r10, block");
  k.op("DONE");
  return k.str();
}

std::string kernel_file(const Streams& s, const std::string& title, const std::string& core) {
  return "; " + title + " (platforms/aie_ml/pack/baselines/row_stages.cpp)\n.tile 0 0\n" + core + ".movement\n" + movement(s);
}

std::string part_operand(size_t k, const std::string& p) { return k == 0 ? "[" + p + "]" : "[" + p + ", m" + std::to_string(k) + "]"; }

// The registers one 16-lane vector's work uses. Two chains (A on the even vectors, B on
// the odd ones) are interleaved op by op, so one chain's op issues while the other's
// result is still in flight; both pointers then step 64 bytes per iteration.
struct Chain {
  std::string in, out;           // pointers to this vector in input part 0 / output matrix 0
  std::vector<std::string> acc;  // accumulators (fp32 lanes)
  std::vector<std::string> w;    // 256-bit vector registers
  std::string x;                 // a 512-bit register (ReLU)
};
using Ops = std::vector<std::string>;

std::string post(int step) { return ", #" + std::to_string(step); }

// Op lists (loop bodies are built as lists, then interleaved).
void split_ops(Ops& ops, const std::string& a, const std::string& hi, const std::string& lo, const std::string& tmp) {
  ops.push_back("VCONV.BF16.FP32 " + hi + ", " + a);
  ops.push_back("VCONV.FP32.BF16 " + tmp + ", " + hi);
  ops.push_back("VSUB.F " + tmp + ", " + a + ", " + tmp);
  ops.push_back("VCONV.BF16.FP32 " + lo + ", " + tmp);
}
// dst = acc + (ah + al)(bh + bl) without al bl (acc "" = none).
void mul_split_ops(Ops& ops, const std::string& dst, const std::string& acc, const std::string& ah, const std::string& al,
                   const std::string& bh, const std::string& bl) {
  ops.push_back(acc.empty() ? "VMUL.E.BF16 " + dst + ", " + ah + ", " + bh : "VMAC.E.BF16 " + dst + ", " + acc + ", " + ah + ", " + bh);
  ops.push_back("VMAC.E.BF16 " + dst + ", " + dst + ", " + al + ", " + bh);
  ops.push_back("VMAC.E.BF16 " + dst + ", " + dst + ", " + ah + ", " + bl);
}

// Parts 0..count-1 of the chain's vector into acc[0..] as fp32 (part 0 last: its load
// advances the pointer), then their sum in part order into acc[0].
void load_sum(Ops& ops, const Chain& c, size_t count, int step) {
  for (size_t i = 1; i < count; ++i) ops.push_back("VLDA.CONV.FP32.BF16 " + c.acc[i] + ", " + part_operand(i, c.in));
  ops.push_back("VLDA.CONV.FP32.BF16 " + c.acc[0] + ", [" + c.in + "]" + post(step));
  for (size_t i = 1; i < count; ++i) ops.push_back("VADD.F " + c.acc[0] + ", " + c.acc[0] + ", " + c.acc[i]);
}

// Stores fp32 q as output matrix 0 (bf16) or matrices 0 and 1 (hi, lo) at the chain's
// output pointer (advanced by the last store).
void store_output(Ops& ops, const std::string& q, bool split_out, const std::string& ptr, const std::string& hi,
                  const std::string& lo, const std::string& tmp, int step) {
  if (!split_out) {
    ops.push_back("VST.CONV.BF16.FP32 " + q + ", [" + ptr + "]" + post(step));
    return;
  }
  split_ops(ops, q, hi, lo, tmp);
  ops.push_back("VST " + lo + ", [" + ptr + ", m1]");
  ops.push_back("VST " + hi + ", [" + ptr + "]" + post(step));
}

// a0 b0 a1 b1 ...: one chain's dependent ops are two bundles apart.
Ops zip(const Ops& a, const Ops& b) {
  Ops z;
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i < a.size()) z.push_back(a[i]);
    if (i < b.size()) z.push_back(b[i]);
  }
  return z;
}

// ---- bundle packing ----
// The core issues one bundle per cycle in order and stalls a bundle until the registers
// it reads are ready. Loop bodies and straight code are packed into bundles by the
// shared AIE-ML list scheduler (isa/aie_ml/bundle_schedule.h: register and memory
// dependences, the ISA's latencies, critical path first). Every pointer of a stage
// addresses its own buffer (an input part, an output matrix, gamma), which the scheduler
// is told so loads and stores through different pointers may pass each other.
Ops schedule(const Ops& body) {
  isa::aie_ml::ScheduleOptions options;
  options.critical_path_first = true;
  options.keep_register_view_order = true;
  for (int p = 0; p < isa::aie_ml::kPointerRegs; ++p) options.disjoint_pointers.push_back(p);
  return isa::aie_ml::schedule_bundles(body, options);
}

// Writes `ops` as a zero-overhead loop of `count` iterations, packed into bundles.
void loop(KernelText& t, const std::string& tag, uint64_t count, const Ops& ops) {
  const Ops bundles = schedule(ops);
  t.begin_loop(tag, count);
  for (size_t i = 0; i + 1 < bundles.size(); ++i) t.op(bundles[i]);
  t.loop_last(bundles.back());
}

// SiLU(a) b of one vector. Chain registers: acc = {ab, X, K, P, Q, T}, w = 8 registers
// (the parts, then split operands; w[6], w[7] one 512-bit register). Constants: w10,
// w11, w16 = -log2(e) in three bf16 parts, w17 = c5 (bf16), x10 = 0x8000 in every 16-bit
// lane; bm12..bm15 = c4..c1, bm16 = 1 (fp32), bm17 = 0xFEF311C3.
//  ab = sum_k,j a_k b_j, t = sum_k a_k (c1 + c2 + c3): exact products, fp32 sums;
//  2^t: k = round(t), f = t - k (exact) split into fh + fl; 2^f = 1 + f (c1 + f (c2 +
//    f (c3 + f (c4 + f c5)))) (Taylor, remainder < 3.4e-6 at |f| = 1/2) by Horner steps
//    p <- c + p f: c4 + c5 fh and c3 + bf16(p) f (terms below 2^-20 of the result), the
//    last three with p split (three exact products); k added to the exponent field;
//  d = 1 + 2^t; z = -1/d: guess -(0x7EF311C3 - bits(d)) (< 13 %, the sign bit set by the
//    constant), two steps z <- zh + zh bf16(1 + d zh) at bf16 level (13 % -> 2 % ->
//    5e-4; the first with d's high part only), one step z <- z + z (1 + d z) with split
//    products (the correction term is tiny, so its error is the 3u of d z), folded into
//  out = ab (-z) = A + A e with A = (-ab) z, e = 1 + d z (split parts, three products).
Ops silu_mul_ops(const Chain& c, size_t pa, size_t pb, bool split_out, int step) {
  const std::string &ab = c.acc[0], &x = c.acc[1], &k = c.acc[2], &T = c.acc[5];
  std::string p = c.acc[3], q = c.acc[4];
  const std::vector<std::string>& w = c.w;
  Ops ops;
  // Loads: b parts, then a parts 1.., then a_0 (it advances the pointer); two per bundle.
  std::vector<std::pair<std::string, size_t>> loads;
  for (size_t j = 0; j < pb; ++j) loads.push_back({w[pa + j], pa + j});
  for (size_t i = 1; i < pa; ++i) loads.push_back({w[i], i});
  for (size_t i = 0; i < loads.size(); i += 2) {
    std::string b = "VLDA " + loads[i].first + ", " + part_operand(loads[i].second, c.in);
    if (i + 1 < loads.size()) b += " ;; VLDB " + loads[i + 1].first + ", " + part_operand(loads[i + 1].second, c.in);
    ops.push_back(b);
  }
  ops.push_back("VLDA " + w[0] + ", [" + c.in + "]" + post(step));
  bool first = true;
  for (size_t i = 0; i < pa; ++i)
    for (size_t j = 0; j < pb; ++j) {
      ops.push_back(first ? "VMUL.E.BF16 " + ab + ", " + w[i] + ", " + w[pa + j] : "VMAC.E.BF16 " + ab + ", " + ab + ", " + w[i] + ", " + w[pa + j]);
      first = false;
    }
  first = true;
  for (const char* cc : {"w10", "w11", "w16"})
    for (size_t i = 0; i < pa; ++i) {
      ops.push_back(first ? "VMUL.E.BF16 " + x + ", " + w[i] + ", " + cc : "VMAC.E.BF16 " + x + ", " + x + ", " + w[i] + ", " + cc);
      first = false;
    }
  // 2^t (the parts' registers are free from here on).
  ops.push_back("VCONV.S32.FP32 " + k + ", " + x + ", #0");
  ops.push_back("VCONV.FP32.S32 " + p + ", " + k);
  ops.push_back("VSUB.F " + x + ", " + x + ", " + p);
  ops.push_back("VCONV.S32.FP32 " + k + ", " + p + ", #23");
  split_ops(ops, x, w[0], w[1], T);
  ops.push_back("VMAC.E.BF16 " + p + ", bm12, w17, " + w[0]);
  ops.push_back("VCONV.BF16.FP32 " + w[2] + ", " + p);
  ops.push_back("VMAC.E.BF16 " + q + ", bm13, " + w[2] + ", " + w[0]);
  ops.push_back("VMAC.E.BF16 " + q + ", " + q + ", " + w[2] + ", " + w[1]);
  std::swap(p, q);
  for (const char* cc : {"bm14", "bm15", "bm16"}) {
    split_ops(ops, p, w[2], w[3], T);
    mul_split_ops(ops, q, cc, w[2], w[3], w[0], w[1]);
    std::swap(p, q);
  }
  ops.push_back("VADD.ACC32 " + x + ", " + p + ", " + k);
  ops.push_back("VADD.F " + x + ", " + x + ", bm16");
  // z = -1/d (d in x, z in p, 1 + d z in q).
  split_ops(ops, x, w[0], w[1], T);
  ops.push_back("VSUB.ACC32 " + p + ", bm17, " + x);
  for (int i = 0; i < 2; ++i) {
    ops.push_back("VCONV.BF16.FP32 " + w[2] + ", " + p);
    ops.push_back("VCONV.FP32.BF16 " + p + ", " + w[2]);
    ops.push_back("VMAC.E.BF16 " + q + ", bm16, " + w[0] + ", " + w[2]);
    if (i == 1) ops.push_back("VMAC.E.BF16 " + q + ", " + q + ", " + w[1] + ", " + w[2]);
    ops.push_back("VCONV.BF16.FP32 " + w[4] + ", " + q);
    ops.push_back("VMAC.E.BF16 " + p + ", " + p + ", " + w[2] + ", " + w[4]);
  }
  // The last step folded into the output: e = 1 + d z (tiny), A = (-ab) z formed while e
  // is, out = (-ab)(z + z e) = A + A e (-ab: ab's parts with their sign bits flipped by
  // 16-bit adds of 0x8000).
  split_ops(ops, p, w[2], w[3], T);
  mul_split_ops(ops, q, "bm16", w[0], w[1], w[2], w[3]);
  split_ops(ops, q, w[4], w[5], T);
  split_ops(ops, ab, w[6], w[7], k);
  const std::string abx = "x" + std::to_string(std::stoi(w[6].substr(1)) / 2);
  ops.push_back("VADD.16 " + abx + ", " + abx + ", x10");
  mul_split_ops(ops, ab, "", w[6], w[7], w[2], w[3]);
  split_ops(ops, ab, w[0], w[1], k);
  mul_split_ops(ops, p, ab, w[0], w[1], w[4], w[5]);
  store_output(ops, p, split_out, c.out, w[2], w[3], T, step);
  return ops;
}

Streams rmsnorm_streams(const RmsnormStagePlan& p) {
  Streams s;
  s.rows = p.rows, s.cols = p.cols, s.in = p.in;
  s.out = output_list(p.out);
  if (p.sum.hi != 0)
    for (uint64_t o : output_list(p.sum)) s.out.push_back(o);
  s.gamma = true, s.gamma_offset = p.gamma;
  return s;
}

Streams elementwise_streams(const ElementwiseStagePlan& p) {
  Streams s;
  s.rows = p.rows, s.cols = p.cols, s.in = p.a;
  s.in.insert(s.in.end(), p.b.begin(), p.b.end());
  s.out = output_list(p.out);
  return s;
}

const char* op_name(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::Sum: return "sum";
    case ElementwiseOp::Relu: return "relu";
    case ElementwiseOp::SiluMul: return "silu_mul";
  }
  return "?";
}

// Points chain B's pointer 32 bytes after chain A's (from register `base`).
void pointer_pair(KernelText& t, const std::string& base, const std::string& pa, const std::string& pb, bool two) {
  t.op("MOV " + pa + ", " + base);
  if (!two) return;
  t.op("ADD r24, " + base + ", #32");
  t.op("MOV " + pb + ", r24");
}

}  // namespace

std::string rmsnorm_stage_problem(const RmsnormStagePlan& p) {
  const std::string at = "aie_ml rmsnorm stage (rows=" + std::to_string(p.rows) + ", cols=" + std::to_string(p.cols) + "): ";
  if (p.in.empty() || p.in.size() > size_t(kMaxParts)) return at + "the input must have 1 to 4 parts";
  if (p.cols < 1 || (p.cols & (p.cols - 1))) return at + "cols must be a power of two (the mean divides exactly)";
  if (!(p.eps >= 1e-30 && p.eps <= 1e30)) return at + "eps must lie in [1e-30, 1e30] (n eps a normal fp32)";
  return streams_problem(rmsnorm_streams(p), at);
}

// Per row: pass 1 sums the parts (writing the sum when asked) and the squares, then
// rs = 1 / sqrt(mean + eps); pass 2 sums the parts again and writes n = (v rs) gamma.
std::string rmsnorm_stage(const RmsnormStagePlan& p) {
  if (const std::string problem = rmsnorm_stage_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  Streams s = rmsnorm_streams(p);
  s.block_rows = choose_block_rows(s, 16);  // one rs lane per row
  const size_t parts = s.in.size();
  const bool split_out = p.out.lo != 0, sum = p.sum.hi != 0, split_sum = sum && p.sum.lo != 0;
  const size_t sum_index = split_out ? 2 : 1;  // output matrix of sum's high part
  const uint64_t vectors = uint64_t(p.cols) / 16;
  const bool two = vectors % 2 == 0;
  const int chains = two ? 2 : 1, step = 32 * chains;
  const int log2n = int(std::lround(std::log2(double(p.cols))));
  // Pass 1 chains: parts, split tmp, v^2 sum, (vh, vl); pass 2: parts, tmp, v rs, n,
  // (vh, vl, (v rs) hi, lo, gamma, out hi, lo). Pointers: input, output, gamma, sum.
  const Chain a1{"p0", "p3", {"bm0", "bm1", "bm2", "bm3", "bm4", "bm10"}, {"w0", "w1"}, ""};
  const Chain b1{"p4", "p7", {"bm11", "bm12", "bm13", "bm14", "bm15", "bm5"}, {"w2", "w3"}, ""};
  const Chain a2{"p0", "p1", {"bm0", "bm1", "bm2", "bm3", "bm4", "bm5", "bm6"}, {"w0", "w1", "w2", "w3", "w4", "w5", "w6"}, ""};
  const Chain b2{"p4", "p5", {"bm8", "bm9", "bm10", "bm11", "bm12", "bm13", "bm14"}, {"w8", "w9", "w10", "w11", "w12", "w13", "w14"}, ""};
  const std::string gamma_ptr[2] = {"p2", "p6"};
  auto squares = [&](const Chain& c) {
    Ops ops;
    const std::string &tmp = c.acc[4], &ss = c.acc[5];
    if (parts == 1) {
      ops.push_back("VLDA " + c.w[0] + ", [" + c.in + "]" + post(step));
      ops.push_back("VMAC.E.BF16 " + ss + ", " + ss + ", " + c.w[0] + ", " + c.w[0]);
      if (split_sum) ops.push_back("VST w19, [" + c.out + ", m1]");
      if (sum) ops.push_back("VST " + c.w[0] + ", [" + c.out + "]" + post(step));
      return ops;
    }
    load_sum(ops, c, parts, step);
    split_ops(ops, c.acc[0], c.w[0], c.w[1], tmp);
    mul_split_ops(ops, ss, ss, c.w[0], c.w[1], c.w[0], c.w[1]);
    if (split_sum) ops.push_back("VST " + c.w[1] + ", [" + c.out + ", m1]");
    if (sum) ops.push_back(split_sum ? "VST " + c.w[0] + ", [" + c.out + "]" + post(step)
                                     : "VST.CONV.BF16.FP32 " + c.acc[0] + ", [" + c.out + "]" + post(step));
    return ops;
  };
  auto normalise = [&](const Chain& c, const std::string& gp) {
    Ops ops;
    const std::string &tmp = c.acc[4], &m = c.acc[5], &n = c.acc[6];
    if (parts == 1) {
      ops.push_back("VLDA " + c.w[0] + ", [" + c.in + "]" + post(step) + " ;; VLDB " + c.w[4] + ", [" + gp + "]" + post(step));
      ops.push_back("VMUL.E.BF16 " + m + ", " + c.w[0] + ", w22");
      ops.push_back("VMAC.E.BF16 " + m + ", " + m + ", " + c.w[0] + ", w18");
    } else {
      load_sum(ops, c, parts, step);
      ops.push_back("VLDB " + c.w[4] + ", [" + gp + "]" + post(step));
      split_ops(ops, c.acc[0], c.w[0], c.w[1], tmp);
      mul_split_ops(ops, m, "", c.w[0], c.w[1], "w22", "w18");
    }
    split_ops(ops, m, c.w[2], c.w[3], tmp);
    ops.push_back("VMUL.E.BF16 " + n + ", " + c.w[2] + ", " + c.w[4]);
    ops.push_back("VMAC.E.BF16 " + n + ", " + n + ", " + c.w[3] + ", " + c.w[4]);
    store_output(ops, n, split_out, c.out, c.w[5], c.w[6], tmp, step);
    return ops;
  };
  auto setup = [&](KernelText& t) {
    t.comment("n eps, (log2(n) + 1) << 23 (exponent step of 1/(2n)); gamma");
    const_acc(t, "bm16", fp32_bits(p.eps * double(p.cols)), "n eps");
    const_acc(t, "bm17", uint32_t(log2n + 1) << 23, "(log2(n) + 1) << 23");
    t.op("MOVXM r13, " + std::to_string(p.cols * 2), "bytes per row");
    t.op("MOVXM r16, " + std::to_string(sum_index * s.stride()), "sum's offset in the output block");
    t.op("ACQ " + lock(kGammaFull) + ", 1", "gamma has arrived");
  };
  auto body = [&](KernelText& t) {
    t.op("VCLR x9", "w19 = zeros (low part of a one-part sum)");
    t.op("MOVXM r4, " + std::to_string(fp32_bits(1.0)));
    t.op("VBCST.32 x5, r4", "x5 lane r = the row's sum of squares (1.0 in unused lanes)");
    t.op("MOV r12, r20", "row of the input block");
    t.op("MOV r14, r22", "row of the output block");
    t.op("MOVXM r11, " + std::to_string(s.block_rows - 1), "rows left - 1");
    t.op("MOV r27, #0", "row index");
    t.label("row_squares");
    pointer_pair(t, "r12", "p0", "p4", two);
    t.op("ADD r15, r14, r16", "sum outputs of the row");
    pointer_pair(t, "r15", "p3", "p7", two);
    t.op("VCLR bm10", "sum of v^2 per lane");
    if (two) t.op("VCLR bm5");
    loop(t, "squares", vectors / chains, zip(squares(a1), two ? squares(b1) : Ops{}));
    if (two) t.op("VADD.F bm10, bm10, bm5");
    reduce_sum_fp32(t, "bm10", "bm7");
    t.op("VMOV x6, bm10");
    t.op("VEXTRACT.S32 r25, x6, #0");
    t.op("VINSERT.32 x5, r27, r25");
    t.op("ADD r27, r27, #1");
    t.op("ADD r12, r12, r13");
    t.op("ADD r14, r14, r13");
    t.op("JNZD r11, r11, row_squares");
    t.comment("rs = 1 / sqrt(ss / n + eps) for every row of the block at once (one lane per row)");
    const_acc(t, "bm9", 0x5EF759DFu, "0x5F3759DF - (1 << 22): the guess constant for h = v / 2");
    const_acc(t, "bm8", fp32_bits(0.5), "0.5");
    {
      Ops ops;
      ops.push_back("VMOV bm0, x5");
      ops.push_back("VADD.F bm0, bm0, bm16");
      ops.push_back("VSUB.ACC32 bm1, bm0, bm17");  // h = (ss + n eps) / (2 n): exact
      ops.push_back("VMOV x6, bm1");
      ops.push_back("VUPS.S64.S32 cm2, x6, #0");
      ops.push_back("VSRS.S32.S64 x6, cm2, #1");
      ops.push_back("VMOV bm2, x6");
      ops.push_back("VSUB.ACC32 bm2, bm9, bm2");  // y0 = magic - bits(h) / 2 (< 3.5 %)
      split_ops(ops, "bm1", "w0", "w1", "bm3");
      for (int i = 0; i < 3; ++i) {  // y <- y + y (0.5 - h y^2): 3.5 % -> 1.8e-3 -> 5e-6 -> 4e-11
        split_ops(ops, "bm2", "w2", "w3", "bm3");
        mul_split_ops(ops, "bm6", "", "w2", "w3", "w2", "w3");
        split_ops(ops, "bm6", "w4", "w5", "bm3");
        mul_split_ops(ops, "bm7", "", "w0", "w1", "w4", "w5");
        ops.push_back("VSUB.F bm7, bm8, bm7");
        split_ops(ops, "bm7", "w6", "w7", "bm3");
        mul_split_ops(ops, "bm2", "bm2", "w2", "w3", "w6", "w7");
      }
      split_ops(ops, "bm2", "w20", "w21", "bm3");
      for (const std::string& b : schedule(ops)) t.op(b);
    }
    t.op("MOV r12, r20");
    t.op("MOV r14, r22");
    t.op("MOVXM r11, " + std::to_string(s.block_rows - 1));
    t.op("MOV r27, #0");
    t.label("row_normalise");
    t.op("VEXTRACT.U16 r25, x10, r27", "the row's rs: high part");
    t.op("VBCST.16 x11, r25");
    t.op("ADD r28, r27, #16");
    t.op("VEXTRACT.U16 r26, x10, r28", "low part");
    t.op("VBCST.16 x9, r26");
    pointer_pair(t, "r12", "p0", "p4", two);
    pointer_pair(t, "r14", "p1", "p5", two);
    t.op("MOVXM r24, " + hex(kOwn + kGamma));
    pointer_pair(t, "r24", "p2", "p6", two);
    loop(t, "normalise", vectors / chains, zip(normalise(a2, gamma_ptr[0]), two ? normalise(b2, gamma_ptr[1]) : Ops{}));
    t.op("ADD r27, r27, #1");
    t.op("ADD r12, r12, r13");
    t.op("ADD r14, r14, r13");
    t.op("JNZD r11, r11, row_normalise");
  };
  std::string title = "RMSNorm stage: " + std::to_string(parts) + " input part(s), n " + (split_out ? "hi + lo" : "bf16");
  if (sum) title += std::string(", sum ") + (split_sum ? "hi + lo" : "bf16");
  return kernel_file(s, title, core_program(s, "rmsnorm rows", setup, body));
}

std::string elementwise_stage_problem(const ElementwiseStagePlan& p) {
  const std::string at = std::string("aie_ml elementwise ") + op_name(p.op) + " stage (rows=" + std::to_string(p.rows) +
                         ", cols=" + std::to_string(p.cols) + "): ";
  if (p.a.empty() || p.a.size() > size_t(kMaxParts)) return at + "a must have 1 to 4 parts";
  if (p.op == ElementwiseOp::SiluMul) {
    if (p.b.empty() || p.b.size() > size_t(kMaxParts)) return at + "b must have 1 to 4 parts";
  } else if (!p.b.empty()) {
    return at + "b is used only by SiluMul";
  }
  return streams_problem(elementwise_streams(p), at);
}

std::string elementwise_stage(const ElementwiseStagePlan& p) {
  if (const std::string problem = elementwise_stage_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  Streams s = elementwise_streams(p);
  s.block_rows = choose_block_rows(s, s.rows);
  const bool split_out = p.out.lo != 0;
  const size_t pa = p.a.size(), pb = p.b.size();
  const uint64_t vectors = uint64_t(s.block_rows * s.cols) / 16;
  const bool two = vectors % 2 == 0;
  const int chains = two ? 2 : 1, step = 32 * chains;
  auto setup = [&](KernelText& t) {
    if (p.op == ElementwiseOp::Relu) t.op("VCLR x8", "zeros for max(q, 0)");
    if (p.op != ElementwiseOp::SiluMul) return;
    t.comment("-log2(e) as three bf16 parts; 2^f's Taylor coefficients, 1, the reciprocal guess constant");
    const double c = -1.0 / std::log(2.0);
    const double c1 = aie_ml_bf16_value(bf16_bits(c)), c2 = aie_ml_bf16_value(bf16_bits(c - c1));
    const_bf16(t, "w10", bf16_bits(c), "-log2(e), part 1");
    const_bf16(t, "w11", bf16_bits(c - c1), "part 2");
    const_bf16(t, "w16", bf16_bits(c - c1 - c2), "part 3");
    const double ln2 = std::log(2.0);
    const_bf16(t, "w17", bf16_bits(std::pow(ln2, 5) / 120), "c5 = ln2^5/5!");
    double f = 1;
    for (int n = 1; n <= 4; ++n) {
      f *= n;
      const_acc(t, "bm" + std::to_string(16 - n), fp32_bits(std::pow(ln2, n) / f), "c" + std::to_string(n) + " = ln2^" + std::to_string(n) + "/" + std::to_string(n) + "!");
    }
    const_acc(t, "bm16", fp32_bits(1.0), "1");
    const_acc(t, "bm17", 0xFEF311C3u, "reciprocal guess constant 0x7EF311C3 with the sign bit");
    t.op("MOVXM r4, " + std::to_string(0x8000), "sign bit of a bf16 lane");
    t.op("VBCST.16 x10, r4");
  };
  // Chains: Sum/ReLU: parts, split tmp; (hi, lo); ReLU's 512-bit register. SiLU*mul: see
  // silu_mul_ops.
  const Chain sa{"p0", "p1", {"bm0", "bm1", "bm2", "bm3", "bm4"}, {"w0", "w1"}, "x2"};
  const Chain sb{"p2", "p3", {"bm8", "bm9", "bm10", "bm11", "bm12"}, {"w8", "w9"}, "x6"};
  const Chain ma{"p0", "p1", {"bm0", "bm1", "bm2", "bm3", "bm4", "bm5"}, {"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"}, ""};
  const Chain mb{"p2", "p3", {"bm6", "bm7", "bm8", "bm9", "bm10", "bm11"}, {"w8", "w9", "w12", "w13", "w14", "w15", "w18", "w19"}, ""};
  auto vector_ops = [&](const Chain& c, const Chain& m) {
    Ops ops;
    if (p.op == ElementwiseOp::SiluMul) return silu_mul_ops(m, pa, pb, split_out, step);
    load_sum(ops, c, pa, step);
    if (p.op == ElementwiseOp::Relu) {
      ops.push_back("VMOV " + c.x + ", " + c.acc[0]);
      ops.push_back("VMAX.S32 " + c.x + ", " + c.x + ", x8");
      ops.push_back("VMOV " + c.acc[0] + ", " + c.x);
    }
    store_output(ops, c.acc[0], split_out, c.out, c.w[0], c.w[1], c.acc[4], step);
    return ops;
  };
  auto body = [&](KernelText& t) {
    pointer_pair(t, "r20", "p0", "p2", two);
    pointer_pair(t, "r22", "p1", "p3", two);
    loop(t, "vectors", vectors / chains, zip(vector_ops(sa, ma), two ? vector_ops(sb, mb) : Ops{}));
  };
  const std::string title = std::string("elementwise ") + op_name(p.op) + " stage: a " + std::to_string(pa) + " part(s)" +
                            (pb ? ", b " + std::to_string(pb) + " part(s)" : std::string()) + ", out " +
                            (split_out ? "hi + lo" : "bf16");
  return kernel_file(s, title, core_program(s, op_name(p.op), setup, body));
}

}  // namespace tlmcraft::tasks::aie_ml
