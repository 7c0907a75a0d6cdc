// Coral's search-agent transformations (of C kernels) register themselves
// (agent/search/search_transformations.h); each evaluation's profile steers them.
#include "agent/codesign/kernel_dataflow.h"
#include "platforms/coral/pack/agent/coral_candidates.h"
#include "platforms/coral/pack/agent/coral_dataflow.h"

namespace tlmcraft::agent::search {

void register_coral_agent_pack() {
  register_candidate_generator({"coral C", [](const SearchContext& ctx) { return ctx.language == "c"; },
                                coral::generate_coral_candidates, /*uses_profile=*/true});
  codesign::register_dataflow_adapter("coral", coral::coral_dataflow_adapter());
}

}  // namespace tlmcraft::agent::search
