// Candidate AIE-ML kernels one transformation away from a parent kernel file: bundle
// compaction (agent/search/aie_schedule.h) of every core program, and zero-overhead loop
// unrolling (agent/search/aie_unroll.h) followed by compaction. Ranked by the static
// estimate of aie_schedule.h, equal estimates in a seeded order.
#pragma once
#include <string>
#include <vector>

#include "agent/search/candidates.h"

namespace tlmcraft::agent::search::aie {

std::vector<Candidate> generate_aie_candidates(const std::string& parent, const SearchContext& context);

}  // namespace tlmcraft::agent::search::aie
