// PLENA's search-agent transformations (of assembly kernels) register themselves
// (agent/search/search_transformations.h), and its co-design adapter with them
// (agent/codesign/kernel_dataflow.h).
#include "platforms/plena/pack/agent/plena_candidates.h"
#include "platforms/plena/pack/agent/plena_dataflow.h"

namespace tlmcraft::agent::search {

void register_plena_agent_pack() {
  register_candidate_generator(
      {"plena assembly", [](const SearchContext& ctx) { return ctx.platform == "plena" && ctx.language.empty(); },
       [](const std::string& parent, const SearchContext& ctx) {
         return plena::generate_plena_candidates(parent, ctx);
       }});
  codesign::register_dataflow_adapter("plena", plena::plena_dataflow_adapter());
}

}  // namespace tlmcraft::agent::search
