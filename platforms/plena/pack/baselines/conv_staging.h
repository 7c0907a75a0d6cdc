// Staging steps the PLENA convolution templates share: the zero rows, image blocks moved
// between VRAM and HBM, and the zero-padded MX copy xp of a channels-last image in the HBM
// workspace, from which prefetch addressing reads shifted windows (im2col rows).
// Registers: gp1 (constants), gp2 (VRAM address), gp3 (HBM offset), gp4, gp5 (loops),
// gp8 (segment offset) and gp11 (the zero rows, kept for the whole kernel).
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

// An H x H x ch image and its zero-padded copy (border pad = (k-1)/2, width wp = H + 2 pad).
struct PaddedImage {
  uint32_t h = 0, ch = 0, pad = 0, wp = 0;
  uint64_t elems = 0;     // H*H*ch
  uint64_t xp_elems = 0;  // padded copy plus a VLEN zero tail, whole BLEN-row blocks
  uint64_t row() const { return uint64_t(h) * ch; }
  uint64_t padded_row() const { return uint64_t(wp) * ch; }
};
// Throws std::invalid_argument unless H % BLEN == 0, H*ch % VLEN == 0 and ch % 8 == 0.
PaddedImage padded_image(uint32_t h, uint32_t ch, uint32_t k, const PlenaArch& a, const std::string& what);

inline uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
inline uint64_t mx_bytes(uint64_t elements) { return elements + elements / 8; }

void set_scale_stride(AsmWriter& w, uint64_t scale, uint64_t stride, const std::string& what);
// BLEN zero rows at VRAM `vram`, left in gp11.
void emit_zero_block(AsmWriter& w, uint64_t vram, const PlenaArch& a);
// `count` stores of the zero rows to the MX tensor at a<areg> from offset gp3 on, `step`
// elements apart (STRIDE set by the caller).
void emit_zero_stores(AsmWriter& w, uint64_t count, uint64_t step, int areg);
// An image moved in blocks of BLEN image rows x one VLEN segment: VRAM block (segment sg,
// rows BLEN*rb..) at vram + (sg * H/BLEN + rb) * BLEN rows; HBM row r of segment sg at
// first + r * row_stride + sg * VLEN (row_stride is STRIDE, set by the caller). `insn` is
// H_PREFETCH_V or H_STORE_V, `tail` its last operands ("a0, 1, 0").
void emit_image_blocks(AsmWriter& w, const std::string& insn, const PaddedImage& im, const PlenaArch& a, uint64_t vram,
                       uint64_t first, uint64_t row_stride, const std::string& tail);
// The convolution templates' prologue: a0 = x, a1 = w, a2 = y, a3 = xp, a4 = the staged
// weights (named `staged_w`), BLEN zero rows at VRAM `zero`, and xp built from x through
// the VRAM rows from `xs`.
void emit_conv_prologue(AsmWriter& w, uint64_t x, uint64_t wt, uint64_t y, uint64_t xp, uint64_t staged_w,
                        const std::string& staged_w_name, const PaddedImage& im, const PlenaArch& a, uint64_t zero,
                        uint64_t xs);
// xp (MX, a<dst>) = the image at a<src> with its zero border and tail, staged through the
// VRAM rows from `vram` (im.elems / VLEN rows). Needs the zero rows (emit_zero_block).
void emit_stage_padded(AsmWriter& w, const PaddedImage& im, const PlenaArch& a, uint64_t vram, int src, int dst);

}  // namespace tlmcraft::tasks::plena
