#include "isa/dataflow/subgraphs.h"

#include <algorithm>
#include <map>
#include <set>

#include "isa/dataflow/step_order.h"

namespace tlmcraft::isa::dataflow {
namespace {

constexpr size_t kNone = SIZE_MAX;

// True (read-after-write) dependences of a region, and who consumes each
// written value.
class RegionGraph {
 public:
  RegionGraph(const std::vector<Op>& ops, size_t begin, size_t end) : ops_(ops), begin_(begin), end_(end) {
    preds_.resize(end - begin);
    succs_.resize(end - begin);
    for (size_t i = begin; i < end; ++i)
      for (const std::string& s : reads_of(ops[i])) {
        const size_t p = producer(i, s);
        if (p == kNone) continue;
        add_edge(p, i);
      }
  }

  const std::vector<size_t>& preds(size_t i) const { return preds_[i - begin_]; }
  const std::vector<size_t>& succs(size_t i) const { return succs_[i - begin_]; }

  // The last op of the region before `i` that writes `s` (kNone: the value
  // comes from outside).
  size_t producer(size_t i, const std::string& s) const {
    for (size_t j = i; j > begin_; --j)
      if (writes_storage(ops_[j - 1], s)) return j - 1;
    return kNone;
  }

  // True when the value op `n` writes to `s` is read by an op outside `inside`
  // (or after the region).
  bool used_outside(size_t n, const std::string& s, const std::vector<size_t>& inside) const {
    for (size_t j = n + 1; j < end_; ++j) {
      if (reads_storage(ops_[j], s) && !std::binary_search(inside.begin(), inside.end(), j)) return true;
      if (writes_storage(ops_[j], s)) return false;
    }
    return live_at(ops_, end_, s);
  }

  static std::vector<std::string> reads_of(const Op& op) {
    std::vector<std::string> r;
    for (const Operand& o : op.operands)
      if (o.reads()) r.push_back(o.storage);
    r.insert(r.end(), op.implicit_reads.begin(), op.implicit_reads.end());
    return r;
  }

 private:
  const std::vector<Op>& ops_;
  size_t begin_, end_;
  std::vector<std::vector<size_t>> preds_, succs_;

