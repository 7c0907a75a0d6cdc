#include "isa/dataflow/pattern_match.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "isa/dataflow/step_order.h"

namespace tlmcraft::isa::dataflow {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Binds a pattern name to a kernel storage (consistently with earlier bindings and
// the pattern's fixed names).
bool bind_name(const Pattern& p, const std::string& name, const std::string& storage, const std::string& text,
               Match& m) {
  if (auto f = p.fixed.find(name); f != p.fixed.end() && f->second != storage) return false;
  auto [it, fresh] = m.storage.emplace(name, storage);
  if (!fresh && it->second != storage) return false;
  m.text.emplace(name, text);
  return true;
}

// Binds one step's operands to `have` (one op's operands, possibly with a
// commutative pair swapped); false (bindings unchanged) when they disagree.
bool bind_operands(const Pattern& p, const PatternStep& step, const std::vector<Operand>& operands, Match& m) {
  Match trial = m;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& want = step.operands[i];
    const Operand& have = operands[i];
    if (want.access == Access::Literal) {
      if (have.access != Access::Literal) return false;
      if (want.storage.empty()) {
        if (have.text != want.text) return false;
        continue;
      }
      auto [it, fresh] = trial.text.emplace(want.storage, have.text);
      if (!fresh && it->second != have.text) return false;
      continue;
    }
    if (have.access != want.access) return false;
    if (!bind_name(p, want.storage, have.storage, have.text, trial)) return false;
    if (!want.address.empty() && (have.address.empty() || !bind_name(p, want.address, have.address, have.text, trial)))
      return false;
  }
  m = std::move(trial);
  return true;
}

// The ways one step binds to one op: operands in order, and with the op's
// commutative pair swapped (each a separate alternative the search tries).
std::vector<Match> bind_step(const Pattern& p, const PatternStep& step, const Op& op, const Match& m) {
  std::vector<Match> out;
  if (op.mnemonic != step.mnemonic || op.operands.size() != step.operands.size()) return out;
  Match direct = m;
  if (bind_operands(p, step, op.operands, direct)) out.push_back(std::move(direct));
  const size_t a = size_t(op.commutes_a), b = size_t(op.commutes_b);
  if (op.commutes_a < 0 || op.commutes_b < 0 || a >= op.operands.size() || b >= op.operands.size()) return out;
  std::vector<Operand> swapped = op.operands;
  std::swap(swapped[a], swapped[b]);
  Match other = m;
  if (bind_operands(p, step, swapped, other) &&
      (out.empty() || other.storage != out[0].storage || other.text != out[0].text))
    out.push_back(std::move(other));
  return out;
}

// The last op in [from, to) that writes `name`, or `none`.
size_t last_writer(const std::vector<Op>& ops, size_t from, size_t to, const std::string& name, size_t none) {
  for (size_t i = to; i > from; --i)
    if (writes_storage(ops[i - 1], name)) return i - 1;
  return none;
}

class Validator {
 public:
  Validator(const std::vector<Op>& ops, const Pattern& p, const Match& m) : ops_(ops), p_(p), m_(m) {}

  // Where the new instruction may go (the last op, else the first when `place_first`);
  // false when nowhere.
  bool valid(bool place_first, size_t& at) const {
    if (!reads_see_their_producers() || !final_values_agree()) return false;
    if (interleaved_ops_independent(true)) {
      at = last();
      return true;
    }
    if (place_first && interleaved_ops_independent(false)) {
      at = first();
      return true;
    }
    return false;
  }

 private:
  const std::vector<Op>& ops_;
  const Pattern& p_;
  const Match& m_;

  size_t first() const { return m_.ops.front(); }
  size_t last() const { return m_.ops.back(); }
  const std::string& bound(const std::string& name) const { return m_.storage.at(name); }

  // Step k reads each name's value from the step that last wrote that name
  // before it (or, for an input, from before the match): the kernel's storage
  // must agree.
  bool reads_see_their_producers() const {
    for (size_t k = 0; k < p_.steps.size(); ++k) {
      for (const Operand& o : p_.steps[k].operands) {
        if (o.reads() && !sees_producer(k, o.storage)) return false;
        if (!o.address.empty() && !sees_producer(k, o.address)) return false;
      }
    }
    return true;
  }

