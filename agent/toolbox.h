// The agent's tools (the paper's six plus profile, get_task, get_hardware_config,
// list_tasks), backed by the harness's evaluate(). Shared by the agent loop, the
// built-in search agent and the MCP server, so every client sees the same results.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/llm.h"
#include "isa/isa_variant.h"

namespace tlmcraft::agent {

// A tool's answer: compact text the model acts on, plus the same facts as JSON.
struct ToolResult {
  bool is_error = false;     // bad arguments, unknown tool, unknown workload, ...
  std::string text;
  nlohmann::json data;       // structured result (e.g. the evaluation report)
};

// Names one kernel slot: a task x platform x configuration ("silu/plena/C1").
struct Workload {
  std::string platform, task, config;
  std::string key() const { return task + "/" + platform + "/" + config; }
};

struct ToolboxOptions {
  std::string workspace_dir;               // per-run workspace: kernel versions and reports
  Workload workload;                       // default workload for calls that name none
  std::string platform_config = "default"; // platform YAML config name or path
  std::vector<std::string> overrides;      // KEY=VALUE platform-config overrides
  isa::IsaVariant isa;                     // --isa-dir / --isa-ext: in force during every tool call
  int trials = 3;
  // Development evaluations' first seed: evaluation k of a workload uses seed + k*trials ..;
  // none = fresh seeds from the OS for each evaluation. The final verdict never uses these
  // (agent/verdict.h).
  std::optional<uint64_t> seed;
  // Longest ToolResult.text given to a model; longer texts (a level-3 baseline kernel
  // can be 270 KB) are cut at a line end with a note saying how much was left out. The
  // JSON data is never cut. 0 = no limit.
  size_t max_text_chars = 32000;
};

class Toolbox {
 public:
  virtual ~Toolbox() = default;
  virtual std::vector<ToolSpec> specs() const = 0;
  // Never throws for bad input from the model: arguments that are not JSON, miss a
  // required field or name an unknown tool give is_error with a message saying which.
  virtual ToolResult call(const std::string& tool, const std::string& arguments_json) = 0;
};

// The harness-backed toolbox (agent/tools.cpp).
std::unique_ptr<Toolbox> make_toolbox(const ToolboxOptions& options);

}  // namespace tlmcraft::agent
