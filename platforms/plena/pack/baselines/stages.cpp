#include "platforms/plena/pack/baselines/stages.h"

#include <algorithm>
#include <stdexcept>

namespace tlmcraft::tasks::plena {
namespace {

std::string s(uint64_t v) { return std::to_string(v); }
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Register roles shared by the stages (each stage re-initialises what it uses).
constexpr int kVr = 1, kOff = 2, kJw = 4, kJy = 5, kKx = 6, kKw = 7, kHead = 8;
constexpr int kLoopA = 9, kLoopB = 10, kLoopC = 11, kTmp = 12, kWo = 13, kXs = 14, kAux = 15;
constexpr uint32_t kHlen = 16;  // HLEN: lanes per head of the batched matmuls

}  // namespace

HbmMat hbm_mat(const TensorPlacement& p) {
  HbmMat m;
  m.addr = p.address;
  m.prec = p.precision;
  m.scale = p.scale > 0 ? uint64_t(p.scale) : 0;
  m.stride = p.view.empty() ? 0 : uint64_t(p.view.back());
  return m;
}

uint64_t scratch_base(const PlatformLayout& layout) {
  uint64_t end = 0;
  for (const auto& t : layout.tensors()) end = std::max(end, t.address + t.bytes);
  return (end + 4095) / 4096 * 4096;
}

void StageEmitter::add_imm(int rd, uint64_t value, const std::string& comment) {
  if (value == 0) return;
  if (value < (1u << 18)) {
    w_.op("S_ADDI_INT " + gp(rd) + ", " + gp(rd) + ", " + s(value), comment);
    return;
  }
  w_.set(kTmp, value, comment);
  w_.op("S_ADD_INT " + gp(rd) + ", " + gp(rd) + ", " + gp(kTmp));
}

void StageEmitter::set_stride(uint64_t stride) {
  w_.set(kTmp, stride);
  w_.op("C_SET_STRIDE_REG " + gp(kTmp), "STRIDE = " + s(stride));
}

void StageEmitter::set_scale_stride(const HbmMat& m) {
  if (m.prec != 2) {
    w_.set(kTmp, m.scale);
    w_.op("C_SET_SCALE_REG " + gp(kTmp), "SCALE = " + s(m.scale));
  }
  set_stride(m.stride);
}

void StageEmitter::prologue(int scale_index) {
  w_.op("S_LD_FP f1, gp0, 1", "f1 = 1.0");
  w_.op("S_RECI_FP f2, f0", "f2 = 1/0 = +inf");
  w_.op("S_SUB_FP f2, f0, f2", "f2 = -inf (start of a running max)");
  if (scale_index >= 0) w_.op("S_LD_FP f3, gp0, " + s(scale_index), "f3 = 1/sqrt(d)");
}

HbmMat StageEmitter::scratch(uint64_t rows, uint64_t cols) {
  HbmMat m;
  m.addr = next_scratch_;
  m.prec = 2;
  m.stride = cols;
  next_scratch_ += (rows * cols * 2 + 4095) / 4096 * 4096;
  return m;
}

HbmMat StageEmitter::ones() {
  if (have_ones_) return ones_;
  HbmMat m = scratch(a_.v_rows, a_.vlen);
  w_.comment("a BF16 row of ones in HBM scratch (row sums through the matrix unit)");
  w_.op("S_MAP_V_FP gp0, gp0, 0", "VRAM row 0 = FP_MEM[0..] (finite constants)");
  for (uint32_t r = 1; r < a_.v_rows; ++r) {
    w_.set(kVr, uint64_t(r) * a_.vlen);
    w_.op("S_MAP_V_FP " + gp(kVr) + ", gp0, 0");
  }
  for (uint32_t r = 0; r < a_.v_rows; ++r) {
    w_.set(kVr, uint64_t(r) * a_.vlen);
    w_.op("V_MUL_VF " + gp(kVr) + ", " + gp(kVr) + ", f0, 0", "0");
    w_.op("V_ADD_VF " + gp(kVr) + ", " + gp(kVr) + ", f1, 0", "1");
  }
  w_.set_addr(7, kTmp, m.addr, "a7 = ones");
  w_.op("H_STORE_V gp0, gp0, a7, 0, 2", "4 rows of ones");
  m.stride = 0;     // every row the same
  m.tile_step = 0;  // every column tile the same
  ones_ = m;
  have_ones_ = true;
  return m;
}

// One k-tile of a matmul: X tile (rows x 64) into VRAM 0, W tile into MSRAM 0, then for
// each 16-wide contraction slice m: shift X left by 16m lanes and accumulate head 0.
void StageEmitter::k_tile(const HbmMat& x, const HbmMat& w, bool transposed, uint32_t rows, uint32_t slices, int ax,
                          int aw) {
  set_scale_stride(x);
  w_.op("S_ADDI_INT " + gp(kVr) + ", gp0, 0", "X tile -> VRAM 0");
  w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kKx) + ", gp0");
  w_.loop_start(kLoopC, rows / a_.v_rows);
  w_.op("H_PREFETCH_V " + gp(kVr) + ", " + gp(kOff) + ", a" + s(ax) + ", 1, " + s(x.prec), "BLEN rows of X");
  w_.op("S_ADDI_INT " + gp(kVr) + ", " + gp(kVr) + ", " + s(a_.v_rows * a_.vlen));
  add_imm(kOff, a_.v_rows * x.stride);
  w_.loop_end(kLoopC);
  set_scale_stride(w);
  w_.op("H_PREFETCH_M gp0, " + gp(kKw) + ", a" + s(aw) + ", 1, " + s(w.prec), "W tile -> MSRAM 0");
  const std::string mm = transposed ? "M_BTMM " : "M_BMM ";
  for (uint32_t m = 0; m < slices; ++m) {
    int src = 0;  // VRAM address register of the activation block (gp0 = VRAM 0)
    if (m > 0) {
      w_.set(kHead, uint64_t(m) * kHlen, "shift by " + s(m * kHlen) + " lanes");
      w_.op("S_ADDI_INT " + gp(kVr) + ", gp0, 0");
      w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kXs) + ", gp0");
      w_.loop_start(kLoopC, rows);
      w_.op("V_SHFT_V " + gp(kOff) + ", " + gp(kVr) + ", " + gp(kHead) + ", 0", "slice m to head 0");
      w_.op("S_ADDI_INT " + gp(kVr) + ", " + gp(kVr) + ", " + s(a_.vlen));
      w_.op("S_ADDI_INT " + gp(kOff) + ", " + gp(kOff) + ", " + s(a_.vlen));
      w_.loop_end(kLoopC);
      src = kXs;
    }
    const uint64_t head_off = transposed ? uint64_t(m) * kHlen : uint64_t(m) * kHlen * a_.mlen;
    w_.set(kHead, head_off, transposed ? "W columns of slice m" : "W rows of slice m");
    w_.op(mm + gp(kHead) + ", gp0, " + gp(src), "ACC[0] += X slice m @ W slice m");
  }
}

