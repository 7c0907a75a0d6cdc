// PLENA Conv2D kernel template (stride 1, 'same' zero padding, channels last, no bias):
// y[H, H, c_out] = conv(x[H, H, c_in], w[k, k, c_in, c_out]) on the matrix unit, im2col
// done by prefetch addressing.
//
// 1. Staging (HBM workspace, MXFP8): xp = x with a zero border of p = (k-1)/2 pixels and a
//    zero tail; wp = the weights as MSRAM tile images: K-tile j (kernel row dr, lane tile t)
//    row l = w row (dr, t*MLEN + l) or zeros past the k*c_in rows of dr, and the
//    MLEN / c_out K-tiles side by side in one tile's columns. Every MX block of 8 moves
//    whole (offsets are multiples of 8), so the round trip through VRAM is exact.
// 2. MSRAM holds every K-tile; for each block of BLEN output pixels of one image row and
//    each K-tile, one H_PREFETCH_V with STRIDE = c_in reads the BLEN im2col rows: the MLEN
//    consecutive xp elements from pixel (r + dr, c + i), lane tile t; lanes past k*c_in
//    meet zero weight rows.
// 3. M_MM over the K-tiles in (dr, dc, c_in) order (the reference's float32 order),
//    M_MM_WO to y's channels-last rows in VRAM (row stride c_out), then BF16 stores.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

struct ConvKernel {
  uint32_t h = 0, c_in = 0, c_out = 0, k = 0;
  uint64_t x_addr = 0, w_addr = 0, y_addr = 0;  // HBM byte addresses (x, w MXFP8; y BF16)
  uint64_t scratch_addr = 0;                    // HBM workspace (4096-aligned)
};

// Where the convolution leaves its result and which VRAM rows are free after it.
struct ConvVram {
  uint64_t y = 0;            // VRAM address of y (channels-last rows, H*H*c_out elements)
  uint64_t y_rows = 0;       // VRAM rows of y
  uint64_t free_row = 0;     // first VRAM row the convolution no longer needs
  uint64_t scratch_end = 0;  // first HBM workspace byte it does not use
};

// Emits stages 1-3 (y in VRAM, not stored). Throws std::invalid_argument when the shape
// does not fit the template or the memories.
ConvVram emit_conv_to_vram(AsmWriter& w, const ConvKernel& c, const PlenaArch& arch);
// Stores `rows` VRAM rows from `vram` contiguously to the BF16 tensor at a2.
void emit_store_rows(AsmWriter& w, uint64_t vram, uint64_t rows, const PlenaArch& arch);

std::string plena_conv2d_kernel(const ConvKernel& c, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
