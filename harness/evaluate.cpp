#include "harness/evaluate.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "harness/memory_guard.h"
#include "harness/seeds.h"
#include "harness/report_bounds.h"
#include "isa/input_limits.h"
#include "harness/inert_settings.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

using nlohmann::json;

std::string fnv1a64(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  std::ostringstream os;
  os << std::hex << h;
  return os.str();
}

const char* status_of(StopReason r) {
  switch (r) {
    case StopReason::Halted: return "pass";
    case StopReason::Fault: return "runtime_error";
    case StopReason::InstructionLimit:
    case StopReason::CycleLimit: return "limit";
    case StopReason::WallTimeout: return "timeout";
  }
  return "runtime_error";
}

// The source line without its comment: ';' (PLENA, AIE-ML), '#' (RISC-V assembly), '//' (C).
std::string trimmed_line(const isa::Program& p, uint32_t line) {
  if (line == 0) return "(outside the kernel source: start-up, halt, drain)";
  if (line > p.source_lines.size()) return "";
  std::string s = p.source_lines[line - 1];
  const bool c_source = p.source_name.size() > 2 && p.source_name.compare(p.source_name.size() - 2, 2, ".c") == 0;
  const char* comment = c_source ? "//" : p.isa == "riscv" ? "#" : ";";
  s = s.substr(0, s.find(comment));
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t\r") + 1);
  return s;
}

tasks::Instance instance_of(const Platform& platform, const EvalOptions& o) {
  try {
    return tasks::Registry::builtin().instance(o.task, platform.name(), o.config);
  } catch (const tasks::TaskError& e) {
    throw InputError(e.what());
  }
}

// Loads the inputs of trial `index` (seed `seed`, from the range the schedule gives it:
// tasks/generator.h), runs, checks. Fills one trial object; returns the run result.
RunResult run_trial(Platform& platform, const isa::Program& prog, const tasks::Instance& inst, uint64_t seed,
                    size_t index, const EvalOptions& o, const TraceOptions& traces, json& trial) {
  platform.load(prog);
  const auto layout = inst.layout();
  const std::string range = inst.range_for_trial(seed, index);
  const tasks::TensorSet inputs = inst.generate_inputs(seed, range);
  for (const auto& w : layout->encode_inputs(inputs)) platform.write_memory(w.memory, w.address, w.bytes);
  for (const auto& w : layout->poison_outputs()) platform.write_memory(w.memory, w.address, w.bytes);
  const MemoryGuard guard(platform, *layout);
  const RunResult r = platform.run(o.limits, traces);
  trial = {{"seed", seed}, {"range", range}, {"stop", to_string(r.stop)}, {"message", r.message}, {"cycles", r.cycles},
           {"instructions", r.instructions}};
  if (!r.ok()) {
    trial["status"] = status_of(r.stop);
    return r;
  }
  const tasks::DecodedOutputs got = layout->decode_outputs(
      [&](const std::string& m, uint64_t a, uint64_t n) { return platform.read_memory(m, a, n); });
  const tasks::CheckResult c = inst.check(got, inst.reference_outputs(inputs));
  const std::vector<OutsideWrite> outside = guard.changes(platform);
  trial["status"] = c.passed() && outside.empty() ? "pass" : "fail";
  trial["check"] = c.to_json();
  std::string summary = c.summary();
  trial["outside_writes"] = json::array();
  for (const OutsideWrite& w : outside) {
    trial["outside_writes"].push_back(w.to_json());
    summary += "; " + w.describe();
  }
  trial["summary"] = summary;
  return r;
}

// How "cycles" was taken from the trials, each trial's cycles, and a flag when they differ
// on a task whose work does not depend on the values (the kernel's timing depends on the
// data it was given: a known-input fast path, or data-dependent branches).
json cycles_over_trials(const json& trials, bool data_dependent_task) {
  json per_trial = json::array();
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const json& t : trials) {
    const uint64_t c = t.value("cycles", uint64_t(0));
    per_trial.push_back(c);
    lo = std::min(lo, c);
    hi = std::max(hi, c);
  }
  json j = {{"rule", "max"}, {"per_trial", per_trial}, {"min", trials.empty() ? 0 : lo}, {"max", hi}};
  j["varies"] = !trials.empty() && lo != hi;
  j["flag"] = nullptr;
  if (lo != hi && !trials.empty() && !data_dependent_task)
    j["flag"] = "cycles differ between trials (" + std::to_string(lo) + " .. " + std::to_string(hi) +
                ") on a task whose work does not depend on the input values: the kernel's timing depends on its data";
  return j;
}

