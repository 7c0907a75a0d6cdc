// The automatic rewrite to composed instructions (docs/isa-extensions.md, "Kernels use new
// instructions automatically"): for a composed instruction of the active ISA, its steps'
// dataflow is matched in the kernel's straight-line code and each match replaced by the
// one instruction. A match binds every operand name and temporary of the steps to the
// kernel's registers (any renaming), and may skip instructions between its steps when
// they are pure set-up touching none of the match's registers or resources. It is used
// only when the temporaries' values are dead afterwards: no other instruction of the
// kernel may read a row a temporary's register addresses (checked with the symbolic
// register values of plena_analysis.h, so an unknown address refuses) nor read an fp
// temporary's register. The search agent evaluates every result on fresh seeds.
#pragma once
#include <string>

#include "isa/isa_spec.h"
#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

// Replaces every legal match of `composed`'s steps; returns how many (0: the kernel is
// unchanged, `why` says why when a match was found but refused).
int use_composed(Kernel& kernel, const isa::InstructionSpec& composed, const Arch& arch, std::string& why);

}  // namespace tlmcraft::agent::search::plena
