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

// The bound on a kernel's search time: at most kSearchRounds rounds (one transformation
// each; a round generates every transformation of the current kernel once), no candidate
// over kSearchMaxInstructions static instructions, and a kernel over that size is not
// searched at all (each transformation's clean-up costs about its size times its loops:
// the decoders' 2000 to 2600 instructions in 90 to 170 loops take minutes per round).
constexpr int kSearchRounds = 8;
constexpr size_t kSearchMaxInstructions = 1024;

// The kernel after at most kSearchRounds rounds of the search agent's transformations
// under the shipped ISA with `overlay` (an empty object: the shipped ISA), each round the
// candidate of the lowest estimate while it is lower than the kernel's; the overlay's
// instructions in the result, with their executions (loop counts multiplied out). A
// kernel that does not assemble, or is over kSearchMaxInstructions, comes back unchanged.
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
