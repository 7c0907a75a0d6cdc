// Evaluates a compiled program lane by lane over the canonical dataflow. Every input is
// copied in before anything is computed and outputs are returned as values, so the
// caller may store them over its inputs (aliasing is safe).
#include <cmath>
#include <stdexcept>

#include "isa/extension/numerics.h"

namespace tlmcraft::isa::extension {
namespace {

using detail::int_value;
using detail::wrap;

[[noreturn]] void bad_input(const std::string& what) { throw std::invalid_argument("evaluate: " + what); }

// The run-time vector length of this execution (0 if the program has none) after
// checking every input against its declaration.
uint32_t check_inputs(const ExprProgram& p, const std::vector<Value>& inputs, const ExprLimits& limits) {
  if (inputs.size() != p.inputs.size())
    bad_input(std::to_string(p.inputs.size()) + " inputs expected, got " + std::to_string(inputs.size()));
  uint32_t runtime = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const OperandDecl& d = p.operands[p.inputs[i]];
    const Value& v = inputs[i];
    const size_t stored = is_float(v.format) ? v.floats.size() : v.ints.size();
    if (v.format != d.type.format || v.vector != d.type.vector)
      bad_input("operand '" + d.name + "' is declared " + type_name(d.type) + ", given " +
                type_name({v.format, v.vector, 0}));
    if (!d.type.vector && stored != 1) bad_input("scalar operand '" + d.name + "' needs exactly one lane");
    if (stored == 0 || stored > limits.max_lanes)
      bad_input("operand '" + d.name + "' has " + std::to_string(stored) + " lanes");
    if (d.type.vector && d.type.lanes != 0 && stored != d.type.lanes)
      bad_input("operand '" + d.name + "' has " + std::to_string(stored) + " lanes, declared " +
                std::to_string(d.type.lanes));
    if (d.type.vector && d.type.lanes == 0) {
      if (runtime != 0 && stored != runtime)
        bad_input("run-time-length operands differ in length (" + std::to_string(runtime) + " and " +
                  std::to_string(stored) + ")");
      runtime = uint32_t(stored);
    }
  }
  return runtime;
}

class Evaluator {
 public:
  Evaluator(const ExprProgram& p, uint32_t runtime_lanes) : p_(p), runtime_(runtime_lanes) {}

  Value node(const DataflowNode& n, const std::vector<const Value*>& args, const std::vector<Value>& inputs) const {
    if (n.op == Op::Input) {
      for (size_t i = 0; i < p_.inputs.size(); ++i)
        if (p_.inputs[i] == n.input) return inputs[i];
    }
    Value out;
    out.format = n.type.format;
    out.vector = n.type.vector;
    const size_t lanes = lanes_of(n);
    if (is_float(out.format)) out.floats.resize(lanes);
    else out.ints.resize(lanes);
    if (n.op == Op::Literal) {
      if (is_float(out.format)) out.floats[0] = n.float_value;
      else out.ints[0] = n.int_value;
      return out;
    }
    if (n.op == Op::ReduceSum || n.op == Op::ReduceMax || n.op == Op::ReduceMin) {
      reduce(n.op, *args[0], out);
      return out;
    }
    for (size_t i = 0; i < lanes; ++i) lane(n, args, i, out);
    return out;
  }

  size_t lanes_of(const DataflowNode& n) const {
    if (!n.type.vector) return 1;
    return n.type.lanes ? n.type.lanes : runtime_;
  }

 private:
  static int64_t int_at(const Value& v, size_t i) { return v.ints[v.ints.size() == 1 ? 0 : i]; }
  static float float_at(const Value& v, size_t i) { return v.floats[v.floats.size() == 1 ? 0 : i]; }

  void lane(const DataflowNode& n, const std::vector<const Value*>& args, size_t i, Value& out) const {
    const ElemFormat rf = out.format;
    const ElemFormat af = args[0]->format;
    switch (n.op) {
      case Op::Select:
        if (int_at(*args[0], i)) copy_lane(*args[1], i, out);
        else copy_lane(*args[2], i, out);
        return;
      case Op::Convert: return convert(*args[0], i, out);
      case Op::Sat: out.ints[i] = detail::saturate(rf, int_value(af, int_at(*args[0], i))); return;
      case Op::Srs:
      case Op::Rne: {
        const __int128 shift = int_value(args[1]->format, int_at(*args[1], i));
        const int64_t s = shift > 64 ? 64 : shift < 0 ? 0 : int64_t(shift);
        out.ints[i] = detail::shift_round_saturate(rf, int_value(af, int_at(*args[0], i)), s, n.op == Op::Rne);
        return;
      }
      default: break;
    }
    if (is_float(af)) float_lane(n, args, i, out);
    else int_lane(n, args, i, out);
  }

