// The AIE-ML baseline tests' shared driver: evaluate() of a task's baseline (or of given
// kernel text) on a fresh default aie_ml platform (with config overrides), and a one-line
// account of a report.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/evaluate.h"
#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft::test {

inline nlohmann::json evaluate_aie_ml(const std::string& task, const std::string& config, int trials,
                                      const std::string& kernel = "", uint64_t seed = 1,
                                      const std::vector<std::string>& overrides = {}) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto platform = make_platform("aie_ml", "default", overrides);
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.platform = "aie_ml";
  o.task = task;
  o.config = config;
  o.use_baseline = kernel.empty();
  o.kernel_source = kernel;
  o.trials = trials;
  o.seed = seed;  // a fixed input set: the test must not depend on the OS seed
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

// "status: reason", plus the assembler's diagnostics when there are any.
inline std::string describe_report(const nlohmann::json& r) {
  std::string s = r.value("status", std::string("?")) + ": " + r.value("reason", std::string());
  if (r.contains("assemble") && !r["assemble"]["diagnostics"].empty()) s += "\n" + r["assemble"]["diagnostics"].dump(1);
  return s;
}

// The baseline kernel file of (task, config) on aie_ml: for the default platform (the
// exposed pipeline: with its waits), or for `platform_config` (e.g. the interlocked mode's
// {"compute": {"pipeline": "interlocked"}}: without).
inline std::string aie_ml_baseline(const std::string& task, const std::string& config,
                                   const nlohmann::json& platform_config = nlohmann::json::object()) {
  const auto inst = tasks::Registry::builtin().instance(task, "aie_ml", config);
  return tasks::baseline_kernel(inst, platform_config);
}

// The kernel with the waits the default platform configuration's exposed pipeline needs,
// timed by its read stages (compute.acc_read_cycles), as the baseline generator adds them.
inline std::string with_default_waits(const std::string& kernel) {
  return isa::aie_ml::insert_waits(kernel, aie_ml::read_stages(aie_ml::load_aie_config("default")));
}

// The interlocked mode as the baseline generator sees it.
inline const nlohmann::json kAieInterlockedConfig{{"compute", {{"pipeline", "interlocked"}}}};

}  // namespace tlmcraft::test
