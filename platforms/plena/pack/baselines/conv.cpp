#include "platforms/plena/pack/baselines/conv.h"

#include <algorithm>
#include <stdexcept>

#include "platforms/plena/pack/baselines/conv_staging.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles (gp1-5, gp8, gp11 as in conv_staging.h).
constexpr int kT1 = 1, kVr = 2, kOff = 3, kLoopA = 4, kLoopB = 5, kYv = 6, kRowOff = 7, kColOff = 8;
constexpr int kCout = 9, kMs = 10;

std::string s(uint64_t v) { return std::to_string(v); }

struct Geometry {
  PaddedImage x;
  uint32_t seg = 0, lane_tiles = 0, k_tiles = 0;  // k*c_in, MLEN tiles per kernel row, all K-tiles
  uint32_t per_tile = 0, msram_tiles = 0;         // K-tiles side by side in one MSRAM tile
  uint64_t w_elems = 0, wp_elems = 0, wp_pitch = 0;
  uint64_t xp_addr = 0, wp_addr = 0, scratch_end = 0;
  uint64_t y_rows = 0;                                        // VRAM rows of y
  uint64_t y = 0, xs = 0, zero = 0, ws = 0, im = 0, end = 0;  // VRAM addresses
};

Geometry plan(const ConvKernel& c, const PlenaArch& a) {
  if (a.mlen != a.vlen || a.v_rows != a.blen)
    throw std::invalid_argument("conv template assumes mlen == vlen, v_rows == blen");
  const uint32_t V = a.vlen, B = a.blen;
  Geometry g;
  g.x = padded_image(c.h, c.c_in, c.k, a, "conv");
  if (!c.c_out || c.c_out % 8 || V % c.c_out)
    throw std::invalid_argument("conv template needs c_out a multiple of 8 (MX blocks) dividing VLEN, got " +
                                s(c.c_out));
  g.seg = c.k * c.c_in;
  g.lane_tiles = (g.seg + V - 1) / V;
  g.k_tiles = c.k * g.lane_tiles;
  g.per_tile = V / c.c_out;
  g.msram_tiles = (g.k_tiles + g.per_tile - 1) / g.per_tile;
  if (g.msram_tiles > a.msram_tiles)
    throw std::invalid_argument("conv template needs " + s(g.msram_tiles) + " MSRAM tiles, the platform has " +
                                s(a.msram_tiles));
  g.w_elems = uint64_t(c.k) * c.k * c.c_in * c.c_out;
  const uint64_t block = uint64_t(B) * V;                    // elements of one H_STORE_V
  g.wp_pitch = uint64_t(g.k_tiles) * c.c_out + V - c.c_out;  // a K-tile row's junk tail ends here
  g.wp_elems = round_up(uint64_t(a.mlen) * g.wp_pitch, block);
  g.xp_addr = c.scratch_addr;
  g.wp_addr = round_up(g.xp_addr + mx_bytes(g.x.xp_elems), 4096);
  g.scratch_end = round_up(g.wp_addr + mx_bytes(g.wp_elems), 4096);
  g.y_rows = uint64_t(c.h) * c.h * c.c_out / V;
  g.y = 0;
  g.xs = g.y + g.y_rows * V;
  g.zero = g.xs + g.x.elems;
  g.ws = g.zero + block;
  g.im = g.ws + uint64_t(a.mlen) * V;
  g.end = g.im + uint64_t(g.k_tiles) * block;
  if (g.end / V > a.vram_rows) throw std::invalid_argument("conv template: staging exceeds VRAM");
  return g;
}

// wp: K-tile j = (dr, t) row l at l * pitch + j * c_out (a4). Each store writes VLEN
// elements, so a row's tail lands on later K-tiles of row l (written after it) or in the
// pitch's gap; rows past k*c_in are zeros.
void emit_stage_w(AsmWriter& w, const ConvKernel& c, const Geometry& g, const PlenaArch& a) {
  const uint32_t B = a.blen;
  for (uint32_t j = 0; j < g.k_tiles; ++j) {
    const uint32_t dr = j / g.lane_tiles, t = j % g.lane_tiles;
    const uint32_t used = std::min(a.mlen, g.seg - t * a.mlen);
    w.comment("K-tile " + s(j) + ": kernel row " + s(dr) + ", lanes " + s(t * a.mlen) + ".." +
              s(t * a.mlen + used - 1));
    set_scale_stride(w, g.w_elems, c.c_out, "w; STRIDE = one weight row");
    w.set(kVr, g.ws);
    w.set(kOff, (uint64_t(dr) * g.seg + uint64_t(t) * a.mlen) * c.c_out, "first weight row");
    w.loop_start(kLoopB, used / B, "BLEN weight rows, each at a VRAM row start");
    w.op("H_PREFETCH_V gp2, gp3, a1, 1, 0");
    w.op("S_ADDI_INT gp2, gp2, " + s(uint64_t(B) * a.vlen));
    w.op("S_ADDI_INT gp3, gp3, " + s(uint64_t(B) * c.c_out));
    w.loop_end(kLoopB);
    set_scale_stride(w, g.wp_elems, g.wp_pitch, "wp; STRIDE = its row pitch");
    w.set(kVr, g.ws);
    w.set(kOff, uint64_t(j) * c.c_out, "row 0 of K-tile " + s(j));
    w.loop_start(kLoopB, used / B, "rows of the K-tile");
    w.op("H_STORE_V gp2, gp3, a4, 1, 0");
    w.op("S_ADDI_INT gp2, gp2, " + s(uint64_t(B) * a.vlen));
    w.add_const(kOff, kOff, B * g.wp_pitch);
    w.loop_end(kLoopB);
    emit_zero_stores(w, (a.mlen - used) / B, B * g.wp_pitch, 4);
  }
  w.comment("MSRAM tile m = wp columns from m * " + s(g.per_tile) + " K-tiles on");
  for (uint32_t m = 0; m < g.msram_tiles; ++m) {
    w.set(kT1, uint64_t(m) * a.mlen * a.mlen, "MSRAM tile " + s(m));
    w.set(kOff, uint64_t(m) * g.per_tile * c.c_out);
    w.op("H_PREFETCH_M gp1, gp3, a4, 1, 0", "K-tiles side by side");
  }
}

