#include "platforms/plena/pack/agent/plena_double_buffer.h"

#include <algorithm>
#include <set>
#include <vector>

#include "platforms/plena/pack/agent/plena_transforms.h"

namespace tlmcraft::agent::search::plena {
namespace {

// The operand holding the MSRAM address of the instructions whose tile the address names.
std::string msram_operand(const std::string& m) {
  if (m == "H_PREFETCH_M") return "rd";
  if (m == "M_MM" || m == "M_MV" || m == "M_TMV") return "rs1";
  if (m == "M_TMM") return "rs2";
  return "";
}

// One instruction's use of an MSRAM tile.
struct TileUse {
  const Node* node = nullptr;
  bool in_loop = false;  // directly in the body of the loop being double-buffered
  size_t index = 0;      // its index in that body
  int64_t tile = 0;      // first element of the tile
  uint64_t address = 0;  // the address operand's value
  bool write = false;
};

class TileUses {
 public:
  TileUses(const Arch& arch, const Node* loop) : arch_(arch), loop_(loop) {}
  std::vector<TileUse> uses;

  // False when an instruction touches MSRAM at an address that is not a known constant.
  bool collect(const Block& block, Values& values, bool inside) {
    for (size_t i = 0; i < block.size(); ++i) {
      const Node& n = block[i];
      if (n.is_loop) {
        values.enter_loop(n);
        if (!collect(n.body, values, &n == loop_)) return false;
        values.leave_loop(n);
        continue;
      }
      if (!record(n, i, values, inside)) return false;
      values.apply(n.op);
    }
    return true;
  }

 private:
  const Arch& arch_;
  const Node* loop_;

  bool record(const Node& n, size_t index, Values& values, bool inside) {
    const std::string name = msram_operand(n.op.mnemonic());
    if (name.empty()) {
      for (const MemAccess& a : memory_effects(n.op, values, arch_))
        if (a.space == Space::Msram || a.space == Space::All) return false;  // M_BMM and barriers
      return true;
    }
    const Val v = values.get(reg_key_gp(static_cast<int>(n.op.operand(name))));
    if (!v.is_const()) return false;
    const int64_t size = arch_.mlen * arch_.mlen;
    const int64_t address = static_cast<int64_t>(v.off);
    const bool prefetch = n.op.mnemonic() == "H_PREFETCH_M";
    if (prefetch && address % size != 0) return false;  // a tile-straddling destination: not modelled
    uses.push_back({&n, inside, index, address - address % size, v.off, prefetch});
    return true;
  }
};

bool has_inner_loop(const Node& loop) {
  return std::any_of(loop.body.begin(), loop.body.end(), [](const Node& n) { return n.is_loop; });
}

// Why the loop cannot be double-buffered, checked before anything is analysed.
std::string loop_shape_problem(const Node* loop) {
  if (!loop) return "no such loop";
  if (loop->count < 2 || loop->count % 2 != 0) return "the loop count is not even";
  if (has_inner_loop(*loop)) return "the loop has inner loops";
  const int counter = reg_key_gp(loop->counter);
  if (read_in(loop->body).count(counter) || written_in(loop->body).count(counter))
    return "the body uses the loop counter";
  return "";
}

// Why the prefetched tile `p` cannot get a second buffer: a use outside the loop, another
// writer, or a read before the prefetch (a value carried between iterations).
std::string buffer_problem(const std::vector<TileUse>& uses, const TileUse& p) {
  for (const TileUse& u : uses) {
    if (u.tile != p.tile) continue;
    if (!u.in_loop) return "the prefetched tile is used outside the loop";
    if (u.write && u.node != p.node) return "another instruction writes the prefetched tile";
    if (u.index < p.index) return "the tile is read before the prefetch (a value carried between iterations)";
  }
  return "";
}

// A tile neither the kernel nor the code around it (a region's) uses; -1 when none is.
int64_t free_tile(const std::vector<TileUse>& uses, const std::set<int64_t>& outside, int64_t tile_size,
                  int64_t msram_elements) {
  for (int64_t t = 0; t + tile_size <= msram_elements; t += tile_size)
    if (!outside.count(t) && std::none_of(uses.begin(), uses.end(), [&](const TileUse& u) { return u.tile == t; }))
      return t;
  return -1;
}

}  // namespace

bool double_buffer_prefetch(Kernel& kernel, int id, const Arch& arch, int64_t msram_elements, std::string& why) {
  Node* loop = const_cast<Node*>(find_loop(kernel.code, id));
  why = loop_shape_problem(loop);
  if (!why.empty()) return false;
  TileUses analysis(arch, loop);
  Values values;
  if (!analysis.collect(kernel.code, values, false) || !kernel.around.msram_tiles_known) {
    why = "an MSRAM address is not a known constant";
    return false;
  }
  const auto& uses = analysis.uses;
  auto prefetch = std::find_if(uses.begin(), uses.end(), [](const TileUse& u) { return u.in_loop && u.write; });
  if (prefetch == uses.end()) {
    why = "the loop prefetches no matrix tile";
    return false;
  }
  why = buffer_problem(uses, *prefetch);
  if (why.empty() && kernel.around.msram_tiles_outside.count(prefetch->tile))
    why = "the prefetched tile is used outside the loop";
  if (!why.empty()) return false;
  const int64_t second = free_tile(uses, kernel.around.msram_tiles_outside, arch.mlen * arch.mlen, msram_elements);
  const std::set<int> used = gp_registers_named(kernel);
  int tmp = 1;
  while (tmp < 16 && used.count(tmp)) ++tmp;
  if (second < 0 || tmp == 16) {
    why = second < 0 ? "no free MSRAM tile" : "no free gp register";
    return false;
  }
  Block renamed;
  for (size_t i = 0; i < loop->body.size(); ++i) {
    Node n = loop->body[i];
    for (const TileUse& u : uses) {
      if (!u.in_loop || u.index != i || u.tile != prefetch->tile) continue;
      const int64_t address = static_cast<int64_t>(u.address) - prefetch->tile + second;
      Node set;
      set.op = make_op("S_ADDI_INT", {tmp, 0, address}, "double buffer: tile at " + std::to_string(second));
      renamed.push_back(set);
      n.op.operands[static_cast<size_t>(n.op.operand_index(msram_operand(n.op.mnemonic())))] = tmp;
    }
    renamed.push_back(n);
  }
  loop->body.insert(loop->body.end(), renamed.begin(), renamed.end());
  loop->count /= 2;
  return true;
}

bool msram_tiles_of_each(const Block& code, const Arch& arch, std::vector<std::set<int64_t>>& tiles) {
  tiles.assign(code.size(), {});
  Values values;  // flows from node to node, as the whole kernel's walk
  for (size_t k = 0; k < code.size(); ++k) {
    TileUses analysis(arch, nullptr);
    if (!analysis.collect(Block{code[k]}, values, false)) return false;
    for (const TileUse& u : analysis.uses) tiles[k].insert(u.tile);
  }
  return true;
}

}  // namespace tlmcraft::agent::search::plena