  void add_edge(size_t from, size_t to) {
    auto& p = preds_[to - begin_];
    if (std::find(p.begin(), p.end(), from) != p.end()) return;
    p.push_back(from);
    succs_[from - begin_].push_back(to);
  }
};

bool has_readwrite(const Op& op) {
  for (const Operand& o : op.operands)
    if (o.access == Access::ReadWrite) return true;
  return false;
}

bool has_readwrite_on(const Op& op, const std::string& storage) {
  for (const Operand& o : op.operands)
    if (o.access == Access::ReadWrite && o.storage == storage) return true;
  return false;
}

// Accumulations (an operand read and written: vmacc's vd). The op of `g` that
// accumulates onto the value op `n` wrote to `s` (kNone: none), and whether the chain
// of accumulations ending at `n` began with a value from outside `g` (then the
// instruction reads it and writes it back: an input and an output).
size_t accumulated_by(const std::vector<Op>& ops, const RegionGraph& graph, const std::vector<size_t>& g, size_t n,
                      const std::string& s) {
  for (size_t m : g)
    if (m > n && has_readwrite_on(ops[m], s) && graph.producer(m, s) == n) return m;
  return kNone;
}

bool chain_starts_outside(const std::vector<Op>& ops, const RegionGraph& graph, const std::vector<size_t>& g, size_t n,
                          const std::string& s) {
  for (size_t at = n; has_readwrite_on(ops[at], s);) {
    const size_t p = graph.producer(at, s);
    if (p == kNone || !std::binary_search(g.begin(), g.end(), p)) return true;
    at = p;
  }
  return false;
}

// True when no op outside `g` reads a value that an accumulation inside `g` then
// overwrites: the pattern names the chain's values with one name, so only its last
// value can leave the instruction.
bool accumulations_expressible(const std::vector<Op>& ops, const RegionGraph& graph, const std::vector<size_t>& g) {
  for (size_t n : g)
    for (const Operand& o : ops[n].operands) {
      if (!o.writes()) continue;
      const size_t m = accumulated_by(ops, graph, g, n, o.storage);
      if (m == kNone) continue;
      for (size_t j = n + 1; j < m; ++j)
        if (!std::binary_search(g.begin(), g.end(), j) && reads_storage(ops[j], o.storage)) return false;
    }
  return true;
}

}  // namespace

std::string in_place_register(const Op& op) {
  if (op.barrier || !op.implicit_reads.empty() || !op.implicit_writes.empty()) return "";
  std::string reg;
  bool read = false, written = false;
  for (const Operand& o : op.operands) {
    if (o.access == Access::Literal) continue;
    if (!o.address.empty() || (!reg.empty() && o.storage != reg)) return "";
    reg = o.storage;
    read = read || o.reads();
    written = written || o.writes();
  }
  return read && written ? reg : "";
}

namespace {

bool addresses(const Op& op, const std::string& reg) {
  for (const Operand& o : op.operands)
    if (o.address == reg) return true;
  return false;
}

bool inside(const std::vector<size_t>& g, size_t i) { return std::binary_search(g.begin(), g.end(), i); }

// Address-update edges of a region: op v reaches memory through register r and a
// later op u updates r in place, with no write of r between them.
class UpdateEdges {
 public:
  UpdateEdges(const std::vector<Op>& ops, size_t begin, size_t end) : begin_(begin) {
    users_.resize(end - begin);
    updates_.resize(end - begin);
    for (size_t u = begin; u < end; ++u) {
      const std::string r = in_place_register(ops[u]);
      if (r.empty()) continue;
      for (size_t v = u; v > begin; --v) {
        if (writes_storage(ops[v - 1], r)) break;
        if (!addresses(ops[v - 1], r)) continue;
        users_[u - begin].push_back(v - 1);
        updates_[v - 1 - begin].push_back(u);
      }
    }
  }
  const std::vector<size_t>& users(size_t u) const { return users_[u - begin_]; }
  const std::vector<size_t>& updates(size_t v) const { return updates_[v - begin_]; }

