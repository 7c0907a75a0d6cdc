// Seeded input generation: a task's inputs for one platform and configuration, drawn
// from the distributions its spec names (tasks/random.h: our own distributions over
// std::mt19937_64), then converted to the values the platform's memory holds.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tasks/spec.h"
#include "tasks/random.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

// The generator used for tensor t on platform p (the override, else the default).
const Distribution& distribution_for(const TensorSpec& t, PlatformId p);

// Fills one tensor (shape already set) from d. Exposed for tests.
void fill(Tensor& out, const Distribution& d, const Params& params, Rng& rng);

// The input-range schedule (docs/tasks.md, "Input ranges"). Trial 0 of an evaluation
// draws from the tensors' init ("ordinary"); every later trial draws from one of the
// task's adversarial ranges on p, picked by its seed: ranges[seed mod count]. Consecutive
// seeds (trial k uses first + k) therefore give trials 1, 2, ... different ranges, and an
// evaluation of two or more trials always meets at least one adversarial range.
constexpr const char* kOrdinaryRange = "ordinary";
// The adversarial range names of `task` on p: the union over its inputs, in spec order.
std::vector<std::string> adversarial_ranges(const TaskSpec& task, PlatformId p);
// The range trial `trial` (0-based) with input seed `seed` draws from.
std::string range_for_trial(const TaskSpec& task, PlatformId p, uint64_t seed, size_t trial);

// All inputs of `task` on platform p (in spec order), as the platform's memory holds
// them, drawn from `range` (kOrdinaryRange or one of adversarial_ranges(); a tensor
// without that range keeps its init). Deterministic in (task, platform, params, seed,
// range); throws std::invalid_argument for an unknown range.
TensorSet generate_inputs(const TaskSpec& task, PlatformId p, const Params& params, uint64_t seed,
                          const std::string& range = kOrdinaryRange);

}  // namespace tlmcraft::tasks
