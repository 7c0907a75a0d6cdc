// PLENA's energy actions (docs/energy-area.md, "Energy by action"): per PC the actions an
// instruction performs every time it executes (its YAML `actions:`, its register reads and
// writes from the operand roles, one instruction fetch), precomputed when a program is
// loaded; the SRAM bytes each execution reads and writes (from the semantics' ranges) and
// the HBM bytes the DMA engines moved are added while running.
#pragma once
#include <array>
#include <vector>

#include "isa/actions.h"
#include "isa/isa_spec.h"
#include "isa/plena/semantics.h"
#include "isa/program.h"
#include "platforms/plena/plena_config.h"

namespace tlmcraft::plena {

struct PlenaActions {
  isa::ActionCatalog catalog;  // every action PLENA can perform, in report order
  isa::ActionLists per_pc;     // the static list of each PC
  std::array<isa::ActionId, 4> sram_read{}, sram_write{};  // by isa::plena::Memory
  isa::ActionId hbm_read = 0, hbm_write = 0;
};

// The actions of one execution of `in` (fused: the sum of its steps; isa::compose_actions).
isa::NamedActions plena_instruction_actions(const isa::IsaSpec& spec, const isa::Instruction& in,
                                           const std::vector<isa::Instruction>& fused_steps,
                                           const std::map<std::string, uint64_t>& params);

// The arithmetic a `semantics:` instruction performs per execution: the operations its
// expression counts (per lane of a `vlen` row, or once for a scalar) on its own unit.
// Throws InputError naming the instruction for an operation the action table lacks.
isa::NamedActions plena_expression_actions(const isa::InstructionSpec& ins, uint64_t vlen);

// Builds the catalog (every instruction of the ISA, every SRAM, HBM) and the per-PC lists.
// Throws InputError naming the YAML line on a bad `actions:` count.
PlenaActions plena_program_actions(const isa::IsaSpec& spec, const isa::Program& program,
                                   const std::vector<std::vector<isa::Instruction>>& fused, const PlenaConfig& cfg);

// Adds the SRAM bytes of one execution's ranges (a range listed twice is read once).
void count_sram_traffic(const PlenaActions& a, const isa::plena::StepResult& step, isa::ActionCounter& counter);

}  // namespace tlmcraft::plena
