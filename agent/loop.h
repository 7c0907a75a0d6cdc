// The refinement loop: a model turn, its tool calls run in order, each answered with a
// tool message; phase 1 until a correct version exists, then phase 2 (reduce cycles
// while staying correct). Stops when the round budget is used up, after a submit call,
// after a turn without tool calls (once a reminder went unanswered), or on a provider
// error. Every event goes to the transcript; --resume continues from its last complete
// round.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/llm.h"
#include "agent/pricing.h"
#include "agent/system_prompt.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent {

struct LoopOptions {
  Workload workload;                 // the workload whose best kernel is the result
  int budget = 0;                    // model turns (rounds); 0 = default_budget(level)
  int level = 0;                     // task level (for the default budget); 0 = look it up
  int max_reminders = 1;             // turns without tool calls answered with a reminder
  std::string transcript_path;       // empty: no transcript (and no resume)
  bool resume = false;               // continue from transcript_path's last complete round
  SystemPrompt prompt;               // the system prompt (build_system_prompt)
  nlohmann::json run_info;           // extra fields for the start event (provider options, ...)
  // Context management (agent/context_compaction.h): when the estimated next request plus
  // output_reserve_tokens exceeds context_tokens, older rounds are compacted first; a
  // provider's context-length error compacts once more and retries. 0 = no budget (only
  // the provider's error compacts).
  size_t context_tokens = 0;
  size_t output_reserve_tokens = 0;  // the per-turn completion limit kept free
  std::optional<ModelPrice> price;   // prices the usage (cost_usd); none: cost unknown
  // Progress lines ("round 3: write_code, run_evaluation -> pass 120 cycles"); may be empty.
  std::function<void(const std::string&)> log;
};

struct LoopResult {
  std::string stop_reason;           // "submit", "budget", "no_tool_call", "provider_error"
  std::string error;                 // provider error text (stop_reason provider_error)
  int rounds = 0;                    // model turns used
  int budget = 0;
  int first_correct_round = 0;       // round of the first passing evaluation; 0 = none
  int evaluations = 0;               // run_evaluation calls on the workload
  int tool_calls = 0;
  int tool_errors = 0;
  Usage usage;                       // tokens over all turns
  std::optional<double> cost_usd;    // usage priced by LoopOptions::price
  int compactions = 0;               // times the conversation was compacted
  int phase = 1;
  bool solved() const { return best_version > 0; }
  int best_version = 0;              // best correct version (0 = none)
  std::string best_path;             // its file in the workspace
  std::string best_kernel;           // its source
  uint64_t best_cycles = 0;
  std::optional<uint64_t> baseline_cycles;
  std::optional<double> speedup;
  bool resumed = false;
  nlohmann::json to_json() const;
  static LoopResult from_json(const nlohmann::json&);
};

// Runs the loop. Throws std::runtime_error only for an unusable transcript (cannot be
// written, or --resume of one that does not parse / belongs to another workload).
LoopResult run_agent_loop(Provider& provider, Toolbox& toolbox, const LoopOptions& options);

}  // namespace tlmcraft::agent