  static void copy_lane(const Value& v, size_t i, Value& out) {
    if (is_float(out.format)) out.floats[i] = float_at(v, i);
    else out.ints[i] = int_at(v, i);
  }

  static void convert(const Value& v, size_t i, Value& out) {
    const ElemFormat to = out.format, from = v.format;
    if (is_float(from)) {
      const float x = float_at(v, i);
      if (is_float(to)) out.floats[i] = detail::round_float(to, x);
      else out.ints[i] = detail::float_to_int(to, x);
      return;
    }
    const int64_t x = int_at(v, i);
    if (is_float(to)) out.floats[i] = detail::int_to_float(to, from, x);
    else if (to == ElemFormat::Bool) out.ints[i] = x != 0;
    else out.ints[i] = wrap(to, x);
  }

  void float_lane(const DataflowNode& n, const std::vector<const Value*>& args, size_t i, Value& out) const {
    const ElemFormat f = args[0]->format;
    const float a = float_at(*args[0], i);
    const float b = args.size() > 1 ? float_at(*args[1], i) : 0.0f;
    float r = 0;
    switch (n.op) {
      case Op::Add: r = a + b; break;
      case Op::Sub: r = a - b; break;
      case Op::Mul: r = a * b; break;
      case Op::Div: r = a / b; break;
      case Op::Min: r = detail::min_nan(a, b); break;
      case Op::Max: r = detail::max_nan(a, b); break;
      case Op::Fma: r = detail::fused_multiply_add(f, a, b, float_at(*args[2], i)); break;
      case Op::Eq: out.ints[i] = a == b; return;
      case Op::Ne: out.ints[i] = a != b; return;
      case Op::Lt: out.ints[i] = a < b; return;
      case Op::Le: out.ints[i] = a <= b; return;
      case Op::Gt: out.ints[i] = a > b; return;
      case Op::Ge: out.ints[i] = a >= b; return;
      default: r = detail::f32_function(n.op, a);
    }
    out.floats[i] = detail::round_float(f, r);
  }

  void int_lane(const DataflowNode& n, const std::vector<const Value*>& args, size_t i, Value& out) const {
    const ElemFormat f = args[0]->format;
    const int64_t a = int_at(*args[0], i);
    const int64_t b = args.size() > 1 ? int_at(*args[1], i) : 0;
    const __int128 va = int_value(f, a), vb = args.size() > 1 ? int_value(args[1]->format, b) : 0;
    const uint64_t ua = uint64_t(a), ub = uint64_t(b);
    const int bits = bit_width(f);
    int64_t r = 0;
    switch (n.op) {
      case Op::Neg: r = int64_t(0 - ua); break;
      case Op::Not: r = int64_t(~ua); break;
      case Op::Add: r = int64_t(ua + ub); break;
      case Op::Sub: r = int64_t(ua - ub); break;
      case Op::Mul: r = int64_t(ua * ub); break;
      // Division by zero gives all ones (quotient) and the dividend (remainder); the
      // signed overflow min / -1 wraps to min with remainder 0 (as RISC-V).
      case Op::Div: r = vb == 0 ? -1 : int64_t(uint64_t(__int128(va / vb))); break;
      case Op::Rem: r = vb == 0 ? a : int64_t(uint64_t(__int128(va % vb))); break;
      case Op::And: r = a & b; break;
      case Op::Or: r = a | b; break;
      case Op::Xor: r = a ^ b; break;
      case Op::Shl: r = int64_t(ua << (ub & uint64_t(bits - 1))); break;
      case Op::Shr: {
        const int s = int(ub & uint64_t(bits - 1));
        r = is_signed(f) ? (a >> s) : int64_t(ua >> s);  // signed lanes are sign-extended
        break;
      }
      case Op::Eq: out.ints[i] = va == vb; return;
      case Op::Ne: out.ints[i] = va != vb; return;
      case Op::Lt: out.ints[i] = va < vb; return;
      case Op::Le: out.ints[i] = va <= vb; return;
      case Op::Gt: out.ints[i] = va > vb; return;
      case Op::Ge: out.ints[i] = va >= vb; return;
      case Op::Min: r = va < vb ? a : b; break;
      case Op::Max: r = va > vb ? a : b; break;
      case Op::Abs: r = va < 0 ? int64_t(0 - ua) : a; break;
      case Op::Relu: r = va < 0 ? 0 : a; break;
      default: r = a;
    }
    out.ints[i] = wrap(out.format, r);
  }

