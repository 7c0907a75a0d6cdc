// Compositions whose steps carry their own SEW/LMUL (docs/isa-extensions.md, "Steps at
// another element width"): a step `vsetvli zero, zero, e16, m4, ta, ma` changes the
// scratch hart's vtype for the steps after it (vl kept), so a widening chain such as
// vwmul.vx at e8 then vwadd.wv at e16 is one instruction. Each name then needs a register
// group as large as the widest value it holds at any step (a widening step's destination
// and a `.w` source span twice LMUL, a vector load step's destination its EMUL), at the
// element width it has there.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {

// Parses the operands of a vtype step ("zero", "zero", "e16", "m4", "ta", "ma") into the
// vsetvli immediate (vtype); false with `why` set when it is not the vl-keeping form
// with a supported SEW (e8, e16, e32), LMUL (mf8..m8) and both policies.
bool parse_vtype_step(const std::vector<std::string>& operands, uint32_t& vtype, std::string& why);
// The same from the four vtype words ("e16", "m4", "ta", "ma") as vset* lines print them.
bool parse_vtype_words(const std::vector<std::string>& words, uint32_t& vtype);
// "e16, m4, ta, ma" for a vtype immediate.
std::string vtype_text(uint32_t vtype);
// Registers of one group at the vtype's LMUL (1 for a fractional LMUL).
unsigned lmul_registers(uint32_t vtype);
// SEW/LMUL as a fraction (numerator, denominator in eighths): equal ratios give equal VLMAX.
bool same_vl_ratio(uint32_t a, uint32_t b);
// Tail and mask policy bits (vta, vma) equal.
bool same_policies(uint32_t a, uint32_t b);

// A unit-stride or strided vector load or store (vle8.v, vse32.v, vlse16.v, vle8ff.v):
// its EMUL = EEW x LMUL / SEW depends on the SEW/LMUL ratio alone, so it depends on vl,
// that ratio and the policies, not on SEW itself.
bool reads_only_vl(const std::string& mnemonic);

// Whether any step of the composition changes vtype.
bool changes_vtype(const CustomInsn& in);

// The SEW (bytes) a composition across a vtype change runs its first steps at where it is
// placed: its last vtype step's (the peephole places it only where the window starts at that
// vtype); 4 for one without vtype steps.
unsigned placed_sew_bytes(const CustomInsn& in);

// The group each name needs when the instruction starts at vtype `entry`: registers
// (the widest span over its steps) and the widest element it holds, in bytes.
struct NameGroup {
  unsigned registers = 1;
  unsigned element_bytes = 0;
};
std::vector<NameGroup> name_groups(const CustomInsn& in, uint32_t entry);
// Whether every vector load step's EMUL (EEW / SEW x LMUL at the vtype it runs at) is a legal
// group size (1/8..8) when the instruction starts at `entry` (load_step.h).
bool vector_loads_fit(const CustomInsn& in, uint32_t entry);

// Hidden registers for the names: each vector name an aligned group of its size (largest
// first; v0 kept for the mask), x and f names from x1 and f0. False when they do not fit.
bool allocate_scratch(const CustomInsn& in, const std::vector<NameGroup>& groups, std::vector<uint32_t>& reg);

// Where a composition's window starts at vtype `entry`: whether replacing it leaves vtype and
// vl as the steps do (each vtype step keeps the ratio, so vl; the last sets `entry` again),
// so that the instruction, which changes neither, stands for the whole window.
bool window_keeps_vtype(const CustomInsn& in, uint32_t entry);
// Whether the instruction executes at `entry` with these registers (per operand, its
// register number; scalars ignored): each vector operand starts a group of its size and
// the names fit the scratch register file.
bool operands_fit(const CustomInsn& in, uint32_t entry, const std::vector<int>& operand_registers);

}  // namespace tlmcraft::isa::riscv
