#include "platforms/plena/pack/agent/plena_transforms.h"

#include <algorithm>
#include <functional>
#include <map>

namespace tlmcraft::agent::search::plena {

// ---- loop lookup ----------------------------------------------------------------

namespace {

// An operand that reads its register: role read, or the address of the value the
// instruction reads or writes (an added instruction's `value: vrow` operand: the row is
// written, the gp register holding its address only read).
bool reads_register(const isa::OperandSpec& o) { return o.role == isa::Role::Read || plena_spec().addresses_value(o); }

struct LoopRef {
  Block* parent = nullptr;
  size_t index = 0;
};

bool find_loop_ref(Block& block, int& next_id, int id, LoopRef& out) {
  for (size_t i = 0; i < block.size(); ++i) {
    if (!block[i].is_loop) continue;
    if (next_id++ == id) {
      out = {&block, i};
      return true;
    }
    if (find_loop_ref(block[i].body, next_id, id, out)) return true;
  }
  return false;
}

bool find_loop_ref(Block& block, int id, LoopRef& out) {
  int next = 0;
  return find_loop_ref(block, next, id, out);
}

}  // namespace

int count_loops(const Block& block) {
  int n = 0;
  for (const Node& node : block)
    if (node.is_loop) n += 1 + count_loops(node.body);
  return n;
}

const Node* find_loop(const Block& block, int id) {
  LoopRef ref;
  if (!find_loop_ref(const_cast<Block&>(block), id, ref)) return nullptr;
  return &(*ref.parent)[ref.index];
}

// ---- liveness ---------------------------------------------------------------------

namespace {

// Backward liveness over the tree. With `remove`, dead pure set-up and empty loops
// whose counter is dead are deleted (only after a loop's fixpoint is known).
class Liveness {
 public:
  const Node* target = nullptr;  // record the live-out set of this loop
  std::set<int> target_out;
  int removed = 0;

