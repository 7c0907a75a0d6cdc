// AIE-ML's search-agent transformations register themselves (agent/search/search_transformations.h).
#include "platforms/aie_ml/pack/agent/aie_candidates.h"

namespace tlmcraft::agent::search {

void register_aie_ml_agent_pack() {
  // A C kernel is never an AIE-ML kernel file: C generators keep precedence.
  register_candidate_generator({"aie_ml bundles",
                                [](const SearchContext& ctx) { return ctx.platform == "aie_ml" && ctx.language != "c"; },
                                aie::generate_aie_candidates});
}

}  // namespace tlmcraft::agent::search
