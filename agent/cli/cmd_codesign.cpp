// tlmcraft codesign: the co-design loop's commands (docs/codesign.md). `mine`
// finds candidate instructions in the suite's kernels and writes them as ISA
// overlays.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "agent/codesign/architect.h"
#include "agent/codesign/explorer.h"
#include "agent/codesign/kernel_dataflow.h"
#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "agent/mcp/mcp_server.h"
#include "agent/providers.h"
#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/cli/executor_options.h"
#include "harness/cli/job_selection.h"
#include "harness/isa_variant_check.h"
#include "harness/ppa_model.h"
#include "harness/seeds.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace tlmcraft::cli {
namespace {

using nlohmann::json;
namespace codesign = agent::codesign;

const char* kCodesignHelp =
    R"(usage: tlmcraft codesign mine --platform P [options]

mine: runs the dataflow analysis of the suite's kernels (the baselines, or the kernels
of --kernels DIR named as `bench` names them), enumerates the convex subgraphs of every
straight-line region within the platform's register-port limits, merges isomorphic ones
across kernels and scores each by the cycles it would save over the suite (dynamic
instances x (its steps' cycles - the platform's estimate for one fused instruction)) and
by the geometric-mean speedup over the kernels that saving gives (what explore
optimises; --rank chooses the order). --hardware NAME also assumes a hardware change of
the platform (PLENA: GPW2, a second gp register-file write port: instructions updating
two registers, updates fused into loop ends); a candidate needing it names it.
Writes the best --top candidates to DIR/candidates.yaml and each as a ready ISA overlay
DIR/<NAME>.yaml (use it with --isa-ext). docs/codesign.md says how each figure is made.

examples:
  tlmcraft codesign mine --platform plena --configs C1,C2 --out out/mine
  tlmcraft codesign mine --platform plena --tasks silu,softmax --top 5 --out out/mine --json
  tlmcraft codesign mine --platform plena --configs C1,C2 --hardware GPW2 --out out/mine-gpw2
  tlmcraft run --platform plena --isa-ext out/mine/CD0.yaml --task silu --config C1 kernel.asm

exit codes: 0 ok; 2 usage or input error

options)";

// What an adapter knows of the platform: its effective configuration, and how to make
// it again (the config's name and the --set overrides).
json hardware_of(const po::variables_map& vm, const Platform& p) {
  json h = {{"platform", p.name()}, {"config", p.config()}};
  h["platform_config"] = vm.count("platform-config") ? vm["platform-config"].as<std::string>() : "default";
  h["overrides"] = vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
  return h;
}

std::vector<codesign::MinedKernel> suite_kernels(const po::variables_map& vm, const std::string& platform,
                                                 const json& hardware, const std::string& cmd) {
  JobSelection sel;
  sel.platforms = {platform};
  if (vm.count("tasks")) sel.tasks = split_lists(vm["tasks"].as<std::vector<std::string>>());
  if (vm.count("configs")) sel.configs = split_lists(vm["configs"].as<std::vector<std::string>>());
  if (vm.count("level")) sel.levels = split_lists(vm["level"].as<std::vector<std::string>>());
  if (vm.count("kernels")) sel.kernel_dir = vm["kernels"].as<std::string>();
  const SelectedJobs selected = select_jobs(sel);
  std::vector<codesign::MinedKernel> kernels;
  for (const harness::SuiteJob& job : selected.jobs) {
    if (job.known_result) continue;  // unsupported cell
    codesign::MinedKernel k;
    k.name = job.task + "/" + job.config;
    k.hardware = hardware;
    k.hardware["task"] = job.task;  // an adapter that runs the kernel needs its cell
    k.hardware["task_config"] = job.config;
    if (job.kernel == "baseline") {
      const auto inst = tasks::Registry::builtin().instance(job.task, platform, job.config);
      k.file = tasks::baseline_file_name(inst);
      k.text = tasks::baseline_kernel(inst, hardware["config"]);
    } else {
      k.file = job.kernel;
      k.text = read_kernel_text(job.kernel);
    }
    k.hardware["file"] = k.file;
    kernels.push_back(std::move(k));
  }
  if (kernels.empty())
    throw InputError("codesign " + cmd + ": no kernel selected on platform '" + platform + "'" +
                     (sel.kernel_dir.empty() ? "" : " (no selected cell has a kernel in " + sel.kernel_dir + ")"));
  return kernels;
}