  std::set<int> before(Block& block, std::set<int> live, bool remove) {
    for (size_t k = block.size(); k-- > 0;) {
      Node& n = block[k];
      if (!n.is_loop) {
        const RegEffects e = reg_effects(n.op);
        if (remove && is_pure_setup(n.op) &&
            std::none_of(e.writes.begin(), e.writes.end(), [&](int w) { return live.count(w) > 0; })) {
          block.erase(block.begin() + static_cast<std::ptrdiff_t>(k));
          ++removed;
          continue;
        }
        for (int w : e.writes) live.erase(w);
        live.insert(e.reads.begin(), e.reads.end());
        continue;
      }
      const int counter = reg_key_gp(n.counter);
      if (&n == target) target_out.insert(live.begin(), live.end());
      // Live at the end of the body: after the loop, at the body's start (back edge),
      // and the counter (C_LOOP_END reads it).
      std::set<int> body_in;
      std::set<int> end_live;
      for (;;) {
        end_live = live;
        end_live.insert(body_in.begin(), body_in.end());
        end_live.insert(counter);
        std::set<int> next = before(n.body, end_live, false);  // no removal while iterating
        if (next == body_in) break;
        body_in = std::move(next);
      }
      if (remove) {
        before(n.body, end_live, true);
        if (n.body.empty() && live.count(counter) == 0) {
          block.erase(block.begin() + static_cast<std::ptrdiff_t>(k));
          removed += 2;
          continue;
        }
      }
      // The body runs at least once, so what is live before the loop is what the body
      // needs at its start; C_LOOP_START writes the counter.
      live = body_in;
      live.erase(counter);
    }
    return live;
  }
};

}  // namespace

std::set<int> live_after_loop(const Kernel& kernel, int id) {
  Kernel copy = kernel;
  Liveness lv;
  lv.target = find_loop(copy.code, id);
  lv.before(copy.code, kernel.around.live_out, false);
  return lv.target_out;
}

std::vector<std::set<int>> live_before_each(const Kernel& kernel) {
  std::vector<std::set<int>> live(kernel.code.size() + 1);
  live.back() = kernel.around.live_out;
  for (size_t k = kernel.code.size(); k-- > 0;) {
    Block one{kernel.code[k]};
    live[k] = Liveness().before(one, live[k + 1], false);
  }
  return live;
}

// ---- unrolling --------------------------------------------------------------------

bool unroll(Kernel& kernel, int id, int64_t factor, std::string& why, size_t max_instructions) {
  LoopRef ref;
  if (!find_loop_ref(kernel.code, id, ref)) {
    why = "no loop " + std::to_string(id);
    return false;
  }
  const Node loop = (*ref.parent)[ref.index];
  const int counter = reg_key_gp(loop.counter);
  if (factor < 2 || factor > loop.count || loop.count % factor != 0) {
    why = "factor " + std::to_string(factor) + " does not divide the count " + std::to_string(loop.count);
    return false;
  }
  if (read_in(loop.body).count(counter) || written_in(loop.body).count(counter)) {
    why = "the body uses the loop counter gp" + std::to_string(loop.counter);
    return false;
  }
  const bool full = factor == loop.count;
  if (full && live_after_loop(kernel, id).count(counter)) {
    why = "the counter gp" + std::to_string(loop.counter) + " is read after the loop";
    return false;
  }
  const size_t body = static_size(loop.body);
  const size_t after = static_size(kernel.code) + body * static_cast<size_t>(factor - 1) - (full ? 2 : 0);
  if (after > max_instructions) {
    why = "the unrolled kernel would have " + std::to_string(after) + " instructions (limit " +
          std::to_string(max_instructions) + ")";
    return false;
  }
  Block copies;
  for (int64_t k = 0; k < factor; ++k) copies.insert(copies.end(), loop.body.begin(), loop.body.end());
  Block& parent = *ref.parent;
  if (full) {
    parent.erase(parent.begin() + static_cast<std::ptrdiff_t>(ref.index));
    parent.insert(parent.begin() + static_cast<std::ptrdiff_t>(ref.index), copies.begin(), copies.end());
  } else {
    parent[ref.index].body = std::move(copies);
    parent[ref.index].count = loop.count / factor;
  }
  return true;
}

// ---- simplification ------------------------------------------------------------------

namespace {

// Forward value numbering; removes set-up that rewrites a register's current value and
// counts reads rewritten to gp0 in `substituted`.
int remove_redundant(Block& block, Values& values, int& substituted) {
  int removed = 0;
  for (size_t k = 0; k < block.size();) {
    Node& n = block[k];
    if (n.is_loop) {
      values.enter_loop(n);
      removed += remove_redundant(n.body, values, substituted);
      values.leave_loop(n);
      ++k;
      continue;
    }
    // A gp register read that is known to hold 0 reads gp0 instead, so the set-up that
    // put the 0 there can become dead.
    for (size_t i = 0; i < n.op.operands.size(); ++i) {
      const isa::OperandSpec& o = n.op.spec->operands[i];
      const isa::OperandKind& kind = plena_spec().kinds()[o.kind];
      if (!reads_register(o) || kind.type != isa::KindType::Register ||
          plena_spec().register_classes()[kind.register_class].name != "gp" || n.op.operands[i] == 0)
        continue;
      if (values.get(reg_key_gp(static_cast<int>(n.op.operands[i]))) == Val{0, 0}) {
        n.op.operands[i] = 0;
        ++substituted;
      }
    }
    int dest = -1;
    Val v;
    if (values.computed_value(n.op, dest, v) && (dest == 0 || values.get(dest) == v)) {
      block.erase(block.begin() + static_cast<std::ptrdiff_t>(k));
      ++removed;
      continue;
    }
    values.apply(n.op);
    ++k;
  }
  return removed;
}

// Loops that run once and whose counter nobody reads become their body.
int inline_single_iteration_loops(Kernel& kernel) {
  int changed = 0;
  for (int id = 0; id < count_loops(kernel.code);) {
    LoopRef ref;
    find_loop_ref(kernel.code, id, ref);
    const Node& loop = (*ref.parent)[ref.index];
    const int counter = reg_key_gp(loop.counter);
    if (loop.count == 1 && !read_in(loop.body).count(counter) && !written_in(loop.body).count(counter) &&
        !live_after_loop(kernel, id).count(counter)) {
      Block body = loop.body;
      Block& parent = *ref.parent;
      parent.erase(parent.begin() + static_cast<std::ptrdiff_t>(ref.index));
      parent.insert(parent.begin() + static_cast<std::ptrdiff_t>(ref.index), body.begin(), body.end());
      changed += 2;
      continue;  // the same id now names the next loop
    }
    ++id;
  }
  return changed;
}

}  // namespace

int simplify(Kernel& kernel) {
  int total = 0;
  for (;;) {
    Values values;
    int substituted = 0;
    int removed = remove_redundant(kernel.code, values, substituted);
    Liveness lv;
    lv.before(kernel.code, kernel.around.live_out, true);
    removed += lv.removed;
    removed += inline_single_iteration_loops(kernel);
    total += removed;
    if (removed == 0 && substituted == 0) return total;
  }
}

// ---- hoisting -------------------------------------------------------------------------

namespace {

int count_writes(const Block& block, int key) {
  int n = 0;
  for (const Node& node : block) {
    if (node.is_loop) {
      n += reg_key_gp(node.counter) == key ? 1 : 0;
      n += count_writes(node.body, key);
    } else {
      for (int w : reg_effects(node.op).writes) n += w == key ? 1 : 0;
    }
  }
  return n;
}

bool reads_key(const Node& node, int key) {
  if (node.is_loop) return reg_key_gp(node.counter) == key || read_in(node.body).count(key) > 0;
  const RegEffects e = reg_effects(node.op);
  return std::find(e.reads.begin(), e.reads.end(), key) != e.reads.end();
}

bool writes_key(const Node& node, int key) {
  if (node.is_loop) return reg_key_gp(node.counter) == key || written_in(node.body).count(key) > 0;
  const RegEffects e = reg_effects(node.op);
  return std::find(e.writes.begin(), e.writes.end(), key) != e.writes.end();
}

// Renames gp reads of `from` to `to` in an instruction (its written operands stay).
void rename_reads(Op& op, int from, int to) {
  const isa::IsaSpec& spec = plena_spec();
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const isa::OperandSpec& o = op.spec->operands[i];
    const isa::OperandKind& kind = spec.kinds()[o.kind];
    if (kind.type != isa::KindType::Register || spec.register_classes()[kind.register_class].name != "gp") continue;
    if (op.operands[i] == from && reads_register(o)) op.operands[i] = to;
  }
}

void rename_reads(Node& node, int from, int to) {
  if (!node.is_loop) {
    rename_reads(node.op, from, to);
    return;
  }
  for (Node& n : node.body) rename_reads(n, from, to);
}

// The written gp operand of a pure set-up instruction (-1 when it writes no gp).
int written_gp_operand(const Op& op) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const isa::OperandSpec& o = op.spec->operands[i];
    const isa::OperandKind& kind = plena_spec().kinds()[o.kind];
    if (o.role == isa::Role::Write && !plena_spec().addresses_value(o) && kind.type == isa::KindType::Register &&
        plena_spec().register_classes()[kind.register_class].name == "gp")
      return static_cast<int>(i);
  }
  return -1;
}

