#include "isa/aie_ml/control_flow.h"

#include <map>
#include <set>

#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::isa::aie_ml {

namespace {

bool is_move(const AieOp& op) {
  const auto c = Code(op.op.code);
  return c == Code::MOV || c == Code::MOVX || c == Code::MOVXM;
}

RegClass dest_class(const AieOp& op) {
  return op.op.n_operands > 0 && op.op.operands[0].kind == Operand::Kind::Reg ? op.op.operands[0].cls
                                                                                  : RegClass::None;
}

}  // namespace

std::string label_operand(const AieOp& op) {
  bool has = false;
  for (int i = 0; i < op.op.n_operands; ++i)
    has = has || op.op.operands[static_cast<size_t>(i)].kind == Operand::Kind::Label;
  if (!has) return "";
  const size_t comma = op.text.find_last_of(",");
  size_t b = comma == std::string::npos ? op.text.find_first_of(" \t") : comma + 1;
  if (b == std::string::npos) return "";
  while (b < op.text.size() && (op.text[b] == ' ' || op.text[b] == '\t')) ++b;
  size_t e = op.text.size();
  while (e > b && (op.text[e - 1] == ' ' || op.text[e - 1] == '\t')) --e;
  return op.text.substr(b, e - b);
}

bool analyse_structure(const AieTile& tile, TileStructure& out, std::string& why) {
  out = TileStructure{};
  std::set<std::string> le_refs, other_refs, defined;
  for (const auto& l : tile.lines) {
    if (l.kind == AieLine::Kind::Label) defined.insert(l.label);
    if (l.kind != AieLine::Kind::Bundle) continue;
    for (const auto& op : l.ops) {
      const std::string label = label_operand(op);
      const auto code = Code(op.op.code);
      const RegClass dst = dest_class(op);
      if (is_move(op) && (dst == RegClass::LS || dst == RegClass::LE) && label.empty()) {
        why = "line " + std::to_string(l.source_line) + ": '" + op.text +
              "' sets a loop register from a number or register (bundle indices change when bundles merge)";
        return false;
      }
      if ((code == Code::J || code == Code::JL) && label.empty()) {
        why = "line " + std::to_string(l.source_line) + ": indirect jump '" + op.text + "'";
        return false;
      }
      if (label.empty()) continue;
      if (is_move(op) && dst == RegClass::LE) le_refs.insert(label);
      else other_refs.insert(label);
    }
  }
  for (const auto& name : defined) {
    if (le_refs.count(name) && !other_refs.count(name)) out.loop_end_labels.insert(name);
    else out.branch_targets.insert(name);  // unreferenced labels stay block starts too
  }

  // Basic blocks.
  Block cur;
  bool pending_end = false;
  auto close = [&]() {
    if (!cur.lines.empty()) out.blocks.push_back(cur);
    cur = Block{};
  };
  for (size_t i = 0; i < tile.lines.size(); ++i) {
    const AieLine& l = tile.lines[i];
    if (l.kind == AieLine::Kind::Label) {
      if (out.loop_end_labels.count(l.label)) {
        cur.lines.push_back(i);
        pending_end = true;
        continue;
      }
      if (pending_end) {
        why = "loop-end label before '" + l.label + "' does not name a bundle of its own";
        return false;
      }
      close();
      cur.lines.push_back(i);
      continue;
    }
    cur.lines.push_back(i);
    if (l.kind != AieLine::Kind::Bundle) continue;
    bool ends = pending_end;
    for (const auto& op : l.ops) {
      const OpEffects fx = effects_of(op);
      ends = ends || fx.control || fx.halt;
    }
    if (pending_end) cur.ends_loop = true;
    pending_end = false;
    if (ends) close();
  }
  if (pending_end) {
    why = "a loop-end label names no bundle";
    return false;
  }
  close();

  // Zero-overhead loops: `MOVXM le, E` pairs with the latest `MOVXM ls, S`; the count is
  // the latest constant written to lc before S.
  std::map<std::string, size_t> label_line;
  for (size_t i = 0; i < tile.lines.size(); ++i)
    if (tile.lines[i].kind == AieLine::Kind::Label) label_line[tile.lines[i].label] = i;
  std::string last_ls;
  std::vector<std::pair<size_t, int64_t>> lc_writes;  // line, constant (0: unknown)
  for (size_t i = 0; i < tile.lines.size(); ++i) {
    const AieLine& l = tile.lines[i];
    if (l.kind != AieLine::Kind::Bundle) continue;
    for (const auto& op : l.ops) {
      const RegClass dst = dest_class(op);
      if (is_move(op) && dst == RegClass::LS) last_ls = label_operand(op);
      if (is_move(op) && dst == RegClass::LC)
        lc_writes.emplace_back(i, op.op.operands[1].kind == Operand::Kind::Imm ? op.op.operands[1].imm : 0);
      if (!(is_move(op) && dst == RegClass::LE)) continue;
      const std::string end = label_operand(op);
      if (last_ls.empty() || !label_line.count(last_ls) || !label_line.count(end)) continue;
      ZeroOverheadLoop loop;
      loop.start_label = last_ls;
      loop.end_label = end;
      loop.start_line = label_line[last_ls];
      size_t e = label_line[end];
      while (e < tile.lines.size() && tile.lines[e].kind != AieLine::Kind::Bundle) ++e;
      loop.end_bundle = e;
      out.loops.push_back(loop);
    }
  }
  for (auto& loop : out.loops) {
    for (const auto& [line, value] : lc_writes)
      if (line < loop.start_line) {
        loop.count = value;
        loop.count_line = line;
      }
    for (auto& b : out.blocks) {
      if (b.lines.empty()) continue;
      if (b.lines.front() >= loop.start_line && b.lines.back() <= loop.end_bundle && loop.count > 0)
        b.trip_count = loop.count;
    }
  }
  return true;
}

