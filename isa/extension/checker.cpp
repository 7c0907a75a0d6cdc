// Type checker of the statement language: resolves names, gives untyped literals the
// type their context asks for, checks every operation's formats and shapes, and builds
// the dataflow (temporaries inlined). Every error names its line and column.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "isa/extension/dataflow_builder.h"
#include "isa/extension/numerics.h"
#include "isa/extension/syntax.h"
#include "isa/formats/bf16.h"

namespace tlmcraft::isa::extension {
namespace detail {
namespace {

// The result of checking an expression: a dataflow node, or (for literals and
// expressions made only of them) an untyped expression typed later by its context.
struct Checked {
  bool typed = true;
  uint32_t node = 0;
  ValueType type;
  uint32_t ast = 0;         // untyped: the expression
  bool is_float = false;    // untyped: contains a float literal
  size_t untyped_depth = 0; // untyped: nesting through temporaries (bounded)
};

struct Binding {
  Checked value;
  int line = 0;  // file line of the assignment
};

const std::map<std::string, Op>& binary_ops() {
  static const std::map<std::string, Op> ops = {
      {"+", Op::Add}, {"-", Op::Sub}, {"*", Op::Mul}, {"/", Op::Div}, {"%", Op::Rem},
      {"&", Op::And}, {"|", Op::Or},  {"^", Op::Xor}, {"<<", Op::Shl}, {">>", Op::Shr},
      {"==", Op::Eq}, {"!=", Op::Ne}, {"<", Op::Lt},  {"<=", Op::Le}, {">", Op::Gt}, {">=", Op::Ge}};
  return ops;
}

const std::map<std::string, Op>& float_functions() {
  static const std::map<std::string, Op> fns = {
      {"exp", Op::Exp},     {"log", Op::Log},         {"sqrt", Op::Sqrt}, {"rsqrt", Op::Rsqrt},
      {"recip", Op::Recip}, {"tanh", Op::Tanh},       {"sigmoid", Op::Sigmoid},
      {"silu", Op::Silu},   {"gelu", Op::Gelu}};
  return fns;
}

// How an error names an operation: "cannot add ...", "cannot compare ...".
std::string verb(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "subtract";
    case Op::Mul: return "multiply";
    case Op::Div: return "divide";
    case Op::Rem: return "take the remainder of";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Xor: return "xor";
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return "compare";
    case Op::Select: return "select between";
    case Op::Min: return "take the min of";
    case Op::Max: return "take the max of";
    case Op::Fma: return "fma";
    default: return op_name(op);
  }
}

bool is_comparison(Op op) { return op >= Op::Eq && op <= Op::Ge; }

// The format a mixed pair should be converted to: the float one, the non-bool one, the
// wider one, else the first.
ElemFormat suggested_format(ElemFormat a, ElemFormat b) {
  if (is_float(a) != is_float(b)) return is_float(a) ? a : b;
  if ((a == ElemFormat::Bool) != (b == ElemFormat::Bool)) return a == ElemFormat::Bool ? b : a;
  return bit_width(b) > bit_width(a) ? b : a;
}

std::string lanes_text(uint32_t lanes) {
  return lanes == 0 ? std::string("the run-time length") : std::to_string(lanes) + " lanes";
}

std::string literal_text(const AstNode& n) { return (n.negative ? "-" : "") + n.text; }

class Checker {
 public:
  Checker(const Ast& ast, const TextMapper& map, const ExprLimits& limits, const std::vector<OperandDecl>& operands)
      : ast_(ast), map_(map), limits_(limits), operands_(operands), assigned_line_(operands.size(), 0) {
    for (size_t i = 0; i < operands.size(); ++i) operand_index_[operands[i].name] = uint32_t(i);
  }

  Dataflow run() {
    for (const Statement& s : ast_.statements) targets_ahead_.insert(s.target);
    std::vector<Dataflow::Output> outputs(operands_.size());
    std::multiset<std::string> remaining;
    for (const Statement& s : ast_.statements) remaining.insert(s.target);
    for (const Statement& s : ast_.statements) {
      remaining.erase(remaining.find(s.target));
      targets_ahead_ = std::set<std::string>(remaining.begin(), remaining.end());
      statement(s, outputs);
    }
    std::vector<Dataflow::Output> declared;
    for (size_t i = 0; i < operands_.size(); ++i) {
      if (operands_[i].role == Role::Input) continue;
      if (assigned_line_[i] == 0) map_.fail({0, 0}, "output '" + operands_[i].name + "' is never assigned");
      declared.push_back(outputs[i]);
    }
    return dag_.finish(declared);
  }

