#include "platforms/aie_ml/pack/agent/aie_dataflow.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>

#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::agent::search::aie {

using namespace isa::aie_ml;
namespace df = isa::dataflow;

const char* const kMixedViewMark = "aie.mixed-view";

namespace {

std::string register_text(const Operand& o) { return std::string(reg_class_prefix(o.cls)) + std::to_string(o.num); }

// Every register name that overlaps a register unit (unit_label): a w half is part of an
// x and a y register, an am quarter part of a bm and a cm.
std::vector<std::string> view_names(int unit) {
  const std::string label = unit_label(unit);
  auto number = [&](size_t prefix) { return std::stoi(label.substr(prefix)); };
  if (label.size() > 1 && label[0] == 'w' && std::isdigit(static_cast<unsigned char>(label[1]))) {
    const int k = number(1);
    return {label, "x" + std::to_string(k / 2), "y" + std::to_string(k / 4)};
  }
  if (label.rfind("am", 0) == 0) {
    const int k = number(2);
    return {label, "bm" + std::to_string(k / 2), "cm" + std::to_string(k / 4)};
  }
  return {label};
}

bool ambiguous_shape(const std::string& shape) {
  return shape.find('|') != std::string::npos || shape == "vany" || shape == "sdst" || shape == "ssrc";
}

bool writes_loop_register(const SlotOp& op) {
  for (int j = 0; j < op.n_operands; ++j) {
    const Operand& o = op.operands[size_t(j)];
    if (o.kind == Operand::Kind::Reg && operand_use(op, j) != OperandUse::Read &&
        (o.cls == RegClass::LS || o.cls == RegClass::LE || o.cls == RegClass::LC))
      return true;
  }
  return false;
}

df::Access access_of(OperandUse u) {
  switch (u) {
    case OperandUse::Read:
      return df::Access::Read;
    case OperandUse::Write:
      return df::Access::Write;
    case OperandUse::ReadWrite:
      return df::Access::ReadWrite;
    default:
      return df::Access::Literal;
  }
}

// Tracks through which view each register unit was last written, to mark mixed-view reads.
class ViewTracker {
 public:
  // True when an operand reads a unit last written through another view.
  bool mixed(const SlotOp& op) const {
    for (int j = 0; j < op.n_operands; ++j) {
      const Operand& o = op.operands[size_t(j)];
      const OperandUse u = operand_use(op, j);
      if (u != OperandUse::Read && u != OperandUse::ReadWrite) continue;
      for (int unit : register_units(o.cls, o.num)) {
        auto it = last_.find(unit);
        if (it != last_.end() && it->second != register_text(o)) return true;
      }
    }
    return false;
  }
  void wrote(const SlotOp& op) {
    for (int j = 0; j < op.n_operands; ++j) {
      const Operand& o = op.operands[size_t(j)];
      const OperandUse u = operand_use(op, j);
      if (u != OperandUse::Write && u != OperandUse::ReadWrite) continue;
      for (int unit : register_units(o.cls, o.num)) last_[unit] = register_text(o);
    }
  }

 private:
  std::map<int, std::string> last_;
};

df::Op marker(const std::string& name) {
  df::Op m;
  m.mnemonic = name;
  m.barrier = true;
  return m;
}

// A memory port where every byte reads `fill` and writes are dropped: control flow that
// depends only on registers runs as on the platform.
class FilledMemory : public DataMemoryPort {
 public:
  explicit FilledMemory(uint8_t fill) : fill_(fill) {}
  bool read(uint32_t, void* dst, uint32_t n) override {
    std::memset(dst, fill_, n);
    return true;
  }
  bool write(uint32_t, const void*, uint32_t) override { return true; }

 private:
  uint8_t fill_;
};

}  // namespace

std::string dataflow_mnemonic(const SlotOp& op) {
  const OpSpec& spec = AieIsa::get().ops.at(op.op);
  if (std::none_of(spec.operands.begin(), spec.operands.end(), ambiguous_shape)) return spec.mnemonic;
  std::string name = spec.mnemonic + ":";
  for (int j = 0; j < op.n_operands; ++j) {
    const Operand& o = op.operands[size_t(j)];
    name += (j ? "," : "") + (o.kind == Operand::Kind::Reg ? std::string(reg_class_prefix(o.cls)) : std::string("#"));
  }
  return name;
}

std::string plain_mnemonic(const std::string& dataflow_name) {
  return dataflow_name.substr(0, dataflow_name.find(':'));
}

df::Op slot_op_dataflow(const SlotOp& op) {
  df::Op d;
  d.mnemonic = dataflow_mnemonic(op);
  for (int j = 0; j < op.n_operands; ++j) {
    const Operand& o = op.operands[size_t(j)];
    df::Operand x;
    if (o.kind == Operand::Kind::Reg) {
      x.access = access_of(operand_use(op, j));
      x.storage = x.text = register_text(o);
    } else {
      x.text = o.kind == Operand::Kind::Imm     ? std::to_string(o.imm)
               : o.kind == Operand::Kind::Label ? "@" + std::to_string(o.imm)
                                                : std::string("mem");
    }
    d.operands.push_back(x);
  }
  AieOp wrapper;
  wrapper.op = op;
  const OpEffects fx = effects_of(wrapper);
  for (int u : fx.reads)
    for (const std::string& n : view_names(u)) d.implicit_reads.push_back(n);
  for (int u : fx.writes)
    for (const std::string& n : view_names(u)) d.implicit_writes.push_back(n);
  if (fx.load) d.implicit_reads.push_back("MEM@*");
  if (fx.store) d.implicit_writes.push_back("MEM@*");
  d.barrier = fx.lock || fx.control || fx.halt || writes_loop_register(op);
  const Code c = Code(op.code);
  d.falls_through = !(fx.halt || c == Code::J || c == Code::RET);
  const OpSpec& spec = AieIsa::get().ops.at(op.op);
  d.commutes_a = spec.commutative[0];
  d.commutes_b = spec.commutative[1];
  return d;
}

