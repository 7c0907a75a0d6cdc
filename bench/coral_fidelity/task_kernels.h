// Task kernels other than the baselines: DIR/<task>/<config>/<version>.{c,s} (for example
// every kernel version the search agent evaluated), each run like the task's baseline
// (the task's layout, trial-seed-1 inputs) on the model and on the RTL.
#pragma once
#include <string>
#include <vector>

#include "bench/coral_fidelity/model_runner.h"

namespace tlmcraft::bench {

// Every kernel under `dir`, named "<task>/<config>/<file>", of kind `kind`; sorted by name.
// Throws std::runtime_error naming the path for a directory that is not <task>/<config>.
// `dir` may also be an agent-bench --out directory (workspaces/s<k>/<task>_<platform>_<config>/
// v<NNN>.c): its versions are named "<task>/<config>/v<N>.c", identical texts once.
std::vector<FidelityCase> task_kernel_cases(const std::string& dir, const std::string& kind);

// The kind of task, for grouping errors: "gemm-like", "conv", "elementwise",
// "normalisation", "gemv" or "cpu".
std::string task_family(const std::string& task);

}  // namespace tlmcraft::bench
