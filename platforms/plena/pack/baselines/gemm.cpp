#include "platforms/plena/pack/baselines/gemm.h"

#include <stdexcept>

#include "platforms/plena/pack/baselines/asm_writer.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles.
constexpr int kT1 = 1, kT2 = 2, kJcol = 3, kSlot = 4, kSlotOther = 5, kMb = 6, kCb = 7, kRowStride = 8;
constexpr int kLoopJ = 9, kLoopMb = 10, kLoopCb = 11, kHbmOff = 12, kYTile = 13, kJnext = 14, kYOther = 15;

struct Ctx {
  const GemmKernel& g;
  const PlenaArch& a;
  AsmWriter w;
  uint32_t tiles() const { return g.k / a.mlen; }
  uint32_t tile_elems() const { return a.mlen * a.mlen; }
  uint32_t block_elems() const { return a.v_rows * a.vlen; }  // one H_PREFETCH_V / H_STORE_V
};

// MSRAM[slot + kk*tile] = W[kk*MLEN .. +MLEN, jcol .. +MLEN] for every kk.
void prefetch_w(Ctx& c, int slot_reg, int jcol_reg) {
  for (uint32_t kk = 0; kk < c.tiles(); ++kk) {
    c.w.add_const(kT1, slot_reg, uint64_t(kk) * c.tile_elems(), "MSRAM tile " + std::to_string(kk));
    c.w.add_const(kHbmOff, jcol_reg, c.g.w_offset + uint64_t(kk) * c.a.mlen * c.g.n,
                  "W rows " + std::to_string(kk * c.a.mlen) + "..");
    c.w.op("H_PREFETCH_M gp1, gp12, a1, 1, 0", "W tile -> MSRAM");
  }
}

// The Y tile (all M rows, MLEN columns) for the W column in slot_reg, into VRAM at y_reg.
void compute(Ctx& c, int slot_reg, int y_reg) {
  const uint32_t m_blocks = c.g.m / c.a.blen, c_blocks = c.a.mlen / c.a.blen;
  const uint64_t x_tile = uint64_t(c.g.m) * c.a.vlen;  // VRAM elements of one X k-tile
  c.w.set(kMb, 0, "row block offset in VRAM");
  c.w.loop_start(kLoopMb, m_blocks, "row blocks of BLEN");
  c.w.set(kCb, 0, "column block offset");
  c.w.loop_start(kLoopCb, c_blocks, "column blocks of BLEN");
  for (uint32_t kk = 0; kk < c.tiles(); ++kk) {
    c.w.op("S_ADD_INT gp1, " + gp(slot_reg) + ", gp7", "MSRAM column block");
    if (kk) c.w.op("S_ADDI_INT gp1, gp1, " + std::to_string(uint64_t(kk) * c.tile_elems()), "tile " + std::to_string(kk));
    c.w.add_const(kT2, kMb, kk * x_tile, "X block, k-tile " + std::to_string(kk));
    c.w.op("M_MM 0, gp1, gp2", "acc += X block @ W block");
  }
  c.w.op("S_ADD_INT gp1, " + gp(y_reg) + ", gp6");
  c.w.op("S_ADD_INT gp1, gp1, gp7");
  c.w.op("M_MM_WO gp1, gp8, 0", "write BLEN x BLEN to the Y tile");
  c.w.op("S_ADDI_INT gp7, gp7, " + std::to_string(c.a.blen));
  c.w.loop_end(kLoopCb);
  c.w.op("S_ADDI_INT gp6, gp6, " + std::to_string(c.a.blen * c.a.vlen));
  c.w.loop_end(kLoopMb);
}

uint64_t x_scale(const GemmKernel& g) { return g.x_scale ? g.x_scale : uint64_t(g.m) * g.k; }
uint64_t w_scale(const GemmKernel& g) { return g.w_scale ? g.w_scale : uint64_t(g.k) * g.n; }

