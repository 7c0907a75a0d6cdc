// tlmcraft bench: a suite run over platforms x tasks x configs, each job evaluated by a
// worker process (`tlmcraft run ... --json`), results appended to a resumable JSONL file,
// the paper-style summary table at the end.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/cli/executor_options.h"
#include "harness/suite_runner.h"
#include "harness/summary.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace tlmcraft::cli {
namespace {

const char* kBenchHelp = R"(usage: tlmcraft bench [options]

Evaluates every selected platform x task x configuration, each job in its own worker
process (`tlmcraft run --platform P --task T --config C (--baseline | KERNEL) --json`),
--jobs at a time. A worker that crashes, prints garbage or exceeds --timeout only fails
its own job (status "crash" or "timeout" with the reason). Each result is appended to
the --out JSONL file as soon as it finishes and fsynced; run the same command again after
an interruption (Ctrl-C, a kill, a reboot) and only the missing jobs run. Cells a
platform does not support are recorded as "unsupported" without running anything.
Prints the summary table (per task: configs passed / run; per level; geometric-mean
speedup; fast_0, fast_1; pass@k with several kernel samples) when done.

Kernels (--kernels DIR), looked up per job in this order:
  DIR/<platform>/<task>/<config>.asm     e.g. kernels/plena/silu/C1.asm
  DIR/<task>_<config>.asm                e.g. kernels/silu_C1.asm (any platform)
Jobs without a kernel file are not run (listed as missing).

examples:
  tlmcraft bench                                   # every platform, task and config, baselines
  tlmcraft bench --platform plena --jobs 2         # the PLENA baseline suite
  tlmcraft bench --platform plena --task silu,gemm --config C1,C2
  tlmcraft bench --platform plena --level 1 --kernels my_kernels --out out/mine.jsonl
  tlmcraft bench --platform plena --set timing.mode=serial --out out/serial.jsonl --fresh
  tlmcraft bench --platform plena --json > summary.json
  tlmcraft bench --executor slurm --partition batch --time 30 --cpus-per-task 4   # on a cluster
  tlmcraft report out/bench-plena.jsonl -o report.html   # then the HTML report

exit codes: 0 every job ran and every supported job passed; 1 some job failed (wrong
output, assembly error, limit, crash, timeout) or kernels were missing; 2 usage or input
error; 130 interrupted, or Slurm shards still running or given up (results so far are
kept; rerun to resume)

options)";

// Repeatable options that also take comma lists: --task a,b --task c.
std::vector<std::string> split_lists(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) {
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

std::string self_exe() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "/proc/self/exe" : p.string();
}

fs::path nested_kernel_path(const std::string& dir, const std::string& platform, const std::string& task,
                            const std::string& config) {
  return (fs::path(dir) / platform / task / (config + ".asm")).lexically_normal();
}

// The kernel file of one job under DIR, or "" when there is none (see the help text).
std::string find_kernel(const std::string& dir, const std::string& platform, const std::string& task,
                        const std::string& config) {
  const fs::path nested = nested_kernel_path(dir, platform, task, config);
  const fs::path flat = (fs::path(dir) / (task + "_" + config + ".asm")).lexically_normal();
  std::error_code ec;
  if (fs::is_regular_file(nested, ec)) return nested.string();
  if (fs::is_regular_file(flat, ec)) return flat.string();
  return "";
}

nlohmann::json unsupported_record(const std::string& platform, const std::string& platform_config,
                                  const tasks::TaskSpec& task, const std::string& config, const std::string& kernel,
                                  const std::string& reason) {
  nlohmann::json r;
  r["schema"] = "tlmcraft.report/1";
  r["platform"] = platform;
  r["platform_config"] = platform_config;
  r["task"] = task.name;
  r["level"] = task.level;
  r["config"] = config;
  r["kernel"] = kernel == "baseline" ? nlohmann::json{{"path", "baseline:" + task.name + ":" + config}, {"source", "baseline"}}
                                     : nlohmann::json{{"path", kernel}, {"source", "file"}};
  r["status"] = "unsupported";
  r["reason"] = reason.empty() ? task.name + " is not supported on " + platform : reason;
  return r;
}

}  // namespace

