// The area an op added by data adds to an AIE-ML core (docs/isa-extensions.md, AIE-ML,
// "Area"), from the per-operator table isa/operator_area.h ([H14], 45 nm, before
// ppa.area_scale):
// - a composed op chains its steps in one datapath in its slot. The slot's unit already
//   has one of each operator a built-in op uses, so the first step using an operator
//   (its kind and format, e.g. 16 bf16 MACs) reuses it; every further step using the
//   same operator adds a copy of that step's operators. Each temp adds a pipeline
//   register and a 2:1 bypass multiplexer per bit of its register class.
// - a `semantics:` op's operators (the ones its expression counts per issue) are all
//   new datapath: an upper bound (none is assumed shared with the slot's unit).
// Register-file traffic, moves and operators the table does not price add nothing; an
// arithmetic action the table does not price is an error naming it.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/extension_ops.h"
#include "platforms/isa_variant_area.h"

namespace tlmcraft::aie_ml {

// mm2 of a chain of steps (slot ops) with temps of the given classes.
double composed_area_mm2(const std::vector<isa::aie_ml::SlotOp>& steps,
                         const std::vector<isa::aie_ml::RegClass>& temps);

// mm2 of an added op (composed or `semantics:`). Throws std::invalid_argument naming the
// op and an action the table does not price.
double added_op_area_mm2(const isa::aie_ml::ExtensionOp& op);

// The compute tiles of an effective config (array.columns x array.rows; the default
// configuration's where the config does not say): every core gets an added op.
int compute_tiles(const nlohmann::json& config);

// What the ops added by data of `isa` add to an array of `tiles` compute tiles, one line
// per op: added_op_area_mm2 x tiles (an op the table cannot price: `unpriced`). The one
// pricing of an AIE-ML variant: `isa check`, the co-design adapter and a run's area.
std::vector<AddedArea> aie_variant_area(const isa::aie_ml::AieIsa& isa, int tiles);

}  // namespace tlmcraft::aie_ml
