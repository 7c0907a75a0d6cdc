#include "platforms/aie_ml/pack/agent/aie_regalloc.h"

#include <algorithm>
#include <map>
#include <set>

#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::agent::search::aie {

namespace ia = isa::aie_ml;
// The program model and its analyses (isa/aie_ml) are this file's vocabulary.
using namespace isa::aie_ml;

namespace {

bool renamable_class(RegClass c) {
  return c == RegClass::W || c == RegClass::X || c == RegClass::AM || c == RegClass::BM || c == RegClass::R;
}

struct RegOperand {
  int index = 0;
  RegClass cls = RegClass::None;
  int num = 0;
  std::vector<int> units;
  bool read = false, write = false;
};

std::vector<RegOperand> reg_operands(const AieOp& o) {
  const ia::OpExtra& ex = ia::aie_isa_details().extra.at(o.op.op);
  std::vector<RegOperand> out;
  for (int i = 0; i < o.op.n_operands; ++i) {
    const ia::Operand& a = o.op.operands[static_cast<size_t>(i)];
    if (a.kind != ia::Operand::Kind::Reg) continue;
    RegOperand r;
    r.index = i;
    r.cls = a.cls;
    r.num = a.num;
    r.units = register_units(a.cls, a.num);
    r.write = i < ex.dst;
    r.read = !r.write || std::find(ex.rw.begin(), ex.rw.end(), i) != ex.rw.end();
    out.push_back(r);
  }
  return out;
}

struct Web {
  size_t def = 0;
  int operand = 0;
  RegClass cls = RegClass::None;
  int num = 0;
  std::vector<int> units;
  std::vector<std::pair<size_t, int>> uses;  // (position, operand index)
  size_t last = 0;
  bool ok = true;
  int assigned = -1;
};

int class_count(RegClass c) { return ia::reg_class_count(c); }

// The op text with some register operands renamed (operand index -> new number).
bool rename_operands(const AieOp& o, const std::map<int, int>& renames, AieOp& out) {
  const size_t sp = o.text.find_first_of(" \t");
  if (sp == std::string::npos) return false;
  // Split the operand list at commas outside brackets.
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (size_t i = sp; i < o.text.size(); ++i) {
    const char c = o.text[i];
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  parts.push_back(cur);
  for (auto& p : parts) {
    size_t b = p.find_first_not_of(" \t"), e = p.find_last_not_of(" \t");
    p = b == std::string::npos ? "" : p.substr(b, e - b + 1);
  }
  size_t part = 0;
  for (int i = 0; i < o.op.n_operands; ++i) {
    const ia::Operand& a = o.op.operands[static_cast<size_t>(i)];
    if (part >= parts.size()) return false;
    const auto it = renames.find(i);
    if (it != renames.end()) parts[part] = std::string(ia::reg_class_prefix(a.cls)) + std::to_string(it->second);
    size_t used = 1;
    if (a.kind == ia::Operand::Kind::Mem) {
      const auto m = a.mem.mode;
      if (m == ia::MemOperand::Mode::PostImm || m == ia::MemOperand::Mode::PostMod || m == ia::MemOperand::Mode::Post2D) used = 2;
      if (m == ia::MemOperand::Mode::Post3D) used = 3;
    }
    part += used;
  }
  std::string text = o.text.substr(0, sp) + " ";
  for (size_t k = 0; k < parts.size(); ++k) text += (k ? ", " : "") + parts[k];
  return assemble_op(text, out);
}

// Symbolic replay: each op's code and input value numbers, then the final value number
// of every unit in `observe`. Two blocks that replay the same compute the same values.
struct Replay {
  std::vector<std::pair<uint16_t, std::vector<int64_t>>> ops;
  std::vector<int64_t> final_values;
  bool operator==(const Replay& o) const { return ops == o.ops && final_values == o.final_values; }
};

Replay replay(const std::vector<const AieOp*>& ops, const std::set<int>& observe) {
  Replay r;
  std::map<int, int64_t> val;
  auto value = [&](int u) {
    const auto it = val.find(u);
    return it == val.end() ? -1 - static_cast<int64_t>(u) : it->second;
  };
  for (size_t j = 0; j < ops.size(); ++j) {
    const OpEffects fx = effects_of(*ops[j]);
    std::vector<int64_t> in;
    for (int u : fx.reads) in.push_back(value(u));
    // Immediates and memory forms are part of what the op computes.
    for (int i = 0; i < ops[j]->op.n_operands; ++i) {
      const ia::Operand& a = ops[j]->op.operands[static_cast<size_t>(i)];
      if (a.kind == ia::Operand::Kind::Imm || a.kind == ia::Operand::Kind::Label) in.push_back(a.imm);
      if (a.kind == ia::Operand::Kind::Mem) {
        in.push_back(static_cast<int64_t>(a.mem.mode));
        in.push_back(a.mem.imm);
      }
    }
    r.ops.emplace_back(ops[j]->op.code, in);
    for (size_t k = 0; k < fx.writes.size(); ++k) val[fx.writes[k]] = static_cast<int64_t>(j << 8 | k);
  }
  for (int u : observe) r.final_values.push_back(value(u));
  return r;
}

// Reallocates one block; returns the webs moved (0: unchanged).
int reallocate_block(AieTile& tile, const std::vector<size_t>& lines, const std::set<int>& live_in,
                     const std::set<int>& live_out) {
  struct Pos {
    size_t line, op;
  };
  std::vector<Pos> seq;
  for (size_t l : lines) {
    std::vector<size_t> order;
    if (!bundle_sequence(tile.lines[l], order)) return 0;
    for (size_t k : order)
      if (!effects_of(tile.lines[l].ops[k]).nop) seq.push_back({l, k});
  }
  const size_t n = seq.size();
  auto op_at = [&](size_t j) -> const AieOp& { return tile.lines[seq[j].line].ops[seq[j].op]; };

  std::vector<Web> webs;
  std::map<int, int> cur;  // unit -> web holding its current value
  std::set<int> fixed;     // units some non-web access touches
  auto spoil = [&](int u) {
    const auto it = cur.find(u);
    if (it != cur.end()) webs[static_cast<size_t>(it->second)].ok = false;
    else fixed.insert(u);
  };
  for (size_t j = 0; j < n; ++j) {
    const AieOp& o = op_at(j);
    const OpEffects fx = effects_of(o);
    const auto code = ia::Code(o.op.code);
    const bool lane_pair = code == ia::Code::VLT_S8 || code == ia::Code::VSEL_8;
    const std::vector<RegOperand> regs = reg_operands(o);
    std::set<int> read_units, write_units;
    for (const auto& r : regs) {
      if (!r.read) continue;
      read_units.insert(r.units.begin(), r.units.end());
      int w = -1;
      bool same = true;
      for (size_t k = 0; k < r.units.size(); ++k) {
        const auto it = cur.find(r.units[k]);
        const int cw = it == cur.end() ? -1 : it->second;
        if (k == 0) w = cw;
        else if (cw != w) same = false;
      }
      if (w >= 0 && same && webs[static_cast<size_t>(w)].cls == r.cls && webs[static_cast<size_t>(w)].num == r.num &&
          !lane_pair) {
        webs[static_cast<size_t>(w)].uses.emplace_back(j, r.index);
        webs[static_cast<size_t>(w)].last = j;
      } else {
        for (int u : r.units) spoil(u);
      }
    }
    for (int u : fx.reads)
      if (!read_units.count(u)) spoil(u);
    for (const auto& r : regs) {
      if (!r.write) continue;
      write_units.insert(r.units.begin(), r.units.end());
      if (renamable_class(r.cls) && !r.read && !lane_pair) {
        Web w;
        w.def = j;
        w.last = j;
        w.operand = r.index;
        w.cls = r.cls;
        w.num = r.num;
        w.units = r.units;
        webs.push_back(w);
        for (int u : r.units) cur[u] = static_cast<int>(webs.size() - 1);
      } else {
        for (int u : r.units) {
          spoil(u);
          cur.erase(u);
          fixed.insert(u);
        }
      }
    }
    for (int u : fx.writes)
      if (!write_units.count(u)) {
        spoil(u);
        cur.erase(u);
        fixed.insert(u);
      }
  }
  for (const auto& [u, w] : cur)
    if (live_out.count(u)) webs[static_cast<size_t>(w)].ok = false;

  // The pool: units free across the block boundary and touched only by webs.
  std::set<int> pool;
  for (RegClass c : {RegClass::W, RegClass::AM, RegClass::R})
    for (int k = 0; k < class_count(c); ++k)
      for (int u : register_units(c, k))
        if (!live_in.count(u) && !live_out.count(u) && !fixed.count(u)) pool.insert(u);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& w : webs) {
      if (!w.ok) continue;
      for (int u : w.units)
        if (!pool.count(u)) {
          w.ok = false;
          changed = true;
        }
    }
    for (const auto& w : webs)
      if (!w.ok)
        for (int u : w.units) changed = pool.erase(u) > 0 || changed;
  }

