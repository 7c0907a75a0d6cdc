// simd_accel's search-agent transformations (docs/platform-sdk.md, "Search-agent
// transformations"): unrolling an innermost hardware loop by 2, 4 or 8. A simd loop body
// runs `count` times in a row and LOOP_END costs an issue slot per iteration, so a body
// repeated f times under count / f iterations computes the same and saves those slots.
// Refused when the body names the loop's counter register (its value inside the body
// changes) or the result exceeds the size limit; the counter ends at 0 either way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "agent/search/search_transformations.h"

namespace simd_accel {

// A LOOP .. LOOP_END pair with no loop inside, by line index (0-based) in the kernel text.
struct InnermostLoop {
  size_t start = 0, end = 0;  // the LOOP line and its LOOP_END line
  std::string counter;        // "s10"
  int64_t count = 0;
};
std::vector<InnermostLoop> innermost_loops(const std::vector<std::string>& lines);

// The kernel with loop `loop` unrolled by `factor` (count % factor == 0, factor < count);
// false with `why` set when refused.
bool unroll_loop(const std::vector<std::string>& lines, const InnermostLoop& loop, int64_t factor,
                 size_t max_instructions, std::string& out, std::string& why);

// Every legal unrolling of `parent`, ranked by executed instructions (fewer first).
std::vector<tlmcraft::agent::search::Candidate> simd_candidates(const std::string& parent,
                                                                const tlmcraft::agent::search::SearchContext& context);

// Registers simd_candidates for simd_accel's assembly kernels.
void register_search_transformations();

}  // namespace simd_accel