 private:
  // ---- statements ----
  void statement(const Statement& s, std::vector<Dataflow::Output>& outputs) {
    const int line = map_.file_line(s.target_pos.line);
    if (is_reserved_name(s.target))
      map_.fail(s.target_pos, "cannot assign to '" + s.target + "': it is a function or format name");
    const auto op = operand_index_.find(s.target);
    if (op == operand_index_.end()) {
      const auto bound = temps_.find(s.target);
      if (bound != temps_.end())
        map_.fail(s.target_pos, "'" + s.target + "' is assigned twice (first on line " +
                                    std::to_string(bound->second.line) + "); temporaries are assigned once");
      Checked value = check(s.value, std::nullopt);
      temps_[s.target] = {value, line};
      return;
    }
    const uint32_t index = op->second;
    const OperandDecl& decl = operands_[index];
    if (decl.role == Role::Input) map_.fail(s.target_pos, "'" + s.target + "' is an input and cannot be assigned");
    if (assigned_line_[index] != 0)
      map_.fail(s.target_pos, "output '" + s.target + "' is assigned twice (first on line " +
                                  std::to_string(assigned_line_[index]) + ")");
    const Checked value = resolve(check(s.value, decl.type.format), decl.type.format);
    check_assignable(value.type, decl, s.target_pos);
    assigned_line_[index] = line;
    outputs[index] = {index, value.node};
  }

  void check_assignable(const ValueType& t, const OperandDecl& decl, TextPos at) const {
    const std::string target = "output '" + decl.name + "' of type " + type_name(decl.type);
    if (t.format != decl.type.format)
      map_.fail(at, "cannot assign " + type_name(t) + " to " + target + "; convert with " +
                        format_name(decl.type.format) + "(...)");
    if (t.vector && !decl.type.vector)
      map_.fail(at, "cannot assign " + type_name(t) + " to scalar " + target.substr(0, target.find(" of type")) +
                        "; reduce it with sum(...), max(...) or min(...)");
    if (t.vector && t.lanes != decl.type.lanes)
      map_.fail(at, "cannot assign a vector of " + lanes_text(t.lanes) + " to output '" + decl.name + "' of " +
                        lanes_text(decl.type.lanes));
  }

  // ---- expressions ----
  Checked check(uint32_t id, std::optional<ElemFormat> ctx) {
    const AstNode& n = ast_.nodes[id];
    switch (n.kind) {
      case AstKind::IntLiteral:
      case AstKind::FloatLiteral:
        if (!ctx) return untyped(id, n.kind == AstKind::FloatLiteral, 0);
        return typed(literal(n, *ctx));
      case AstKind::BoolLiteral: {
        DataflowNode lit;
        lit.op = Op::Literal;
        lit.type = scalar_of(ElemFormat::Bool);
        lit.int_value = n.bool_value ? 1 : 0;
        return typed(add(lit, n.pos));
      }
      case AstKind::Name: return name(n, ctx);
      case AstKind::Unary: return unary(id, n, ctx);
      case AstKind::Binary: return binary(id, n, ctx);
      case AstKind::Call: return call(id, n, ctx);
    }
    map_.fail(n.pos, "unknown expression");
  }

  Checked typed(uint32_t node) {
    Checked c;
    c.node = node;
    c.type = dag_.node(node).type;
    return c;
  }

  Checked untyped(uint32_t ast, bool is_float, size_t depth) {
    if (depth > limits_.max_depth)
      map_.fail(ast_.nodes[ast].pos, "literal expression nested too deeply through temporaries; give it a format, e.g. f32(...)");
    Checked c;
    c.typed = false;
    c.ast = ast;
    c.is_float = is_float;
    c.untyped_depth = depth;
    return c;
  }

  // An untyped expression given format f (memoised: a temporary may be used often).
  Checked resolve(const Checked& c, ElemFormat f) {
    if (c.typed) return c;
    const auto key = std::make_pair(c.ast, f);
    const auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    const Checked out = check(c.ast, f);
    memo_[key] = out;
    return out;
  }

  uint32_t add(DataflowNode n, TextPos at) {
    const uint32_t id = dag_.add(std::move(n));
    if (dag_.size() > limits_.max_nodes)
      map_.fail(at, "expression too large (more than " + std::to_string(limits_.max_nodes) + " operations)");
    return id;
  }