// Tries to give the definition at body[i] its own register when the body redefines
// the register later; true if renamed (or no renaming was needed).
bool isolate_definition(Block& body, size_t i, const std::set<int>& used_gp, int& fresh_reg) {
  const int operand = written_gp_operand(body[i].op);
  if (operand < 0) return false;
  const int reg = static_cast<int>(body[i].op.operands[operand]);
  const int key = reg_key_gp(reg);
  if (count_writes(body, key) == 1) return true;
  // The next top-level redefinition; nested loops in between must not write it.
  size_t j = i + 1;
  for (; j < body.size(); ++j) {
    if (body[j].is_loop) {
      if (writes_key(body[j], key)) return false;
      continue;
    }
    if (writes_key(body[j], key)) break;
  }
  if (j == body.size()) return false;
  // The value must not reach the next iteration (the redefinition kills it) and the
  // redefinition itself must be a plain write (not a loop counter).
  fresh_reg = -1;
  for (int r = 1; r < 16; ++r)
    if (!used_gp.count(r)) {
      fresh_reg = r;
      break;
    }
  if (fresh_reg < 0) return false;
  body[i].op.operands[operand] = fresh_reg;
  for (size_t k = i + 1; k <= j; ++k) rename_reads(body[k], reg, fresh_reg);
  return true;
}

}  // namespace

