// AIE-ML's energy actions (docs/energy-area.md, "Energy by action"). An op's actions come
// from isa/aie_ml/aie_ml.yaml: its `actions:` when declared, else derived from the op's
// description: `macs`/`format` (vector.mac.<format> x macs), the slot (another vector-slot
// op: 16 32-bit lane adds; a scalar-slot op: a 32-bit add), `access` bytes (data-memory
// bytes read by a load slot, written by the store slot) and its operands (register-file
// bytes: vector 32/64/128, accumulator 32/64/128, scalar-side 4 per register; a memory
// operand reads its pointer and a post-modify writes it). A bundle's list is the sum of
// its ops, plus 16 bytes of program memory; built once per program, added per issue.
#pragma once
#include <string>
#include <vector>

#include "isa/actions.h"
#include "isa/aie_ml/aie_core.h"

namespace tlmcraft::aie_ml {

// The actions of one issue of `op`. Throws InputError naming the YAML line on a bad count.
isa::NamedActions slot_op_actions(const isa::aie_ml::SlotOp& op);

// The catalog of every action an AIE-ML run can perform (every op's, program and data
// memory, DMA, DDR).
isa::ActionCatalog aie_action_catalog();

// Per bundle of `program`: the sum of its ops' actions and the bundle fetch (`bundle_bytes`
// of program memory).
isa::ActionLists bundle_actions(const isa::aie_ml::AieProgram& program, uint32_t bundle_bytes,
                                isa::ActionCatalog& catalog);

}  // namespace tlmcraft::aie_ml