  uint32_t literal(const AstNode& n, ElemFormat f) {
    DataflowNode lit;
    lit.op = Op::Literal;
    lit.type = scalar_of(f);
    const std::string text = n.kind == AstKind::IntLiteral ? literal_text(n) : n.text;
    if (f == ElemFormat::Bool)
      map_.fail(n.pos, "literal " + text + " used as bool; write true or false");
    if (n.kind == AstKind::FloatLiteral && !is_float(f))
      map_.fail(n.pos, "float literal " + text + " used as " + format_name(f));
    if (is_integer(f)) {
      const __int128 v = n.negative ? -__int128(n.magnitude) : __int128(n.magnitude);
      if (int_value(f, saturate(f, v)) != v)
        map_.fail(n.pos, "literal " + text + " does not fit " + format_name(f));
      lit.int_value = saturate(f, v);
    } else {
      const double d = n.kind == AstKind::IntLiteral ? (n.negative ? -double(n.magnitude) : double(n.magnitude))
                                                     : n.float_value;
      lit.float_value = f == ElemFormat::BF16 ? formats::bf16_to_float(formats::double_to_bf16(d)) : float(d);
      if (std::isinf(lit.float_value) && std::isfinite(d))
        map_.fail(n.pos, "literal " + text + " overflows " + format_name(f));
    }
    return add(lit, n.pos);
  }

  Checked name(const AstNode& n, std::optional<ElemFormat> ctx) {
    const auto temp = temps_.find(n.text);
    if (temp != temps_.end()) {
      const Checked& v = temp->second.value;
      return ctx ? resolve(v, *ctx) : v;
    }
    const auto op = operand_index_.find(n.text);
    if (op != operand_index_.end()) {
      const OperandDecl& decl = operands_[op->second];
      if (decl.role == Role::Output) map_.fail(n.pos, "output '" + n.text + "' cannot be read");
      DataflowNode in;
      in.op = Op::Input;
      in.type = decl.type;
      in.input = op->second;
      return typed(add(in, n.pos));
    }
    ElemFormat f;
    if (parse_format(n.text, f))
      map_.fail(n.pos, "'" + n.text + "' is a format; convert a value with " + n.text + "(...)");
    if (is_function_name(n.text)) map_.fail(n.pos, "'" + n.text + "' is a function; call it, e.g. " + n.text + "(x)");
    if (targets_ahead_.count(n.text)) map_.fail(n.pos, "'" + n.text + "' is used before it is assigned");
    map_.fail(n.pos, "unknown name '" + n.text + "'");
  }

  Checked unary(uint32_t id, const AstNode& n, std::optional<ElemFormat> ctx) {
    const Checked a = check(n.args[0], ctx);
    const Op op = n.text == "-" ? Op::Neg : Op::Not;
    if (!a.typed) {
      if (op == Op::Not && a.is_float) map_.fail(n.pos, "'~' needs integers or bool, got a float literal");
      return untyped(id, a.is_float, a.untyped_depth + 1);
    }
    const ElemFormat f = a.type.format;
    if (op == Op::Neg && f == ElemFormat::Bool) map_.fail(n.pos, "'-' needs numbers, got " + type_name(a.type));
    if (op == Op::Not && is_float(f)) map_.fail(n.pos, "'~' needs integers or bool, got " + type_name(a.type));
    return typed(add(make(op, a.type, {a.node}), n.pos));
  }

  static DataflowNode make(Op op, ValueType type, std::vector<uint32_t> args) {
    DataflowNode d;
    d.op = op;
    d.type = type;
    d.args = std::move(args);
    return d;
  }

  // The shape of an operation on a and b: a vector if either is; vector lengths must agree.
  ValueType combine(const ValueType& a, const ValueType& b, TextPos at, const std::string& what) const {
    if (a.vector && b.vector && a.lanes != b.lanes)
      map_.fail(at, "cannot " + what + " vectors of different lengths (" + lanes_text(a.lanes) + " and " +
                        lanes_text(b.lanes) + ")");
    return a.vector ? a : b;
  }

  void same_format(const Checked& a, const Checked& b, Op op, TextPos at) const {
    if (a.type.format == b.type.format) return;
    map_.fail(at, "cannot " + verb(op) + " " + type_name(a.type) + " and " + type_name(b.type) + "; convert with " +
                      format_name(suggested_format(a.type.format, b.type.format)) + "(...)");
  }

