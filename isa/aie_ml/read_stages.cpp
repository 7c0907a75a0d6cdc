#include "isa/aie_ml/read_stages.h"

#include <algorithm>
#include <vector>

namespace tlmcraft::isa::aie_ml {

bool reads_accumulator_late(const SlotOp& op) {
  if (op.n_operands != 4 || op.operands[1].kind != Operand::Kind::Reg) return false;
  // An added op of the class may take a vector there (VMULS d, a, hi, lo): read at issue.
  const RegClass c = op.operands[1].cls;
  const bool accumulator = c == RegClass::AM || c == RegClass::BM || c == RegClass::CM;
  return accumulator && AieIsa::get().ops[op.op].latency_class == "vmac";
}

uint32_t read_offset(const SlotOp& op, uint16_t storage_unit, const ReadStages& stages) {
  if (!stages.acc_read_cycles || !reads_accumulator_late(op)) return 0;
  const std::vector<uint16_t> acc = storage_units(op.operands[1].cls, op.operands[1].num);
  return std::find(acc.begin(), acc.end(), storage_unit) != acc.end() ? stages.acc_read_cycles : 0;
}

}  // namespace tlmcraft::isa::aie_ml