// Linear: the VRAM tile at y_reg += bias[jcol .. +MLEN] on every row. The bias slice is
// prefetched with STRIDE = 0 (all BLEN rows of the transfer read the same MLEN values, so
// it never reads past the bias tensor), then SCALE and STRIDE are restored for W and Y.
void add_bias(Ctx& c, int y_reg, int jcol_reg, uint64_t bias_vram) {
  c.w.set(kT1, c.g.n, "SCALE = elements of bias");
  c.w.op("C_SET_SCALE_REG gp1");
  c.w.op("C_SET_STRIDE_REG gp0", "STRIDE = 0: every prefetched row is the same bias slice");
  c.w.set(kT2, bias_vram, "VRAM bias rows");
  c.w.op("H_PREFETCH_V gp2, " + gp(jcol_reg) + ", a3, 1, 0", "bias[jcol .. +MLEN]");
  c.w.set(kT1, w_scale(c.g), "restore SCALE = elements of W");
  c.w.op("C_SET_SCALE_REG gp1");
  c.w.set(kT1, c.g.n, "restore STRIDE = row length of W and Y");
  c.w.op("C_SET_STRIDE_REG gp1");
  c.w.op("S_ADD_INT gp6, " + gp(y_reg) + ", gp0", "Y row");
  c.w.loop_start(kLoopCb, c.g.m, "rows of the Y tile");
  c.w.op("V_ADD_VV gp6, gp6, gp2, 0", "y = p + bias (rounded to BF16)");
  c.w.op("S_ADDI_INT gp6, gp6, " + std::to_string(c.a.vlen));
  c.w.loop_end(kLoopCb);
}

// HBM Y[:, jcol .. +MLEN] = the VRAM tile at y_reg (BF16).
void store_y(Ctx& c, int y_reg, int jcol_reg) {
  c.w.op("S_ADD_INT gp1, " + gp(y_reg) + ", gp0");
  c.w.add_const(kHbmOff, jcol_reg, c.g.y_offset, "Y column offset");
  c.w.loop_start(kLoopMb, c.g.m / c.a.v_rows, "store row blocks");
  c.w.op("H_STORE_V gp1, gp12, a2, 1, 2", "BF16 rows -> HBM");
  c.w.op("S_ADDI_INT gp1, gp1, " + std::to_string(c.block_elems()));
  c.w.op("S_ADDI_INT gp12, gp12, " + std::to_string(uint64_t(c.a.v_rows) * c.g.n), "next BLEN rows of Y");
  c.w.loop_end(kLoopMb);
}

}  // namespace

