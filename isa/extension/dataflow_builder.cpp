#include "isa/extension/dataflow_builder.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace tlmcraft::isa::extension::detail {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDull;
}

uint64_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// Everything that identifies a node except its arguments.
uint64_t own_hash(const DataflowNode& n) {
  uint64_t h = mix(0, uint64_t(n.op));
  h = mix(h, uint64_t(n.type.format));
  h = mix(h, n.type.vector ? 1 + uint64_t(n.type.lanes) : 0);
  h = mix(h, n.input);
  h = mix(h, uint64_t(n.int_value));
  return mix(h, float_bits(n.float_value));
}

std::string intern_key(const DataflowNode& n) {
  std::string key = std::to_string(int(n.op)) + "," + std::to_string(int(n.type.format)) + "," +
                    std::to_string(n.type.vector) + "," + std::to_string(n.type.lanes) + "," +
                    std::to_string(n.input) + "," + std::to_string(n.int_value) + "," +
                    std::to_string(float_bits(n.float_value));
  for (uint32_t a : n.args) key += ";" + std::to_string(a);
  return key;
}

}  // namespace

bool is_commutative(Op op) {
  switch (op) {
    case Op::Add: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
    case Op::Eq: case Op::Ne: case Op::Min: case Op::Max: case Op::Fma:
      return true;
    default:
      return false;
  }
}

uint32_t DataflowBuilder::add(DataflowNode n) {
  // fma(a, b, c): only the two factors commute.
  if (is_commutative(n.op) && n.args.size() >= 2) {
    std::sort(n.args.begin(), n.args.begin() + 2, [&](uint32_t a, uint32_t b) {
      return std::make_pair(hashes_[a], a) < std::make_pair(hashes_[b], b);
    });
  }
  const std::string key = intern_key(n);
  const auto found = interned_.find(key);
  if (found != interned_.end()) return found->second;
  uint64_t h = own_hash(n);
  for (uint32_t a : n.args) h = mix(h, hashes_[a]);
  nodes_.push_back(std::move(n));
  hashes_.push_back(h);
  const uint32_t id = uint32_t(nodes_.size() - 1);
  interned_.emplace(key, id);
  return id;
}

Dataflow DataflowBuilder::finish(const std::vector<Dataflow::Output>& outputs) const {
  Dataflow flow;
  std::vector<int64_t> new_id(nodes_.size(), -1);
  // Iterative post-order walk (a long chain of temporaries is deeper than the stack).
  std::vector<std::pair<uint32_t, size_t>> stack;  // node, next argument to visit
  for (const Dataflow::Output& out : outputs) {
    stack.push_back({out.node, 0});
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      if (new_id[id] >= 0) {
        stack.pop_back();
        continue;
      }
      if (next < nodes_[id].args.size()) {
        const uint32_t arg = nodes_[id].args[next++];
        if (new_id[arg] < 0) stack.push_back({arg, 0});
        continue;
      }
      DataflowNode copy = nodes_[id];
      for (uint32_t& a : copy.args) a = uint32_t(new_id[a]);
      new_id[id] = int64_t(flow.nodes.size());
      flow.nodes.push_back(std::move(copy));
      stack.pop_back();
    }
    flow.outputs.push_back({out.operand, uint32_t(new_id[out.node])});
  }
  return flow;
}

namespace {
// The format an operation computes in and the format it reads.
void op_formats(const Dataflow& flow, const DataflowNode& n, ElemFormat& format, ElemFormat& source) {
  format = n.type.format;
  source = n.args.empty() ? format : flow.nodes[n.args[0]].type.format;
  switch (n.op) {
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      format = source;  // the comparator works on its operands' format
      break;
    case Op::Select:
      source = format;
      break;
    case Op::Convert: case Op::Sat: case Op::Srs: case Op::Rne:
      break;
    default:
      source = format;
  }
}
}  // namespace

std::vector<OpCount> count_operations(const Dataflow& flow) {
  std::map<std::tuple<std::string, ElemFormat, ElemFormat, uint32_t>, uint32_t> counts;
  auto lanes_of = [](const ValueType& t) { return t.vector ? t.lanes : 1u; };
  for (const DataflowNode& n : flow.nodes) {
    if (n.op == Op::Input || n.op == Op::Literal) continue;
    ElemFormat format, source;
    op_formats(flow, n, format, source);
    uint32_t lanes = lanes_of(n.type);
    if (n.op == Op::ReduceSum || n.op == Op::ReduceMax || n.op == Op::ReduceMin) {
      lanes = lanes_of(flow.nodes[n.args[0]].type);  // one step per input lane
      if (n.op == Op::ReduceSum && format == ElemFormat::BF16) {
        // bf16 sums accumulate in f32 and round once at the end.
        ++counts[{op_name(n.op), ElemFormat::F32, ElemFormat::BF16, lanes}];
        ++counts[{"convert", ElemFormat::BF16, ElemFormat::F32, 1}];
        continue;
      }
    }
    ++counts[{op_name(n.op), format, source, lanes}];
  }
  std::vector<OpCount> out;
  for (const auto& [key, count] : counts)
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), count});
  return out;
}

}  // namespace tlmcraft::isa::extension::detail