std::string table(const json& doc) {
  std::ostringstream out;
  out << std::left << std::setw(6) << "name" << std::right << std::setw(14) << "cycles saved" << std::setw(10)
      << "geomean" << std::setw(12) << "instances" << std::setw(11) << "area mm2"
      << "  steps\n";
  for (const json& c : doc["candidates"]) {
    std::string steps = c["signature"].get<std::string>();
    for (char& ch : steps)
      if (ch == '\n') ch = ';';
    out << std::left << std::setw(6) << c["name"].get<std::string>() << std::right << std::setw(14) << std::fixed
        << std::setprecision(0) << c["estimate"]["cycles_saved"].get<double>() << std::setw(10) << std::setprecision(4)
        << c["estimate"]["geomean_speedup"].get<double>() << std::setw(12)
        << c["estimate"]["dynamic_instances"].get<uint64_t>() << std::setw(11) << std::setprecision(4)
        << c["estimate"]["area_mm2"].get<double>() << "  " << steps
        << (c.contains("needs") ? "  (needs " + c["needs"][0].get<std::string>() + ")" : "") << "\n";
  }
  return out.str();
}

// The ceiling, apart from the variants: its label says what it is (not buildable).
std::string ceiling_line(const json& c) {
  std::ostringstream out;
  out << c["label"].get<std::string>() << ": " << std::fixed << std::setprecision(4) << c["speedup"].get<double>()
      << "x, energy " << std::setprecision(3) << c["energy_ratio"].get<double>() << "x";
  if (!c["ok"].get<bool>()) out << " over the cells it passed";
  out << "\n";
  for (const json& f : c["failures"]) out << "    " << f.get<std::string>() << "\n";
  for (const json& f : c["cells_a_variant_runs_faster"])
    out << "    " << f["cell"].get<std::string>() << ": " << f["variant"].get<std::string>() << " runs it in "
        << std::setprecision(0) << f["cycles"].get<double>() << " cycles, the ceiling in "
        << f["ceiling_cycles"].get<double>() << "\n";
  return out.str();
}

std::string explore_table(const json& summary) {
  std::ostringstream out;
  out << std::left << std::setw(28) << "variant" << std::right << std::setw(9) << "speedup" << std::setw(9) << "energy"
      << std::setw(10) << "area"
      << "  front\n";
  for (const json& v : summary["variants"]) {
    out << std::left << std::setw(28) << v["id"].get<std::string>() << std::right << std::fixed << std::setprecision(3);
    if (v["ok"].get<bool>())
      out << std::setw(8) << v["speedup"].get<double>() << "x" << std::setw(8) << v["energy_ratio"].get<double>()
          << "x";
    else
      out << std::setw(18) << "FAIL";
    out << std::setw(9) << std::setprecision(1) << 100 * v["area_increase"].get<double>() << "%"
        << (v["pareto"].get<bool>() ? "  *" : "") << "\n";
    for (const json& f : v["failures"]) out << "    " << f.get<std::string>() << "\n";
  }
  if (summary.contains("ceiling")) out << ceiling_line(summary["ceiling"]);
  for (auto it = summary["instructions"].begin(); it != summary["instructions"].end(); ++it)
    out << it.key() << ": break-even latency " << std::setprecision(1) << it.value()["break_even_latency"].get<double>()
        << " cycles (declared " << it.value()["declared_latency"].get<int64_t>() << ")\n";
  return out.str();
}

