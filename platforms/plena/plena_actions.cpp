#include "platforms/plena/plena_actions.h"

#include "isa/extension/expression.h"
#include "platforms/platform.h"

namespace tlmcraft::plena {
namespace sem = isa::plena;

namespace {

// Bytes per register of each PLENA register class: gp 32-bit, fp bf16, addr 64-bit HBM bases.
uint64_t register_bytes(const std::string& reg_class) {
  if (reg_class == "gp") return 4;
  if (reg_class == "fp") return 2;
  if (reg_class == "addr") return 8;
  throw InputError("ISA YAML: register class '" + reg_class + "' has no width in the PLENA energy model");
}

// Bytes per element of each on-chip memory (addresses count elements).
uint64_t element_bytes(sem::Memory m) { return m == sem::Memory::INT_MEM ? 4 : 2; }

const char* storage_name(sem::Memory m) {
  switch (m) {
    case sem::Memory::MSRAM: return "msram";
    case sem::Memory::VRAM: return "vram";
    case sem::Memory::FP_MEM: return "fp_mem";
    case sem::Memory::INT_MEM: return "int_mem";
  }
  return "vram";
}

// Register-file traffic of one execution, from the operands' roles (zero registers excluded).
isa::NamedActions register_traffic(const isa::IsaSpec& spec, const isa::Instruction& in) {
  isa::InstructionWork w;
  const isa::Accesses acc = spec.accesses(in);
  for (auto [list, write] : {std::pair{&acc.reads, false}, std::pair{&acc.writes, true}})
    for (const auto& r : *list) {
      const std::string& cls = spec.register_classes()[r.reg_class].name;
      const uint64_t bytes = register_bytes(cls);
      w.traffic.push_back({cls, write ? 0 : bytes, write ? bytes : 0});
    }
  return isa::actions_of(w);
}

isa::NamedActions declared(const isa::IsaSpec& spec, const isa::InstructionSpec& ins,
                           const std::map<std::string, uint64_t>& params) {
  try {
    return isa::declared_actions(spec, ins, params);
  } catch (const isa::ActionError& e) {
    throw InputError(e.what());
  }
}

std::map<std::string, uint64_t> parameters(const isa::IsaSpec& spec, const PlenaConfig& cfg) {
  return isa::action_parameters(spec, {{"MLEN", cfg.mlen}, {"VLEN", cfg.vlen}, {"BLEN", cfg.blen}, {"HLEN", cfg.hlen}});
}

}  // namespace

// A `semantics:` instruction performs the operations its expression counts
// (isa/extension: per lane of a VLEN row, or once for a scalar), on its own unit.
isa::NamedActions plena_expression_actions(const isa::InstructionSpec& ins, uint64_t vlen) {
  isa::InstructionWork w;
  for (const auto& c : ins.expr->op_counts)
    w.ops.push_back({ins.unit, c.op, isa::extension::format_name(c.format),
                     uint64_t(c.per_element) * (c.lanes == 0 ? vlen : c.lanes)});
  try {
    return isa::actions_of(w);
  } catch (const isa::ActionError& e) {
    throw InputError("instruction " + ins.mnemonic + ": " + e.what());
  }
}

isa::NamedActions plena_instruction_actions(const isa::IsaSpec& spec, const isa::Instruction& in,
                                           const std::vector<isa::Instruction>& fused_steps,
                                           const std::map<std::string, uint64_t>& params) {
  isa::NamedActions own = isa::merge_actions(register_traffic(spec, in), {{"fetch.instruction", 1}});
  const isa::InstructionSpec& ins = spec.instruction(in);
  if (ins.has_expression()) return isa::merge_actions(own, plena_expression_actions(ins, params.at("VLEN")));
  if (fused_steps.empty()) return isa::merge_actions(own, declared(spec, ins, params));
  // A fused instruction does its steps' arithmetic; its registers are its own operands
  // (read once), its temporaries stay in the datapath (the SRAM ranges the steps share are
  // merged by execute_fused and counted once while running).
  std::vector<isa::NamedActions> steps;
  for (const auto& s : fused_steps) steps.push_back(declared(spec, spec.instruction(s), params));
  return isa::merge_actions(own, isa::compose_actions(steps, {}));
}

PlenaActions plena_program_actions(const isa::IsaSpec& spec, const isa::Program& program,
                                   const std::vector<std::vector<isa::Instruction>>& fused, const PlenaConfig& cfg) {
  PlenaActions a;
  const auto params = parameters(spec, cfg);
  // The catalog first: every action any instruction of the ISA can perform, so a report
  // lists them all (zero when unused) and the ppa table's counters always resolve.
  a.catalog.id("fetch.instruction");
  for (const auto& rc : spec.register_classes()) {
    a.catalog.id(rc.name + ".read_bytes");
    a.catalog.id(rc.name + ".write_bytes");
  }
  for (sem::Memory m : {sem::Memory::MSRAM, sem::Memory::VRAM, sem::Memory::FP_MEM, sem::Memory::INT_MEM}) {
    a.sram_read[size_t(m)] = a.catalog.id(std::string(storage_name(m)) + ".read_bytes");
    a.sram_write[size_t(m)] = a.catalog.id(std::string(storage_name(m)) + ".write_bytes");
  }
  a.hbm_read = a.catalog.id("hbm.read_bytes");
  a.hbm_write = a.catalog.id("hbm.write_bytes");
  for (const auto& ins : spec.instructions())
    for (const auto& x : declared(spec, ins, params)) a.catalog.id(x.name);
  for (size_t pc = 0; pc < program.code.size(); ++pc)
    a.per_pc.push(plena_instruction_actions(spec, program.code[pc], fused[pc], params), a.catalog);
  return a;
}

void count_sram_traffic(const PlenaActions& a, const sem::StepResult& step, isa::ActionCounter& counter) {
  for (uint8_t i = 0; i < step.n_reads; ++i) {
    const sem::MemRange& r = step.reads[i];
    bool repeated = false;  // one row read for two operands is one access
    for (uint8_t k = 0; k < i; ++k)
      repeated |= step.reads[k].mem == r.mem && step.reads[k].first == r.first && step.reads[k].count == r.count &&
                  step.reads[k].rows == r.rows && step.reads[k].stride == r.stride;
    if (!repeated) counter.add(a.sram_read[size_t(r.mem)], r.elements() * element_bytes(r.mem));
  }
  for (uint8_t i = 0; i < step.n_writes; ++i)
    counter.add(a.sram_write[size_t(step.writes[i].mem)], step.writes[i].elements() * element_bytes(step.writes[i].mem));
}

}  // namespace tlmcraft::plena