 private:
  size_t begin_;
  std::vector<std::vector<size_t>> users_, updates_;
};

// The registers the subgraph updates in place: those of its in-place ops that an
// earlier op of it uses as an address. Empty `ok` when an update breaks the rules
// (convex_subgraphs): an op outside reads or writes the register between the
// subgraph's first op and the update, or an op of it uses the register after.
std::set<std::string> updated_registers(const std::vector<Op>& ops, const std::vector<size_t>& g, bool& ok) {
  std::set<std::string> regs;
  ok = true;
  for (size_t u : g) {
    const std::string r = in_place_register(ops[u]);
    if (r.empty()) continue;
    bool used_before = false;
    for (size_t v : g)
      if (v < u && addresses(ops[v], r)) used_before = true;
    if (!used_before) continue;
    regs.insert(r);
    for (size_t i = g.front(); i < u; ++i)
      if (!inside(g, i) && (reads_storage(ops[i], r) || writes_storage(ops[i], r))) ok = false;
    for (size_t v : g)
      if (v > u && reads_storage(ops[v], r)) ok = false;
  }
  return regs;
}

// No path leaves `g` and comes back (ops outside between its first and last
// op).
bool convex(const RegionGraph& graph, const std::vector<size_t>& g) {
  const size_t lo = g.front(), hi = g.back();
  std::set<size_t> from_g;
  std::vector<size_t> pending(g.begin(), g.end());
  while (!pending.empty()) {
    const size_t i = pending.back();
    pending.pop_back();
    for (size_t s : graph.succs(i)) {
      if (s > hi || from_g.count(s)) continue;
      const bool inside = std::binary_search(g.begin(), g.end(), s);
      if (!inside) from_g.insert(s);
      pending.push_back(s);
    }
  }
  for (size_t x : from_g) {  // an outside op reachable from g: does it reach back into g?
    std::vector<size_t> walk{x};
    std::set<size_t> seen;
    while (!walk.empty()) {
      const size_t i = walk.back();
      walk.pop_back();
      for (size_t s : graph.succs(i)) {
        if (s > hi || !seen.insert(s).second) continue;
        if (std::binary_search(g.begin(), g.end(), s)) return false;
        walk.push_back(s);
      }
    }
  }
  (void)lo;
  return true;
}

// Whether the value op `n` writes to `s` leaves the subgraph: read later outside it, or
// the last value of an accumulation that began outside (written back, read later or
// not: it takes a write port); a value accumulated onto inside does not.
bool is_output(const std::vector<Op>& ops, const RegionGraph& graph, const std::vector<size_t>& g, size_t n,
               const std::string& s) {
  if (accumulated_by(ops, graph, g, n, s) != kNone) return false;
  return chain_starts_outside(ops, graph, g, n, s) || graph.used_outside(n, s, g);
}

// Inputs and outputs by value; a register updated in place is an input only when it
// addresses no output (otherwise it shares that output's field), and the memory it
// addresses is reached through it (no input of its own).
void count_ports(const std::vector<Op>& ops, const RegionGraph& graph, const std::set<std::string>& updated,
                 Subgraph& g) {
  std::set<std::pair<size_t, std::string>> in, out;
  std::set<std::string> addressing_outputs;
  for (size_t n : g.ops) {
    for (const Operand& o : ops[n].operands) {
      if (updated.count(o.storage)) continue;
      if (o.reads() && !updated.count(o.address)) {
        const size_t p = graph.producer(n, o.storage);
        if (p == kNone || !inside(g.ops, p)) in.insert({p, o.storage});
      }
      if (o.writes() && is_output(ops, graph, g.ops, n, o.storage)) {
        out.insert({n, o.storage});
        if (updated.count(o.address)) addressing_outputs.insert(o.address);
      }
    }
  }
  g.updates = int(updated.size());
  g.inputs = int(in.size() + updated.size() - addressing_outputs.size());
  g.outputs = int(out.size());
}

// Every op of `g` is fusable or updates one of `updated` (an update whose address
// user left the subgraph does not belong to it).
bool joined(const std::vector<Op>& ops, const std::vector<size_t>& g, const std::function<bool(size_t)>& ok,
            const std::set<std::string>& updated) {
  for (size_t n : g)
    if (!ok(n) && !updated.count(in_place_register(ops[n]))) return false;
  return true;
}

// The memory rule of SubgraphLimits: at most max_memory_reads loads, none of them crossed
// by a write of memory from outside before the subgraph's last op.
bool memory_order_kept(const std::vector<Op>& ops, const std::vector<size_t>& g, const SubgraphLimits& limits) {
  if (limits.memory.empty()) return true;
  int loads = 0;
  for (size_t n : g) {
    if (!reads_storage(ops[n], limits.memory)) continue;
    if (++loads > limits.max_memory_reads) return false;
    for (size_t i = n + 1; i < g.back(); ++i)
      if (!inside(g, i) && writes_storage(ops[i], limits.memory)) return false;
  }
  return true;
}

}  // namespace

std::vector<Subgraph> convex_subgraphs(const std::vector<Op>& ops, size_t begin, size_t end,
                                       const std::function<bool(const Op&)>& fusable, const SubgraphLimits& limits) {
  const RegionGraph graph(ops, begin, end);
  const UpdateEdges updates(ops, begin, end);
  auto ok = [&](size_t i) {
    return fusable(ops[i]) && !ops[i].barrier && (limits.accumulators || !has_readwrite(ops[i])) &&
           (limits.memory.empty() || !writes_storage(ops[i], limits.memory));
  };
  auto update_ok = [&](size_t i) { return limits.max_updates > 0 && !in_place_register(ops[i]).empty(); };
  std::set<std::vector<size_t>> seen;
  std::vector<std::vector<size_t>> frontier;
  for (size_t i = begin; i < end; ++i)
    if (ok(i)) frontier.push_back({i});
  std::vector<Subgraph> found;
  for (int size = 2; size <= limits.max_ops && !frontier.empty(); ++size) {
    std::vector<std::vector<size_t>> next;
    for (const auto& set : frontier) {
      for (size_t n : set) {
        std::vector<size_t> around = graph.preds(n);
        around.insert(around.end(), graph.succs(n).begin(), graph.succs(n).end());
        const size_t by_data = around.size();
        if (limits.max_updates > 0) {
          around.insert(around.end(), updates.updates(n).begin(), updates.updates(n).end());
          around.insert(around.end(), updates.users(n).begin(), updates.users(n).end());
        }
        for (size_t k = 0; k < around.size(); ++k) {
          const size_t m = around[k];
          const bool joins = ok(m) || (k >= by_data && update_ok(m));  // an update joins by its address only
          if (!joins || inside(set, m)) continue;
          std::vector<size_t> grown = set;
          grown.insert(std::upper_bound(grown.begin(), grown.end(), m), m);
          if (!seen.insert(grown).second) continue;
          if (seen.size() > limits.max_subgraphs) return found;
          next.push_back(grown);
          if (!convex(graph, grown)) continue;
          bool updates_legal = true;
          const std::set<std::string> updated = updated_registers(ops, grown, updates_legal);
          if (!updates_legal || int(updated.size()) > limits.max_updates || !joined(ops, grown, ok, updated) ||
              !accumulations_expressible(ops, graph, grown) || !memory_order_kept(ops, grown, limits))
            continue;
          Subgraph g{grown};
          count_ports(ops, graph, updated, g);
          if (g.outputs + g.updates >= 1 && g.inputs <= limits.read_ports && g.outputs <= limits.write_ports &&
              (!limits.admissible || limits.admissible(ops, g.ops)))
            found.push_back(g);
        }
      }
    }
    frontier = std::move(next);
  }
  return found;
}

namespace {

// Names each value of the subgraph in the order the steps meet it.
class Namer {
 public:
  Namer(const std::vector<Op>& ops, size_t region_end, const Subgraph& g)
      : ops_(ops), g_(g), graph_(ops, g.ops.front(), region_end) {
    bool legal = true;
    updated_ = updated_registers(ops, g.ops, legal);
  }

