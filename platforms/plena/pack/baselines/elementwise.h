// PLENA elementwise activation templates (SiLU, ReLU, GELU): y[n] = f(x[n]), x MXFP8 in
// HBM, y BF16. Streamed in blocks of BLEN rows of VLEN: prefetch a block, apply f row by
// row with vector instructions (each stage rounded to BF16, as the task's reference
// stages), store the block.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

enum class Activation { Silu, Relu, Gelu };

struct ElementwiseKernel {
  Activation act = Activation::Relu;
  uint64_t n = 0;
  uint64_t x_addr = 0, y_addr = 0;  // HBM byte addresses
};

// Throws std::invalid_argument unless n is a positive multiple of BLEN * VLEN.
std::string plena_elementwise_kernel(const ElementwiseKernel& k, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
