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
// A block holds R rows (R a power of two dividing rows, blocks of about 4 KB): in the
// tile, input part k of the block at k S and output matrix j at j S (S = R cols 2 bytes);
// the core reaches them as [p, mK] with mK = K S. Tile memory: input ping 0x0000, pong
// 0x4000, output ping 0x8000, pong 0xC000 (up to 0x3E00 bytes), gamma 0xFE00.
// Tile locks: 0 input empty (init 2), 1 input full, 2 output empty (init 2), 3 output
// full, 4 gamma arrived; mem0 locks 0 empty (init 2), 1 full.
//
// Numerics (fp32 lanes; bf16 products are exact):
//   sums of parts: fp32 adds in part order (the first part converted exactly);
//   split outputs: hi = bf16(q), lo = bf16(q - hi) (q - hi is exact in fp32);
//   RMSNorm: ss = sum over the row of (vh + vl)^2 - vl^2 (three exact products per lane,
//     vh, vl the bf16 split of v; one part: v^2 itself, exact), mean + eps =
//     (ss + n eps) 2^-log2(n) (the exponent field lowered: exact), rs = rsqrt_uniform
//     (fp_steps.h), n = ((v rs) gamma) with v rs from split parts (three products);
//   ReLU: max(q, 0) as a signed-integer maximum of the fp32 bit patterns (exact);
//   SiLU(a) b = (sum_k,j a_k b_j) / (1 + 2^t), t = sum_k a_k (c1 + c2 + c3) with
//     -log2(e) = c1 + c2 + c3 in three bf16 parts (every product exact), 2^t by
//     exp2_precise below, the reciprocal by fp_steps' recip, the final product of split
//     parts. Requires |a| < 80 (2^t stays a normal fp32).
#include "tasks/baselines/aie_ml/row_stages.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "tasks/baselines/aie_ml/block_loop.h"
#include "tasks/baselines/aie_ml/fp_steps.h"
#include "tasks/baselines/aie_ml/movement_text.h"
#include "tasks/layout_aie_ml.h"

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
// stay within kTargetBlock (at least one row).
int64_t choose_block_rows(const Streams& s) {
  int64_t r = 1;
  const uint64_t row_in = s.in.size() * uint64_t(s.cols) * 2, row_out = s.out.size() * uint64_t(s.cols) * 2;
  while (s.rows % (2 * r) == 0 && 2 * r * row_in <= kTargetBlock && 2 * r * row_out <= kTargetBlock) r *= 2;
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
  return "; " + title + " (tasks/baselines/aie_ml/row_stages.cpp)\n.tile 0 0\n" + core + ".movement\n" + movement(s);
}

std::string part_operand(size_t k, const std::string& p) { return k == 0 ? "[" + p + "]" : "[" + p + ", m" + std::to_string(k) + "]"; }

// Loads parts first..first+count-1 of the current vector ([p0], post-incremented by the
// last load) into accumulators acc[0..] as fp32 and adds them in part order into acc[0].
void load_sum(std::vector<std::string>& ops, size_t first, size_t count, bool advance) {
  static const char* acc[] = {"bm0", "bm1", "bm2", "bm3"};
  // Part `first` last, so its load may post-increment the pointer.
  for (size_t i = 1; i < count; ++i) ops.push_back(std::string("VLDA.CONV.FP32.BF16 ") + acc[i] + ", " + part_operand(first + i, "p0"));
  ops.push_back(std::string("VLDA.CONV.FP32.BF16 bm0, ") + part_operand(first, "p0") + (advance && first == 0 ? ", #32" : ""));
  for (size_t i = 1; i < count; ++i) ops.push_back(std::string("VADD.F bm0, bm0, ") + acc[i]);
}

// Stores fp32 `q` as output matrices 0 (and 1) at [p1] (post-incremented).
void store_output(std::vector<std::string>& ops, const std::string& q, bool split_out) {
  if (!split_out) {
    ops.push_back("VST.CONV.BF16.FP32 " + q + ", [p1], #32");
    return;
  }
  ops.push_back("VCONV.BF16.FP32 w4, " + q);
  ops.push_back("VCONV.FP32.BF16 bm7, w4");
  ops.push_back("VSUB.F bm7, " + q + ", bm7");
  ops.push_back("VCONV.BF16.FP32 w5, bm7");
  ops.push_back("VST w5, [p1, m1]");
  ops.push_back("VST w4, [p1], #32");
}

// Writes `ops` as a zero-overhead loop of `count` iterations.
void loop(KernelText& t, const std::string& tag, uint64_t count, const std::vector<std::string>& ops) {
  t.begin_loop(tag, count);
  for (size_t i = 0; i + 1 < ops.size(); ++i) t.op(ops[i]);
  t.loop_last(ops.back());
}

