#include "isa/actions.h"

#include <algorithm>
#include <cctype>

#include "isa/isa_spec.h"

namespace tlmcraft::isa {

namespace {

using Decomposition = std::vector<std::pair<std::string, uint64_t>>;

// Composite ops in primitives, per element. The counts are the textbook formulas' operation
// counts (docs/energy-area.md, "Composite operations"); a hardware unit may do better.
const std::map<std::string, Decomposition>& composites() {
  static const std::map<std::string, Decomposition> table = {
      // aliases: one primitive
      {"sub", {{"add", 1}}}, {"neg", {{"logic", 1}}}, {"abs", {{"logic", 1}}},
      {"min", {{"cmp", 1}}}, {"max", {{"cmp", 1}}}, {"select", {{"cmp", 1}}}, {"relu", {{"cmp", 1}}},
      {"lt", {{"cmp", 1}}}, {"le", {{"cmp", 1}}}, {"gt", {{"cmp", 1}}}, {"ge", {{"cmp", 1}}}, {"eq", {{"cmp", 1}}},
      {"and", {{"logic", 1}}}, {"or", {{"logic", 1}}}, {"xor", {{"logic", 1}}}, {"not", {{"logic", 1}}},
      {"shift", {{"logic", 1}}}, {"shl", {{"logic", 1}}}, {"shr", {{"logic", 1}}},
      {"fma", {{"mac", 1}}}, {"sum", {{"add", 1}}},
      // rounding shifts: shift, round (an add), saturate (a compare)
      {"srs", {{"logic", 1}, {"add", 1}, {"cmp", 1}}}, {"rne", {{"logic", 1}, {"add", 1}, {"cmp", 1}}},
      {"sat", {{"cmp", 1}}},
      // 1 / (1 + exp(-x)), the sign flip free
      {"sigmoid", {{"exp", 1}, {"add", 1}, {"recip", 1}}},
      // x * sigmoid(x)
      {"silu", {{"exp", 1}, {"add", 1}, {"recip", 1}, {"mul", 1}}},
      // 1 - 2 / (exp(2x) + 1)
      {"tanh", {{"mul", 2}, {"exp", 1}, {"add", 2}, {"recip", 1}}},
      // 0.5 x (1 + tanh(0.79788 (x + 0.044715 x^3))): x^3 2 mul, 3 more mul, 2 add, + tanh
      {"gelu", {{"mul", 7}, {"exp", 1}, {"add", 4}, {"recip", 1}}},
  };
  return table;
}

bool is_name_part(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

void check_part(const std::string& part, const char* what, const std::string& context) {
  if (!is_name_part(part))
    throw ActionError(context + ": " + what + " '" + part + "' must be lower-case letters, digits or '_'");
}

void add_named(std::map<std::string, uint64_t>& sums, const std::string& name, uint64_t count) {
  if (count) sums[name] += count;
}

NamedActions to_list(const std::map<std::string, uint64_t>& sums) {
  NamedActions out;
  for (const auto& [name, count] : sums)
    if (count) out.push_back({name, count});
  return out;
}

// "vector.silu.bf16" x n -> its primitives; other names unchanged.
void add_decomposed(std::map<std::string, uint64_t>& sums, const std::string& name, uint64_t count) {
  const auto first = name.find('.');
  const auto second = name.find('.', first + 1);
  if (first == std::string::npos || second == std::string::npos) return add_named(sums, name, count);
  const std::string op = name.substr(first + 1, second - first - 1);
  const auto it = composites().find(op);
  if (it == composites().end()) return add_named(sums, name, count);
  for (const auto& [prim, times] : it->second)
    add_named(sums, name.substr(0, first) + "." + prim + name.substr(second), count * times);
}

}  // namespace

const std::vector<std::string>& primitive_ops() {
  static const std::vector<std::string> ops = {"add", "mul",   "mac", "div",   "exp",     "log", "sqrt",
                                               "rsqrt", "recip", "cmp", "logic", "convert", "move"};
  return ops;
}

Decomposition primitive_decomposition(const std::string& op) {
  const auto& prims = primitive_ops();
  if (std::find(prims.begin(), prims.end(), op) != prims.end()) return {{op, 1}};
  const auto it = composites().find(op);
  return it == composites().end() ? Decomposition{} : it->second;
}

std::string check_action_name(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t dot = name.find('.', start);
    parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (parts.size() < 2 || parts.size() > 3)
    return "action '" + name + "' must be <component>.<action> or <component>.<action>.<format>";
  for (const auto& p : parts)
    if (!is_name_part(p)) return "action '" + name + "': each part must be lower-case letters, digits or '_'";
  return "";
}

NamedActions actions_of(const InstructionWork& work) {
  std::map<std::string, uint64_t> sums;
  for (const auto& op : work.ops) {
    check_part(op.unit, "unit", "op " + op.op);
    check_part(op.format, "format", "op " + op.op);
    const Decomposition d = primitive_decomposition(op.op);
    if (d.empty()) {
      std::string known;
      for (const auto& p : primitive_ops()) known += (known.empty() ? "" : " ") + p;
      for (const auto& [name, _] : composites()) known += " " + name;
      throw ActionError("unknown op '" + op.op + "' (known: " + known + ")");
    }
    for (const auto& [prim, times] : d) add_named(sums, op.unit + "." + prim + "." + op.format, op.count * times);
  }
  for (const auto& t : work.traffic) {
    check_part(t.storage, "storage", "traffic");
    add_named(sums, t.storage + ".read_bytes", t.read_bytes);
    add_named(sums, t.storage + ".write_bytes", t.write_bytes);
  }
  return to_list(sums);
}

NamedActions merge_actions(const NamedActions& a, const NamedActions& b) {
  std::map<std::string, uint64_t> sums;
  for (const auto& x : a) add_named(sums, x.name, x.count);
  for (const auto& x : b) add_named(sums, x.name, x.count);
  return to_list(sums);
}

NamedActions compose_actions(const std::vector<NamedActions>& steps, const std::vector<StorageTraffic>& saved) {
  std::map<std::string, uint64_t> sums;
  for (const auto& step : steps)
    for (const auto& x : step) add_named(sums, x.name, x.count);
  const auto take = [&](const std::string& name, uint64_t n) {
    if (n == 0) return;
    const uint64_t have = sums.count(name) ? sums[name] : 0;
    if (n > have)
      throw ActionError("a composed instruction saves " + std::to_string(n) + " of '" + name + "' but its steps do only " +
                        std::to_string(have));
    sums[name] = have - n;
  };
  for (const auto& t : saved) {
    check_part(t.storage, "storage", "saved traffic");
    take(t.storage + ".read_bytes", t.read_bytes);
    take(t.storage + ".write_bytes", t.write_bytes);
  }
  return to_list(sums);
}

bool eval_count(const std::string& expr, const std::map<std::string, uint64_t>& params, uint64_t& out,
                std::string& error) {
  uint64_t value = 1;
  char op = '*';
  size_t i = 0;
  bool any = false;
  while (i <= expr.size()) {
    size_t j = expr.find_first_of("*/", i);
    if (j == std::string::npos) j = expr.size();
    std::string token = expr.substr(i, j - i);
    token.erase(0, token.find_first_not_of(" \t"));
    token.erase(token.find_last_not_of(" \t") + 1);
    uint64_t v = 0;
    int64_t n = 0;
    if (token.empty()) {
      error = "count '" + expr + "': expected a number or a parameter name";
      return false;
    }
    if (parse_integer(token, n)) {
      if (n < 0) {
        error = "count '" + expr + "': negative number " + token;
        return false;
      }
      v = uint64_t(n);
    } else if (auto it = params.find(token); it != params.end()) {
      v = it->second;
    } else if (params.empty()) {
      error = "count '" + expr + "': '" + token + "' is not a number";
      return false;
    } else {
      std::string known;
      for (const auto& [k, _] : params) known += (known.empty() ? "" : ", ") + k;
      error = "count '" + expr + "': unknown parameter '" + token + "' (known: " + known + ")";
      return false;
    }
    if (op == '*') {
      value *= v;
    } else if (v == 0 || value % v != 0) {
      error = "count '" + expr + "': " + std::to_string(value) + " / " + std::to_string(v) + " is not a whole number";
      return false;
    } else {
      value /= v;
    }
    any = true;
    if (j == expr.size()) break;
    op = expr[j];
    i = j + 1;
  }
  out = value;
  return any;
}

std::map<std::string, uint64_t> action_parameters(const IsaSpec& spec, const std::map<std::string, uint64_t>& platform) {
  std::map<std::string, uint64_t> params;
  for (const auto& p : spec.parameters()) {
    int64_t v = 0;
    if (parse_integer(p.value, v) && v >= 0) params[p.name] = uint64_t(v);
  }
  for (const auto& [k, v] : platform) params[k] = v;
  return params;
}

NamedActions evaluate_actions(const std::vector<ActionDecl>& decls, const std::map<std::string, uint64_t>& params,
                              const std::string& file, const std::string& what) {
  std::map<std::string, uint64_t> sums;
  for (const auto& a : decls) {
    uint64_t n = 0;
    std::string error;
    if (!eval_count(a.count, params, n, error))
      throw ActionError(file + ":" + std::to_string(a.line) + ":" + std::to_string(a.col) + ": " + what + ": actions." +
                        a.name + ": " + error);
    add_decomposed(sums, a.name, n);
  }
  return to_list(sums);
}

NamedActions declared_actions(const IsaSpec& spec, const InstructionSpec& ins, const std::map<std::string, uint64_t>& params) {
  return evaluate_actions(ins.actions, params, spec.file(), ins.mnemonic);
}

ActionId ActionCatalog::id(const std::string& name) {
  const auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  const ActionId id = ActionId(names_.size());
  names_.push_back(name);
  ids_.emplace(name, id);
  return id;
}

int ActionCatalog::find(const std::string& name) const {
  const auto it = ids_.find(name);
  return it == ids_.end() ? -1 : int(it->second);
}

void ActionLists::push(const NamedActions& actions, ActionCatalog& catalog) {
  for (const auto& a : actions) refs_.push_back({catalog.id(a.name), a.count});
  begin_.push_back(uint32_t(refs_.size()));
}

std::map<std::string, uint64_t> ActionCounter::by_name(const ActionCatalog& catalog) const {
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < catalog.size(); ++i) out[catalog.names()[i]] = i < counts_.size() ? counts_[i] : 0;
  return out;
}

}  // namespace tlmcraft::isa