void write_outputs(const std::string& dir, const json& doc) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("codesign mine: cannot create '" + dir + "': " + ec.message());
  write_text_file_atomically(dir + "/candidates.yaml", codesign::to_yaml(doc));
  for (const json& c : doc["candidates"]) {
    std::ostringstream head;
    head << "# " << c["name"].get<std::string>() << ", mined by tlmcraft codesign mine: estimated "
         << c["estimate"]["cycles_saved"].get<double>() << " cycles saved over "
         << c["estimate"]["dynamic_instances"].get<uint64_t>() << " dynamic instances\n# kernels:";
    for (auto it = c["provenance"].begin(); it != c["provenance"].end(); ++it)
      head << " " << it.key() << " (" << it.value().get<uint64_t>() << ")";
    head << "\n";
    write_text_file_atomically(dir + "/" + c["name"].get<std::string>() + ".yaml",
                               head.str() + codesign::to_yaml(c["overlay"]));
  }
}

int mine(const Args& args) {
  po::options_description opts(kCodesignHelp);
  add_platform_options(opts);  // --help comes with it
  opts.add_options()("tasks", po::value<std::vector<std::string>>()->composing(), "tasks, comma list (default: all)")(
      "configs", po::value<std::vector<std::string>>()->composing(), "configurations, comma list (default: all)")(
      "level", po::value<std::vector<std::string>>()->composing(), "only tasks of these levels (1, 2, 3)")(
      "kernels", po::value<std::string>(), "mine the kernels of DIR instead of the baselines")(
      "top", po::value<int>()->default_value(10), "candidates kept (1..1000)")(
      "max-ops", po::value<int>()->default_value(0), "ops in one candidate at most (2..12; 0: the platform's limit)")(
      "hardware", po::value<std::vector<std::string>>()->composing(),
      "hardware changes assumed, comma list (the platform's; PLENA: GPW2)")(
      "rank", po::value<std::string>()->default_value("geomean"), "order: geomean (estimated speedup) or cycles")(
      "out,o", po::value<std::string>(), "write DIR/candidates.yaml and one overlay per candidate")(
      "json", po::bool_switch(), "print the candidates document as JSON");
  po::variables_map vm;
  if (!parse_or_help(args, opts, {}, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("platform")) throw InputError("codesign mine: --platform is required");
  const int top = vm["top"].as<int>();
  if (top < 1 || top > 1000) throw InputError("codesign mine: --top must be 1..1000, not " + std::to_string(top));
  const int max_ops = vm["max-ops"].as<int>();
  if (max_ops != 0 && (max_ops < 2 || max_ops > 12))
    throw InputError("codesign mine: --max-ops must be 2..12 (or 0), not " + std::to_string(max_ops));
  auto p = make_platform_from(vm);
  const codesign::DataflowAdapter* adapter = codesign::find_dataflow_adapter(p->name());
  if (!adapter) throw InputError("codesign mine: platform '" + p->name() + "' has no co-design adapter");
  const json hardware = hardware_of(vm, *p);
  codesign::MineOptions options{static_cast<size_t>(top), max_ops};
  if (vm.count("hardware")) options.hardware = split_lists(vm["hardware"].as<std::vector<std::string>>());
  options.rank = vm["rank"].as<std::string>();
  std::vector<codesign::MinedCandidate> found;
  try {
    found = codesign::mine(*adapter, suite_kernels(vm, p->name(), hardware, "mine"), options);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("codesign mine: ") + e.what());
  }
  const json doc = codesign::candidates_document(*adapter, p->name(), found, "CD");
  if (vm.count("out")) write_outputs(vm["out"].as<std::string>(), doc);
  std::cout << (vm["json"].as<bool>() ? doc.dump(2) + "\n" : table(doc));
  if (doc.contains("note") && !vm["json"].as<bool>()) std::cout << "note: " << doc["note"].get<std::string>() << "\n";
  return 0;
}

const char* kExploreHelp =
    R"(usage: tlmcraft codesign explore --platform P --candidates FILE --area-budget X --out DIR [options]

