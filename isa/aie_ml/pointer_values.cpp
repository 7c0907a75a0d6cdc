#include "isa/aie_ml/pointer_values.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::isa::aie_ml {

namespace {

constexpr size_t kMaxValues = 16;  // a larger set becomes "unknown"

// Register unit -> the values it may hold; a unit that is absent is unknown.
using State = std::map<int, std::set<int64_t>>;

int64_t wrap(int unit, int64_t v) {
  for (int p = 0; p < kPointerRegs; ++p)
    if (register_units(RegClass::P, p)[0] == unit) return v & 0xFFFFF;  // 20-bit pointers
  return v & 0xFFFFFFFF;
}

std::optional<std::set<int64_t>> value_of(const State& s, const Operand& o) {
  if (o.kind == Operand::Kind::Imm) return std::set<int64_t>{o.imm};
  if (o.kind != Operand::Kind::Reg) return std::nullopt;
  const std::vector<int> u = register_units(o.cls, o.num);
  if (u.size() != 1) return std::nullopt;
  const auto it = s.find(u[0]);
  if (it == s.end()) return std::nullopt;
  return it->second;
}

// The values of one bundle's destination, computed from the state before the bundle.
void transfer(const AieLine& bundle, State& state) {
  const State before = state;
  std::map<int, std::optional<std::set<int64_t>>> results;
  for (const auto& o : bundle.ops) {
    const SlotOp& op = o.op;
    const OpEffects fx = effects_of(o);
    for (int u : fx.writes) results[u] = std::nullopt;
    const auto code = Code(op.code);
    // Pointer post-modify by an immediate: p + imm.
    for (int i = 0; i < op.n_operands; ++i) {
      const Operand& a = op.operands[static_cast<size_t>(i)];
      if (a.kind != Operand::Kind::Mem || a.mem.mode != MemOperand::Mode::PostImm) continue;
      const int u = register_units(RegClass::P, a.mem.pointer)[0];
      const auto it = before.find(u);
      if (it == before.end()) continue;
      std::set<int64_t> v;
      for (int64_t x : it->second) v.insert(wrap(u, x + a.mem.imm));
      results[u] = v;
    }
    if (op.n_operands < 2 || op.operands[0].kind != Operand::Kind::Reg) continue;
    const std::vector<int> du = register_units(op.operands[0].cls, op.operands[0].num);
    if (du.size() != 1) continue;
    const int d = du[0];
    std::optional<std::set<int64_t>> v;
    if (code == Code::MOV || code == Code::MOVX || code == Code::MOVXM) {
      if (op.operands[1].kind != Operand::Kind::Label) v = value_of(before, op.operands[1]);
    } else if (op.n_operands == 3 && (code == Code::ADD || code == Code::SUB || code == Code::XOR ||
                                      code == Code::AND || code == Code::OR || code == Code::MUL)) {
      const auto a = value_of(before, op.operands[1]), b = value_of(before, op.operands[2]);
      if (a && b && a->size() * b->size() <= kMaxValues) {
        std::set<int64_t> r;
        for (int64_t x : *a)
          for (int64_t y : *b) {
            int64_t z = 0;
            switch (code) {
              case Code::ADD: z = static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)); break;
              case Code::SUB: z = static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)); break;
              case Code::XOR: z = x ^ y; break;
              case Code::AND: z = x & y; break;
              case Code::OR: z = x | y; break;
              default: z = static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y) & 0xFFFFFFFFu); break;
            }
            r.insert(wrap(d, z));
          }
        v = r;
      }
    }
    if (v && v->size() <= kMaxValues) {
      std::set<int64_t> w;
      for (int64_t x : *v) w.insert(wrap(d, x));  // register width (20-bit pointers)
      results[d] = w;
    }
  }
  for (const auto& [u, v] : results) {
    if (v) state[u] = *v;
    else state.erase(u);
  }
}

// Merges `in` into `into`; true when `into` changed.
bool join(std::optional<State>& into, const State& in) {
  if (!into) {
    into = in;
    return true;
  }
  bool changed = false;
  for (auto it = into->begin(); it != into->end();) {
    const auto o = in.find(it->first);
    if (o == in.end()) {
      it = into->erase(it);
      changed = true;
      continue;
    }
    const size_t before = it->second.size();
    it->second.insert(o->second.begin(), o->second.end());
    if (it->second.size() > kMaxValues) {
      it = into->erase(it);
      changed = true;
      continue;
    }
    changed = changed || it->second.size() != before;
    ++it;
  }
  return changed;
}

// Per-iteration constant increment of each pointer a loop body only post-modifies by
// immediates (pointer unit -> bytes); pointers written otherwise are absent.
std::map<int, int64_t> body_increments(const std::vector<const AieLine*>& body, std::set<int>& written) {
  std::map<int, int64_t> inc;
  std::set<int> other;
  for (const AieLine* b : body)
    for (const auto& o : b->ops) {
      const OpEffects fx = effects_of(o);
      int post = -1;
      for (int i = 0; i < o.op.n_operands; ++i) {
        const Operand& a = o.op.operands[static_cast<size_t>(i)];
        if (a.kind == Operand::Kind::Mem && a.mem.mode == MemOperand::Mode::PostImm) {
          post = register_units(RegClass::P, a.mem.pointer)[0];
          inc[post] += a.mem.imm;
        }
      }
      for (int u : fx.writes) {
        written.insert(u);
        if (u != post) other.insert(u);
      }
    }
  for (int u : other) inc.erase(u);
  return inc;
}

}  // namespace

