// Builds the canonical dataflow (internal to isa/extension): nodes are interned (equal
// subexpressions are one node), commutative arguments are ordered by a structural hash,
// and finish() renumbers the nodes reachable from the outputs in post-order.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/extension/expression.h"

namespace tlmcraft::isa::extension::detail {

class DataflowBuilder {
 public:
  // The id of the node equal to `n` (added if new). n.args must be ids of this builder.
  uint32_t add(DataflowNode n);
  const DataflowNode& node(uint32_t id) const { return nodes_[id]; }
  size_t size() const { return nodes_.size(); }
  // The canonical Dataflow of the given outputs (operand index, node id), in order.
  Dataflow finish(const std::vector<Dataflow::Output>& outputs) const;

 private:
  std::vector<DataflowNode> nodes_;
  std::vector<uint64_t> hashes_;
  std::unordered_map<std::string, uint32_t> interned_;
};

bool is_commutative(Op op);

// The operations a dataflow performs, grouped (ExprProgram::op_counts).
std::vector<OpCount> count_operations(const Dataflow& flow);

}  // namespace tlmcraft::isa::extension::detail
