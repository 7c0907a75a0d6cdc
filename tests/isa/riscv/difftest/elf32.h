// A minimal ELF32 little-endian RISC-V executable reader: entry point and PT_LOAD
// segments, enough to load a statically linked program into the ISS.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::isa::riscv::difftest {

struct ElfSegment {
  uint32_t vaddr = 0;
  uint32_t mem_size = 0;
  std::vector<uint8_t> bytes;  // file contents (mem_size - bytes.size() zero bytes follow)
  bool writable = false;
  bool executable = false;
};

struct ElfImage {
  uint32_t entry = 0;
  std::vector<ElfSegment> segments;
};

// Throws std::runtime_error naming the file and the problem.
ElfImage read_elf32(const std::string& path);

}  // namespace tlmcraft::isa::riscv::difftest