  // Format rules of the binary operations and min/max.
  void check_category(Op op, const ValueType& t, const std::string& sym, TextPos at) const {
    const ElemFormat f = t.format;
    const std::string got = ", got " + type_name(t);
    if (op == Op::Rem && !is_integer(f)) map_.fail(at, sym + " needs integers" + got);
    if ((op == Op::And || op == Op::Or || op == Op::Xor) && is_float(f))
      map_.fail(at, sym + " needs integers or bool" + got);
    if ((op == Op::Shl || op == Op::Shr) && !is_integer(f)) map_.fail(at, sym + " needs integers" + got);
    const bool numeric_only = op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div || op == Op::Min ||
                              op == Op::Max || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
    if (numeric_only && f == ElemFormat::Bool) map_.fail(at, sym + " needs numbers" + got);
  }

  // a op b once both are typed.
  Checked apply_binary(Op op, const Checked& a, const Checked& b, const std::string& sym, TextPos at) {
    if (op == Op::Shl || op == Op::Shr) {
      check_category(op, a.type, sym, at);
      check_category(op, b.type, sym, at);  // the shift amount may have any integer format
    } else {
      same_format(a, b, op, at);
      check_category(op, a.type, sym, at);
    }
    ValueType t = combine(a.type, b.type, at, verb(op));
    if (is_comparison(op)) t.format = ElemFormat::Bool;
    else t.format = a.type.format;
    return typed(add(make(op, t, {a.node, b.node}), at));
  }

  // Gives untyped members of `items` the format of the first typed one. False if all
  // are untyped.
  bool unify(std::vector<Checked>& items) {
    for (const Checked& c : items)
      if (c.typed) {
        const ElemFormat f = c.type.format;
        for (Checked& other : items) other = resolve(other, f);
        return true;
      }
    return false;
  }

  static size_t deepest(const std::vector<Checked>& items) {
    size_t d = 0;
    for (const Checked& c : items) d = std::max(d, c.untyped_depth);
    return d;
  }
  static bool any_float(const std::vector<Checked>& items) {
    for (const Checked& c : items)
      if (c.is_float) return true;
    return false;
  }

  Checked binary(uint32_t id, const AstNode& n, std::optional<ElemFormat> ctx) {
    const Op op = binary_ops().at(n.text);
    const bool shift = op == Op::Shl || op == Op::Shr;
    const std::optional<ElemFormat> inner = is_comparison(op) ? std::nullopt : ctx;
    std::vector<Checked> items = {check(n.args[0], inner), check(n.args[1], shift ? std::nullopt : inner)};
    if (!items[0].typed && !items[1].typed) {
      if (is_comparison(op))
        map_.fail(n.pos, "cannot compare two literals; give one a format, e.g. f32(1.0)");
      return untyped(id, any_float(items), deepest(items) + 1);
    }
    if (shift) {
      // The amount takes the value's format if untyped, and the other way round.
      if (!items[1].typed) items[1] = resolve(items[1], items[0].type.format);
      if (!items[0].typed) items[0] = resolve(items[0], items[1].type.format);
    } else {
      unify(items);
    }
    return apply_binary(op, items[0], items[1], "'" + n.text + "'", n.pos);
  }

  // ---- calls ----
  void arity(const AstNode& n, size_t expected) const {
    if (n.args.size() != expected)
      map_.fail(n.pos, n.text + " takes " + std::to_string(expected) + " argument" + (expected == 1 ? "" : "s") +
                           ", got " + std::to_string(n.args.size()));
  }

