#include "platforms/aie_ml/pack/agent/aie_offsets.h"

#include <algorithm>
#include <map>

#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::agent::search::aie {

namespace ia = isa::aie_ml;
// The program model and its analyses (isa/aie_ml) are this file's vocabulary.
using namespace isa::aie_ml;

namespace {

const ia::Operand* mem_operand(const AieOp& o) {
  for (int i = 0; i < o.op.n_operands; ++i)
    if (o.op.operands[static_cast<size_t>(i)].kind == ia::Operand::Kind::Mem) return &o.op.operands[static_cast<size_t>(i)];
  return nullptr;
}

bool is_padd(const AieOp& o) {
  const auto c = ia::Code(o.op.code);
  return c == ia::Code::PADDA || c == ia::Code::PADDB || c == ia::Code::PADDS;
}

// The op with its memory operand at `[pN, #offset]` (no post-modify), re-assembled.
bool with_offset(const AieOp& o, int pointer, int64_t offset, AieOp& out) {
  const size_t open = o.text.find('['), close = o.text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  std::string rest = o.text.substr(close + 1);
  const ia::Operand* m = mem_operand(o);
  if (m && m->mem.mode == ia::MemOperand::Mode::PostImm) {
    // Drop ", <post-modify>" after the bracket.
    const size_t comma = rest.find(',');
    if (comma == std::string::npos) return false;
    const size_t next = rest.find(',', comma + 1);
    rest = next == std::string::npos ? "" : rest.substr(next);
  }
  const std::string addr = "[p" + std::to_string(pointer) + (offset ? ", #" + std::to_string(offset) : "") + "]";
  if (!assemble_op(o.text.substr(0, open) + addr + rest, out)) return false;
  const ia::Operand* n = mem_operand(out);
  return n && n->mem.pointer == pointer && (offset ? n->mem.mode == ia::MemOperand::Mode::OffsetImm && n->mem.imm == offset
                                                   : n->mem.mode == ia::MemOperand::Mode::Plain);
}

enum class Rewrite { None, InPlace, Inserted };

// Rewrites pointer p in the block's bundles up to the first use of p outside an address
// (a MOV reading or writing it): the update goes into the region's last bundle when the
// region is the whole block, else into a new bundle right after the region.
Rewrite rewrite_pointer(AieTile& tile, const std::vector<size_t>& block_bundles, int p) {
  const int unit = register_units(RegClass::P, p)[0];
  std::vector<size_t> bundles;
  for (size_t i : block_bundles) {
    bool other_use = false;
    for (const auto& o : tile.lines[i].ops) {
      const OpEffects fx = effects_of(o);
      const ia::Operand* m = mem_operand(o);
      const bool uses = std::count(fx.reads.begin(), fx.reads.end(), unit) > 0 ||
                        std::count(fx.writes.begin(), fx.writes.end(), unit) > 0;
      if (uses && !(m && m->mem.pointer == p)) other_use = true;
    }
    if (other_use) break;
    bundles.push_back(i);
  }
  const bool whole_block = bundles.size() == block_bundles.size();
  int updates = 0;
  for (size_t i : bundles) {
    int in_bundle = 0;
    for (const auto& o : tile.lines[i].ops) {
      const ia::Operand* m = mem_operand(o);
      if (!(m && m->mem.pointer == p)) continue;
      const auto mode = m->mem.mode;
      if (mode == ia::MemOperand::Mode::PostImm) ++in_bundle;
      else if (mode != ia::MemOperand::Mode::Plain && mode != ia::MemOperand::Mode::OffsetImm) return Rewrite::None;
    }
    if (in_bundle > 1) return Rewrite::None;
    updates += in_bundle;
  }
  if (updates < 2) return Rewrite::None;
  // Rewrite on a copy; commit only if every op re-assembles.
  std::map<size_t, AieLine> changed;
  int64_t offset = 0;
  for (size_t i : bundles) {
    AieLine line = tile.lines[i];
    int64_t step = 0;
    std::vector<AieOp> ops;
    bool touched = false;
    for (const auto& o : line.ops) {
      const ia::Operand* m = mem_operand(o);
      if (!m || m->mem.pointer != p) {
        ops.push_back(o);
        continue;
      }
      touched = true;
      const auto mode = m->mem.mode;
      if (mode == ia::MemOperand::Mode::PostImm) step = m->mem.imm;
      if (is_padd(o)) continue;  // folded into the running offset
      AieOp n;
      const int64_t at = offset + (mode == ia::MemOperand::Mode::OffsetImm ? m->mem.imm : 0);
      if (!with_offset(o, p, at, n)) return Rewrite::None;
      ops.push_back(n);
    }
    offset += step;
    if (touched) {
      line.ops = ops;
      changed[i] = line;
    }
  }
  AieLine update;  // a new bundle holding the update (when the region ends early)
  bool insert = false;
  if (offset != 0) {
    AieLine& last = !whole_block ? update
                    : changed.count(bundles.back()) ? changed[bundles.back()]
                                                    : (changed[bundles.back()] = tile.lines[bundles.back()]);
    update.kind = AieLine::Kind::Bundle;
    bool placed = false;
    for (const char* m : {"PADDA", "PADDB", "PADDS"}) {
      AieOp padd;
      if (!assemble_op(std::string(m) + " [p" + std::to_string(p) + "], #" + std::to_string(offset), padd)) return Rewrite::None;
      if (std::any_of(last.ops.begin(), last.ops.end(), [&](const AieOp& o) { return o.op.slot == padd.op.slot; })) continue;
      last.ops.push_back(padd);
      std::stable_sort(last.ops.begin(), last.ops.end(), [](const AieOp& a, const AieOp& b) { return a.op.slot < b.op.slot; });
      placed = true;
      break;
    }
    if (!placed) return Rewrite::None;
    insert = !whole_block;
  }
  for (auto& [i, line] : changed) {
    // Bundles left with no op keep a NOP (labels may name them).
    if (line.ops.empty()) {
      AieOp nop;
      if (assemble_op("NOP", nop)) line.ops.push_back(nop);
    }
    tile.lines[i] = std::move(line);
  }
  if (!insert) return Rewrite::InPlace;
  // Right after the region's last bundle: before any label of the next bundle, so a
  // loop-end label stays on its bundle.
  tile.lines.insert(tile.lines.begin() + static_cast<long>(bundles.back() + 1), update);
  return Rewrite::Inserted;
}

}  // namespace

int offset_addressing(AieKernel& kernel) {
  int done = 0;
  for (auto& tile : kernel.tiles) {
    // An inserted bundle shifts the line indices: analyse again after each one.
    for (bool again = true; again;) {
      again = false;
      TileStructure s;
      std::string why;
      if (!analyse_structure(tile, s, why)) break;
      for (const auto& block : s.blocks) {
        std::vector<size_t> bundles;
        for (size_t i : block.lines)
          if (tile.lines[i].kind == AieLine::Kind::Bundle) bundles.push_back(i);
        if (bundles.size() < 2) continue;
        for (int p = 0; p < ia::kPointerRegs && !again; ++p) {
          const Rewrite r = rewrite_pointer(tile, bundles, p);
          done += r != Rewrite::None;
          again = r == Rewrite::Inserted;
        }
        if (again) break;
      }
    }
  }
  return done;
}

}  // namespace tlmcraft::agent::search::aie