// split() and mul_split() as op lists (loop bodies are built as lists).
void split_ops(std::vector<std::string>& ops, const std::string& a, const std::string& hi, const std::string& lo) {
  ops.push_back("VCONV.BF16.FP32 " + hi + ", " + a);
  ops.push_back("VCONV.FP32.BF16 bm7, " + hi);
  ops.push_back("VSUB.F bm7, " + a + ", bm7");
  ops.push_back("VCONV.BF16.FP32 " + lo + ", bm7");
}
void mul_split_ops(std::vector<std::string>& ops, const std::string& dst, const std::string& ah, const std::string& al,
                   const std::string& bh, const std::string& bl) {
  ops.push_back("VMUL.E.BF16 " + dst + ", " + ah + ", " + bh);
  ops.push_back("VMAC.E.BF16 " + dst + ", " + dst + ", " + al + ", " + bh);
  ops.push_back("VMAC.E.BF16 " + dst + ", " + dst + ", " + ah + ", " + bl);
}

// bm2 = 2^t for t in bm1 (|t| < 126), about 3e-5 relative: k = round(t), f = t - k (exact)
// split into bf16 fh + fl, 2^f = 1 + f (c1 + f (c2 + f (c3 + f (c4 + f c5)))) (Taylor,
// remainder < 3.4e-6 at |f| = 1/2) in fp32 Horner steps p <- c + p f with p split into
// bf16 parts (three exact products each), then k added to the exponent field.
// Constants: c5 (bf16) w16; c4, c3, c2, c1, 1 (fp32) bm10..bm14. Uses bm3..bm8, w2..w5.
void exp2_precise(std::vector<std::string>& ops) {
  ops.push_back("VCONV.S32.FP32 bm3, bm1, #0");
  ops.push_back("VCONV.FP32.S32 bm4, bm3");
  ops.push_back("VSUB.F bm5, bm1, bm4");
  split_ops(ops, "bm5", "w2", "w3");
  ops.push_back("VMUL.E.BF16 bm6, w16, w2");
  ops.push_back("VMAC.E.BF16 bm6, bm6, w16, w3");
  ops.push_back("VADD.F bm6, bm6, bm10");
  std::string p = "bm6", q = "bm8";
  for (const char* c : {"bm11", "bm12", "bm13", "bm14"}) {
    split_ops(ops, p, "w4", "w5");
    ops.push_back("VMAC.E.BF16 " + q + ", " + c + ", w4, w2");
    ops.push_back("VMAC.E.BF16 " + q + ", " + q + ", w5, w2");
    ops.push_back("VMAC.E.BF16 " + q + ", " + q + ", w4, w3");
    std::swap(p, q);
  }
  ops.push_back("VCONV.S32.FP32 bm3, bm4, #23");
  ops.push_back("VADD.ACC32 bm2, " + p + ", bm3");
}

// fp_steps' recip (y = 1/a by three Newton steps) as an op list: dst = bm8 from a.
void recip_ops(std::vector<std::string>& ops, const std::string& a) {
  split_ops(ops, a, "w4", "w5");
  ops.push_back("VSUB.ACC32 bm8, bm16, " + a);
  for (int i = 0; i < 3; ++i) {
    split_ops(ops, "bm8", "w6", "w7");
    mul_split_ops(ops, "bm9", "w4", "w5", "w6", "w7");
    ops.push_back("VSUB.F bm9, bm15, bm9");
    split_ops(ops, "bm9", "w8", "w9");
    mul_split_ops(ops, "bm8", "w6", "w7", "w8", "w9");
  }
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

}  // namespace

std::string rmsnorm_stage_problem(const RmsnormStagePlan& p) {
  const std::string at = "aie_ml rmsnorm stage (rows=" + std::to_string(p.rows) + ", cols=" + std::to_string(p.cols) + "): ";
  if (p.in.empty() || p.in.size() > size_t(kMaxParts)) return at + "the input must have 1 to 4 parts";
  if (p.cols < 1 || (p.cols & (p.cols - 1))) return at + "cols must be a power of two (the mean divides exactly)";
  if (!(p.eps >= 1e-30 && p.eps <= 1e30)) return at + "eps must lie in [1e-30, 1e30] (n eps a normal fp32)";
  return streams_problem(rmsnorm_streams(p), at);
}