bool bundle_successors(const AieTile& tile, const TileStructure& s, const std::vector<size_t>& bundle_lines,
                       std::vector<std::vector<size_t>>& succ, std::vector<bool>* falls_out) {
  const size_t n = bundle_lines.size();
  std::map<size_t, size_t> index_of_line;
  for (size_t i = 0; i < n; ++i) index_of_line[bundle_lines[i]] = i;
  std::map<std::string, size_t> target;
  for (size_t i = 0; i < tile.lines.size(); ++i)
    if (tile.lines[i].kind == AieLine::Kind::Label) {
      const auto it = index_of_line.lower_bound(i);
      if (it != index_of_line.end()) target[tile.lines[i].label] = it->second;
    }
  succ.assign(n, {});
  if (falls_out) falls_out->assign(n, false);
  for (size_t b = 0; b < n; ++b) {
    bool falls = true;
    for (const auto& o : tile.lines[bundle_lines[b]].ops) {
      const auto code = Code(o.op.code);
      if (code == Code::JL || code == Code::RET) return false;
      if (code == Code::J || code == Code::DONE) falls = false;
      const std::string l = label_operand(o);
      if (effects_of(o).control && !l.empty()) {
        const auto t = target.find(l);
        if (t == target.end()) return false;
        succ[b].push_back(t->second);
      }
    }
    if (falls && b + 1 < n) succ[b].push_back(b + 1);
    if (falls_out) (*falls_out)[b] = falls && b + 1 < n;
  }
  for (const auto& loop : s.loops) {
    const auto e = index_of_line.find(loop.end_bundle);
    const auto st = target.find(loop.start_label);
    if (e != index_of_line.end() && st != target.end()) succ[e->second].push_back(st->second);
  }
  return true;
}

bool liveness(const AieTile& tile, const TileStructure& s, const std::vector<size_t>& bundle_lines,
              std::vector<std::set<int>>& live_in, std::vector<std::set<int>>& live_out) {
  const size_t n = bundle_lines.size();
  std::vector<std::vector<size_t>> succ;
  if (!bundle_successors(tile, s, bundle_lines, succ)) return false;
  std::vector<std::set<int>> reads(n), writes(n);
  for (size_t b = 0; b < n; ++b)
    for (const auto& o : tile.lines[bundle_lines[b]].ops) {
      const OpEffects fx = effects_of(o);
      reads[b].insert(fx.reads.begin(), fx.reads.end());
      writes[b].insert(fx.writes.begin(), fx.writes.end());
    }
  live_in.assign(n, {});
  live_out.assign(n, {});
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = n; k-- > 0;) {
      std::set<int> out;
      for (size_t t : succ[k]) out.insert(live_in[t].begin(), live_in[t].end());
      std::set<int> in = reads[k];
      for (int u : out)
        if (!writes[k].count(u)) in.insert(u);
      live_out[k] = out;
      if (in != live_in[k]) {
        live_in[k] = std::move(in);
        changed = true;
      }
    }
  }
  return true;
}

}  // namespace tlmcraft::isa::aie_ml
