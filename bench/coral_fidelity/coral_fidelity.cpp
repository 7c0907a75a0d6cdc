// The Coral NPU fidelity campaign: every task baseline at C1..C5, every CPU program and
// the generated probe programs, each run on the tlmcraft model and on the RTL oracle
// (coral-rtl), with per-case cycles and error and the error distribution per kind.
// docs/FIDELITY.md holds its results; `make fidelity-coral` runs it.
//
//   coral_fidelity [--oracle PATH] [--only SUBSTR] [--no-tasks] [--no-probes]
//                  [--kernels DIR] [--task-kernels DIR] [--probe-seed N] [--jobs N]
//                  [--results FILE]... [--export-jobs DIR] [--json FILE] [--set KEY=VALUE]...
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "bench/coral_fidelity/elf_writer.h"
#include "bench/coral_fidelity/fidelity_stats.h"
#include "bench/coral_fidelity/model_runner.h"
#include "bench/coral_fidelity/oracle_cache.h"
#include "bench/coral_fidelity/oracle_jobs.h"
#include "bench/coral_fidelity/probe_programs.h"
#include "bench/coral_fidelity/task_kernels.h"
#include "bench/coral_fidelity/workload_summary.h"
#include "platforms/registry.h"

namespace po = boost::program_options;
using namespace tlmcraft;
using namespace tlmcraft::bench;

