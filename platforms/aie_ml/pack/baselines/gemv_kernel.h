// AIE-ML bf16 matrix-vector kernel file: y = A x, A [M, N] and x [N] row-major bf16 in
// DDR, fp32 accumulation, bf16 y, on compute tile (0, 0).
//
// The 4x8x4 matrix mode needs an 8x4 right operand, so the core first expands x into
// blocks whose 4 columns all hold x (row k = x[k] four times, VSHUFFLE interleaves); then
// A's 4x8 blocks times these give 4x4 blocks whose row i is y[m + i] repeated, two
// VSHUFFLEs pick y[m .. m + 3] into 8 bytes, and the tile's DMA drops the rest.
// Data path: shim0.mm2s0 (x, then A) -> mem0.s2mm0 (ping/pong strips) -> mem0.mm2s0
// (A reordered into 4x8 blocks) -> tile (0,0).s2mm0; tile.mm2s0 -> shim0.s2mm0 (y).
#pragma once
#include <cstdint>
#include <string>

namespace tlmcraft::tasks::aie_ml {

struct GemvPlan {
  int64_t M = 0, N = 0;
  uint64_t a_offset = 0, x_offset = 0, y_offset = 0;  // DDR byte offsets (task layout)
};

// Why a plan cannot be generated ("" when it can).
std::string gemv_plan_problem(const GemvPlan& plan);

// The kernel file text. Throws std::invalid_argument with gemv_plan_problem's text.
std::string gemv_kernel(const GemvPlan& plan);

}  // namespace tlmcraft::tasks::aie_ml