// A kernel file within the input bounds (isa/input_limits.h), or an InputError.
std::string read_kernel(const std::string& path) {
  try {
    return isa::read_kernel_file(path);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

}  // namespace

// What every report starts with: the platform, the variant's config, the task instance.
static json report_head(Platform& platform, const EvalOptions& o, const tasks::Instance& inst) {
  return {{"schema", "tlmcraft.report/1"},
          {"platform", platform.name()},
          {"platform_config", o.platform_config},
          {"overrides", o.overrides},
          {"task", o.task},
          {"level", inst.task().level},
          {"config", o.config},
          {"shape", inst.shape_json()}};
}

// A baseline generator that cannot serve this hardware variant (e.g. PLENA's element-wise
// template on a VLEN the task size is no multiple of): the cell is unsupported there, with
// the generator's reason, not a crash of the run.
static json no_baseline_report(Platform& platform, const EvalOptions& o, const tasks::Instance& inst,
                               const std::string& why) {
  json rep = report_head(platform, o, inst);
  rep["kernel"] = {{"path", "baseline:" + o.task + ":" + o.config}, {"source", "baseline"}};
  rep["status"] = "unsupported";
  rep["reason"] = "no baseline kernel for this platform configuration: " + why;
  return rep;
}

// The baseline kernel's cycles over `seeds`: the slowest trial, as for a kernel; 0 when it
// does not assemble or a trial does not end normally (no speedup is then reported).
static uint64_t baseline_cycles_over(Platform& platform, const tasks::Instance& inst, const std::vector<uint64_t>& seeds,
                                     const EvalOptions& o, const KernelContext& context) {
  isa::Program bp;
  std::vector<isa::Diagnostic> bd;
  if (!platform.assemble(tasks::baseline_kernel(inst, platform.config()), tasks::baseline_file_name(inst), context, bp, bd))
    return 0;
  uint64_t slowest = 0;
  for (size_t k = 0; k < seeds.size(); ++k) {
    json trial;
    const RunResult r = run_trial(platform, bp, inst, seeds[k], k, o, {}, trial);
    if (!r.ok()) return 0;
    slowest = std::max(slowest, r.cycles);
  }
  return slowest;
}

// The kernel is the baseline's own text in its language: the same build on the same seeds
// gives the same cycles (the timing is deterministic), so the baseline's runs would only
// repeat the kernel's (`codesign explore` benches the baselines under each ISA variant).
static bool is_baseline_text(const tasks::Instance& inst, Platform& platform, const std::string& source,
                             const std::string& path) {
  const auto extension = [](const std::string& f) {
    const size_t dot = f.rfind('.'), slash = f.find_last_of("/\\");
    return dot == std::string::npos || (slash != std::string::npos && dot < slash) ? std::string() : f.substr(dot);
  };
  try {
    return extension(path) == extension(tasks::baseline_file_name(inst)) &&
           source == tasks::baseline_kernel(inst, platform.config());
  } catch (const std::invalid_argument&) {
    return false;
  }
}

static json evaluate_kernel(Platform& platform, const EvalOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const tasks::Instance inst = instance_of(platform, o);
  if (o.trials < 1) throw InputError("--trials must be at least 1");

  std::string source, path = o.kernel_path, origin = "file";
  if (o.use_baseline) {
    try {
      source = tasks::baseline_kernel(inst, platform.config());
    } catch (const std::invalid_argument& e) {
      return no_baseline_report(platform, o, inst, e.what());
    }
    path = "baseline:" + o.task + ":" + o.config;
    origin = "baseline";
  } else if (!o.kernel_path.empty()) {
    source = read_kernel(o.kernel_path);
  } else {
    try {
      isa::check_kernel_size(o.kernel_source.size(), "the kernel source");
    } catch (const std::runtime_error& e) {
      throw InputError(e.what());
    }
    source = o.kernel_source;
    path = "kernel.asm";
    origin = "text";
  }

  json rep = report_head(platform, o, inst);
  size_t lines = std::count(source.begin(), source.end(), '\n') + (!source.empty() && source.back() != '\n');
  rep["kernel"] = {{"path", path}, {"fnv1a64", fnv1a64(source)}, {"lines", lines}, {"source", origin}};
  const std::vector<uint64_t> seeds = trial_seeds(o.seed, o.trials);
  rep["seeds"] = seeds;
  rep["seed_source"] = o.seed ? "fixed" : "os";
  rep["baseline_cycles"] = nullptr;
  rep["speedup"] = nullptr;
  // Overrides the active configuration ignores (e.g. PLENA's DMA model in serial timing).
  const std::vector<std::string> inert = harness::inert_setting_warnings(platform.config(), o.overrides);
  if (!inert.empty()) rep["warnings"] = inert;

  // The task's defaults for what a kernel may leave out (AIE-ML: the data movement).
  const KernelContext context{inst.layout()->kernel_defaults(), o.limits.wall_seconds};

  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  // The toolchain sees a file name whose extension gives the language (Coral baselines are C).
  const bool assembled =
      platform.assemble(source, o.use_baseline ? tasks::baseline_file_name(inst) : path, context, prog, diags);
  json dj = json::array();
  isa::cap_diagnostics(diags, isa::max_diagnostics());
  for (const auto& d : diags) dj.push_back(d.format());
  rep["assemble"] = {{"ok", assembled}, {"diagnostics", dj}, {"instructions", prog.code.size()}};
  if (!assembled) {
    rep["status"] = "assemble_error";
    rep["reason"] = std::to_string(std::count_if(diags.begin(), diags.end(), [](const isa::Diagnostic& d) {
                      return d.severity == isa::Severity::Error;
                    })) + " assembly error(s); first: " + (dj.empty() ? "" : dj[0].get<std::string>());
    rep["trials"] = json::array();
    rep["host_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
  }

  json trials = json::array();
  RunResult first;  // the reported trial: the slowest one (the failing one if any fails)
  std::string status = "pass", reason;
  for (size_t k = 0; k < seeds.size(); ++k) {
    json trial;
    const RunResult r = run_trial(platform, prog, inst, seeds[k], k, o, k == 0 ? o.traces : TraceOptions{}, trial);
    const std::string ts = trial["status"];
    if (k == 0 || r.cycles > first.cycles || ts != "pass") first = r;
    trials.push_back(trial);
    if (ts != "pass") {
      status = ts;
      reason = "trial seed " + std::to_string(seeds[k]) + ": " +
               (trial.contains("summary") ? trial["summary"].get<std::string>() : r.message) + " (input range " +
               trial.value("range", std::string()) + ")";
      break;  // a kernel passes only if every trial passes
    }
  }
  rep["trials"] = trials;
  rep["status"] = status;
  rep["reason"] = status == "pass" ? "all " + std::to_string(o.trials) + " trials match" : reason;
  rep["cycles"] = first.cycles;
  rep["cycles_over_trials"] = cycles_over_trials(trials, inst.task().data_dependent_cycles || inst.platform_spec().data_dependent_cycles);
  rep["latency_ns"] = double(first.cycles) * platform.config().value("clock_ns", 1.0);
  rep["instructions"] = first.instructions;
  rep["instructions_by_class"] = first.instructions_by_class;
  rep["assemble"]["by_class"] = first.instructions_by_class;
  const json rj = first.to_json();
  rep["units"] = rj["units"];
  rep["macs_by_format"] = rj["macs_by_format"];
  rep["actions"] = rj["actions"];
  rep["memory"] = rj["memory"];
  // When the last off-chip transfer completes, beside the count (of the trial counted).
  if (rj.contains("last_transfer_cycle")) rep["last_transfer_cycle"] = rj["last_transfer_cycle"];
  if (rj.contains("added_instructions")) rep["added_instructions"] = rj["added_instructions"];
  json hot = json::array();
  for (size_t i = 0; i < first.lines.size() && i < 8; ++i) {
    const auto& l = first.lines[i];
    hot.push_back({{"line", l.line}, {"text", trimmed_line(prog, l.line)}, {"executions", l.executions}, {"cycles", l.cycles}});
  }
  rep["hot_lines"] = hot;
  if (!o.traces.vcd_path.empty() || !o.traces.perfetto_path.empty()) {
    json t = json::object();
    if (!o.traces.vcd_path.empty()) t["vcd"] = o.traces.vcd_path;
    if (!o.traces.perfetto_path.empty()) t["perfetto"] = o.traces.perfetto_path;
    rep["traces"] = t;
  }

  // Speedup against the platform's baseline kernel (same platform configuration), like
  // with like: the baseline runs on the same trials' inputs and counts by the same rule,
  // the slowest trial (Coral's cycles depend on the data: the first trial alone made the
  // unchanged baseline 0.96x against itself).
  if (status == "pass" && tasks::has_baseline(inst)) {
    uint64_t base = first.cycles;
    if (!o.use_baseline && o.compare_baseline && !is_baseline_text(inst, platform, source, path))
      base = baseline_cycles_over(platform, inst, seeds, o, context);
    if (base > 0) {
      rep["baseline_cycles"] = base;
      rep["speedup"] = first.cycles ? double(base) / double(first.cycles) : 0.0;
    }
  }
  rep["host_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

// Every report, also one built from hostile input, is valid and bounded JSON.
json evaluate(Platform& platform, const EvalOptions& o) {
  json rep = evaluate_kernel(platform, o);
  bound_report(rep);
  return rep;
}

}  // namespace tlmcraft
