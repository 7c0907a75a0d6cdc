#include "isa/dataflow/dataflow.h"

#include <algorithm>

namespace tlmcraft::isa::dataflow {

bool reads_storage(const Op& op, const std::string& name) {
  for (const Operand& o : op.operands)
    if (o.reads() && o.storage == name) return true;
  return std::find(op.implicit_reads.begin(), op.implicit_reads.end(), name) != op.implicit_reads.end();
}

bool writes_storage(const Op& op, const std::string& name) {
  for (const Operand& o : op.operands)
    if (o.writes() && o.storage == name) return true;
  return std::find(op.implicit_writes.begin(), op.implicit_writes.end(), name) != op.implicit_writes.end();
}

// Depth-first over the control-flow graph; each op is visited once, so the cost is
// linear in the program's size.
bool live_at(const std::vector<Op>& ops, size_t from, const std::string& name) {
  std::vector<char> seen(ops.size(), 0);
  std::vector<size_t> pending{from};
  while (!pending.empty()) {
    const size_t i = pending.back();
    pending.pop_back();
    if (i >= ops.size() || seen[i]) continue;
    seen[i] = 1;
    const Op& op = ops[i];
    if (reads_storage(op, name)) return true;
    if (writes_storage(op, name)) continue;  // killed on this path
    if (op.falls_through) pending.push_back(i + 1);
    for (size_t t : op.jumps_to) pending.push_back(t);
  }
  return false;
}

}  // namespace tlmcraft::isa::dataflow