namespace {

// The search agent's kernel versions (task_kernels.h), kind "agent".
constexpr const char* kAgentKind = "agent";

struct Options {
  std::string oracle, only, kernels_dir, task_kernels_dir, json_path, cache_path, save_dir, export_dir;
  bool tasks = true, probes = true, cached_only = false;
  uint64_t probe_seed = 1;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> overrides, results;
};

std::vector<FidelityCase> kernel_dir_cases(const std::string& dir) {
  std::vector<FidelityCase> cases;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string ext = e.path().extension();
    if (ext != ".s" && ext != ".S" && ext != ".c") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    cases.push_back({"kernel", e.path().filename(), "", "", e.path().filename(), ss.str()});
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return cases;
}

std::vector<FidelityCase> collect(const Options& o) {
  std::vector<FidelityCase> all;
  if (o.tasks)
    for (auto& c : task_cases()) all.push_back(std::move(c));
  if (o.probes)
    for (auto& p : generate_probe_programs(o.probe_seed)) all.push_back({p.kind, p.name, "", "", "probe.s", p.source});
  if (!o.kernels_dir.empty())
    for (auto& c : kernel_dir_cases(o.kernels_dir)) all.push_back(std::move(c));
  if (!o.task_kernels_dir.empty())
    for (auto& c : task_kernel_cases(o.task_kernels_dir, kAgentKind)) all.push_back(std::move(c));
  std::vector<std::string> only;  // comma-separated substrings, any of which selects
  for (size_t a = 0, b; a <= o.only.size(); a = b + 1) {
    b = std::min(o.only.find(',', a), o.only.size());
    if (b > a) only.push_back(o.only.substr(a, b - a));
  }
  std::vector<FidelityCase> kept;
  for (auto& c : all)
    if (only.empty() || std::any_of(only.begin(), only.end(),
                                    [&](const std::string& s) { return c.name.find(s) != std::string::npos; }))
      kept.push_back(std::move(c));
  return kept;
}

CachedOracle run_oracle(const ModelRun& m, const OracleOptions& oo) {
  const OracleRun r = run_on_rtl(oo, write_elf32(m.program), m.inputs, m.inputs);
  CachedOracle c{r.ok, r.error, r.cycles, r.dispatched, {}};
  for (const ExtRegion& d : r.dumps) c.dump_hashes.push_back(fnv1a64(d.bytes.data(), d.bytes.size()));
  return c;
}

bool outputs_match(const ModelRun& m, const CachedOracle& c) {
  if (c.dump_hashes.size() != m.outputs.size()) return false;
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (fnv1a64(m.outputs[i].bytes.data(), m.outputs[i].bytes.size()) != c.dump_hashes[i]) return false;
  return true;
}

// Runs the oracle for every model run (cached), `jobs` at a time.
std::vector<CachedOracle> run_oracles(const std::vector<ModelRun>& runs, const OracleOptions& oo,
                                      OracleCache& cache, unsigned jobs, bool cached_only) {
  std::vector<CachedOracle> out(runs.size());
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < runs.size();) {
      if (!runs[i].ok) continue;
      const uint64_t key = oracle_key(runs[i], oo);
      if (!cache.find(key, out[i])) {
        if (cached_only) {
          out[i].error = "not in the oracle results file (--cached-only)";
          continue;
        }
        out[i] = run_oracle(runs[i], oo);
        cache.store(key, out[i]);
      }
      std::fprintf(stderr, "\roracle %zu/%zu", ++done, runs.size());
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  std::fprintf(stderr, "\n");
  return out;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// <dir>/<name>/: kernel.elf, in<k>.bin and run.sh (the coral-rtl command line).
void save_case(const std::string& dir, const FidelityCase& c, const ModelRun& m, const OracleOptions& oo) {
  std::string name = c.name;
  std::replace(name.begin(), name.end(), '/', '_');
  const std::filesystem::path d = std::filesystem::path(dir) / name;
  std::filesystem::create_directories(d);
  const std::vector<uint8_t> elf = write_elf32(m.program);
  std::ofstream(d / "kernel.elf", std::ios::binary).write(reinterpret_cast<const char*>(elf.data()), elf.size());
  std::string cmd = oo.binary + " kernel.elf --json --ext-latency " + std::to_string(oo.read_latency - 1) +
                    " --ext-wlatency " + std::to_string(oo.write_latency - 1);
  for (size_t k = 0; k < m.inputs.size(); ++k) {
    const std::string f = "in" + std::to_string(k) + ".bin";
    std::ofstream(d / f, std::ios::binary)
        .write(reinterpret_cast<const char*>(m.inputs[k].bytes.data()), m.inputs[k].bytes.size());
    cmd += " --ext " + f + "@" + hex32(m.inputs[k].address);
  }
  std::ofstream(d / "run.sh") << "#!/bin/sh\n# model: " << m.cycles << " cycles\ncd \"$(dirname \"$0\")\"\n"
                              << cmd << " \"$@\"\n";
}

void print_table(const std::string& heading, const std::vector<CaseResult>& results) {
  std::printf("\n| %s | programs | median abs error | 95th percentile | worst | worst program | median signed |\n",
              heading.c_str());
  std::printf("|---|---:|---:|---:|---:|---|---:|\n");
  for (const auto& [kind, s] : summarise(results))
    std::printf("| %s | %zu | %.2f%% | %.2f%% | %.2f%% | %s | %+.2f%% |\n", kind.c_str(), s.n, 100 * s.median_abs,
                100 * s.p95_abs, 100 * s.max_abs, s.worst.c_str(), 100 * s.median_signed);
}

// The search agent's versions: errors per task and per kind of task, and per workload the
// speedup of the model's best version on the model and on the RTL.
// Versions that compile to the same program as an earlier one of their workload count once.
void print_agent_tables(const std::vector<CaseResult>& all_results) {
  const std::vector<CaseResult> results = distinct_versions(all_results, kAgentKind);
  const std::vector<CaseResult> tasks = by_task(results, kAgentKind);
  if (tasks.empty()) return;
  std::printf("\nagent versions: %zu distinct programs (%zu versions; the others compile to the same program as an "
              "earlier version of their workload)\n",
              tasks.size(), by_task(all_results, kAgentKind).size());
  print_table("agent versions by task", tasks);
  print_table("agent versions by kind of task", by_family(results, kAgentKind));
  const std::vector<WorkloadSummary> ws = summarise_workloads(results, kAgentKind);
  std::printf("\n| workload | versions | model's best | speedup model | speedup RTL | difference | RTL's best too | "
              "RTL's best faster by |\n|---|---:|---|---:|---:|---:|---|---:|\n");
  size_t same = 0;
  for (const WorkloadSummary& w : ws) {
    same += w.same_best;
    std::printf("| %s | %zu | %s | %.3fx | %.3fx | %+.2f%% | %s | %.2f%% |\n", w.workload.c_str(), w.versions,
                w.model_best.c_str(), w.model_speedup, w.rtl_speedup,
                100 * (w.model_speedup - w.rtl_speedup) / w.rtl_speedup, w.same_best ? "yes" : "no",
                100 * w.rtl_best_gain);
  }
  std::printf("\nworkloads whose model's best is the RTL's best: %zu of %zu\n", same, ws.size());
}

void print_results(const std::vector<CaseResult>& results, const std::vector<std::string>& failures) {
  std::printf("%-12s %-44s %12s %12s %9s\n", "kind", "program", "model", "rtl", "error");
  for (const CaseResult& r : results)
    std::printf("%-12s %-44s %12llu %12llu %+8.2f%%%s\n", r.kind.c_str(), r.name.c_str(),
                static_cast<unsigned long long>(r.model), static_cast<unsigned long long>(r.reference),
                100 * r.error(), r.outputs_match ? "" : "  OUTPUTS DIFFER");
  for (const std::string& f : failures) std::printf("FAILED %s\n", f.c_str());
  print_table("kind", distinct_versions(results, kAgentKind));
  print_agent_tables(results);
}

void write_json(const std::string& path, const std::vector<CaseResult>& results) {
  nlohmann::json j = nlohmann::json::array();
  for (const CaseResult& r : results)
    j.push_back({{"kind", r.kind}, {"name", r.name}, {"model", r.model}, {"rtl", r.reference},
                 {"error", r.error()}, {"outputs_match", r.outputs_match}, {"program", r.program}});
  std::ofstream(path) << j.dump(1) << "\n";
}

Options parse(int argc, char** argv) {
  Options o;
  po::options_description d("coral_fidelity options");
  d.add_options()("help,h", "this text")(
      "oracle", po::value(&o.oracle), "coral-rtl binary (default: $CORAL_RTL, else ../shared/oracles/coral-rtl)")(
      "only", po::value(&o.only), "only programs whose name contains this (or any of a comma-separated list)")(
      "no-tasks", "skip the task baselines and CPU programs")(
      "cached-only", "use only oracle results already in the results file (no RTL runs)")("no-probes", "skip the generated probe programs")(
      "kernels", po::value(&o.kernels_dir), "also every .s/.c file of this directory")(
      "task-kernels", po::value(&o.task_kernels_dir),
      "also every DIR/<task>/<config>/*.{c,s} (the search agent's versions), run with the task's layout and inputs")(
      "probe-seed", po::value(&o.probe_seed), "seed of the generated probe programs (default 1)")(
      "results", po::value(&o.results)->composing(),
      "also read oracle results from this file (run_oracle_jobs.py output; default: the repository's)")(
      "export-jobs", po::value(&o.export_dir),
      "write the oracle runs the results files lack as jobs for run_oracle_jobs.py, then stop")(
      "jobs,j", po::value(&o.jobs), "oracle runs at a time")(
      "json", po::value(&o.json_path), "write per-program results here")(
      "cache", po::value(&o.cache_path), "oracle results file (default ~/.cache/tlmcraft/coral_rtl_results.jsonl)")(
      "set", po::value(&o.overrides)->composing(), "model platform-config override KEY=VALUE")(
      "save", po::value(&o.save_dir), "write each program's ELF, inputs and coral-rtl command here");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, d), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << d << "\nExample: coral_fidelity --only gemm --no-probes\n";
    std::exit(0);
  }
  o.tasks = !vm.count("no-tasks");
  o.probes = !vm.count("no-probes");
  o.cached_only = vm.count("cached-only") > 0;
  if (o.cache_path.empty()) {
    const char* home = std::getenv("HOME");
    const std::string dir = std::string(home ? home : "/tmp") + "/.cache/tlmcraft";
    std::filesystem::create_directories(dir);
    o.cache_path = dir + "/coral_rtl_results.jsonl";
  }
  if (!vm.count("results")) o.results = {std::string(TLMCRAFT_SOURCE_DIR) + "/bench/coral_fidelity/rtl_results.jsonl"};
  return o;
}

