#include "platforms/plena/pack/baselines/conv.h"

#include <algorithm>
#include <stdexcept>

namespace tlmcraft::tasks::plena {
namespace {

// Register roles.
constexpr int kT1 = 1, kVr = 2, kOff = 3, kLoopA = 4, kLoopB = 5, kYv = 6, kRowOff = 7, kColOff = 8;
constexpr int kCout = 9, kMs = 10, kZero = 11;

std::string s(uint64_t v) { return std::to_string(v); }
uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
uint64_t mx_bytes(uint64_t elements) { return elements + elements / 8; }

struct Geometry {
  uint32_t pad = 0, wp = 0;                       // zero border, padded image width
  uint32_t seg = 0, lane_tiles = 0, k_tiles = 0;  // k*c_in, MLEN tiles per kernel row, all K-tiles
  uint32_t per_tile = 0, msram_tiles = 0;         // K-tiles side by side in one MSRAM tile
  uint64_t x_elems = 0, w_elems = 0, xp_elems = 0, wp_elems = 0, wp_pitch = 0;
  uint64_t xp_addr = 0, wp_addr = 0, scratch_end = 0;
  uint64_t y_rows = 0, x_rows = 0;                            // VRAM rows
  uint64_t y = 0, xs = 0, zero = 0, ws = 0, im = 0, end = 0;  // VRAM addresses
};

Geometry plan(const ConvKernel& c, const PlenaArch& a) {
  if (a.mlen != a.vlen || a.v_rows != a.blen)
    throw std::invalid_argument("conv template assumes mlen == vlen, v_rows == blen");
  const uint32_t V = a.vlen, B = a.blen;
  if (!c.h || !c.c_in || !c.c_out || c.k % 2 == 0)
    throw std::invalid_argument("conv template needs positive H, c_in, c_out and an odd k");
  if (c.h % B || uint64_t(c.h) * c.c_in % V || c.c_in % 8 || c.c_out % 8 || V % c.c_out)
    throw std::invalid_argument(
        "conv template needs H % BLEN == 0, H*c_in % VLEN == 0, c_in and c_out multiples of 8 "
        "(MX blocks) and c_out dividing VLEN");
  Geometry g;
  g.pad = (c.k - 1) / 2;
  g.wp = c.h + 2 * g.pad;
  g.seg = c.k * c.c_in;
  g.lane_tiles = (g.seg + V - 1) / V;
  g.k_tiles = c.k * g.lane_tiles;
  g.per_tile = V / c.c_out;
  g.msram_tiles = (g.k_tiles + g.per_tile - 1) / g.per_tile;
  if (g.msram_tiles > a.msram_tiles)
    throw std::invalid_argument("conv template needs " + s(g.msram_tiles) + " MSRAM tiles, the platform has " +
                                s(a.msram_tiles));
  g.x_elems = uint64_t(c.h) * c.h * c.c_in;
  g.w_elems = uint64_t(c.k) * c.k * c.c_in * c.c_out;
  const uint64_t block = uint64_t(B) * V;                            // elements of one H_STORE_V
  g.xp_elems = round_up(uint64_t(g.wp) * g.wp * c.c_in + V, block);  // + a zero tail the last rows read
  g.wp_pitch = uint64_t(g.k_tiles) * c.c_out + V - c.c_out;          // a K-tile row's junk tail ends here
  g.wp_elems = round_up(uint64_t(a.mlen) * g.wp_pitch, block);
  g.xp_addr = c.scratch_addr;
  g.wp_addr = round_up(g.xp_addr + mx_bytes(g.xp_elems), 4096);
  g.scratch_end = round_up(g.wp_addr + mx_bytes(g.wp_elems), 4096);
  g.y_rows = uint64_t(c.h) * c.h * c.c_out / V;
  g.x_rows = g.x_elems / V;
  g.y = 0;
  g.xs = g.y + g.y_rows * V;
  g.zero = g.xs + g.x_rows * V;
  g.ws = g.zero + block;
  g.im = g.ws + uint64_t(a.mlen) * V;
  g.end = g.im + uint64_t(g.k_tiles) * block;
  if (g.end / V > a.vram_rows) throw std::invalid_argument("conv template: staging exceeds VRAM");
  return g;
}

void set_scale_stride(AsmWriter& w, uint64_t scale, uint64_t stride, const std::string& what) {
  w.set(kT1, scale, "SCALE = elements of " + what);
  w.op("C_SET_SCALE_REG gp1");
  w.set(kT1, stride, "STRIDE");
  w.op("C_SET_STRIDE_REG gp1");
}

// BLEN zero rows at g.zero (S_MAP_V_FP reads finite FP_MEM constants; times f0 = 0).
void emit_zero_block(AsmWriter& w, const Geometry& g, const PlenaArch& a) {
  w.set(kZero, g.zero, "zero rows");
  w.op("S_MAP_V_FP gp11, gp0, 0", "FP_MEM[0..VLEN) (finite constants)");
  w.op("V_MUL_VF gp11, gp11, f0, 0", "0");
  for (uint32_t r = 1; r < a.blen; ++r) {
    w.set(kVr, g.zero + uint64_t(r) * a.vlen);
    w.op("V_MUL_VF gp2, gp11, f0, 0", "0");
  }
}

// Rows of an image tensor moved in blocks of BLEN image rows x one VLEN segment: VRAM block
// (segment sg, rows 4rb..) at vram + (sg * H/BLEN + rb) * BLEN rows; HBM row r of segment
// sg at first + r * row_stride + sg * VLEN (row_stride is STRIDE, set by the caller).
void emit_image_blocks(AsmWriter& w, const std::string& insn, const ConvKernel& c, const PlenaArch& a, uint64_t vram,
                       uint64_t first, uint64_t row_stride, const std::string& what) {
  const uint64_t segments = uint64_t(c.h) * c.c_in / a.vlen;
  w.set(kVr, vram, "VRAM image blocks");
  w.set(kColOff, first, "segment 0 of the first row");
  w.loop_start(kLoopA, uint32_t(segments), "VLEN segments of an image row");
  w.op("S_ADD_INT gp3, gp8, gp0");
  w.loop_start(kLoopB, c.h / a.blen, "blocks of BLEN image rows");
  w.op(insn + " gp2, gp3, " + what);
  w.op("S_ADDI_INT gp2, gp2, " + s(uint64_t(a.blen) * a.vlen));
  w.add_const(kOff, kOff, a.blen * row_stride, "next BLEN rows");
  w.loop_end(kLoopB);
  w.op("S_ADDI_INT gp8, gp8, " + s(a.vlen), "next segment");
  w.loop_end(kLoopA);
}

// `count` stores of the BLEN zero rows to the MX tensor at a<areg>, from offset gp3 on,
// `step` elements apart (STRIDE set by the caller).
void emit_zero_stores(AsmWriter& w, uint64_t count, uint64_t step, int areg) {
  if (!count) return;
  w.loop_start(kLoopB, uint32_t(count), "zero rows");
  w.op("H_STORE_V gp11, gp3, a" + s(areg) + ", 1, 0", "BLEN zero rows");
  w.add_const(kOff, kOff, step);
  w.loop_end(kLoopB);
}

// xp = x with a zero border of pad pixels and a zero tail (MXFP8, a3).
void emit_stage_x(AsmWriter& w, const ConvKernel& c, const Geometry& g, const PlenaArch& a) {
  const uint64_t block = uint64_t(a.blen) * a.vlen;
  w.comment("stage x in VRAM, BLEN image rows x one VLEN segment per block");
  set_scale_stride(w, g.x_elems, uint64_t(c.h) * c.c_in, "x; STRIDE = an image row");
  emit_image_blocks(w, "H_PREFETCH_V", c, a, g.xs, 0, uint64_t(c.h) * c.c_in, "a0, 1, 0");
  w.comment("xp = zeros, then x inside the border");
  set_scale_stride(w, g.xp_elems, a.vlen, "xp");
  w.set(kOff, 0);
  emit_zero_stores(w, g.xp_elems / block, block, 3);
  w.set(kT1, uint64_t(g.wp) * c.c_in, "STRIDE = a padded image row");
  w.op("C_SET_STRIDE_REG gp1");
  emit_image_blocks(w, "H_STORE_V", c, a, g.xs, (uint64_t(g.pad) * g.wp + g.pad) * c.c_in, uint64_t(g.wp) * c.c_in,
                    "a3, 1, 0");
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
  const uint64_t block = uint64_t(B) * a.vlen, row = uint64_t(g.wp) * c.c_in;
  w.comment("im2col rows by prefetch: BLEN pixels x one K-tile per H_PREFETCH_V (STRIDE = c_in)");
  set_scale_stride(w, g.xp_elems, c.c_in, "xp; STRIDE = one pixel");
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
  w.set_addr(0, kT1, c.x_addr, "a0 = x");
  w.set_addr(1, kT1, c.w_addr, "a1 = w");
  w.set_addr(2, kT1, c.y_addr, "a2 = y");
  w.set_addr(3, kT1, g.xp_addr, "a3 = xp (workspace)");
  w.set_addr(4, kT1, g.wp_addr, "a4 = wp (workspace)");
  emit_zero_block(w, g, a);
  emit_stage_x(w, c, g, a);
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