  Checked call(uint32_t id, const AstNode& n, std::optional<ElemFormat> ctx) {
    ElemFormat target;
    if (parse_format(n.text, target)) return conversion(n, target);
    if (!is_function_name(n.text)) {
      if (operand_index_.count(n.text) || temps_.count(n.text))
        map_.fail(n.pos, "'" + n.text + "' is not a function");
      map_.fail(n.pos, "unknown function '" + n.text + "'");
    }
    const auto fl = float_functions().find(n.text);
    if (fl != float_functions().end()) return float_function(id, n, fl->second, ctx);
    if (n.text == "abs" || n.text == "relu") return numeric_function(id, n, n.text == "abs" ? Op::Abs : Op::Relu, ctx);
    if (n.text == "sum") {
      arity(n, 1);
      return reduction(n, Op::ReduceSum, ctx);
    }
    if (n.text == "min" || n.text == "max") {
      const bool is_max = n.text == "max";
      if (n.args.size() == 1) return reduction(n, is_max ? Op::ReduceMax : Op::ReduceMin, ctx);
      if (n.args.size() != 2)
        map_.fail(n.pos, n.text + " takes 2 arguments (or 1 to reduce a vector), got " + std::to_string(n.args.size()));
      return elementwise(id, n, is_max ? Op::Max : Op::Min, ctx);
    }
    if (n.text == "fma") {
      arity(n, 3);
      return elementwise(id, n, Op::Fma, ctx);
    }
    if (n.text == "select") return select(id, n, ctx);
    if (n.text == "sat") return saturation(n, Op::Sat);
    return saturation(n, n.text == "srs" ? Op::Srs : Op::Rne);
  }

  Checked conversion(const AstNode& n, ElemFormat target) {
    arity(n, 1);
    const Checked a = check(n.args[0], target);
    if (a.type.format == target) return a;
    ValueType t = a.type;
    t.format = target;
    return typed(add(make(Op::Convert, t, {a.node}), n.pos));
  }

  Checked float_function(uint32_t id, const AstNode& n, Op op, std::optional<ElemFormat> ctx) {
    arity(n, 1);
    const Checked a = check(n.args[0], ctx);
    if (!a.typed) return untyped(id, true, a.untyped_depth + 1);
    if (!is_float(a.type.format))
      map_.fail(n.pos, n.text + " needs bf16 or f32, got " + type_name(a.type) + "; convert with f32(...)");
    return typed(add(make(op, a.type, {a.node}), n.pos));
  }

  Checked numeric_function(uint32_t id, const AstNode& n, Op op, std::optional<ElemFormat> ctx) {
    arity(n, 1);
    const Checked a = check(n.args[0], ctx);
    if (!a.typed) return untyped(id, a.is_float, a.untyped_depth + 1);
    if (a.type.format == ElemFormat::Bool) map_.fail(n.pos, n.text + " needs numbers, got " + type_name(a.type));
    return typed(add(make(op, a.type, {a.node}), n.pos));
  }

  // min(a, b), max(a, b), fma(a, b, c): equal formats, shapes broadcast.
  Checked elementwise(uint32_t id, const AstNode& n, Op op, std::optional<ElemFormat> ctx) {
    std::vector<Checked> items;
    for (uint32_t arg : n.args) items.push_back(check(arg, ctx));
    if (!unify(items)) return untyped(id, any_float(items) || op == Op::Fma, deepest(items) + 1);
    ValueType t = items[0].type;
    std::vector<uint32_t> args;
    for (const Checked& c : items) {
      same_format(items[0], c, op, n.pos);
      t = combine(t, c.type, n.pos, verb(op));
      args.push_back(c.node);
    }
    if (op == Op::Fma && !is_float(t.format))
      map_.fail(n.pos, "fma needs bf16 or f32, got " + type_name(items[0].type) + "; convert with f32(...)");
    check_category(op, t, n.text, n.pos);
    return typed(add(make(op, t, args), n.pos));
  }

  Checked reduction(const AstNode& n, Op op, std::optional<ElemFormat> ctx) {
    const Checked a = check(n.args[0], ctx);
    if (!a.typed || !a.type.vector)
      map_.fail(n.pos, n.text + " of one argument reduces a vector, got " +
                           (a.typed ? type_name(a.type) : std::string("a literal")));
    if (a.type.format == ElemFormat::Bool) map_.fail(n.pos, n.text + " needs numbers, got " + type_name(a.type));
    return typed(add(make(op, scalar_of(a.type.format), {a.node}), n.pos));
  }

  Checked select(uint32_t id, const AstNode& n, std::optional<ElemFormat> ctx) {
    arity(n, 3);
    const Checked cond = check(n.args[0], std::nullopt);
    if (!cond.typed || cond.type.format != ElemFormat::Bool)
      map_.fail(n.pos, "select's condition must be bool, got " +
                           (cond.typed ? type_name(cond.type) : std::string("a literal")) + "; compare it, e.g. x != 0");
    std::vector<Checked> items = {check(n.args[1], ctx), check(n.args[2], ctx)};
    if (!unify(items)) return untyped(id, any_float(items), deepest(items) + 1);
    same_format(items[0], items[1], Op::Select, n.pos);
    ValueType t = combine(items[0].type, items[1].type, n.pos, "select between");
    t = combine(t, cond.type, n.pos, "select with");
    t.format = items[0].type.format;
    return typed(add(make(Op::Select, t, {cond.node, items[0].node, items[1].node}), n.pos));
  }

