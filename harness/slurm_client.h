// The Slurm commands the driver uses: sbatch to submit a job array, squeue (and sacct
// when accounting exists) to learn the state of each array task.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace tlmcraft::harness {

struct CommandResult {
  int exit_code = -1;  // -1: could not be started or killed by a signal
  std::string out, err;
};
// Runs argv (argv[0] searched in PATH) and captures stdout and stderr.
CommandResult run_command(const std::vector<std::string>& argv);

struct SbatchRequest {
  std::string script;                   // batch script path
  std::vector<int> tasks;               // array task ids (= shard numbers)
  unsigned throttle = 0;                // %N: at most N tasks at once (0 = no limit)
  std::string job_name, output_pattern, workdir;
  std::string partition, time, mem;     // empty: the site's default
  unsigned cpus_per_task = 1;
  std::vector<std::string> extra;       // passed to sbatch as they are
};
// The sbatch command line for a request.
std::vector<std::string> sbatch_argv(const SbatchRequest& request);
// Submits; returns the array job id. Throws std::runtime_error with sbatch's message.
std::string submit_array(const SbatchRequest& request);

// "1,3,5-7" from {1,3,5,6,7}.
std::string array_ranges(std::vector<int> tasks);

// State of array tasks ("<array id>_<task>" -> "RUNNING", "TIMEOUT", ...), from one squeue
// call over the user's jobs; tasks Slurm no longer knows are absent. ok=false with the
// error when squeue failed (states are then unknown, not dead).
struct QueueSnapshot {
  bool ok = false;
  std::string error;
  std::map<std::string, std::string> states;
  std::map<std::string, std::string> reasons;
};
QueueSnapshot query_queue(const std::vector<std::string>& array_ids);

// The final state sacct records for a job, or "" without accounting.
std::string accounting_state(const std::string& slurm_job);

// Whether a Slurm state means the array task will not run again (COMPLETED, FAILED,
// CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL, OUT_OF_MEMORY, ...).
bool is_final_state(const std::string& state);

}  // namespace tlmcraft::harness
