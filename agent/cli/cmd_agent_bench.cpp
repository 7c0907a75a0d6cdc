// tlmcraft agent-bench: agent runs over many workloads, each one `tlmcraft agent ...
// --json` worker process (harness/suite_runner: parallel, isolated, resumable JSONL),
// then the bench summary (n/5, pass@k, fast_p, geometric-mean speedup) and the agent
// metrics (rounds to the first correct kernel, tokens).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <boost/program_options.hpp>

#include "agent/bench_metrics.h"
#include "agent/cli/llm_options.h"
#include "agent/cost_estimate.h"
#include "agent/system_prompt.h"
#include "agent/toolbox.h"
#include "agent/tool_text.h"
#include "agent/workspace.h"
#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/cli/executor_options.h"
#include "harness/cli/job_selection.h"
#include "harness/isa_variant_check.h"
#include "harness/provenance.h"
#include "harness/suite_runner.h"
#include "harness/summary.h"
#include "harness/variant_uses.h"
#include "platforms/registry.h"
#include "tasks/registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace tlmcraft::cli {
namespace {

using nlohmann::json;

const char* kAgentBenchHelp = R"(usage: tlmcraft agent-bench --platform P --out DIR [options]

Runs `tlmcraft agent` on every selected task x configuration (x --samples), each run in
its own worker process, --jobs at a time. Results go to DIR/results.jsonl (one report
line per run with an "agent" object; `tlmcraft report DIR/results.jsonl -o report.html`
reads it), transcripts to DIR/transcripts/, kernel versions to DIR/workspaces/s<k>/.
Interrupted? Run the same command again: finished runs are kept, unfinished ones resume
from their transcripts. Prints per task the configurations solved (n/5), pass@k over the
samples (unbiased estimator), fast_p, the geometric-mean speedup, the mean number of
rounds to the first correct kernel and the tokens; writes DIR/summary.json.

Provider options (--provider, --model, --base-url, --budget, --thinking, --extra-body,
...) are passed to every run; API keys come from the environment (OPENAI_API_KEY,
ANTHROPIC_API_KEY). --requests-per-minute / --tokens-per-minute are one budget shared by
all workers (state in DIR/ratelimit.json). --dry-run prints the runs' estimated tokens and
cost (price table) and runs nothing.

examples:
  tlmcraft agent-bench --platform plena --tasks silu,relu,softmax --configs C1,C2 --out out/agent-bench
  tlmcraft agent-bench --platform plena --level 1 --jobs 2 --out out/search-l1
  tlmcraft agent-bench --platform plena --tasks gemm --samples 5 --provider openai --model gpt-5.2 --out out/gpt
  tlmcraft agent-bench --platform plena --level 1 --out out/l1 --executor slurm --time 2:00:00 --shard-size 5
  tlmcraft report out/agent-bench/results.jsonl -o out/agent-bench/report.html
  tlmcraft agent-bench --platform plena --level 3 --samples 3 --provider anthropic --model claude-sonnet-4-5 \
      --thinking adaptive --requests-per-minute 50 --jobs 4 --out out/claude --dry-run

exit codes: 0 every supported workload was solved (by at least one sample); 1 some was
not; 2 usage or input error; 130 interrupted, or Slurm shards still running or given up
(rerun to resume)

options)";

// Job kernel names "agent:s1".."agent:sK": one JSONL identity per sample.
int sample_of(const std::string& kernel) {
  const auto p = kernel.rfind(":s");
  return p == std::string::npos ? 1 : std::atoi(kernel.c_str() + p + 2);
}

