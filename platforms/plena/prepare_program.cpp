// Per-PC static timing information, derived from the ISA YAML (unit, latency class,
// register roles) and the platform config (cycles, initiation intervals).
#include <algorithm>
#include <stdexcept>

#include "isa/fused.h"

#include "platforms/plena/plena_platform.h"

namespace tlmcraft::plena {
namespace {

namespace sem = tlmcraft::isa::plena;

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

// Loop-end fusion: the ISA's built-in loop end on the composed instruction's counter.
void add_loop_end(const isa::IsaSpec& spec, const isa::InstructionSpec& is, const isa::Instruction& in,
                  sem::ComposedInstruction& c) {
  for (const isa::InstructionSpec& end : spec.instructions()) {
    if (end.loop != isa::LoopRole::End || end.is_fused() || end.loop_counter < 0) continue;
    c.loop_end.id = end.id;
    c.loop_end.opcode = end.opcode;
    c.loop_end.line = in.line;
    c.loop_end.field[size_t(end.operands[size_t(end.loop_counter)].field)] =
        in.field[size_t(is.operands[size_t(is.loop_counter)].field)];
    c.has_loop_end = true;
    return;
  }
  throw InputError(spec.file() + ": " + is.mnemonic + " is a loop end with composed steps, but the ISA has no built-in loop end");
}

// The steps of a composed instruction at one PC, with its temporaries in borrowed
// registers (semantics.h, ComposedInstruction); they must be compute steps (no DMA).
sem::ComposedInstruction composed(const isa::IsaSpec& spec, const isa::Instruction& in) {
  const isa::InstructionSpec& is = spec.instruction(in);
  const std::string at = "line " + std::to_string(in.line) + ": ";
  sem::ComposedInstruction c;
  std::vector<int> regs;
  std::string err;
  if (!isa::choose_temp_registers(spec, in, regs, err) || !isa::expand_fused(spec, in, regs, c.steps, err))
    throw InputError(at + err);
  const int gp = spec.register_class_index("gp"), fp = spec.register_class_index("fp");
  for (size_t t = 0; t < regs.size(); ++t) {
    const int cls = is.compose.temp_class[t];
    if (cls == gp) c.gp_temps.push_back(uint8_t(regs[t]));
    else if (cls == fp) c.fp_temps.push_back(uint8_t(regs[t]));
    else if (cls >= 0)
      throw InputError(spec.file() + ": " + is.mnemonic + ": temporary '" + is.compose.temps[t] + "' is " +
                       spec.register_classes()[cls].name + " register; PLENA keeps gp (VRAM row) and fp temporaries only");
  }
  if (c.gp_temps.size() > sem::kHiddenVramRows)
    throw InputError(spec.file() + ": " + is.mnemonic + " has " + std::to_string(c.gp_temps.size()) +
                     " gp temporaries; PLENA hides " + std::to_string(sem::kHiddenVramRows) + " VRAM rows for them");
  for (const auto& s : c.steps) {
    const Unit u = unit_of(spec.instruction(s).unit);
    if (u == kPrefetch || u == kStore)
      throw InputError(spec.file() + ": composed instruction " + is.mnemonic + ": step " + spec.instruction(s).mnemonic +
                       " is an HBM transfer, which a composed instruction cannot contain");
    uint16_t mask = 0;
    for (const auto& r : spec.accesses(s).reads)
      if (r.reg_class == gp) mask |= uint16_t(1u << r.number);
    for (uint8_t r : c.gp_temps) mask &= uint16_t(~(1u << r));
    c.step_gp_reads.push_back(mask);
  }
  if (is.loop == isa::LoopRole::End) add_loop_end(spec, is, in, c);
  return c;
}

// A `semantics:` instruction at one PC: where each of its expression's operands lives.
// PLENA's value classes (isa/plena/plena.yaml): vrow, fp, gp, imm.
sem::ExpressionInstruction expression(const isa::IsaSpec& spec, const isa::Instruction& in) {
  const isa::InstructionSpec& is = spec.instruction(in);
  sem::ExpressionInstruction e;
  e.program = is.expr;
  using Storage = sem::ExpressionInstruction::Storage;
  for (int index : is.expr_operands) {
    const isa::OperandSpec& op = is.operands[size_t(index)];
    sem::ExpressionInstruction::Operand o;
    o.name = op.name.c_str();
    o.value = op.field >= 0 ? in.field[op.field] : op.default_value;
    if (op.value == "vrow") o.storage = Storage::VramRow;
    else if (op.value == "fp") o.storage = Storage::Fp;
    else if (op.value == "gp") o.storage = Storage::Gp;
    else if (op.value == "imm") o.storage = Storage::Immediate;
    else throw InputError(spec.file() + ": " + is.mnemonic + ": value class '" + op.value + "' is not a PLENA one");
    e.operands.push_back(o);
  }
  for (const auto& op : is.operands)
    if (op.name == "rmask" && op.field >= 0) e.rmask = in.field[op.field] != 0;
  return e;
}

// Rows the instruction reads and writes through address operands (`value: vrow`).
void row_traffic(const isa::IsaSpec& spec, const isa::InstructionSpec& is, int64_t& reads, int64_t& writes) {
  reads = writes = 0;
  for (const auto& op : is.operands) {
    if (!spec.addresses_value(op)) continue;
    reads += op.role == isa::Role::Read || op.role == isa::Role::ReadWrite;
    writes += op.role == isa::Role::Write || op.role == isa::Role::ReadWrite;
  }
}

// An added instruction's `timing:` (docs/isa-extensions.md, docs/platforms/plena.md):
// latency and ii replace the latency class's in both modes; with read_ports/write_ports
// each port moves one VRAM row per cycle, so reading R rows takes ceil(R / read_ports)
// cycles and neither the latency nor the interval can be shorter.
void apply_timing(const isa::IsaSpec& spec, const isa::InstructionSpec& is, StaticInfo& si) {
  const isa::TimingSpec& t = is.timing;
  if (t.latency >= 0) si.latency = uint32_t(t.latency);
  if (t.ii >= 0) si.ii = uint32_t(t.ii);
  int64_t reads, writes;
  row_traffic(spec, is, reads, writes);
  int64_t port_cycles = 0;
  if (t.read_ports > 0) port_cycles = std::max(port_cycles, (reads + t.read_ports - 1) / t.read_ports);
  if (t.write_ports > 0) port_cycles = std::max(port_cycles, (writes + t.write_ports - 1) / t.write_ports);
  si.latency = std::max<uint32_t>(si.latency, uint32_t(port_cycles));
  si.ii = std::max<uint32_t>(si.ii, uint32_t(port_cycles));
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
    if (!dma && is.timing.given()) apply_timing(spec, is, si);
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
    lp.fused.push_back(is.is_fused() ? composed(spec, in) : sem::ComposedInstruction{});
    lp.expression.push_back(is.has_expression() ? expression(spec, in) : sem::ExpressionInstruction{});
  }
  std::vector<std::vector<isa::Instruction>> steps;
  for (const auto& c : lp.fused) {
    steps.push_back(c.steps);
    if (c.has_loop_end) steps.back().push_back(c.loop_end);  // its counter's decrement counts too
  }
  lp.actions = plena_program_actions(spec, program, steps, cfg);
  for (const isa::InstructionSpec& is : spec.instructions())
    if (is.is_fused() || is.has_expression()) lp.added.push_back(is.mnemonic);
  return lp;
}

}  // namespace tlmcraft::plena
