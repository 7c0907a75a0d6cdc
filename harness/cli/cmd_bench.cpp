// tlmcraft bench: a suite run over platforms x tasks x configs, each job evaluated by a
// worker process (`tlmcraft run ... --json`), results appended to a resumable JSONL file,
// the paper-style summary table at the end.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/cli/executor_options.h"
#include "harness/cli/job_selection.h"
#include "harness/cli/resume_notice.h"
#include "harness/provenance.h"
#include "harness/suite_runner.h"
#include "harness/summary.h"
#include "harness/variant_uses.h"
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
an interruption (Ctrl-C, a kill, a reboot) and only the missing jobs run. The variant
(--platform-config content, --set overrides, ISA files) is part of each job's identity:
results of another variant in the same file are kept but never reused, and bench says
what it resumes. To run several variants at once use `tlmcraft sweep`. Cells a
platform does not support are recorded as "unsupported" without running anything.
Prints the summary table (per task: configs passed / run; per level; geometric-mean
speedup; fast_0, fast_1; pass@k with several kernel samples) when done.

Kernels (--kernels DIR), looked up per job in this order:
  DIR/<platform>/<task>/<config>.asm     e.g. kernels/plena/silu/C1.asm
  DIR/<task>_<config>.asm                e.g. kernels/silu_C1.asm (any platform)
  the same two names ending in .c        a kernel in C (a platform that compiles C)
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
      ("isa-dir", po::value<std::string>(), "ISA descriptions from DIR (as TLMCRAFT_ISA_DIR), passed on")
      ("isa-ext", po::value<std::vector<std::string>>()->composing(),
       "FILE: an ISA overlay (repeatable, in order; docs/isa-extensions.md), passed on")
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

  JobSelection selection;
  selection.platforms = list("platform");
  selection.tasks = list("task");
  selection.configs = list("config");
  selection.levels = list("level");
  if (vm.count("kernels")) selection.kernel_dir = vm["kernels"].as<std::string>();
  harness::VariantSpec variant;
  if (vm.count("platform-config")) variant.platform_config = vm["platform-config"].as<std::string>();
  if (vm.count("set")) variant.overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("isa-dir")) variant.isa_dir = vm["isa-dir"].as<std::string>();
  else if (const char* d = std::getenv("TLMCRAFT_ISA_DIR")) variant.isa_dir = d;
  if (vm.count("isa-ext")) variant.isa_ext = vm["isa-ext"].as<std::vector<std::string>>();
  selection.platform_config = variant.platform_config;
  SelectedJobs selected = select_jobs(selection);
  const std::vector<std::string>& platforms = selected.platforms;
  const bool all_platforms = selected.all_platforms;
  const std::vector<std::string>& missing = selected.missing;
  const std::string& kernel_dir = selection.kernel_dir;
  std::vector<std::string> extra;
  if (vm.count("trials")) extra.insert(extra.end(), {"--trials", std::to_string(vm["trials"].as<int>())});
  // Baselines are our own kernels, benchmarked to be compared across runs and platform
  // variants: fixed inputs by default. Kernels under test get fresh inputs unless fixed.
  if (vm.count("seed")) extra.insert(extra.end(), {"--seed", std::to_string(vm["seed"].as<uint64_t>())});
  else if (selection.kernel_dir.empty()) extra.insert(extra.end(), {"--seed", "1"});

  std::vector<harness::SuiteJob> jobs = with_variant(selected.jobs, variant, extra);

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

  if (so.resume) print_resume_notice(std::cerr, "bench", out, jobs);
  harness::SuiteOutcome outcome;
  try {
    outcome = executor->run(jobs, so);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  for (const auto& w : outcome.warnings) std::cerr << "tlmcraft bench: warning: " << w << "\n";
  const harness::Summary summary = harness::summarize(outcome.results, summary_options);
  // What each instruction the ISA variant adds did over the suite (none: no such lines).
  const nlohmann::json uses = harness::suite_variant_uses(outcome.results);
  if (vm["json"].as<bool>()) {
    nlohmann::json j = harness::summary_to_json(summary);
    if (!uses.empty()) j["isa_variant_uses"] = uses;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << harness::summary_to_text(summary) << harness::variant_uses_text(uses, "") << "results: " << out
              << "   (HTML: tlmcraft report " << out << " -o report.html)\n";
  }

  if (outcome.interrupted) {
    std::cerr << "tlmcraft bench: interrupted; " << outcome.skipped + outcome.ran << " of " << outcome.total
              << " results saved in " << out << ", run the same command again to resume\n";
    return 130;
  }
  return outcome.failed > 0 || !missing.empty() ? 1 : 0;
}

}  // namespace tlmcraft::cli