std::vector<PointerRanges> block_pointer_ranges(const AieTile& tile, const TileStructure& s) {
  std::vector<PointerRanges> out(s.blocks.size());
  // Bundles in order, the label -> bundle map, and each loop's end bundle.
  std::vector<size_t> bundle_lines;
  std::map<size_t, size_t> index_of_line;
  for (size_t i = 0; i < tile.lines.size(); ++i)
    if (tile.lines[i].kind == AieLine::Kind::Bundle) {
      index_of_line[i] = bundle_lines.size();
      bundle_lines.push_back(i);
    }
  const size_t n = bundle_lines.size();
  if (n == 0) return out;
  std::map<std::string, size_t> target;  // label -> bundle index
  for (size_t i = 0; i < tile.lines.size(); ++i)
    if (tile.lines[i].kind == AieLine::Kind::Label) {
      const auto it = index_of_line.lower_bound(i);
      if (it != index_of_line.end()) target[tile.lines[i].label] = it->second;
    }
  struct LoopExit {
    std::map<int, int64_t> advance;  // pointer unit -> bytes added by the remaining iterations
    std::set<int> unknown;           // units written in the body with no such rule
  };
  std::map<size_t, LoopExit> exits;  // le bundle index -> adjustment
  std::map<size_t, const ZeroOverheadLoop*> loop_of_block;
  for (const auto& loop : s.loops) {
    std::vector<const AieLine*> body;
    for (size_t i = loop.start_line; i <= loop.end_bundle && i < tile.lines.size(); ++i)
      if (tile.lines[i].kind == AieLine::Kind::Bundle) body.push_back(&tile.lines[i]);
    std::set<int> written;
    const auto inc = body_increments(body, written);
    LoopExit e;
    for (int u : written) {
      const auto it = inc.find(u);
      if (it != inc.end() && loop.count > 0) e.advance[u] = it->second * (loop.count - 1);
      else e.unknown.insert(u);
    }
    if (index_of_line.count(loop.end_bundle)) exits[index_of_line[loop.end_bundle]] = e;
  }

  // Forward data flow over bundles (the loop-back edge replaced by the exit adjustment).
  std::vector<std::optional<State>> in(n);
  in[0] = State{};
  std::vector<size_t> work{0};
  while (!work.empty()) {
    const size_t b = work.back();
    work.pop_back();
    State st = *in[b];
    const AieLine& line = tile.lines[bundle_lines[b]];
    transfer(line, st);
    const auto ex = exits.find(b);
    if (ex != exits.end()) {
      for (int u : ex->second.unknown) st.erase(u);
      for (const auto& [u, bytes] : ex->second.advance) {
        const auto it = st.find(u);
        if (it == st.end()) continue;
        std::set<int64_t> v;
        for (int64_t x : it->second) v.insert(wrap(u, x + bytes));
        it->second = v;
      }
    }
    bool falls_through = true;
    std::vector<size_t> succ;
    for (const auto& o : line.ops) {
      const auto code = Code(o.op.code);
      if (code == Code::J || code == Code::RET || code == Code::DONE) falls_through = false;
      if (code == Code::RET || code == Code::JL) return out;  // calls: not analysed
      const std::string l = label_operand(o);
      if (!l.empty() && effects_of(o).control) {
        const auto t = target.find(l);
        if (t != target.end()) succ.push_back(t->second);
      }
    }
    if (falls_through && b + 1 < n) succ.push_back(b + 1);
    for (size_t t : succ)
      if (join(in[t], st)) work.push_back(t);
  }

  for (size_t k = 0; k < s.blocks.size(); ++k) {
    const Block& blk = s.blocks[k];
    size_t first = n;
    for (size_t i : blk.lines)
      if (index_of_line.count(i)) {
        first = index_of_line[i];
        break;
      }
    if (first == n || !in[first]) continue;
    // A loop body block: pointers it advances cover every iteration.
    const ZeroOverheadLoop* loop = nullptr;
    for (const auto& l : s.loops)
      if (blk.lines.front() >= l.start_line && blk.lines.back() <= l.end_bundle) loop = &l;
    std::map<int, int64_t> inc;
    std::set<int> written;
    bool loop_ok = false;
    if (loop && loop->count > 0) {
      std::vector<const AieLine*> body;
      bool single = true;
      for (size_t i = loop->start_line; i <= loop->end_bundle; ++i)
        if (tile.lines[i].kind == AieLine::Kind::Bundle) {
          body.push_back(&tile.lines[i]);
          single = single && std::find(blk.lines.begin(), blk.lines.end(), i) != blk.lines.end();
        }
      inc = body_increments(body, written);
      loop_ok = single;
    }
    for (int p = 0; p < kPointerRegs; ++p) {
      const int u = register_units(RegClass::P, p)[0];
      const auto it = in[first]->find(u);
      if (it == in[first]->end() || it->second.empty()) continue;
      int64_t lo = *it->second.begin(), hi = *it->second.rbegin();
      if (loop) {
        // Only pointers the body leaves alone or advances by immediates.
        if (!loop_ok || (written.count(u) && !inc.count(u))) continue;
        const auto c = inc.find(u);
        if (c != inc.end()) {
          const int64_t span = c->second * (loop->count - 1);
          lo += std::min<int64_t>(0, span);
          hi += std::max<int64_t>(0, span);
        }
      }
      out[k][p] = {lo, hi};
    }
  }
  return out;
}

}  // namespace tlmcraft::isa::aie_ml