void StageEmitter::matmul(const HbmMat& x, const HbmMat& w, bool transposed, const HbmMat& y, uint32_t m,
                          uint32_t k, uint32_t n, const std::string& what) {
  matmul_sum({MatTerm{x, w, transposed, k}}, y, m, n, what);
}

void StageEmitter::matmul_sum(const std::vector<MatTerm>& terms, const HbmMat& y, uint32_t m, uint32_t n,
                              const std::string& what) {
  const uint32_t T = a_.mlen;
  if (terms.empty() || terms.size() > 2) throw std::invalid_argument("matmul stage: one or two products");
  for (const MatTerm& t : terms)
    if (m % a_.v_rows || !m || !t.k || !n || (t.k % T) % kHlen)
      throw std::invalid_argument("matmul stage: M must be a multiple of BLEN and K % 64 a multiple of 16");
  const uint32_t nj = ceil_div(n, T);
  // Per product: a-registers of X and W, and the register holding W's offset of output tile j.
  const int ax[2] = {0, 3}, aw[2] = {1, 5}, jw[2] = {kJw, kAux};
  w_.blank();
  std::string shape;
  for (const MatTerm& t : terms)
    shape += std::string(shape.empty() ? "" : " + ") + "[" + s(m) + "x" + s(t.k) + "] @ [" + s(t.k) + "x" + s(n) + "]" +
             (t.transposed ? "^T-stored" : "");
  w_.comment("stage: " + what + "  " + shape + (terms.size() > 1 ? " (one FP32 accumulator)" : ""));
  for (size_t i = 0; i < terms.size(); ++i) {
    w_.set_addr(ax[i], kTmp, terms[i].x.addr, "a" + s(ax[i]) + " = X" + (i ? "2" : ""));
    w_.set_addr(aw[i], kTmp, terms[i].w.addr, "a" + s(aw[i]) + " = W" + (i ? "2" : ""));
  }
  w_.set_addr(2, kTmp, y.addr, "a2 = Y");
  w_.set(kWo, 8192, "VRAM: X tile 0, shifted X 4096, ACC write-out 8192 (4 heads x 64 rows)");
  w_.set(kXs, 4096);
  auto j_step = [T](const MatTerm& t) { return t.transposed ? uint64_t(T) * t.w.stride : t.w.tile_step; };
  auto k_step = [T](const MatTerm& t) { return t.transposed ? t.w.tile_step : uint64_t(T) * t.w.stride; };
  for (uint32_t tb = 0; tb * T < m; ++tb) {
    const uint32_t rows = std::min(T, m - tb * T);
    w_.comment("token block " + s(tb) + ": " + s(rows) + " rows");
    for (size_t i = 0; i < terms.size(); ++i) w_.set(jw[i], terms[i].w.col0, "W offset of output tile j");
    w_.set(kJy, y.col0 + uint64_t(tb) * T * y.stride, "Y offset of output tile j");
    w_.loop_start(kLoopA, nj, "output column tiles");
    for (size_t i = 0; i < terms.size(); ++i) {
      const MatTerm& t = terms[i];
      const uint32_t nk = ceil_div(t.k, T), full = t.k % T ? nk - 1 : nk, tail_slices = (t.k % T) / kHlen;
      w_.set(kKx, t.x.col0 + uint64_t(tb) * T * t.x.stride, "X offset of k-tile");
      w_.op("S_ADD_INT " + gp(kKw) + ", " + gp(jw[i]) + ", gp0", "W offset of k-tile");
      if (full) {
        w_.loop_start(kLoopB, full, "k-tiles");
        k_tile(t.x, t.w, t.transposed, rows, 4, ax[i], aw[i]);
        add_imm(kKx, t.x.tile_step);
        add_imm(kKw, k_step(t));
        w_.loop_end(kLoopB);
      }
      if (tail_slices) k_tile(t.x, t.w, t.transposed, rows, tail_slices, ax[i], aw[i]);
    }
    w_.op("M_BMM_WO " + gp(kWo) + ", 0", "head 0 rows = Y tile (FP32 sum rounded once)");
    set_stride(y.stride);
    w_.op("S_ADD_INT " + gp(kVr) + ", " + gp(kWo) + ", gp0");
    w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kJy) + ", gp0");
    w_.loop_start(kLoopC, rows / a_.v_rows);
    w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kOff) + ", a2, 1, 2", "BLEN rows of Y (BF16)");
    w_.op("S_ADDI_INT " + gp(kVr) + ", " + gp(kVr) + ", " + s(a_.v_rows * a_.vlen));
    add_imm(kOff, a_.v_rows * y.stride);
    w_.loop_end(kLoopC);
    for (size_t i = 0; i < terms.size(); ++i) add_imm(jw[i], j_step(terms[i]));
    add_imm(kJy, y.tile_step);
    w_.loop_end(kLoopA);
  }
}