  // sat(x, T), srs(x, shift, T), rne(x, shift, T): x and shift integers, T an integer format.
  Checked saturation(const AstNode& n, Op op) {
    const size_t expected = op == Op::Sat ? 2 : 3;
    arity(n, expected);
    const AstNode& last = ast_.nodes[n.args.back()];
    ElemFormat target;
    if (last.kind != AstKind::Name || !parse_format(last.text, target) || !is_integer(target))
      map_.fail(last.pos, n.text + "'s last argument must be an integer format (i8 i16 i32 i64 u8 u16 u32 u64)");
    const Checked x = resolve(check(n.args[0], std::nullopt), ElemFormat::I64);
    if (!is_integer(x.type.format))
      map_.fail(n.pos, n.text + " needs an integer value, got " + type_name(x.type) +
                           (is_float(x.type.format) ? "; float to integer conversions saturate: use " +
                                                          std::string(format_name(target)) + "(...)"
                                                    : std::string()));
    ValueType t = x.type;
    std::vector<uint32_t> args = {x.node};
    if (op != Op::Sat) {
      const Checked shift = resolve(check(n.args[1], std::nullopt), ElemFormat::I64);
      if (!is_integer(shift.type.format))
        map_.fail(ast_.nodes[n.args[1]].pos, n.text + "'s shift must be an integer, got " + type_name(shift.type));
      t = combine(t, shift.type, n.pos, "shift");
      args.push_back(shift.node);
    }
    t.format = target;
    return typed(add(make(op, t, args), n.pos));
  }

  const Ast& ast_;
  const TextMapper& map_;
  const ExprLimits& limits_;
  const std::vector<OperandDecl>& operands_;
  std::map<std::string, uint32_t> operand_index_;
  std::vector<int> assigned_line_;
  std::map<std::string, Binding> temps_;
  std::set<std::string> targets_ahead_;
  std::map<std::pair<uint32_t, ElemFormat>, Checked> memo_;
  DataflowBuilder dag_;
};

bool valid_identifier(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

void check_declarations(const std::vector<OperandDecl>& operands, const TextMapper& map, const ExprLimits& limits) {
  std::set<std::string> seen;
  for (const OperandDecl& d : operands) {
    if (!valid_identifier(d.name)) map.fail({0, 0}, "operand name '" + d.name + "' is not an identifier");
    if (is_reserved_name(d.name))
      map.fail({0, 0}, "operand '" + d.name + "' has the name of a function or format of the semantics language");
    if (!seen.insert(d.name).second) map.fail({0, 0}, "operand '" + d.name + "' is declared twice");
    if (d.type.vector && d.type.lanes > limits.max_lanes)
      map.fail({0, 0}, "operand '" + d.name + "' has " + std::to_string(d.type.lanes) + " lanes (at most " +
                           std::to_string(limits.max_lanes) + ")");
  }
  // A run-time-length vector output needs a run-time-length vector input to set the length.
  bool runtime_input = false;
  for (const OperandDecl& d : operands)
    if (d.role != Role::Output && d.type.vector && d.type.lanes == 0) runtime_input = true;
  for (const OperandDecl& d : operands)
    if (d.role == Role::Output && d.type.vector && d.type.lanes == 0 && !runtime_input)
      map.fail({0, 0}, "the length of vector output '" + d.name +
                           "' is unknown: no vector input has the run-time length");
}

}  // namespace
}  // namespace detail

ExprProgram compile_semantics(std::string_view text, const SourceLocation& where,
                              const std::vector<OperandDecl>& operands, const ExprLimits& limits) {
  const detail::TextMapper map(where);
  detail::check_declarations(operands, map, limits);
  const detail::Ast ast = detail::parse_statements(text, map, limits);
  ExprProgram program;
  program.operands = operands;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].role != Role::Output) program.inputs.push_back(uint32_t(i));
    if (operands[i].role != Role::Input) program.outputs.push_back(uint32_t(i));
  }
  program.dataflow = detail::Checker(ast, map, limits, operands).run();
  program.op_counts = detail::count_operations(program.dataflow);
  return program;
}

}  // namespace tlmcraft::isa::extension
