// PLENA templates for the whole-vector reductions: Softmax, LayerNorm, RMSNorm over x[n]
// (MXFP8 in HBM; gamma/beta MXFP8 weights; y BF16). The vector is staged whole in VRAM
// (n / VLEN rows), reduced, normalised row by row and stored.
//
// Sums go through the matrix unit: M_MV of each row against a tile of ones accumulates
// the whole vector in the FP32 accumulator in ascending index order, and M_MV_WO rounds
// it once to BF16, which is exactly how the task references reduce on PLENA
// (tasks/reference/float_ops.h reduce_sum). V_RED_SUM is not used: its BF16 running
// total drifts far outside the tolerance at large n (docs/tasks.md). Every other stage
// is one vector or scalar instruction, rounded to BF16 like the reference stages in
// tasks/specs/<task>.yaml.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

enum class RowReduction { Softmax, LayerNorm, RmsNorm };

struct NormKernel {
  RowReduction kind = RowReduction::Softmax;
  uint64_t n = 0;
  // HBM byte addresses; gamma for LayerNorm/RMSNorm, beta for LayerNorm only.
  uint64_t x_addr = 0, gamma_addr = 0, beta_addr = 0, y_addr = 0;
  // HBM byte address of VLEN BF16 elements the kernel may overwrite (its row of ones).
  uint64_t scratch_addr = 0;
};

// Throws std::invalid_argument unless n is a positive multiple of BLEN * VLEN and the
// staged tensors fit VRAM.
std::string plena_norm_kernel(const NormKernel& k, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
