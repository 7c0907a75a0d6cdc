// Per-PC static timing information, derived from the ISA YAML (unit, latency class,
// register roles) and the platform config (cycles, initiation intervals).
#include <stdexcept>

#include "isa/fused.h"

#include "platforms/plena/plena_platform.h"

namespace tlmcraft::plena {
namespace {

Unit unit_of(const std::string& u) {
  if (u == "scalar_int") return kScalarInt;
  if (u == "scalar_fp") return kScalarFp;
  if (u == "vector") return kVector;
  if (u == "matrix") return kMatrix;
  if (u == "control") return kControl;
  if (u == "hbm_prefetch") return kPrefetch;
  if (u == "hbm_store") return kStore;
  throw InputError("ISA YAML: unit '" + u + "' is not a PLENA unit");
}

uint8_t resource_of(const std::string& name) {
  if (name == "SCALE") return kScale;
  if (name == "STRIDE") return kStride;
  if (name == "V_MASK") return kVMask;
  if (name == "ACC") return kAcc;
  throw InputError("ISA YAML: implicit resource '" + name + "' is unknown to the PLENA timing model");
}

// The instruction's rd operand is a register class's hardwired-zero register (f0, gp0).
bool writes_zero_register(const isa::IsaSpec& spec, const isa::InstructionSpec& is, const isa::Instruction& in) {
  for (const auto& op : is.operands) {
    if (op.name != "rd" || op.field < 0) continue;
    const isa::OperandKind& k = spec.kinds()[op.kind];
    if (k.type != isa::KindType::Register) return false;
    return in.field[op.field] == spec.register_classes()[k.register_class].zero_register;
  }
  return false;
}

// Cycles of a latency class: the platform config's figure, else the ISA YAML's own
// `cycles:` (a fused instruction added by YAML alone), else the config's error.
uint32_t latency_cycles(const isa::IsaSpec& spec, const PlenaConfig& cfg, const std::string& cls) {
  const bool configured = cfg.latency.count(cls) || (cfg.mode == TimingMode::Serial && cfg.serial_latency.count(cls));
  if (!configured && spec.default_cycles(cls) >= 0) return uint32_t(spec.default_cycles(cls));
  return cfg.latency_of(cls);
}

// The steps of a fused instruction at one PC; they must be compute steps (no DMA).
std::vector<isa::Instruction> fused_steps(const isa::IsaSpec& spec, const isa::Instruction& in) {
  std::vector<isa::Instruction> steps;
  std::string err;
  if (!isa::expand_fused(spec, in, steps, err))
    throw InputError("line " + std::to_string(in.line) + ": " + err);
  for (const auto& s : steps) {
    const Unit u = unit_of(spec.instruction(s).unit);
    if (u == kPrefetch || u == kStore)
      throw InputError(spec.file() + ": fused instruction " + spec.instruction(in).mnemonic + ": step " +
                       spec.instruction(s).mnemonic + " is an HBM transfer, which a fused instruction cannot contain");
  }
  return steps;
}

}  // namespace

LoadedProgram prepare_program(const isa::IsaSpec& spec, const isa::Program& program, const PlenaConfig& cfg) {
  LoadedProgram lp;
  lp.program = program;
  const int gp = spec.register_class_index("gp"), fp = spec.register_class_index("fp"),
            addr = spec.register_class_index("addr");
  isa::Accesses acc;
  for (const isa::Instruction& in : program.code) {
    const isa::InstructionSpec& is = spec.instruction(in);
    StaticInfo si;
    si.unit = unit_of(is.unit);
    const bool dma = si.unit == kPrefetch || si.unit == kStore;
    si.latency = dma ? 0 : latency_cycles(spec, cfg, is.latency_class);
    if (cfg.mode == TimingMode::Serial && writes_zero_register(spec, is, in) && cfg.serial_free_when_rd_zero.count(is.mnemonic))
      si.latency = 0;
    si.ii = dma ? 1 : cfg.ii_of(is.latency_class);
    spec.accesses(in, acc);
    auto reg = [&](const isa::RegisterRef& r) -> uint8_t {
      if (r.reg_class == gp) return kGp0 + r.number;
      if (r.reg_class == fp) return kFp0 + r.number;
      if (r.reg_class == addr) return kA0 + r.number;
      throw InputError("ISA YAML: register class " + std::to_string(r.reg_class) + " unknown to the PLENA timing model");
    };
    std::vector<uint8_t> reads, writes;
    for (const auto& r : acc.reads) reads.push_back(reg(r));
    for (const auto& r : acc.writes) writes.push_back(reg(r));
    bool uses_acc = false;
    for (auto [list, dst] : {std::pair{&acc.resource_reads, &reads}, std::pair{&acc.resource_writes, &writes}}) {
      for (uint16_t r : *list) {
        const uint8_t id = resource_of(spec.resources()[r].name);
        if (id == kAcc) uses_acc = true;
        else dst->push_back(id);
      }
    }
    if (uses_acc) si.acc = is.latency_class == "matrix_wo" ? AccUse::Drain : AccUse::Accumulate;
    if (reads.size() > si.reads.size() || writes.size() > si.writes.size())
      throw InputError("ISA YAML: " + is.mnemonic + " touches more registers than the timing model tracks");
    si.nreads = uint8_t(reads.size());
    si.nwrites = uint8_t(writes.size());
    std::copy(reads.begin(), reads.end(), si.reads.begin());
    std::copy(writes.begin(), writes.end(), si.writes.begin());
    lp.info.push_back(si);
    lp.mnemonic.push_back(is.mnemonic);
    lp.cls.push_back(is.cls);
    lp.loop.push_back(static_cast<uint8_t>(is.loop));
    lp.fused.push_back(is.is_fused() ? fused_steps(spec, in) : std::vector<isa::Instruction>{});
  }
  lp.actions = plena_program_actions(spec, program, lp.fused, cfg);
  return lp;
}

}  // namespace tlmcraft::plena
