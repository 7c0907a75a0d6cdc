// Encodes one standard register-to-register instruction written as text ("mul t0, rs1,
// rs2", "vadd.vv rd, t0, rs3", "addi rd, rs1, 3") whose register operands are *names*
// (a custom instruction's operands and temps), for compose steps and the peephole pass.
//
// The table is the disassembler inverted: every OP, OP-IMM, OP-FP, FMA and OP-V word is
// disassembled once with distinct marker registers, and the text it prints says which
// encoding field each operand position holds. So the accepted spelling is exactly what
// the ISS's disassembler (and objdump) prints, with no second table to keep in step.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {

// One operand position of a mnemonic: the field it encodes and its register file
// (ValueClass::Imm for an immediate, with imm_kind as in ComposeStep).
struct StepOperandSlot {
  Field field;
  ValueClass cls;
  int imm_kind = 0;
};

struct StepTemplate {
  std::string mnemonic;
  uint32_t base = 0;  // named fields cleared
  OpClass cls = OpClass::Alu;
  std::vector<StepOperandSlot> slots;
};

// Templates for `mnemonic` (several may differ in operand count); empty when it is not a
// register-to-register RV32IMF/Zve32x instruction (loads, stores, branches, CSRs, vset*
// and anything unknown).
std::vector<const StepTemplate*> step_templates(const std::string& mnemonic);
// Whether `mnemonic` names any standard instruction the disassembler prints (including
// memory and control ones): a custom mnemonic may not reuse it.
bool is_standard_mnemonic(const std::string& mnemonic);

// Splits "mul t0, rs1, rs2" into the mnemonic and operand tokens with their 0-based
// offsets in the text.
struct Token {
  std::string text;
  size_t offset = 0;
};
void split_instruction(const std::string& text, Token& mnemonic, std::vector<Token>& operands);

// Places a register number or immediate into `raw` at `slot`.
uint32_t place(uint32_t raw, const StepOperandSlot& slot, uint32_t value);
// Whether `value` fits the immediate slot.
bool immediate_fits(int imm_kind, int64_t value);

}  // namespace tlmcraft::isa::riscv
