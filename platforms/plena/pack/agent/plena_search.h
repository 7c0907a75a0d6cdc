// `codesign explore --kernel-generation search` on PLENA (agent/codesign/kernel_dataflow.h,
// search_kernel and search_overlay): the search agent's transformations of PLENA assembly
// (plena_candidates.h: simplify, "use X" for every composed instruction of the ISA in
// force, hoisting, unrolling) applied under the variant's ISA, each round taking the
// candidate of the lowest static estimate, without simulation.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::search::plena {

// At most this many rounds (one transformation each) per kernel: the bound on a kernel's
// search time (each round generates every transformation of the current kernel once).
constexpr int kSearchRounds = 8;

// The kernel after at most kSearchRounds rounds of the search agent's transformations
// under the shipped ISA with `overlay` (an empty object: the shipped ISA), each round the
// candidate of the lowest estimate while it is lower than the kernel's; the overlay's
// instructions in the result, with their executions (loop counts multiplied out). A
// kernel that does not assemble comes back unchanged.
codesign::KernelRewrite plena_search_kernel(const std::string& kernel, const nlohmann::json& overlay,
                                            const nlohmann::json& hardware);

// The instructions of `overlay` a search of `kernel` can place: those the kernel names,
// and those whose steps' mnemonics all occur in it or in such an instruction (the
// transformations copy and delete instructions, never make new mnemonics, and "use X"
// adds only X); an instruction without steps the matcher reads is kept. An empty object
// when none is left.
nlohmann::json plena_search_overlay(const std::string& kernel, const nlohmann::json& overlay,
                                    const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::plena
