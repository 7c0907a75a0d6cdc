// Reads a linked 32-bit little-endian RISC-V ELF executable into the image form of
// isa::Program: loadable segments, entry point and symbols.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tlmcraft::coral {

// Fills program.segments, entry and symbols (function and object symbols, sorted by
// address). Returns an empty string on success, else what is wrong with the file.
std::string read_elf_image(const std::vector<uint8_t>& elf, isa::Program& program);

}  // namespace tlmcraft::coral
