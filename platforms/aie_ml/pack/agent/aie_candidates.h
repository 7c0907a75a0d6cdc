// Candidate AIE-ML kernels one step away from a parent kernel file. A step is a
// structural change (none, using the composed ops the ISA was extended with,
// aie_use_added_ops.h, or unrolling one zero-overhead loop or every loop; aie_unroll.h;
// loops left with one iteration are then inlined) followed by bundle compaction
// (isa/aie_ml/bundle_schedule.h, program order or critical path first), with and without
// register reallocation first (aie_regalloc.h), and each once more with offset addressing
// (aie_offsets.h). Distinct texts, ranked by the static estimate of bundle_schedule.h,
// equal estimates in a seeded order. The `.movement` section is never changed. On the
// exposed pipeline (context.hardware's config, compute.pipeline) each candidate carries
// the waits insert_waits puts in (isa/aie_ml/wait_insertion.h), and a parent that reads
// a register before its result lands (its meaning depends on the pipeline) gets none.
#pragma once
#include <string>
#include <vector>

#include "agent/search/candidates.h"

namespace tlmcraft::agent::search::aie {

std::vector<Candidate> generate_aie_candidates(const std::string& parent, const SearchContext& context);

}  // namespace tlmcraft::agent::search::aie
