// Where a suite's jobs run. `bench`, `agent-bench` and `sweep` build their job list and
// worker command, then hand both to an executor: the local one (a worker pool on this
// host, harness/local_executor.h) or the Slurm one (array jobs, harness/slurm_executor.h).
// Every executor keeps the same contract as run_suite (suite_runner.h): one results
// JSONL file, one fsynced line per job, exactly once, resumable by the job key.
#pragma once
#include <string>
#include <vector>

#include "harness/suite_runner.h"

namespace tlmcraft::harness {

class Executor {
 public:
  virtual ~Executor() = default;
  // One line for the command's banner, e.g. "4 workers" or "Slurm, shards of 20 jobs".
  virtual std::string describe(const SuiteOptions& options) const = 0;
  // Runs (or collects) the jobs not yet in options.out_path. Throws std::runtime_error
  // for bad options or an unusable output file, like run_suite.
  virtual SuiteOutcome run(const std::vector<SuiteJob>& jobs, const SuiteOptions& options) = 0;
};

}  // namespace tlmcraft::harness
