// The local executor: today's worker pool on this host (run_suite), the default.
#pragma once
#include "harness/executor.h"

namespace tlmcraft::harness {

class LocalExecutor : public Executor {
 public:
  std::string describe(const SuiteOptions& options) const override;
  SuiteOutcome run(const std::vector<SuiteJob>& jobs, const SuiteOptions& options) override;
};

}  // namespace tlmcraft::harness