void StageEmitter::map(const std::vector<HbmMat>& in, const HbmMat& out, uint32_t rows, uint32_t cols, const RowOp& op,
                       const std::string& what) {
  const uint32_t V = a_.vlen, B = a_.v_rows;
  if (in.empty() || in.size() > 3 || cols % V || rows % B || !rows)
    throw std::invalid_argument("map stage: 1..3 inputs, cols a multiple of VLEN, rows of BLEN");
  w_.blank();
  w_.comment("stage: " + what + "  [" + s(rows) + "x" + s(cols) + "], row by row");
  // Registers: row offsets gp4.. (inputs) and gp7 (output), column offset gp3, row pointers
  // gp11.. (inputs), gp14 (output), gp15 (scratch row). VRAM: input i at i*BLEN rows.
  const int row_off[4] = {kJw, kJy, kKx, kKw};
  for (size_t i = 0; i < in.size(); ++i) w_.set_addr(int(i), kTmp, in[i].addr, "a" + s(i) + " = input " + s(i));
  w_.set_addr(4, kTmp, out.addr, "a4 = output");
  for (size_t i = 0; i < in.size(); ++i) w_.set(row_off[i], in[i].col0, "input " + s(i) + " row offset");
  w_.set(row_off[3], out.col0, "output row offset");
  const uint64_t out_vram = uint64_t(in.size()) * B * V, tmp_vram = out_vram + uint64_t(B) * V;
  w_.loop_start(kLoopA, rows / B, "row blocks");
  w_.set(3, 0, "column offset");
  w_.loop_start(kLoopB, cols / V, "column tiles");
  for (size_t i = 0; i < in.size(); ++i) {
    set_scale_stride(in[i]);
    w_.set(kVr, uint64_t(i) * B * V);
    w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(row_off[i]) + ", gp0");
    if (in[i].tile_step) w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kOff) + ", gp3");
    w_.op("H_PREFETCH_V " + gp(kVr) + ", " + gp(kOff) + ", a" + s(i) + ", 1, " + s(in[i].prec), "input " + s(i));
  }
  const int ptr[3] = {kLoopC, kWo, kXs};
  const int out_ptr = kHead, tmp_ptr = kAux;
  for (uint32_t r = 0; r < B; ++r) {
    for (size_t i = 0; i < in.size(); ++i) w_.set(ptr[i], (uint64_t(i) * B + r) * V);
    w_.set(out_ptr, out_vram + uint64_t(r) * V);
    w_.set(tmp_ptr, tmp_vram);
    std::vector<int> regs(ptr, ptr + in.size());
    op(w_, regs, out_ptr, tmp_ptr);
  }
  set_stride(out.stride);
  w_.set(kVr, out_vram);
  w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(row_off[3]) + ", gp3");
  w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kOff) + ", a4, 1, 2", "BLEN output rows (BF16)");
  w_.op("S_ADDI_INT gp3, gp3, " + s(V));
  w_.loop_end(kLoopB);
  for (size_t i = 0; i < in.size(); ++i) add_imm(row_off[i], uint64_t(B) * in[i].stride);
  add_imm(row_off[3], uint64_t(B) * out.stride);
  w_.loop_end(kLoopA);
}

