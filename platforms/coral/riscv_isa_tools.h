// RISC-V's entry in the ISA tool registry (isa/isa_tools.h), registered by Coral, whose
// toolchain (GNU binutils for assembly, clang for C) builds RISC-V kernels. The decoder
// is compiled in (isa/riscv/decode.cpp): there is no YAML description to check, and the
// reference is the hand-written docs/isa/riscv.md and docs/isa/riscv-vector.md.
#pragma once
#include "isa/isa_tools.h"

namespace tlmcraft::coral {

isa::IsaTools riscv_isa_tools();

}  // namespace tlmcraft::coral
