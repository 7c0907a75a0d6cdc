// Kernels use ops added by data (docs/isa-extensions.md, AIE-ML): every composed op of the
// ISA in force (`compose:` steps), and every `semantics:` op with `replaces:`, is matched by
// its dataflow in each tile of a kernel and replaced, with the matcher every ISA shares
// (isa/dataflow/pattern_match.h) over the tile's dataflow view (aie_dataflow.h). A match
// binds the op's operand and temp names to registers consistently (any register
// renaming, either order of a commutative op's operands), its steps may be separated by
// independent ops and may come in any order their dependences allow, and it is taken only
// when the replacement computes the same thing (the matcher's rules: every step reads the
// value its producing step wrote; the ops between the steps neither read what the steps
// write nor write what they read; temps dead afterwards; no barrier in between) and the op
// fits the last step's bundle (its slot free there, or the last step's own). The op takes
// the last step's place; the other steps leave their bundles (an emptied bundle is
// removed, or becomes a NOP when a label names it).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent::search::aie {

// Called per placed op with its mnemonic and the source line of the bundle it went to.
using PlacedOp = std::function<void(const std::string& mnemonic, uint32_t source_line)>;

// Replaces the matches of `ops` (in this order) in `tile`; returns how many it placed.
int use_added_ops(isa::aie_ml::AieTile& tile, const std::vector<const isa::aie_ml::ExtensionOp*>& ops,
                  const PlacedOp& placed = {});

// Every op of the ISA in force that has steps to match, in every tile; returns how many
// ops it inserted.
int use_composed_ops(isa::aie_ml::AieKernel& kernel);

}  // namespace tlmcraft::agent::search::aie
