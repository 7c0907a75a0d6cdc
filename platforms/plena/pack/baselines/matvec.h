// PLENA GEMV template: y[M] = A[M,N] x[N], A (weight) and x MXFP8 in HBM, y BF16.
// x is staged in VRAM (N / VLEN rows). For each block of MLEN outputs, the MLEN x MLEN
// tiles of A along N are prefetched one at a time into MSRAM and applied with M_TMV (the
// tile's rows are the outputs, so it is used transposed), accumulating in FP32; M_MV_WO
// writes the MLEN results as one VRAM row, rounded once to BF16. Then y is stored.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

struct GemvKernel {
  uint32_t m = 0, n = 0;
  uint64_t a_addr = 0, x_addr = 0, y_addr = 0;  // HBM byte addresses
};

// Throws std::invalid_argument unless M and N are positive multiples of MLEN and the
// staged vectors fit VRAM.
std::string plena_gemv_kernel(const GemvKernel& g, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
