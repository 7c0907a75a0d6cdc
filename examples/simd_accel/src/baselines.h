// simd_accel's baseline kernels: what a simple template compiler emits for a task
// configuration (the speedup denominator). Each reads the tensors' addresses from the
// layout and the scratchpad size from the platform's effective configuration.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "tasks/registry.h"

namespace simd_accel {

bool has_baseline(const std::string& task);
// Throws std::invalid_argument for a task without a generator or a configuration whose
// data does not fit the scratchpad (naming both sizes).
std::string baseline_kernel(const tlmcraft::tasks::Instance& instance, const nlohmann::json& platform_config);

}  // namespace simd_accel
