// The search agent's turn planner: reads what happened so far from the conversation
// (tool calls and their JSON results) and decides the next turn's tool calls.
//
// Turn 1: get_task, get_hardware_config, get_baseline.
// Candidates come from the generator registered for the kernel's format
// (search_transformations.h); with none, the baseline is evaluated and submitted, and the
// turn's text says that no transformations are registered.
// Turn 2: write_code + run_evaluation of the baseline, then the first candidates.
// Turn k: write_code + run_evaluation for each of up to `batch` candidates derived from
//         the best correct kernels so far (best first).
// Last turn (one round left, or nothing left to try): write_code(best) +
//         run_evaluation + submit.
//
// Rounds: one assistant turn is one round. The budget is read from the conversation
// (the loop's "N rounds remaining" / "budget: N rounds" text), else from the task
// level (15/20/25 for levels 1/2/3, the loop's defaults).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/llm.h"
#include "agent/search/candidates.h"

namespace tlmcraft::agent::search {

struct History {
  int rounds = 0;                  // assistant turns so far
  int budget = 0;                  // total rounds (0: unknown yet)
  int remaining = -1;              // total implied by the latest "N rounds remaining" text (-1: none)
  int level = 0;                   // task level from get_task (0: unknown)
  bool have_info = false;          // turn 1's calls were made
  bool baseline_error = false;     // get_baseline failed (no baseline for this workload)
  std::string baseline_error_text;
  std::string baseline;            // baseline source
  std::string language;            // "c" when the baseline is C, else "" (assembly)
  double baseline_cycles = 0;      // from get_baseline (0: unknown)
  bool baseline_evaluated = false;
  std::string platform;            // from get_hardware_config
  nlohmann::json hardware;         // get_hardware_config's result (the generators read their keys)
  bool submitted = false;
  std::vector<Evaluated> evaluated;  // in order of evaluation
};

History read_history(const std::vector<Message>& conversation);

struct PolicyOptions {
  size_t batch = 4;        // candidates per turn
  uint64_t seed = 1;
  size_t max_instructions = 4096;
  bool profile = false;    // the run offers profile: call it after each evaluation when the generator uses it
};

struct Turn {
  std::string text;                                      // what the agent says it does
  std::vector<std::pair<std::string, nlohmann::json>> calls;  // tool name, arguments
};

Turn plan_turn(const History& history, const PolicyOptions& options,
               std::map<std::string, std::vector<Candidate>>* cache = nullptr);

// The round budget the planner assumes (see above).
int effective_budget(const History& history);

}  // namespace tlmcraft::agent::search
