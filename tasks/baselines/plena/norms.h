// PLENA templates for the whole-vector reductions: Softmax, LayerNorm, RMSNorm over x[n]
// (MXFP8 in HBM; gamma/beta MXFP8 weights; y BF16). The vector is staged whole in VRAM
// (n / VLEN rows), reduced, normalised row by row and stored.
//
// Sums use V_RED_SUM row by row into a BF16 f-register (float32 within a row, rounded to
// BF16 after each row), which is exactly how the task references reduce on PLENA
// (tasks/reference/float_ops.cpp reduce_sum). Every other stage is one vector or scalar
// instruction, rounded to BF16 like the reference stages in tasks/specs/<task>.yaml.
#pragma once
#include <cstdint>
#include <string>

#include "tasks/baselines/plena/gemm.h"

namespace tlmcraft::tasks::plena {

enum class RowReduction { Softmax, LayerNorm, RmsNorm };

struct NormKernel {
  RowReduction kind = RowReduction::Softmax;
  uint64_t n = 0;
  // HBM byte addresses; gamma for LayerNorm/RMSNorm, beta for LayerNorm only.
  uint64_t x_addr = 0, gamma_addr = 0, beta_addr = 0, y_addr = 0;
};

// Throws std::invalid_argument unless n is a positive multiple of BLEN * VLEN and the
// staged tensors fit VRAM.
std::string plena_norm_kernel(const NormKernel& k, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