  // Data ancestors of every op (register read-after-write), to tell which reuses of a
  // register cost nothing: a web may take a register whose last reader is already one
  // of its definition's ancestors (the new write-after-read edge is implied).
  std::vector<std::vector<bool>> anc(n, std::vector<bool>(n, false));
  {
    std::map<int, size_t> writer;
    for (size_t j = 0; j < n; ++j) {
      const OpEffects fx = effects_of(op_at(j));
      for (int u : fx.reads) {
        const auto it = writer.find(u);
        if (it == writer.end()) continue;
        const size_t p = it->second;
        anc[j][p] = true;
        for (size_t k = 0; k < p; ++k)
          if (anc[p][k]) anc[j][k] = true;
      }
      for (int u : fx.writes) writer[u] = j;
    }
  }
  // Interval colouring in definition order. Preference: a register whose last reader is
  // an ancestor of the definition (latest first, keeping each chain in few registers),
  // then a register never used in the block, then the one free the longest.
  std::map<int, int64_t> busy;  // unit -> last position its current occupant is read
  int moved = 0;
  for (auto& w : webs) {
    if (!w.ok) continue;
    int best = -1;
    std::pair<int, int64_t> best_key{3, 0};
    for (int k = 0; k < class_count(w.cls); ++k) {
      const std::vector<int> units = register_units(w.cls, k);
      int64_t b = -1;
      bool ok = true, fresh = true, implied = true;
      for (int u : units) {
        if (!pool.count(u)) ok = false;
        const auto it = busy.find(u);
        if (it == busy.end()) continue;
        fresh = false;
        const int64_t ub = it->second;
        if (ub > static_cast<int64_t>(w.def)) ok = false;  // still read after this definition
        if (ub != static_cast<int64_t>(w.def) && !anc[w.def][static_cast<size_t>(ub)]) implied = false;
        b = std::max(b, ub);
      }
      if (!ok) continue;
      // Among unused registers the web's own name first (stable text), then the lowest.
      const std::pair<int, int64_t> key = fresh     ? std::make_pair(1, int64_t(k == w.num ? -1 : k))
                                          : implied ? std::make_pair(0, -b)
                                                    : std::make_pair(2, b);
      if (best < 0 || key < best_key) {
        best = k;
        best_key = key;
      }
    }
    if (best < 0) return 0;
    w.assigned = best;
    for (int u : register_units(w.cls, best)) busy[u] = static_cast<int64_t>(w.last);
    moved += best != w.num;
  }
  if (moved == 0) return 0;

