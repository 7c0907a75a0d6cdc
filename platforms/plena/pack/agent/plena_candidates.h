// Candidate PLENA kernels one transformation step away from a parent (assembly): simplify,
// hoisting loop invariants, unrolling loops (fully or by 2/4/8) and combinations, each
// cleaned up with simplify() and, in the pipelined timing mode, prefetch-scheduled.
// Ranked by a static cycle estimate of the serial model (docs/search-agent.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/search/search_transformations.h"
#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

// The architecture parameters and timing mode from get_hardware_config's result
// (config.arch.{mlen,vlen,blen,hlen,v_prefetch_rows}, timing_mode); defaults where absent.
Arch arch_of(const nlohmann::json& hardware);
bool is_pipelined(const nlohmann::json& hardware);
// config.memory.msram.elements (16384, four 64 x 64 tiles, when absent).
int64_t msram_elements_of(const nlohmann::json& hardware);

// Serial-model cycle estimate: executed instructions times their class latency, a
// fixed cost per HBM transfer. Only differences between related kernels matter.
double estimate_cycles(const Block& code, const Arch& arch);

// Every transformation that applies to `parent`, cleaned up with simplify(), distinct
// texts different from the parent's, best estimate first; none if `parent` does not
// assemble.
std::vector<Candidate> generate_plena_candidates(const std::string& parent, const SearchContext& context);
// The same for a region of a kernel (plena_regions.h): `parent` is the region's text and
// `around` what the rest of the kernel fixes for it.
std::vector<Candidate> generate_plena_candidates(const std::string& parent, const SearchContext& context,
                                                 const Surroundings& around);

}  // namespace tlmcraft::agent::search::plena
