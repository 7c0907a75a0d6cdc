// make_toolbox: the harness-backed tools. Every call validates its arguments against the
// schema it declares, resolves the workload (defaults from the options), and answers
// with compact text plus JSON. Bad calls give is_error results; nothing here throws.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "agent/docs_index.h"
#include "agent/json_schema.h"
#include "agent/tool_text.h"
#include "agent/toolbox.h"
#include "agent/workspace.h"
#include "common/data_dir.h"
#include "harness/evaluate.h"
#include "harness/run_report.h"
#include "isa/input_limits.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"
#include "isa/isa_tools.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

// A tool failed for a reason the model can fix (no kernel yet, unknown task, ...).
struct ToolFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

json workload_properties(bool with_platform = true) {
  json p = {{"task", {{"type", "string"}, {"description", "task name (default: the run's task)"}}},
            {"config", {{"type", "string"}, {"description", "configuration C1..C5 (default: the run's configuration)"}}}};
  if (with_platform) p["platform"] = {{"type", "string"}, {"description", "platform name (default: the run's platform)"}};
  return p;
}

json object_schema(json properties, std::vector<std::string> required = {}) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}, {"additionalProperties", false}};
}

json with_workload(json properties) {
  const json common = workload_properties();
  for (const auto& [k, v] : common.items()) properties[k] = v;
  return properties;
}

size_t count_lines(const std::string& s) {
  size_t n = size_t(std::count(s.begin(), s.end(), '\n'));
  return n + (!s.empty() && s.back() != '\n');
}

class HarnessToolbox : public Toolbox {
 public:
  explicit HarnessToolbox(const ToolboxOptions& o) : opt_(o), ws_(o.workspace_dir) { declare(); }

  std::vector<ToolSpec> specs() const override {
    std::vector<ToolSpec> out;
    for (const auto& t : tools_) out.push_back(t.spec);
    return out;
  }

  ToolResult call(const std::string& tool, const std::string& arguments_json) override {
    // The ISA variant of this toolbox, for this call only (another toolbox in the process,
    // such as a test's, keeps its own).
    const isa::ScopedIsaVariant isa_variant(opt_.isa);
    const Tool* t = nullptr;
    for (const auto& x : tools_)
      if (x.spec.name == tool) t = &x;
    if (!t) {
      std::string names;
      for (const auto& x : tools_) names += (names.empty() ? "" : ", ") + x.spec.name;
      return error("unknown tool '" + tool + "' (tools: " + names + ")");
    }
    json args;
    std::string perr;
    if (!parse_arguments(arguments_json, args, perr)) return error(tool + ": " + perr);
    const auto violations = validate_json(args, t->spec.parameters);
    if (!violations.empty()) {
      std::string msg = tool + ": invalid arguments: ";
      for (size_t i = 0; i < violations.size(); ++i) msg += (i ? "; " : "") + violations[i];
      return error(msg);
    }
    try {
      return capped(t->run(args));
    } catch (const ToolFailure& e) {
      return error(tool + ": " + e.what());
    } catch (const std::exception& e) {
      // Harness errors (bad platform config, I/O): still an answer, never a crash.
      return error(tool + ": " + e.what());
    }
  }

 private:
  struct Tool {
    ToolSpec spec;
    std::function<ToolResult(const json&)> run;
  };

  static ToolResult error(const std::string& msg) {
    ToolResult r;
    r.is_error = true;
    r.text = msg;
    r.data = {{"error", msg}};
    return r;
  }
  static ToolResult ok(std::string text, json data) { return ToolResult{false, std::move(text), std::move(data)}; }

