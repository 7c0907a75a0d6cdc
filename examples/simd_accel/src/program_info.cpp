#include "program_info.h"

#include "isa/fused.h"
#include "platforms/platform.h"

namespace simd_accel {

namespace {

using tlmcraft::InputError;

std::string at_line(const tlmcraft::isa::Program& p, const tlmcraft::isa::Instruction& in) {
  return p.source_name + ":" + std::to_string(in.line);
}

Step make_step(const tlmcraft::isa::IsaSpec& spec, const tlmcraft::isa::Instruction& in, const std::string& where) {
  const auto& ins = spec.instruction(in);
  Step s{find_semantics(ins.mnemonic), &ins, in};
  if (!s.exec)
    throw InputError(where + ": " + ins.mnemonic + " (" + spec.file() + ":" + std::to_string(ins.line) +
                     ") has no semantics: add its function to examples/simd_accel/src/semantics.cpp, or make it a fused instruction");
  return s;
}

}  // namespace

LoadedProgram prepare_program(std::shared_ptr<const tlmcraft::isa::IsaSpec> spec, const tlmcraft::isa::Program& program,
                              const TimingModel& timing) {
  if (program.isa != spec->name()) throw InputError("program was assembled for ISA '" + program.isa + "', not " + spec->name());
  LoadedProgram out{spec, program, {}};
  out.info.reserve(program.code.size());
  for (const auto& in : program.code) {
    const auto& ins = spec->instruction(in);
    InstructionInfo info;
    info.spec = &ins;
    info.accesses = spec->accesses(in);
    info.latency = timing.latency(ins);
    for (size_t u = 0; u < spec->units().size(); ++u)
      if (spec->units()[u].name == ins.unit) info.unit = u;
    const std::string where = at_line(program, in);
    if (!ins.is_fused()) {
      info.steps.push_back(make_step(*spec, in, where));
    } else {
      std::vector<tlmcraft::isa::Instruction> steps;
      std::string error;
      if (!tlmcraft::isa::expand_fused(*spec, in, steps, error)) throw InputError(where + ": " + error);
      for (const auto& st : steps) {
        const auto& step = spec->instruction(st);
        if (step.unit == "dma" || step.loop != tlmcraft::isa::LoopRole::None)
          throw InputError(where + ": fused " + ins.mnemonic + " has the step " + step.mnemonic +
                           ": DMA and loop instructions cannot be fused");
        info.steps.push_back(make_step(*spec, st, where));
      }
    }
    out.info.push_back(std::move(info));
  }
  return out;
}

}  // namespace simd_accel