Builds ISA variants from sets of the candidates (codesign mine's candidates.yaml) whose
added area fits the budget (X in mm2, or a percentage of the platform's area: 5%), lets
the kernels use them (each kernel rewritten where a candidate's dataflow matches), and
evaluates the suite for each variant with `tlmcraft bench` on fresh seeds, the same for
every variant of one exploration (DIR/trial_seed), with the same selection and executor
(the shipped ISA with the unchanged baselines is the reference). Strategy greedy: each candidate alone, then added in order of
measured gain per area while the suite gets faster; beam: the best --beam-width sets of
each size; nsga2: NSGA-II over candidate sets (non-dominated sorting and crowding
distance over cycles, energy and area; sets over the budget repaired before they run;
deterministic under --seed). DIR/explore.jsonl holds one line per variant (rerun to resume), DIR/summary.json
the speedups, energy ratios, areas, the Pareto front over (geometric-mean cycles, energy,
area) and each instruction's break-even latency. A variant with a failing kernel is
recorded with it and never on the front. --ceiling also evaluates every candidate at once
at latency 1 with no area limit (DIR/ceiling.jsonl, the summary's "ceiling"): what the
candidate space could give at most, reported apart, never a variant.

examples:
  tlmcraft codesign mine --platform plena --configs C1,C2 --out out/mine
  tlmcraft codesign explore --platform plena --candidates out/mine/candidates.yaml --area-budget 5% --configs C1,C2 --out out/explore
  tlmcraft codesign explore --platform plena --candidates c.yaml --area-budget 0.05 --strategy beam --executor slurm --out out/x

exit codes: 0 ok; 2 usage or input error

options)";

// Every executor option the user gave, as bench arguments.
std::vector<std::string> executor_args(const po::variables_map& vm) {
  std::vector<std::string> out;
  const po::options_description group = executor_options();  // kept alive: options() refers into it
  for (const auto& opt : group.options()) {
    const std::string& name = opt->long_name();
    if (!vm.count(name) || vm[name].defaulted()) continue;
    const boost::any& v = vm[name].value();
    if (const auto* b = boost::any_cast<bool>(&v)) {
      if (*b) out.push_back("--" + name);
    } else if (const auto* s = boost::any_cast<std::string>(&v)) {
      out.insert(out.end(), {"--" + name, *s});
    } else if (const auto* u = boost::any_cast<unsigned>(&v)) {
      out.insert(out.end(), {"--" + name, std::to_string(*u)});
    } else if (const auto* z = boost::any_cast<size_t>(&v)) {
      out.insert(out.end(), {"--" + name, std::to_string(*z)});
    } else if (const auto* i = boost::any_cast<int>(&v)) {
      out.insert(out.end(), {"--" + name, std::to_string(*i)});
    } else if (const auto* d = boost::any_cast<double>(&v)) {
      out.insert(out.end(), {"--" + name, std::to_string(*d)});
    } else if (const auto* l = boost::any_cast<std::vector<std::string>>(&v)) {
      for (const std::string& x : *l) out.insert(out.end(), {"--" + name, x});
    }
  }
  return out;
}

// Runs `argv` with its output in `log` and waits; its exit status (127 when it could not start).
int run_process(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 1), dup2(fd, 2);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The last `n` lines of a file, joined by "; ".
std::string last_lines(const std::string& path, size_t n) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : "; ") + lines[i];
  return out;
}

double area_budget(const std::string& text, double base_area) {
  try {
    size_t used = 0;
    const bool percent = !text.empty() && text.back() == '%';
    const double v = std::stod(percent ? text.substr(0, text.size() - 1) : text, &used);
    if (used != text.size() - (percent ? 1 : 0) || !(v > 0) || !std::isfinite(v)) throw std::invalid_argument("");
    return percent ? v / 100.0 * base_area : v;
  } catch (const std::exception&) {
    throw InputError(
        "codesign explore: --area-budget must be a positive "
        "number of mm2 or a percentage (5%), not '" +
        text + "'");
  }
}

// The options explore, architect and mcp share: the suite, the candidates, the budget.
void add_exploration_options(po::options_description& opts) {
  add_platform_options(opts);  // --help comes with it
  opts.add_options()("candidates", po::value<std::string>(), "candidates file (codesign mine's candidates.yaml)")(
      "area-budget", po::value<std::string>(), "added area at most: mm2, or a percentage of the platform's area")(
      "tasks", po::value<std::vector<std::string>>()->composing(), "tasks, comma list (default: all)")(
      "configs", po::value<std::vector<std::string>>()->composing(), "configurations, comma list (default: all)")(
      "level", po::value<std::vector<std::string>>()->composing(), "only tasks of these levels (1, 2, 3)")(
      "kernels", po::value<std::string>(),
      "the kernels of DIR (named as bench names them) instead of the baselines, on both sides: the base variant "
      "runs them unchanged")("jobs,j", po::value<unsigned>()->default_value(0),
                             "parallel workers of each bench (default: CPUs)")(
      "kernel-generation", po::value<std::string>()->default_value("rewrite"),
      "rewrite: the baselines, rewritten for a variant; search: then the platform's search transformations "
      "(chosen by their static estimate), for the base and every variant alike")("out,o", po::value<std::string>(),
                                                                                 "output directory (required)");
  opts.add(executor_options());
}

// An exploration over the command's suite, evaluating variants with `tlmcraft bench`.
struct Session {
  std::unique_ptr<Platform> platform;
  const codesign::DataflowAdapter* adapter = nullptr;
  json hardware;
  std::vector<std::string> bench;  // the bench command line every variant shares
  std::unique_ptr<codesign::Exploration> exploration;
};

// Each candidate's overlay validates on the platform alone and all of them
// together (so every combination explore builds is a valid ISA), checked before
// anything runs; the overlays are kept as DIR/candidates/<NAME>.yaml.
void check_candidate_overlays(const std::string& cmd, const std::string& file,
                              const std::vector<codesign::ExploreCandidate>& candidates, const std::string& platform,
                              const std::string& dir) {
  isa::IsaVariant all;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const std::string path = dir + "/candidates/" + candidates[i].name + ".yaml";
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    write_text_file_atomically(path, codesign::to_yaml(candidates[i].overlay));
    all.overlays.push_back(path);
    try {
      harness::check_isa_variant(platform, isa::IsaVariant{{}, {path}});
    } catch (const InputError& e) {
      throw InputError("codesign " + cmd + ": " + file + ": candidate " + std::to_string(i + 1) + " (" +
                       candidates[i].name + "): its overlay does not validate: " + e.what());
    }
  }
  try {
    harness::check_isa_variant(platform, all);
  } catch (const InputError& e) {
    throw InputError("codesign " + cmd + ": " + file +
                     ": the candidates' overlays do not validate together: " + std::string(e.what()));
  }
}

