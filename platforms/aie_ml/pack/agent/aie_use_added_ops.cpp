#include "platforms/aie_ml/pack/agent/aie_use_added_ops.h"

#include <algorithm>
#include <string>
#include <vector>

#include "isa/dataflow/pattern_match.h"
#include "platforms/aie_ml/pack/agent/aie_dataflow.h"

namespace tlmcraft::agent::search::aie {

using namespace isa::aie_ml;
namespace df = isa::dataflow;

namespace {

using Place = TileDataflow::Place;

// The op's text with each operand bound by the match; false when an operand is unbound.
bool op_text(const ExtensionOp& e, const df::Match& m, std::string& text) {
  text = e.mnemonic;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    const auto it = m.text.find(e.operands[i].name);
    if (it == m.text.end()) return false;  // an operand no step names (cannot be matched)
    text += (i ? ", " : " ") + it->second;
  }
  return true;
}

// Removes the op at `p` from its bundle; an emptied bundle goes, or becomes a NOP when a
// label names it. Returns true when the line itself was erased.
bool remove_op(AieTile& tile, const Place& p) {
  AieLine& line = tile.lines[p.line];
  line.ops.erase(line.ops.begin() + long(p.op));
  if (!line.ops.empty()) return false;
  if (p.line > 0 && tile.lines[p.line - 1].kind == AieLine::Kind::Label) {
    AieOp nop;
    assemble_op("NOP", nop);
    line.ops.push_back(nop);  // a label names this bundle: keep it
    return false;
  }
  tile.lines.erase(tile.lines.begin() + long(p.line));
  return true;
}

// Applies one match: the op replaces the last step, the other steps leave.
bool apply(AieTile& tile, const TileDataflow& t, const df::Match& m, const ExtensionOp& e, uint32_t& line_out) {
  std::string text;
  AieOp fused;
  if (!op_text(e, m, text) || !assemble_op(text, fused)) return false;
  std::vector<Place> steps;
  for (size_t i : m.ops) steps.push_back(t.places[i]);
  Place last = steps.back();
  steps.pop_back();
  const AieLine& bundle = tile.lines[last.line];
  for (size_t k = 0; k < bundle.ops.size(); ++k) {
    const bool leaving =
        std::any_of(steps.begin(), steps.end(), [&](const Place& s) { return s.line == last.line && s.op == k; });
    if (k != last.op && !leaving && bundle.ops[k].op.slot == fused.op.slot) return false;  // slot taken
  }
  // Remove the other steps, latest position first, keeping the last step's place current.
  std::sort(steps.begin(), steps.end(),
            [](const Place& a, const Place& b) { return a.line != b.line ? a.line > b.line : a.op > b.op; });
  for (const Place& s : steps) {
    if (s.line == last.line && s.op < last.op) --last.op;
    if (remove_op(tile, s) && s.line < last.line) --last.line;
  }
  AieLine& target = tile.lines[last.line];
  target.ops[last.op] = fused;
  std::stable_sort(target.ops.begin(), target.ops.end(),
                   [](const AieOp& a, const AieOp& b) { return a.op.slot < b.op.slot; });
  line_out = target.source_line;
  return true;
}

// Places `e` wherever it matches, one match at a time (positions move after each).
int place_everywhere(AieTile& tile, const ExtensionOp& e, const PlacedOp& placed) {
  const df::Pattern pattern = extension_pattern(e);
  int count = 0;
  for (bool changed = true; changed;) {
    changed = false;
    const TileDataflow t = tile_dataflow(tile);
    if (!t.analysed) break;
    for (const df::Match& m : df::find_matches(t.ops, pattern)) {
      uint32_t line = 0;
      if (!apply(tile, t, m, e, line)) continue;
      ++count;
      if (placed) placed(e.mnemonic, line);
      changed = true;
      break;
    }
  }
  return count;
}

}  // namespace

int use_added_ops(AieTile& tile, const std::vector<const ExtensionOp*>& ops, const PlacedOp& placed) {
  int inserted = 0;
  for (const ExtensionOp* e : ops)
    if (!e->pattern_steps().empty()) inserted += place_everywhere(tile, *e, placed);
  return inserted;
}

int use_composed_ops(AieKernel& kernel) {
  std::vector<const ExtensionOp*> ops;
  for (const auto& ext : AieIsa::get().extensions) ops.push_back(ext.get());
  int inserted = 0;
  for (AieTile& tile : kernel.tiles) inserted += use_added_ops(tile, ops);
  return inserted;
}

}  // namespace tlmcraft::agent::search::aie
