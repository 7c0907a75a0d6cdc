#include "platforms/aie_ml/pack/agent/aie_unroll.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::agent::search::aie {

namespace ia = isa::aie_ml;
// The program model and its analyses (isa/aie_ml) are this file's vocabulary.
using namespace isa::aie_ml;

namespace {

// Rename groups: vector x registers, accumulator bm registers, scalar r registers.
enum class File { X, BM, R };
struct Group {
  File file;
  int num;
  bool operator<(const Group& o) const { return file != o.file ? file < o.file : num < o.num; }
};

std::vector<int> group_units(const Group& g) {
  switch (g.file) {
    case File::X: return register_units(RegClass::X, g.num);
    case File::BM: return register_units(RegClass::BM, g.num);
    case File::R: return register_units(RegClass::R, g.num);
  }
  return {};
}

bool group_of(RegClass cls, int num, Group& g) {
  switch (cls) {
    case RegClass::W: g = {File::X, num / 2}; return true;
    case RegClass::X: g = {File::X, num}; return true;
    case RegClass::AM: g = {File::BM, num / 2}; return true;
    case RegClass::BM: g = {File::BM, num}; return true;
    case RegClass::R: g = {File::R, num}; return true;
    default: return false;
  }
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Rewrites register names in an op's text by the group renaming; unknown spellings of a
// renamed register are caught by the def/use check afterwards.
std::string rename_text(const std::string& text, const std::map<Group, int>& map) {
  std::string out;
  size_t i = 0;
  const size_t sp = text.find_first_of(" \t");
  if (sp == std::string::npos) return text;
  out = text.substr(0, sp);  // the mnemonic
  i = sp;
  while (i < text.size()) {
    if (!std::isalpha(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
    const std::string tok = lower(text.substr(i, j - i));
    size_t d = 0;
    while (d < tok.size() && std::isalpha(static_cast<unsigned char>(tok[d]))) ++d;
    std::string repl = text.substr(i, j - i);
    // A register name: letters then at most 3 digits (hex immediates such as 0x70000 also
    // read as letters + digits after the leading 0 and must stay as they are).
    const bool prefix_start = i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
    if (prefix_start && d > 0 && d < tok.size() && tok.size() - d <= 3 &&
        std::all_of(tok.begin() + static_cast<long>(d), tok.end(), ::isdigit)) {
      const std::string pre = tok.substr(0, d);
      const int num = std::stoi(tok.substr(d));
      RegClass cls = RegClass::None;
      if (pre == "w") cls = RegClass::W;
      else if (pre == "x") cls = RegClass::X;
      else if (pre == "am") cls = RegClass::AM;
      else if (pre == "bm") cls = RegClass::BM;
      else if (pre == "r") cls = RegClass::R;
      Group g{File::R, 0};
      if (cls != RegClass::None && group_of(cls, num, g)) {
        const auto it = map.find(g);
        if (it != map.end()) {
          int nn = it->second;
          if (cls == RegClass::W || cls == RegClass::AM) nn = 2 * it->second + num % 2;
          repl = pre + std::to_string(nn);
        }
      }
    }
    out += repl;
    i = j;
  }
  return out;
}

int map_unit(int u, const std::map<Group, int>& map) {
  for (const auto& [g, to] : map) {
    const std::vector<int> from = group_units(g), dest = group_units({g.file, to});
    for (size_t k = 0; k < from.size(); ++k)
      if (from[k] == u) return dest[k];
  }
  return u;
}

bool same_units(std::vector<int> a, std::vector<int> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace

bool unroll_loop(AieKernel& kernel, size_t tile_index, size_t loop_index, int factor, bool rename, std::string& why,
                 UnrollStats* stats) {
  if (tile_index >= kernel.tiles.size()) return why = "no such tile", false;
  AieTile& tile = kernel.tiles[tile_index];
  TileStructure s;
  if (!analyse_structure(tile, s, why)) return false;
  if (loop_index >= s.loops.size()) return why = "no such loop", false;
  const ZeroOverheadLoop& loop = s.loops[loop_index];
  if (factor < 2) return why = "factor must be at least 2", false;
  if (loop.count <= 0) return why = "the trip count is not a constant", false;
  if (loop.count % factor != 0)
    return why = "factor " + std::to_string(factor) + " does not divide the trip count " + std::to_string(loop.count), false;
  for (const auto& other : s.loops)
    if (&other != &loop && other.start_line > loop.count_line && other.start_line < loop.start_line)
      return why = "the lc constant is shared with another loop", false;

  // The body: start label line .. le bundle; its bundles, comment lines, the end label.
  std::vector<size_t> body_bundles;
  for (size_t i = loop.start_line + 1; i <= loop.end_bundle; ++i) {
    const AieLine& l = tile.lines[i];
    if (l.kind == AieLine::Kind::Label && l.label != loop.end_label)
      return why = "the body has another label ('" + l.label + "')", false;
    if (l.kind != AieLine::Kind::Bundle) continue;
    body_bundles.push_back(i);
    for (const auto& o : l.ops) {
      const OpEffects fx = effects_of(o);
      if (fx.control || fx.halt || fx.lock) return why = "the body branches, halts or uses locks ('" + o.text + "')", false;
      for (RegClass c : {RegClass::LS, RegClass::LE, RegClass::LC}) {
        const int u = register_units(c, 0)[0];
        if (std::count(fx.writes.begin(), fx.writes.end(), u))
          return why = "the body writes a loop register ('" + o.text + "')", false;
        // lc counts unrolled iterations afterwards: a body reading it would see other values.
        if (std::count(fx.reads.begin(), fx.reads.end(), u))
          return why = "the body reads a loop register ('" + o.text + "')", false;
      }
    }
  }
  if (body_bundles.empty()) return why = "empty body", false;
  size_t total = 0;
  for (const auto& l : tile.lines) total += l.kind == AieLine::Kind::Bundle;
  if (total + body_bundles.size() * static_cast<size_t>(factor - 1) > kProgramBundles)
    return why = "the unrolled program would exceed the program memory", false;

  // The new trip count.
  AieLine count_line = tile.lines[loop.count_line];
  {
    bool done = false;
    for (auto& o : count_line.ops) {
      if (o.op.n_operands < 2 || o.op.operands[0].kind != ia::Operand::Kind::Reg || o.op.operands[0].cls != RegClass::LC)
        continue;
      AieOp n;
      if (!assemble_op(o.mnemonic() + " lc, " + std::to_string(loop.count / factor), n)) break;
      o = n;
      done = true;
    }
    if (!done) return why = "cannot rewrite the trip count", false;
  }

  // Renaming plan.
  std::vector<std::map<Group, int>> copy_maps(static_cast<size_t>(factor));
  if (rename) {
    std::vector<size_t> bundle_lines;
    for (size_t i = 0; i < tile.lines.size(); ++i)
      if (tile.lines[i].kind == AieLine::Kind::Bundle) bundle_lines.push_back(i);
    std::vector<std::set<int>> live_in;
    const size_t le_index =
        static_cast<size_t>(std::find(bundle_lines.begin(), bundle_lines.end(), loop.end_bundle) - bundle_lines.begin());
    std::vector<std::set<int>> live_out;
    if (liveness(tile, s, bundle_lines, live_in, live_out)) {
      const std::set<int> live_exit = le_index + 1 < bundle_lines.size() ? live_in[le_index + 1] : std::set<int>{};
      std::set<int> exposed, written_so_far, used_in_tile, written_in_tile;
      std::vector<Group> order;
      std::set<Group> seen, blocked;
      for (const auto& l : tile.lines)
        if (l.kind == AieLine::Kind::Bundle)
          for (const auto& o : l.ops) {
            const OpEffects fx = effects_of(o);
            used_in_tile.insert(fx.reads.begin(), fx.reads.end());
            used_in_tile.insert(fx.writes.begin(), fx.writes.end());
            written_in_tile.insert(fx.writes.begin(), fx.writes.end());
          }
      for (size_t i : body_bundles) {
        std::set<int> bundle_writes;
        for (const auto& o : tile.lines[i].ops) {
          const OpEffects fx = effects_of(o);
          for (int u : fx.reads)
            if (!written_so_far.count(u)) exposed.insert(u);
          bundle_writes.insert(fx.writes.begin(), fx.writes.end());
          const auto code = ia::Code(o.op.code);
          for (int k = 0; k < o.op.n_operands; ++k) {
            const ia::Operand& a = o.op.operands[static_cast<size_t>(k)];
            if (a.kind != ia::Operand::Kind::Reg) continue;
            Group g{File::R, 0};
            if (a.cls == RegClass::Y) {
              blocked.insert({File::X, 2 * a.num});
              blocked.insert({File::X, 2 * a.num + 1});
            } else if (a.cls == RegClass::CM) {
              blocked.insert({File::BM, 2 * a.num});
              blocked.insert({File::BM, 2 * a.num + 1});
            } else if (group_of(a.cls, a.num, g)) {
              if (a.cls == RegClass::R && (code == ia::Code::VLT_S8 || code == ia::Code::VSEL_8)) {
                blocked.insert(g);
                blocked.insert({File::R, (a.num + 1) % ia::kScalarRegs});
              }
              if (seen.insert(g).second) order.push_back(g);
            }
          }
        }
        written_so_far.insert(bundle_writes.begin(), bundle_writes.end());
      }
      std::vector<Group> renamable;
      for (const Group& g : order) {
        if (blocked.count(g)) continue;
        bool ok = false;
        for (int u : group_units(g)) {
          // A unit no op of the tile writes holds its reset value (0) in both names.
          if (!written_in_tile.count(u)) continue;
          if (exposed.count(u) || live_exit.count(u)) {
            ok = false;
            break;
          }
          ok = ok || written_so_far.count(u);
        }
        if (ok) renamable.push_back(g);
      }
      std::map<File, std::vector<int>> free;
      for (int x = 0; x < ia::kVectorRegs; ++x) free[File::X].push_back(x);
      for (int b = 0; b < ia::kAccumulatorRegs; ++b) free[File::BM].push_back(b);
      for (int r = 0; r < ia::kScalarRegs; ++r) free[File::R].push_back(r);
      for (auto& [file, list] : free)
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [&, f = file](int num) {
                                    for (int u : group_units({f, num}))
                                      if (used_in_tile.count(u)) return true;
                                    return false;
                                  }),
                   list.end());
      for (size_t c = 1; c < copy_maps.size(); ++c)
        for (const Group& g : renamable) {
          auto& list = free[g.file];
          if (list.empty()) continue;
          copy_maps[c][g] = list.front();
          list.erase(list.begin());
          if (stats) ++stats->renamed_registers;
        }
    }
  }

  // Build the copies (re-assembled and checked when renamed).
  std::vector<AieLine> body_copy;
  const AieLine* end_label = nullptr;
  for (size_t i = loop.start_line + 1; i <= loop.end_bundle; ++i) {
    if (tile.lines[i].kind == AieLine::Kind::Label) end_label = &tile.lines[i];
    else body_copy.push_back(tile.lines[i]);
  }
  if (!end_label) return why = "the loop-end label is missing", false;
  std::vector<AieLine> unrolled;
  for (size_t c = 0; c < copy_maps.size(); ++c)
    for (const AieLine& l : body_copy) {
      if (l.kind != AieLine::Kind::Bundle) {
        if (c == 0) unrolled.push_back(l);
        continue;
      }
      AieLine nl = l;
      if (!copy_maps[c].empty()) {
        for (auto& o : nl.ops) {
          const std::string text = rename_text(o.text, copy_maps[c]);
          if (text == o.text) continue;
          AieOp n;
          const OpEffects before = effects_of(o);
          if (!assemble_op(text, n)) return unroll_loop(kernel, tile_index, loop_index, factor, false, why, nullptr);
          const OpEffects after = effects_of(n);
          std::vector<int> mr, mw;
          for (int u : before.reads) mr.push_back(map_unit(u, copy_maps[c]));
          for (int u : before.writes) mw.push_back(map_unit(u, copy_maps[c]));
          if (!same_units(mr, after.reads) || !same_units(mw, after.writes))
            return unroll_loop(kernel, tile_index, loop_index, factor, false, why, nullptr);
          o = n;
        }
      }
      unrolled.push_back(nl);
    }
  // The `le` label goes before the last bundle.
  size_t last = unrolled.size();
  while (last > 0 && unrolled[last - 1].kind != AieLine::Kind::Bundle) --last;
  unrolled.insert(unrolled.begin() + static_cast<long>(last - 1), *end_label);

  std::vector<AieLine> lines;
  for (size_t i = 0; i <= loop.start_line; ++i) lines.push_back(i == loop.count_line ? count_line : tile.lines[i]);
  lines.insert(lines.end(), unrolled.begin(), unrolled.end());
  for (size_t i = loop.end_bundle + 1; i < tile.lines.size(); ++i) lines.push_back(tile.lines[i]);
  tile.lines = std::move(lines);
  return true;
}

namespace {

bool inline_one(AieTile& tile) {
  TileStructure s;
  std::string why;
  if (!analyse_structure(tile, s, why)) return false;
  const int ls = register_units(RegClass::LS, 0)[0], le = register_units(RegClass::LE, 0)[0],
            lc = register_units(RegClass::LC, 0)[0];
  std::map<std::string, int> refs;  // label -> operations naming it
  for (const auto& l : tile.lines)
    if (l.kind == AieLine::Kind::Bundle)
      for (const auto& o : l.ops) {
        const std::string name = label_operand(o);
        if (!name.empty()) ++refs[name];
        const OpEffects fx = effects_of(o);
        for (int u : fx.reads)
          if (u == ls || u == le || u == lc) return false;  // loop registers read as data
      }
  for (const auto& loop : s.loops) {
    if (loop.count != 1 || refs[loop.start_label] != 1 || refs[loop.end_label] != 1) continue;
    bool shared = false, clean = true;
    for (const auto& other : s.loops)
      if (&other != &loop && other.start_line > loop.count_line && other.start_line < loop.start_line) shared = true;
    for (size_t i = loop.start_line; i <= loop.end_bundle; ++i)
      if (tile.lines[i].kind == AieLine::Kind::Bundle)
        for (const auto& o : tile.lines[i].ops) {
          const OpEffects fx = effects_of(o);
          clean = clean && !fx.control && !fx.halt && !fx.lock;
        }
    if (shared || !clean) continue;
    // Drop the set-up ops (the two label moves and the lc write) and the two labels.
    std::vector<AieLine> lines;
    for (size_t i = 0; i < tile.lines.size(); ++i) {
      AieLine l = tile.lines[i];
      if (l.kind == AieLine::Kind::Label && (l.label == loop.start_label || l.label == loop.end_label)) continue;
      if (l.kind == AieLine::Kind::Bundle) {
        std::vector<AieOp> kept;
        for (const auto& o : l.ops) {
          const std::string name = label_operand(o);
          const OpEffects fx = effects_of(o);
          const bool setup = (name == loop.start_label || name == loop.end_label) ||
                             (i == loop.count_line && std::count(fx.writes.begin(), fx.writes.end(), lc) > 0);
          if (!setup) kept.push_back(o);
        }
        if (kept.empty()) {
          AieOp nop;
          if (!assemble_op("NOP", nop)) return false;
          kept.push_back(nop);
        }
        l.ops = kept;
      }
      lines.push_back(std::move(l));
    }
    tile.lines = std::move(lines);
    return true;
  }
  return false;
}

}  // namespace

int inline_single_trip_loops(AieKernel& kernel) {
  int done = 0;
  for (auto& tile : kernel.tiles)
    while (inline_one(tile)) ++done;  // structure indices change: re-analyse each time
  return done;
}

}  // namespace tlmcraft::agent::search::aie
