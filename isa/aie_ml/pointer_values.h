// Constant-set value analysis of an AIE-ML core program, for memory disambiguation: which
// values the scalar and pointer registers can hold at each basic block's entry (a small
// set of constants, or unknown), over the control-flow graph of bundles (fall-through,
// branch targets; a zero-overhead loop is entered once and left with its pointers
// advanced by the loop's constant post-increments times its trip count). From it, the
// byte range each pointer spans at a block's entry over every execution of the block
// (for a loop body: every iteration), so accesses through different pointers are
// provably apart when their ranges do not meet (e.g. an input ping/pong pair and an
// output ping/pong pair of buffers).
#pragma once
#include <vector>

#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/control_flow.h"

namespace tlmcraft::isa::aie_ml {

// One entry per TileStructure::blocks (empty map when nothing is known).
std::vector<PointerRanges> block_pointer_ranges(const AieTile& tile, const TileStructure& structure);

}  // namespace tlmcraft::isa::aie_ml
