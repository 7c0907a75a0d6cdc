#include "platforms/plena/pack/baselines/conv_staging.h"

#include <stdexcept>

namespace tlmcraft::tasks::plena {
namespace {

constexpr int kT1 = 1, kVr = 2, kOff = 3, kLoopA = 4, kLoopB = 5, kSeg = 8, kZero = 11;

std::string s(uint64_t v) { return std::to_string(v); }

}  // namespace

PaddedImage padded_image(uint32_t h, uint32_t ch, uint32_t k, const PlenaArch& a, const std::string& what) {
  if (!h || !ch || k % 2 == 0 || h % a.blen || uint64_t(h) * ch % a.vlen || ch % 8)
    throw std::invalid_argument(what + " template needs H % BLEN == 0, H*" + (what == "conv" ? "c_in" : "c") +
                                " % VLEN == 0, channels in whole MX blocks of 8 and an odd k");
  PaddedImage im;
  im.h = h;
  im.ch = ch;
  im.pad = (k - 1) / 2;
  im.wp = h + 2 * im.pad;
  im.elems = uint64_t(h) * h * ch;
  im.xp_elems = round_up(uint64_t(im.wp) * im.wp * ch + a.vlen, uint64_t(a.blen) * a.vlen);
  return im;
}

void set_scale_stride(AsmWriter& w, uint64_t scale, uint64_t stride, const std::string& what) {
  w.set(kT1, scale, "SCALE = elements of " + what);
  w.op("C_SET_SCALE_REG gp1");
  w.set(kT1, stride, "STRIDE");
  w.op("C_SET_STRIDE_REG gp1");
}

void emit_zero_block(AsmWriter& w, uint64_t vram, const PlenaArch& a) {
  w.set(kZero, vram, "zero rows");
  w.op("S_MAP_V_FP gp11, gp0, 0", "FP_MEM[0..VLEN) (finite constants)");
  w.op("V_MUL_VF gp11, gp11, f0, 0", "0");
  for (uint32_t r = 1; r < a.blen; ++r) {
    w.set(kVr, vram + uint64_t(r) * a.vlen);
    w.op("V_MUL_VF gp2, gp11, f0, 0", "0");
  }
}

void emit_zero_stores(AsmWriter& w, uint64_t count, uint64_t step, int areg) {
  if (!count) return;
  w.loop_start(kLoopB, uint32_t(count), "zero rows");
  w.op("H_STORE_V gp11, gp3, a" + s(areg) + ", 1, 0", "BLEN zero rows");
  w.add_const(kOff, kOff, step);
  w.loop_end(kLoopB);
}

void emit_image_blocks(AsmWriter& w, const std::string& insn, const PaddedImage& im, const PlenaArch& a, uint64_t vram,
                       uint64_t first, uint64_t row_stride, const std::string& tail) {
  w.set(kVr, vram, "VRAM image blocks");
  w.set(kSeg, first, "segment 0 of the first row");
  w.loop_start(kLoopA, uint32_t(im.row() / a.vlen), "VLEN segments of an image row");
  w.op("S_ADD_INT gp3, gp8, gp0");
  w.loop_start(kLoopB, im.h / a.blen, "blocks of BLEN image rows");
  w.op(insn + " gp2, gp3, " + tail);
  w.op("S_ADDI_INT gp2, gp2, " + s(uint64_t(a.blen) * a.vlen));
  w.add_const(kOff, kOff, a.blen * row_stride, "next BLEN rows");
  w.loop_end(kLoopB);
  w.op("S_ADDI_INT gp8, gp8, " + s(a.vlen), "next segment");
  w.loop_end(kLoopA);
}

void emit_stage_padded(AsmWriter& w, const PaddedImage& im, const PlenaArch& a, uint64_t vram, int src, int dst) {
  const uint64_t block = uint64_t(a.blen) * a.vlen;
  w.comment("stage the image in VRAM, BLEN image rows x one VLEN segment per block");
  set_scale_stride(w, im.elems, im.row(), "the image; STRIDE = an image row");
  emit_image_blocks(w, "H_PREFETCH_V", im, a, vram, 0, im.row(), "a" + s(src) + ", 1, 0");
  w.comment("xp = zeros, then the image inside the border");
  set_scale_stride(w, im.xp_elems, a.vlen, "xp");
  w.set(kOff, 0);
  emit_zero_stores(w, im.xp_elems / block, block, dst);
  w.set(kT1, im.padded_row(), "STRIDE = a padded image row");
  w.op("C_SET_STRIDE_REG gp1");
  emit_image_blocks(w, "H_STORE_V", im, a, vram, (uint64_t(im.pad) * im.wp + im.pad) * im.ch, im.padded_row(),
                    "a" + s(dst) + ", 1, 0");
}

void emit_conv_prologue(AsmWriter& w, uint64_t x, uint64_t wt, uint64_t y, uint64_t xp, uint64_t staged_w,
                        const std::string& staged_w_name, const PaddedImage& im, const PlenaArch& a, uint64_t zero,
                        uint64_t xs) {
  w.set_addr(0, kT1, x, "a0 = x");
  w.set_addr(1, kT1, wt, "a1 = w");
  w.set_addr(2, kT1, y, "a2 = y");
  w.set_addr(3, kT1, xp, "a3 = xp (workspace)");
  w.set_addr(4, kT1, staged_w, "a4 = " + staged_w_name + " (workspace)");
  emit_zero_block(w, zero, a);
  emit_stage_padded(w, im, a, xs, 0, 3);
}

}  // namespace tlmcraft::tasks::plena
