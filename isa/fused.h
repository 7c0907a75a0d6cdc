// Fused instructions: an ISA YAML entry with `fused:` is a sequence of existing
// instructions with its own opcode, unit and latency class. Each step is an assembly line
// whose operands are the fused instruction's operand names or literals, e.g.
//   fused: ["V_SUB_VF rd, rs1, f0, rmask, 1", "V_EXP_V rd, rd, rmask"]
// A platform runs the expanded steps with its existing semantics and times the whole as
// one instruction of the fused entry's unit and latency class, so adding one needs no
// rebuild (docs/architecture.md, "Adding an instruction").
#pragma once
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/program.h"

namespace tlmcraft::isa {

// The steps of the fused instruction `in` with its operand values substituted, each an
// ordinary Instruction of `spec` (line/col copied from `in`). False, with `error` naming
// the step, when a step does not assemble with these values.
bool expand_fused(const IsaSpec& spec, const Instruction& in, std::vector<Instruction>& steps, std::string& error);

// Problems with the fused instructions of `spec`, each "file:line: message": unknown or
// fused steps, loop steps, operands that are neither operand names nor valid literals.
std::vector<std::string> check_fused_instructions(const IsaSpec& spec);

}  // namespace tlmcraft::isa