  // The pattern with the steps in `order`; an op in `swapped` has its commutative pair
  // of operands exchanged.
  Pattern name(const std::vector<size_t>& order, const std::vector<size_t>& swapped) {
    Pattern p;
    std::map<std::pair<size_t, std::string>, std::string> value_name;  // (producer, storage) -> name
    std::map<std::string, std::string> io_name;                        // register updated in place -> io<k>
    auto io = [&](const std::string& reg) {
      auto it = io_name.find(reg);
      if (it != io_name.end()) return it->second;
      const std::string nm = "io" + std::to_string(io_name.size());
      p.inputs.push_back(nm);
      p.outputs.push_back(nm);
      return io_name[reg] = nm;
    };
    int n_in = 0, n_out = 0, n_tmp = 0;
    for (size_t n : order) {
      PatternStep step{ops_[n].mnemonic, {}};
      std::vector<Operand> operands = ops_[n].operands;
      if (std::count(swapped.begin(), swapped.end(), n))
        std::swap(operands[size_t(ops_[n].commutes_a)], operands[size_t(ops_[n].commutes_b)]);
      for (const Operand& o : operands) {
        Operand po = o;
        po.text = o.access == Access::Literal ? o.text : "";
        po.address = updated_.count(o.address) ? io(o.address) : "";
        if (o.access != Access::Literal && updated_.count(o.storage)) {
          po.storage = io(o.storage);
        } else if (o.reads()) {
          // A value from outside is named by its producer: two reads of one storage with an
          // outside write between them (x read, x rewritten outside, x read) are two inputs.
          const size_t prod = graph_.producer(n, o.storage);
          auto key = std::make_pair(prod, o.storage);
          auto it = value_name.find(key);
          if (it == value_name.end()) {
            it = value_name.emplace(key, "in" + std::to_string(n_in++)).first;
            p.inputs.push_back(it->second);
          }
          po.storage = it->second;
          if (o.writes()) accumulate(p, value_name, n, o.storage, it->second);
        } else if (o.writes()) {
          const bool out = chain_leaves(n, o.storage);
          std::string nm = out ? "out" + std::to_string(n_out++) : "t" + std::to_string(n_tmp++);
          (out ? p.outputs : p.temps).push_back(nm);
          value_name[{n, o.storage}] = nm;
          po.storage = nm;
        }
        step.operands.push_back(po);
      }
      p.steps.push_back(step);
    }
    return p;
  }

