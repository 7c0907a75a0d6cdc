// AIE-ML bf16 matrix-multiply kernel files (core programs + `.movement` section):
// C[b] = A[b] B[b] (+ bias) with A [M, K], B [K, N], C [M, N] row-major bf16 in DDR,
// fp32 accumulation, bf16 result (VMAC.BF16 4x8x4 blocks).
//
// Data path (docs/PERFORMANCE.md, AIE-ML section):
//   A (and the bias): shim0.mm2s1 -> mem0.s2mm5 (ping/pong strips of Mr rows) ->
//     mem0.mm2s5 reorders into 4x8 blocks, broadcast to every compute tile's s2mm0.
//   B: per array column c, shimc.mm2s0 streams the column's N slice in steps of
//     rows x Nt columns -> memc.s2mm0 (ping/pong) -> memc.mm2s<r> reorders tile r's Nt
//     columns into 8x4 blocks -> tile (c, r).s2mm1 (ping/pong). The memory tile's
//     consumers take turns (a lock chain), so each lock has one producer and one consumer.
//   C: tile (c, r).mm2s0 emits its Mr x Nt chunk row-major -> memc.s2mm<1+r> (lock chain)
//     -> memc.mm2s4 interleaves the rows of the column's tiles -> shimc.s2mm0 -> DDR.
// One tile (columns = rows = 1) is the single-tile baseline; 4 x 4 splits N over 16 tiles.
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