  // sum / max / min over the lanes in order. bf16 and f32 sums accumulate in f32 from
  // 0 and round once; max/min start from -inf/+inf and propagate NaN; integer sums wrap.
  static void reduce(Op op, const Value& v, Value& out) {
    const ElemFormat f = v.format;
    if (is_float(f)) {
      float acc = op == Op::ReduceSum ? 0.0f : op == Op::ReduceMax ? -INFINITY : INFINITY;
      for (float x : v.floats)
        acc = op == Op::ReduceSum ? acc + x : op == Op::ReduceMax ? detail::max_nan(acc, x) : detail::min_nan(acc, x);
      out.floats[0] = detail::round_float(f, acc);
      return;
    }
    int64_t acc = v.ints[0];
    for (size_t i = 1; i < v.ints.size(); ++i) {
      const int64_t x = v.ints[i];
      if (op == Op::ReduceSum) acc = wrap(f, int64_t(uint64_t(acc) + uint64_t(x)));
      else if (op == Op::ReduceMax) acc = int_value(f, x) > int_value(f, acc) ? x : acc;
      else acc = int_value(f, x) < int_value(f, acc) ? x : acc;
    }
    out.ints[0] = acc;
  }

  const ExprProgram& p_;
  uint32_t runtime_;
};

// Broadcasts a scalar result to a vector output of `lanes` lanes.
Value store_shape(Value v, const OperandDecl& d, uint32_t runtime) {
  if (!d.type.vector || v.vector) return v;
  const size_t lanes = d.type.lanes ? d.type.lanes : runtime;
  v.vector = true;
  if (is_float(v.format)) v.floats.assign(lanes, v.floats[0]);
  else v.ints.assign(lanes, v.ints[0]);
  return v;
}

}  // namespace

std::vector<Value> evaluate(const ExprProgram& program, const std::vector<Value>& inputs, const ExprLimits& limits) {
  const uint32_t runtime = check_inputs(program, inputs, limits);
  const Dataflow& flow = program.dataflow;
  // Each value is freed after its last use, so memory stays near the live set.
  std::vector<size_t> last_use(flow.nodes.size(), 0);
  for (size_t i = 0; i < flow.nodes.size(); ++i)
    for (uint32_t a : flow.nodes[i].args) last_use[a] = i;
  for (const Dataflow::Output& o : flow.outputs) last_use[o.node] = flow.nodes.size();
  const Evaluator eval(program, runtime);
  std::vector<Value> values(flow.nodes.size());
  std::vector<const Value*> args;
  for (size_t i = 0; i < flow.nodes.size(); ++i) {
    const DataflowNode& n = flow.nodes[i];
    args.clear();
    for (uint32_t a : n.args) args.push_back(&values[a]);
    values[i] = eval.node(n, args, inputs);
    for (uint32_t a : n.args)
      if (last_use[a] == i) values[a] = Value();
  }
  std::vector<Value> outputs;
  for (const Dataflow::Output& o : flow.outputs)
    outputs.push_back(store_shape(values[o.node], program.operands[o.operand], runtime));
  return outputs;
}

std::map<std::string, Value> evaluate_named(const ExprProgram& program, const std::map<std::string, Value>& inputs,
                                            const ExprLimits& limits) {
  std::vector<Value> ordered;
  for (uint32_t index : program.inputs) {
    const std::string& name = program.operands[index].name;
    const auto found = inputs.find(name);
    if (found == inputs.end()) bad_input("no value for input '" + name + "'");
    ordered.push_back(found->second);
  }
  if (inputs.size() != ordered.size()) bad_input("a value is given for an operand that is not an input");
  const std::vector<Value> results = evaluate(program, ordered, limits);
  std::map<std::string, Value> out;
  for (size_t i = 0; i < results.size(); ++i) out[program.operands[program.outputs[i]].name] = results[i];
  return out;
}

}  // namespace tlmcraft::isa::extension
