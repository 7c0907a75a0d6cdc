#include "isa/dataflow/loop_end.h"

#include "isa/dataflow/step_order.h"
#include "isa/dataflow/subgraphs.h"

namespace tlmcraft::isa::dataflow {

std::vector<size_t> loop_end_updates(const std::vector<Op>& ops, size_t begin, size_t end) {
  std::vector<size_t> out;
  if (end >= ops.size()) return out;
  for (size_t u = begin; u < end; ++u) {
    const std::string reg = in_place_register(ops[u]);
    if (reg.empty()) continue;
    bool touched = false;
    for (size_t i = u + 1; i <= end && !touched; ++i)
      touched = reads_storage(ops[i], reg) || writes_storage(ops[i], reg);
    if (!touched) out.push_back(u);
  }
  return out;
}

Pattern loop_end_pattern(const Op& update, const Op& loop_end, std::string& signature) {
  Pattern p;
  p.inputs = p.outputs = {"io0"};
  PatternStep step{update.mnemonic, {}};
  for (const Operand& o : update.operands) {
    Operand po = o;
    if (o.access != Access::Literal) po.storage = "io0";
    po.address.clear();
    if (o.access != Access::Literal) po.text.clear();
    step.operands.push_back(po);
  }
  p.steps = {step, PatternStep{loop_end.mnemonic, {}}};
  signature = pattern_signature(p);
  return p;
}

}  // namespace tlmcraft::isa::dataflow
