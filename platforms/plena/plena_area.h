// The datapath area an instruction added by data adds to PLENA (docs/isa-extensions.md,
// "PLENA", Area), from the per-operator table isa/operator_area.h ([H14], [N45], 45 nm),
// before ppa.area_scale. One place for `isa check` and `codesign`:
// - a composed instruction chains the vector unit's existing operators (one of each kind
//   per lane: adder, multiplier, exp, reciprocal, square root, max/min) and adds a copy of
//   every operator kind its steps use more than once (per lane for a vector step), plus
//   per temporary a pipeline register and a 2:1 bypass multiplexer per bit of a bf16 lane
//   (VLEN lanes when any step is a vector step); a scalar integer step (a register
//   updated in place: post-increment) adds its own int32 operator and a 2:1
//   multiplexer per bit of the gp file's write data;
// - a `semantics:` instruction's operators (the operations its expression counts per
//   execution, VLEN lanes of a row) are all new datapath: an upper bound.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "platforms/isa_variant_area.h"

namespace tlmcraft::plena {

// mm2 of a chain of steps (mnemonics of `spec`; unknown ones add nothing) with `temps`
// temporaries, on a `vlen`-lane vector unit.
double plena_composed_area_mm2(const isa::IsaSpec& spec, const std::vector<std::string>& step_mnemonics, size_t temps,
                               int64_t vlen);

// mm2 of `added` more write ports on the register file of `register_class` ("gp": 16 x
// 32 bits, "fp": 8 x 16, "addr": 8 x 64; isa/operator_area.h register_write_port_um2).
// Throws InputError for another class.
double plena_write_ports_area_mm2(const isa::IsaSpec& spec, const std::string& register_class, int added);

// mm2 an added instruction (composed or `semantics:`) adds; 0 for a built-in one. Throws
// InputError naming the instruction and an operation the table does not price.
double plena_added_area_mm2(const isa::IsaSpec& spec, const isa::InstructionSpec& ins, int64_t vlen);

// What `variant` adds over `base` (its base description without the overlays), in
// `variant`'s order: one line per instruction added by data (plena_added_area_mm2) and one
// per register class with more write ports than in `base` (plena_write_ports_area_mm2).
// The one pricing of a PLENA variant: `isa check`, the co-design adapter and a run's area.
std::vector<AddedArea> plena_variant_area(const isa::IsaSpec& variant, const isa::IsaSpec& base, int64_t vlen);

}  // namespace tlmcraft::plena