// The bench arguments of one variant: a given --slurm-dir gets a folder per
// variant (each bench its own shards and state), named after its results file's
// folder (DIR/variants/<id>).
std::vector<std::string> variant_bench_args(std::vector<std::string> argv, const std::string& results) {
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == "--slurm-dir") argv[i + 1] += "/" + fs::path(results).parent_path().filename().string();
  return argv;
}

// The seeds on which a kernel fails its cell: `tlmcraft run --json` on those
// seeds (on this host: one cell), its failing trials.
codesign::SeedChecker seed_checker(const std::string& platform, const std::vector<std::string>& sets,
                                   const std::string& dir) {
  return [=](const codesign::SuiteCell& cell, const std::string& kernel, uint64_t first_seed, int trials) {
    std::vector<std::string> argv = {self_exe(), "run", "--platform", platform};
    for (const std::string& set : sets) argv.insert(argv.end(), {"--set", set});
    argv.insert(argv.end(), {"--task", cell.task, "--config", cell.config, "--seed", std::to_string(first_seed),
                             "--trials", std::to_string(trials), "--json", kernel});
    const std::string out = dir + "/seed_check_" + cell.task + "_" + cell.config + ".json";
    run_process(argv, out);
    std::vector<uint64_t> seeds;
    std::ifstream in(out);
    const json r = json::parse(in, nullptr, false);
    if (r.is_object())
      for (const json& t : r.value("trials", json::array()))
        if (t.is_object() && t.value("status", "pass") != "pass" && t.contains("seed") &&
            t["seed"].is_number_unsigned())
          seeds.push_back(t["seed"].get<uint64_t>());
    return seeds;
  };
}

