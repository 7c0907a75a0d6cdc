#include "platforms/plena/pack/agent/plena_composed_rewrite.h"

#include <map>
#include <set>

#include "isa/compose.h"

namespace tlmcraft::agent::search::plena {
namespace {

// One step of the composed instruction: mnemonic, and per token the operand index in the
// step's instruction and either a name (operand or temporary) or a literal value.
struct Pattern {
  const isa::InstructionSpec* spec = nullptr;
  struct Token {
    int op = -1;
    std::string name;   // empty for a literal
    int64_t value = 0;  // the literal's value
    bool temp = false;
  };
  std::vector<Token> tokens;
};

bool literal_value(const isa::IsaSpec& spec, const isa::OperandSpec& op, const std::string& text, int64_t& out) {
  const isa::OperandKind& k = spec.kinds()[op.kind];
  if (k.type == isa::KindType::Register) {
    const std::string& prefix = spec.register_classes()[k.register_class].prefix;
    if (text.compare(0, prefix.size(), prefix) == 0 && isa::parse_integer(text.substr(prefix.size()), out)) return true;
  }
  return isa::parse_integer(text, out);
}

bool patterns_of(const isa::InstructionSpec& c, std::vector<Pattern>& out) {
  const isa::IsaSpec& spec = plena_spec();
  for (const auto& step : c.compose.steps) {
    Pattern p;
    std::string mnemonic;
    std::vector<isa::StepToken> toks;
    isa::split_step(step.text, mnemonic, toks);
    p.spec = spec.find(mnemonic);
    if (!p.spec) return false;
    const std::vector<int> ops = isa::token_operands(*p.spec, toks.size());
    for (size_t i = 0; i < toks.size(); ++i) {
      Pattern::Token t;
      t.op = ops[i];
      if (t.op < 0) return false;
      bool named = false;
      for (const auto& o : c.operands) named = named || (!o.placeholder && o.name == toks[i].text);
      for (const auto& n : c.compose.temps)
        if (n == toks[i].text) named = true, t.temp = true;
      if (named) t.name = toks[i].text;
      else if (!literal_value(spec, p.spec->operands[size_t(t.op)], toks[i].text, t.value)) return false;
      p.tokens.push_back(t);
    }
    out.push_back(std::move(p));
  }
  return true;
}

using Binding = std::map<std::string, int64_t>;

// PLENA instructions whose rs1 and rs2 may be swapped without changing a bit of the
// result (IEEE addition, multiplication and max are commutative; so is integer add/mul).
bool commutative(const std::string& mnemonic) {
  static const std::set<std::string> names = {"V_ADD_VV", "V_MUL_VV", "S_ADD_FP", "S_MUL_FP", "S_MAX_FP",
                                              "S_ADD_INT", "S_MUL_INT"};
  return names.count(mnemonic) > 0;
}

// `op` is an instance of `p` under `b` (extended with the names it binds), reading the
// operands in `order` (operand index -> the op's operand index).
bool matches_in(const Pattern& p, const Op& op, const std::vector<int>& order, Binding& b) {
  Binding tried = b;
  for (const auto& t : p.tokens) {
    const int64_t v = op.operands[size_t(order[size_t(t.op)])];
    if (t.name.empty()) {
      if (v != t.value) return false;
    } else if (auto it = tried.find(t.name); it != tried.end()) {
      if (it->second != v) return false;
    } else {
      tried[t.name] = v;
    }
  }
  b = std::move(tried);
  return true;
}

bool matches(const Pattern& p, const Op& op, Binding& b) {
  if (op.spec != p.spec) return false;
  std::vector<int> order(op.operands.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  if (matches_in(p, op, order, b)) return true;
  const int rs1 = op.operand_index("rs1"), rs2 = op.operand_index("rs2");
  if (!commutative(op.mnemonic()) || rs1 < 0 || rs2 < 0) return false;
  std::swap(order[size_t(rs1)], order[size_t(rs2)]);
  return matches_in(p, op, order, b);
}

struct Match {
  std::vector<size_t> at;  // positions in the block, one per step
  Binding binding;
};

// Keys (registers, resources) the matched steps read or write.
void keys_of(const Block& block, const Match& m, std::set<int>& reads, std::set<int>& writes) {
  for (size_t i : m.at) {
    const RegEffects e = reg_effects(block[i].op);
    reads.insert(e.reads.begin(), e.reads.end());
    writes.insert(e.writes.begin(), e.writes.end());
  }
}

bool independent(const Op& op, const std::set<int>& reads, const std::set<int>& writes) {
  if (!is_pure_setup(op)) return false;
  const RegEffects e = reg_effects(op);
  for (int k : e.writes)
    if (reads.count(k) || writes.count(k)) return false;
  for (int k : e.reads)
    if (writes.count(k)) return false;
  return true;
}

// The first match starting at block[start]: each next step is the first later instruction
// of the straight-line run that matches; the skipped ones must be independent.
bool match_at(const Block& block, size_t start, const std::vector<Pattern>& steps, Match& m) {
  m = Match{};
  size_t j = start;
  for (const Pattern& p : steps) {
    while (j < block.size() && !block[j].is_loop && !matches(p, block[j].op, m.binding)) ++j;
    if (j >= block.size() || block[j].is_loop) return false;
    m.at.push_back(j++);
  }
  std::set<int> reads, writes;
  keys_of(block, m, reads, writes);
  std::set<size_t> in(m.at.begin(), m.at.end());
  for (size_t i = m.at.front(); i < m.at.back(); ++i)
    if (!in.count(i) && !independent(block[i].op, reads, writes)) return false;
  return true;
}

// Temporaries must not share a register with an operand (the steps would then read or
// overwrite that operand's value in the kernel, which the composed instruction does not).
bool temps_apart(const isa::InstructionSpec& c, const Match& m) {
  std::set<int64_t> operand_regs;
  for (const auto& o : c.operands)
    if (auto it = m.binding.find(o.name); it != m.binding.end()) operand_regs.insert(it->second);
  for (const auto& t : c.compose.temps)
    if (auto it = m.binding.find(t); it != m.binding.end() && operand_regs.count(it->second)) return false;
  return true;
}

struct Found {
  Block* block;
  Match match;
};

void find_matches(Block& block, const isa::InstructionSpec& c, const std::vector<Pattern>& steps,
                  std::vector<Found>& out) {
  size_t i = 0;
  while (i < block.size()) {
    if (block[i].is_loop) {
      find_matches(block[i].body, c, steps, out);
      ++i;
      continue;
    }
    Match m;
    if (match_at(block, i, steps, m) && temps_apart(c, m)) {
      out.push_back({&block, m});
      i = m.at.back() + 1;
    } else {
      ++i;
    }
  }
}

// Register keys of the temporaries: gp ones address rows, fp ones are values.
void temp_registers(const isa::InstructionSpec& c, const std::vector<Found>& found, std::set<int>& gp,
                    std::set<int>& fp) {
  const isa::IsaSpec& spec = plena_spec();
  const int gp_class = spec.register_class_index("gp");
  for (const Found& f : found)
    for (size_t t = 0; t < c.compose.temps.size(); ++t) {
      auto it = f.match.binding.find(c.compose.temps[t]);
      if (it == f.match.binding.end()) continue;
      (c.compose.temp_class[t] == gp_class ? gp : fp).insert(int(it->second));
    }
}

template <class F>
void walk(const Block& block, Values& values, F&& f) {
  for (const Node& n : block) {
    if (n.is_loop) {
      values.enter_loop(n);
      walk(n.body, values, f);
      values.leave_loop(n);
      continue;
    }
    f(n, values);
    values.apply(n.op);
  }
}

// Temporaries are dead outside the matches: no other instruction reads a row a gp
// temporary's register addresses at a matched step, nor an fp temporary's register.
bool temps_dead(const Kernel& kernel, const std::vector<Found>& found, const std::set<int>& gp_temps,
                const std::set<int>& fp_temps, const Arch& arch, std::string& why) {
  std::set<const Node*> matched;
  for (const Found& f : found)
    for (size_t i : f.match.at) matched.insert(&(*f.block)[i]);
  std::vector<MemAccess> temp_rows;
  Values first;
  walk(kernel.code, first, [&](const Node& n, Values& v) {
    if (!matched.count(&n)) return;
    for (int r : gp_temps) temp_rows.push_back({Space::Vram, true, false, v.get(reg_key_gp(r)), 0, arch.vlen});
  });
  bool dead = true;
  Values second;  // the same walk: equal symbols
  walk(kernel.code, second, [&](const Node& n, Values& v) {
    if (matched.count(&n) || !dead) return;
    for (int k : reg_effects(n.op).reads)
      if (k >= 16 && k < 24 && fp_temps.count(k - 16)) {
        why = print_op(n.op) + " reads temporary f" + std::to_string(k - 16);
        dead = false;
        return;
      }
    for (const MemAccess& a : memory_effects(n.op, v, arch)) {
      if (a.write) continue;
      for (const MemAccess& t : temp_rows)
        if (may_conflict(t, a)) {
          why = print_op(n.op) + " may read a temporary's row";
          dead = false;
          return;
        }
    }
  });
  return dead;
}

Op composed_op(const isa::InstructionSpec& c, const Match& m, const Block& block) {
  std::vector<int64_t> values;
  for (const auto& o : c.operands) {
    auto it = m.binding.find(o.name);
    values.push_back(it != m.binding.end() && !o.placeholder ? it->second : o.default_value);
  }
  const std::string& first = block[m.at.front()].op.comment;
  return make_op(c.mnemonic, values,
                 "was " + std::to_string(m.at.size()) + " instructions" + (first.empty() ? "" : ": " + first));
}

}  // namespace

int use_composed(Kernel& kernel, const isa::InstructionSpec& composed, const Arch& arch, std::string& why) {
  if (!composed.is_fused() || !composed.semantics.empty()) return 0;
  std::vector<Pattern> steps;
  if (!patterns_of(composed, steps)) return 0;
  std::vector<Found> found;
  find_matches(kernel.code, composed, steps, found);
  if (found.empty()) return 0;
  std::set<int> gp_temps, fp_temps;
  temp_registers(composed, found, gp_temps, fp_temps);
  if (!temps_dead(kernel, found, gp_temps, fp_temps, arch, why)) return 0;
  // Replace back to front so earlier positions stay valid: the composed instruction takes
  // the last step's place, the other steps go.
  for (auto f = found.rbegin(); f != found.rend(); ++f) {
    Block& block = *f->block;
    const Op op = composed_op(composed, f->match, block);
    block[f->match.at.back()].op = op;
    for (auto i = f->match.at.rbegin() + 1; i != f->match.at.rend(); ++i) block.erase(block.begin() + long(*i));
  }
  return int(found.size());
}

}  // namespace tlmcraft::agent::search::plena
