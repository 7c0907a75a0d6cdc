#include "platforms/plena/pack/baselines/depthwise.h"

#include <stdexcept>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/conv_staging.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles (gp1-5, gp8, gp11 as in conv_staging.h).
constexpr int kT1 = 1, kVr = 2, kOff = 3, kLoopA = 4, kLoopB = 5, kAcc = 6, kSrc = 7, kSeg = 8;
constexpr int kTap = 9, kProd = 10, kIn = 12;

std::string s(uint64_t v) { return std::to_string(v); }

struct Geometry {
  PaddedImage x;
  uint32_t taps = 0, copies = 0;  // k*k; VLEN / c copies of a tap's weights per row
  uint64_t w_elems = 0, wz_elems = 0, wz_front = 0;
  uint64_t xp_addr = 0, wz_addr = 0;
  uint64_t y = 0, xs = 0, zero = 0, ws = 0, rep = 0, shifted = 0, in = 0, prod = 0, end = 0;  // VRAM
};

Geometry plan(const DepthwiseKernel& d, const PlenaArch& a) {
  const uint32_t V = a.vlen, B = a.blen;
  Geometry g;
  g.x = padded_image(d.h, d.c, d.k, a, "depthwise");
  if (d.c % a.hlen || V % d.c)
    throw std::invalid_argument("depthwise template needs c a multiple of HLEN (V_MASK heads) dividing VLEN, got " +
                                s(d.c));
  g.taps = d.k * d.k;
  g.copies = V / d.c;
  const uint64_t block = uint64_t(B) * V;
  g.w_elems = uint64_t(g.taps) * d.c;
  g.wz_front = V;  // w sits VLEN elements in, so every copy's row start is a valid offset
  g.wz_elems = round_up(g.wz_front + round_up(g.w_elems, block), block);
  g.xp_addr = d.scratch_addr;
  g.wz_addr = round_up(g.xp_addr + mx_bytes(g.x.xp_elems), 4096);
  g.y = 0;
  g.xs = g.y + g.x.elems;
  g.zero = g.xs + g.x.elems;
  g.ws = g.zero + block;
  g.rep = g.ws + round_up(g.w_elems, block);
  g.shifted = g.rep + uint64_t(g.taps) * V;
  g.in = g.shifted + uint64_t(g.taps) * block;
  g.prod = g.in + block;
  g.end = g.prod + block;
  if (g.end / V > a.vram_rows) throw std::invalid_argument("depthwise template: staging exceeds VRAM");
  return g;
}

// wz = VLEN unused elements, then w (MX, a4): copied through VRAM in whole blocks.
void emit_stage_w(AsmWriter& w, const Geometry& g, const PlenaArch& a) {
  const uint64_t block = uint64_t(a.blen) * a.vlen, blocks = round_up(g.w_elems, block) / block;
  w.comment("wz = w at element VLEN of a workspace tensor");
  set_scale_stride(w, g.w_elems, a.vlen, "w; STRIDE = VLEN");
  w.set(kVr, g.ws);
  w.set(kOff, 0);
  w.loop_start(kLoopB, uint32_t(blocks), "BLEN rows of w");
  w.op("H_PREFETCH_V gp2, gp3, a1, 1, 0");
  w.op("S_ADDI_INT gp2, gp2, " + s(block));
  w.op("S_ADDI_INT gp3, gp3, " + s(block));
  w.loop_end(kLoopB);
  set_scale_stride(w, g.wz_elems, a.vlen, "wz; STRIDE = VLEN");
  w.set(kVr, g.ws);
  w.set(kOff, g.wz_front);
  w.loop_start(kLoopB, uint32_t(blocks), "BLEN rows of wz");
  w.op("H_STORE_V gp2, gp3, a4, 1, 0");
  w.op("S_ADDI_INT gp2, gp2, " + s(block));
  w.op("S_ADDI_INT gp3, gp3, " + s(block));
  w.loop_end(kLoopB);
}

