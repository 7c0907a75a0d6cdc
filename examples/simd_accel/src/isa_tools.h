// `tlmcraft asm`, `isa doc`, `isa check` and `list isas` for the simd ISA: tlmcraft's
// generic table_isa_tools() on the plugin's own isa/simd/simd.yaml (isa_dir()), with the
// default configuration's cycles for `isa doc --latencies`.
#pragma once
#include "isa/isa_tools.h"

namespace simd_accel {

tlmcraft::isa::IsaTools simd_isa_tools();

}  // namespace simd_accel
