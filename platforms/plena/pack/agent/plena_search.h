// `codesign explore --kernel-generation search` on PLENA (agent/codesign/kernel_dataflow.h,
// search_kernel and search_overlay): the search agent's transformations of PLENA assembly
// (plena_candidates.h: simplify, "use X" for every composed instruction of the ISA in
// force, hoisting, unrolling) applied under the variant's ISA, each round taking the
// candidate of the lowest static estimate, without simulation.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::search::plena {

// The bound on a region's search time (plena_regions.h: a top-level loop nest with the
// straight code before it): at most kSearchRounds rounds (one transformation each; a round
// generates every transformation of the current region once), and the kernel grows to at
// most kSearchMaxInstructions static instructions: each region by its share (by size) of
// the growth left, a kernel already over it not at all. At most
// kRegionPasses passes over the regions (a pass that dissolves a loop merges two regions,
// searched in the next).
constexpr int kSearchRounds = 8;
constexpr size_t kSearchMaxInstructions = 1024;
constexpr int kRegionPasses = 4;

// The kernel after the search agent's transformations under the shipped ISA with
// `overlay` (an empty object: the shipped ISA), searched region by region: each region on
// its own, under what the rest of the kernel fixes for it, at most kSearchRounds rounds,
// each round the candidate of the lowest estimate while it is lower than the region's;
// each region's search memoised (plena_region_memo.h), so a variant searches again only the
// regions where an instruction of it can be placed. The regions are then put back together
// and the whole kernel simplified. A kernel of one region is searched as before, whole. The
// overlay's instructions in the result, with their executions (loop counts multiplied out).
// A kernel that does not assemble, or that no region's search improves, comes back unchanged.
codesign::KernelRewrite plena_search_kernel(const std::string& kernel, const nlohmann::json& overlay,
                                            const nlohmann::json& hardware);

// Regions searched in this process so far (memo misses), for tests of the memo.
size_t plena_region_searches();

nlohmann::json plena_search_overlay(const std::string& kernel, const nlohmann::json& overlay,
                                    const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::plena
