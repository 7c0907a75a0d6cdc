// The files a Slurm run shares between its driver and its array tasks, all under one run
// directory on a filesystem every node sees:
//   shards/0003.json      shard 3's jobs with their worker command lines (written by the driver)
//   results/0003.jsonl    shard 3's results, appended and fsynced by the array task (run_suite),
//                         each attempt starting with a header line naming the tlmcraft version
//   results/0003.refused  why an array task refused to run shard 3 (another tlmcraft version)
//   state.json            the driver's bookkeeping: Slurm job and attempts of every shard
//   logs/<array>_<task>.out, shard.sbatch
// The array task index is the shard number.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/suite_runner.h"

namespace tlmcraft::harness {

class SlurmRunDir {
 public:
  explicit SlurmRunDir(std::string root) : root_(std::move(root)) {}
  const std::string& root() const { return root_; }
  std::string spec(int shard) const;
  std::string results(int shard) const;
  std::string refusal(int shard) const;
  std::string results_dir() const { return root_ + "/results"; }
  std::string shards_dir() const { return root_ + "/shards"; }
  std::string logs_dir() const { return root_ + "/logs"; }
  std::string state() const { return root_ + "/state.json"; }
  std::string script() const { return root_ + "/shard.sbatch"; }
  // Creates the directories; throws std::runtime_error naming the one that failed.
  void create() const;

 private:
  std::string root_;
};

struct ShardJob {
  SuiteJob job;
  std::vector<std::string> argv;  // the worker command, fixed by the driver
};

struct ShardSpec {
  int shard = 0;
  std::string version;          // tlmcraft version of the driver that wrote it
  double timeout_seconds = 0;   // per job, as for local runs
  std::vector<ShardJob> jobs;
};

// Written atomically (temporary file + rename). Throws std::runtime_error on I/O errors.
void write_shard_spec(const std::string& path, const ShardSpec& spec);
// Throws std::runtime_error "PATH: CAUSE" for a missing, unreadable or malformed file.
ShardSpec read_shard_spec(const std::string& path);

// The line an array task writes at the top of each attempt's results.
nlohmann::json shard_header(int shard, const std::string& version, const std::string& slurm_job);

// One shard results file as the driver sees it. When a header names another tlmcraft
// version than `version` (or there is no header), `refused` says why and `records` is empty.
struct ShardResults {
  std::vector<nlohmann::json> records;  // result lines (torn last line dropped)
  std::string refused;
  std::vector<std::string> warnings;
};
ShardResults read_shard_results(const std::string& path, const std::string& version);

// Why the results already in `path` must not be resumed by `version`, or "" when they may.
std::string foreign_results_reason(const std::string& path, const std::string& version);

// The shard number of "results/0003.jsonl" (any *.jsonl: copies such as "0003.copy.jsonl"
// are merged too and deduplicated by key); -1 when the name does not start with digits.
int shard_of_file(const std::string& path);

// Driver bookkeeping per shard, kept in state.json across driver runs.
struct ShardState {
  std::string slurm_job;    // "<array job id>_<shard>" of the latest submission, "" if none
  int attempts = 0;         // submissions by the current driver run
  std::string last_state;   // last Slurm state seen (COMPLETED, TIMEOUT, CANCELLED, ...)
};
std::map<int, ShardState> read_shard_states(const std::string& path);  // {} when absent
void write_shard_states(const std::string& path, const std::map<int, ShardState>& states);

}  // namespace tlmcraft::harness
