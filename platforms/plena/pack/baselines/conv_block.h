// PLENA ConvBlock kernel template: the Conv2D template (y in VRAM), then inference
// BatchNorm per output channel and ReLU on the vector unit, in the reference's stages:
//   t = z - mean;  rs = 1 / sqrt(var + eps);  b = t rs gamma + beta;  y = max(b, 0).
// The per-channel vectors (c_out values each) become VRAM rows repeating them VLEN / c_out
// times, so lane l of a y row (channel l mod c_out) meets its own channel: each vector is
// stored at offsets 0, c_out, 2 c_out, ... of an HBM workspace row (every store's tail
// lands where a later copy or nothing belongs) and read back. rs needs a square root, which
// only the scalar unit has: per channel, its lane of the repeated var row is isolated
// (shift, one-hot multiply, V_RED_MAX), S_ADD_FP eps, S_SQRT_FP, S_RECI_FP, and stored
// VLEN / c_out times into FP_MEM, which S_MAP_V_FP turns into the repeated rs row.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/conv.h"

namespace tlmcraft::tasks::plena {

struct ConvBlockKernel {
  ConvKernel conv;
  uint64_t gamma_addr = 0, beta_addr = 0, mean_addr = 0, var_addr = 0;  // MXFP8 [c_out]
  uint32_t fp_eps = 2;                                                  // FP_MEM index of eps (the layout's constants)
};

std::string plena_conv_block_kernel(const ConvBlockKernel& k, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
