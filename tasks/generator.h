// Seeded input generation: a task's inputs for one platform and configuration, drawn
// from the distributions its spec names (tasks/random.h: our own distributions over
// std::mt19937_64), then converted to the values the platform's memory holds.
#pragma once
#include <cstdint>

#include "tasks/spec.h"
#include "tasks/random.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

// The generator used for tensor t on platform p (the override, else the default).
const Distribution& distribution_for(const TensorSpec& t, PlatformId p);

// Fills one tensor (shape already set) from d. Exposed for tests.
void fill(Tensor& out, const Distribution& d, const Params& params, Rng& rng);

// All inputs of `task` on platform p (in spec order), as the platform's memory holds
// them. Deterministic in (task, platform, params, seed).
TensorSet generate_inputs(const TaskSpec& task, PlatformId p, const Params& params, uint64_t seed);

}  // namespace tlmcraft::tasks
