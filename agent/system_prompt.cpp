#include "agent/system_prompt.h"

#include <sstream>

#include "agent/docs_index.h"
#include "agent/tool_text.h"
#include "platforms/registry.h"
#include "tasks/registry.h"

namespace tlmcraft::agent {
namespace {

std::string role_text(const Workload& w) {
  std::ostringstream o;
  o << "You are an expert kernel engineer writing a kernel in the native ISA of the " << w.platform
    << " accelerator, which runs on a cycle-accurate virtual platform.\n\n"
       "Work only through the tools; answer every turn with at least one tool call.\n"
       "Phase 1 (correctness): write the complete kernel with write_code, check it with check_syntax, then "
       "run_evaluation. If it fails, use view_output (got/want per row, first mismatches) and grep_docs (ISA and "
       "platform reference) to find the cause, fix it and evaluate again until the status is pass (100% match on "
       "every trial).\n"
       "Phase 2 (performance): once a version passes you will be told; then reduce its cycles while keeping it "
       "correct. Use profile (per-unit busy/stall, hottest lines) and get_instruction_size to see where cycles go. "
       "Every new version must be evaluated; the best correct version is kept automatically.\n"
       "Call submit when you cannot improve further. The run also ends when the round budget is used up.\n"
       "Rules: write whole kernels (write_code replaces the kernel; where the task's kernel contract accepts C, pass "
       "language \"c\"), never read or guess the reference outputs, and keep outputs exactly where the memory layout "
       "says.";
  return o.str();
}

std::string budget_text(int rounds) {
  std::ostringstream o;
  o << "You have " << rounds << " tool rounds (model turns with tool calls). Reaching a correct kernel early leaves "
    << "rounds for optimisation.";
  return o.str();
}

}  // namespace

size_t estimate_tokens(const std::string& text) { return (text.size() + 3) / 4; }

int default_budget(int level) {
  switch (level) {
    case 1: return 15;
    case 2: return 20;
    default: return 25;
  }
}

std::string SystemPrompt::text() const {
  std::string s;
  for (const auto& p : parts) {
    if (!s.empty()) s += "\n\n";
    if (p.name != "role") {
      static const std::pair<const char*, const char*> titles[] = {
          {"task", "Task"}, {"isa", "ISA reference"}, {"hardware", "Hardware configuration"},
          {"layout", "Memory layout"}, {"budget", "Budget"}};
      std::string title = p.name;
      for (const auto& [n, t] : titles)
        if (p.name == n) title = t;
      s += "## " + title + "\n\n";
    }
    s += p.text;
  }
  return s;
}

size_t SystemPrompt::tokens() const {
  size_t n = 0;
  for (const auto& p : parts) n += p.tokens;
  return n;
}

SystemPrompt build_system_prompt(const PromptOptions& o) {
  const Workload& w = o.workload;
  const isa::ScopedIsaVariant isa_variant(o.isa);
  const tasks::Instance inst = tasks::Registry::builtin().instance(w.task, w.platform, w.config);
  auto platform = make_platform(w.platform, o.platform_config, o.overrides);
  const nlohmann::json config = platform->config();

  // describe() ends with the layout text; the layout is its own part here.
  std::string task = inst.describe(), layout;
  if (tasks::has_layout(inst.platform())) {
    layout = inst.layout()->text();
    const auto at = task.rfind(layout);
    if (at != std::string::npos && at + layout.size() == task.size()) task.erase(at);
  }
  while (!task.empty() && (task.back() == '\n' || task.back() == ' ')) task.pop_back();
  while (!layout.empty() && layout.back() == '\n') layout.pop_back();

  std::string mode = "n/a";
  if (config.contains("timing") && config["timing"].is_object() && config["timing"].contains("mode"))
    mode = config["timing"]["mode"].is_string() ? config["timing"]["mode"].get<std::string>() : config["timing"]["mode"].dump();
  std::string hardware = "platform " + w.platform + ", config " + o.platform_config + ", timing mode " + mode + "\n" +
                         yaml_text(config);
  while (!hardware.empty() && hardware.back() == '\n') hardware.pop_back();

  std::string isa = isa_reference(w.platform, config);
  if (isa.empty()) isa = "(no ISA reference is available for " + w.platform + "; use grep_docs)";

  const int rounds = o.budget_rounds > 0 ? o.budget_rounds : default_budget(inst.task().level);
  SystemPrompt p;
  for (auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"role", role_text(w)},
           {"task", task},
           {"isa", isa},
           {"hardware", hardware},
           {"layout", layout.empty() ? "(given in the task text)" : layout},
           {"budget", budget_text(rounds)}}) {
    const size_t t = estimate_tokens(text);
    p.parts.push_back({name, std::move(text), t});
  }
  return p;
}

}  // namespace tlmcraft::agent
