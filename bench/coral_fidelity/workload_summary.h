// What the fidelity of task kernels means for a search: per workload (task x config), the
// speedup of the model's best version over the baseline on the model against the same
// kernel's speedup on the RTL, and whether the model's best is the RTL's best.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bench/coral_fidelity/fidelity_stats.h"

namespace tlmcraft::bench {

struct WorkloadSummary {
  std::string workload;  // "<task>/<config>"
  size_t versions = 0;
  std::string model_best;                     // the version the agent submits: fewest model cycles, earliest on ties
  double model_speedup = 0, rtl_speedup = 0;  // of model_best over the baseline
  bool same_best = false;                     // model_best has the RTL's fewest cycles too
  double rtl_best_gain = 0;                   // how much faster the RTL's best is than model_best on the RTL
};

// The agent numbers its versions in the order it evaluates them: "<task>/<config>/v12.c" is 12.
// A name without a number sorts after every numbered one.
uint64_t version_number(const std::string& name);

// `results` without the task kernels (kind `kernel_kind`) that are the same program as an
// earlier version of their workload (equal nonzero CaseResult::program: the same image and
// inputs, so the same cycles on both simulators): different texts that compile alike count once.
std::vector<CaseResult> distinct_versions(const std::vector<CaseResult>& results, const std::string& kernel_kind);

// `results` holds the task kernels (named "<task>/<config>/<version>", of kind
// `kernel_kind`) and the baselines ("<task>/<config>"); workloads without a baseline result
// are left out.
std::vector<WorkloadSummary> summarise_workloads(const std::vector<CaseResult>& results,
                                                 const std::string& kernel_kind);

// The task kernels' results regrouped by task ("<task>") and by kind of task (family).
std::vector<CaseResult> by_task(const std::vector<CaseResult>& results, const std::string& kernel_kind);
std::vector<CaseResult> by_family(const std::vector<CaseResult>& results, const std::string& kernel_kind);

}  // namespace tlmcraft::bench
