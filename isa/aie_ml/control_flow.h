// The control structure of one AIE-ML core program as the bundle scheduler and the search
// agent's transformations need it: which labels are branch targets (block starts) and which only name the last bundle
// of a zero-overhead loop (`MOVXM le, name`), the basic blocks, and the zero-overhead
// loops (start and end labels, the constant trip count written to lc before the loop).
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "isa/aie_ml/program_text.h"

namespace tlmcraft::isa::aie_ml {

struct Block {
  std::vector<size_t> lines;    // indices into AieTile::lines (labels, comments, bundles)
  bool ends_loop = false;       // its last bundle is a zero-overhead loop's `le` bundle
  int64_t trip_count = 1;       // iterations when inside a loop with a constant count
};

struct ZeroOverheadLoop {
  std::string start_label, end_label;
  size_t start_line = 0;        // index of the start label line
  size_t end_bundle = 0;        // index of the `le` bundle line
  int64_t count = 0;            // constant trip count (0: unknown)
  size_t count_line = 0;        // the bundle line that writes lc
};

struct TileStructure {
  std::set<std::string> branch_targets;   // labels anything jumps to or ls names (hard)
  std::set<std::string> loop_end_labels;  // labels only `MOVXM le` names (soft)
  std::vector<Block> blocks;              // cover every line, in order
  std::vector<ZeroOverheadLoop> loops;
};

// False (with the reason) for programs the transformations do not analyse: ls/le set
// from a register or a number, indirect jumps, a loop-end label not followed by a bundle.
bool analyse_structure(const AieTile& tile, TileStructure& out, std::string& why);

// Backward liveness of register units over the tile's bundles (fall-through, branch
// targets, zero-overhead loop-back), per bundle index of `bundle_lines` (the indices of
// the tile's bundle lines in order). False when the tile has calls (JL/RET: not analysed)
// or a branch to an unknown label.
bool liveness(const AieTile& tile, const TileStructure& structure, const std::vector<size_t>& bundle_lines,
              std::vector<std::set<int>>& live_in, std::vector<std::set<int>>& live_out);

// Successors of each bundle (indices into `bundle_lines`): the next bundle unless it jumps
// or halts, branch targets, and the zero-overhead loop's `le` bundle back to `ls`. False for
// calls (JL/RET) or a branch to an unknown label. `falls` (optional): per bundle, whether
// one of its successor edges is falling through into the next bundle (the others jump).
bool bundle_successors(const AieTile& tile, const TileStructure& structure, const std::vector<size_t>& bundle_lines,
                       std::vector<std::vector<size_t>>& succ, std::vector<bool>* falls = nullptr);

// The label an operation names (its last operand), "" if it has none.
std::string label_operand(const AieOp& op);

}  // namespace tlmcraft::isa::aie_ml
