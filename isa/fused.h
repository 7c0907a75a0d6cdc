// Expansion of composed instructions (isa/compose.h; `compose:` or legacy `fused:` in the
// ISA YAML): each step is an assembly line whose operands are the instruction's operand
// names, its temporaries or literals, e.g.
//   compose: {temps: [t0], steps: ["V_SUB_VF t0, rs1, f0, rmask, 1", "V_EXP_V rd, t0, rmask"]}
// A platform runs the expanded steps with its existing semantics, with each temporary in
// a register it hides from the program (and restores), and times the whole as one
// instruction of the entry's unit and latency class (or `timing:`), so adding one needs
// no rebuild (docs/isa-extensions.md).
#pragma once
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/program.h"

namespace tlmcraft::isa {

// A register for each temporary of the composed instruction `in`: the lowest register
// of the temporary's class that is not the zero register, not named by any step (as an
// operand value or a literal) and not given to another temporary. False, with `error`,
// when a class runs out.
bool choose_temp_registers(const IsaSpec& spec, const Instruction& in, std::vector<int>& regs, std::string& error);

// The steps of the composed instruction `in` with its operand values substituted and
// temporary i written as register temp_regs[i], each an ordinary Instruction of `spec`
// (line/col copied from `in`). False, with `error` naming the step, when a step does not
// assemble with these values.
bool expand_fused(const IsaSpec& spec, const Instruction& in, const std::vector<int>& temp_regs,
                  std::vector<Instruction>& steps, std::string& error);
// The same for a platform that gives temporaries no storage: an instruction with
// temporaries is an error naming them.
bool expand_fused(const IsaSpec& spec, const Instruction& in, std::vector<Instruction>& steps, std::string& error);

// Problems with one composed instruction once its steps are normalised (isa/compose.h),
// each "file:line:col: message": steps that do not assemble with sample operand values.
std::vector<std::string> check_fused_instruction(const IsaSpec& spec, const InstructionSpec& ins);

}  // namespace tlmcraft::isa