// The first trial seed of every variant of the exploration in `dir`: fresh from the
// operating system when the exploration starts, kept in DIR/trial_seed so that every
// variant, also after a resume, runs on the same inputs (like is compared with like; a
// kernel cannot know its inputs in advance).
uint64_t exploration_seed(const std::string& dir) {
  const std::string path = dir + "/trial_seed";
  std::ifstream in(path);
  uint64_t seed = 0;
  std::string rest;
  if (in >> seed && !(in >> rest)) return seed;
  if (fs::exists(path)) throw InputError(path + ": not a seed (one unsigned number; delete it to draw a fresh one)");
  seed = fresh_seed();
  std::error_code ec;
  fs::create_directories(dir, ec);
  write_text_file_atomically(path, std::to_string(seed) + "\n");
  return seed;
}

std::unique_ptr<Session> open_session(const std::string& cmd, const po::variables_map& vm, codesign::ExploreOptions o) {
  for (const char* req : {"platform", "candidates", "area-budget", "out"})
    if (!vm.count(req)) throw InputError("codesign " + cmd + ": --" + req + " is required");
  auto s = std::make_unique<Session>();
  s->platform = make_platform_from(vm);
  const std::string name = s->platform->name();
  s->adapter = codesign::find_dataflow_adapter(name);
  if (!s->adapter) throw InputError("codesign " + cmd + ": platform '" + name + "' has no co-design adapter");
  s->hardware = hardware_of(vm, *s->platform);
  o.platform = name;
  o.out_dir = vm["out"].as<std::string>();
  o.kernel_generation = vm["kernel-generation"].as<std::string>();
  const unsigned jobs = vm["jobs"].as<unsigned>();  // 0: the CPUs, as bench's
  o.search_threads = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  o.base_area_mm2 = harness::area_estimate(s->platform->config()).value("total_mm2", 0.0);
  o.area_scale = s->platform->config()["ppa"].value("area_scale", 1.0);
  o.area_budget_mm2 = area_budget(vm["area-budget"].as<std::string>(), o.base_area_mm2);
  o.hardware = s->hardware;
  s->bench = {self_exe(), "bench",  "--platform", name,
              "--quiet",  "--json", "--jobs",     std::to_string(vm["jobs"].as<unsigned>())};
  const std::vector<std::string> sets =
      vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
  for (const std::string& set : sets) s->bench.insert(s->bench.end(), {"--set", set});
  s->bench.insert(s->bench.end(), {"--seed", std::to_string(exploration_seed(o.out_dir))});
  o.base_seed_check = seed_checker(name, sets, o.out_dir + "/variants/base");
  const std::vector<std::string> exec = executor_args(vm);
  for (const char* once : {"detach", "collect"})  // explore needs each variant's results before the next
    if (std::count(exec.begin(), exec.end(), std::string("--") + once))
      throw InputError("codesign " + cmd + ": --" + once +
                       " is not supported (each variant's results are needed "
                       "before the next is chosen; rerun the command to resume instead)");
  s->bench.insert(s->bench.end(), exec.begin(), exec.end());
  const std::vector<std::string>& bench = s->bench;
  codesign::SuiteRunner runner = [&bench](const std::string& kernels, const std::string& overlay,
                                          const std::string& results) {
    std::vector<std::string> argv = variant_bench_args(bench, results);
    argv.insert(argv.end(), {"--kernels", kernels, "--out", results});
    if (!overlay.empty()) argv.insert(argv.end(), {"--isa-ext", overlay});
    const std::string log = results + ".log";
    const int rc = run_process(argv, log);
    if (rc != 0 && rc != 1)
      throw std::invalid_argument("bench failed (exit " + std::to_string(rc) + "): " + last_lines(log, 5));
    return results;
  };
  try {
    std::vector<codesign::SuiteCell> cells;
    for (codesign::MinedKernel& k : suite_kernels(vm, name, s->hardware, cmd)) {
      const std::string ext = k.file.substr(k.file.rfind('.'));
      cells.push_back({k.name.substr(0, k.name.find('/')), k.name.substr(k.name.find('/') + 1), k.text, ext});
    }
    const std::string file = vm["candidates"].as<std::string>();
    std::vector<codesign::ExploreCandidate> candidates = codesign::load_candidates(file, s->adapter->isa);
    o.hardware_changes = codesign::load_candidate_hardware(file);
    check_candidate_overlays(cmd, file, candidates, name, o.out_dir);
    codesign::price_candidates(*s->adapter, s->hardware, candidates, o.hardware_changes);
    s->exploration = std::make_unique<codesign::Exploration>(*s->adapter, std::move(candidates), std::move(cells),
                                                             std::move(runner), std::move(o));
  } catch (const std::invalid_argument& e) {
    throw InputError("codesign " + cmd + ": " + e.what());
  }
  return s;
}

