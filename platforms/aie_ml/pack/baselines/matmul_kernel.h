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
#include <vector>

namespace tlmcraft::tasks::aie_ml {

struct MatmulPlan {
  int64_t batches = 1, M = 0, K = 0, N = 0;
  uint64_t a_offset = 0, b_offset = 0, c_offset = 0;  // DDR byte offsets (task layout)
  bool has_bias = false;                               // C += bias[n] (Linear)
  uint64_t bias_offset = 0;
  uint32_t columns = 1, rows = 1;  // compute tiles used: columns x rows, N split over them

  // Split precision (the decoder blocks, decoder_tasks.cpp). An fp32-accurate operand is
  // kept in DDR as two bf16 matrices, high part and low part (hi + lo, about 16
  // significant bits):
  // - a_parts / b_parts (both empty, or the same length P >= 1): C = sum_p A_p B_p with
  //   every A_p an [M, K] and every B_p a [K, N] row-major bf16 matrix at those DDR
  //   offsets, accumulated in fp32 (K-stacking: A' = [A_0 | A_1 | ...], B' = [B_0; B_1; ...]).
  //   E.g. a split A times a bf16 weight W: a_parts {A_hi, A_lo}, b_parts {W, W}.
  //   When set, a_offset and b_offset are ignored. batches must be 1; has_bias false.
  // - c_lo_offset: when nonzero, C is written as its bf16 high part at c_offset and the
  //   bf16 of the rest (C - hi, from the fp32 accumulator) at c_lo_offset, both [M, N].
  //   Batches and a bias are allowed with it; C_lo must not overlap C.
  // How (matmul_kernel.cpp): with parts the tiles see depth K' = P K (shim r reads each
  // strip part after part, the memory tile interleaves the parts per 4-row group), so the
  // limits hold for K': an A strip Mr x K' <= 32 KB (Mr is lowered to fit), a B step
  // K' x 8 <= 8 KB. Two A parts with b_parts[0] == b_parts[1] and strips of a multiple of
  // 8 rows (every decoder shape) stream B once (depth K; the B step limit is then K x 8)
  // and multiply each B block by both parts. Split output: the tiles stream each chunk's
  // high then low part; the low parts leave through mem<c>.mm2s3 -> shim<c>.s2mm1.
  std::vector<uint64_t> a_parts, b_parts;
  uint64_t c_lo_offset = 0;
};

// Why a plan cannot be generated ("" when it can): shapes the blocking does not divide,
// buffers that do not fit.
std::string matmul_plan_problem(const MatmulPlan& plan);

// The kernel file text. Throws std::invalid_argument with matmul_plan_problem's text.
std::string matmul_kernel(const MatmulPlan& plan);

}  // namespace tlmcraft::tasks::aie_ml
