// AIE-ML's entry in the ISA tool registry (isa/isa_tools.h). The VLIW ISA has its own
// YAML schema (isa/aie_ml/aie_ml.yaml, validated by isa::aie_ml::parse_aie_isa, not by
// the generic isa_spec.h loader) and kernel files of `.tile`/`.movement` sections, which
// this platform's kernel reader splits before the core assembler runs.
#pragma once
#include "isa/isa_tools.h"

namespace tlmcraft::aie_ml {

isa::IsaTools aie_ml_isa_tools();

}  // namespace tlmcraft::aie_ml
