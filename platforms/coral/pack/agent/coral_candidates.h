// Candidate Coral kernels one source transformation away from a parent (C with RVV
// intrinsics): LMUL scaling of strip-mined loops, input tensors staged in DTCM, loop
// unroll pragmas. Ordered by a fixed preference that follows the Coral timing model
// (docs/search-agent.md, "Coral"): fewer strip-mine iterations first (each iteration
// pays the scalar loop overhead and a vsetvl), then fewer external-memory reads, then
// fewer backward branches. With a profile of the parent (context.hot_lines), the
// LMUL and unroll candidates of the loops holding the most profiled cycles come first
// and those of loops holding none of the hottest lines last.
#pragma once
#include <string>
#include <vector>

#include "agent/search/candidates.h"

namespace tlmcraft::agent::search::coral {

// Every transformation of `parent` that passes its legality check, as distinct texts
// different from the parent, preferred first (equal preferences in a seeded order).
std::vector<Candidate> generate_coral_candidates(const std::string& parent, const SearchContext& context);

}  // namespace tlmcraft::agent::search::coral