  // Keeps the text within max_text_chars, cut after a whole line.
  ToolResult capped(ToolResult r) const {
    const size_t max = opt_.max_text_chars;
    if (max == 0 || r.text.size() <= max) return r;
    size_t cut = r.text.rfind('\n', max);
    if (cut == std::string::npos || cut < max / 2) cut = max;
    const size_t total_lines = size_t(std::count(r.text.begin(), r.text.end(), '\n')) + 1;
    const size_t kept_lines = size_t(std::count(r.text.begin(), r.text.begin() + long(cut), '\n'));
    r.text = r.text.substr(0, cut) + "\n... (cut: " + std::to_string(total_lines - kept_lines) + " of " +
             std::to_string(total_lines) + " lines, " + std::to_string(r.text.size() - cut) + " of " +
             std::to_string(r.text.size()) + " characters not shown)";
    if (r.data.is_object()) r.data["text_truncated"] = true;
    return r;
  }

  void add(const std::string& name, const std::string& description, json parameters,
           std::function<ToolResult(const json&)> run) {
    tools_.push_back({{name, description, std::move(parameters)}, std::move(run)});
  }

  // ------------------------------------------------------------------ workloads
  Workload resolve(const json& args) const {
    Workload w = opt_.workload;
    if (args.contains("platform")) w.platform = args["platform"].get<std::string>();
    if (args.contains("task")) w.task = args["task"].get<std::string>();
    if (args.contains("config")) w.config = args["config"].get<std::string>();
    if (w.platform.empty() || w.task.empty() || w.config.empty())
      throw ToolFailure("no workload: give task, config (and platform); this run has no default for " +
                        std::string(w.platform.empty() ? "platform" : w.task.empty() ? "task" : "config"));
    try {
      (void)tasks::Registry::builtin().instance(w.task, w.platform, w.config);
    } catch (const std::exception& e) {
      throw ToolFailure("no workload " + w.key() + ": " + e.what());
    }
    return w;
  }

  tasks::Instance instance(const Workload& w) const { return tasks::Registry::builtin().instance(w.task, w.platform, w.config); }

  // One platform object per platform name, reused across calls (evaluate() reloads it).
  Platform& platform(const std::string& name) {
    auto it = platforms_.find(name);
    if (it != platforms_.end()) return *it->second;
    const bool own = name == opt_.workload.platform;
    auto p = make_platform(name, own ? opt_.platform_config : "default", own ? opt_.overrides : std::vector<std::string>{});
    return *platforms_.emplace(name, std::move(p)).first->second;
  }
  std::string platform_config_name(const std::string& name) const {
    return name == opt_.workload.platform ? opt_.platform_config : "default";
  }
  std::vector<std::string> platform_overrides(const std::string& name) const {
    return name == opt_.workload.platform ? opt_.overrides : std::vector<std::string>{};
  }

  // The version this session wrote last; before its first write_code, the newest on disk
  // (a resumed run continues from the versions it left). Never a version another process
  // sharing the workspace wrote after this session's own.
  KernelVersion current(const Workload& w) const {
    const auto mine = written_.find(w.key());
    if (mine != written_.end()) return mine->second;
    const auto v = ws_.current(w);
    if (!v) throw ToolFailure("no kernel written yet for " + w.key() + ": call write_code first");
    return *v;
  }

  // Baseline cycles per workload, measured once (timing does not depend on the data).
  std::optional<uint64_t> baseline_cycles(const Workload& w, json* report_out = nullptr) {
    const auto it = baselines_.find(w.key());
    if (it != baselines_.end() && !report_out) return it->second ? std::optional<uint64_t>(it->second) : std::nullopt;
    const tasks::Instance inst = instance(w);
    if (!tasks::has_baseline(inst)) {
      baselines_[w.key()] = 0;
      return std::nullopt;
    }
    EvalOptions o = eval_options(w);
    o.use_baseline = true;
    o.trials = 1;
    const json rep = evaluate(platform(w.platform), o);
    if (report_out) *report_out = rep;
    const uint64_t cycles = rep.value("status", "") == "pass" ? rep.value("cycles", uint64_t(0)) : 0;
    baselines_[w.key()] = cycles;
    return cycles ? std::optional<uint64_t>(cycles) : std::nullopt;
  }

  EvalOptions eval_options(const Workload& w) const {
    EvalOptions o;
    o.platform = w.platform;
    o.platform_config = platform_config_name(w.platform);
    o.overrides = platform_overrides(w.platform);
    o.task = w.task;
    o.config = w.config;
    o.trials = opt_.trials;
    o.seed = opt_.seed;
    o.compare_baseline = false;  // the cached baseline cycles are filled in instead
    return o;
  }

