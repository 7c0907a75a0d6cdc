// The decoder blocks (llama_decoder, t5_decoder) on AIE-ML as multi-phase kernel files
// (decoder_tasks.cpp). The baseline runs every split projection on one tile; a larger grid
// shows what the array offers (docs/tasks.md, "AIE-ML decoder-block baselines").
#pragma once
#include <cstdint>
#include <string>

#include "tasks/registry.h"

namespace tlmcraft::tasks::aie_ml {

// The kernel file with the projections on up to columns x rows tiles each (1 x 1: the
// baseline). Throws std::invalid_argument for another task.
std::string decoder_kernel(const Instance& inst, uint32_t columns, uint32_t rows);

}  // namespace tlmcraft::tasks::aie_ml
