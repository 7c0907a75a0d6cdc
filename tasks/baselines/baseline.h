// Baseline kernels: what a template compiler emits for a task configuration on a
// platform. Their cycles are the speedup denominator.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "tasks/registry.h"

namespace tlmcraft::tasks {

// True if a baseline generator exists for this task on this platform.
bool has_baseline(const Instance& instance);
// The baseline kernel's source text. `platform_config` is the platform's effective
// configuration (Platform::config()), from which the generator reads the architecture
// parameters (MLEN, VLEN, memory sizes). Throws TaskError when no baseline exists.
std::string baseline_kernel(const Instance& instance, const nlohmann::json& platform_config);
// The file name the baseline's source is assembled/compiled under; its extension tells
// the platform's toolchain the language (Coral baselines are C: ".c").
std::string baseline_file_name(const Instance& instance);

}  // namespace tlmcraft::tasks
