// Multi-head attention on split-precision operands, for the decoder blocks
// (decoder_tasks.cpp): Q, K and V arrive as bf16 high + low parts (two [s, heads d]
// row-major bf16 matrices each, value = hi + lo, about 16 significant bits), O leaves the
// same way. Per head j (columns j d .. j d + d - 1 of every operand):
//   optional RoPE (rotate-half within the head, tables cos/sin [s, d] bf16) on q and k,
//   S = q k^T / sqrt(d), P = softmax(S) per row, O_j = P v,
// with every intermediate in fp32 and products of split values taken as three bf16
// products (hi hi + hi lo + lo hi). One kernel file (core program(s) + `.movement`) that
// reads and writes DDR only at the offsets given: one phase of a multi-phase kernel.
#pragma once
#include <cstdint>
#include <string>

namespace tlmcraft::tasks::aie_ml {

struct SplitAttentionPlan {
  int64_t s = 0, heads = 1, d = 0;  // sequence length (queries = keys), heads, head size
  // DDR byte offsets of the [s, heads d] bf16 matrices (high and low parts).
  uint64_t q_hi = 0, q_lo = 0, k_hi = 0, k_lo = 0, v_hi = 0, v_lo = 0, o_hi = 0, o_lo = 0;
  bool rope = false;                      // rotate q and k first (llama_decoder)
  uint64_t cos_offset = 0, sin_offset = 0;  // [s, d] bf16 tables when rope
  // Compute tiles per array column sharing each head's query rows (1..4, s divisible by
  // it); 0 = as many as possible up to 4. Heads are spread over up to 4 columns.
  int64_t row_tiles = 0;
};

// Why the plan cannot be generated ("" when it can).
std::string split_attention_problem(const SplitAttentionPlan& plan);
// The kernel file text; throws std::invalid_argument with split_attention_problem's text.
std::string split_attention_kernel(const SplitAttentionPlan& plan);

}  // namespace tlmcraft::tasks::aie_ml