std::string rmsnorm_stage(const RmsnormStagePlan& p) {
  if (const std::string problem = rmsnorm_stage_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  Streams s = rmsnorm_streams(p);
  s.block_rows = choose_block_rows(s);
  const size_t parts = s.in.size();
  const bool split_out = p.out.lo != 0, sum = p.sum.hi != 0, split_sum = sum && p.sum.lo != 0;
  const size_t sum_index = split_out ? 2 : 1;  // output matrix of sum's high part
  const uint64_t vectors = uint64_t(p.cols) / 16;
  const int log2n = int(std::lround(std::log2(double(p.cols))));
  auto setup = [&](KernelText& t) {
    t.comment("n eps, log2(n) << 23 (exponent step of 1/n), zeros; gamma");
    const_acc(t, "bm12", fp32_bits(p.eps * double(p.cols)), "n eps");
    const_acc(t, "bm13", uint32_t(log2n) << 23, "log2(n) << 23");
    t.op("VCLR x10", "w20 = zeros (low part of a one-part sum)");
    t.op("MOVXM r13, " + std::to_string(p.cols * 2), "bytes per row");
    t.op("MOVXM r16, " + std::to_string(sum_index * s.stride()), "sum's offset in the output block");
    t.op("ACQ " + lock(kGammaFull) + ", 1", "gamma has arrived");
  };
  auto body = [&](KernelText& t) {
    t.op("MOV r12, r20", "row of the input block");
    t.op("MOV r14, r22", "row of the output block");
    t.op("MOVXM r11, " + std::to_string(s.block_rows - 1), "rows left - 1");
    t.label("row");
    t.op("MOV p0, r12");
    t.op("ADD r15, r14, r16");
    t.op("MOV p3, r15", "sum outputs of the row");
    t.op("VCLR bm10", "sum of v^2 per lane");
    {
      std::vector<std::string> ops;
      if (parts == 1) {
        ops.push_back("VLDA w0, [p0], #32");
        ops.push_back("VMAC.E.BF16 bm10, bm10, w0, w0");
        if (split_sum) ops.push_back("VST w20, [p3, m1]");
        if (sum) ops.push_back("VST w0, [p3], #32");
      } else {
        load_sum(ops, 0, parts, true);
        split_ops(ops, "bm0", "w0", "w1");
        ops.push_back("VMAC.E.BF16 bm10, bm10, w0, w0");
        ops.push_back("VMAC.E.BF16 bm10, bm10, w1, w0");
        ops.push_back("VMAC.E.BF16 bm10, bm10, w0, w1");
        if (split_sum) ops.push_back("VST w1, [p3, m1]");
        if (sum) {
          if (split_sum)
            ops.push_back("VST w0, [p3], #32");
          else
            ops.push_back("VST.CONV.BF16.FP32 bm0, [p3], #32");
        }
      }
      loop(t, "squares", vectors, ops);
    }
    reduce_sum_fp32(t, "bm10", "bm7");
    t.op("VADD.F bm10, bm10, bm12", "ss + n eps");
    t.op("VSUB.ACC32 bm10, bm10, bm13", "mean + eps = (ss + n eps) / n (exponent field)");
    rsqrt_uniform(t, "bm11", "bm10");
    split(t, "bm11", "w16", "w17", "bm7");
    t.op("MOV p0, r12");
    t.op("MOV p1, r14");
    t.op("MOVXM p2, " + hex(kOwn + kGamma));
    {
      std::vector<std::string> ops;
      if (parts == 1) {
        ops.push_back("VLDA w0, [p0], #32 ;; VLDB w18, [p2], #32");
        ops.push_back("VMUL.E.BF16 bm1, w0, w16");
        ops.push_back("VMAC.E.BF16 bm1, bm1, w0, w17");
      } else {
        load_sum(ops, 0, parts, true);
        ops.push_back("VLDB w18, [p2], #32");
        split_ops(ops, "bm0", "w0", "w1");
        mul_split_ops(ops, "bm1", "w0", "w1", "w16", "w17");
      }
      split_ops(ops, "bm1", "w2", "w3");
      ops.push_back("VMUL.E.BF16 bm2, w2, w18");
      ops.push_back("VMAC.E.BF16 bm2, bm2, w3, w18");
      store_output(ops, "bm2", split_out);
      loop(t, "normalise", vectors, ops);
    }
    t.op("ADD r12, r12, r13");
    t.op("ADD r14, r14, r13");
    t.op("JNZD r11, r11, row");
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
  s.block_rows = choose_block_rows(s);
  const bool split_out = p.out.lo != 0;
  const size_t pa = p.a.size(), pb = p.b.size();
  const uint64_t vectors = uint64_t(s.block_rows * s.cols) / 16;
  auto setup = [&](KernelText& t) {
    if (p.op == ElementwiseOp::Relu) t.op("VCLR x8", "zeros for max(q, 0)");
    if (p.op != ElementwiseOp::SiluMul) return;
    t.comment("-log2(e) as three bf16 parts; exp2 and recip constants");
    const double c = -1.0 / std::log(2.0);
    const double c1 = aie_ml_bf16_value(bf16_bits(c)), c2 = aie_ml_bf16_value(bf16_bits(c - c1));
    const_bf16(t, "w10", bf16_bits(c), "-log2(e), part 1");
    const_bf16(t, "w11", bf16_bits(c - c1), "part 2");
    const_bf16(t, "w17", bf16_bits(c - c1 - c2), "part 3");
    const double ln2 = std::log(2.0);
    const_bf16(t, "w16", bf16_bits(std::pow(ln2, 5) / 120), "ln2^5/5!");
    const char* acc[] = {"bm10", "bm11", "bm12", "bm13"};
    for (int n = 4; n >= 1; --n) {
      double f = 1;
      for (int i = 2; i <= n; ++i) f *= i;
      const_acc(t, acc[4 - n], fp32_bits(std::pow(ln2, n) / f), "ln2^" + std::to_string(n) + "/" + std::to_string(n) + "!");
    }
    const_acc(t, "bm14", fp32_bits(1.0), "1");
    const_acc(t, "bm15", fp32_bits(2.0), "2");
    const_acc(t, "bm16", 0x7EF311C3u, "reciprocal guess constant");
  };
  auto body = [&](KernelText& t) {
    t.op("MOV p0, r20");
    t.op("MOV p1, r22");
    std::vector<std::string> ops;
    switch (p.op) {
      case ElementwiseOp::Sum:
        load_sum(ops, 0, pa, true);
        store_output(ops, "bm0", split_out);
        break;
      case ElementwiseOp::Relu:
        load_sum(ops, 0, pa, true);
        ops.push_back("VMOV x6, bm0");
        ops.push_back("VMAX.S32 x6, x6, x8");
        ops.push_back("VMOV bm0, x6");
        store_output(ops, "bm0", split_out);
        break;
      case ElementwiseOp::SiluMul: {
        static const char* aw[] = {"w18", "w19", "w20", "w21"};
        static const char* bw[] = {"w12", "w13", "w14", "w15"};
        // Loads: b parts, then a parts with a_0 last (it advances p0).
        std::vector<std::pair<std::string, size_t>> loads;
        for (size_t j = 0; j < pb; ++j) loads.push_back({bw[j], pa + j});
        for (size_t k = 1; k < pa; ++k) loads.push_back({aw[k], k});
        for (size_t i = 0; i < loads.size(); i += 2) {
          std::string b = "VLDA " + loads[i].first + ", " + part_operand(loads[i].second, "p0");
          if (i + 1 < loads.size()) b += " ;; VLDB " + loads[i + 1].first + ", " + part_operand(loads[i + 1].second, "p0");
          ops.push_back(b);
        }
        ops.push_back(std::string("VLDA ") + aw[0] + ", [p0], #32");
        bool first = true;
        for (size_t k = 0; k < pa; ++k)
          for (size_t j = 0; j < pb; ++j) {
            ops.push_back(first ? std::string("VMUL.E.BF16 bm0, ") + aw[k] + ", " + bw[j]
                                : std::string("VMAC.E.BF16 bm0, bm0, ") + aw[k] + ", " + bw[j]);
            first = false;
          }
        first = true;
        for (const char* c : {"w10", "w11", "w17"})
          for (size_t k = 0; k < pa; ++k) {
            ops.push_back(first ? std::string("VMUL.E.BF16 bm1, ") + aw[k] + ", " + c
                                : std::string("VMAC.E.BF16 bm1, bm1, ") + aw[k] + ", " + c);
            first = false;
          }
        exp2_precise(ops);
        ops.push_back("VADD.F bm2, bm2, bm14");
        recip_ops(ops, "bm2");
        split_ops(ops, "bm0", "w0", "w1");
        split_ops(ops, "bm8", "w6", "w7");
        mul_split_ops(ops, "bm9", "w0", "w1", "w6", "w7");
        store_output(ops, "bm9", split_out);
        break;
      }
    }
    loop(t, "vectors", vectors, ops);
  };
  const std::string title = std::string("elementwise ") + op_name(p.op) + " stage: a " + std::to_string(pa) + " part(s)" +
                            (pb ? ", b " + std::to_string(pb) + " part(s)" : std::string()) + ", out " +
                            (split_out ? "hi + lo" : "bf16");
  return kernel_file(s, title, core_program(s, op_name(p.op), setup, body));
}

}  // namespace tlmcraft::tasks::aie_ml
