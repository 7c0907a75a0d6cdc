#include "harness/cli/executor_options.h"

#include <filesystem>

#include "harness/cli/cli_util.h"
#include "harness/local_executor.h"
#include "harness/slurm_executor.h"

namespace tlmcraft::cli {

namespace po = boost::program_options;

namespace {

const char* const kSlurmOnly[] = {"partition", "time", "mem", "cpus-per-task", "array-throttle", "sbatch-option",
                                  "sbatch-template", "shard-size", "max-retries", "slurm-dir", "poll", "detach",
                                  "collect"};

}  // namespace

po::options_description executor_options() {
  po::options_description opts("executor (where the jobs run; docs/suite.md \"Running on a cluster\")");
  opts.add_options()
      ("executor", po::value<std::string>()->default_value("local"),
       "local: worker processes on this host; slurm: a Slurm job array of shards")
      ("partition", po::value<std::string>(), "slurm: sbatch --partition")
      ("time", po::value<std::string>(), "slurm: sbatch --time per shard, e.g. 30 or 1:00:00")
      ("mem", po::value<std::string>(), "slurm: sbatch --mem per shard, e.g. 2G")
      ("cpus-per-task", po::value<unsigned>(), "slurm: CPUs (and parallel workers) per shard (default 1)")
      ("array-throttle", po::value<unsigned>(), "slurm: at most N shards at once (--array=...%N)")
      ("sbatch-option", po::value<std::vector<std::string>>()->composing(),
       "slurm: extra sbatch argument, repeatable, e.g. --sbatch-option=--account=hw")
      ("sbatch-template", po::value<std::string>(), "slurm: site batch script header (#SBATCH lines, module loads)")
      ("shard-size", po::value<size_t>(), "slurm: jobs per shard (default 20)")
      ("max-retries", po::value<int>(), "slurm: resubmissions of a failed/timed-out/preempted shard (default 2)")
      ("slurm-dir", po::value<std::string>(), "slurm: shared run directory (default: <results file>.slurm)")
      ("poll", po::value<double>(), "slurm: seconds between squeue polls (default 10)")
      ("detach", po::bool_switch(), "slurm: submit and exit; rerun the command (or --collect) later")
      ("collect", po::bool_switch(), "slurm: merge finished shards, resubmit missing ones, exit without waiting");
  return opts;
}

std::unique_ptr<harness::Executor> make_executor(const po::variables_map& vm) {
  const std::string kind = vm["executor"].as<std::string>();
  const auto given = [&](const char* name) {
    if (!vm.count(name)) return false;
    const auto* flag = boost::any_cast<bool>(&vm[name].value());
    return !flag || *flag;
  };
  if (kind == "local") {
    for (const char* name : kSlurmOnly)
      if (given(name)) throw InputError(std::string("--") + name + " needs --executor slurm");
    return std::make_unique<harness::LocalExecutor>();
  }
  if (kind != "slurm") throw InputError("--executor: '" + kind + "' is not local or slurm");
  harness::SlurmOptions s;
  if (vm.count("partition")) s.partition = vm["partition"].as<std::string>();
  if (vm.count("time")) s.time = vm["time"].as<std::string>();
  if (vm.count("mem")) s.mem = vm["mem"].as<std::string>();
  if (vm.count("cpus-per-task")) s.cpus_per_task = vm["cpus-per-task"].as<unsigned>();
  if (vm.count("array-throttle")) s.throttle = vm["array-throttle"].as<unsigned>();
  if (vm.count("sbatch-option")) s.sbatch_options = vm["sbatch-option"].as<std::vector<std::string>>();
  if (vm.count("sbatch-template")) {
    s.sbatch_template = vm["sbatch-template"].as<std::string>();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(s.sbatch_template, ec))
      throw InputError("--sbatch-template: '" + s.sbatch_template + "' is not a readable file");
  }
  if (vm.count("shard-size")) s.shard_size = vm["shard-size"].as<size_t>();
  if (vm.count("max-retries")) s.max_retries = vm["max-retries"].as<int>();
  if (vm.count("slurm-dir")) s.run_dir = vm["slurm-dir"].as<std::string>();
  if (vm.count("poll")) s.poll_seconds = vm["poll"].as<double>();
  s.detach = vm["detach"].as<bool>();
  s.collect = vm["collect"].as<bool>();
  if (s.shard_size == 0) throw InputError("--shard-size must be at least 1");
  if (s.cpus_per_task == 0) throw InputError("--cpus-per-task must be at least 1");
  if (s.max_retries < 0) throw InputError("--max-retries must not be negative");
  if (!(s.poll_seconds > 0)) throw InputError("--poll must be positive");
  if (s.detach && s.collect) throw InputError("--detach and --collect exclude each other");
  return std::make_unique<harness::SlurmExecutor>(std::move(s));
}

}  // namespace tlmcraft::cli