void StageEmitter::softmax(const HbmMat& sm, const HbmMat& p, uint32_t rows, uint32_t cols, const std::string& what) {
  const uint32_t V = a_.vlen, B = a_.v_rows;
  const uint32_t nt = ceil_div(cols, V), tail = cols % V;
  if (nt > 2 || tail % 16 || rows % B) throw std::invalid_argument("softmax stage: cols <= 2*VLEN, HLEN multiple");
  const HbmMat one = ones();
  w_.blank();
  w_.comment("stage: " + what + "  softmax of " + s(rows) + " rows of " + s(cols));
  w_.set_addr(0, kTmp, sm.addr, "a0 = scores");
  w_.set_addr(4, kTmp, p.addr, "a4 = probabilities");
  w_.comment("row sums: M_MV against a tile of ones (FP32 accumulator, rounded once at write-out)");
  w_.set_addr(5, kTmp, one.addr, "a5 = ones");
  set_stride(0);
  w_.set(kHead, uint64_t(a_.mlen) * a_.mlen, "MSRAM tile 1");
  w_.op("H_PREFETCH_M " + gp(kHead) + ", gp0, a5, 1, 2", "MSRAM tile 1 = ones");
  const uint64_t zrow = uint64_t(nt) * B * V, sum_row = zrow + V;
  w_.set(kXs, sum_row, "VRAM row of the written-out sums");
  if (tail) {
    const uint32_t heads = V / kHlen, valid = (1u << (tail / kHlen)) - 1;
    w_.set(kWo, zrow, "a zero row");
    w_.op("S_MAP_V_FP " + gp(kWo) + ", gp0, 0", "FP_MEM[0..VLEN) (finite constants)");
    w_.op("V_MUL_VF " + gp(kWo) + ", " + gp(kWo) + ", f0, 0", "0");
    w_.set(kTmp, ((1u << heads) - 1) & ~valid, "V_MASK: the lanes past the " + s(tail) + " valid ones");
    w_.op("C_SET_V_MASK_REG " + gp(kTmp));
  }
  w_.set(kJw, sm.col0, "score row offset");
  w_.set(kJy, p.col0, "probability row offset");
  w_.loop_start(kLoopA, rows / B, "blocks of BLEN rows");
  set_scale_stride(sm);
  for (uint32_t t = 0; t < nt; ++t) {
    w_.set(kVr, uint64_t(t) * B * V);
    w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kJw) + ", gp0");
    add_imm(kOff, t * sm.tile_step);
    w_.op("H_PREFETCH_V " + gp(kVr) + ", " + gp(kOff) + ", a0, 1, " + s(sm.prec), "score tile " + s(t));
  }
  auto row = [&](uint32_t t, uint32_t r) { return (uint64_t(t) * B + r) * V; };
  const int r0 = kKx, r1 = kKw;
  for (uint32_t r = 0; r < B; ++r) {
    w_.set(r0, row(0, r), "row " + s(r));
    if (nt > 1) w_.set(r1, row(1, r));
    const int regs[2] = {r0, r1};
    for (uint32_t t = 0; t < nt; ++t) w_.op("V_MUL_VF " + gp(regs[t]) + ", " + gp(regs[t]) + ", f3, 0", "T = S * c");
    if (tail)
      w_.op("V_ADD_VF " + gp(regs[nt - 1]) + ", " + gp(kWo) + ", f2, 1", "padding lanes = -inf (E = 0 there)");
    w_.op("S_ADD_FP f4, f2, f0", "m = -inf");
    for (uint32_t t = 0; t < nt; ++t) w_.op("V_RED_MAX f4, " + gp(regs[t]) + ", 0", "m = max(T)");
    for (uint32_t t = 0; t < nt; ++t) {
      w_.op("V_SUB_VF " + gp(regs[t]) + ", " + gp(regs[t]) + ", f4, 0, 0", "D = T - m");
      w_.op("V_EXP_V " + gp(regs[t]) + ", " + gp(regs[t]) + ", 0", "E = exp(D)");
    }
    for (uint32_t t = 0; t < nt; ++t) w_.op("M_MV 0, " + gp(kHead) + ", " + gp(regs[t]), "ACC += sum(E)");
    w_.op("M_MV_WO " + gp(kXs) + ", 0", "every lane = z = bf16(FP32 sum)");
    w_.op("S_ADD_FP f5, f0, f0");
    w_.op("V_RED_MAX f5, " + gp(kXs) + ", 0", "f5 = z");
    w_.op("S_RECI_FP f5, f5", "1/z");
    for (uint32_t t = 0; t < nt; ++t) w_.op("V_MUL_VF " + gp(regs[t]) + ", " + gp(regs[t]) + ", f5, 0", "P = E / z");
  }
  set_stride(p.stride);
  for (uint32_t t = 0; t < nt; ++t) {
    w_.set(kVr, uint64_t(t) * B * V);
    w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kJy) + ", gp0");
    add_imm(kOff, t * p.tile_step);
    w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kOff) + ", a4, 1, 2", "probability tile " + s(t));
  }
  add_imm(kJw, uint64_t(B) * sm.stride);
  add_imm(kJy, uint64_t(B) * p.stride);
  w_.loop_end(kLoopA);
}