int explore(const Args& args) {
  po::options_description opts(kExploreHelp);
  add_exploration_options(opts);
  opts.add_options()("strategy", po::value<std::string>()->default_value("greedy"), "greedy, beam or nsga2")(
      "beam-width", po::value<int>()->default_value(3), "sets kept per size (beam)")(
      "population", po::value<int>()->default_value(16), "sets per generation (nsga2, 2..1000)")(
      "generations", po::value<int>()->default_value(20), "generations (nsga2, 0..10000)")(
      "seed", po::value<uint64_t>()->default_value(1), "seed of nsga2's random choices (same seed, same run)")(
      "max-variants", po::value<int>()->default_value(64), "variants evaluated at most (1..10000)")(
      "ceiling", po::bool_switch(),
      "also evaluate the ceiling: every candidate at once at latency 1, no area limit (reported apart: not "
      "buildable, never on the front)");
  po::variables_map vm;
  if (!parse_or_help(args, opts, {}, vm)) return vm.count("help") ? 0 : 2;
  const int max_variants = vm["max-variants"].as<int>();
  if (max_variants < 1 || max_variants > 10000) throw InputError("codesign explore: --max-variants must be 1..10000");
  const int population = vm["population"].as<int>(), generations = vm["generations"].as<int>();
  if (population < 2 || population > 1000) throw InputError("codesign explore: --population must be 2..1000");
  if (generations < 0 || generations > 10000) throw InputError("codesign explore: --generations must be 0..10000");
  codesign::ExploreOptions o;
  o.strategy = vm["strategy"].as<std::string>();
  o.beam_width = vm["beam-width"].as<int>();
  o.population = static_cast<size_t>(population);
  o.generations = generations;
  o.seed = vm["seed"].as<uint64_t>();
  o.max_variants = static_cast<size_t>(max_variants);
  auto session = open_session("explore", vm, o);
  codesign::ExploreResult r;
  try {
    r = session->exploration->run_strategy();
    if (vm["ceiling"].as<bool>()) {
      session->exploration->ceiling();
      r = session->exploration->result();
    }
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("codesign explore: ") + e.what());
  }
  std::cout << explore_table(r.summary);
  return 0;
}

const char* kArchitectHelp =
    R"(usage: tlmcraft codesign architect --platform P --candidates FILE --area-budget X --out DIR --provider KIND [options]
       tlmcraft codesign mcp --platform P --candidates FILE --area-budget X --out DIR

architect: an LLM acts as the architect (docs/codesign.md, "The architect agent"): it
lists the mined candidates, proposes its own as ISA overlays, evaluates variants (the
same store as `codesign explore --out DIR`: a variant is evaluated once) and reads the
Pareto front, within --budget turns. The transcript is DIR/architect.jsonl; --resume
continues it. mcp: the same four tools over MCP (stdio), for any MCP client.

examples:
  tlmcraft codesign architect --platform plena --candidates out/mine/candidates.yaml --area-budget 5% \
      --configs C1 --out out/arch --provider anthropic --model claude-sonnet-4-5 --budget 12
  tlmcraft codesign mcp --platform plena --candidates out/mine/candidates.yaml --area-budget 5% --out out/arch

exit codes: 0 ok; 1 the provider failed; 2 usage or input error

options)";

