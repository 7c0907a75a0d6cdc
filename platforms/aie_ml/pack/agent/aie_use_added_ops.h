// Kernels use ops added by data (docs/isa-extensions.md, AIE-ML): every composed op of the
// ISA in force (`compose:` steps) is matched by its dataflow in each basic block of a
// kernel and replaced. A match binds the op's operand and temp names to registers
// consistently (any register renaming), its steps may be separated by independent ops,
// and it is taken only when the replacement computes the same thing:
// - the steps' ops in program order, with the step's mnemonic and, for every operand a
//   step names, the register (or immediate) bound to that name; literal immediates equal;
// - no op between the first and last step writes a register an input name is bound to,
//   or touches a temp's or an output's register; no step writes an input's register;
// - every temp is dead after the last step (its register is an output's, or is written
//   before it is read again in the block);
// - the op fits the last step's bundle (its slot free there, or the last step's own).
// The op takes the last step's place; the other steps leave their bundles (an emptied
// bundle is removed, or becomes a NOP when a label names it).
#pragma once
#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent::search::aie {

// Replaces every match in every tile; returns how many ops it inserted.
int use_composed_ops(isa::aie_ml::AieKernel& kernel);

}  // namespace tlmcraft::agent::search::aie