  // ------------------------------------------------------------------ tools
  void declare() {
    add("write_code",
        "Store a new version of the kernel (the whole source) for the workload. Returns the version number and "
        "line count. Later check_syntax / run_evaluation calls use the newest version.",
        object_schema(with_workload({{"code", {{"type", "string"}, {"minLength", 1}, {"description", "complete kernel source"}}},
                                     {"language", {{"type", "string"}, {"enum", {"asm", "c"}},
                                                   {"description", "asm (default) or c where the platform compiles C"}}}}),
                      {"code"}),
        [this](const json& a) { return write_code(a); });
    add("check_syntax",
        "Assemble the newest kernel version. Returns errors as file:line:col: error: ... with a hint, or the "
        "instruction count.",
        object_schema(workload_properties()), [this](const json& a) { return check_syntax(a); });
    add("run_evaluation",
        "Assemble, simulate on fresh random inputs (several trials) and compare with the reference. Returns status, "
        "match rate, cycles and the speedup over the baseline kernel.",
        object_schema(workload_properties()), [this](const json& a) { return run_evaluation(a); });
    add("view_output",
        "Output statistics of the last evaluation: per-row got/want min/max/nonzero, mse, share of mismatching "
        "elements, first mismatches with coordinates, outputs never written.",
        object_schema(workload_properties()), [this](const json& a) { return view_output(a); });
    add("get_instruction_size", "Instruction counts by class of the newest kernel version (static, and executed when evaluated).",
        object_schema(workload_properties()), [this](const json& a) { return instruction_size(a); });
    add("grep_docs",
        "Case-insensitive search of the ISA reference, the platform documentation and the task text. The query is a "
        "regular expression or a few words; returns matching lines as file:line with the next line as context.",
        object_schema(with_workload({{"query", {{"type", "string"}, {"minLength", 1}, {"maxLength", kGrepMaxQuery}}},
                                     {"max_results", {{"type", "integer"}, {"minimum", 1}, {"maximum", 200}}}}),
                      {"query"}),
        [this](const json& a) { return grep(a); });
    add("profile",
        "Where the cycles of the last evaluation went: per-unit busy/stall cycles and utilisation, the hottest source "
        "lines with their text, memory traffic.",
        object_schema(workload_properties()), [this](const json& a) { return profile(a); });
    add("get_task", "The task description, shapes, numerics, tolerance and memory layout.", object_schema(workload_properties()),
        [this](const json& a) { return get_task(a); });
    add("get_hardware_config", "The platform's effective configuration (architecture, memories, latencies) and timing mode.",
        object_schema({{"platform", workload_properties()["platform"]}}), [this](const json& a) { return hardware_config(a); });
    add("list_tasks", "Tasks with their level and configurations (shapes) on a platform.",
        object_schema({{"platform", workload_properties()["platform"]}}), [this](const json& a) { return list_tasks(a); });
    add("get_baseline", "The baseline kernel (template compiler output) for the workload and its cycles.",
        object_schema(workload_properties()), [this](const json& a) { return get_baseline(a); });
    add("submit", "Mark the newest kernel version as the final answer; the run stops after this call.",
        object_schema(workload_properties()), [this](const json& a) { return submit(a); });
  }

  ToolResult write_code(const json& a) {
    const Workload w = resolve(a);
    const std::string lang = a.value("language", "asm");
    const std::string code = a["code"].get<std::string>();
    const KernelVersion v = ws_.write_version(w, code, lang);
    written_[w.key()] = v;
    const size_t lines = count_lines(code);
    return ok("stored version " + std::to_string(v.number) + " (" + std::to_string(lines) + " lines) for " + w.key(),
              {{"success", true}, {"version", v.number}, {"lines", lines}, {"path", v.path}, {"workload", w.key()}});
  }

