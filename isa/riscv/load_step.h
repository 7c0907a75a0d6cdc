// A load step of a composition (docs/isa-extensions.md, "Load steps"): a scalar load
// (lw, lh, lhu, lb, lbu, flw) or a unit-stride vector load (vle8.v, vle16.v, vle32.v) whose
// address register is one of the instruction's register operands. It reads memory through
// the hart, exactly as the plain load does (same alignment and access checks, same trap).
// How many loads one custom instruction may hold is the ISA's memory port figure
// (custom_memory_ports); stores are refused (no write port).
#pragma once
#include <cstdint>
#include <string>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {

struct LoadStepForm {
  const char* mnemonic;
  uint32_t base;     // the word with rd, rs1 and the offset zero
  ValueClass value;  // the destination's register file
  unsigned bytes;    // element bytes (vector: the EEW)
  bool vector;
};

// The form of a load mnemonic, or nullptr when it is no load a step may hold.
const LoadStepForm* load_step_form(const std::string& mnemonic);

// Splits a memory operand as the disassembler prints it ("8(a1)", "-4(t0)", "(a1)") into
// the offset ("8", "-4", "0") and the register; false when `token` is no memory operand.
bool split_memory_operand(const std::string& token, std::string& offset, std::string& reg);

// "lw rd, 8(rs1)" / "vle8.v rd, (rs1)": a load step as the overlay and the disassembler write it.
std::string load_step_text(const std::string& mnemonic, const std::string& dest, const std::string& offset,
                           const std::string& address);

// How many memory operations one custom instruction may hold: the register-file and LSU
// ports the ISA declares for an added instruction (the co-design miner's memory limit).
struct CustomMemoryPorts {
  int loads, stores;
};
const CustomMemoryPorts& custom_memory_ports();

// Whether the composition holds a load step.
bool has_load_step(const CustomInsn& in);
// The operand (index) a load step takes its address from, or -1 without a load step.
int load_address_operand(const CustomInsn& in);

}  // namespace tlmcraft::isa::riscv