  bool sees_producer(size_t k, const std::string& name) const {
    const size_t none = ops_.size();
    size_t producer = none;
    for (size_t j = k; j > 0; --j)
      if (writes_name(p_.steps[j - 1], name)) {
        producer = m_.ops[j - 1];
        break;
      }
    return last_writer(ops_, first(), m_.ops[k], bound(name), none) == producer;
  }

  static bool writes_name(const PatternStep& s, const std::string& name) {
    for (const Operand& o : s.operands)
      if (o.writes() && o.storage == name) return true;
    return false;
  }

  bool is_matched(size_t i) const { return std::binary_search(m_.ops.begin(), m_.ops.end(), i); }

  // Everything the matched ops in [from, to] read and write, by storage name
  // (operands, their address registers and implicit).
  void touched(std::set<std::string>& read, std::set<std::string>& written, size_t from = 0,
               size_t to = SIZE_MAX) const {
    for (size_t i : m_.ops) {
      if (i < from || i > to) continue;
      for (const Operand& o : ops_[i].operands) {
        if (o.reads()) read.insert(o.storage);
        if (o.writes()) written.insert(o.storage);
        if (!o.address.empty()) read.insert(o.address);
      }
      read.insert(ops_[i].implicit_reads.begin(), ops_[i].implicit_reads.end());
      written.insert(ops_[i].implicit_writes.begin(), ops_[i].implicit_writes.end());
    }
  }

  // With the new instruction at the last step (`at_last`) the interleaved ops now
  // run before the steps that preceded them, at the first step after those that
  // followed them: they must not see or change anything the steps write, nor change
  // what the steps they cross read. (Placed last, they must not change what any
  // step reads: the rule before place_first existed, kept so that matches placed
  // last stay exactly those.)
  bool interleaved_ops_independent(bool at_last) const {
    std::set<std::string> read_any, written;
    touched(read_any, written);
    for (size_t i = first(); i <= last(); ++i) {
      if (ops_[i].barrier) return false;
      if (is_matched(i)) continue;
      for (const std::string& s : written)
        if (reads_storage(ops_[i], s) || writes_storage(ops_[i], s)) return false;
      std::set<std::string> read_crossed, unused;
      if (at_last)
        read_crossed = read_any;
      else
        touched(read_crossed, unused, i + 1);
      for (const std::string& s : read_crossed)
        if (writes_storage(ops_[i], s)) return false;
    }
    return true;
  }

  // After the match every written storage holds what the steps left there: an
  // output's value (the new instruction writes it), or a temporary's, which
  // must then be dead.
  bool final_values_agree() const {
    std::set<std::string> read, written;
    touched(read, written);
    for (const std::string& s : written) {
      size_t k = p_.steps.size();
      while (k > 0 && !writes_storage(ops_[m_.ops[k - 1]], s)) --k;
      if (k == 0)
        continue;  // implicit storage written by no operand is the instruction's
                   // own effect
      bool output = false;
      for (const Operand& o : p_.steps[k - 1].operands)
        if (o.writes() && o.storage.size() && bound(o.storage) == s && contains(p_.outputs, o.storage)) output = true;
      bool implicit_only = true;
      for (const Operand& o : ops_[m_.ops[k - 1]].operands)
        if (o.writes() && o.storage == s) implicit_only = false;
      if (output || implicit_only) continue;
      if (live_at(ops_, last() + 1, s)) return false;
    }
    // Two outputs in one storage cannot both survive.
    std::set<std::string> outs;
    for (const std::string& o : p_.outputs)
      if (!outs.insert(bound(o)).second) return false;
    return true;
  }
};

class Searcher {
 public:
  Searcher(const std::vector<Op>& ops, const Pattern& p, const MatchLimits& lim) : ops_(ops), p_(p), lim_(lim) {}