  // Rewrite, then check by symbolic replay.
  std::map<size_t, std::map<int, int>> renames;  // position -> operand -> new number
  for (const auto& w : webs) {
    if (!w.ok || w.assigned == w.num) continue;
    renames[w.def][w.operand] = w.assigned;
    for (const auto& [pos, operand] : w.uses) renames[pos][operand] = w.assigned;
  }
  std::vector<AieOp> rewritten(n);
  std::vector<const AieOp*> before, after;
  for (size_t j = 0; j < n; ++j) {
    const auto it = renames.find(j);
    if (it == renames.end()) rewritten[j] = op_at(j);
    else if (!rename_operands(op_at(j), it->second, rewritten[j])) return 0;
    before.push_back(&op_at(j));
  }
  for (const auto& o : rewritten) after.push_back(&o);
  std::set<int> observe = live_out;
  if (!(replay(before, observe) == replay(after, observe))) return 0;
  for (size_t j = 0; j < n; ++j) tile.lines[seq[j].line].ops[seq[j].op] = rewritten[j];
  return moved;
}

}  // namespace

int reallocate_registers(AieKernel& kernel) {
  int moved = 0;
  for (auto& tile : kernel.tiles) {
    TileStructure s;
    std::string why;
    if (!analyse_structure(tile, s, why)) continue;
    std::vector<size_t> bundle_lines;
    std::map<size_t, size_t> index_of_line;
    for (size_t i = 0; i < tile.lines.size(); ++i)
      if (tile.lines[i].kind == AieLine::Kind::Bundle) {
        index_of_line[i] = bundle_lines.size();
        bundle_lines.push_back(i);
      }
    std::vector<std::set<int>> live_in, live_out;
    if (!liveness(tile, s, bundle_lines, live_in, live_out)) continue;
    for (const auto& block : s.blocks) {
      std::vector<size_t> lines;
      for (size_t i : block.lines)
        if (tile.lines[i].kind == AieLine::Kind::Bundle) lines.push_back(i);
      if (lines.size() < 2) continue;
      moved += reallocate_block(tile, lines, live_in[index_of_line[lines.front()]], live_out[index_of_line[lines.back()]]);
    }
  }
  return moved;
}

}  // namespace tlmcraft::agent::search::aie
