// Baseline kernels: what a template compiler emits for a task configuration on a
// platform. Their cycles are the speedup denominator. Each platform pack
// (platforms/<p>/pack/) registers its generators here; this file names no platform.
#pragma once
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "tasks/registry.h"

namespace tlmcraft::tasks {

struct BaselineRegistration {
  // True if the platform has a generator for this task.
  std::function<bool(const std::string& task)> has;
  // The kernel's source text for a supported task; reads the architecture parameters
  // from the platform's effective configuration.
  std::function<std::string(const Instance&, const nlohmann::json& platform_config)> kernel;
  // The source file extension that tells the platform's toolchain the language (".asm", ".c").
  std::string extension;
};
// Throws std::invalid_argument if `p` already has baselines or a field is empty.
void register_baselines(PlatformId p, BaselineRegistration registration);
// nullptr if no pack registered baselines for `p`.
const BaselineRegistration* find_baselines(const PlatformId& p);

// True if a baseline generator exists for this task on this platform.
bool has_baseline(const Instance& instance);
// The baseline kernel's source text. `platform_config` is the platform's effective
// configuration (Platform::config()), from which the generator reads the architecture
// parameters (MLEN, VLEN, memory sizes). Throws TaskError when no baseline exists.
std::string baseline_kernel(const Instance& instance, const nlohmann::json& platform_config);
// The file name the baseline's source is assembled/compiled under; its extension tells
// the platform's toolchain the language (BaselineRegistration::extension).
std::string baseline_file_name(const Instance& instance);

}  // namespace tlmcraft::tasks