std::string plena_gemm_kernel(const GemmKernel& g, const PlenaArch& a) {
  if (a.mlen != a.vlen || a.v_rows != a.blen)
    throw std::invalid_argument("GEMM template assumes mlen == vlen and v_rows == blen");
  if (g.m % a.blen || g.k % a.mlen || g.n % a.mlen || !g.m || !g.k || !g.n)
    throw std::invalid_argument("GEMM template needs M % BLEN == 0 and K, N multiples of MLEN");
  const uint32_t tiles = g.k / a.mlen;
  if (tiles * (g.double_buffer ? 2 : 1) > a.msram_tiles)
    throw std::invalid_argument("GEMM template needs " + std::to_string(tiles * (g.double_buffer ? 2 : 1)) +
                                " MSRAM tiles, the platform has " + std::to_string(a.msram_tiles));
  const uint64_t x_rows = uint64_t(tiles) * g.m, y_rows = uint64_t(g.m) * (g.double_buffer ? 2 : 1);
  const uint64_t bias_rows = g.has_bias ? a.v_rows : 0;
  if (x_rows + y_rows + bias_rows > a.vram_rows)
    throw std::invalid_argument("GEMM template: X and Y tiles exceed VRAM");
  const uint64_t bias_vram = (x_rows + y_rows) * a.vlen;

  Ctx c{g, a, {}};
  AsmWriter& w = c.w;
  w.comment("GEMM Y[" + std::to_string(g.m) + "," + std::to_string(g.n) + "] = X[" + std::to_string(g.m) + "," +
            std::to_string(g.k) + "] W[" + std::to_string(g.k) + "," + std::to_string(g.n) + "]" +
            (g.has_bias ? " + bias" : "") + (g.double_buffer ? ", W double-buffered" : ""));
  w.set_addr(0, kT1, g.x_addr, "a0 = X");
  w.set_addr(1, kT1, g.w_addr, "a1 = W");
  w.set_addr(2, kT1, g.y_addr, "a2 = Y");
  if (g.has_bias) w.set_addr(3, kT1, g.bias_addr, "a3 = bias");
  w.blank();
  w.comment("stage X in VRAM: k-tile kk, row block mb at (kk*M + mb*BLEN) rows");
  w.set(kT1, x_scale(g), "SCALE = elements of X");
  w.op("C_SET_SCALE_REG gp1");
  w.set(kT1, g.k, "STRIDE = row length of X");
  w.op("C_SET_STRIDE_REG gp1");
  for (uint32_t kk = 0; kk < tiles; ++kk) {
    w.set(kT1, uint64_t(kk) * g.m * a.vlen, "VRAM X k-tile " + std::to_string(kk));
    w.set(kHbmOff, g.x_offset + uint64_t(kk) * a.mlen, "X columns " + std::to_string(kk * a.mlen) + "..");
    w.loop_start(kLoopMb, g.m / a.v_rows);
    w.op("H_PREFETCH_V gp1, gp12, a0, 1, 0", "BLEN rows of X");
    w.op("S_ADDI_INT gp1, gp1, " + std::to_string(c.block_elems()));
    w.op("S_ADDI_INT gp12, gp12, " + std::to_string(uint64_t(a.v_rows) * g.k), "next BLEN rows of X");
    w.loop_end(kLoopMb);
  }
  w.blank();
  w.set(kT1, w_scale(g), "SCALE = elements of W");
  w.op("C_SET_SCALE_REG gp1");
  w.set(kT1, g.n, "STRIDE = row length of W and Y");
  w.op("C_SET_STRIDE_REG gp1");
  w.set(kRowStride, a.vlen, "M_MM_WO row stride");
  w.set(kYTile, x_rows * a.vlen, "VRAM Y tile");
  w.set(kSlot, 0, "MSRAM slot of the current W column");
  w.set(kJcol, 0, "column offset j*MLEN");
  const uint32_t columns = g.n / a.mlen;
  if (!g.double_buffer) {
    w.loop_start(kLoopJ, columns, "W/Y column tiles");
    prefetch_w(c, kSlot, kJcol);
    compute(c, kSlot, kYTile);
    if (g.has_bias) add_bias(c, kYTile, kJcol, bias_vram);
    store_y(c, kYTile, kJcol);
    w.op("S_ADDI_INT gp3, gp3, " + std::to_string(a.mlen));
    w.loop_end(kLoopJ);
  } else {
    w.set(kSlotOther, uint64_t(tiles) * c.tile_elems(), "MSRAM slot of the next W column");
    w.set(kYOther, (x_rows + g.m) * a.vlen, "second VRAM Y tile");
    prefetch_w(c, kSlot, kJcol);
    if (columns > 1) {
      w.loop_start(kLoopJ, columns - 1, "W/Y column tiles but the last");
      w.op("S_ADDI_INT gp14, gp3, " + std::to_string(a.mlen), "next column");
      prefetch_w(c, kSlotOther, kJnext);
      compute(c, kSlot, kYTile);
      if (g.has_bias) add_bias(c, kYTile, kJcol, bias_vram);
      store_y(c, kYTile, kJcol);
      w.op("S_ADD_INT gp1, gp4, gp0", "swap MSRAM slots");
      w.op("S_ADD_INT gp4, gp5, gp0");
      w.op("S_ADD_INT gp5, gp1, gp0");
      w.op("S_ADD_INT gp1, gp13, gp0", "swap Y tiles");
      w.op("S_ADD_INT gp13, gp15, gp0");
      w.op("S_ADD_INT gp15, gp1, gp0");
      w.op("S_ADD_INT gp3, gp14, gp0");
      w.loop_end(kLoopJ);
    }
    compute(c, kSlot, kYTile);
    if (g.has_bias) add_bias(c, kYTile, kJcol, bias_vram);
    store_y(c, kYTile, kJcol);
  }
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