OracleOptions oracle_options(const Options& o) {
  OracleOptions oo;
  oo.binary = find_coral_rtl(o.oracle);
  const nlohmann::json cfg = make_platform("coral", "default", o.overrides)->config();
  oo.read_latency = cfg["memory"]["axi"]["read_latency"];
  oo.write_latency = cfg["memory"]["axi"]["write_latency"];
  return oo;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  const OracleOptions oo = oracle_options(o);
  if (oo.binary.empty() && o.export_dir.empty() && !o.cached_only) {
    std::fprintf(stderr, "coral_fidelity: no coral-rtl oracle (give --oracle PATH or set CORAL_RTL)\n");
    return 2;
  }
  const std::vector<FidelityCase> cases = collect(o);
  std::vector<ModelRun> runs;
  for (size_t i = 0; i < cases.size(); ++i) {
    std::fprintf(stderr, "\rmodel %zu/%zu", i + 1, cases.size());
    runs.push_back(run_on_model(cases[i], o.overrides));
  }
  std::fprintf(stderr, "\n");
  if (!o.save_dir.empty())
    for (size_t i = 0; i < cases.size(); ++i)
      if (runs[i].ok) save_case(o.save_dir, cases[i], runs[i], oo);
  OracleCache cache(o.cache_path, o.results);
  if (!o.export_dir.empty()) {
    const size_t n = export_oracle_jobs(o.export_dir, cases, runs, oo, cache);
    std::printf("%zu oracle jobs in %s (run: bench/coral_fidelity/run_oracle_jobs.py %s --oracle PATH)\n", n,
                o.export_dir.c_str(), o.export_dir.c_str());
    return 0;
  }
  const std::vector<CachedOracle> rtl = run_oracles(runs, oo, cache, o.jobs, o.cached_only);
  std::vector<CaseResult> results;
  std::vector<std::string> failures;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!runs[i].ok || !rtl[i].ok) {
      failures.push_back(cases[i].name + ": " + (runs[i].ok ? "rtl: " + rtl[i].error : "model: " + runs[i].error));
      continue;
    }
    results.push_back({cases[i].kind, cases[i].name, runs[i].cycles, rtl[i].cycles, outputs_match(runs[i], rtl[i]),
                       oracle_key(runs[i], oo)});
  }
  print_results(results, failures);
  if (!o.json_path.empty()) write_json(o.json_path, results);
  return failures.empty() ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "coral_fidelity: %s\n", e.what());
  return 2;
}
