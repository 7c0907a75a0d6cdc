// PLENA's search-agent transformations (of assembly kernels) register themselves
// (agent/search/search_transformations.h).
#include "platforms/plena/pack/agent/plena_candidates.h"

namespace tlmcraft::agent::search {

void register_plena_agent_pack() {
  register_candidate_generator({"plena assembly",
                                [](const SearchContext& ctx) { return ctx.platform == "plena" && ctx.language.empty(); },
                                plena::generate_plena_candidates});
}

}  // namespace tlmcraft::agent::search
