// The Slurm executor: the jobs not yet in the results file become shards of a job array
// (sbatch); each array task runs `tlmcraft worker` on its shard, which evaluates the jobs
// with the local worker pool and appends fsynced results to its own file in the shared run
// directory (harness/slurm_shards.h). The driver follows the array with squeue, merges
// shard results into the one results file exactly once (by the same job key as local
// runs), resubmits shards that ended incomplete (failed, cancelled, timed out, preempted)
// up to max_retries times, and may exit at any moment: running it again (or --collect)
// merges what finished and resubmits what is missing.
#pragma once
#include <string>
#include <vector>

#include "harness/executor.h"

namespace tlmcraft::harness {

struct SlurmOptions {
  std::string run_dir;                 // shared directory; "" = <results file>.slurm
  size_t shard_size = 20;              // jobs per array task
  unsigned cpus_per_task = 1;          // also the worker pool size inside a task
  unsigned throttle = 0;               // array throttle %N (0: none)
  std::string partition, time, mem;    // sbatch --partition/--time/--mem ("" = site default)
  std::vector<std::string> sbatch_options;  // extra sbatch arguments, passed as they are
  std::string sbatch_template;         // site batch script header (#SBATCH lines, module loads)
  int max_retries = 2;                 // resubmissions of one shard per driver run
  double poll_seconds = 10;            // squeue interval
  bool detach = false;                 // submit, then return without following
  bool collect = false;                // merge and resubmit what is missing, then return
  std::string worker_exe;              // tlmcraft on the nodes; "" = this executable
  std::string job_name = "tlmcraft";
};

class SlurmExecutor : public Executor {
 public:
  explicit SlurmExecutor(SlurmOptions options) : options_(std::move(options)) {}
  std::string describe(const SuiteOptions& options) const override;
  SuiteOutcome run(const std::vector<SuiteJob>& jobs, const SuiteOptions& options) override;

 private:
  SlurmOptions options_;
};

}  // namespace tlmcraft::harness
