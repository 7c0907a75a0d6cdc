// The AIE-ML FlashAttention baseline (flash_attention.cpp) with a chosen number of row
// tiles, for comparisons (the registered generator takes the most of 4, 2, 1 dividing s).
#pragma once
#include <cstdint>
#include <string>

#include "tasks/registry.h"

namespace tlmcraft::tasks::aie_ml {

// The kernel file of a flash_attention instance on `row_tiles` compute tiles of column 0
// (1..4, dividing s); throws std::invalid_argument naming the problem otherwise.
std::string flash_attention_kernel(const Instance& inst, int64_t row_tiles);

}  // namespace tlmcraft::tasks::aie_ml
