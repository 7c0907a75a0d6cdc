#include "platforms/aie_ml/aie_actions.h"

#include <algorithm>
#include <map>

#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/isa_tables.h"
#include "platforms/platform.h"

namespace tlmcraft::aie_ml {
namespace aie = isa::aie_ml;
using aie::RegClass;

namespace {

// Register-file storage and bytes of one register of a class.
struct RegFile {
  const char* storage;
  uint64_t bytes;
};
RegFile reg_file(RegClass c) {
  switch (c) {
    case RegClass::W: return {"vreg", 32};
    case RegClass::X: return {"vreg", 64};
    case RegClass::Y: return {"vreg", 128};
    case RegClass::AM: return {"acc", 32};
    case RegClass::BM: return {"acc", 64};
    case RegClass::CM: return {"acc", 128};
    default: return {"sreg", 4};  // r p m dn dj dc s ls le lc lr cr: 32-bit (20-bit AGU ones priced as 32)
  }
}

bool post_modifies(aie::MemOperand::Mode m) {
  using M = aie::MemOperand::Mode;
  return m == M::PostImm || m == M::PostMod || m == M::Post2D || m == M::Post3D;
}

// The operands' register-file traffic: leading `dst` operands and `rw` ones are written,
// the others (and `rw` ones) read.
void operand_traffic(const aie::SlotOp& op, const aie::OpExtra& ex, isa::InstructionWork& w) {
  for (int i = 0; i < op.n_operands; ++i) {
    const aie::Operand& o = op.operands[i];
    const bool rw = std::find(ex.rw.begin(), ex.rw.end(), i) != ex.rw.end();
    const bool written = i < ex.dst || rw, read = i >= ex.dst || rw;
    if (o.kind == aie::Operand::Kind::Reg) {
      const RegFile f = reg_file(o.cls);
      w.traffic.push_back({f.storage, read ? f.bytes : 0, written ? f.bytes : 0});
    } else if (o.kind == aie::Operand::Kind::Mem) {
      w.traffic.push_back({"sreg", 4, post_modifies(o.mem.mode) ? 4u : 0u});  // the pointer
    }
  }
}

// A composed op (docs/isa-extensions.md): its steps' actions minus the register-file
// traffic of its temporaries, which never leave the datapath.
isa::NamedActions composed_actions(const aie::ExtensionOp& e) {
  std::vector<isa::NamedActions> steps;
  std::map<std::string, isa::StorageTraffic> saved;
  const aie::AieIsaDetails& d = aie::aie_isa_details();
  for (const auto& step : e.steps) {
    steps.push_back(slot_op_actions(step.op));
    const aie::OpExtra& sx = d.extra.at(step.op.op);
    for (const auto& b : step.bindings) {
      if (!b.temp) continue;
      const RegFile f = reg_file(e.temps[size_t(b.index)].cls);
      const bool rw = std::find(sx.rw.begin(), sx.rw.end(), b.step_operand) != sx.rw.end();
      isa::StorageTraffic& t = saved[f.storage];
      t.storage = f.storage;
      if (b.step_operand < sx.dst || rw) t.write_bytes += f.bytes;
      if (b.step_operand >= sx.dst || rw) t.read_bytes += f.bytes;
    }
  }
  std::vector<isa::StorageTraffic> list;
  for (const auto& [name, t] : saved) list.push_back(t);
  return isa::compose_actions(steps, list);
}

}  // namespace

isa::NamedActions slot_op_actions(const aie::SlotOp& op) {
  const aie::AieIsaDetails& d = aie::aie_isa_details();
  const aie::OpSpec& spec = d.isa.ops.at(op.op);
  const aie::OpExtra& ex = d.extra.at(op.op);
  if (spec.extension >= 0 && spec.actions.empty()) {
    // An op added by data: a composed op performs its steps; a `semantics:` op the
    // operations its expression counts, with its operands' register traffic.
    const aie::ExtensionOp& e = *d.isa.extensions.at(size_t(spec.extension));
    try {
      if (e.composed()) return composed_actions(e);
      isa::InstructionWork w;
      operand_traffic(op, ex, w);
      return isa::merge_actions(isa::actions_of(w), e.actions);
    } catch (const isa::ActionError& err) {
      throw InputError(spec.mnemonic + ": " + err.what());
    }
  }
  isa::InstructionWork w;
  operand_traffic(op, ex, w);
  if (ex.access_bytes) {
    const bool store = op.slot == aie::Slot::Store;
    w.traffic.push_back({"data_memory", store ? 0 : ex.access_bytes, store ? ex.access_bytes : 0});
  }
  isa::NamedActions arithmetic;
  try {
    if (!spec.actions.empty()) {
      arithmetic = isa::evaluate_actions(spec.actions, {}, d.isa.file, spec.mnemonic);
    } else if (spec.macs) {
      w.ops.push_back({"vector", "mac", aie::mac_format_name(spec.mac_format), spec.macs});
    } else if (op.slot == aie::Slot::Vector) {
      w.ops.push_back({"vector", "add", "int32", 16});  // 16 lanes of 32 bits (the datapath's 512 bits)
    } else if (op.slot == aie::Slot::Scalar) {
      w.ops.push_back({"scalar", "add", "int32", 1});
    }
    return isa::merge_actions(isa::actions_of(w), arithmetic);
  } catch (const isa::ActionError& e) {
    throw InputError(e.what());
  }
}

isa::ActionCatalog aie_action_catalog() {
  isa::ActionCatalog c;
  for (const char* name : {"program_memory.read_bytes", "data_memory.read_bytes", "data_memory.write_bytes",
                           "vreg.read_bytes", "vreg.write_bytes", "acc.read_bytes", "acc.write_bytes",
                           "sreg.read_bytes", "sreg.write_bytes", "vector.add.int32", "scalar.add.int32", "dma.bytes",
                           "ddr.read_bytes", "ddr.write_bytes"})
    c.id(name);
  const aie::AieIsaDetails& d = aie::aie_isa_details();
  for (const auto& op : d.isa.ops) {
    if (op.macs) c.id(std::string("vector.mac.") + aie::mac_format_name(op.mac_format));
    try {
      for (const auto& a : isa::evaluate_actions(op.actions, {}, d.isa.file, op.mnemonic)) c.id(a.name);
    } catch (const isa::ActionError& e) {
      throw InputError(e.what());
    }
  }
  return c;
}

isa::ActionLists bundle_actions(const aie::AieProgram& program, uint32_t bundle_bytes, isa::ActionCatalog& catalog) {
  isa::ActionLists lists;
  for (const auto& b : program.bundles) {
    isa::NamedActions sum = {{"program_memory.read_bytes", bundle_bytes}};
    for (const auto& op : b.ops) sum = isa::merge_actions(sum, slot_op_actions(op));
    lists.push(sum, catalog);
  }
  return lists;
}

}  // namespace tlmcraft::aie_ml