// MSRAM address of column c0 of K-tile j.
uint64_t msram_of(const Geometry& g, const ConvKernel& c, const PlenaArch& a, uint32_t j, uint32_t c0) {
  return uint64_t(j / g.per_tile) * a.mlen * a.mlen + uint64_t(j % g.per_tile) * c.c_out + c0;
}

void emit_compute(AsmWriter& w, const ConvKernel& c, const Geometry& g, const PlenaArch& a) {
  const uint32_t B = a.blen;
  const uint64_t block = uint64_t(B) * a.vlen, row = g.x.padded_row();
  w.comment("im2col rows by prefetch: BLEN pixels x one K-tile per H_PREFETCH_V (STRIDE = c_in)");
  set_scale_stride(w, g.x.xp_elems, c.c_in, "xp; STRIDE = one pixel");
  w.set(kCout, c.c_out, "M_MM_WO row stride = c_out (channels-last y)");
  w.set(kYv, g.y, "y pixel block");
  w.set(kRowOff, 0, "xp row of output row r");
  w.loop_start(kLoopA, c.h, "output rows");
  w.op("S_ADD_INT gp8, gp7, gp0");
  w.loop_start(kLoopB, c.h / B, "blocks of BLEN output pixels");
  for (uint32_t j = 0; j < g.k_tiles; ++j) {
    const uint32_t dr = j / g.lane_tiles, t = j % g.lane_tiles;
    w.set(kVr, g.im + j * block);
    w.add_const(kOff, kColOff, dr * row + uint64_t(t) * a.mlen, "kernel row " + s(dr) + ", lane tile " + s(t));
    w.op("H_PREFETCH_V gp2, gp3, a3, 1, 0", "im2col rows, K-tile " + s(j));
  }
  for (uint32_t q = 0; q < c.c_out / B; ++q) {
    for (uint32_t j = 0; j < g.k_tiles; ++j) {
      w.set(kMs, msram_of(g, c, a, j, q * B));
      w.set(kVr, g.im + j * block);
      w.op("M_MM 0, gp10, gp2", "acc += im2col K-tile " + s(j) + " @ w");
    }
    w.op("M_MM_WO gp6, gp9, " + s(uint64_t(q) * B), "channels " + s(q * B) + ".." + s(q * B + B - 1));
  }
  w.op("S_ADDI_INT gp6, gp6, " + s(uint64_t(B) * c.c_out), "next pixel block");
  w.op("S_ADDI_INT gp8, gp8, " + s(uint64_t(B) * c.c_in));
  w.loop_end(kLoopB);
  w.add_const(kRowOff, kRowOff, row, "next xp row");
  w.loop_end(kLoopA);
}

}  // namespace

ConvVram emit_conv_to_vram(AsmWriter& w, const ConvKernel& c, const PlenaArch& a) {
  const Geometry g = plan(c, a);
  w.comment("Conv2D y[" + s(c.h) + "," + s(c.h) + "," + s(c.c_out) + "] = x[" + s(c.h) + "," + s(c.h) + "," +
            s(c.c_in) + "] * w[" + s(c.k) + "," + s(c.k) + "," + s(c.c_in) + "," + s(c.c_out) + "]: " + s(g.k_tiles) +
            " K-tiles in " + s(g.msram_tiles) + " MSRAM tile(s)");
  emit_conv_prologue(w, c.x_addr, c.w_addr, c.y_addr, g.xp_addr, g.wp_addr, "wp", g.x, a, g.zero, g.xs);
  emit_stage_w(w, c, g, a);
  emit_compute(w, c, g, a);
  return {g.y, g.y_rows, g.end / a.vlen, g.scratch_end};
}

void emit_store_rows(AsmWriter& w, uint64_t vram, uint64_t rows, const PlenaArch& a) {
  w.comment("y -> HBM (BF16)");
  w.set(kT1, a.vlen, "STRIDE = VLEN: contiguous rows");
  w.op("C_SET_STRIDE_REG gp1");
  w.set(kVr, vram);
  w.set(kOff, 0);
  w.loop_start(kLoopA, uint32_t(rows / a.v_rows), "BLEN rows of y");
  w.op("H_STORE_V gp2, gp3, a2, 1, 2", "BF16 rows -> HBM");
  w.op("S_ADDI_INT gp2, gp2, " + s(uint64_t(a.v_rows) * a.vlen));
  w.op("S_ADDI_INT gp3, gp3, " + s(uint64_t(a.v_rows) * a.vlen));
  w.loop_end(kLoopA);
}

std::string plena_conv2d_kernel(const ConvKernel& c, const PlenaArch& a) {
  AsmWriter w;
  const ConvVram v = emit_conv_to_vram(w, c, a);
  if (v.y_rows % a.v_rows) throw std::invalid_argument("conv template: y is not a whole number of BLEN-row blocks");
  emit_store_rows(w, v.y, v.y_rows, a);
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
