// AIE-ML core programs as the shared dataflow view sees them (isa/dataflow/dataflow.h):
// the co-design miner, `codesign explore`'s rewrite and the search agent's "use added
// ops" all read kernels through this one translation (docs/codesign.md, AIE-ML).
// - Each slot op of a bundle is one op, in the bundle's own order (bundle_sequence: an op
//   that reads what another op of the bundle writes comes first), with its register
//   operands by their YAML roles (dst/rw) and named as written ("w3", "bm1", "r4");
//   immediates are literals (decimal).
// - Aliasing views are named alike: an op that reads or writes a register also reads or
//   writes, implicitly, every view that overlaps it (writing w0 writes x0 and y0; writing
//   bm1 writes am2, am3 and cm0), so dependences through another view are never missed.
// - Labels that anything branches to and the loop-back after a zero-overhead loop's last
//   bundle are marker ops (barriers, with the control-flow edges liveness needs); branches,
//   DONE, locks and writes of the loop registers are barriers; loads and stores read and
//   write all of data memory ("MEM@*").
// - An op whose mnemonic has an operand shape of several register classes ("vany",
//   "cm|bm", "r|imm7s") is named with its operands' classes ("VMOV:bm,bm"), so a composed
//   op's steps and a kernel's ops agree on the datapath.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/program_text.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::agent::search::aie {

// Marks an op that reads a value last written through another view of its register
// (a w half written, the whole x read): such an op joins no added op (the pattern's names
// could not say which value it reads).
extern const char* const kMixedViewMark;

struct TileDataflow {
  std::vector<isa::dataflow::Op> ops;
  // Per op: the tile line and the op's index in that bundle; line == SIZE_MAX for a marker.
  struct Place {
    size_t line = SIZE_MAX, op = 0;
  };
  std::vector<Place> places;
  bool analysed = true;  // false: control flow the analysis does not follow (every op a barrier)
};

// The tile's ops (see above).
TileDataflow tile_dataflow(const isa::aie_ml::AieTile& tile);

// One slot op in dataflow form (operands, implicit views, barrier flag).
isa::dataflow::Op slot_op_dataflow(const isa::aie_ml::SlotOp& op);

// The dataflow name of an op's mnemonic (with its operands' classes where the ISA's shape
// admits several) and the plain mnemonic of such a name.
std::string dataflow_mnemonic(const isa::aie_ml::SlotOp& op);
std::string plain_mnemonic(const std::string& dataflow_name);

// Times each bundle line of the tile runs in one run of the core program: executed on
// the functional model with every memory byte equal to `fill` and every lock granted.
// Throws std::invalid_argument (naming `where`) on a fault or when it does not stop within
// `max_bundles`.
std::vector<uint64_t> bundle_executions(const isa::aie_ml::AieTile& tile, uint8_t fill, const std::string& where,
                                        uint64_t max_bundles = 50'000'000);

// A composed op's steps (or a `semantics:` op's `replaces:` steps) as a pattern over its
// operand and temp names; an immediate operand of the op is a parameter.
isa::dataflow::Pattern extension_pattern(const isa::aie_ml::ExtensionOp& e);

}  // namespace tlmcraft::agent::search::aie
