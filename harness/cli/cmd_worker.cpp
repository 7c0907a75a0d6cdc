// tlmcraft worker: what one Slurm array task runs (internal; the Slurm executor writes the
// batch script). Evaluates the jobs of one shard with the local worker pool, appending
// fsynced results to the shard's results file, which it resumes if an earlier attempt was
// cancelled, timed out or preempted. A shard planned by another tlmcraft version, or whose
// results file holds another version's results, is refused with the reason.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/slurm_shards.h"
#include "harness/suite_runner.h"
#include "harness/version.h"

namespace po = boost::program_options;

namespace tlmcraft::cli {
namespace {

const char* kWorkerHelp = R"(usage: tlmcraft worker --run-dir DIR --shard N [--jobs J]

Internal: runs shard N of a Slurm run (DIR/shards/NNNN.json) and appends its results to
DIR/results/NNNN.jsonl. The Slurm executor of bench, agent-bench and sweep submits it as
the batch script of each array task; see docs/suite.md "Running on a cluster".

exit codes: 0 every job of the shard has a result; 2 refused (another tlmcraft version)
or bad input; 130 interrupted (scancel, time limit): the next attempt resumes

options)";

std::string slurm_job_name() {
  const char* array = std::getenv("SLURM_ARRAY_JOB_ID");
  const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
  if (array && task) return std::string(array) + "_" + task;
  const char* job = std::getenv("SLURM_JOB_ID");
  return job ? job : "none";
}

unsigned default_jobs() {
  const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
  if (cpus && std::atoi(cpus) > 0) return unsigned(std::atoi(cpus));
  return harness::usable_cpus();
}

int refuse(const harness::SlurmRunDir& dir, int shard, const std::string& reason) {
  std::ofstream(dir.refusal(shard), std::ios::trunc) << reason << "\n";
  std::cerr << "tlmcraft worker: refused: " << reason << "\n";
  return 2;
}

}  // namespace

int cmd_worker(const Args& args) {
  po::options_description opts(kWorkerHelp);
  opts.add_options()
      ("help,h", "show this help")
      ("run-dir", po::value<std::string>(), "the Slurm run directory")
      ("shard", po::value<int>(), "shard number (the array task id)")
      ("jobs,j", po::value<unsigned>(), "parallel workers (default: $SLURM_CPUS_PER_TASK or the CPUs)");
  po::variables_map vm;
  if (!parse_or_help(args, opts, po::positional_options_description{}, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("run-dir") || !vm.count("shard")) throw InputError("--run-dir and --shard are required");
  const harness::SlurmRunDir dir(vm["run-dir"].as<std::string>());
  const int shard = vm["shard"].as<int>();

  harness::ShardSpec spec;
  try {
    spec = harness::read_shard_spec(dir.spec(shard));
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  const std::string& version = harness::tlmcraft_version();
  if (spec.version != version)
    return refuse(dir, shard, dir.spec(shard) + " was planned by tlmcraft " + spec.version +
                                  " but this worker is tlmcraft " + version + " (install the same build on every node)");
  const std::string foreign = harness::foreign_results_reason(dir.results(shard), version);
  if (!foreign.empty()) return refuse(dir, shard, foreign);

  std::map<std::string, std::vector<std::string>> argv_of;
  std::vector<harness::SuiteJob> jobs;
  for (const auto& j : spec.jobs) {
    argv_of[harness::job_key(j.job)] = j.argv;
    jobs.push_back(j.job);
  }
  harness::SuiteOptions so;
  so.out_path = dir.results(shard);
  so.jobs = vm.count("jobs") ? vm["jobs"].as<unsigned>() : default_jobs();
  so.timeout_seconds = spec.timeout_seconds;
  so.command = [&](const harness::SuiteJob& job) { return argv_of.at(harness::job_key(job)); };
  so.progress = harness::ProgressMode::Lines;
  so.progress_interval_seconds = 30;
  so.lock_wait_seconds = 60;  // an earlier attempt of this shard may still be dying
  so.header = harness::shard_header(shard, version, slurm_job_name());
  std::cerr << "tlmcraft worker: shard " << shard << ", " << jobs.size() << " jobs, " << so.jobs << " workers, Slurm job "
            << slurm_job_name() << ", tlmcraft " << version << "\n";
  harness::SuiteOutcome outcome;
  try {
    outcome = harness::run_suite(jobs, so);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  for (const auto& w : outcome.warnings) std::cerr << "tlmcraft worker: warning: " << w << "\n";
  return outcome.interrupted ? 130 : 0;
}

namespace {
const bool registered = register_command("worker", cmd_worker, "(internal) run one shard of a Slurm job array");
}

}  // namespace tlmcraft::cli
