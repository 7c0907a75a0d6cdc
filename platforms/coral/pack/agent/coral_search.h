// `codesign explore --kernel-generation search` on Coral (agent/codesign/kernel_dataflow.h,
// search_kernel): the search agent's transformations of Coral C kernels
// (coral_candidates.h: LMUL scaling, DTCM staging, unroll pragmas) chosen as the search
// agent chooses them, by running them. Coral has no static estimate, so each candidate is
// built with the variant's custom instructions (the toolchain's peephole places them, as
// `bench --isa-ext` does) and run once on the task's seed-1 inputs: the fastest passing
// kernel wins.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::search::coral {

// The bound on a kernel's search: at most kSearchRounds batches of kSearchBatch
// candidates (the search agent's batch), each one build and one run, besides the
// kernel's own: 1 + 6 x 4 = 25 runs at most.
constexpr int kSearchRounds = 6;
constexpr size_t kSearchBatch = 4;

// The fastest kernel passing on seed 1 among the kernel and the candidates of the search
// agent's best-first policy (agent/search/candidates.h, next_batch: each batch from the
// best passing kernels so far, each parent's candidates ranked by its profile), built and
// run with `overlay`'s instructions (an empty object: the shipped ISA); ties keep the
// earlier. The uses are those of a build and run of the result. An assembly kernel, or one
// that does not pass, comes back unchanged.
codesign::KernelRewrite coral_search_kernel(const std::string& kernel, const nlohmann::json& overlay,
                                            const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::coral
