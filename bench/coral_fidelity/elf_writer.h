// Writes a loaded RISC-V program image (isa::Program segments and entry) back out as a
// minimal ELF32 executable, so the exact image the model ran can be given to the RTL
// oracle (which loads PT_LOAD segments).
#pragma once
#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace tlmcraft::bench {

std::vector<uint8_t> write_elf32(const isa::Program& program);

}  // namespace tlmcraft::bench
