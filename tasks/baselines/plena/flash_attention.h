// The PLENA FlashAttention template: O = softmax(Q K^T / sqrt(d)) V computed block by
// block over the keys with the online softmax (running row maximum m and sum l in FP_MEM,
// the partial output rescaled by alpha = exp(m_old - m_new) per block, divided by l at the
// end), so no s x s score matrix is ever stored.
#pragma once
#include <cstdint>
#include <string>

#include "tasks/baselines/plena/gemm.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks::plena {

// The KV block the generator picks when none is given: min(VLEN, s / 2), so every
// configuration runs at least two blocks.
uint32_t default_kv_block(uint32_t s, const PlenaArch& arch);

// kv_block = keys per block (0 = default_kv_block). Throws std::invalid_argument unless
// kv_block is a multiple of HLEN = 16, at most VLEN and divides s.
std::string plena_flash_attention(const Instance& inst, const PlenaArch& arch, uint32_t kv_block = 0);

}  // namespace tlmcraft::tasks::plena