  ToolResult check_syntax(const json& a) {
    const Workload w = resolve(a);
    const KernelVersion v = current(w);
    const std::string code = ws_.read_version(v);
    isa::Program prog;
    std::vector<isa::Diagnostic> diags;
    const KernelContext context{instance(w).layout()->kernel_defaults(), eval_options(w).limits.wall_seconds};
    const bool ok_ =
        platform(w.platform).assemble(code, "v" + std::to_string(v.number) + "." + v.extension, context, prog, diags);
    isa::cap_diagnostics(diags, isa::max_diagnostics());
    json errors = json::array(), warnings = json::array();
    for (const auto& d : diags) (d.severity == isa::Severity::Error ? errors : warnings).push_back(d.format());
    const size_t n = static_instructions(prog);
    std::ostringstream t;
    if (ok_) t << "ok: version " << v.number << " assembles, " << n << " instructions";
    else t << "version " << v.number << ": " << errors.size() << " error(s)";
    for (const auto& e : errors) t << "\n" << e.get<std::string>();
    for (const auto& e : warnings) t << "\n" << e.get<std::string>();
    return ok(t.str(), {{"success", ok_}, {"version", v.number}, {"errors", errors}, {"warnings", warnings},
                        {"instructions", ok_ ? json(n) : json()}, {"workload", w.key()}});
  }

  ToolResult run_evaluation(const json& a) {
    const Workload w = resolve(a);
    const KernelVersion v = current(w);
    EvalOptions o = eval_options(w);
    o.kernel_path = v.path;
    // Fresh inputs per evaluation: seeds from the OS, or, when the user fixed --seed, the
    // k-th evaluation of a workload in this workspace uses seeds seed + k*trials ..
    // seed + k*trials + trials - 1 (reproducible from the workspace's history; k is
    // reserved under a lock, so processes sharing the workspace never use the same seeds).
    if (opt_.seed) o.seed = *opt_.seed + ws_.reserve_evaluation(w) * uint64_t(std::max(1, opt_.trials));
    // Where cycles depend on the data (Coral), the baseline runs on this evaluation's own
    // inputs (evaluate() compares like with like); elsewhere its cached count is the same.
    const tasks::Instance inst = instance(w);
    const bool data_dependent = inst.task().data_dependent_cycles || inst.platform_spec().data_dependent_cycles;
    o.compare_baseline = data_dependent;
    json rep = evaluate(platform(w.platform), o);
    // Under an ISA variant: its area, and what each added instruction did (an added one the
    // kernel never uses says so in the text, so the model knows it is there unused).
    if (!opt_.isa.empty()) harness::add_run_estimates(rep, platform(w.platform));
    if (rep.value("status", "") == "pass" && !data_dependent) {
      if (const auto base = baseline_cycles(w)) {
        rep["baseline_cycles"] = *base;
        const uint64_t c = rep.value("cycles", uint64_t(0));
        rep["speedup"] = c ? double(*base) / double(c) : 0.0;
      }
    }
    rep["version"] = v.number;
    ws_.store_report(w, v.number, rep);
    evaluated_[w.key()] = v.number;
    const bool is_best = ws_.offer_best(w, v, rep);
    std::string text = "version " + std::to_string(v.number) + ": " + evaluation_text(rep);
    if (const auto b = ws_.best(w)) {
      text += is_best ? "\nthis is the best correct version so far"
                      : "\nbest correct version so far: " + std::to_string(b->value("version", 0)) + " (" +
                            std::to_string(b->value("cycles", uint64_t(0))) + " cycles)";
    }
    json data = rep;
    data["match_rate"] = report_match_rate(rep);
    data["is_best"] = is_best;
    data["workload"] = w.key();
    return ok(text, data);
  }

  // This session's last evaluation (before its first, the workspace's last one).
  std::pair<int, json> last_evaluation(const Workload& w) const {
    const auto mine = evaluated_.find(w.key());
    if (mine != evaluated_.end())
      if (const auto rep = ws_.report(w, mine->second)) return {mine->second, *rep};
    const auto last = ws_.last_report(w);
    if (!last) throw ToolFailure("no evaluation yet for " + w.key() + ": call run_evaluation first");
    return *last;
  }

