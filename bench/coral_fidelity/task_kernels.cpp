#include "bench/coral_fidelity/task_kernels.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "tasks/registry.h"

namespace tlmcraft::bench {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool is_kernel_file(const fs::path& p) {
  const std::string ext = p.extension();
  return ext == ".c" || ext == ".s" || ext == ".S";
}

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// An agent-bench --out directory: workspaces/s<k>/<task>_<platform>_<config>/v<NNN>.<ext>, the
// versions in the order the agent wrote them; identical texts count once. Each keeps the file
// name its evaluation compiled it under (its path), so the toolchain's build cache answers.
std::vector<FidelityCase> agent_bench_cases(const fs::path& dir, const std::string& kind) {
  std::vector<FidelityCase> cases;
  for (const fs::path& sample : sorted_entries(dir / "workspaces")) {
    for (const fs::path& ws : sorted_entries(sample)) {
      const std::string w = ws.filename();
      const size_t a = w.find('_'), b = w.rfind('_');
      if (!fs::is_directory(ws) || a == std::string::npos || a == b) continue;
      const std::string task = w.substr(0, w.rfind('_', b - 1)), config = w.substr(b + 1);
      std::set<std::string> seen;
      for (const fs::path& file : sorted_entries(ws)) {
        const std::string f = file.filename();
        if (!is_kernel_file(file) || f[0] != 'v' || f.find_first_not_of("0123456789", 1) != f.find('.')) continue;
        std::string text = read_text(file);
        if (!seen.insert(text).second) continue;
        const std::string name = "v" + std::to_string(std::stoul(f.substr(1))) + file.extension().string();
        cases.push_back({kind, task + "/" + config + "/" + name, task, config, file.string(), std::move(text)});
      }
    }
  }
  return cases;
}

}  // namespace

std::vector<FidelityCase> task_kernel_cases(const std::string& dir, const std::string& kind) {
  if (fs::is_directory(fs::path(dir) / "workspaces")) return agent_bench_cases(dir, kind);
  const auto& reg = tasks::Registry::builtin();
  std::vector<FidelityCase> cases;
  for (const fs::path& task_dir : sorted_entries(dir)) {
    const std::string task = task_dir.filename();
    if (!fs::is_directory(task_dir)) continue;
    if (!reg.find(task))
      throw std::runtime_error(task_dir.string() + ": not a task name (expected DIR/<task>/<config>)");
    for (const fs::path& config_dir : sorted_entries(task_dir)) {
      if (!fs::is_directory(config_dir)) continue;
      const std::string config = config_dir.filename();
      for (const fs::path& file : sorted_entries(config_dir)) {
        if (!is_kernel_file(file)) continue;
        cases.push_back({kind, task + "/" + config + "/" + file.filename().string(), task, config,
                         file.filename().string(), read_text(file)});
      }
    }
  }
  return cases;
}

std::string task_family(const std::string& task) {
  static const std::pair<const char*, const char*> kFamilies[] = {
      {"gemm", "gemm-like"},          {"batchmatmul", "gemm-like"}, {"linear", "gemm-like"},
      {"ffn", "gemm-like"},           {"swiglu", "gemm-like"},      {"conv2d", "conv"},
      {"depthwise_conv", "conv"},     {"conv_block", "conv"},       {"relu", "elementwise"},
      {"gelu", "elementwise"},        {"silu", "elementwise"},      {"softmax", "normalisation"},
      {"layernorm", "normalisation"}, {"rmsnorm", "normalisation"}, {"gemv", "gemv"}};
  for (const auto& [name, family] : kFamilies)
    if (task == name) return family;
  return "cpu";
}

}  // namespace tlmcraft::bench
