// AIE-ML bf16 matrix-multiply kernel files (core programs + `.movement` section):
// C[b] = A[b] B[b] (+ bias) with A [M, K], B [K, N], C [M, N] row-major bf16 in DDR,
// fp32 accumulation, bf16 result (VMAC.BF16 4x8x4 blocks).
//
// Data path (docs/PERFORMANCE.md, AIE-ML section), on `columns` x `rows` compute tiles:
// array columns split N, tile rows split M (a super-strip of rows x Mr rows gives each
// tile row one strip of Mr <= 32 rows; A is double-buffered when a strip fits 16 KB).
//   A (and the bias) of tile row r: shim r.mm2s1 -> mem r.s2mm5 (ping/pong) ->
//     mem r.mm2s0 reorders the strips into 4x8 blocks and broadcasts them along the row
//     (tile (c, r).s2mm0 for every c).
//   B: shimc.mm2s0 reads the column's N slice 32 columns (64 bytes) per DDR row ->
//     memc.s2mm0 (ping/pong) -> memc.mm2s4 hands out 8-column steps as 8x4 blocks,
//     broadcast to the column's tiles (s2mm1).
//   C: each tile emits its Mr x 8 chunk row-major -> memc.s2mm<1+r>; the column's tiles
//     take turns (a lock chain, row 0 first) -> memc.mm2s5 -> shimc.s2mm0 -> DDR.
// The core program (identical on every tile but for the bias start): per strip, per
// 8-column step, per 4 rows, two 4x4 fp32 accumulators (plus two for odd k blocks) over K
// in a zero-overhead loop, then VST.CONV to bf16. One tile (1 x 1) is the baseline.
#pragma once
#include <cstdint>
#include <string>

namespace tlmcraft::tasks::aie_ml {

struct MatmulPlan {
  int64_t batches = 1, M = 0, K = 0, N = 0;
  uint64_t a_offset = 0, b_offset = 0, c_offset = 0;  // DDR byte offsets (task layout)
  bool has_bias = false;                               // C += bias[n] (Linear)
  uint64_t bias_offset = 0;
  uint32_t columns = 1, rows = 1;  // compute tiles used: columns x rows, N split over them
};

// Why a plan cannot be generated ("" when it can): shapes the blocking does not divide,
// buffers that do not fit.
std::string matmul_plan_problem(const MatmulPlan& plan);

// The kernel file text. Throws std::invalid_argument with matmul_plan_problem's text.
std::string matmul_kernel(const MatmulPlan& plan);

}  // namespace tlmcraft::tasks::aie_ml