TileDataflow tile_dataflow(const AieTile& tile) {
  TileDataflow out;
  TileStructure st;
  std::string why;
  out.analysed = analyse_structure(tile, st, why);
  std::map<std::string, size_t> label_at;             // label -> its marker op
  std::vector<std::pair<size_t, std::string>> jumps;  // op -> label it may jump to
  ViewTracker views;
  for (size_t l = 0; l < tile.lines.size(); ++l) {
    const AieLine& line = tile.lines[l];
    if (line.kind == AieLine::Kind::Label && (!out.analysed || st.branch_targets.count(line.label))) {
      label_at[line.label] = out.ops.size();
      out.ops.push_back(marker("label " + line.label));
      out.places.push_back({});
    }
    if (line.kind != AieLine::Kind::Bundle) continue;
    std::vector<size_t> order;
    if (!bundle_sequence(line, order)) out.analysed = false;
    for (size_t k : order) {
      const SlotOp& op = line.ops[k].op;
      if (effects_of(line.ops[k]).nop) continue;
      df::Op d = slot_op_dataflow(op);
      if (views.mixed(op)) d.implicit_reads.push_back(kMixedViewMark);
      views.wrote(op);
      const std::string target = label_operand(line.ops[k]);
      if (effects_of(line.ops[k]).control && !target.empty()) jumps.push_back({out.ops.size(), target});
      out.ops.push_back(std::move(d));
      out.places.push_back({l, k});
    }
    for (const ZeroOverheadLoop& loop : st.loops)
      if (out.analysed && loop.end_bundle == l) {
        jumps.push_back({out.ops.size(), loop.start_label});
        out.ops.push_back(marker("loop back"));
        out.places.push_back({});
      }
  }
  for (const auto& [op, label] : jumps) {
    auto it = label_at.find(label);
    if (it == label_at.end()) {
      out.analysed = false;  // a jump the analysis cannot place
      continue;
    }
    out.ops[op].jumps_to.push_back(it->second);
  }
  if (!out.analysed)
    for (df::Op& op : out.ops) op.barrier = true;
  return out;
}

std::vector<uint64_t> bundle_executions(const AieTile& tile, uint8_t fill, const std::string& where,
                                        uint64_t max_bundles) {
  AieProgram program;
  std::vector<size_t> line_of;
  for (size_t l = 0; l < tile.lines.size(); ++l) {
    if (tile.lines[l].kind != AieLine::Kind::Bundle) continue;
    Bundle b;
    for (const AieOp& o : tile.lines[l].ops) b.ops.push_back(o.op);
    b.line = tile.lines[l].source_line;
    program.bundles.push_back(std::move(b));
    line_of.push_back(l);
  }
  std::vector<uint64_t> counts(tile.lines.size(), 0);
  CoreState state;
  FilledMemory memory(fill);
  for (uint64_t n = 0; state.pc < program.bundles.size(); ++n) {
    if (n >= max_bundles)
      throw std::invalid_argument(where + ": the core program did not stop within " + std::to_string(max_bundles) +
                                  " bundles (its loop counts are not known)");
    const uint32_t pc = state.pc;
    const BundleResult r = step(state, memory, program);
    if (r.fault)
      throw std::invalid_argument(where + ": line " + std::to_string(program.bundles[pc].line) + ": " +
                                  r.fault_message);
    ++counts[line_of[pc]];
    if (r.halt || state.halted) break;
  }
  return counts;
}

df::Pattern extension_pattern(const ExtensionOp& e) {
  df::Pattern p;
  p.name = e.mnemonic;
  const std::vector<ExtTemp>& temps = e.pattern_temps();
  for (const ExtOperand& o : e.operands) {
    if (o.cls == RegClass::None)
      p.parameters.push_back(o.name);
    else
      (o.written() ? p.outputs : p.inputs).push_back(o.name);
  }
  for (const ExtTemp& t : temps) p.temps.push_back(t.name);
  for (const ComposeStep& step : e.pattern_steps()) {
    df::PatternStep ps{dataflow_mnemonic(step.op), {}};
    for (int j = 0; j < step.op.n_operands; ++j) {
      const Operand& a = step.op.operands[size_t(j)];
      df::Operand x;
      auto b = std::find_if(step.bindings.begin(), step.bindings.end(),
                            [&](const StepBinding& s) { return s.step_operand == j; });
      if (b == step.bindings.end()) {
        x.text = a.kind == Operand::Kind::Imm ? std::to_string(a.imm) : register_text(a);
      } else if (!b->temp && e.operands[size_t(b->index)].cls == RegClass::None) {
        x.storage = e.operands[size_t(b->index)].name;  // a parameter: any literal, the same at every use
      } else {
        x.access = access_of(operand_use(step.op, j));
        x.storage = b->temp ? temps[size_t(b->index)].name : e.operands[size_t(b->index)].name;
      }
      ps.operands.push_back(x);
    }
    p.steps.push_back(std::move(ps));
  }
  return p;
}

}  // namespace tlmcraft::agent::search::aie
