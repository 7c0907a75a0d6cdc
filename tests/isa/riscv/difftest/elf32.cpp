// ELF32 reading for the difftest harness (field offsets from the System V gABI).
#include "tests/isa/riscv/difftest/elf32.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace tlmcraft::isa::riscv::difftest {

namespace {
template <typename T>
T field(const std::vector<uint8_t>& file, size_t offset, const std::string& path) {
  if (offset + sizeof(T) > file.size()) throw std::runtime_error(path + ": truncated ELF file");
  T v;
  std::memcpy(&v, file.data() + offset, sizeof(T));
  return v;
}
}  // namespace

ElfImage read_elf32(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < 52 || std::memcmp(file.data(), "\x7f" "ELF", 4) != 0) throw std::runtime_error(path + ": not an ELF file");
  if (file[4] != 1 || file[5] != 1) throw std::runtime_error(path + ": not a 32-bit little-endian ELF file");
  if (field<uint16_t>(file, 18, path) != 243) throw std::runtime_error(path + ": not a RISC-V ELF file");
  ElfImage image;
  image.entry = field<uint32_t>(file, 24, path);
  const uint32_t phoff = field<uint32_t>(file, 28, path);
  const uint16_t phentsize = field<uint16_t>(file, 42, path), phnum = field<uint16_t>(file, 44, path);
  for (unsigned i = 0; i < phnum; ++i) {
    const size_t ph = phoff + size_t(i) * phentsize;
    if (field<uint32_t>(file, ph, path) != 1) continue;  // PT_LOAD only
    const uint32_t offset = field<uint32_t>(file, ph + 4, path), vaddr = field<uint32_t>(file, ph + 8, path);
    const uint32_t filesz = field<uint32_t>(file, ph + 16, path), memsz = field<uint32_t>(file, ph + 20, path);
    const uint32_t flags = field<uint32_t>(file, ph + 24, path);
    if (size_t(offset) + filesz > file.size() || filesz > memsz)
      throw std::runtime_error(path + ": segment " + std::to_string(i) + " lies outside the file");
    ElfSegment s;
    s.vaddr = vaddr;
    s.mem_size = memsz;
    s.bytes.assign(file.begin() + offset, file.begin() + offset + filesz);
    s.executable = flags & 1;
    s.writable = flags & 2;
    image.segments.push_back(std::move(s));
  }
  if (image.segments.empty()) throw std::runtime_error(path + ": no loadable segments");
  return image;
}

}  // namespace tlmcraft::isa::riscv::difftest
