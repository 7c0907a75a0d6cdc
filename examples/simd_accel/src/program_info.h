// A program prepared for the core: per instruction, what the timing model and the
// semantics need, resolved once at load() so the run loop does no lookups.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/program.h"
#include "semantics.h"
#include "timing.h"

namespace simd_accel {

struct Step {
  Semantics exec = nullptr;
  const tlmcraft::isa::InstructionSpec* spec = nullptr;
  tlmcraft::isa::Instruction instruction;
};

struct InstructionInfo {
  const tlmcraft::isa::InstructionSpec* spec = nullptr;
  tlmcraft::isa::Accesses accesses;
  uint64_t latency = 1;
  size_t unit = 0;           // index into IsaSpec::units()
  std::vector<Step> steps;   // one for an ordinary instruction, the expansion of a fused one
};

struct LoadedProgram {
  std::shared_ptr<const tlmcraft::isa::IsaSpec> spec;
  tlmcraft::isa::Program program;
  std::vector<InstructionInfo> info;  // per PC
};

// Throws tlmcraft::InputError when the program is not simd's, an instruction has no
// compiled semantics, or a fused instruction's steps do not expand (naming line and cause).
LoadedProgram prepare_program(std::shared_ptr<const tlmcraft::isa::IsaSpec> spec, const tlmcraft::isa::Program& program,
                              const TimingModel& timing);

}  // namespace simd_accel
