#include "platforms/aie_ml/pack/agent/aie_use_added_ops.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/extension_ops.h"

namespace tlmcraft::agent::search::aie {

using namespace isa::aie_ml;

namespace {

struct Pos {
  size_t line = 0, op = 0;
};

// Storage units of a register operand (empty for an immediate).
std::vector<uint16_t> units_of(const Operand& o) {
  return o.kind == Operand::Kind::Reg ? storage_units(o.cls, o.num) : std::vector<uint16_t>{};
}

bool meet(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  return std::any_of(a.begin(), a.end(), [&](uint16_t u) { return std::count(b.begin(), b.end(), u) > 0; });
}

// One attempt to match the composed op `e` with its first step at `start`.
class Matcher {
 public:
  Matcher(const AieTile& tile, const std::vector<Pos>& block, const ExtensionOp& e) : tile_(tile), block_(block), e_(e) {}

  // Positions (indices into block) of the steps, or empty.
  std::vector<size_t> match(size_t start) {
    names_.clear();
    std::vector<size_t> at;
    size_t next = start;
    for (const ComposeStep& step : e_.steps) {
      size_t found = block_.size();
      for (size_t i = next; i < block_.size() && found == block_.size(); ++i)
        if (op(i).op.op == step.op.op && bind(step, op(i).op)) found = i;
      if (found == block_.size() || (at.empty() && found != start)) return {};
      at.push_back(found);
      next = found + 1;
    }
    return legal(at) ? at : std::vector<size_t>{};
  }

  const std::map<std::pair<bool, int>, Operand>& bindings() const { return names_; }

 private:
  const AieOp& op(size_t i) const { return tile_.lines[block_[i].line].ops[block_[i].op]; }

  // Binds the step's named operands to `actual`'s (consistently with earlier steps); the
  // step's literal operands must be equal.
  bool bind(const ComposeStep& step, const SlotOp& actual) {
    auto saved = names_;
    for (int j = 0; j < actual.n_operands; ++j) {
      const Operand& a = actual.operands[size_t(j)];
      const auto b = std::find_if(step.bindings.begin(), step.bindings.end(), [&](const StepBinding& x) { return x.step_operand == j; });
      if (b == step.bindings.end()) {
        const Operand& lit = step.op.operands[size_t(j)];
        if (lit.kind != a.kind || lit.imm != a.imm) return names_ = saved, false;
        continue;
      }
      const auto key = std::make_pair(b->temp, b->index);
      const auto it = names_.find(key);
      const bool want_reg = b->temp || e_.operands[size_t(b->index)].cls != RegClass::None;
      if (want_reg != (a.kind == Operand::Kind::Reg)) return names_ = saved, false;
      if (it == names_.end()) {
        names_[key] = a;
      } else if (it->second.kind != a.kind || it->second.cls != a.cls || it->second.num != a.num || it->second.imm != a.imm) {
        return names_ = saved, false;
      }
    }
    return true;
  }

  std::vector<uint16_t> units(bool temps, bool inputs, bool outputs) const {
    std::vector<uint16_t> u;
    for (const auto& [key, o] : names_) {
      const bool is_temp = key.first;
      const bool is_out = !is_temp && e_.operands[size_t(key.second)].written();
      if ((is_temp && temps) || (!is_temp && !is_out && inputs) || (is_out && outputs))
        for (uint16_t x : units_of(o)) u.push_back(x);
    }
    return u;
  }

  bool legal(const std::vector<size_t>& at) const {
    const std::vector<uint16_t> in = units(false, true, false), tmp = units(true, false, false), out = units(false, false, true);
    for (size_t k = 0; k < at.size(); ++k)
      if (meet(op(at[k]).op.writes, in)) return false;  // a step overwrites an input
    for (size_t i = at.front() + 1; i < at.back(); ++i) {
      if (std::count(at.begin(), at.end(), i)) continue;
      const SlotOp& o = op(i).op;
      if (meet(o.writes, in) || meet(o.reads, tmp) || meet(o.writes, tmp) || meet(o.reads, out) || meet(o.writes, out))
        return false;
    }
    // Temps dead after the last step: covered by an output, or written before being read.
    std::vector<uint16_t> live;
    for (uint16_t u : tmp)
      if (!std::count(out.begin(), out.end(), u)) live.push_back(u);
    for (size_t i = at.back() + 1; i < block_.size() && !live.empty(); ++i) {
      const SlotOp& o = op(i).op;
      if (meet(o.reads, live)) return false;
      live.erase(std::remove_if(live.begin(), live.end(), [&](uint16_t u) { return std::count(o.writes.begin(), o.writes.end(), u) > 0; }),
                 live.end());
    }
    return live.empty();
  }