  // The first valid match whose first op is at or after `start`.
  bool find_from(size_t start, Match& out) {
    for (size_t i = start; i < ops_.size(); ++i)
      for (Match& m : bind_step(p_, p_.steps[0], ops_[i], Match{})) {
        m.ops.push_back(i);
        if (extend(1, i + 1, m, out)) return true;
      }
    return false;
  }

 private:
  const std::vector<Op>& ops_;
  const Pattern& p_;
  const MatchLimits& lim_;

  bool extend(size_t k, size_t from, const Match& m, Match& out) {
    if (k == p_.steps.size()) {
      size_t at = 0;
      if (!Validator(ops_, p_, m).valid(lim_.place_first, at)) return false;
      out = m;
      out.at = at;
      return true;
    }
    const size_t end = std::min(ops_.size(), m.ops.front() + lim_.window);
    for (size_t i = from; i < end; ++i) {
      if (ops_[i].barrier) return false;
      for (Match& next : bind_step(p_, p_.steps[k], ops_[i], m)) {
        next.ops.push_back(i);
        if (extend(k + 1, i + 1, next, out)) return true;
      }
    }
    return false;
  }
};

}  // namespace

std::vector<Match> find_matches(const std::vector<Op>& ops, const Pattern& pattern, const MatchLimits& limits) {
  std::vector<Match> found;
  if (pattern.steps.empty() || !check_pattern(pattern).empty()) return found;
  // A kernel may order independent steps differently: search each order the
  // steps allow.
  const std::vector<Pattern> orders = step_orders(pattern, 24);
  size_t start = 0;
  while (found.size() < limits.max_matches) {
    Match best, m;
    bool any = false;
    for (const Pattern& order : orders) {
      if (!Searcher(ops, order, limits).find_from(start, m)) continue;
      if (!any || m.ops.front() < best.ops.front() ||
          (m.ops.front() == best.ops.front() && m.ops.back() < best.ops.back()))
        best = m;
      any = true;
    }
    if (!any) break;
    start = best.ops.back() + 1;  // later matches never overlap this one
    found.push_back(std::move(best));
  }
  return found;
}

std::vector<std::string> check_pattern(const Pattern& p) {
  std::vector<std::string> problems;
  std::set<std::string> written;
  auto declared = [&](const std::string& n) {
    return contains(p.inputs, n) || contains(p.outputs, n) || contains(p.temps, n);
  };
  for (size_t k = 0; k < p.steps.size(); ++k) {
    const std::string where = "step " + std::to_string(k + 1) + " (" + p.steps[k].mnemonic + ")";
    for (const Operand& o : p.steps[k].operands) {
      if (o.access == Access::Literal) {
        if (!o.storage.empty() && !contains(p.parameters, o.storage))
          problems.push_back(where + ": '" + o.storage + "' is not a declared parameter");
        continue;
      }
      if (!declared(o.storage) || (!o.address.empty() && !declared(o.address))) {
        const std::string& n = declared(o.storage) ? o.address : o.storage;
        problems.push_back(where + ": '" + n + "' is not an input, output or temporary");
        continue;
      }
      if (o.reads() && contains(p.temps, o.storage) && !written.count(o.storage))
        problems.push_back(where + ": temporary '" + o.storage + "' is read before it is written");
      if (o.writes() && contains(p.inputs, o.storage) && !contains(p.outputs, o.storage))
        problems.push_back(where + ": input '" + o.storage + "' is written");
    }
    for (const Operand& o : p.steps[k].operands)
      if (o.writes()) written.insert(o.storage);
  }
  for (const std::string& o : p.outputs)
    if (!written.count(o)) problems.push_back("output '" + o + "' is never written");
  for (const auto& f : p.fixed)
    if (!contains(p.inputs, f.first)) problems.push_back("fixed name '" + f.first + "' is not an input");
  return problems;
}

std::string step_text(const PatternStep& step, const std::map<std::string, std::string>& names) {
  std::string s = step.mnemonic;
  for (size_t i = 0; i < step.operands.size(); ++i) {
    const Operand& o = step.operands[i];
    s += i ? ", " : " ";
    s += o.access == Access::Literal ? o.text : names.at(o.storage);
  }
  return s;
}

}  // namespace tlmcraft::isa::dataflow