std::unique_ptr<agent::Provider> architect_provider(const po::variables_map& vm) {
  agent::ProviderOptions po;
  if (!vm.count("provider")) throw InputError("codesign architect: --provider is required (openai, anthropic, replay)");
  po.kind = vm["provider"].as<std::string>();
  if (vm.count("model")) po.model = vm["model"].as<std::string>();
  if (vm.count("base-url")) po.base_url = vm["base-url"].as<std::string>();
  if (vm.count("replay")) po.replay_path = vm["replay"].as<std::string>();
  const char* key = std::getenv(po.kind == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
  if (key) po.api_key = key;
  try {
    if (po.kind == "openai") return agent::make_openai_provider(po);
    if (po.kind == "anthropic") return agent::make_anthropic_provider(po);
    if (po.kind == "replay") return agent::make_replay_provider(po);
  } catch (const agent::ProviderError& e) {
    throw InputError(std::string("codesign architect: ") + e.what());
  }
  throw InputError("codesign architect: unknown provider '" + po.kind + "' (openai, anthropic, replay)");
}

int architect(const Args& args) {
  po::options_description opts(kArchitectHelp);
  add_exploration_options(opts);
  opts.add_options()("provider", po::value<std::string>(), "openai, anthropic or replay")(
      "model", po::value<std::string>(), "model name")("base-url", po::value<std::string>(), "API base URL")(
      "replay", po::value<std::string>(), "replay provider: the script of assistant turns")(
      "budget", po::value<int>()->default_value(12), "model turns (1..200)")(
      "resume", po::bool_switch(), "continue DIR/architect.jsonl after its last complete round");
  po::variables_map vm;
  if (!parse_or_help(args, opts, {}, vm)) return vm.count("help") ? 0 : 2;
  const int budget = vm["budget"].as<int>();
  if (budget < 1 || budget > 200) throw InputError("codesign architect: --budget must be 1..200");
  auto provider = architect_provider(vm);
  auto session = open_session("architect", vm, {});
  codesign::ArchitectToolbox tools(*session->exploration, *session->adapter, session->hardware);
  codesign::ArchitectOptions ao;
  ao.budget = budget;
  ao.resume = vm["resume"].as<bool>();
  ao.transcript_path = vm["out"].as<std::string>() + "/architect.jsonl";
  ao.system_prompt = codesign::architect_prompt(*session->exploration, session->platform->name());
  ao.log = [](const std::string& line) { std::cerr << "codesign architect: " << line << "\n"; };
  const codesign::ArchitectResult r = codesign::run_architect(*provider, tools, *session->exploration, ao);
  std::cout << explore_table(session->exploration->result().summary);
  if (!r.answer.empty()) std::cout << "\n" << r.answer << "\n";
  if (r.stop_reason == "provider_error") {
    std::cerr << "codesign architect: provider error: " << r.error << "\n";
    return 1;
  }
  return 0;
}

int serve_mcp(const Args& args) {
  po::options_description opts(kArchitectHelp);
  add_exploration_options(opts);
  po::variables_map vm;
  if (!parse_or_help(args, opts, {}, vm)) return vm.count("help") ? 0 : 2;
  auto session = open_session("mcp", vm, {});
  codesign::ArchitectToolbox tools(*session->exploration, *session->adapter, session->hardware);
  agent::McpServerInfo info;
  info.name = "tlmcraft-codesign";
  info.title = "tlmcraft co-design: candidate instructions, ISA variants, Pareto front";
  info.instructions = codesign::architect_prompt(*session->exploration, session->platform->name());
  agent::McpServer server(tools, info, &std::cerr);
  server.serve(std::cin, std::cout);
  return 0;
}

int cmd_codesign(const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: tlmcraft codesign mine|explore|architect|mcp --platform P [options] "
                 "  (tlmcraft codesign mine --help)\n";
    return args.empty() ? 2 : 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "mine") return mine(rest);
  if (args[0] == "explore") return explore(rest);
  if (args[0] == "architect") return architect(rest);
  if (args[0] == "mcp") return serve_mcp(rest);
  std::cerr << "tlmcraft codesign: unknown subcommand '" << args[0] << "' (known: mine, explore, architect, mcp)\n";
  return 2;
}

const bool registered = register_command(
    "codesign", cmd_codesign, "co-design: mine candidate instructions, explore ISA variants, the architect agent");

}  // namespace
}  // namespace tlmcraft::cli
