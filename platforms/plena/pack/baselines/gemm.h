// PLENA GEMM / Linear kernel template: Y[M,N] = X[M,K] W[K,N], X and W in HBM as MXFP8,
// Y written as BF16. Straightforward template-compiler structure: X staged whole in VRAM,
// W one column of MLEN x MLEN tiles at a time in MSRAM, BLEN x BLEN output blocks
// accumulated over K with M_MM and written with M_MM_WO, then stored row block by row block.
// Options let the same template serve Linear (a bias row added to every output row) and
// BatchMatMul (one batch's matrices inside larger [b, rows, cols] tensors).
#pragma once
#include <cstdint>
#include <string>

namespace tlmcraft::tasks::plena {

struct PlenaArch {
  uint32_t mlen = 64, vlen = 64, blen = 4, v_rows = 4;
  uint32_t hlen = 16;  // V_MASK granularity (one bit per HLEN lanes)
  uint32_t msram_tiles = 4;
  uint32_t vram_rows = 1024;
};

struct GemmKernel {
  uint32_t m = 0, k = 0, n = 0;
  uint64_t x_addr = 0, w_addr = 0, y_addr = 0;  // HBM byte addresses
  // Prefetch the next column of W tiles while computing the current one (needs 2 K/MLEN
  // MSRAM tiles and two VRAM output tiles); pays off in the pipelined timing mode.
  bool double_buffer = false;
  // Element offsets of this product's first element inside the X, W and Y tensors (a
  // batch slice of a [b, rows, cols] tensor); added to every HBM offset.
  uint64_t x_offset = 0, w_offset = 0, y_offset = 0;
  // SCALE of the MX tensors X and W (their total element counts); 0 = M*K and K*N.
  uint64_t x_scale = 0, w_scale = 0;
  // Linear: Y = X W + bias with bias[N] (MXFP8 in HBM, SCALE = N) when has_bias; the
  // bias add is a separate BF16 step after the product is written out (as the Linear
  // reference rounds the product first).
  bool has_bias = false;
  uint64_t bias_addr = 0;
};

// Throws std::invalid_argument when the shape does not fit the template or the memories.
std::string plena_gemm_kernel(const GemmKernel& g, const PlenaArch& arch = {});

}  // namespace tlmcraft::tasks::plena