void StageEmitter::rope(const HbmMat& x, const HbmMat& cos, const HbmMat& sin, const HbmMat& y, uint32_t rows,
                        uint32_t h, uint32_t d, const std::string& what) {
  const uint32_t V = a_.vlen, B = a_.v_rows, blk = B * V;
  if (rows % B || h % d || (d != V && d % (2 * V)))
    throw std::invalid_argument("rope stage: head width must be VLEN or a multiple of 2*VLEN");
  const uint32_t nt = d / V;
  w_.blank();
  w_.comment("stage: " + what + "  rotate-half RoPE, " + s(h / d) + " head(s) of " + s(d));
  w_.set_addr(0, kTmp, x.addr, "a0 = x");
  w_.set_addr(1, kTmp, cos.addr, "a1 = cos");
  w_.set_addr(2, kTmp, sin.addr, "a2 = sin");
  w_.set_addr(4, kTmp, y.addr, "a4 = y");
  // VRAM blocks of BLEN rows: x tiles at t, cos at nt + t, sin at 2nt + t, output at 3nt + t,
  // rotated x at 4nt + t, products at 5nt, the right-shifted copy (d = VLEN) at 6nt.
  auto vb = [&](uint32_t k) { return uint64_t(k) * blk; };
  HbmMat pad;
  if (d == V) {
    // rotate_half within one VRAM row needs lanes 32..63 = x[0..31]: a right shift, which
    // V_SHFT_V cannot do, so x goes through a BF16 scratch copy at +VLEN columns of a
    // 2*VLEN-wide row and is read back at +VLEN/2.
    pad = scratch(rows, 2 * V);
    w_.set_addr(5, kTmp, pad.addr, "a5 = shifted copy of x");
    w_.set(kTmp, 0xC, "V_MASK = heads 2,3 (lanes 32..63)");
    w_.op("C_SET_V_MASK_REG " + gp(kTmp));
    w_.set(kAux, V / 2, "shift of half a row");
  }
  for (uint32_t hd = 0; hd < h / d; ++hd) {
    w_.comment("head " + s(hd));
    w_.set(kJw, x.col0 + uint64_t(hd) * d, "x row offset");
    w_.set(kJy, y.col0 + uint64_t(hd) * d, "y row offset");
    w_.set(kKx, cos.col0, "cos row offset");
    w_.set(kKw, sin.col0, "sin row offset");
    w_.set(kHead, 0, "pad row offset");
    w_.loop_start(kLoopA, rows / B, "blocks of BLEN rows");
    auto fetch = [&](const HbmMat& m, int off_reg, int areg, uint32_t first_block) {
      set_scale_stride(m);
      for (uint32_t t = 0; t < nt; ++t) {
        w_.set(kVr, vb(first_block + t));
        w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(off_reg) + ", gp0");
        add_imm(kOff, t * m.tile_step);
        w_.op("H_PREFETCH_V " + gp(kVr) + ", " + gp(kOff) + ", a" + s(areg) + ", 1, " + s(m.prec));
      }
    };
    fetch(x, kJw, 0, 0);
    fetch(cos, kKx, 1, nt);
    fetch(sin, kKw, 2, 2 * nt);
    if (d == V) {
      set_stride(pad.stride);
      w_.set(kVr, vb(0));
      w_.op("S_ADDI_INT " + gp(kOff) + ", " + gp(kHead) + ", " + s(V));
      w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kOff) + ", a5, 1, 2", "x -> pad columns 64..127");
      w_.set(kVr, vb(6 * nt));
      w_.op("S_ADDI_INT " + gp(kOff) + ", " + gp(kHead) + ", " + s(V / 2));
      w_.op("H_PREFETCH_V " + gp(kVr) + ", " + gp(kOff) + ", a5, 1, 2", "lanes 32..63 = x[0..31]");
    }
    for (uint32_t r = 0; r < B; ++r) {
      for (uint32_t t = 0; t < nt; ++t) {
        const uint64_t xr = vb(t) + r * V, cr = vb(nt + t) + r * V, sr = vb(2 * nt + t) + r * V;
        const uint64_t yr = vb(3 * nt + t) + r * V, rot = vb(4 * nt + t) + r * V, prod = vb(5 * nt) + r * V;
        w_.set(kLoopB, xr);
        w_.set(kLoopC, rot);
        w_.set(kWo, prod);
        w_.set(kXs, cr);
        if (d == V) {
          w_.set(kTmp, xr);
          w_.op("V_SHFT_V " + gp(kLoopC) + ", " + gp(kTmp) + ", " + gp(kAux) + ", 0", "lanes 0..31 = x[32..63]");
          w_.op("V_SUB_VF " + gp(kLoopC) + ", " + gp(kLoopC) + ", f0, 0, 1", "negate: -x2 (lanes 32..63 = 0)");
          w_.set(kTmp, vb(6 * nt) + r * V);
          w_.op("V_ADD_VF " + gp(kLoopC) + ", " + gp(kTmp) + ", f0, 1", "lanes 32..63 = x1 (masked copy)");
        } else {
          const uint32_t half = nt / 2;
          const uint32_t partner = t < half ? t + half : t - half;
          w_.set(kTmp, vb(partner) + r * V);
          if (t < half) w_.op("V_SUB_VF " + gp(kLoopC) + ", " + gp(kTmp) + ", f0, 0, 1", "-x2");
          else w_.op("V_ADD_VF " + gp(kLoopC) + ", " + gp(kTmp) + ", f0, 0", "x1");
        }
        w_.op("V_MUL_VV " + gp(kWo) + ", " + gp(kLoopB) + ", " + gp(kXs) + ", 0", "a = x * cos");
        w_.set(kXs, sr);
        w_.op("V_MUL_VV " + gp(kLoopC) + ", " + gp(kLoopC) + ", " + gp(kXs) + ", 0", "b = rotate_half(x) * sin");
        w_.set(kXs, yr);
        w_.op("V_ADD_VV " + gp(kXs) + ", " + gp(kWo) + ", " + gp(kLoopC) + ", 0", "y = a + b");
      }
    }
    set_stride(y.stride);
    for (uint32_t t = 0; t < nt; ++t) {
      w_.set(kVr, vb(3 * nt + t));
      w_.op("S_ADD_INT " + gp(kOff) + ", " + gp(kJy) + ", gp0");
      add_imm(kOff, t * y.tile_step);
      w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kOff) + ", a4, 1, 2", "y tile " + s(t));
    }
    add_imm(kJw, uint64_t(B) * x.stride);
    add_imm(kJy, uint64_t(B) * y.stride);
    add_imm(kKx, uint64_t(B) * cos.stride);
    add_imm(kKw, uint64_t(B) * sin.stride);
    if (d == V) add_imm(kHead, uint64_t(B) * pad.stride);
    w_.loop_end(kLoopA);
  }
}

