// `tlmcraft asm`, `isa doc`, `isa check` and `list isas` for the simd ISA. The generic
// table_isa_tools() finds descriptions in tlmcraft's data folder only, so these read the
// plugin's own isa/simd/simd.yaml (or TLMCRAFT_ISA_DIR's, see isa_path()).
#pragma once
#include "isa/isa_tools.h"

namespace simd_accel {

tlmcraft::isa::IsaTools simd_isa_tools();

}  // namespace simd_accel
