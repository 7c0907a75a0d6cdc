#include "platforms/aie_ml/aie_area.h"

#include <map>
#include <stdexcept>
#include <string>

#include "isa/operator_area.h"
#include "platforms/aie_ml/aie_actions.h"
#include "platforms/aie_ml/aie_config.h"

namespace tlmcraft::aie_ml {
namespace {

namespace aie = isa::aie_ml;

// An action that is datapath arithmetic ("vector.mac.bf16"), not register, memory or
// fetch traffic ("vreg.read_bytes").
bool arithmetic(const std::string& name) { return name.rfind("vector.", 0) == 0 || name.rfind("scalar.", 0) == 0; }

// The area of `count` operators of an arithmetic action, um2.
double priced(const std::string& op, const isa::NamedAction& a) {
  double um2 = 0;
  if (!isa::action_area_um2(a.name, um2))
    throw std::invalid_argument(op + ": no area for action '" + a.name +
                                "' in the operator table (isa/operator_area.h)");
  return um2 * double(a.count);
}

double register_um2(aie::RegClass c) {
  const int bytes = aie::CoreState::view_bytes(c);
  return double(bytes > 0 ? bytes * 8 : 32) * (isa::kFlipFlopUm2 + isa::kMux2Um2);
}

}  // namespace

double composed_area_mm2(const std::vector<aie::SlotOp>& steps, const std::vector<aie::RegClass>& temps) {
  std::map<std::string, int> uses;  // operator (op.format) -> steps using it so far
  double um2 = 0;
  for (const aie::SlotOp& s : steps)
    for (const isa::NamedAction& a : slot_op_actions(s)) {
      if (!arithmetic(a.name)) continue;
      const std::string kind = a.name.substr(a.name.find('.') + 1);
      if (uses[kind]++ > 0) um2 += priced(aie::AieIsa::get().ops.at(s.op).mnemonic, a);
    }
  for (aie::RegClass c : temps) um2 += register_um2(c);
  return um2 * 1e-6;
}

double added_op_area_mm2(const aie::ExtensionOp& op) {
  if (op.composed()) {
    std::vector<aie::SlotOp> steps;
    for (const aie::ComposeStep& s : op.steps) steps.push_back(s.op);
    std::vector<aie::RegClass> temps;
    for (const aie::ExtTemp& t : op.temps) temps.push_back(t.cls);
    return composed_area_mm2(steps, temps);
  }
  double um2 = 0;
  for (const isa::NamedAction& a : op.actions)
    if (arithmetic(a.name)) um2 += priced(op.mnemonic, a);
  return um2 * 1e-6;
}

int compute_tiles(const nlohmann::json& config) {
  const AieConfig shipped = load_aie_config("default");
  const nlohmann::json array = config.is_object() ? config.value("array", nlohmann::json::object()) : nlohmann::json();
  if (!array.is_object()) return int(shipped.columns * shipped.rows);
  return array.value("columns", int(shipped.columns)) * array.value("rows", int(shipped.rows));
}

std::vector<AddedArea> aie_variant_area(const aie::AieIsa& isa, int tiles) {
  std::vector<AddedArea> lines;
  for (const auto& op : isa.extensions) {
    AddedArea a{op->mnemonic, "instruction"};
    try {
      a.mm2 = added_op_area_mm2(*op) * double(tiles);
    } catch (const std::invalid_argument& e) {
      a.unpriced = e.what();
    }
    lines.push_back(a);
  }
  return lines;
}

}  // namespace tlmcraft::aie_ml
