#include "platforms/coral/pack/agent/coral_kernel_run.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "harness/evaluate.h"
#include "platforms/config_reader.h"
#include "platforms/coral/coral_config.h"
#include "platforms/coral/coral_platform.h"
#include "platforms/coral/pack/agent/coral_run_memo.h"
#include "tasks/registry.h"

namespace tlmcraft::agent::search::coral {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> overrides_of(const nlohmann::json& hardware) {
  std::vector<std::string> out;
  if (hardware.contains("overrides") && hardware["overrides"].is_array())
    for (const auto& o : hardware["overrides"])
      if (o.is_string()) out.push_back(o.get<std::string>());
  return out;
}

// The effective platform configuration, as the memo keys it.
nlohmann::json effective_config(const nlohmann::json& hardware) {
  return ConfigTree::load("coral", hardware.value("platform_config", std::string("default")), overrides_of(hardware),
                          "")
      .to_json();
}

// The text of the files the task was read from: its spec and the platform defaults beside it.
std::string task_spec_text(const tasks::Instance& inst) {
  std::string out;
  for (const fs::path& p : {fs::path(inst.task().file), fs::path(inst.task().file).parent_path() / "platforms.yaml"}) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out += p.filename().string() + "\n" + s.str() + "\n";
  }
  return out;
}

std::atomic<uint64_t>& simulations() {
  static std::atomic<uint64_t> n{0};
  return n;
}

void fill_from_memo(const MemoRun& m, CoralKernelRun& out) {
  out.executions = m.executions;
  out.status = m.status;
  out.cycles = m.cycles;
  out.hot_lines = m.hot_lines;
  out.added = m.added;
}

tlmcraft::coral::CoralConfig config_of(const nlohmann::json& hardware,
                                       std::shared_ptr<const isa::riscv::CustomExtensions> custom) {
  tlmcraft::coral::CoralConfig cfg = tlmcraft::coral::load_coral_config(
      hardware.value("platform_config", std::string("default")), overrides_of(hardware));
  cfg.custom = std::move(custom);
  return cfg;
}

// A private file holding the kernel, named with the kernel's extension (the toolchain
// picks the language by it).
struct KernelFile {
  fs::path path;
  KernelFile(const std::string& text, const std::string& file) {
    const std::string name = fs::path(file).filename().string();
    const std::string ext = name.find('.') == std::string::npos ? ".s" : name.substr(name.rfind('.'));
    path = fs::temp_directory_path() /
           ("tlmcraft-codesign-" + std::to_string(getpid()) + "-" + std::to_string(counter()++) + ext);
    std::ofstream(path, std::ios::binary) << text;
  }
  ~KernelFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
  static std::atomic<int>& counter() {
    static std::atomic<int> n{0};
    return n;
  }
};

}  // namespace

uint64_t coral_kernel_simulations() { return simulations(); }

const nlohmann::json& coral_hardware_config(const nlohmann::json& hardware) {
  static const nlohmann::json empty = nlohmann::json::object();
  return hardware.contains("config") && hardware["config"].is_object() ? hardware["config"] : empty;
}

CoralKernelRun run_coral_kernel(const std::string& kernel, const std::string& file, const nlohmann::json& hardware,
                                std::shared_ptr<const isa::riscv::CustomExtensions> custom,
                                const nlohmann::json& overlay) {
  const std::string task = hardware.value("task", std::string()), config = hardware.value("task_config", std::string());
  if (task.empty() || config.empty())
    throw std::invalid_argument(file + ": the Coral adapter needs the kernel's task and configuration to run it");
  CoralKernelRun out;
  static std::mutex one_run_at_a_time;
  const std::lock_guard<std::mutex> lock(one_run_at_a_time);
  try {
    tlmcraft::coral::CoralPlatform platform(config_of(hardware, custom));
    const tasks::Instance inst = tasks::Registry::builtin().instance(task, "coral", config);
    const KernelFile f(kernel, file);  // one name for both builds: the second is a cache hit
    std::vector<isa::Diagnostic> diags;
    if (!platform.assemble(kernel, f.path.string(), KernelContext{inst.layout()->kernel_defaults(), 60}, out.program,
                           diags)) {
      std::string first;
      for (const auto& d : diags)
        if (d.severity == isa::Severity::Error && first.empty()) first = d.format();
      throw std::invalid_argument(file + ": does not build: " + first);
    }
    const std::string key = coral_run_key(out.program, task, config, effective_config(hardware), task_spec_text(inst),
                                          custom.get(), overlay);
    if (const auto memo = load_memo_run(key)) {
      fill_from_memo(*memo, out);
      return out;
    }
    ++simulations();
    platform.record_executions(true);
    EvalOptions o;
    o.platform = "coral";
    o.task = task;
    o.config = config;
    o.kernel_path = f.path.string();
    o.trials = 1;
    o.seed = 1;
    o.compare_baseline = false;
    const nlohmann::json rep = evaluate(platform, o);
    out.status = rep.value("status", std::string("?"));
    out.cycles = rep.value("cycles", 0.0);
    for (const auto& l : rep.value("hot_lines", nlohmann::json::array()))
      out.hot_lines.emplace_back(l.value("line", 0), l.value("cycles", 0.0));
    out.executions = platform.top().executions_by_word();
    const nlohmann::json added = rep.value("added_instructions", nlohmann::json::object());
    for (auto it = added.begin(); it != added.end(); ++it)
      out.added[it.key()] = {it.value().value("static", uint64_t(0)), it.value().value("executions", uint64_t(0))};
    // A wall-clock timeout depends on the host, not on the image: never memoised.
    if (out.status != "timeout")
      store_memo_run(key, {out.executions, out.status, out.cycles, out.hot_lines, out.added});
  } catch (const InputError& e) {
    throw std::invalid_argument(file + ": " + e.what());
  } catch (const std::runtime_error& e) {  // tasks::TaskError and the like
    throw std::invalid_argument(file + ": " + e.what());
  }
  return out;
}

}  // namespace tlmcraft::agent::search::coral