// rep row t = w[t, :] repeated: prefetch row r (STRIDE = c) starts (copies-1-r) * c elements
// before w[t], so it holds w[t, :] at lanes (copies-1-r) * c..; V_MASK picks those lanes.
void emit_replicated_weights(AsmWriter& w, const DepthwiseKernel& d, const Geometry& g, const PlenaArch& a) {
  const uint64_t block = uint64_t(a.blen) * a.vlen;
  w.comment("each tap's weights repeated across a row");
  set_scale_stride(w, g.wz_elems, d.c, "wz; STRIDE = c");
  w.set(kVr, g.shifted);
  w.set(kOff, g.wz_front - uint64_t(g.copies - 1) * d.c, "w[0] at lane (copies-1)*c of row 0");
  w.loop_start(kLoopB, g.taps, "taps");
  w.op("H_PREFETCH_V gp2, gp3, a4, 1, 0", "row r: w[t] at lanes (copies-1-r)*c..");
  w.op("S_ADDI_INT gp2, gp2, " + s(block));
  w.op("S_ADDI_INT gp3, gp3, " + s(d.c));
  w.loop_end(kLoopB);
  const uint32_t heads_per_copy = d.c / a.hlen;
  for (uint32_t u = 0; u < g.copies; ++u) {
    const uint32_t mask = ((1u << heads_per_copy) - 1) << (u * heads_per_copy);
    w.set(kT1, mask, "V_MASK = lanes of copy " + s(u));
    w.op("C_SET_V_MASK_REG gp1");
    w.set(kTap, g.rep);
    w.set(kSrc, g.shifted + uint64_t(g.copies - 1 - u) * a.vlen);
    w.loop_start(kLoopB, g.taps, "taps");
    w.op("V_ADD_VF gp9, gp7, f0, 1", "copy " + s(u) + " (masked)");
    w.op("S_ADDI_INT gp9, gp9, " + s(a.vlen));
    w.op("S_ADDI_INT gp7, gp7, " + s(block));
    w.loop_end(kLoopB);
  }
}

// y block (BLEN rows of one segment) at gp6 += shifted x * rep[t] for every tap t.
void emit_taps(AsmWriter& w, const DepthwiseKernel& d, const Geometry& g, const PlenaArch& a) {
  for (uint32_t t = 0; t < g.taps; ++t) {
    const uint32_t dr = t / d.k, dc = t % d.k;
    w.add_const(kOff, kSeg, (uint64_t(dr) * g.x.wp + dc) * d.c, "tap (" + s(dr) + "," + s(dc) + ")");
    w.set(kIn, g.in);
    w.op("H_PREFETCH_V gp12, gp3, a3, 1, 0", "shifted window, BLEN rows");
    w.set(kTap, g.rep + uint64_t(t) * a.vlen);
    for (uint32_t r = 0; r < a.blen; ++r) {
      w.set(kIn, g.in + uint64_t(r) * a.vlen);
      w.op("S_ADDI_INT gp2, gp6, " + s(uint64_t(r) * a.vlen), "y row " + s(r));
      if (t == 0) {
        w.op("V_MUL_VV gp2, gp12, gp9, 0", "y = x * w");
        continue;
      }
      w.set(kProd, g.prod + uint64_t(r) * a.vlen);
      w.op("V_MUL_VV gp10, gp12, gp9, 0", "x * w");
      w.op("V_ADD_VV gp2, gp2, gp10, 0", "y += x * w");
    }
  }
}

void emit_compute(AsmWriter& w, const DepthwiseKernel& d, const Geometry& g, const PlenaArch& a) {
  w.comment("y in blocks of BLEN image rows x one VLEN segment, tap by tap");
  set_scale_stride(w, g.x.xp_elems, g.x.padded_row(), "xp; STRIDE = a padded image row");
  w.set(kAcc, g.y, "y block");
  w.set(kSrc, 0, "xp offset of segment 0");
  w.loop_start(kLoopA, uint32_t(g.x.row() / a.vlen), "VLEN segments of an image row");
  w.op("S_ADD_INT gp8, gp7, gp0");
  w.loop_start(kLoopB, d.h / a.blen, "blocks of BLEN image rows");
  emit_taps(w, d, g, a);
  w.op("S_ADDI_INT gp6, gp6, " + s(uint64_t(a.blen) * a.vlen), "next y block");
  w.add_const(kSeg, kSeg, a.blen * g.x.padded_row(), "BLEN padded rows on");
  w.loop_end(kLoopB);
  w.op("S_ADDI_INT gp7, gp7, " + s(a.vlen), "next segment");
  w.loop_end(kLoopA);
}

}  // namespace

std::string plena_depthwise_kernel(const DepthwiseKernel& d, const PlenaArch& a) {
  if (a.v_rows != a.blen) throw std::invalid_argument("depthwise template assumes v_rows == blen");
  const Geometry g = plan(d, a);
  AsmWriter w;
  w.comment("DepthwiseConv y[" + s(d.h) + "," + s(d.h) + "," + s(d.c) + "], " + s(d.k) + "x" + s(d.k) +
            " filters, on the vector unit");
  emit_conv_prologue(w, d.x_addr, d.w_addr, d.y_addr, g.xp_addr, g.wz_addr, "wz", g.x, a, g.zero, g.xs);
  emit_stage_w(w, g, a);
  emit_replicated_weights(w, d, g, a);
  emit_compute(w, d, g, a);
  w.comment("y -> HBM (BF16)");
  w.set(kT1, g.x.row(), "STRIDE = an image row");
  w.op("C_SET_STRIDE_REG gp1");
  emit_image_blocks(w, "H_STORE_V", g.x, a, g.y, 0, g.x.row(), "a2, 1, 2");
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
