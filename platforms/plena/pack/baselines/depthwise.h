// PLENA DepthwiseConv kernel template (stride 1, 'same' zero padding, channels last):
// y[H, H, c] = sum over taps (dr, dc) of x[r + dr - p, col + dc - p, ch] * w[dr, dc, ch], on
// the vector unit (no reduction over channels, so nothing for the matrix unit to contract).
//
// A VRAM row holds VLEN consecutive y elements: VLEN / c pixels of one image row. For each
// tap, one H_PREFETCH_V (STRIDE = a padded image row) reads the shifted window of BLEN such
// rows from xp, the zero-padded MX copy of x in the HBM workspace; the tap's weights are a
// VRAM row of w[dr, dc, :] repeated VLEN / c times (built once: each copy prefetched to
// its lanes by offsetting the row start, merged under V_MASK, so c is a multiple of HLEN).
// Per row and tap: V_MUL_VV then V_ADD_VV, each rounded to BF16, taps in (dr, dc) order.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

struct DepthwiseKernel {
  uint32_t h = 0, c = 0, k = 0;
  uint64_t x_addr = 0, w_addr = 0, y_addr = 0;  // HBM byte addresses (x, w MXFP8; y BF16)
  uint64_t scratch_addr = 0;                    // HBM workspace (4096-aligned)
};

// Throws std::invalid_argument when the shape does not fit the template or the memories.
std::string plena_depthwise_kernel(const DepthwiseKernel& d, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