// Prints (or with --json writes) each workload's estimated tokens and cost and the total.
int dry_run(const po::variables_map& vm, const std::vector<harness::SuiteJob>& jobs, const std::string& platform_config) {
  const std::optional<agent::PriceTable> prices = load_price_table(vm);
  const std::string model = vm.count("model") ? vm["model"].as<std::string>() : "";
  const std::optional<agent::ModelPrice> price = prices && !model.empty() ? prices->find(model) : std::nullopt;
  const bool cache = !vm.count("prompt-cache") || vm["prompt-cache"].as<std::string>() == "on";
  const std::vector<std::string> overrides =
      vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
  // Tool schemas are sent with every request; measure them once on a scratch workspace.
  uint64_t tool_tokens = 0;
  if (!jobs.empty()) {
    const fs::path scratch = fs::temp_directory_path() / ("tlmcraft-dry-run-" + std::to_string(::getpid()));
    agent::ToolboxOptions to;
    to.workspace_dir = scratch.string();
    to.workload = {jobs[0].platform, jobs[0].task, jobs[0].config};
    for (const auto& t : agent::make_toolbox(to)->specs())
      tool_tokens += agent::estimate_tokens(t.name + t.description + t.parameters.dump());
    std::error_code ec;
    fs::remove_all(scratch, ec);
  }
  json runs = json::array();
  agent::Usage total;
  for (const auto& j : jobs) {
    if (j.known_result) continue;  // unsupported: never run
    const int rounds = vm.count("budget") && vm["budget"].as<int>() > 0 ? vm["budget"].as<int>()
                                                                         : agent::default_budget(j.level);
    agent::PromptOptions po{{j.platform, j.task, j.config}, platform_config, overrides, rounds};
    agent::RunEstimateInput in;
    in.prompt_tokens = agent::build_system_prompt(po).tokens() + tool_tokens + 60;  // 60: the first user message
    in.rounds = rounds;
    in.output_per_round = uint64_t(vm["estimate-output-tokens"].as<double>());
    in.results_per_round = uint64_t(vm["estimate-result-tokens"].as<double>());
    in.context_tokens = context_budget(vm, price);
    in.prompt_cache = cache;
    const agent::Usage u = agent::estimate_run_usage(in);
    total += u;
    json run = {{"platform", j.platform}, {"task", j.task}, {"config", j.config}, {"sample", j.kernel},
                {"prompt_tokens", in.prompt_tokens}, {"rounds", rounds}, {"usage", u.to_json()}};
    run["cost_usd"] = price ? json(agent::cost_usd(u, *price)) : json();
    runs.push_back(run);
  }
  json out = {{"schema", "tlmcraft.agent_estimate/1"}, {"model", model}, {"price", price ? json(price->key) : json()},
              {"prompt_cache", cache}, {"runs", runs}, {"total", total.to_json()},
              {"cost_usd", price ? json(agent::cost_usd(total, *price)) : json()}};
  if (vm["json"].as<bool>()) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << "dry run: " << runs.size() << " runs (nothing sent)\n";
  for (const auto& r : runs)
    std::cout << "  " << r["platform"].get<std::string>() << "/" << r["task"].get<std::string>() << "/"
              << r["config"].get<std::string>() << " " << r["sample"].get<std::string>() << ": " << r["rounds"].get<int>()
              << " rounds, prompt " << r["prompt_tokens"].get<uint64_t>() << ", input "
              << r["usage"]["input_tokens"].get<uint64_t>() << " (" << r["usage"]["cached_input_tokens"].get<uint64_t>()
              << " cached), output " << r["usage"]["output_tokens"].get<uint64_t>()
              << (r["cost_usd"].is_number() ? ", $" + agent::fixed(r["cost_usd"].get<double>(), 4) : std::string())
              << "\n";
  std::cout << "total: input " << total.input_tokens << " (" << total.cached_input_tokens << " cached, "
            << total.cache_write_tokens << " cache writes), output " << total.output_tokens << "; cost "
            << (price ? "$" + agent::fixed(agent::cost_usd(total, *price), 2) + " at " + price->key + " prices"
                      : std::string("unknown (") + (model.empty() ? "no --model" : "no price for " + model) + ")")
            << "\n";
  return 0;
}

}  // namespace

