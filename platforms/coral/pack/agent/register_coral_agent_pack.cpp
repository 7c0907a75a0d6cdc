// Coral's search-agent transformations (of C kernels) register themselves
// (agent/search/search_transformations.h); each evaluation's profile steers them.
#include "platforms/coral/pack/agent/coral_candidates.h"

namespace tlmcraft::agent::search {

void register_coral_agent_pack() {
  register_candidate_generator({"coral C", [](const SearchContext& ctx) { return ctx.language == "c"; },
                                coral::generate_coral_candidates, /*uses_profile=*/true});
}

}  // namespace tlmcraft::agent::search
