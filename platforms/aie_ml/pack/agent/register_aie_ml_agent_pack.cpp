// AIE-ML's search-agent transformations register themselves (agent/search/search_transformations.h),
// and its co-design adapter with them (agent/codesign/kernel_dataflow.h).
#include "platforms/aie_ml/pack/agent/aie_candidates.h"
#include "platforms/aie_ml/pack/agent/aie_codesign.h"

namespace tlmcraft::agent::search {

void register_aie_ml_agent_pack() {
  // A C kernel is never an AIE-ML kernel file: C generators keep precedence.
  register_candidate_generator({"aie_ml bundles",
                                [](const SearchContext& ctx) { return ctx.platform == "aie_ml" && ctx.language != "c"; },
                                aie::generate_aie_candidates});
  codesign::register_dataflow_adapter("aie_ml", aie::aie_dataflow_adapter());
}

}  // namespace tlmcraft::agent::search