int cmd_agent_bench(const Args& args) {
  po::options_description opts(kAgentBenchHelp);
  opts.add_options()
      ("help,h", "show this help")
      ("platform,p", po::value<std::vector<std::string>>()->composing(), "platform(s), repeatable or comma list")
      ("tasks", po::value<std::vector<std::string>>()->composing(), "tasks, comma list (default: all)")
      ("configs", po::value<std::vector<std::string>>()->composing(), "configurations, comma list (default: all)")
      ("level", po::value<std::vector<std::string>>()->composing(), "only tasks of these levels (1, 2, 3, cpu)")
      ("samples,k", po::value<int>()->default_value(1), "agent runs per workload (pass@k)")
      ("jobs,j", po::value<unsigned>()->default_value(0), "parallel runs (default: number of CPUs)")
      ("timeout", po::value<double>()->default_value(3600), "seconds per run before its worker is killed (0: none)")
      ("out,o", po::value<std::string>(), "output directory (required)")
      ("fresh", po::bool_switch(), "discard DIR's previous results, transcripts and workspaces first")
      ("provider", po::value<std::string>(), "passed on: openai, openai-responses, anthropic, replay, search")
      ("model", po::value<std::string>(), "passed on")
      ("base-url", po::value<std::string>(), "passed on")
      ("budget", po::value<int>(), "passed on: rounds per run (default 15/20/25 by level)")
      ("max-tokens", po::value<int>(), "passed on")
      ("temperature", po::value<double>(), "passed on")
      ("platform-config", po::value<std::string>(), "passed on")
      ("set", po::value<std::vector<std::string>>()->composing(), "passed on: KEY=VALUE platform-config override")
      ("isa-dir", po::value<std::string>(), "passed on: ISA descriptions from DIR (an edited copy of isa/)")
      ("isa-ext", po::value<std::vector<std::string>>()->composing(),
       "passed on: FILE, an ISA overlay (repeatable, in order; docs/isa-extensions.md)")
      ("trials", po::value<int>(), "passed on: trials per evaluation")
      ("seed", po::value<uint64_t>()->default_value(1), "sample k runs with seed + k - 1")
      ("fast-p", po::value<std::string>()->default_value("0,1"), "comma list of p for fast_p")
      ("pass-k", po::value<std::string>(), "comma list of k for pass@k (default: 1 and --samples)")
      ("json", po::bool_switch(), "print {summary, agent} as JSON instead of the tables")
      ("quiet,q", po::bool_switch(), "no progress output")
      ("dry-run", po::bool_switch(), "estimate the campaign's tokens and cost; run nothing")
      ("estimate-output-tokens", po::value<double>()->default_value(1500), "--dry-run: model output per round")
      ("estimate-result-tokens", po::value<double>()->default_value(500), "--dry-run: tool results per round");
  opts.add(executor_options());
  opts.add(llm_options());
  po::variables_map vm;
  if (!parse_or_help(args, opts, po::positional_options_description{}, vm)) return vm.count("help") ? 0 : 2;
  const auto list = [&](const char* name) {
    return vm.count(name) ? split_lists(vm[name].as<std::vector<std::string>>()) : std::vector<std::string>{};
  };
  if (!vm.count("out")) throw InputError("--out DIR is required (see tlmcraft agent-bench --help)");
  const std::unique_ptr<harness::Executor> executor = make_executor(vm);
  const std::string out = vm["out"].as<std::string>();
  const int samples = vm["samples"].as<int>();
  if (samples < 1) throw InputError("--samples must be at least 1");

  harness::SummaryOptions summary_options;
  std::string pass_k = vm.count("pass-k") ? vm["pass-k"].as<std::string>()
                                          : (samples > 1 ? "1," + std::to_string(samples) : std::string("1"));
  try {
    summary_options = harness::parse_summary_options(vm["fast-p"].as<std::string>(), pass_k);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  summary_options.task_order = tasks::benchmark_task_order();

  const auto known = platform_names();
  std::vector<std::string> platforms = list("platform");
  if (platforms.empty()) throw InputError("--platform is required (known: " + [&] {
      std::string s;
      for (const auto& k : known) s += (s.empty() ? "" : ", ") + k;
      return s;
    }() + ")");
  for (const auto& p : platforms) {
    if (std::find(known.begin(), known.end(), p) == known.end()) throw InputError("unknown platform '" + p + "'");
    if (!tasks::parse_platform(p)) throw InputError("platform '" + p + "' has no tasks in the task registry");
  }
  // The ML tasks, plus the CPU programs where a platform runs them (as `tlmcraft bench`).
  const std::vector<const tasks::TaskSpec*> selected = select_tasks(list("tasks"), list("level"), platforms);
  const auto configs_asked = list("configs");


  // Arguments every run gets.
  std::vector<std::string> extra;
  for (const char* name : {"provider", "model", "base-url", "platform-config"})
    if (vm.count(name)) extra.insert(extra.end(), {std::string("--") + name, vm[name].as<std::string>()});
  if (vm.count("budget")) extra.insert(extra.end(), {"--budget", std::to_string(vm["budget"].as<int>())});
  if (vm.count("max-tokens")) extra.insert(extra.end(), {"--max-tokens", std::to_string(vm["max-tokens"].as<int>())});
  if (vm.count("temperature")) {
    std::ostringstream t;
    t << vm["temperature"].as<double>();
    extra.insert(extra.end(), {"--temperature", t.str()});
  }
  if (vm.count("trials")) extra.insert(extra.end(), {"--trials", std::to_string(vm["trials"].as<int>())});
  {
    // Validate here (exit 2 before any worker starts), then pass on.
    agent::ProviderOptions check;
    check.kind = vm.count("provider") ? vm["provider"].as<std::string>() : "openai";
    check.max_tokens = vm.count("max-tokens") ? vm["max-tokens"].as<int>() : 8192;
    if (vm.count("thinking") && !vm.count("provider")) check.kind = "anthropic";
    apply_llm_options(vm, check);
    const std::vector<std::string> llm = llm_option_args(vm);
    extra.insert(extra.end(), llm.begin(), llm.end());
    // One rate budget for all workers: a state file they lock in turn.
    if ((check.requests_per_minute > 0 || check.tokens_per_minute > 0) && !vm.count("rate-limit-file"))
      extra.insert(extra.end(), {"--rate-limit-file", (fs::path(out) / "ratelimit.json").string()});
  }
  for (const auto& s : vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{})
    extra.insert(extra.end(), {"--set", s});
  const std::string platform_config = vm.count("platform-config") ? vm["platform-config"].as<std::string>() : "default";
  // The ISA variant: checked here (exit 2 before any run), passed on, and recorded in each
  // job's provenance and resume key, so runs of two variants never mix in one DIR.
  harness::VariantSpec isa_variant;
  isa_variant.platform_config = platform_config;
  if (vm.count("set")) isa_variant.overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("isa-dir")) isa_variant.isa_dir = vm["isa-dir"].as<std::string>();
  if (vm.count("isa-ext")) isa_variant.isa_ext = vm["isa-ext"].as<std::vector<std::string>>();
  if (!isa_variant.isa_dir.empty()) extra.insert(extra.end(), {"--isa-dir", isa_variant.isa_dir});
  for (const auto& f : isa_variant.isa_ext) extra.insert(extra.end(), {"--isa-ext", f});
  std::map<std::string, json> variant_provenance;  // per platform, with an ISA variant only
  if (!isa_variant.isa_dir.empty() || !isa_variant.isa_ext.empty())
    for (const auto& platform : platforms) {
      harness::check_isa_variant(platform, isa::IsaVariant{isa_variant.isa_dir, isa_variant.isa_ext});
      variant_provenance[platform] = harness::variant_provenance(platform, isa_variant);
    }

  std::vector<harness::SuiteJob> jobs;
  for (const auto& platform : platforms) {
    const tasks::PlatformId pid = *tasks::parse_platform(platform);
    for (const tasks::TaskSpec* task : selected) {
      if (task->level == 0 && !runs_cpu_programs(platform)) continue;  // CPU programs: only where they run
      const tasks::PlatformSpec& ps = task->platform(pid);
      std::vector<std::string> configs = configs_asked;
      if (configs.empty())
        for (const auto& c : ps.configs) configs.push_back(c.name);
      if (configs.empty()) configs = {"C1", "C2", "C3", "C4", "C5"};
      for (const auto& config : configs) {
        if (ps.supported && !ps.config(config))
          throw InputError("unknown config '" + config + "' for " + task->name + " on " + platform);
        for (int k = 1; k <= samples; ++k) {
          harness::SuiteJob job;
          job.platform = platform;
          job.task = task->name;
          job.config = config;
          job.level = task->level;
          job.kernel = "agent:s" + std::to_string(k);
          job.extra_args = extra;
          if (const auto vp = variant_provenance.find(platform); vp != variant_provenance.end()) {
            job.provenance = vp->second;
            job.variant = harness::provenance_variant(vp->second);
          }
          if (!ps.supported) {
            job.known_result = json{{"schema", "tlmcraft.report/1"}, {"platform", platform}, {"platform_config", platform_config},
                                    {"task", task->name}, {"level", task->level}, {"config", config},
                                    {"kernel", {{"path", job.kernel}, {"source", "agent"}}}, {"status", "unsupported"},
                                    {"reason", ps.reason.empty() ? task->name + " is not supported on " + platform : ps.reason}};
          }
          jobs.push_back(std::move(job));
        }
      }
    }
  }

  if (vm["dry-run"].as<bool>()) return dry_run(vm, jobs, platform_config);  // touches nothing in DIR
  if (vm["fresh"].as<bool>()) {
    std::error_code ec;
    for (const char* sub : {"results.jsonl", "results.jsonl.slurm", "transcripts", "workspaces", "summary.json"})
      fs::remove_all(fs::path(out) / sub, ec);
  }
  fs::create_directories(fs::path(out) / "transcripts");

  const std::string exe = self_exe();
  const uint64_t seed = vm["seed"].as<uint64_t>();
  harness::SuiteOptions so;
  so.out_path = (fs::path(out) / "results.jsonl").string();
  so.jobs = vm["jobs"].as<unsigned>();
  so.timeout_seconds = vm["timeout"].as<double>();
  so.resume = true;
  so.command = [&](const harness::SuiteJob& j) {
    const int k = sample_of(j.kernel);
    const std::string tag = j.task + "_" + j.platform + "_" + j.config + "_s" + std::to_string(k);
    std::vector<std::string> argv = {exe, "agent", "--platform", j.platform, "--task", j.task, "--config", j.config,
                                     "--json", "--quiet", "--resume",
                                     "--workspace", (fs::path(out) / "workspaces" / ("s" + std::to_string(k))).string(),
                                     "--transcript", (fs::path(out) / "transcripts" / (tag + ".jsonl")).string(),
                                     "--seed", std::to_string(seed + uint64_t(k - 1))};
    argv.insert(argv.end(), j.extra_args.begin(), j.extra_args.end());
    return argv;
  };
  const bool quiet = vm["quiet"].as<bool>();
  so.progress = quiet ? harness::ProgressMode::Quiet : harness::ProgressMode::Auto;
  if (!quiet)
    std::cerr << "agent-bench: " << jobs.size() << " runs, " << executor->describe(so) << ", results in " << so.out_path
              << "\n";

  harness::SuiteOutcome outcome;
  try {
    outcome = executor->run(jobs, so);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  for (const auto& w : outcome.warnings) std::cerr << "tlmcraft agent-bench: warning: " << w << "\n";

  const harness::Summary summary = harness::summarize(outcome.results, summary_options);
  const json metrics = agent::agent_bench_metrics(outcome.results);
  json both = {{"summary", harness::summary_to_json(summary)}, {"agent", metrics}};
  // What each instruction the ISA variant adds did in the agents' verdicts (none: absent).
  const json uses = harness::suite_variant_uses(outcome.results);
  if (!uses.empty()) both["isa_variant_uses"] = uses;
  agent::write_file_atomic((fs::path(out) / "summary.json").string(), both.dump(2) + "\n");
  if (vm["json"].as<bool>()) std::cout << both.dump(2) << "\n";
  else
    std::cout << harness::summary_to_text(summary) << agent::agent_bench_metrics_text(metrics)
              << harness::variant_uses_text(uses, "") << "results: " << so.out_path << "   (HTML: tlmcraft report "
              << so.out_path << " -o report.html)\n";

  if (outcome.interrupted) {
    std::cerr << "tlmcraft agent-bench: interrupted; rerun the same command to resume\n";
    return 130;
  }
  // Solved = some sample of the workload passed.
  std::set<std::string> solved, unsolved;
  for (const auto& r : outcome.results) {
    const std::string status = r.value("status", "");
    if (status == "unsupported") continue;
    const std::string key = r.value("platform", "") + "/" + r.value("task", "") + "/" + r.value("config", "");
    (status == "pass" ? solved : unsolved).insert(key);
  }
  for (const auto& k : solved) unsolved.erase(k);
  return unsolved.empty() ? 0 : 1;
}

namespace {
const bool registered =
    register_command("agent-bench", cmd_agent_bench, "agent runs over many workloads: n/5, pass@k, fast_p, tokens");
}

}  // namespace tlmcraft::cli