  ToolResult view_output(const json& a) {
    const Workload w = resolve(a);
    const auto [version, rep] = last_evaluation(w);
    const std::string text = "version " + std::to_string(version) + ", " + output_text(rep);
    const json* trial = nullptr;
    if (rep.contains("trials") && rep["trials"].is_array())
      for (const auto& t : rep["trials"])
        if (t.contains("check")) trial = &t;
    json data = {{"version", version}, {"status", rep.value("status", "")}, {"workload", w.key()}};
    if (trial) {
      data["seed"] = (*trial)["seed"];
      data["check"] = (*trial)["check"];
    }
    return ok(text, data);
  }

  size_t static_instructions(const isa::Program& prog) const {
    if (!prog.code.empty()) return prog.code.size();
    size_t bytes = 0;
    for (const auto& s : prog.segments)
      if (s.executable) bytes += s.bytes.size();
    return bytes / 4;  // image-based ISAs: 32-bit instruction words (compressed ones count half)
  }

  const isa::IsaSpec* isa_spec(const std::string& name) {
    auto it = isas_.find(name);
    if (it == isas_.end()) {
      std::unique_ptr<isa::IsaSpec> spec;
      try {
        spec = std::make_unique<isa::IsaSpec>(isa::load_isa_spec(name));
      } catch (const std::exception&) {
        // no YAML description (image-based ISA): no static class counts
      }
      it = isas_.emplace(name, std::move(spec)).first;
    }
    return it->second.get();
  }

  ToolResult instruction_size(const json& a) {
    const Workload w = resolve(a);
    const KernelVersion v = current(w);
    isa::Program prog;
    std::vector<isa::Diagnostic> diags;
    const KernelContext context{instance(w).layout()->kernel_defaults(), eval_options(w).limits.wall_seconds};
    if (!platform(w.platform).assemble(ws_.read_version(v), "v" + std::to_string(v.number) + "." + v.extension, context,
                                       prog, diags))
      throw ToolFailure("version " + std::to_string(v.number) + " does not assemble (" +
                        (diags.empty() ? std::string("no diagnostics") : diags.front().format()) + "); call check_syntax");
    json by_class = json::object(), by_mnemonic = json::object();
    const isa::IsaTools* tools = isa::find_isa_tools(prog.isa);
    if (tools && tools->instruction_class) {  // the ISA classifies its own instructions
      for (const auto& in : prog.code) {
        const std::string cls = tools->instruction_class(in);
        by_class[cls] = by_class.value(cls, 0) + 1;
      }
    } else if (const isa::IsaSpec* spec = prog.code.empty() ? nullptr : isa_spec(prog.isa)) {
      for (const auto& in : prog.code) {
        const std::string cls(1, spec->instruction(in).cls);
        by_class[cls] = by_class.value(cls, 0) + 1;
        // By mnemonic too, so an instruction an overlay added shows by name.
        const std::string& m = spec->instruction(in).mnemonic;
        by_mnemonic[m] = by_mnemonic.value(m, 0) + 1;
      }
    }
    const size_t total = static_instructions(prog);
    std::ostringstream t;
    t << "version " << v.number << ": " << total << " instructions";
    if (!by_class.empty()) {
      t << " (";
      bool first = true;
      for (const auto& [k, n] : by_class.items()) t << (first ? "" : ", ") << k << " " << n.get<int>(), first = false;
      t << ")";
    }
    if (!by_mnemonic.empty()) {
      t << "\nby mnemonic: ";
      bool first = true;
      for (const auto& [k, n] : by_mnemonic.items()) t << (first ? "" : ", ") << k << " " << n.get<int>(), first = false;
    }
    json data = {{"version", v.number}, {"instructions", total}, {"by_class", by_class}, {"workload", w.key()}};
    if (!by_mnemonic.empty()) data["by_mnemonic"] = by_mnemonic;
    if (const auto rep = ws_.report(w, v.number); rep && rep->contains("instructions_by_class")) {
      t << "\nexecuted in the last evaluation: " << rep->value("instructions", 0) << " (";
      bool first = true;
      for (const auto& [k, n] : (*rep)["instructions_by_class"].items()) t << (first ? "" : ", ") << k << " " << n.dump(), first = false;
      t << ")";
      data["executed"] = rep->value("instructions", 0);
      data["executed_by_class"] = (*rep)["instructions_by_class"];
    }
    return ok(t.str(), data);
  }