  const AieTile& tile_;
  const std::vector<Pos>& block_;
  const ExtensionOp& e_;
  std::map<std::pair<bool, int>, Operand> names_;  // (temp, index) -> register or immediate
};

std::string operand_text(const Operand& o) {
  if (o.kind == Operand::Kind::Reg) return std::string(reg_class_prefix(o.cls)) + std::to_string(o.num);
  return std::to_string(o.imm);
}

// The basic blocks of a tile: runs of ops between labels and after control ops.
std::vector<std::vector<Pos>> blocks_of(const AieTile& tile) {
  std::vector<std::vector<Pos>> blocks(1);
  for (size_t l = 0; l < tile.lines.size(); ++l) {
    const AieLine& line = tile.lines[l];
    if (line.kind == AieLine::Kind::Label) blocks.emplace_back();
    if (line.kind != AieLine::Kind::Bundle) continue;
    bool ends = false;
    for (size_t k = 0; k < line.ops.size(); ++k) {
      const OpEffects fx = effects_of(line.ops[k]);
      if (!fx.nop) blocks.back().push_back({l, k});
      ends = ends || fx.control || fx.halt || fx.lock;
    }
    if (ends) blocks.emplace_back();
  }
  return blocks;
}

// Applies one match: the op replaces the last step, the other steps leave.
bool apply(AieTile& tile, const std::vector<Pos>& block, const std::vector<size_t>& at, const ExtensionOp& e,
           const std::map<std::pair<bool, int>, Operand>& names) {
  std::string text = e.mnemonic;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    const auto it = names.find({false, int(i)});
    if (it == names.end()) return false;  // an operand no step names (cannot be matched)
    text += (i ? ", " : " ") + operand_text(it->second);
  }
  AieOp fused;
  if (!assemble_op(text, fused)) return false;
  AieLine& last = tile.lines[block[at.back()].line];
  for (size_t k = 0; k < last.ops.size(); ++k)
    if (k != block[at.back()].op && last.ops[k].op.slot == fused.op.slot) return false;  // slot taken
  last.ops[block[at.back()].op] = fused;
  std::stable_sort(last.ops.begin(), last.ops.end(), [](const AieOp& a, const AieOp& b) { return a.op.slot < b.op.slot; });
  // Remove the other steps, last first so positions stay valid.
  for (size_t k = at.size() - 1; k-- > 0;) {
    const Pos p = block[at[k]];
    AieLine& line = tile.lines[p.line];
    line.ops.erase(line.ops.begin() + long(p.op));
    if (!line.ops.empty()) continue;
    if (p.line > 0 && tile.lines[p.line - 1].kind == AieLine::Kind::Label) {
      AieOp nop;
      assemble_op("NOP", nop);
      line.ops.push_back(nop);  // a label names this bundle: keep it
    } else {
      tile.lines.erase(tile.lines.begin() + long(p.line));
    }
  }
  return true;
}

}  // namespace

int use_composed_ops(AieKernel& kernel) {
  const AieIsa& isa = AieIsa::get();
  int inserted = 0;
  for (const auto& ext : isa.extensions) {
    if (!ext->composed()) continue;
    for (AieTile& tile : kernel.tiles)
      for (bool changed = true; changed;) {  // positions move after each replacement
        changed = false;
        for (const auto& block : blocks_of(tile)) {
          Matcher m(tile, block, *ext);
          for (size_t s = 0; s < block.size() && !changed; ++s) {
            const std::vector<size_t> at = m.match(s);
            if (!at.empty() && apply(tile, block, at, *ext, m.bindings())) changed = true, ++inserted;
          }
          if (changed) break;
        }
      }
  }
  return inserted;
}

}  // namespace tlmcraft::agent::search::aie
