#include "isa/dataflow/dataflow.h"

namespace tlmcraft::isa::dataflow {

namespace {

// `implicit` names `name` itself, or a whole space it belongs to ("VRAM@*"
// covers "VRAM@s3+64").
bool covers(const std::vector<std::string>& implicit, const std::string& name) {
  for (const std::string& s : implicit) {
    if (s == name) return true;
    if (s.size() >= 2 && s.compare(s.size() - 2, 2, "@*") == 0 &&
        name.compare(0, s.size() - 1, s, 0, s.size() - 1) == 0)
      return true;
  }
  return false;
}

}  // namespace

bool reads_storage(const Op& op, const std::string& name) {
  for (const Operand& o : op.operands)
    if ((o.reads() && o.storage == name) || (!o.address.empty() && o.address == name)) return true;
  return covers(op.implicit_reads, name);
}

bool writes_storage(const Op& op, const std::string& name) {
  for (const Operand& o : op.operands)
    if (o.writes() && o.storage == name) return true;
  return covers(op.implicit_writes, name);
}

// Depth-first over the control-flow graph; each op is visited once, so the cost
// is linear in the program's size.
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