  const std::vector<DocFile>& platform_docs(const std::string& name) {
    auto it = docs_.find(name);
    if (it != docs_.end()) return it->second;
    std::vector<DocFile> files;
    const std::string isa = isa_reference(name, platform(name).config());
    if (!isa.empty()) files.push_back({isa_reference_name(name), split_lines(isa)});
    // Platform docs are named with hyphens (docs/platforms/aie-ml.md for aie_ml).
    std::string doc = name;
    std::replace(doc.begin(), doc.end(), '_', '-');
    std::ifstream in(data::data_path("docs/platforms/" + doc + ".md"));
    if (in) {
      std::ostringstream ss;
      ss << in.rdbuf();
      files.push_back({"platforms/" + doc + ".md", split_lines(ss.str())});
    }
    return docs_.emplace(name, std::move(files)).first->second;
  }

  ToolResult grep(const json& a) {
    const Workload w = resolve(a);
    std::vector<DocFile> files = platform_docs(w.platform);
    files.push_back({"task/" + w.task + "_" + w.config + ".txt", split_lines(instance(w).describe())});
    const size_t max = a.value("max_results", 20);
    size_t total = 0;
    std::string mode;
    const auto matches = grep_docs(files, a["query"].get<std::string>(), max, total, mode);
    std::ostringstream t;
    json jm = json::array();
    if (matches.empty()) {
      t << "no match for '" << a["query"].get<std::string>() << "' in";
      for (const auto& f : files) t << " " << f.name;
    }
    for (const auto& m : matches) {
      t << m.file << ":" << m.line << ": " << m.text << "\n";
      if (!m.context.empty()) t << "    " << m.context << "\n";
      jm.push_back({{"file", m.file}, {"line", m.line}, {"text", m.text}, {"context", m.context}});
    }
    if (total > matches.size()) t << "(" << total - matches.size() << " more matches; narrow the query or raise max_results)";
    std::string text = t.str();
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return ok(text, {{"matches", jm}, {"total", total}, {"mode", mode}});
  }

  ToolResult profile(const json& a) {
    const Workload w = resolve(a);
    const auto [version, rep] = last_evaluation(w);
    json data = {{"version", version}, {"status", rep.value("status", "")}, {"workload", w.key()}};
    for (const char* k : {"cycles", "instructions", "units", "hot_lines", "memory"})
      if (rep.contains(k)) data[k] = rep[k];
    return ok("version " + std::to_string(version) + ": " + profile_text(rep), data);
  }

  ToolResult get_task(const json& a) {
    const Workload w = resolve(a);
    const tasks::Instance inst = instance(w);
    return ok(inst.describe(), {{"workload", w.key()}, {"level", inst.task().level}, {"shape", inst.shape_json()}});
  }

