#include "isa/dataflow/step_order.h"

#include <functional>

namespace tlmcraft::isa::dataflow {
namespace {

bool conflict(const Op& a, const Op& b) {
  auto touches = [](const Op& x,
                    const Op& y) {  // x writes something y reads or writes
    for (const Operand& o : x.operands)
      if (o.writes() && (reads_storage(y, o.storage) || writes_storage(y, o.storage))) return true;
    for (const std::string& s : x.implicit_writes)
      if (reads_storage(y, s) || writes_storage(y, s)) return true;
    return false;
  };
  return touches(a, b) || touches(b, a);
}

// Every order of n items in which i comes before j whenever must_precede(i, j).
std::vector<std::vector<size_t>> orders(size_t n, const std::function<bool(size_t, size_t)>& must_precede, size_t cap) {
  std::vector<std::vector<size_t>> out;
  std::vector<size_t> current;
  std::vector<char> used(n, 0);
  std::function<void()> place = [&]() {
    if (out.size() >= cap) return;
    if (current.size() == n) {
      out.push_back(current);
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      if (used[i]) continue;
      bool ready = true;
      for (size_t j = 0; j < n && ready; ++j)
        if (!used[j] && j != i && must_precede(j, i)) ready = false;
      if (!ready) continue;
      used[i] = 1;
      current.push_back(i);
      place();
      current.pop_back();
      used[i] = 0;
    }
  };
  place();
  return out;
}

Op as_op(const PatternStep& s) {
  Op op;
  op.mnemonic = s.mnemonic;
  op.operands = s.operands;
  return op;
}

}  // namespace

std::vector<std::vector<size_t>> topological_orders(const std::vector<Op>& ops, const std::vector<size_t>& nodes,
                                                    size_t cap) {
  auto before = [&](size_t i, size_t j) { return i < j && conflict(ops[nodes[i]], ops[nodes[j]]); };
  std::vector<std::vector<size_t>> result;
  for (const auto& o : orders(nodes.size(), before, cap)) {
    std::vector<size_t> mapped;
    for (size_t i : o) mapped.push_back(nodes[i]);
    result.push_back(mapped);
  }
  return result;
}

// A step naming no storage (all literals: a mode switch such as a vector-configuration
// step) acts on state the pattern does not name: it keeps its place among the other steps.
static bool names_nothing(const PatternStep& s) {
  for (const Operand& o : s.operands)
    if (o.access != Access::Literal || !o.storage.empty()) return false;
  return true;
}

std::vector<Pattern> step_orders(const Pattern& p, size_t cap) {
  auto before = [&](size_t i, size_t j) {
    return i < j && (names_nothing(p.steps[i]) || names_nothing(p.steps[j]) ||
                     conflict(as_op(p.steps[i]), as_op(p.steps[j])));
  };
  std::vector<Pattern> result;
  for (const auto& o : orders(p.steps.size(), before, cap)) {
    Pattern q = p;
    for (size_t k = 0; k < o.size(); ++k) q.steps[k] = p.steps[o[k]];
    result.push_back(q);
  }
  return result;
}

std::string pattern_signature(const Pattern& p) {
  std::string s;
  for (const PatternStep& step : p.steps) {
    s += step.mnemonic;
    for (size_t i = 0; i < step.operands.size(); ++i) {
      const Operand& o = step.operands[i];
      s += i ? ", " : " ";
      s += o.access == Access::Literal ? (o.storage.empty() ? o.text : "$" + o.storage) : o.storage;
      if (!o.address.empty()) s += "@" + o.address;
    }
    s += "\n";
  }
  return s;
}

}  // namespace tlmcraft::isa::dataflow
