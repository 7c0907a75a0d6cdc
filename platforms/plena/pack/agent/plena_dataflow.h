// PLENA's adapter for the co-design tools (agent/codesign/kernel_dataflow.h): its kernels
// as dataflow, which ops a new instruction may hold, a candidate's cost and area, and
// the overlay that adds it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/kernel_dataflow.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

// Throws std::invalid_argument naming `file` when the kernel does not assemble.
codesign::KernelDataflow plena_dataflow(const std::string& kernel_text, const std::string& file,
                                        const nlohmann::json& hardware);
// The same for a parsed kernel: one op per instruction node and two per hardware loop
// (C_LOOP_START before its body, C_LOOP_END after), in the order of the tree.
codesign::KernelDataflow plena_dataflow(const Kernel& kernel, const nlohmann::json& hardware);
// Vector instructions and scalar floating-point arithmetic.
bool plena_fusable(const isa::dataflow::Op& op);
codesign::CandidateCost plena_candidate_cost(const isa::dataflow::Pattern& p, const nlohmann::json& hardware);
nlohmann::json plena_overlay(const isa::dataflow::Pattern& p, const std::string& mnemonic,
                             const codesign::CandidateCost& cost, int ordinal);
// The area of an overlay's composed instructions (std::invalid_argument for others).
double plena_overlay_area(const nlohmann::json& overlay, const nlohmann::json& hardware);
// The adapter with the limits of `hardware`'s defaults (register fields rs1..rs3 and rd).
codesign::DataflowAdapter plena_dataflow_adapter();

}  // namespace tlmcraft::agent::search::plena