void StageEmitter::rmsnorm(const HbmMat& x, const HbmMat& gamma, const HbmMat& y, uint32_t rows, uint32_t h,
                           int inv_n_index, int eps_index, const std::string& what) {
  w_.blank();
  w_.comment("stage: " + what + "  RMSNorm: squares, row sums in the matrix unit, scale");
  const HbmMat sq = scratch(rows, h), ss = scratch(rows, a_.vlen);
  map({x}, sq, rows, h,
      [](AsmWriter& w, const std::vector<int>& in, int out, int) {
        w.op("V_MUL_VV " + gp(out) + ", " + gp(in[0]) + ", " + gp(in[0]) + ", 0", "x*x");
      },
      what + ": squares");
  HbmMat ones_m = ones();
  matmul(sq, ones_m, false, ss, rows, h, a_.vlen, what + ": sum of squares (FP32, rounded once)");
  HbmMat ss_b = ss;
  ss_b.tile_step = 0;  // the same row-sum tile for every column tile
  HbmMat g_b = gamma;
  g_b.stride = 0;  // gamma [h] repeated for every row
  w_.op("S_LD_FP f6, gp0, " + s(inv_n_index), "f6 = 1/h");
  w_.op("S_LD_FP f7, gp0, " + s(eps_index), "f7 = eps");
  map({x, ss_b, g_b}, y, rows, h,
      [](AsmWriter& w, const std::vector<int>& in, int out, int tmp) {
        w.op("S_ADD_FP f4, f0, f0");
        w.op("V_RED_MAX f4, " + gp(in[1]) + ", 0", "f4 = max(0, row sum) = sum of squares");
        w.op("S_MUL_FP f4, f4, f6", "mean square");
        w.op("S_ADD_FP f4, f4, f7", "+ eps");
        w.op("S_SQRT_FP f4, f4");
        w.op("S_RECI_FP f4, f4", "1/rms");
        w.op("V_MUL_VF " + gp(tmp) + ", " + gp(in[0]) + ", f4, 0", "x / rms");
        w.op("V_MUL_VV " + gp(out) + ", " + gp(tmp) + ", " + gp(in[2]) + ", 0", "* gamma");
      },
      what + ": normalise");
}

void StageEmitter::attention(const HbmMat& q, const HbmMat& k, const HbmMat& v, const HbmMat& o, uint32_t s_len,
                             uint32_t d, uint32_t heads, uint32_t kv_heads, const std::string& what) {
  const uint32_t spad = ceil_div(s_len, a_.vlen) * a_.vlen;
  const HbmMat sc = scratch(s_len, spad);
  for (uint32_t j = 0; j < heads; ++j) {
    const uint32_t g = j / (heads / kv_heads);
    const std::string hn = what + " head " + s(j);
    matmul(q.columns(uint64_t(j) * d), k.columns(uint64_t(g) * d), true, sc, s_len, d, s_len, hn + ": S = Q K^T");
    softmax(sc, sc, s_len, s_len, hn + ": P = softmax(S c)");
    matmul(sc, v.columns(uint64_t(g) * d), false, o.columns(uint64_t(j) * d), s_len, s_len, d, hn + ": O = P V");
  }
}

}  // namespace tlmcraft::tasks::plena
