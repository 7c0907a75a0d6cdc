// The architect agent (docs/codesign.md, "The architect agent"): an LLM drives the
// co-design loop through four tools over one Exploration, the same store `codesign
// explore` uses, so every variant is evaluated once whoever asks for it:
//   list_candidates       the mined candidates and the proposals, with their estimates
//   propose_instruction   a new candidate: an overlay (YAML text) and a name
//   evaluate_isa_variant  the suite on the variant of some candidates
//   get_pareto            the front over everything evaluated so far
// The same toolbox is served over MCP (`tlmcraft codesign mcp`) and driven by any
// provider (`tlmcraft codesign architect`), with a round budget, a JSONL transcript and
// resume.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/codesign/explorer.h"
#include "agent/llm.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent::codesign {

// Bounds on what a model may propose (untrusted input).
constexpr size_t kMaxOverlayBytes = 64 * 1024;
constexpr size_t kMaxProposals = 64;

class ArchitectToolbox : public Toolbox {
 public:
  ArchitectToolbox(Exploration& exploration, const DataflowAdapter& adapter, nlohmann::json hardware);
  std::vector<ToolSpec> specs() const override;
  ToolResult call(const std::string& tool, const std::string& arguments_json) override;

 private:
  Exploration& ex_;
  const DataflowAdapter& adapter_;
  nlohmann::json hardware_;
  size_t proposals_ = 0;

  ToolResult list_candidates() const;
  ToolResult propose(const nlohmann::json& args);
  ToolResult evaluate(const nlohmann::json& args);
  ToolResult pareto();
};

// The system prompt: the goal, the budget, the suite, the overlay format by example.
std::string architect_prompt(const Exploration& exploration, const std::string& platform);

struct ArchitectOptions {
  int budget = 12;              // model turns
  std::string transcript_path;  // required
  bool resume = false;          // continue after the transcript's last complete round
  std::string system_prompt;
  std::function<void(const std::string&)> log;
};

struct ArchitectResult {
  std::string stop_reason;  // "answer" (a turn without tool calls), "budget", "provider_error"
  std::string error, answer;
  int rounds = 0, tool_calls = 0, tool_errors = 0;
  std::vector<std::string> pareto;
};

// Throws std::runtime_error for a transcript that cannot be written or read back.
ArchitectResult run_architect(Provider& provider, ArchitectToolbox& tools, Exploration& exploration,
                              const ArchitectOptions& options);

}  // namespace tlmcraft::agent::codesign