  ToolResult hardware_config(const json& a) {
    const std::string name = a.value("platform", opt_.workload.platform);
    const auto names = platform_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw ToolFailure("unknown platform '" + name + "' (platforms: " + known + ")");
    }
    const json cfg = platform(name).config();
    std::string mode = "n/a";
    if (cfg.contains("timing") && cfg["timing"].is_object() && cfg["timing"].contains("mode"))
      mode = cfg["timing"]["mode"].is_string() ? cfg["timing"]["mode"].get<std::string>() : cfg["timing"]["mode"].dump();
    return ok("platform " + name + " (config " + platform_config_name(name) + "), timing mode: " + mode + "\n" + yaml_text(cfg),
              {{"platform", name}, {"timing_mode", mode}, {"config", cfg}});
  }

  ToolResult list_tasks(const json& a) {
    const std::string name = a.value("platform", opt_.workload.platform);
    const auto pid = tasks::parse_platform(name);
    if (!pid) throw ToolFailure("unknown platform '" + name + "'");
    std::ostringstream t;
    json list = json::array();
    for (const auto& task : tasks::Registry::builtin().tasks()) {
      const tasks::PlatformSpec& ps = task.platform(*pid);
      json entry = {{"task", task.name}, {"level", task.level}, {"title", task.title}, {"supported", ps.supported}};
      t << task.name << " (level " << task.level << ")";
      if (!ps.supported) {
        t << ": unsupported on " << name << "\n";
        list.push_back(entry);
        continue;
      }
      json configs = json::object();
      t << ":";
      for (const auto& c : ps.configs) {
        json shape = json::object();
        std::string s;
        for (const auto& p : task.params) {
          const auto v = c.params.at(p);
          shape[p] = v;
          s += (s.empty() ? "" : ",") + p + "=" + std::to_string(v);
        }
        configs[c.name] = shape;
        t << " " << c.name << "(" << s << ")";
      }
      t << "\n";
      entry["configs"] = configs;
      list.push_back(entry);
    }
    std::string text = t.str();
    if (!text.empty()) text.pop_back();
    return ok(text, {{"platform", name}, {"tasks", list}});
  }

  ToolResult get_baseline(const json& a) {
    const Workload w = resolve(a);
    const tasks::Instance inst = instance(w);
    if (!tasks::has_baseline(inst)) throw ToolFailure("no baseline kernel exists for " + w.key());
    const std::string source = tasks::baseline_kernel(inst, platform(w.platform).config());
    const auto cycles = baseline_cycles(w);
    std::ostringstream t;
    t << "baseline for " << w.key() << " (" << tasks::baseline_file_name(inst) << ", "
      << (cycles ? std::to_string(*cycles) + " cycles" : std::string("did not pass")) << "):\n"
      << source;
    return ok(t.str(), {{"workload", w.key()}, {"file_name", tasks::baseline_file_name(inst)}, {"source", source},
                        {"cycles", cycles ? json(*cycles) : json()}});
  }

  ToolResult submit(const json& a) {
    const Workload w = resolve(a);
    const KernelVersion v = current(w);
    const auto rep = ws_.report(w, v.number);
    const std::string status = rep ? rep->value("status", "") : "not evaluated";
    ws_.mark_submitted(w, v.number, status);
    std::string text = "submitted version " + std::to_string(v.number) + " (" + status + ")";
    if (const auto b = ws_.best(w)) text += "; best correct version: " + std::to_string(b->value("version", 0)) + " (" +
                                            std::to_string(b->value("cycles", uint64_t(0))) + " cycles)";
    return ok(text, {{"submitted", true}, {"version", v.number}, {"status", status}, {"workload", w.key()},
                     {"best", ws_.best(w) ? *ws_.best(w) : json()}});
  }

  ToolboxOptions opt_;
  Workspace ws_;
  std::vector<Tool> tools_;
  std::map<std::string, std::unique_ptr<Platform>> platforms_;
  std::map<std::string, uint64_t> baselines_;  // workload key -> cycles (0: none)
  std::map<std::string, KernelVersion> written_;  // workload key -> this session's newest version
  std::map<std::string, int> evaluated_;          // workload key -> this session's last evaluated version
  std::map<std::string, std::unique_ptr<isa::IsaSpec>> isas_;
  std::map<std::string, std::vector<DocFile>> docs_;
};

std::string default_workspace() {
  char templ[] = "/tmp/tlmcraft-agent-XXXXXX";
  const char* d = ::mkdtemp(templ);
  return d ? d : "tlmcraft-agent-workspace";
}

}  // namespace

std::unique_ptr<Toolbox> make_toolbox(const ToolboxOptions& options) {
  ToolboxOptions o = options;
  if (o.workspace_dir.empty()) o.workspace_dir = default_workspace();
  return std::make_unique<HarnessToolbox>(o);
}

}  // namespace tlmcraft::agent
