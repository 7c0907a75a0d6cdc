#include "agent/cost_estimate.h"

#include <algorithm>

namespace tlmcraft::agent {

Usage estimate_run_usage(const RunEstimateInput& in) {
  Usage u;
  const uint64_t growth = in.output_per_round + in.results_per_round;
  uint64_t previous = 0;
  for (int r = 1; r <= in.rounds; ++r) {
    uint64_t prompt = in.prompt_tokens + uint64_t(r - 1) * growth;
    if (in.context_tokens > 0) prompt = std::min(prompt, in.context_tokens);
    u.input_tokens += prompt;
    u.output_tokens += in.output_per_round;
    if (in.prompt_cache) {
      // A compacted (capped) prompt shares only part of its prefix; count the cap as a rewrite.
      const uint64_t cached = r == 1 || prompt < previous ? 0 : previous;
      u.cached_input_tokens += cached;
      u.cache_write_tokens += prompt - cached;
    }
    previous = prompt;
  }
  return u;
}

}  // namespace tlmcraft::agent