 private:
  const std::vector<Op>& ops_;
  const Subgraph& g_;
  RegionGraph graph_;
  std::set<std::string> updated_;

  // A read-write operand (an accumulator) keeps the name of the value it reads; an input
  // accumulated onto becomes an output too. Later steps read the result under that name.
  static void accumulate(Pattern& p, std::map<std::pair<size_t, std::string>, std::string>& value_name, size_t n,
                         const std::string& storage, const std::string& name) {
    const bool input = std::find(p.inputs.begin(), p.inputs.end(), name) != p.inputs.end();
    if (input && std::find(p.outputs.begin(), p.outputs.end(), name) == p.outputs.end()) p.outputs.push_back(name);
    value_name[{n, storage}] = name;
  }

  // Whether the value op `n` writes to `s`, after the accumulations inside that continue
  // it, is used outside the subgraph (then the one name is an output, else a temporary).
  bool chain_leaves(size_t n, const std::string& s) const {
    for (size_t m; (m = accumulated_by(ops_, graph_, g_.ops, n, s)) != kNone;) n = m;
    return graph_.used_outside(n, s, g_.ops);
  }
};

}  // namespace

namespace {

// The ops of `g` with a commutative operand pair (Op::commutes_a/b).
std::vector<size_t> commutative_ops(const std::vector<Op>& ops, const Subgraph& g) {
  std::vector<size_t> c;
  for (size_t n : g.ops) {
    const Op& op = ops[n];
    if (op.commutes_a >= 0 && op.commutes_b >= 0 && size_t(op.commutes_a) < op.operands.size() &&
        size_t(op.commutes_b) < op.operands.size())
      c.push_back(n);
  }
  return c;
}

}  // namespace

// The smallest signature over the step orders and, for commutative ops, both operand
// orders (a * b and b * a name alike); at most 120 namings.
Pattern canonical_pattern(const std::vector<Op>& ops, size_t region_end, const Subgraph& g, std::string& signature) {
  Namer namer(ops, region_end, g);
  const std::vector<size_t> commutative = commutative_ops(ops, g);
  const size_t masks = size_t(1) << std::min<size_t>(commutative.size(), 6);
  Pattern best;
  signature.clear();
  bool first = true;
  for (const std::vector<size_t>& order : topological_orders(ops, g.ops, std::max<size_t>(1, 120 / masks)))
    for (size_t mask = 0; mask < masks; ++mask) {
      std::vector<size_t> swapped;
      for (size_t k = 0; k < commutative.size() && k < 6; ++k)
        if (mask >> k & 1) swapped.push_back(commutative[k]);
      Pattern p = namer.name(order, swapped);
      const std::string sig = pattern_signature(p);
      if (first || sig < signature) {
        signature = sig;
        best = std::move(p);
        first = false;
      }
    }
  return best;
}

}  // namespace tlmcraft::isa::dataflow