int cmd_bench(const Args& args) {
  po::options_description opts(kBenchHelp);
  opts.add_options()
      ("help,h", "show this help")
      ("platform", po::value<std::vector<std::string>>()->composing(),
       "platform(s), repeatable or comma list (default: every known platform)")
      ("task", po::value<std::vector<std::string>>()->composing(), "task(s), repeatable or comma list (default: all)")
      ("config", po::value<std::vector<std::string>>()->composing(), "configuration(s) C1..C5 (default: all)")
      ("level", po::value<std::vector<std::string>>()->composing(), "only tasks of these levels (1, 2, 3, cpu)")
      ("baseline", po::bool_switch(), "evaluate the baseline kernels (the default)")
      ("kernels", po::value<std::string>(), "evaluate the kernels in DIR (naming: see above)")
      ("jobs,j", po::value<unsigned>()->default_value(0), "parallel workers (default: number of CPUs)")
      ("timeout", po::value<double>()->default_value(300), "seconds per job before its worker is killed (0: none)")
      ("out,o", po::value<std::string>(), "results JSONL (default: out/bench-<platform>.jsonl)")
      ("resume", po::bool_switch(), "keep results already in --out and run only the rest (the default)")
      ("fresh", po::bool_switch(), "discard --out's previous results first")
      ("platform-config", po::value<std::string>(), "platform config name or YAML file, passed to every worker")
      ("set", po::value<std::vector<std::string>>()->composing(), "KEY=VALUE platform-config override, passed on")
      ("trials", po::value<int>(), "trials per evaluation, passed on (default: run's default)")
      ("seed", po::value<uint64_t>(),
       "first trial's seed, passed on (default: 1 for the baselines, whose cycle tables are compared across runs; "
       "fresh from the OS for --kernels)")
      ("fast-p", po::value<std::string>()->default_value("0,1"), "comma list of p for fast_p in the summary")
      ("pass-k", po::value<std::string>()->default_value("1,5,10"), "comma list of k for pass@k in the summary")
      ("json", po::bool_switch(), "print the summary as JSON (stdout) instead of the table")
      ("quiet,q", po::bool_switch(), "no progress output");
  opts.add(executor_options());
  po::variables_map vm;
  if (!parse_or_help(args, opts, po::positional_options_description{}, vm)) return vm.count("help") ? 0 : 2;
  if (vm["fresh"].as<bool>() && vm["resume"].as<bool>()) throw InputError("--fresh and --resume exclude each other");
  if (vm["baseline"].as<bool>() && vm.count("kernels")) throw InputError("--baseline and --kernels exclude each other");
  const std::unique_ptr<harness::Executor> executor = make_executor(vm);
  const auto list = [&](const char* name) {
    return vm.count(name) ? split_lists(vm[name].as<std::vector<std::string>>()) : std::vector<std::string>{};
  };

  harness::SummaryOptions summary_options;
  try {
    summary_options = harness::parse_summary_options(vm["fast-p"].as<std::string>(), vm["pass-k"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  summary_options.task_order = tasks::benchmark_task_order();

  // Platforms: runnable ones (platform registry) that the task registry knows.
  const std::vector<std::string> known = platform_names();
  std::vector<std::string> platforms = list("platform");
  const bool all_platforms = platforms.empty();
  if (all_platforms) platforms = known;
  for (const auto& p : platforms) {
    if (std::find(known.begin(), known.end(), p) == known.end())
      throw InputError("unknown platform '" + p + "' (known: " + joined(known) + ")");
    if (!tasks::parse_platform(p)) throw InputError("platform '" + p + "' has no tasks in the task registry");
  }

  const tasks::Registry& registry = tasks::Registry::builtin();
  std::vector<const tasks::TaskSpec*> selected;
  const auto task_names = list("task");
  if (task_names.empty()) {
    for (const auto& t : registry.tasks()) selected.push_back(&t);
    // The CPU programs (Coral's scalar side) join every run that includes Coral.
    if (std::find(platforms.begin(), platforms.end(), "coral") != platforms.end())
      for (const auto& t : registry.cpu_tasks()) selected.push_back(&t);
  } else {
    for (const auto& name : task_names) {
      try {
        selected.push_back(&registry.task(name));
      } catch (const tasks::TaskError& e) {
        throw InputError(e.what());
      }
    }
  }
  const auto levels = list("level");
  if (!levels.empty()) {
    std::set<int> wanted;
    for (const auto& l : levels) {
      if (l == "cpu") {
        wanted.insert(0);
        continue;
      }
      if (l != "1" && l != "2" && l != "3") throw InputError("--level: '" + l + "' is not 1, 2, 3 or cpu");
      wanted.insert(std::stoi(l));
    }
    selected.erase(std::remove_if(selected.begin(), selected.end(),
                                  [&](const tasks::TaskSpec* t) { return !wanted.count(t->level); }),
                   selected.end());
  }
  if (selected.empty()) throw InputError("no task matches the selection");
  const std::vector<std::string> configs_asked = list("config");

  const bool use_kernels = vm.count("kernels") > 0;
  const std::string kernel_dir = use_kernels ? vm["kernels"].as<std::string>() : "";
  if (use_kernels) {
    std::error_code ec;
    if (!fs::is_directory(kernel_dir, ec)) throw InputError("--kernels: '" + kernel_dir + "' is not a directory");
  }

  std::vector<std::string> extra;
  const std::string platform_config =
      vm.count("platform-config") ? vm["platform-config"].as<std::string>() : std::string("default");
  if (vm.count("platform-config")) extra.insert(extra.end(), {"--platform-config", platform_config});
  for (const auto& s : vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{})
    extra.insert(extra.end(), {"--set", s});
  if (vm.count("trials")) extra.insert(extra.end(), {"--trials", std::to_string(vm["trials"].as<int>())});
  // Baselines are our own kernels, benchmarked to be compared across runs and platform
  // variants: fixed inputs by default. Kernels under test get fresh inputs unless fixed.
  if (vm.count("seed")) extra.insert(extra.end(), {"--seed", std::to_string(vm["seed"].as<uint64_t>())});
  else if (!use_kernels) extra.insert(extra.end(), {"--seed", "1"});

  // Jobs, in benchmark order; unsupported cells carry their known result.
  std::vector<harness::SuiteJob> jobs;
  std::vector<std::string> missing;
  for (const auto& platform : platforms) {
    const tasks::PlatformId pid = *tasks::parse_platform(platform);
    for (const tasks::TaskSpec* task : selected) {
      const tasks::PlatformSpec& ps = task->platform(pid);
      if (task->level == 0 && pid != tasks::PlatformId::Coral) continue;  // CPU programs exist only on Coral
      std::vector<std::string> configs = configs_asked;
      if (configs.empty()) {
        for (const auto& c : ps.configs) configs.push_back(c.name);
        if (configs.empty()) configs = {"C1", "C2", "C3", "C4", "C5"};
      }
      for (const auto& config : configs) {
        if (ps.supported && !ps.config(config)) {
          std::vector<std::string> names;
          for (const auto& c : ps.configs) names.push_back(c.name);
          throw InputError("unknown config '" + config + "' for " + task->name + " on " + platform + " (known: " +
                           joined(names) + ")");
        }
        harness::SuiteJob job;
        job.platform = platform;
        job.task = task->name;
        job.config = config;
        job.level = task->level;
        job.extra_args = extra;
        if (use_kernels) {
          job.kernel = find_kernel(kernel_dir, platform, task->name, config);
          if (job.kernel.empty()) {
            if (ps.supported) {
              missing.push_back(platform + "/" + task->name + "/" + config);
              continue;
            }
            // Unsupported cells are recorded anyway (grey in the report), under the nested name.
            job.kernel = nested_kernel_path(kernel_dir, platform, task->name, config).string();
          }
        }
        if (!ps.supported) {
          job.known_result = unsupported_record(platform, platform_config, *task, config, job.kernel, ps.reason);
        } else if (!use_kernels && !tasks::has_baseline(registry.instance(task->name, platform, config))) {
          if (all_platforms) continue;  // a platform whose baselines do not exist yet is left out
          job.known_result = unsupported_record(platform, platform_config, *task, config, job.kernel,
                                                "no baseline kernel on " + platform + " yet");
        }
        jobs.push_back(std::move(job));
      }
    }
  }

  std::string out = vm.count("out") ? vm["out"].as<std::string>() : "";
  if (out.empty())
    out = "out/bench-" + (all_platforms && platforms.size() > 1 ? std::string("all") : joined(platforms, "+")) + ".jsonl";

  const bool quiet = vm["quiet"].as<bool>();
  if (!missing.empty()) {
    std::cerr << "tlmcraft bench: " << missing.size() << " job(s) have no kernel file in '" << kernel_dir
              << "' and are not run";
    if (!quiet) {
      std::cerr << ": ";
      for (size_t i = 0; i < missing.size() && i < 5; ++i) std::cerr << (i ? ", " : "") << missing[i];
      if (missing.size() > 5) std::cerr << ", ...";
    }
    std::cerr << "\n";
  }
  if (jobs.empty()) throw InputError("nothing to run: no job matches the selection");

  harness::SuiteOptions so;
  so.out_path = out;
  so.jobs = vm["jobs"].as<unsigned>();
  so.timeout_seconds = vm["timeout"].as<double>();
  so.resume = !vm["fresh"].as<bool>();
  so.command = harness::tlmcraft_run_command(self_exe());
  so.progress = quiet ? harness::ProgressMode::Quiet : harness::ProgressMode::Auto;
  if (!quiet)
    std::cerr << "bench: " << jobs.size() << " jobs on " << joined(platforms) << ", " << executor->describe(so)
              << ", results in " << out << "\n";

  harness::SuiteOutcome outcome;
  try {
    outcome = executor->run(jobs, so);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  for (const auto& w : outcome.warnings) std::cerr << "tlmcraft bench: warning: " << w << "\n";
  if (!quiet && outcome.skipped)
    std::cerr << "bench: " << outcome.skipped << " result(s) were already in " << out << " (resumed)\n";
  size_t other_config = 0;
  for (const auto& r : outcome.results)
    if (r.contains("platform_config") && r["platform_config"].is_string() && r["platform_config"] != platform_config)
      ++other_config;
  if (other_config)
    std::cerr << "tlmcraft bench: warning: " << other_config << " result(s) in " << out
              << " come from another platform config than '" << platform_config
              << "'; use --fresh or another --out to compare configs\n";

  const harness::Summary summary = harness::summarize(outcome.results, summary_options);
  if (vm["json"].as<bool>()) std::cout << harness::summary_to_json(summary).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else std::cout << harness::summary_to_text(summary) << "results: " << out << "   (HTML: tlmcraft report " << out
                 << " -o report.html)\n";

  if (outcome.interrupted) {
    std::cerr << "tlmcraft bench: interrupted; " << outcome.skipped + outcome.ran << " of " << outcome.total
              << " results saved in " << out << ", run the same command again to resume\n";
    return 130;
  }
  return outcome.failed > 0 || !missing.empty() ? 1 : 0;
}

}  // namespace tlmcraft::cli
