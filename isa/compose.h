// Composed instructions (docs/isa-extensions.md, "Composed instructions"): an ISA YAML
// entry whose `compose: {temps, steps}` (or legacy `fused: [...]`) runs existing
// instructions as one. Loading checks every step against the whole ISA and makes the
// composition alias-safe: every input is read before any output is written, so
// `V_SILU_V gp3, gp3` computes what the steps compute on gp3's old row.
//
// Dataflow of a step comes from the step instruction's YAML: an operand is written when
// its role is write/readwrite or it names the target of the `operation:` assignment
// ("VRAM[gp[rd]] = ..."); it is read when its role is read/readwrite or it appears on the
// right of that assignment. Each step is taken to read its own operands before it writes
// (true of every single instruction of the shipped ISAs).
#pragma once
#include <string>
#include <vector>

#include "isa/isa_spec.h"

namespace tlmcraft::isa {

// Checks every composed instruction of `spec` and normalises it: the legacy `fused:` form
// gets a fresh temporary for each write of an output other than its last; temporaries'
// register classes are inferred. Returns the problems, each "file:line:col: message".
std::vector<std::string> normalise_compositions(IsaSpec& spec);

// One token of a step line: its text and its column offset within the line.
struct StepToken {
  std::string text;
  size_t offset = 0;
};
// "V_EXP_V t1, t0, rmask" -> mnemonic "V_EXP_V", tokens t1, t0, rmask.
void split_step(const std::string& line, std::string& mnemonic, std::vector<StepToken>& tokens);

// For each operand of `ins` (by index): whether the operand's value is written / read
// (see the header comment), and whether that value is the memory its register
// addresses (`addressed`: an address value class, or the operand appears in the
// operation only as an index of an index, "VRAM[gp[rd]]"; the register itself is then
// only read) or the register itself ("gp[rd] = ...").
struct OperandEffect {
  bool def = false, use = false;
  bool addressed = false;
};
std::vector<OperandEffect> operand_effects(const IsaSpec& spec, const InstructionSpec& ins);

// Operand index of each token of a step of `ins` (omissible placeholders skipped as the
// assembler does); -1 for tokens beyond the operands.
std::vector<int> token_operands(const InstructionSpec& ins, size_t n_tokens);

}  // namespace tlmcraft::isa