int hoist_invariants(Kernel& kernel, int id) {
  int hoisted = 0;
  for (bool again = true; again;) {
    again = false;
    LoopRef ref;
    if (!find_loop_ref(kernel.code, id, ref)) return hoisted;
    Node& loop = (*ref.parent)[ref.index];
    std::set<int> variant = written_in(loop.body);
    variant.insert(reg_key_gp(loop.counter));
    for (size_t i = 0; i < loop.body.size(); ++i) {
      Node& n = loop.body[i];
      if (n.is_loop || !is_pure_setup(n.op)) continue;
      const RegEffects e = reg_effects(n.op);
      if (e.writes.size() != 1) continue;
      if (std::any_of(e.reads.begin(), e.reads.end(), [&](int r) { return variant.count(r) > 0; })) continue;
      const int key = e.writes.front();
      // Nothing earlier in the body may read the register (it would see the old value
      // in the first iteration).
      bool read_before = false;
      for (size_t k = 0; k < i && !read_before; ++k) read_before = reads_key(loop.body[k], key);
      if (read_before) continue;
      if (count_writes(loop.body, key) != 1) {
        if (!is_gp_key(key)) continue;
        int fresh = -1;
        if (!isolate_definition(loop.body, i, gp_registers_named(kernel), fresh)) continue;
      }
      Node moved = loop.body[i];
      loop.body.erase(loop.body.begin() + static_cast<std::ptrdiff_t>(i));
      Block& parent = *ref.parent;
      parent.insert(parent.begin() + static_cast<std::ptrdiff_t>(ref.index), moved);
      ++hoisted;
      again = true;
      break;  // the loop moved one slot down; look it up again
    }
  }
  return hoisted;
}

// ---- scheduling -----------------------------------------------------------------------

namespace {

struct OpInfo {
  RegEffects regs;
  std::vector<MemAccess> mem;
};

bool depends(const OpInfo& a, const OpInfo& b) {
  auto meets = [](const std::vector<int>& x, const std::vector<int>& y) {
    for (int k : x)
      if (std::find(y.begin(), y.end(), k) != y.end()) return true;
    return false;
  };
  if (meets(a.regs.writes, b.regs.reads) || meets(a.regs.reads, b.regs.writes) || meets(a.regs.writes, b.regs.writes))
    return true;
  for (const auto& x : a.mem)
    for (const auto& y : b.mem)
      if (may_conflict(x, y)) return true;
  return false;
}

bool is_prefetch(const Op& op) { return op.mnemonic() == "H_PREFETCH_M" || op.mnemonic() == "H_PREFETCH_V"; }

bool schedule_segment(Block& block, size_t begin, size_t end, const std::vector<OpInfo>& info) {
  const size_t n = end - begin;
  if (n < 2) return false;
  std::vector<std::vector<size_t>> preds(n);
  for (size_t j = 0; j < n; ++j)
    for (size_t i = 0; i < j; ++i)
      if (depends(info[i], info[j])) preds[j].push_back(i);
  // Priority: prefetches and everything they transitively need.
  std::vector<bool> urgent(n, false);
  for (size_t j = n; j-- > 0;) {
    if (is_prefetch(block[begin + j].op)) urgent[j] = true;
    if (urgent[j])
      for (size_t i : preds[j]) urgent[i] = true;
  }
  std::vector<bool> done(n, false);
  std::vector<size_t> order;
  while (order.size() < n) {
    size_t pick = n;
    for (size_t j = 0; j < n; ++j) {
      if (done[j]) continue;
      if (!std::all_of(preds[j].begin(), preds[j].end(), [&](size_t i) { return done[i]; })) continue;
      if (pick == n || (urgent[j] && !urgent[pick])) pick = j;
      if (urgent[pick]) break;
    }
    done[pick] = true;
    order.push_back(pick);
  }
  bool moved = false;
  Block segment;
  for (size_t k = 0; k < n; ++k) {
    moved |= order[k] != k;
    segment.push_back(block[begin + order[k]]);
  }
  std::copy(segment.begin(), segment.end(), block.begin() + static_cast<std::ptrdiff_t>(begin));
  return moved;
}

bool schedule_block(Block& block, Values& values, const Arch& arch) {
  bool moved = false;
  size_t start = 0;
  std::vector<OpInfo> info;
  for (size_t k = 0; k <= block.size(); ++k) {
    if (k == block.size() || block[k].is_loop) {
      moved |= schedule_segment(block, start, k, info);
      info.clear();
      start = k + 1;
      if (k == block.size()) break;
      values.enter_loop(block[k]);
      moved |= schedule_block(block[k].body, values, arch);
      values.leave_loop(block[k]);
      continue;
    }
    info.push_back({reg_effects(block[k].op), memory_effects(block[k].op, values, arch)});
    values.apply(block[k].op);
  }
  return moved;
}

}  // namespace

bool schedule_prefetch_first(Kernel& kernel, const Arch& arch) {
  Values values;
  return schedule_block(kernel.code, values, arch);
}

}  // namespace tlmcraft::agent::search::plena
