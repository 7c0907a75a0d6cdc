#include "harness/local_executor.h"

namespace tlmcraft::harness {

std::string LocalExecutor::describe(const SuiteOptions& options) const {
  return std::to_string(options.jobs ? options.jobs : usable_cpus()) + " workers";
}

SuiteOutcome LocalExecutor::run(const std::vector<SuiteJob>& jobs, const SuiteOptions& options) {
  return run_suite(jobs, options);
}

}  // namespace tlmcraft::harness
