// Coral's adapter for the co-design tools (agent/codesign/kernel_dataflow.h): a kernel
// as the dataflow of the program the ISS runs (built by the platform's toolchain, every
// word decoded and disassembled by the ISS) with the per-PC execution counts of a real
// run on the task's seed-1 inputs; which ops a custom instruction may hold; a
// candidate's cost, area and overlay; and the peephole's uses of an overlay.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/kernel_dataflow.h"
#include "isa/program.h"
#include "isa/riscv/custom_ext.h"

namespace tlmcraft::agent::search::coral {

// The dataflow of a built program with per-word executions (program.code[i] at ITCM
// address 4 i). Regions are the basic blocks without their barriers.
codesign::KernelDataflow program_dataflow(const isa::Program& program, const std::vector<uint64_t>& executions,
                                          const nlohmann::json& hardware);
// Builds and runs the kernel (coral_kernel_run.h), then program_dataflow.
codesign::KernelDataflow coral_dataflow(const std::string& kernel, const std::string& file,
                                        const nlohmann::json& hardware);
// Scalar integer and FP arithmetic and vector arithmetic that a compose step can write
// (register-to-register, unmasked, no operand read and written, no divider).
bool coral_fusable(const isa::dataflow::Op& op);
// A subgraph holding vtype changes (vl-keeping `vsetvli zero, zero, ...`) is admissible
// when the vtype before it is known, each change keeps its SEW/LMUL ratio and policies,
// the last sets that vtype again, and nothing outside it between the changes depends on
// SEW (the miner's SubgraphLimits::admissible; the peephole checks the same when it places).
bool coral_vtype_window(const std::vector<isa::dataflow::Op>& ops, const std::vector<size_t>& subgraph);
// A load step's address is read from the register file as the instruction issues: no op of
// the subgraph may compute it (isa/riscv/load_step.h).
bool coral_load_address_is_input(const std::vector<isa::dataflow::Op>& ops, const std::vector<size_t>& subgraph);
// Cycles of one step by the Coral timing model: its unit's latency (the config's figures).
double coral_step_cycles(const std::string& mnemonic, const nlohmann::json& hardware);
// A load step's cycles: the plain DTCM load's (its address read, one block, load_tail).
double coral_load_cycles(const nlohmann::json& hardware);
codesign::CandidateCost coral_candidate_cost(const isa::dataflow::Pattern& p, const nlohmann::json& hardware);
nlohmann::json coral_overlay(const isa::dataflow::Pattern& p, const std::string& mnemonic,
                             const codesign::CandidateCost& cost, int ordinal);
// The added area of an overlay's instructions (declared `area:` or derived).
double coral_overlay_area(const nlohmann::json& overlay, const nlohmann::json& hardware);
// The kernel is unchanged (the peephole pass places the instructions when the variant is
// built); the uses are counted from a build and a seed-1 run with the overlay.
codesign::KernelRewrite coral_use_overlay(const std::string& kernel, const nlohmann::json& overlay,
                                          const nlohmann::json& hardware);
// The overlay JSON loaded as the ISS loads a file (throws std::invalid_argument).
std::shared_ptr<const isa::riscv::CustomExtensions> load_overlay_json(const nlohmann::json& overlay);
codesign::DataflowAdapter coral_dataflow_adapter();

}  // namespace tlmcraft::agent::search::coral
