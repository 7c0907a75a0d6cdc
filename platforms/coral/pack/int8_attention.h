// Coral's integer attention core (I-BERT-style integer-only inference), exact: the
// references of scaled_dot_product, mha, gqa, mqa and flash_attention on Coral, and the
// attention stage of the Coral decoder blocks. Matrices are row-major ref::Vec holding
// integers (as in int8_formulation.cpp); every intermediate below is an integer.
//
// Whole rows (int8_attention), per query head j and its key/value head g:
//   S = Q_j K_g^T                                  (int32)
//   t = sat8(rshift(S, shift_qk))                  logits in Q4 (scale 1/16): the scale
//                                                  1/sqrt(d) and the operand scales are
//                                                  folded into the shift
//   per row: m = max(t); e = exp_table[m - t];     (exp_q15: round(32767 exp(-k/16)))
//            L = sum e; p = min(127, rdiv(128 e, L))   Q7, the Coral softmax task's formula
//   O_j = sat8(rshift(P V_g, 7))                   back to V's scale
//
// Online softmax (int8_flash_attention), per query row, keys in blocks of `block`, with
// m = -128, l = 0, acc = 0 to start:
//   t = the block's logits as above; m' = max(m, max(t))
//   if m' > m: a = exp_table[m' - m]; l = rshift(l a, 15); acc = rshift(acc a, 15); m = m'
//   e = exp_table[m - t]; l += sum e; acc += e V_block      (int32; the products l a and
//                                                            acc a in 64 bits)
//   at the end O = sat8(rdiv(acc, l))
// (no rescale when the maximum stays: exp_table[0] is 32767, not 32768).
// int32 holds every sum for s_k <= 128: |acc| <= 128 l <= 128 * 128 * 32767 < 2^29, so
// 2 acc + l (rdiv) fits too.
#pragma once
#include <cstdint>

#include "tasks/reference/float_ops.h"

namespace tlmcraft::tasks::coral {

// The largest key count the int32 bounds above allow.
constexpr int64_t kMaxAttentionKeys = 128;
// Keys per block of Coral's flash_attention (16 int32 lanes: one e32m4 register group).
constexpr int64_t kFlashBlock = 16;

// t = sat8(rshift(q k^T, shift_qk)) of one head: q [s_q, d], k [s_k, d] -> [s_q, s_k].
ref::Vec int8_logits(const ref::Vec& q, const ref::Vec& k, int64_t s_q, int64_t s_k, int64_t d, int shift_qk);
// The Coral softmax of n Q4 logits (int8) into Q7 probabilities (see above).
ref::Vec int8_softmax_q7(const double* t, int64_t n, const ref::Vec& exp_table);

// Attention of q [s_q, heads d] against k, v [s_k, kv_heads d]; query head j uses key/value
// head g = j / (heads / kv_heads). Returns O [s_q, heads d] (int8 values).
// Throws std::invalid_argument if heads is not a multiple of kv_heads, a size does not
// match, or s_k > kMaxAttentionKeys.
ref::Vec int8_attention(const ref::Vec& q, const ref::Vec& k, const ref::Vec& v, int64_t s_q, int64_t s_k,
                        int64_t heads, int64_t kv_heads, int64_t d, int shift_qk, const ref::Vec& exp_table);
// The same with the online softmax over blocks of `block` keys (the last block may be short).
ref::Vec int8_flash_attention(const ref::Vec& q, const ref::Vec& k, const ref::Vec& v, int64_t s_q, int64_t s_k,
                              int64_t heads, int64_t kv_heads, int64_t d, int shift_qk, int64_t block,
                              const ref::Vec& exp_table);

}  // namespace tlmcraft::tasks::coral
