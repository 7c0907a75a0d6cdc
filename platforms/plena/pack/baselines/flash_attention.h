// The PLENA FlashAttention template: O = softmax(Q K^T / sqrt(d)) V computed block by
// block over the keys with the online softmax: per query row a running maximum m (FP_MEM)
// and running sum l; per block alpha = exp(m_old - m_new), E = exp(S c - m_new) and
//   l = sum(E) + alpha l,   O = E V_b + diag(alpha) O,
// each as one matmul stage (FP32 accumulator, one BF16 rounding per block; a vector
// rescale rounds the partial output twice more and drifts past the tolerance, see
// docs/tasks.md). The last block normalises as it forms the result:
// O = (E / l) V_b + diag(alpha / l) O. No s x s score matrix is stored (diag(alpha) is a
// diagonal s x s operand).
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/gemm.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks::plena {

// The KV block the generator picks when none is given: min(VLEN, s / 2), so every
// configuration runs at least two blocks.
uint32_t default_kv_block(uint32_t s, const PlenaArch& arch);

// kv_block = keys per block (0 = default_kv_block). Throws std::invalid_argument unless
// kv_block is a multiple of HLEN = 16, at most VLEN and divides s.
std::string plena_flash_attention(const Instance& inst, const PlenaArch& arch, uint32_t kv_block = 0);

}  // namespace tlmcraft::tasks::plena
