// `agent-bench --dry-run`: tokens and cost of a campaign before spending. A run of R
// rounds whose first request carries P prompt tokens (system prompt, tool schemas, first
// message) grows by G = O + T tokens a round (O: the model's output, a kernel and its
// reasoning; T: the tool results); request r carries P + (r-1)G, capped at the context
// budget. With prompt caching, request r >= 2 reads the previous request's prompt from the
// cache and writes only the G new tokens (request 1 writes P).
#pragma once
#include <cstdint>
#include <optional>

#include "agent/llm.h"
#include "agent/pricing.h"

namespace tlmcraft::agent {

struct RunEstimateInput {
  uint64_t prompt_tokens = 0;        // P
  int rounds = 0;                    // R
  uint64_t output_per_round = 1500;  // O
  uint64_t results_per_round = 500;  // T
  uint64_t context_tokens = 0;       // cap on a request's prompt (0 = none)
  bool prompt_cache = true;
};

// The usage one run is expected to report.
Usage estimate_run_usage(const RunEstimateInput& in);

}  // namespace tlmcraft::agent
