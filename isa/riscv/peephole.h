// The peephole pass of a variant with composed custom instructions: on compiled RISC-V
// assembly (clang's -S output), every occurrence of a composed instruction's dataflow is
// replaced by the custom instruction (a GNU `.insn` line).
//
// Matching is on dataflow, not text: the last step is found first, then each temp's
// reaching definition inside the basic block; registers are renamed freely, commutative
// sources may be swapped, and independent instructions may be interleaved. A match is
// taken only when the replacement computes the same: no interleaved instruction writes a
// register of the match or reads a temp, no step reads an input after another step of the
// match overwrote it, no vtype change or inline asm in between, and every temp register
// is dead after the match (liveness over the function's control-flow graph) unless it
// is the output. A load step (load_step.h) matches a load with the same offset; memory is
// one pseudo-register that loads read and stores, fences and CSR accesses write, so no
// such op lies between the load and the place of the instruction, and its address register
// is not written in between. A vector instruction is placed only where it can execute: its vector
// registers start groups of the LMUL in effect (the last vset* on every path to it; 8
// when unknown or when paths disagree) and its operands and temps fit the scratch
// register file at that LMUL.
// The instructions are tried the one with the most steps first, ties in the overlay's order
// (isa/dataflow/placement_order.h); each site goes to the first that matches.
#pragma once
#include <map>
#include <string>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {

struct PeepholeResult {
  std::string assembly;                    // the rewritten text
  std::map<std::string, size_t> replaced;  // mnemonic -> occurrences replaced
};

PeepholeResult apply_composed_peephole(const std::string& assembly, const CustomExtensions& ext);

}  // namespace tlmcraft::isa::riscv
